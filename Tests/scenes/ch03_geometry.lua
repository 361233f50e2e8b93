-- Chapter 3 (layer geometry): frame/bounds/position/anchorPoint, the clock
-- (listings 3.1/3.2), conversions, geometryFlipped and zPosition (3.3).
-- containsPoint (3.4), hitTest (3.5) and layout (L1) are in ch03_hit_testing_layout.lua.
-- Spec: shared/spec/book-ch01-04.md §1.6, §1.7, §2, §3 F34–F54, §5 D2/D3/D5/D17/D25.
local ca = require "caluna"
local T = require "caluna.test"

local lightGray, white, black = "#aaaaaa", "#ffffff", "#000000"
local red, green, blue = "#ff0000", "#00ff00", "#0000ff"
local pi = math.pi

T.test("F34 frame is derived from bounds and position, both ways", function()
  local L = ca.Layer()
  L.frame = {50, 50, 100, 100}
  T.eq(L.position, {100, 100})
  T.eq(L.bounds, {0, 0, 100, 100})
  L.position = {0, 0}
  T.eq(L.frame, {-50, -50, 100, 100})
  L.bounds = {0, 0, 200, 50}
  T.eq(L.frame, {-100, -25, 200, 50})
  -- Setting frame keeps bounds.origin (spec §1.6, [A]).
  L.bounds = {7, 9, 10, 10}
  L.frame = {0, 0, 40, 20}
  T.eq(L.bounds, {7, 9, 40, 20})
  T.eq(L.position, {20, 10})
end)

T.test("F35 frame is the AABB under rotation", function()
  local L = ca.Layer{ bounds = {0, 0, 100, 100}, position = {100, 100} }
  L.affineTransform = ca.AffineTransform.rotation(pi / 4)
  local d = 100 - 50 * math.sqrt(2)
  T.near(L.frame, {d, d, 100 * math.sqrt(2), 100 * math.sqrt(2)}, 1e-6)
  T.eq(L.bounds, {0, 0, 100, 100}, "bounds unchanged")
  T.eq(L.position, {100, 100}, "position unchanged")
  -- A 3D rotation about z behaves the same through `transform`.
  L.transform = ca.Transform3D.rotation(pi / 4, 0, 0, 1)
  T.near(L.frame, {d, d, 100 * math.sqrt(2), 100 * math.sqrt(2)}, 1e-6)
end)

T.test("F36/F46 anchorPoint defaults to the centre; z properties default to 0", function()
  local L = ca.Layer()
  T.eq(L.anchorPoint, {0.5, 0.5})
  T.eq(L.zPosition, 0)
  T.eq(L.anchorPointZ, 0)
end)

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

T.test("F38 the anchor may lie outside the layer and is not clamped", function()
  local L = ca.Layer{ bounds = {0, 0, 100, 100}, position = {100, 100} }
  L.anchorPoint = {-0.5, 1.5}
  T.eq(L.anchorPoint, {-0.5, 1.5})
  T.eq(L.frame, {150, -50, 100, 100})
end)

T.test("F39 changing the anchor keeps position and moves frame", function()
  local L = ca.Layer{ bounds = {0, 0, 100, 100}, position = {100, 100} }
  T.eq(L.frame, {50, 50, 100, 100})
  L.anchorPoint = {0, 0}
  T.eq(L.position, {100, 100})
  T.eq(L.frame, {100, 100, 100, 100})
end)

T.test("F40 anchor {0,0}: the content lies down-right of position (fig 3.3)", function()
  ca.root.backgroundColor = white
  ca.root:addSublayer(ca.Layer{ bounds = {0, 0, 100, 100}, position = {100, 100}, anchorPoint = {0, 0},
                                backgroundColor = red })
  local img = ca.render()
  T.pixel(img, 150, 150, red)
  T.pixel(img, 60, 60, white)
  T.pixel(img, 195, 195, red)
end, { size = {300, 300} })

