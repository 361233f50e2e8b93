-- A million event handlers sharing one Lua function: Lua holds one reference each, the
-- engine a handler object each.
-- expect: memory limit|not enough memory
-- args: --instruction-limit 100000000 --memory-limit 16 --time-limit 5
local ca = require "caluna"
local f = function() end
for i = 1, 1e6 do ca.on("tick", f) end
