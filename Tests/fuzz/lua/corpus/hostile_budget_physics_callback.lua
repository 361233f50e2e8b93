-- A body's velocityUpdate callback (run inside Chipmunk's step) that catches forever.
-- expect: instruction budget exhausted
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --frames 2
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, 100} }
local body = world:addBody{ mass = 1, position = {0, 0} }
body:addCircle{ radius = 5 }
body.velocityUpdate = function() while true do pcall(function() while true do end end) end end
