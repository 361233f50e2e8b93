-- Listing 7.1 with input: tap the colour layer and it takes the next colour.
--   The book's layerView (a 200×200 white view, centred) holds colorLayer, a standalone
--   100×100 layer at (50, 50). A tap on colorLayer sets its backgroundColor; a standalone
--   layer animates the change by itself (an implicit animation: the transaction's 0.25 s
--   on the default curve (0.25, 0.1, 0.25, 1)). The book's random colour is replaced by a
--   fixed cycle, red → green → blue → red …, so runs are reproducible. A tap anywhere else
--   changes nothing: only colorLayer has a tap handler, and it is hit-tested where it is
--   drawn (its presentation layer).
--   Layers a host can look up by name: "layerView", "colorLayer".
-- Render: caluna run examples/tap_colors.lua --events examples/tap_colors.jsonl -o out/tap_colors/ --frames 120 --size 300x300
local ca = require "caluna"

local w, h = ca.size()
local scale = ca.scale()
ca.root.backgroundColor = "#f2efe8"

-- Title and hint, drawn once.
local function label(text, y, font, colour)
  local l = ca.Layer { frame = { 0, y, w, 20 }, contentsScale = scale }
  l.draw = function(_, ctx)
    ctx:setFont(font, 12):setFillColor(colour)
    ctx:drawText(text, { 0, 0, w, 20 }, "center")
  end
  l:display()
  ca.root:addSublayer(l)
end
label("Listing 7.1: an implicit colour animation", 8, "DejaVu Sans Bold", "#3b3428")
label("tap the square", h - 28, "DejaVu Sans", "#7a705f")

-- The book's layerView and its colorLayer (blue to start with, as in the book).
local layerView = ca.Layer { name = "layerView", frame = { (w - 200) / 2, (h - 200) / 2, 200, 200 },
                             backgroundColor = { 1, 1, 1, 1 } }
ca.root:addSublayer(layerView)
local colorLayer = ca.Layer { name = "colorLayer", frame = { 50, 50, 100, 100 },
                              backgroundColor = { 0, 0, 1, 1 } }
layerView:addSublayer(colorLayer)

-- The book's changeColor, on a tap: the next colour of a fixed cycle. Setting the
-- property is all it takes; the layer's default action animates it.
local colours = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } }
local n = 0
colorLayer:on("tap", function()
  n = n % #colours + 1
  colorLayer.backgroundColor = colours[n]
  return true
end)
