-- A path that starts inside the granted directory and climbs out with "..".
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted --allow-write granted
local ca = require "caluna"
ca.render("granted/../hostile-escape.png")
