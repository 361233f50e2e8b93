-- A NUL inside the path: read as a whole it normalises into the granted directory
-- (work/granted/x.png), but C stops at the NUL and writes ../hostile-escape.png.
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted --allow-write granted
local ca = require "caluna"
ca.render("../hostile-escape.png\0/../work/granted/x.png")
