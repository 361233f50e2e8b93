local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
local ca = require 'caluna'
local T = FUZZ_T
T.test("sandbox: the drawing context, pixel buffer and arbiter inside their callbacks", function()
  local swept = 0
  local function sweepObject(o, what)
    swept = swept + sweepMethods(what, o, {}, function() return { o } end) + 1
    pokeFields(o, { "shapeA", "bodyB", "normal", "points", "restitution", "friction", "surfaceVelocity",
                    "width", "valid", "contentsScale" })
  end
  ca.Transaction.setDisableActions(true)
  local l = ca.Layer{ frame = { 0, 0, 8, 8 } }
  l.draw = function(_, ctx) sweepObject(ctx, "DrawingContext") end
  l:display()
  local pb = ca.PixelBufferLayer{ frame = { 0, 0, 4, 4 } }
  pb.drawFrame = function(_, buffer) sweepObject(buffer, "PixelBuffer") end
  ca.root:addSublayer(pb)
  ca.render()
  local w = ca.physics.World{ gravity = { 0, 0 } }
  for _, x in ipairs { 0, 0.5 } do w:addBody{ mass = 1, position = { x, 0 } }:addCircle{ radius = 1 } end
  local arbiters = 0
  w:addCollisionHandler{ begin = function(arb) arbiters = arbiters + 1 sweepObject(arb, "Arbiter") end }
  pcall(ca.step, 1 / 60)
  T.eq(arbiters, 1, "the begin callback ran")
  T.truthy(swept > 45, "reached " .. swept .. " methods of callback objects")
  healthy("callback objects")
end, opts)