-- Listings 3.1/3.2: a 200×200 white face with hour/minute/second hands at (100,100).
local function clock(anchor)
  ca.root.backgroundColor = white
  local face = ca.Layer{ frame = {0, 0, 200, 200}, backgroundColor = white }
  ca.root:addSublayer(face)
  local function hand(w, h, colour)
    local l = ca.Layer{ bounds = {0, 0, w, h}, position = {100, 100}, backgroundColor = colour }
    if anchor then l.anchorPoint = anchor end
    face:addSublayer(l)
    return l
  end
  local hour, minute, second = hand(16, 60, black), hand(10, 80, blue), hand(4, 90, red)
  -- The listing's tick: the hour hand ignores minutes (spec D11).
  local function tick(h, m, s)
    hour.affineTransform = ca.AffineTransform.rotation(h / 12 * pi * 2)
    minute.affineTransform = ca.AffineTransform.rotation(m / 60 * pi * 2)
    second.affineTransform = ca.AffineTransform.rotation(s / 60 * pi * 2)
  end
  return hour, minute, second, tick
end

T.test("3.1 clock at 3:30:45 pivots about the hands' centres (fig 3.6)", function()
  local hour, minute, second, tick = clock(nil)
  tick(3, 30, 45)
  local t = hour.affineTransform
  T.near({t.a, t.b, t.c, t.d}, {0, 1, -1, 0}, 1e-9, "hour hand (a, b, c, d)")
  T.near(hour.frame, {70, 92, 60, 16}, 1e-6)
  T.near(minute.frame, {95, 60, 10, 80}, 1e-6)
  T.near(second.frame, {55, 98, 90, 4}, 1e-6)
  local img = ca.render()
  T.pixel(img, 75, 95, black, 3, "the hour hand sticks out on the wrong side")
  -- Hour 15 gives the same transform as 3.
  local three = hour.affineTransform
  tick(15, 30, 45)
  T.near(hour.affineTransform, three, 1e-9)
end, { size = {200, 200} })

T.test("3.2 anchorPoint (0.5, 0.9) keeps position and moves frame", function()
  local hour, minute, second = clock(nil)
  T.eq(hour.frame, {92, 70, 16, 60})
  hour.anchorPoint = {0.5, 0.9}
  T.eq(hour.position, {100, 100})
  T.near(hour.frame, {92, 46, 16, 60}, 1e-9)
end, { size = {200, 200} })

T.test("3.2 clock at 3:30:45 with the fixed pivot (fig 3.7)", function()
  local hour, minute, second, tick = clock({0.5, 0.9})
  tick(3, 30, 45)
  T.near(hour.frame, {94, 92, 60, 16}, 1e-6)
  T.near(minute.frame, {95, 92, 10, 80}, 1e-6)
  T.near(second.frame, {19, 98, 90, 4}, 1e-6)
  T.eq(second.position, {100, 100})
  local img = ca.render()
  T.pixel(img, 140, 100, black)
  T.pixel(img, 75, 95, white, 3, "face")
  T.pixel(img, 100, 160, blue)
  T.pixel(img, 30, 100, red)
  T.golden(img, "ch03_clock_3_2")
end, { size = {200, 200} })

T.test("3.2 one second later the second hand turned by exactly 2π/60", function()
  local hour, minute, second, tick = clock({0.5, 0.9})
  local function at() local s = 45 + ca.mediaTime(); tick(3, 30, s) end
  at()
  local before = math.atan(second.affineTransform.b, second.affineTransform.a)
  ca.step(1)
  T.eq(ca.mediaTime(), 1)
  at()
  local after = math.atan(second.affineTransform.b, second.affineTransform.a)
  T.near((after - before) % (2 * pi), 2 * pi / 60, 1e-9)
  T.near(second.affineTransform, ca.AffineTransform.rotation(46 / 60 * 2 * pi), 1e-9)
end, { size = {200, 200} })

T.test("F42 sublayers move with their parent", function()
  local R = ca.root
  R.backgroundColor = white
  local P = ca.Layer{ frame = {50, 50, 100, 100} }
  local C = ca.Layer{ frame = {10, 10, 20, 20}, backgroundColor = red }
  P:addSublayer(C); R:addSublayer(P)
  T.pixel(ca.render(), 65, 65, red)
  T.eq(C:convertPointToLayer({0, 0}, R), {60, 60})
  ca.Transaction.setDisableActions(true)   -- committed layers would animate: jump
  P.position = {P.position.x + 30, P.position.y + 20}
  T.eq(C.position, {20, 20}, "the child's position is unchanged")
  T.eq(C:convertPointToLayer({0, 0}, R), {90, 80})
  local img = ca.render()
  T.pixel(img, 95, 85, red)
  T.pixel(img, 105, 95, red)
  T.pixel(img, 65, 65, white)
end, { size = {200, 200} })

