-- The book's crate box (listings 11.3–11.5) with its accelerometer (11.4) as input.
--   A 300×300 container with geometryFlipped, so its layers and the y-up Chipmunk world
--   share coordinates; four wall segments (radius 1, friction 0.5, elasticity 0.8) on the
--   world's static body; the five crates of listing 11.4 (mass 100, friction 0.5,
--   elasticity 0.8) and three more for the pile to tumble over, each a layer bound to its
--   body; gravity (0, −1000), stepped at a fixed 1/120 s by the engine's clock (11.5).
--   The book's accelerometer delegate is a tilt handler: a reading (x, y) in g sets the
--   gravity to (y·1000, −x·1000) (the book's landscape mapping, x and y swapped). A tilt is
--   handled at its own time, after the physics has caught up to it, so the pile moves the
--   same whatever the frame rate. examples/crates.jsonl tilts at 2.5 s (gravity (920, −400):
--   the pile slides right), at 5 s onto its side (1000, 0) and at 7 s the other way.
--   Layers a host can look up by name: "box", "crate0" … "crate7" (the book's five first).
-- Render: caluna run examples/crates.lua --events examples/crates.jsonl -o crates.png --size 340x360 --scale 2 --at 4.5
--         caluna run examples/crates.lua --events examples/crates.jsonl -o out/crates/ --size 340x360 --frames 300 --fps 30
local ca = require "caluna"

local w, h = ca.size()
local scale = ca.scale()
ca.root.backgroundColor = "#e9e3d6"

local title = ca.Layer { frame = { 0, 8, w, 22 }, contentsScale = scale }
title.draw = function(_, ctx)
  ctx:setFont("DejaVu Sans Bold", 13):setFillColor("#3b3428")
  ctx:drawText("Chipmunk crates in a geometryFlipped box", { 0, 0, w, 22 }, "center")
end
title:display()
ca.root:addSublayer(title)

-- The container: y up inside, like Chipmunk's world.
local box = ca.Layer { name = "box", frame = { (w - 300) / 2, 44, 300, 300 }, geometryFlipped = true,
                       backgroundColor = "#fbf8f1", borderWidth = 2, borderColor = "#3b3428" }
ca.root:addSublayer(box)

-- A wooden crate texture per size, drawn once and shared.
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
  -- A snapshot is a plain image: it stays upright in the flipped box.
  textures[size] = l:snapshot(scale)
  return textures[size]
end

local world = ca.physics.World { gravity = { 0, -1000 }, step = 1 / 120 }

-- The walls: a hollow rectangle of segments on the static body.
local corners = { { 0, 0 }, { 300, 0 }, { 300, 300 }, { 0, 300 } }
for i = 1, 4 do
  world.staticBody:addSegment { a = corners[i], b = corners[i % 4 + 1], radius = 1,
                                friction = 0.5, elasticity = 0.8, collisionType = 2 }
end

-- Listing 11.3's Crate: a frame in the book's top-left coordinates of the 300-pt box
-- becomes the y-up body position (x + size/2, 300 − y − size/2).
local function addCrate(name, x, y, size)
  local body = world:addBody { mass = 100, position = { x + size / 2, 300 - y - size / 2 } }
  body:addBox { width = size, height = size, friction = 0.5, elasticity = 0.8 }
  local layer = ca.Layer { name = name, bounds = { 0, 0, size, size }, contents = crateImage(size),
                           contentsGravity = "resizeAspectFill" }
  box:addSublayer(layer)
  body:bind(layer)
  return body
end

-- Listing 11.4's five, then three more so the pile has something to tumble over.
local crates = {}
for i, f in ipairs { { 0, 0, 32 }, { 32, 0, 32 }, { 64, 0, 64 }, { 128, 0, 32 }, { 0, 32, 64 },
                     { 190, 20, 48 }, { 240, 90, 40 }, { 150, 120, 56 } } do
  crates[i] = addCrate("crate" .. (i - 1), f[1], f[2], f[3])
end

-- The accelerometer of listing 11.4, landscape: gravity = (ay·1000, −ax·1000).
ca.on("tilt", function(e)
  world.gravity = { e.y * 1000, -e.x * 1000 }
end)

-- For tests and Lua hosts that dofile this scene: the world and the crates' bodies.
return { world = world, crates = crates }
