-- A physics world left for the CLI, which renders its frame at t = 10^7 s: the world
-- catches up 1.2 × 10^9 steps inside the host's step.
-- expect: time limit|instruction budget exhausted
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 2 --at 10000000
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, 100} }
world:addBody{ mass = 1, position = {0, 0} }:addCircle{ radius = 5 }
