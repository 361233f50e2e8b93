-- A file write from a display link, i.e. inside caluna's frame step, not the script body.
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --frames 2
local ca = require "caluna"
local img = ca.render()
ca.displayLink(function() img:write("../hostile-escape.png") end)
