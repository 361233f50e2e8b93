-- granted/up is a symlink (made by the runner) to the directory above the working directory:
-- the path looks inside the granted directory but resolves outside it.
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted --allow-write granted
local ca = require "caluna"
ca.render("granted/up/hostile-escape.png")
