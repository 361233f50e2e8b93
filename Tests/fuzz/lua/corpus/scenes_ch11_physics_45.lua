local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
local ca = require 'caluna'
local T = FUZZ_T
T.test("binding: a flipY mapping (origin, scale) in an ordinary container; rotates = false; unbind", function()
  ca.root.backgroundColor = "#ffffff"
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local body = world:addBody{ mass = 1, position = { 10, 20 }, angularVelocity = 2 }
  body:addBox{ width = 10, height = 10 }
  local mapped = ca.Layer{ bounds = { 0, 0, 20, 20 }, backgroundColor = "#ff0000" }
  local still = ca.Layer{ bounds = { 0, 0, 20, 20 } }
  ca.root:addSublayer(mapped)
  ca.root:addSublayer(still)
  ca.step(0)
  body:bind(mapped, { origin = { 50, 250 }, scale = 2, flipY = true })
  body:bind(still, { rotates = false })
  T.eq(mapped.position, { 50 + 2 * 10, 250 - 2 * 20 }, "origin + scale·(x, −y), at once")
  local bound = body:boundLayers()
  T.eq(#bound, 2)
  T.same(bound[1], mapped)
  for n = 1, 30 do
    ca.step(1 / 60)
    local p = body.position
    T.eq(mapped.position, { 50 + 2 * p.x, 250 - 2 * p.y }, "frame " .. n)
    T.near(mapped:valueForKeyPath("transform.rotation.z"), -body.angle, 1e-12, "flipY turns the other way")
    T.eq(still.position, p, "the identity mapping")
    T.eq(still.transform, ca.Transform3D.identity, "rotates = false: no rotation")
  end
  T.eq(#mapped:animationKeys(), 0)
  T.eq(#still:animationKeys(), 0)
  local img = ca.render()
  T.pixel(img, mapped.position.x, mapped.position.y, "#ff0000", 3, "drawn where the mapping puts it")
  body:unbind(mapped)
  T.eq(#body:boundLayers(), 1)
  local pos = mapped.position
  run(10, 1 / 60)
  T.eq(mapped.position, pos, "an unbound layer stays")
  T.eq(still.position, body.position)
  body:unbind()
  T.eq(#body:boundLayers(), 0)
  local sp = still.position
  run(10, 1 / 60)
  T.eq(still.position, sp, "unbind() drops every layer")
end)

