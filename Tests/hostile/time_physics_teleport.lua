-- A positionUpdate that moves every body to one point, inside the step (after the count
-- before it): the moves past maxContactPairs are undone and the step reports it.
-- expect: World:step: body #[0-9]+ \(dynamic\)'s positionUpdate moved it among too many shapes .*the move was undone
-- exit: 1
-- args: --instruction-limit 100000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local world = ca.physics.World{}
for i = 1, 2000 do
  local b = world:addBody{ mass = 1, position = { (i % 50) * 20, (i // 50) * 20 } }
  b:addCircle{ radius = 5 }
  b.positionUpdate = function(body) body.position = { 0, 0 } end
end
while true do world:step(1 / 120) end
