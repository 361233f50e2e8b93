-- Shapes added to one body in a world, each in its own place (so no pair of them overlaps):
-- refused past the world's maxShapes (4,000 in a sandbox).
-- expect: Body:addCircle: the physics world holds 4000 shapes and its maxShapes is 4000: the shape was not added
-- exit: 1
-- args: --instruction-limit 100000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local world = ca.physics.World{}
local body = world:addBody{ mass = 1, moment = 1 }
for i = 1, 1e6 do body:addCircle{ radius = 1, offset = { (i % 100) * 10, (i // 100) * 10 } } end
