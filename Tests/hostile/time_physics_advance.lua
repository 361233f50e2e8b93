-- ca.advance(1e8) with a physics world: 1.2 × 10^10 fixed steps in one call.
-- expect: time limit|instruction budget exhausted
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 2
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, 100} }
world:addBody{ mass = 1, position = {0, 0} }:addCircle{ radius = 5 }
ca.advance(1e8)
