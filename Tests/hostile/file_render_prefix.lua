-- "granted-evil" shares the granted directory's name as a prefix: a check that compares
-- strings instead of path components lets it through.
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted --allow-write granted
local ca = require "caluna"
ca.render("granted-evil/hostile-escape.png")
