-- Constraints between two bodies added in a loop (each is Chipmunk memory and solver work
-- every step): refused past the world's maxConstraints (4,000 in a sandbox).
-- expect: World:add: the physics world holds 4000 constraints, its maxConstraints; the constraint was not added
-- exit: 1
-- args: --instruction-limit 100000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local P = ca.physics
local world = P.World{}
local a = world:addBody{ mass = 1, moment = 1, position = {0, 0} }
local b = world:addBody{ mass = 1, moment = 1, position = {10, 0} }
for i = 1, 1e6 do world:add(P.SlideJoint{ a = a, b = b, min = 0, max = 20 }) end
