-- A collision handler that adds a body at every contact point: the bodies pile up where they
-- touch, each new one touching more. The world refuses the shape that would pass its
-- maxContactPairs (or a body past maxBodies), raised by the step that ran the handler.
-- expect: World:step: .*(maxContactPairs \(20000|maxBodies)
-- exit: 1
-- args: --instruction-limit 100000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, -100} }
world.staticBody:addSegment{ a = {-1000, 0}, b = {1000, 0}, radius = 1 }
world:addBody{ mass = 1, position = {0, 5} }:addCircle{ radius = 5 }
world:addCollisionHandler{ begin = function(arb)
  world:addBody{ mass = 1, position = arb.points[1].pointA }:addCircle{ radius = 5 }
  return true
end }
while true do world:step(1 / 120) end
