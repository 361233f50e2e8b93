-- 5,000 circles in one spot: every pair would collide (12.5 million pairs, in Chipmunk's own
-- memory, made as the shapes join and in the next step). The world refuses the shape that
-- would pass its maxContactPairs (20,000 in a sandbox: the 201st circle).
-- expect: Body:addCircle: the shape was not added: Chipmunk would make 200 more pairs .*maxContactPairs \(20000
-- exit: 1
-- args: --instruction-limit 10000000 --memory-limit 64 --time-limit 2 --frames 2
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, 100} }
for i = 1, 5000 do world:addBody{ mass = 1, position = {0, 0} }:addCircle{ radius = 50 } end
