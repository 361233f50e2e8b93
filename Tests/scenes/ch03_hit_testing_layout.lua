-- Chapter 3, continued: containsPoint (listing 3.4), hitTest (listing 3.5),
-- F51, D2, D3 and layout (test L1 / F54).
-- Spec: shared/spec/book-ch01-04.md §1.6, §1.7, §2, §3 F51–F54, §5 D2/D3.
local ca = require "caluna"
local T = require "caluna.test"

local lightGray, white, red, blue = "#aaaaaa", "#ffffff", "#ff0000", "#0000ff"
local pi = math.pi

-- Listing 3.4's scene: listing 1.1 (R 300×300; L (50,50,200,200); B (50,50,100,100) in L).
local function scene11()
  local R = ca.root
  R.backgroundColor = lightGray
  local L = ca.Layer{ frame = {50, 50, 200, 200}, backgroundColor = white }
  local B = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = blue }
  L:addSublayer(B); R:addSublayer(L)
  return R, L, B
end

-- The listing's touchesBegan: convert into L, test; convert into B, test.
local function classify(R, L, B, p)
  local inL = L:convertPointFromLayer(p, R)
  if not L:containsPoint(inL) then return nil end
  local inB = B:convertPointFromLayer(inL, L)
  return B:containsPoint(inB) and "blue" or "white"
end

T.test("3.4 containsPoint classifies the tapped layer (D2)", function()
  local R, L, B = scene11()
  T.eq(classify(R, L, B, {160, 160}), "blue")
  T.eq(L:convertPointFromLayer({160, 160}, R), {110, 110})
  T.eq(B:convertPointFromLayer({110, 110}, L), {60, 60})
  T.eq(classify(R, L, B, {70, 70}), "white")
  T.eq(B:convertPointFromLayer(L:convertPointFromLayer({70, 70}, R), L), {-30, -30})
  T.eq(classify(R, L, B, {10, 10}), nil)
  T.eq(classify(R, L, B, {100, 100}), "blue", "B-local (0,0) is inside")
  T.eq(classify(R, L, B, {200, 200}), "white", "B-local (100,100) is outside: half-open")
end, { size = {300, 300} })

T.test("3.4 direct conversions between B and R", function()
  local R, L, B = scene11()
  T.eq(B:convertPointToLayer({0, 0}, R), {100, 100})
  T.eq(B:convertRectToLayer(B.bounds, R), {100, 100, 100, 100})
  T.eq(R:convertPointToLayer({160, 160}, B), {60, 60})
  T.eq(B:convertPointFromLayer({160, 160}, R), {60, 60})
  T.eq(R:convertRectFromLayer(B.bounds, B), {100, 100, 100, 100})
end, { size = {300, 300} })

T.test("3.4 bounds.origin (10,10) shifts the sublayers to 90…190", function()
  local R, L, B = scene11()
  L.bounds = {10, 10, 200, 200}
  T.eq(L.frame, {50, 50, 200, 200}, "L itself does not move")
  T.eq(B:convertPointToLayer({0, 0}, R), {90, 90})
  local img = ca.render()
  T.pixel(img, 92, 92, blue)
  T.pixel(img, 187, 187, blue)
  T.pixel(img, 88, 88, white)
  T.pixel(img, 193, 193, white)
  T.same(L:hitTest({92, 92}), B, "hit testing follows the shift")
  T.same(L:hitTest({193, 193}), L)
end, { size = {300, 300} })

T.test("3.4 conversion under a 90° rotation of L gives (200,100)", function()
  local R, L, B = scene11()
  L.affineTransform = ca.AffineTransform.rotation(pi / 2)
  T.near(B:convertPointToLayer({0, 0}, R), {200, 100}, 1e-6)
  T.near(R:convertPointToLayer({200, 100}, B), {0, 0}, 1e-6)
  T.pixel(ca.render(), 190, 110, blue, 3, "B's (0,0) corner is now top-right")
  T.same(L:hitTest({190, 110}), B)
  T.same(L:hitTest({210, 90}), L)
end, { size = {300, 300} })

T.test("F51 containsPoint is in the layer's own space, against bounds", function()
  local l = ca.Layer{ bounds = {10, 10, 100, 100}, position = {500, 500} }
  T.falsy(l:containsPoint({5, 5}))
  T.truthy(l:containsPoint({10, 10}))
  T.truthy(l:containsPoint({109.999, 109.999}))
  T.falsy(l:containsPoint({110, 50}), "maxX is outside")
  T.falsy(l:containsPoint({50, 110}), "maxY is outside")
  T.falsy(l:containsPoint({500, 500}), "position is not in bounds space")
end)

T.test("3.5 hitTest returns the deepest layer (F52)", function()
  local R, L, B = scene11()
  T.same(L:hitTest({160, 160}), B)
  T.same(L:hitTest({70, 70}), L)
  T.eq(L:hitTest({10, 10}), nil)
  T.same(R:hitTest({10, 10}), R)
  T.same(R:hitTest({160, 160}), B)
  T.same(L:hitTest({100, 100}), B, "B's top-left corner")
  T.same(L:hitTest({200, 200}), L, "B's bottom-right is outside B (half-open)")
  B.hidden = true
  T.same(L:hitTest({160, 160}), L, "hidden layers are skipped")
  T.pixel(ca.render(), 160, 160, white, 3, "and not drawn")
  L.hidden = true
  T.same(R:hitTest({160, 160}), R)
end, { size = {300, 300} })