T.test("F43 point and rect conversion round-trips between any two layers", function()
  local R = ca.root
  local A = ca.Layer{ bounds = {5, -3, 80, 60}, position = {100, 90}, anchorPoint = {0.2, 0.7} }
  A.affineTransform = ca.AffineTransform.rotation(0.7):scale(1.5, 0.5)
  local P = ca.Layer{ frame = {200, 40, 90, 90} }
  P.affineTransform = ca.AffineTransform.rotation(-1.1)
  local B = ca.Layer{ frame = {10, 20, 30, 40} }
  P:addSublayer(B); R:addSublayer(A); R:addSublayer(P)
  for _, p in ipairs{ {0, 0}, {13.5, -7.25}, {-40, 300} } do
    local q = B:convertPointToLayer(p, A)
    T.near(A:convertPointToLayer(q, B), p, 1e-6)
    T.near(A:convertPointFromLayer(p, B), q, 1e-9, "fromLayer is the inverse direction")
    T.near(B:convertPointFromLayer(q, A), p, 1e-6)
  end
  -- Under rotation a converted rect is the AABB of its corners (spec D25).
  local S = ca.Layer{ bounds = {0, 0, 100, 100}, position = {100, 100} }
  S.affineTransform = ca.AffineTransform.rotation(pi / 4)
  R:addSublayer(S)
  local d = 100 - 50 * math.sqrt(2)
  T.near(S:convertRectToLayer(S.bounds, R), {d, d, 100 * math.sqrt(2), 100 * math.sqrt(2)}, 1e-6)
  T.near(S:convertRectToLayer(S.bounds, nil), S.frame, 1e-9, "nil is canvas space")
end, { size = {300, 300} })

T.test("F44 the origin is top-left: a layer at (0,0) fills the first rows", function()
  ca.root.backgroundColor = white
  ca.root:addSublayer(ca.Layer{ frame = {0, 0, 10, 10}, backgroundColor = red })
  local img = ca.render()
  for _, y in ipairs{0, 5, 9} do T.eq({img:pixel(0, y)}, {255, 0, 0, 255}, "row " .. y) end
  T.eq({img:pixel(0, 10)}, {255, 255, 255, 255}, "row 10")
  T.eq({img:pixel(0, 39)}, {255, 255, 255, 255}, "last row")
  local path = os.tmpname() .. ".png"
  img:write(path)
  local back = ca.Image.load(path)
  os.remove(path)
  T.eq({back:pixel(9, 0)}, {255, 0, 0, 255}, "the PNG's first row")
  T.eq({back:pixel(9, 39)}, {255, 255, 255, 255}, "the PNG's last row")
end, { size = {40, 40} })

T.test("F45 geometryFlipped lays sublayers out from the bottom", function()
  local R = ca.root
  R.backgroundColor = white
  local P = ca.Layer{ frame = {0, 0, 200, 200}, geometryFlipped = true }
  local C = ca.Layer{ frame = {0, 0, 50, 50}, backgroundColor = red }
  local G = ca.Layer{ frame = {0, 0, 10, 10}, backgroundColor = green }
  C:addSublayer(G); P:addSublayer(C); R:addSublayer(P)
  T.eq(C.frame, {0, 0, 50, 50}, "frame reads the unflipped value")
  T.eq(C:convertPointToLayer({0, 0}, R), {0, 200})
  T.eq(R:convertPointToLayer({25, 175}, C), {25, 25})
  T.eq(C:convertRectToLayer(C.bounds, R), {0, 150, 50, 50})
  T.same(P:hitTest({25, 175}), C)
  T.same(P:hitTest({25, 25}), P)
  local img = ca.render()
  T.pixel(img, 25, 175, red)
  T.pixel(img, 25, 25, white)
  T.pixel(img, 5, 195, green, 3, "the flip applies to all descendants")
  T.pixel(img, 5, 155, red)
end, { size = {200, 200} })

T.test("F45 two flips cancel: a flipped child flips its own sublayers back", function()
  local R = ca.root
  R.backgroundColor = white
  local P = ca.Layer{ frame = {0, 0, 200, 200}, geometryFlipped = true }
  local C = ca.Layer{ frame = {0, 0, 50, 50}, backgroundColor = red, geometryFlipped = true }
  local G = ca.Layer{ frame = {0, 0, 10, 10}, backgroundColor = green }
  C:addSublayer(G); P:addSublayer(C); R:addSublayer(P)
  T.eq(G:convertPointToLayer({0, 0}, R), {0, 150})
  T.eq(G:convertRectToLayer(G.bounds, R), {0, 150, 10, 10})
  local img = ca.render()
  T.pixel(img, 5, 155, green)
  T.pixel(img, 5, 195, red)
  T.pixel(img, 25, 175, red)
end, { size = {200, 200} })

