-- img:write with a NUL in the path (see file_render_nul).
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted --allow-write granted
local ca = require "caluna"
local img = ca.render()
img:write("../hostile-escape.png\0/../work/granted/x.png")
