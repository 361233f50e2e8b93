-- world:step in a loop on a pile of colliding bodies: each call is real C work; only the
-- time limit (or a charge for the work) ends it.
-- expect: time limit|instruction budget exhausted
-- exit: 3
-- args: --instruction-limit 1000000000000 --memory-limit 64 --time-limit 2
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, 100}, iterations = 100 }
for i = 1, 200 do
  world:addBody{ mass = 1, position = {i % 10, i % 7} }:addCircle{ radius = 5 }
end
while true do world:step(1 / 120) end