T.test("3.5 hitTest follows sublayer order: the last sublayer first", function()
  local R = ca.root
  local a = ca.Layer{ frame = {0, 0, 60, 60} }
  local b = ca.Layer{ frame = {30, 30, 60, 60} }
  R:addSublayer(a); R:addSublayer(b)
  T.same(R:hitTest({45, 45}), b)
  a.zPosition = 10
  T.same(R:hitTest({45, 45}), b, "zPosition is ignored")
  R:addSublayer(a)
  T.same(R:hitTest({45, 45}), a, "after reordering the array")
end, { size = {100, 100} })

T.test("D3 an overflowing sublayer is not hit outside its parent's bounds", function()
  local R = ca.root
  R.backgroundColor = white
  local P = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = lightGray }
  local C = ca.Layer{ frame = {80, 80, 50, 50}, backgroundColor = red }   -- reaches 130 > 100
  P:addSublayer(C); R:addSublayer(P)
  T.same(P:hitTest({140, 140}), C, "inside both")
  T.eq(P:hitTest({170, 170}), nil, "C is drawn there, but P's bounds do not contain it")
  T.same(R:hitTest({170, 170}), R)
  T.pixel(ca.render(), 170, 170, red, 3, "the overflow is drawn (masksToBounds is NO)")
  ca.Transaction.setDisableActions(true)   -- committed layers would animate: jump
  P.masksToBounds = true
  T.pixel(ca.render(), 170, 170, white, 3, "masksToBounds clips the sublayer")
  T.pixel(ca.render(), 140, 140, red)
end, { size = {200, 200} })

T.test("L1/F54 layoutSublayers runs on setNeedsLayout and bounds changes", function()
  local calls = 0
  local P = ca.Layer{ frame = {0, 0, 100, 100} }
  local kid = ca.Layer{ bounds = {0, 0, 20, 20} }
  P:addSublayer(kid); ca.root:addSublayer(P)
  P.layoutSublayers = function(self)
    calls = calls + 1
    T.same(self, P)
    local b = self.bounds
    kid.position = {b.width - 10, b.height - 10}     -- bottom-right corner
  end
  ca.step(0)
  local settled = calls
  T.eq(settled, 1, "the initial bounds (a change from zero) marked it")
  P.bounds = {0, 0, 200, 150}
  T.truthy(P:needsLayout())
  ca.step(1 / 60)
  T.eq(calls, settled + 1, "a bounds change")
  T.falsy(P:needsLayout())
  T.eq(kid.frame, {180, 130, 20, 20}, "the sublayer moved to the bottom-right")
  P:setNeedsLayout()
  ca.step(1 / 60)
  T.eq(calls, settled + 2, "setNeedsLayout")
  ca.step(1 / 60)
  T.eq(calls, settled + 2, "no change, no call")
  P.position = {300, 300}
  ca.step(1 / 60)
  T.eq(calls, settled + 2, "a position change does not lay out")
  P.bounds = P.bounds
  ca.step(1 / 60)
  T.eq(calls, settled + 2, "setting equal bounds is no change")
  P:setNeedsLayout(); P:setNeedsLayout(); P.bounds = {0, 0, 120, 80}
  ca.step(1 / 60)
  T.eq(calls, settled + 3, "once per pass")
  P:setNeedsLayout()
  P:layoutIfNeeded()
  T.eq(calls, settled + 4, "layoutIfNeeded runs it now")
  ca.step(0)
  T.eq(calls, settled + 4)
end, { size = {400, 400} })

T.test("L1 layout runs before render and the render shows the result", function()
  ca.root.backgroundColor = white
  local calls = 0
  local P = ca.Layer{ anchorPoint = {0, 0}, frame = {0, 0, 100, 100}, backgroundColor = lightGray }
  local kid = ca.Layer{ bounds = {0, 0, 20, 20}, position = {10, 10}, backgroundColor = red }
  P:addSublayer(kid); ca.root:addSublayer(P)
  P.layoutSublayers = function(self)
    calls = calls + 1
    kid.position = {self.bounds.width - 10, self.bounds.height - 10}
  end
  ca.render()
  local base = calls
  -- Committed layers would animate, the kid's layout change too: jump.
  ca.Transaction.setDisableActions(true)
  P.bounds = {0, 0, 160, 120}
  local img = ca.render()
  T.eq(calls, base + 1)
  T.eq(kid.position, {150, 110})
  T.eq(P.frame, {0, 0, 160, 120})
  T.pixel(img, 150, 110, red)
  T.pixel(img, 145, 105, red)
  T.pixel(img, 10, 10, lightGray, 3, "the kid left its first place")
  T.pixel(img, 180, 110, white)
  ca.render()
  T.eq(calls, base + 1, "a second render without changes does not lay out")
end, { size = {200, 200} })

T.test("L1 the callback survives garbage collection while its layer is in the tree", function()
  local calls = 0
  do
    local P = ca.Layer{ frame = {0, 0, 50, 50} }
    P.layoutSublayers = function() calls = calls + 1 end
    ca.root:addSublayer(P)
  end
  ca.step(0)
  local base = calls
  collectgarbage(); collectgarbage()
  ca.root.sublayers[1]:setNeedsLayout()
  collectgarbage(); collectgarbage()
  ca.step(0)
  T.eq(calls, base + 1)
  T.eq(type(ca.root.sublayers[1].layoutSublayers), "function")
end, { size = {100, 100} })
