-- ca.advance(1e8) with a physics world: 1.2 × 10^10 fixed steps are due in one call.
-- maxStepsPerFrame (16) runs 16 and drops the rest.
-- output: steps 16, dropped 11999999984
-- exit: 0
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 2
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, 100} }
world:addBody{ mass = 1, position = {0, 0} }:addCircle{ radius = 5 }
ca.advance(1e8)
print(("steps %d, dropped %d"):format(world.steps, world.droppedSteps))
