local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
-- Chapter 3 (layer geometry): frame/bounds/position/anchorPoint, the clock
-- (listings 3.1/3.2), conversions, geometryFlipped and zPosition (3.3).
-- containsPoint (3.4), hitTest (3.5) and layout (L1) are in ch03_hit_testing_layout.lua.
-- Spec: shared/spec/book-ch01-04.md §1.6, §1.7, §2, §3 F34–F54, §5 D2/D3/D5/D17/D25.
local ca = require "caluna"
local T = FUZZ_Tlocal lightGray, white, black = "#aaaaaa", "#ffffff", "#000000"
local red, green, blue = "#ff0000", "#00ff00", "#0000ff"
local pi = math.pi

T.test("F37 anchor (1,1) is the bottom-right: the layer renders up-left of position", function()
  ca.root.backgroundColor = white
  local L = ca.Layer{ bounds = {0, 0, 50, 50}, anchorPoint = {1, 1}, position = {100, 100}, backgroundColor = red }
  ca.root:addSublayer(L)
  T.eq(L.frame, {50, 50, 50, 50})
  local img = ca.render()
  T.pixel(img, 75, 75, red)
  T.pixel(img, 53, 53, red)
  T.pixel(img, 103, 103, white)
  T.pixel(img, 125, 125, white)
end, { size = {200, 200} })