-- Listing 3.3: green (20,20,100,100) added first, red (80,80,100,100) second, in a white container.
local function zScene()
  local container = ca.Layer{ frame = {0, 0, 200, 200}, backgroundColor = white }
  ca.root:addSublayer(container)
  local g = ca.Layer{ frame = {20, 20, 100, 100}, backgroundColor = green }
  local r = ca.Layer{ frame = {80, 80, 100, 100}, backgroundColor = red }
  container:addSublayer(g); container:addSublayer(r)
  return container, g, r
end

T.test("3.3 zPosition = 1 brings green in front (fig 3.8/3.9)", function()
  local container, g, r = zScene()
  local img = ca.render()
  T.pixel(img, 100, 100, red, 3, "before")
  T.pixel(img, 50, 50, green); T.pixel(img, 150, 150, red)
  ca.Transaction.setDisableActions(true)   -- committed layers would animate: jump
  g.zPosition = 1
  img = ca.render()
  T.pixel(img, 100, 100, green, 3, "after")
  T.pixel(img, 50, 50, green); T.pixel(img, 150, 150, red)
  T.same(container.sublayers[1], g); T.same(container.sublayers[2], r)
  T.golden(img, "ch03_zposition_3_3")
end, { size = {200, 200} })

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

T.test("F49 three siblings with z = 2, 0, 1 draw as B, C, A", function()
  ca.root.backgroundColor = white
  local A = ca.Layer{ frame = {0, 0, 60, 60}, backgroundColor = red, zPosition = 2 }
  local B = ca.Layer{ frame = {20, 20, 60, 60}, backgroundColor = green, zPosition = 0 }
  local C = ca.Layer{ frame = {40, 40, 60, 60}, backgroundColor = blue, zPosition = 1 }
  ca.root:addSublayer(A); ca.root:addSublayer(B); ca.root:addSublayer(C)
  local img = ca.render()
  T.pixel(img, 50, 50, red, 3, "A on top of all")
  T.pixel(img, 30, 30, red, 3, "A above B")
  T.pixel(img, 70, 70, blue, 3, "C above B")
  T.pixel(img, 25, 75, green)
  local s = ca.root.sublayers
  T.same(s[1], A); T.same(s[2], B); T.same(s[3], C)
end, { size = {100, 100} })

T.test("affineTransform reads the identity when the transform is not affine (Core Animation)", function()
  local L = ca.Layer{ bounds = {0, 0, 10, 10} }
  L.affineTransform = ca.AffineTransform.rotation(pi / 2):translate(3, 4)
  T.near(L.affineTransform, ca.AffineTransform.rotation(pi / 2):translate(3, 4), 1e-12)
  local t = ca.Transform3D.identity
  t.m34 = -1 / 500
  L.transform = t:translate(3, 4, 0)
  T.eq(L.affineTransform, ca.AffineTransform.identity, "perspective: the identity, not the affine part")
  L.transform = ca.Transform3D.rotation(0.3, 0, 1, 0)
  T.eq(L.affineTransform, ca.AffineTransform.identity, "a rotation about y is not affine")
end)

T.test("D17 zPosition sorts siblings only: a child cannot escape its parent", function()
  ca.root.backgroundColor = white
  local P = ca.Layer{ frame = {0, 0, 60, 60}, backgroundColor = red }
  local kid = ca.Layer{ frame = {20, 20, 20, 20}, backgroundColor = green, zPosition = 100 }
  local Q = ca.Layer{ frame = {30, 30, 60, 60}, backgroundColor = blue }
  P:addSublayer(kid); ca.root:addSublayer(P); ca.root:addSublayer(Q)
  local img = ca.render()
  T.pixel(img, 35, 35, blue, 3, "Q covers P's child despite its zPosition")
  T.pixel(img, 25, 25, green)
end, { size = {100, 100} })

T.test("F53 zPosition does not change hit-test order", function()
  local container, g, r = zScene()
  g.zPosition = 1
  T.same(container:hitTest({100, 100}), r)
  T.same(container:hitTest({50, 50}), g)
end, { size = {200, 200} })
