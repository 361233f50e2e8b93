-- A display link (run by the CLI's frame step) that catches the budget error forever.
-- expect: instruction budget exhausted
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --frames 2
local ca = require "caluna"
ca.displayLink(function() while true do pcall(function() while true do end end) end end)
