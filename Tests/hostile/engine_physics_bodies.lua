-- Physics bodies with 256-point polygons added in a loop (Chipmunk's memory is engine memory).
-- expect: memory limit|not enough memory
-- args: --instruction-limit 100000000 --memory-limit 16 --time-limit 5
local ca = require "caluna"
local world = ca.physics.World{}
local points = {}
for k = 1, 256 do local a = 2 * math.pi * k / 256; points[k] = { 10 * math.cos(a), 10 * math.sin(a) } end
for i = 1, 1e6 do
  local b = world:addBody{ mass = 1, moment = 1, position = {i * 30, 0} }
  b:addPolygon{ points = points, radius = 1 }   -- 256 vertices: kilobytes in Chipmunk
end
