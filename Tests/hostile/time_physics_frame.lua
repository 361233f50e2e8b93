-- A physics world left for the CLI, which renders its first frame at t = 10^7 s: 1.2 × 10^9
-- fixed steps are due in the host's own frame step, outside the script's time limit.
-- maxStepsPerFrame (16 by default, at most 16 in a sandbox) runs 16 and drops the rest; the
-- display link prints the counts at the second frame.
-- output: steps 16, dropped 1199999984
-- exit: 0
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 2 --at 10000000 --frames 2
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, 100} }
world:addBody{ mass = 1, position = {0, 0} }:addCircle{ radius = 5 }
ca.displayLink(function()
  if world.droppedSteps > 0 then print(("steps %d, dropped %d"):format(world.steps, world.droppedSteps)) end
end)
