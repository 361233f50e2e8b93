-- The book's crate box (listings 11.3–11.5): Chipmunk physics behind layers.
--   A 300×300 container with geometryFlipped, so layers and the y-up physics world share
--   coordinates; four wall segments (radius 1) on the world's static body; the five crates
--   of listing 11.4 (mass 100, friction 0.5, elasticity 0.8), each a layer bound to its
--   body; gravity (0, −1000) stepped at a fixed 1/120 s by the engine's clock (11.5).
--   At t = 2.5 s the "device tilts" (acceleration x = 0.4, y = 0.92): the accelerometer
--   handler of listing 11.4 sets gravity to (920, −400) and the pile slides to the right.
-- Render: caluna run examples/crates.lua -o crates.png --size 340x360 --scale 2 --at 1.2
--         caluna run examples/crates.lua -o out/crates/ --size 340x360 --frames 150 --fps 30
local ca = require "caluna"

local w, h = ca.size()
local scale = ca.scale()
ca.root.backgroundColor = "#e9e3d6"

-- Title, drawn once.
local title = ca.Layer { frame = { 0, 8, w, 22 }, contentsScale = scale }
title.draw = function(_, ctx)
  ctx:setFont("DejaVu Sans Bold", 13):setFillColor("#3b3428")
  ctx:drawText("Chipmunk crates in a geometryFlipped box", { 0, 0, w, 22 }, "center")
end
title:display()
ca.root:addSublayer(title)

-- The container: y up inside, like Chipmunk's world.
local box = ca.Layer { frame = { (w - 300) / 2, 44, 300, 300 }, geometryFlipped = true,
                       backgroundColor = "#fbf8f1", borderWidth = 2, borderColor = "#3b3428" }
ca.root:addSublayer(box)

-- A wooden crate texture (drawn once per size, shared by the crates of that size).
local textures = {}
local function crateImage(size)
  if textures[size] then return textures[size] end
  local l = ca.Layer { bounds = { 0, 0, size, size }, contentsScale = scale }
  l.draw = function(_, ctx)
    local edge = math.max(3, size / 9)
    ctx:setFillColor("#b07a3c"):fillRect({ 0, 0, size, size })
    ctx:setStrokeColor("#7a4f22"):setLineWidth(1)
    for y = size / 4, size - 1, size / 4 do ctx:moveTo(0, y):addLineTo(size, y):strokePath() end
    ctx:setFillColor("#8a5a2b")
    ctx:fillRect({ 0, 0, size, edge }):fillRect({ 0, size - edge, size, edge })
    ctx:fillRect({ 0, 0, edge, size }):fillRect({ size - edge, 0, edge, size })
    ctx:setStrokeColor("#8a5a2b"):setLineWidth(edge * 0.9)
    ctx:moveTo(edge, edge):addLineTo(size - edge, size - edge):strokePath()
    ctx:setStrokeColor("#5c3a17"):setLineWidth(1.5):strokeRect({ 0.75, 0.75, size - 1.5, size - 1.5 })
  end
  l:display()
  -- A snapshot is a plain image: it stays upright in the flipped box (a drawn
  -- backing store would follow the box's geometry instead).
  textures[size] = l:snapshot(scale)
  return textures[size]
end

local world = ca.physics.World { gravity = { 0, -1000 }, step = 1 / 120 }

-- Listing 11.4's walls: a hollow rectangle of segments on the static body.
local corners = { { 0, 0 }, { 300, 0 }, { 300, 300 }, { 0, 300 } }
for i = 1, 4 do
  world.staticBody:addSegment { a = corners[i], b = corners[i % 4 + 1], radius = 1,
                                friction = 0.5, elasticity = 0.8, collisionType = 2 }
end

-- Listing 11.3's Crate: frames in the book's top-left coordinates of a 300-pt box.
local function addCrate(x, y, size)
  local body = world:addBody { mass = 100, position = { x + size / 2, 300 - y - size / 2 } }
  body:addBox { width = size, height = size, friction = 0.5, elasticity = 0.8 }
  local layer = ca.Layer { bounds = { 0, 0, size, size }, contents = crateImage(size),
                           contentsGravity = "resizeAspectFill" }
  box:addSublayer(layer)
  body:bind(layer)
  return body
end

for _, f in ipairs { { 0, 0, 32 }, { 32, 0, 32 }, { 64, 0, 64 }, { 128, 0, 32 }, { 0, 32, 64 } } do
  addCrate(f[1], f[2], f[3])
end
-- A few more, so the pile has something to tumble over.
for i, f in ipairs { { 190, 20, 48 }, { 240, 90, 40 }, { 150, 120, 56 } } do addCrate(f[1], f[2], f[3]) end

-- The accelerometer of listing 11.4, landscape: gravity = (ay·1000, −ax·1000).
local function gravityFromAcceleration(ax, ay) return { ay * 1000, -ax * 1000 } end
ca.after(2.5, function() world.gravity = gravityFromAcceleration(0.4, 0.92) end)
