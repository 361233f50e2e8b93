-- Listing 7.7 with input: hit-testing the presentation layer.
--   A red 100×100 colorLayer at (w/4, h/2) — (100, 150) in the book's 400×300 view. A tap
--   on the layer gives it the next colour (blue → green → red → …, instead of the book's
--   random colour) with an implicit 0.25 s animation; a tap anywhere else moves the layer
--   there in a 4 s transaction. Taps are hit-tested on the presentation tree (the engine's
--   default, the book's [colorLayer.presentationLayer hitTest:]), so a tap hits the layer
--   where it is drawn, even mid-flight. ca.hitTestTree("model") shows the book's point:
--   with the model tree you would have to tap where the layer is going.
--   colorLayer's tap handler returns true (it consumed the tap), so the engine-wide
--   handler (ca.on) only sees the taps that missed it.
--   Layers a host can look up by name: "colorLayer".
-- Render: caluna run examples/tap_moving.lua --events examples/tap_moving.jsonl -o out/tap_moving/ --frames 240 --size 400x300
local ca = require "caluna"

local w, h = ca.size()
local scale = ca.scale()
ca.root.backgroundColor = "#ffffff"

local title = ca.Layer { frame = { 0, 8, w, 20 }, contentsScale = scale }
title.draw = function(_, ctx)
  ctx:setFont("DejaVu Sans Bold", 12):setFillColor("#3b3428")
  ctx:drawText("Listing 7.7: tap the square, or tap elsewhere to move it", { 0, 0, w, 20 }, "center")
end
title:display()
ca.root:addSublayer(title)

local colorLayer = ca.Layer { name = "colorLayer", bounds = { 0, 0, 100, 100 }, position = { w / 4, h / 2 },
                              backgroundColor = { 1, 0, 0, 1 } }
ca.root:addSublayer(colorLayer)

-- Tapped where it is drawn: the next colour, animated implicitly.
local colours = { { 0, 0, 1, 1 }, { 0, 1, 0, 1 }, { 1, 0, 0, 1 } }
local n = 0
colorLayer:on("tap", function()
  n = n % #colours + 1
  colorLayer.backgroundColor = colours[n]
  return true
end)

-- Tapped anywhere else: move there, slowly.
ca.on("tap", function(e)
  ca.Transaction.begin()
  ca.Transaction.setAnimationDuration(4.0)
  colorLayer.position = { e.x, e.y }
  ca.Transaction.commit()
end)
