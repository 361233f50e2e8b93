-- 1,500 balls on a ring, each flung at the centre so all arrive in the same 1/120 s step:
-- no pair overlaps when the step starts. The count before the step grows each shape's box
-- by its motion, so the step is refused before Chipmunk makes ~1.1 million pairs.
-- expect: World:step: the physics world was not stepped: more than 20000 pairs of shapes could touch
-- exit: 1
-- args: --instruction-limit 100000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local world = ca.physics.World{}
local n, bodies = 1500, {}
for i = 1, n do
  local a = 2 * math.pi * i / n
  bodies[i] = world:addBody{ mass = 1, position = { 2000 * math.cos(a), 2000 * math.sin(a) } }
  bodies[i]:addCircle{ radius = 4 }
end
world:step(1 / 120)
for i = 1, n do
  local a = 2 * math.pi * i / n
  bodies[i].velocity = { -240000 * math.cos(a), -240000 * math.sin(a) }
end
world:step(1 / 120)
