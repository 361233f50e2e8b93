-- Listing 9.4: scrubbing a paused animation with a pan gesture.
--   The door of listing 9.2 (128×256, anchorPoint (0, 0.5), hinged at (86, 150) in a
--   300×300 container whose sublayerTransform has the perspective m34 = −1/500) gets
--   speed = 0 before a 1 s transform.rotation.y → −π/2 animation is added, so the
--   animation never plays by itself: its time is the door's timeOffset. A pan anywhere
--   (the book's gesture recognizer is on the whole view) moves timeOffset by −dx/200,
--   clamped to [0, 0.999] — at 1.0 the animation would complete and be removed. As in the
--   book, each pan event reads translation.x and then sets the translation back to 0.
--   timeOffset 0.5 shows the door at −π/4; a drag 100 pt to the left opens it that far.
--   Layers a host can look up by name: "container", "door".
-- Render: caluna run examples/door_scrub.lua --events examples/door_scrub.jsonl -o out/door_scrub/ --frames 180 --size 300x380
local ca = require "caluna"

local w, h = ca.size()
local scale = ca.scale()
ca.root.backgroundColor = "#e9e3d6"

local title = ca.Layer { frame = { 0, 8, w, 20 }, contentsScale = scale }
title.draw = function(_, ctx)
  ctx:setFont("DejaVu Sans Bold", 12):setFillColor("#3b3428")
  ctx:drawText("Listing 9.4: drag to open the door", { 0, 0, w, 20 }, "center")
end
title:display()
ca.root:addSublayer(title)

-- The book's layerView, with the perspective for its sublayers.
local container = ca.Layer { name = "container", frame = { (w - 300) / 2, (h - 300) / 2 + 10, 300, 300 } }
local perspective = ca.Transform3D.identity
perspective.m34 = -1.0 / 500.0
container.sublayerTransform = perspective
ca.root:addSublayer(container)

-- The doorway behind the door, seen when it opens.
container:addSublayer(ca.Layer { frame = { 80, 16, 140, 268 }, backgroundColor = "#6b5a44" })
container:addSublayer(ca.Layer { frame = { 86, 22, 128, 256 }, backgroundColor = "#2a2119" })

-- The door (the book's Door.png): drawn once, panels and a knob.
local door = ca.Layer { name = "door", anchorPoint = { 0, 0.5 }, bounds = { 0, 0, 128, 256 },
                        position = { 86, 150 }, contentsScale = scale }
door.draw = function(_, ctx)
  ctx:setFillColor("#a0522d"):fillRect({ 0, 0, 128, 256 })
  ctx:setStrokeColor("#6e3518"):setLineWidth(3)
  ctx:strokeRect({ 16, 16, 96, 96 }):strokeRect({ 16, 132, 96, 108 })
  ctx:setFillColor("#e0b84a"):fillEllipseInRect({ 104, 122, 12, 12 })
end
door:display()
container:addSublayer(door)

-- Paused before the animation is added, so it stays at its first frame.
door.speed = 0
local animation = ca.BasicAnimation()
animation.keyPath = "transform.rotation.y"
animation.toValue = -math.pi / 2
animation.duration = 1.0
door:addAnimation(animation, "door")   -- the book passes nil; a key lets a host find it

-- The book's pan: the translation since the last event moves the time offset.
ca.on("pan", function(e)
  local x = e.translation.x
  e:setTranslation { 0, 0 }
  local timeOffset = door.timeOffset
  timeOffset = math.min(0.999, math.max(0.0, timeOffset - x / 200.0))
  door.timeOffset = timeOffset
end)
