-- The same with layout and draw callbacks: the display link marks the layer for layout and
-- display, then fills the heap; the engine has to push the layer and a new drawing context.
-- expect: not enough memory|memory limit
-- args: --instruction-limit 100000000 --memory-limit 8 --time-limit 5 --frames 3
local ca = require "caluna"
local l = ca.Layer{ frame = {0, 0, 10, 10} }
ca.root:addSublayer(l)
local hog = {}
l.draw = function(layer, ctx) end
l.layoutSublayers = function(layer) end
local sizes = { {0, 0, 11, 10}, {0, 0, 12, 10}, {0, 0, 13, 10}, {0, 0, 14, 10} }
local frame = 0
local function fill() while true do hog = { hog } end end   -- small allocations to the last byte
local setNeedsDisplay, setNeedsLayout = l.setNeedsDisplay, l.setNeedsLayout
ca.displayLink(function(link)
  frame = frame % #sizes + 1
  l.bounds = sizes[frame]
  setNeedsDisplay(l)
  setNeedsLayout(l)
  hog = {}
  pcall(fill)
  pcall(fill)
end)
