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

T.test("F50 zPosition 0.0001 and a negative red zPosition also work", function()
  local container, g, r = zScene()
  g.zPosition = 0.0001
  T.pixel(ca.render(), 100, 100, green)
  ca.Transaction.setDisableActions(true)   -- committed layers would animate: jump
  g.zPosition = 0
  r.zPosition = -1
  T.pixel(ca.render(), 100, 100, green)
  ca.Transaction.setDisableActions(true)
  r.zPosition = 0
  T.pixel(ca.render(), 100, 100, red, 3, "equal values keep the sublayers order")
end, { size = {200, 200} })

