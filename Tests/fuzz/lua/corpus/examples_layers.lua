-- Listing 1.1 and the chapter 3 geometry in one picture: a blue sublayer in a
-- white layer, sublayers redrawn in front by zPosition, a flipped container
-- whose children stack from the bottom, and group opacity.
-- Render: caluna run examples/layers.lua -o layers.png --size 480x300 --scale 2
local ca = require "caluna"
local root = ca.root
root.backgroundColor = "#aaaaaa"

-- Listing 1.1: a blue layer inside a white one.
local white = ca.Layer { frame = { 20, 20, 200, 200 }, backgroundColor = "white" }
white:addSublayer(ca.Layer { frame = { 50, 50, 100, 100 }, backgroundColor = "blue" })
root:addSublayer(white)

-- Listing 3.3: green was added first but zPosition = 1 draws it in front.
local green = ca.Layer { frame = { 240, 20, 100, 100 }, backgroundColor = "#00ff00", zPosition = 1 }
local red = ca.Layer { frame = { 290, 70, 100, 100 }, backgroundColor = "red" }
root:addSublayer(green)
root:addSublayer(red)

-- geometryFlipped: sublayers are laid out from the bottom.
local flipped = ca.Layer { frame = { 400, 20, 60, 200 }, backgroundColor = "#333333", geometryFlipped = true }
for i = 0, 3 do
  flipped:addSublayer(ca.Layer { frame = { 10, 10 + i * 48, 40, 40 },
                                 backgroundColor = { r = 1, g = 0.8 - i * 0.2, b = 0.2 } })
end
root:addSublayer(flipped)

-- Group opacity: the child fades with its parent as one unit.
local parent = ca.Layer { frame = { 240, 190, 120, 90 }, backgroundColor = "white", opacity = 0.5 }
parent:addSublayer(ca.Layer { frame = { 60, 20, 90, 50 }, backgroundColor = "white" })
root:addSublayer(parent)
