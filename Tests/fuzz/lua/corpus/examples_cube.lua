-- Chapter 5's cubes: perspective, back faces, depth order, lighting, transform layers.
--   Left: listings 5.9–5.10 — six numbered faces placed around a centre, a container whose
--   sublayerTransform holds the perspective (m34 = −1/500) and the camera (turned 45° about
--   x and y), and a black overlay per face whose opacity comes from the face normal and a
--   fixed light (0, 1, −0.5) with 0.5 ambient: the top is lit, the front dimmer, the right darker.
--   Right: listing 6.5's idea — a cube built from a CATransformLayer, so its faces share the
--   container's 3D space; the whole cube turns about y with time (a display link), drawn back to
--   front every frame. Back faces are culled (doubleSided = false).
-- Render: caluna run examples/cube.lua -o cube.png --size 640x340 --scale 2 --at 0.6
--         caluna run examples/cube.lua -o out/cube/ --size 640x340 --frames 120 --fps 30
local ca = require "caluna"

local w, h = ca.size()
local scale = ca.scale()
local pi = math.pi
ca.root.backgroundColor = "#20232a"

local function label(text, rect, size, color)
  local l = ca.Layer { frame = rect, contentsScale = scale }
  l.draw = function(_, ctx)
    ctx:setFont("DejaVu Sans Bold", size):setFillColor(color)
    ctx:drawText(text, { 0, 0, rect[3], rect[4] }, "center")
  end
  l:display()
  return l
end

ca.root:addSublayer(label("Listing 5.10: a lit cube", { 0, 10, w / 2, 20 }, 13, "#e8e6e3"))
ca.root:addSublayer(label("Listing 6.5: a CATransformLayer cube", { w / 2, 10, w / 2, 20 }, 13, "#e8e6e3"))

-- The six face transforms of listing 5.9 (row-vector order: rotate first, then translate).
local I = ca.Transform3D.identity
local function faceTransforms(r)
  return {
    I:translate(0, 0, r),
    I:translate(r, 0, 0):rotate(pi / 2, 0, 1, 0),
    I:translate(0, -r, 0):rotate(pi / 2, 1, 0, 0),
    I:translate(0, r, 0):rotate(-pi / 2, 1, 0, 0),
    I:translate(-r, 0, 0):rotate(-pi / 2, 0, 1, 0),
    I:translate(0, 0, -r):rotate(pi, 0, 1, 0),
  }
end

-- Listing 5.10's lighting: alpha = 1 + dot(light, normal) − ambient, clamped.
local light = { 0, 1, -0.5 }
do
  local n = math.sqrt(light[1] ^ 2 + light[2] ^ 2 + light[3] ^ 2)
  light = { light[1] / n, light[2] / n, light[3] / n }
end
local function shade(t)
  local nx, ny, nz = t.m31, t.m32, t.m33
  local n = math.sqrt(nx * nx + ny * ny + nz * nz)
  local a = 1 + (light[1] * nx + light[2] * ny + light[3] * nz) / n - 0.5
  return math.max(0, math.min(1, a))
end

local function face(i, side, color, lit, t)
  local f = ca.Layer { bounds = { 0, 0, side, side }, backgroundColor = color, transform = t,
                       borderWidth = 2, borderColor = "#20232a" }
  f:addSublayer(label(tostring(i), { 0, side / 2 - side / 5, side, side / 2 }, side / 3, "#20232a"))
  if lit then
    f:addSublayer(ca.Layer { frame = { 0, 0, side, side }, backgroundColor = "black", opacity = shade(t) })
  end
  return f
end

-- Left: the lit cube (all faces white, as in the book's figure 5.22).
local left = ca.Layer { frame = { 0, 30, w / 2, h - 30 } }
local camera = I:copy()
camera.m34 = -1 / 500
camera = camera:rotate(-pi / 4, 1, 0, 0):rotate(-pi / 4, 0, 1, 0)
left.sublayerTransform = camera
ca.root:addSublayer(left)
for i, t in ipairs(faceTransforms(60)) do
  local f = face(i, 120, "white", true, t)
  f.position = { w / 4, (h - 30) / 2 }
  left:addSublayer(f)
end

-- Right: a transform-layer cube turning about y; faces in six colours, back faces culled.
local right = ca.Layer { frame = { w / 2, 30, w / 2, h - 30 } }
local p = I:copy()
p.m34 = -1 / 500
right.sublayerTransform = p
ca.root:addSublayer(right)
local cube = ca.TransformLayer { position = { w / 4, (h - 30) / 2 } }
right:addSublayer(cube)
local colours = { "#e06c75", "#98c379", "#61afef", "#e5c07b", "#56b6c2", "#c678dd" }
for i, t in ipairs(faceTransforms(60)) do
  local f = face(i, 120, colours[i], false, t)
  f.doubleSided = false
  cube:addSublayer(f)
end

local function turn(time)
  ca.Transaction.begin()
  ca.Transaction.setDisableActions(true)
  cube.transform = I:rotate(-pi / 6, 1, 0, 0):rotate(time * pi / 2 - pi / 12, 0, 1, 0)
  ca.Transaction.commit()
end
turn(0)
ca.displayLink(function(link) turn(link.targetTimestamp) end)
