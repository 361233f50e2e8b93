-- display() of a 2048-point layer (a new 16 MiB backing store each time), in a loop: almost
-- no VM instructions, a lot of engine work.
-- expect: time limit|instruction budget exhausted
-- exit: 3
-- args: --instruction-limit 1000000000000 --memory-limit 128 --time-limit 2
local ca = require "caluna"
local l = ca.Layer{ frame = {0, 0, 2048, 2048} }   -- not in the tree: no contents fade keeps old stores
l.draw = function(layer, ctx) end
while true do l:display(); collectgarbage() end   -- the old store goes with its drawing context
