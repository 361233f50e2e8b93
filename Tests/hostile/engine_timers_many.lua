-- A million timers and display links (each a Swift object holding a Lua function).
-- expect: memory limit|not enough memory
-- args: --instruction-limit 100000000 --memory-limit 16 --time-limit 5
local ca = require "caluna"
local f = function() end
for i = 1, 1e6 do ca.every(1000, f); ca.displayLink(f).paused = true end
