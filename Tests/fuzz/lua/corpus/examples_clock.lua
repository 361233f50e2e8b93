-- The book's clock (listings 3.1 and 3.2): three hands on a face, each rotated
-- about a pivot near its tail with anchorPoint = {0.5, 0.9}. The time is fixed
-- at 10:08:37 (timers arrive with the time-and-motion work).
-- Render: caluna run examples/clock.lua -o clock.png --size 200x200 --scale 2
local ca = require "caluna"

local hour, minute, second = 10, 8, 37
local root = ca.root
local w, h = ca.size()
root.backgroundColor = "#e8e4da"

local face = ca.Layer { bounds = { 0, 0, 180, 180 }, position = { w / 2, h / 2 },
                        backgroundColor = "white", name = "face" }
root:addSublayer(face)

-- Twelve hour marks, each a thin layer rotated about the face's centre.
for i = 0, 11 do
  local mark = ca.Layer { bounds = { 0, 0, i % 3 == 0 and 6 or 3, 14 }, anchorPoint = { 0.5, 6.0 },
                          position = { 90, 90 }, backgroundColor = "#333333" }
  mark.affineTransform = ca.AffineTransform.rotation(i / 12 * 2 * math.pi)
  face:addSublayer(mark)
end

local function hand(name, width, length, colour, angle)
  local l = ca.Layer { name = name, bounds = { 0, 0, width, length }, anchorPoint = { 0.5, 0.9 },
                       position = { 90, 90 }, backgroundColor = colour }
  l.affineTransform = ca.AffineTransform.rotation(angle)
  face:addSublayer(l)
  return l
end

-- The book's formulas (the hour hand ignores the minutes, spec D11).
hand("hour", 8, 50, "black", hour / 12 * 2 * math.pi)
hand("minute", 5, 72, "#1f4e9c", minute / 60 * 2 * math.pi)
hand("second", 2, 80, "crimson", second / 60 * 2 * math.pi)

local hub = ca.Layer { bounds = { 0, 0, 8, 8 }, position = { 90, 90 }, backgroundColor = "crimson" }
face:addSublayer(hub)
