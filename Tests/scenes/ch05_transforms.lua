-- Chapter 5 (transforms): affine transforms (listings 5.1–5.3), 3D transforms and
-- perspective (5.4–5.6), sublayerTransform, nested transforms and flattening (5.7, 5.8),
-- the cube (5.9), its lighting (5.10), anchorPointZ, zPosition and hit testing in 3D.
-- Spec: shared/spec/book-ch05-06.md §1 (conventions), §2.2–2.3, §3 tests T5.1–T5.10,
-- §4 F1–F34, §6 decisions, Appendix A (the reference model: every [R] number here was
-- recomputed with it; tolerance ±1 pt for geometry, ±2–3 per channel for flat colours).
-- The transform-layer cubes of listing 6.5 are in ch06_transform_layer.lua.
-- Scenes are built before the first render; later changes are made with actions
-- disabled (D23). Pixels are sampled ≥ 2 pt from antialiased edges unless the edge is
-- what is tested.
local ca = require "caluna"
local T = require "caluna.test"

local white, black = "#ffffff", "#000000"
local red, green, blue = "#ff0000", "#00ff00", "#0000ff"
local yellow, magenta, cyan = "#ffff00", "#ff00ff", "#00ffff"
local pi = math.pi
local S400 = { size = {400, 400} }

local function disableActions() ca.Transaction.setDisableActions(true) end

local G = dofile(T.dir .. "/fixtures/projection.lua")
local P, RP, corners, quad, signedArea = G.P, G.RP, G.corners, G.quad, G.signedArea

-- A red 200×200 layer at (200, 200) on a white canvas (T5.1, T5.2, T5.4, T5.5).
local function redSquare(props)
  ca.root.backgroundColor = white
  local L = ca.Layer{ bounds = {0, 0, 200, 200}, position = {200, 200}, backgroundColor = red }
  for k, v in pairs(props or {}) do L[k] = v end
  ca.root:addSublayer(L)
  return L
end

---------------------------------------------------------------------------
-- Listing 5.1: rotate 45° with affineTransform.

T.test("T5.1 affineTransform rotation: properties, frame, pixels, clockwise (F5, F6)", function()
  local L = redSquare()
  local marker = ca.Layer{ frame = {150, 10, 40, 40}, backgroundColor = blue }
  L:addSublayer(marker)
  L.affineTransform = ca.AffineTransform.rotation(pi / 4)
  local s = math.sqrt(0.5)
  local a = L.affineTransform
  T.near({a.a, a.b, a.c, a.d, a.tx, a.ty}, {s, s, -s, s, 0, 0}, 1e-9, "affineTransform (a, b, c, d, tx, ty)")
  local t = L.transform
  T.near({t.m11, t.m12, t.m21, t.m22, t.m34}, {s, s, -s, s, 0}, 1e-9, "transform m11 m12 m21 m22 m34")
  T.near(L.transform, ca.Transform3D.rotation(pi / 4, 0, 0, 1), 1e-12, "F13 rotation about z = the affine rotation")
  T.eq(L.bounds, {0, 0, 200, 200}, "bounds unchanged")
  T.eq(L.position, {200, 200}, "position unchanged")
  T.near(L.frame, {58.579, 58.579, 282.843, 282.843}, 1e-3, "frame = bounding box of the diamond")
  -- The marker's centre (170, 30) lands at (299, 200): clockwise.
  local m = marker:convertPointToLayer({20, 20}, nil)
  T.near(m, {298.995, 200}, 1e-3, "marker centre")
  local img = ca.render()
  G.pixels(img, {
    {200, 65, red},
    {335, 200, red},
    {200, 200, red},
    {105, 105, white, "old corner now empty"},
    {295, 105, white},
    {299, 200, blue, "marker: a clockwise turn moves the top-right corner to the right"},
    {200, 101, red, "a counter-clockwise turn would put the marker here"},
  })
  -- Diamond vertices (200, 58.6), (341.4, 200), (200, 341.4), (58.6, 200).
  G.pixels(img, {
    {200, 60, red},
    {200, 56, white},
    {339, 200, red},
    {343, 200, white},
    {60, 200, red},
    {56, 200, white},
  })
  G.noLeaks(img, { corners(L) }, white)
  T.golden(img, "ch05/listing5_1")
end, S400)

---------------------------------------------------------------------------
-- Listing 5.2: scale 50 %, rotate 30°, translate 200 — in code order.

T.test("T5.2 composite affine transform: the translation is rotated and halved (F8)", function()
  local t = ca.AffineTransform.identity
  t = t:scale(0.5, 0.5)
  t = t:rotate(pi / 6)
  t = t:translate(200, 0)
  T.near({t.a, t.b, t.c, t.d, t.tx, t.ty}, {0.4330127, 0.25, -0.25, 0.4330127, 86.6025404, 50}, 1e-6,
    "T·R·S (a, b, c, d, tx, ty)")
  local L = redSquare{ affineTransform = t }
  -- A 100×100 square rotated 30° clockwise about (286.6, 250).
  quad(L, {268.30, 181.70, 354.90, 231.70, 304.90, 318.30, 218.30, 268.30})
  local c = L:convertPointToLayer({100, 100}, nil)
  T.near(c, {286.603, 250}, 1e-3, "centre moved diagonally by 100")
  local img = ca.render()
  G.pixels(img, {
    {286, 250, red},
    {300, 250, red},
    {268, 186, red, "near the top corner"},
    {200, 200, white, "the old centre is empty"},
    {268, 176, white},
    {350, 250, white},
  })
  T.golden(img, "ch05/listing5_2")
end, S400)

T.test("T5.2 order variant: translate, rotate, scale in code order = S·R·T (F9)", function()
  local t = ca.AffineTransform.identity:translate(200, 0):rotate(pi / 6):scale(0.5, 0.5)
  T.near({t.tx, t.ty}, {200, 0}, 1e-9, "the translation is untouched")
  local L = redSquare{ affineTransform = t }
  T.near(L:convertPointToLayer({100, 100}, nil), {400, 200}, 1e-9, "centre")
  local img = ca.render()
  T.pixel(img, 380, 200, red)
  T.pixel(img, 286, 250, white, 3, "not where T·R·S puts it")
end, S400)

T.test("T5.2 Concat applies its first argument first (affine and 3D)", function()
  local Tr, Ro = ca.AffineTransform.translation(200, 0), ca.AffineTransform.rotation(pi / 6)
  T.near(Tr:concat(Ro):apply({0, 0}), {173.2050808, 100}, 1e-6, "Concat(T, R): translate, then rotate")
  T.near(Ro:concat(Tr):apply({0, 0}), {200, 0}, 1e-9, "Concat(R, T): rotate, then translate")
  T.near(Tr * Ro, Tr:concat(Ro), 1e-12, "a * b = a:concat(b)")
  -- CGAffineTransformRotate(t, a) = R·t (the new operation first).
  T.near(Tr:rotate(pi / 6), Ro:concat(Tr), 1e-12, "Rotate(T, a) = Concat(R, T)")
  -- The same in 3D.
  local T3, R3 = ca.Transform3D.translation(200, 0, 0), ca.Transform3D.rotation(pi / 6, 0, 0, 1)
  local x, y = T3:concat(R3):apply(0, 0)
  T.near({x, y}, {173.2050808, 100}, 1e-6, "3D Concat(T, R)")
  x, y = R3:concat(T3):apply(0, 0)
  T.near({x, y}, {200, 0}, 1e-9, "3D Concat(R, T)")
  T.near(T3:rotate(pi / 6, 0, 0, 1), R3:concat(T3), 1e-12, "CATransform3DRotate(t, …) = R·t")
  T.near(T3:scale(2, 3, 4), ca.Transform3D.scale(2, 3, 4):concat(T3), 1e-12, "CATransform3DScale(t, …) = S·t")
  T.near(R3:translate(1, 2, 3), ca.Transform3D.translation(1, 2, 3):concat(R3), 1e-12,
    "CATransform3DTranslate(t, …) = T·t")
  -- A layer with Concat(T, R): its anchor lands at position + (173.2, 100).
  local L = redSquare{ affineTransform = Tr:concat(Ro) }
  local img = ca.render()
  T.near(L:convertPointToLayer({100, 100}, nil), {373.205, 300}, 1e-3)
  T.pixel(img, 373, 300, red)
  T.pixel(img, 200, 200, white)
end, S400)

T.test("1.3 matrix facts: identity m34 = 0, rotation about y and x, normalised axis (F16)", function()
  T.eq(ca.Transform3D.identity.m34, 0, "F16 m34 of identity")
  local c, s = math.cos(0.3), math.sin(0.3)
  local y = ca.Transform3D.rotation(0.3, 0, 1, 0)
  T.near({y.m11, y.m13, y.m31, y.m33, y.m22}, {c, -s, s, c, 1}, 1e-12, "about y")
  local x = ca.Transform3D.rotation(0.3, 1, 0, 0)
  T.near({x.m22, x.m23, x.m32, x.m33, x.m11}, {c, s, -s, c, 1}, 1e-12, "about x")
  T.near(ca.Transform3D.rotation(0.3, 0, 5, 0), y, 1e-12, "the axis is normalised")
  T.near(ca.Transform3D.rotation(0.3, 0, 0, 0), ca.Transform3D.identity, 0, "zero axis: identity")
  -- About y, θ > 0 moves the right edge away from the viewer: (x, 0, 0) -> (x c, 0, -x s).
  local px, py, pz = y:apply(100, 0, 0)
  T.near({px, py, pz}, {100 * c, 0, -100 * s}, 1e-9, "(100, 0, 0) about y")
  local t = ca.Transform3D.translation(10, 20, 30)
  T.near({t.m41, t.m42, t.m43}, {10, 20, 30}, 0, "translation lives in m41..m43")
  -- m34 = -1/d: depth z scales by d/(d - z); at z ≥ d the point is at or behind the eye.
  local px2, py2, _, w = P(500):apply(100, 50, 100)
  T.near({px2, py2, w}, {125, 62.5, 0.8}, 1e-12, "z = 100 toward the viewer: ×1.25")
  px2, py2 = P(500):apply(100, 50, -500)
  T.near({px2, py2}, {50, 25}, 1e-12, "z = -500: ×0.5")
  T.eq(P(500):apply(100, 50, 500), nil, "z = d: at the eye")
  T.eq(P(500):apply(100, 50, 600), nil, "z > d: behind the eye")
  -- Setting m34 after rotating gives a different matrix than before (1.4).
  local after = ca.Transform3D.rotation(pi / 4, 0, 1, 0)
  after.m34 = -1 / 500
  T.falsy(after == RP(pi / 4, 0, 1, 0), "R·P differs from R with m34 set afterwards")
end)

---------------------------------------------------------------------------
-- Listing 5.3 (absent from the spec text; optional): shear.

T.test("T5.3 (not in the spec text) shear (1, 0): top edge shifted right by the height", function()
  local sh = ca.AffineTransform.shear(1, 0)
  T.near({sh.a, sh.b, sh.c, sh.d, sh.tx, sh.ty}, {1, 0, -1, 1, 0, 0}, 0, "MakeShear(1, 0)")
  local L = redSquare{ affineTransform = sh }
  quad(L, {200, 100, 400, 100, 200, 300, 0, 300})
  local img = ca.render()
  G.pixels(img, {
    {390, 105, red},
    {10, 295, red},
    {200, 200, red},
    {10, 105, white},
    {390, 295, white},
  })
end, S400)

---------------------------------------------------------------------------
-- Listing 5.4: 45° about y without perspective is a horizontal squash.

T.test("T5.4 rotation about y without perspective only squashes x (F14, F15)", function()
  local L = redSquare{ transform = ca.Transform3D.rotation(pi / 4, 0, 1, 0) }
  quad(L, {129.289, 100, 270.711, 100, 270.711, 300, 129.289, 300})
  local q = corners(L)
  T.near(q[8] - q[2], q[6] - q[4], 1e-9, "left and right edges have equal height (no perspective)")
  T.near(L.frame, {129.289, 100, 141.421, 200}, 1e-3)
  local img = ca.render()
  G.pixels(img, {
    {135, 105, red},
    {265, 295, red},
    {200, 200, red},
    {125, 200, white},
    {275, 200, white},
    {200, 97, white},
    {200, 303, white},
  })
  T.golden(img, "ch05/listing5_4")
end, S400)

-- T5.4b: a layer with a red left half and a blue right half turned by `angle` about y.
local function halves(angle, doubleSided)
  ca.root.backgroundColor = white
  local L = ca.Layer{ bounds = {0, 0, 200, 200}, position = {200, 200} }
  local left = ca.Layer{ frame = {0, 0, 100, 200}, backgroundColor = red }
  local right = ca.Layer{ frame = {100, 0, 100, 200}, backgroundColor = blue }
  L:addSublayer(left)
  L:addSublayer(right)
  L.transform = ca.Transform3D.rotation(angle, 0, 1, 0)
  if doubleSided ~= nil then L.doubleSided = doubleSided end
  ca.root:addSublayer(L)
  return L, left, right
end

T.test("T5.4b the back side shows the mirrored front; doubleSided = false culls it (F23, F24)", function()
  local L, _, right = halves(pi)
  T.eq(L.doubleSided, true, "doubleSided defaults to true")
  T.eq(ca.Layer().doubleSided, true)
  local img = ca.render()
  G.pixels(img, {
    {150, 200, blue, "mirrored: blue on the left"},
    {250, 200, red, "mirrored: red on the right"},
    {105, 105, blue},
    {295, 295, red},
  })
  G.noLeaks(img, { corners(L) }, white, "mirrored")
  disableActions()
  L.doubleSided = false
  T.eq(L.doubleSided, false)
  img = ca.render()
  T.pixel(img, 150, 200, white, 3, "culled")
  T.pixel(img, 250, 200, white, 3, "culled")
  T.pixel(img, 200, 200, white, 3, "culled")
  -- F34: a culled layer still receives hits. Canvas (150, 200) is local (150, 100), blue.
  T.same(ca.root:hitTest({150, 200}), right, "hit testing ignores back-face culling")
end, S400)

T.test("T5.4b control: doubleSided = false keeps a front-facing layer", function()
  local L = halves(pi / 4, false)
  local img = ca.render()
  T.pixel(img, 150, 200, red, 3, "front-facing: red left")
  T.pixel(img, 250, 200, blue, 3, "front-facing: blue right")
  disableActions()
  L.transform = ca.Transform3D.rotation(-pi / 4, 0, 1, 0)
  img = ca.render()
  T.pixel(img, 150, 200, red)
  T.pixel(img, 250, 200, blue)
  -- Edge-on (π/2): zero area is not drawn either way.
  disableActions()
  L.transform = ca.Transform3D.rotation(pi / 2, 0, 1, 0)
  img = ca.render()
  T.pixel(img, 200, 200, white, 3, "edge-on")
  T.pixel(img, 199, 200, white, 3, "edge-on")
  -- Just past π/2 the back shows; with doubleSided = false nothing.
  disableActions()
  L.transform = ca.Transform3D.rotation(3 * pi / 4, 0, 1, 0)
  img = ca.render()
  T.pixel(img, 180, 200, white, 3, "3π/4 with doubleSided = false")
  disableActions()
  L.doubleSided = true
  img = ca.render()
  T.pixel(img, 180, 200, blue, 3, "3π/4 with doubleSided = true: the mirrored blue half")
  T.pixel(img, 220, 200, red, 3, "3π/4 with doubleSided = true: the mirrored red half")
end, S400)

---------------------------------------------------------------------------
-- Listing 5.5: perspective m34 = -1/500, then rotate 45° about y.

T.test("T5.5 perspective: the far side is smaller (F12, F17)", function()
  local L = redSquare{ transform = RP(pi / 4, 0, 1, 0) }
  local t = L.transform
  T.near(t.m34, -0.7071068 / 500, 1e-9, "R·P: m34 = cos45/-500 after the rotation")
  quad(L, {117.64, 83.53, 261.95, 112.39, 261.95, 287.61, 117.64, 316.47})
  local q = corners(L)
  T.near(q[8] - q[2], 232.94, 0.01, "left (near) edge")
  T.near(q[6] - q[4], 175.22, 0.01, "right (far) edge")
  T.near(q[1], q[7], 1e-9, "left edge vertical")
  T.near(q[3], q[5], 1e-9, "right edge vertical")
  local topSlope = (q[4] - q[2]) / (q[3] - q[1])
  local bottomSlope = (q[6] - q[8]) / (q[5] - q[7])
  T.truthy(math.abs(topSlope - bottomSlope) > 0.3, "top and bottom edges are not parallel (non-affine)")
  -- t:apply gives the same mapping (relative to the anchor).
  local x, y = t:apply(-100, -100)
  T.near({x + 200, y + 200}, {117.64, 83.53}, 0.01, "t:apply of the top-left corner")
  local img = ca.render()
  G.pixels(img, {
    {122, 90, red},
    {258, 116, red},
    {258, 284, red},
    {122, 310, red},
    {258, 108, white, "above the far edge"},
    {122, 80, white},
    {115, 200, white},
    {265, 200, white},
  })
  -- Rendered edge heights: red runs in the columns just inside both edges.
  local function run(col)
    local n = 0
    for yy = 0, 399 do
      local r, g = img:pixel(col, yy)
      if r > 200 and g < 60 then n = n + 1 end
    end
    return n
  end
  local near, far = run(119), run(260)
  T.near(near, 232.2, 2, "red run in column 119")
  T.near(far, 175.8, 2, "red run in column 260")
  T.near(near / far, 1.321, 0.02, "rendered near/far ratio")
  G.noLeaks(img, { corners(L) }, white)
  T.golden(img, "ch05/listing5_5")
end, S400)

T.test("T5.5 d-sweep: the near/far ratio falls strictly toward 1 as d grows (F18)", function()
  local L = redSquare()
  local expected = { [100] = 5.828, [250] = 1.789, [500] = 1.329, [1000] = 1.152, [5000] = 1.029, [1e6] = 1.0001 }
  local last = math.huge
  for _, d in ipairs { 100, 250, 500, 1000, 5000, 1e6 } do
    L.transform = RP(pi / 4, 0, 1, 0, d)
    local q = corners(L)
    local ratio = (q[8] - q[2]) / (q[6] - q[4])
    T.near(ratio, expected[d], 0.001, "ratio at d = " .. d)
    T.truthy(ratio < last, "strictly decreasing at d = " .. d)
    T.truthy(ratio > 1, "still > 1 at d = " .. d)
    last = ratio
  end
end, S400)

T.test("T5.5 hit testing through perspective uses the inverse homography", function()
  local L = redSquare{ transform = RP(pi / 4, 0, 1, 0) }
  T.same(ca.root:hitTest({120, 300}), L, "inside, near the left edge")
  T.same(ca.root:hitTest({258, 116}), L, "just inside the far edge")
  T.same(ca.root:hitTest({258, 108}), ca.root, "above the far edge (inside the unprojected square)")
  T.same(ca.root:hitTest({122, 320}), ca.root, "below the near edge")
  T.same(ca.root:hitTest({265, 200}), ca.root, "right of the far edge")
  -- convertPoint from the canvas inverts the mapping.
  local p = L:convertPointFromLayer({117.64, 83.53}, nil)
  T.near(p, {0, 0}, 0.02, "canvas corner back to the layer's top-left")
  p = L:convertPointFromLayer({200, 200}, nil)
  T.near(p, {100, 100}, 1e-9, "the anchor maps to itself")
end, S400)

---------------------------------------------------------------------------
-- Listing 5.6: sublayerTransform gives one vanishing point.

-- A 400×200 white container with view1 (red, +45°) and view2 (blue, −45°).
-- shared: perspective from the container's sublayerTransform; else each view's own R·P.
local function twoViews(shared, x1, x2)
  ca.root.backgroundColor = white
  local C = ca.Layer{ frame = {0, 0, 400, 200}, backgroundColor = white }
  if shared then C.sublayerTransform = P(500) end
  local function view(x, angle, colour)
    local v = ca.Layer{ bounds = {0, 0, 100, 100}, position = {x, 100}, backgroundColor = colour }
    v.transform = shared and ca.Transform3D.rotation(angle, 0, 1, 0) or RP(angle, 0, 1, 0)
    C:addSublayer(v)
    return v
  end
  local v1 = view(x1 or 100, pi / 4, red)
  local v2 = view(x2 or 300, -pi / 4, blue)
  ca.root:addSublayer(C)
  return C, v1, v2
end
local swapRB = function(r, g, b) return b, g, r end

T.test("T5.6 sublayerTransform: both views share the container's vanishing point (F21, F22)", function()
  local C, v1, v2 = twoViews(true)
  T.eq(ca.Layer().sublayerTransform, ca.Transform3D.identity, "sublayerTransform defaults to identity")
  T.near(C.sublayerTransform.m34, -1 / 500, 1e-15)
  quad(v1, {54.35, 46.20, 139.62, 53.30, 139.62, 146.70, 54.35, 153.80}, "view1")
  quad(v2, {260.38, 53.30, 345.65, 46.20, 345.65, 153.80, 260.38, 146.70}, "view2")
  local q = corners(v1)
  T.near(q[8] - q[2], 107.61, 0.01, "view1 outer (left) edge")
  T.near(q[6] - q[4], 93.40, 0.01, "view1 inner edge")
  local img = ca.render()
  G.pixels(img, {
    {58, 100, red, "left of the per-layer quad"},
    {136, 100, red, "right of the per-layer quad"},
    {100, 100, red},
    {300, 100, blue},
    {341, 100, blue},
    {264, 100, blue},
    {50, 100, white},
    {200, 100, white},
    {136, 50, white, "above the inner edge"},
  })
  G.mirrorSymmetric(img, swapRB, 24, "mirror symmetry about x = 200 with red and blue swapped")
  T.golden(img, "ch05/listing5_6")
end, { size = {400, 200} })

T.test("T5.6 contrast: per-layer perspective gives each view its own vanishing point (F19, F20)", function()
  local C, v1, v2 = twoViews(false)
  quad(v1, {61.95, 46.20, 133.02, 53.30, 133.02, 146.70, 61.95, 153.80}, "view1 with its own R·P")
  quad(v2, {266.98, 53.30, 338.05, 46.20, 338.05, 153.80, 266.98, 146.70}, "view2 with its own R·P")
  local img = ca.render()
  G.pixels(img, {
    {58, 100, white, "outside the per-layer quad"},
    {136, 100, white, "outside the per-layer quad"},
    {100, 100, red},
    {65, 100, red},
    {130, 100, red},
  })
  G.mirrorSymmetric(img, swapRB, 24, "still mirror-symmetric")
end, { size = {400, 200} })

T.test("T5.6 translation invariance: per-layer perspective moves, a shared one reshapes", function()
  -- Per-layer: moving view1 by 50 translates its image by exactly 50.
  local _, v1 = twoViews(false, 100, 300)
  local a = corners(v1)
  local before = ca.render()
  disableActions()
  v1.position = {150, 100}
  local b = corners(v1)
  for i = 1, 8 do T.near(b[i], a[i] + (i % 2 == 1 and 50 or 0), 1e-9, "per-layer corner " .. i) end
  local after = ca.render()
  for _, p in ipairs { {65, 100}, {100, 60}, {130, 140}, {62, 47}, {132, 54}, {100, 150}, {60, 100}, {140, 100} } do
    local r1, g1, b1 = T.px(before, p[1], p[2])
    local r2, g2, b2 = T.px(after, p[1] + 50, p[2])
    T.truthy(math.abs(r1 - r2) <= 2 and math.abs(g1 - g2) <= 2 and math.abs(b1 - b2) <= 2,
      string.format("pixel (%d, %d) moved by 50: (%d, %d, %d) vs (%d, %d, %d)", p[1], p[2], r1, g1, b1, r2, g2, b2))
  end
  -- Shared: the same move changes the shape (it is closer to the vanishing point).
  ca.root.sublayers = {}
  local _, w1 = twoViews(true, 150, 300)
  quad(w1, {108.15, 46.20, 186.32, 53.30, 186.32, 146.70, 108.15, 153.80}, "view1 at (150, 100), shared perspective")
  local q = corners(w1)
  T.truthy(math.abs((q[3] - q[1]) - (139.62 - 54.35)) > 5, "its width changed")
end, { size = {400, 200} })

T.test("1.7 sublayerTransform pivots about the container's anchor point", function()
  ca.root.backgroundColor = white
  -- Default anchor: the pivot is the centre (200, 200).
  local C = ca.Layer{ frame = {0, 0, 400, 400}, sublayerTransform = ca.Transform3D.scale(0.5, 0.5, 1) }
  local s = ca.Layer{ frame = {0, 0, 100, 100}, backgroundColor = red }
  C:addSublayer(s)
  ca.root:addSublayer(C)
  quad(s, {100, 100, 150, 100, 150, 150, 100, 150}, "scaled about the centre")
  local img = ca.render()
  T.pixel(img, 125, 125, red)
  T.pixel(img, 25, 25, white)
  T.pixel(img, 155, 125, white)
  -- Anchor (0, 0): the pivot is the container's top-left corner.
  disableActions()
  C.anchorPoint = {0, 0}
  C.position = {0, 0}
  quad(s, {0, 0, 50, 0, 50, 50, 0, 50}, "scaled about the top-left anchor")
  img = ca.render()
  T.pixel(img, 25, 25, red)
  T.pixel(img, 125, 125, white)
  disableActions()
  -- Anchor (1, 1), container moved so its bounds still cover the canvas: pivot (400, 400).
  C.anchorPoint = {1, 1}
  C.position = {400, 400}
  quad(s, {200, 200, 250, 200, 250, 250, 200, 250}, "scaled about the bottom-right anchor")
  -- A bounds origin moves the pivot with it (bounds.origin + anchor · size).
  C.anchorPoint = {0.5, 0.5}
  C.position = {200, 200}
  C.bounds = {100, 100, 400, 400}
  -- s (frame 0,0,100,100 in C's space) is up-left of C's visible area; pivot (300, 300) → canvas (200, 200).
  quad(s, {50, 50, 100, 50, 100, 100, 50, 100}, "pivot follows bounds.origin")
  img = ca.render()
  T.pixel(img, 75, 75, red)
end, S400)

T.test("1.7 sublayerTransform reaches direct sublayers only; grandchildren are flattened", function()
  ca.root.backgroundColor = white
  local C = ca.Layer{ frame = {0, 0, 400, 400}, sublayerTransform = P(500) }
  local child = ca.Layer{ bounds = {0, 0, 400, 400}, position = {200, 200} }
  local g = ca.Layer{ bounds = {0, 0, 200, 200}, position = {200, 200}, backgroundColor = red,
                      transform = ca.Transform3D.rotation(pi / 4, 0, 1, 0) }
  child:addSublayer(g)
  C:addSublayer(child)
  ca.root:addSublayer(C)
  -- g is flattened into child's plane: an orthographic squash (T5.4's rectangle), no perspective.
  quad(g, {129.289, 100, 270.711, 100, 270.711, 300, 129.289, 300}, "grandchild: no perspective")
  local img = ca.render()
  T.pixel(img, 132, 103, red)
  T.pixel(img, 268, 103, red)
  T.pixel(img, 200, 97, white)
  -- The same layer as a direct sublayer gets T5.5's perspective quad.
  disableActions()
  C:addSublayer(g)
  quad(g, {117.64, 83.53, 261.95, 112.39, 261.95, 287.61, 117.64, 316.47}, "direct sublayer: perspective")
  img = ca.render()
  T.pixel(img, 122, 90, red)
  T.pixel(img, 258, 108, white)
end, S400)

---------------------------------------------------------------------------
-- Listings 5.7 and 5.8: nested transforms.

-- outer 200×200 red at (200, 200); inner 100×100 green centred in it.
local function nested(outerT, innerT, outerClass)
  ca.root.backgroundColor = white
  local outer = (outerClass or ca.Layer){ bounds = {0, 0, 200, 200}, position = {200, 200} }
  if not outerClass then outer.backgroundColor = red end
  outer.transform = outerT
  local inner = ca.Layer{ bounds = {0, 0, 100, 100}, position = {100, 100}, backgroundColor = green, transform = innerT }
  outer:addSublayer(inner)
  ca.root:addSublayer(outer)
  return outer, inner
end

T.test("T5.7 opposite rotations about z cancel (F25)", function()
  local outer, inner = nested(ca.Transform3D.rotation(pi / 4, 0, 0, 1), ca.Transform3D.rotation(-pi / 4, 0, 0, 1))
  quad(inner, {150, 150, 250, 150, 250, 250, 150, 250}, "inner axis-aligned")
  local img = ca.render()
  G.pixels(img, {
    {152, 152, green},
    {248, 248, green},
    {248, 152, green},
    {200, 200, green},
    {148, 200, red, "outer diamond"},
    {200, 65, red},
    {200, 147, red},
    {105, 105, white},
  })
end, S400)

T.test("T5.8 opposite rotations about y with perspective do not cancel: flattening (F26)", function()
  local outer, inner = nested(RP(pi / 4, 0, 1, 0), RP(-pi / 4, 0, 1, 0))
  quad(inner, {175.51, 151.01, 225.53, 148.94, 225.53, 251.06, 175.51, 248.99}, "inner, flattened")
  local q = corners(inner)
  T.near(q[3] - q[1], 50.02, 0.01, "width ≈ 50, not 100")
  quad(outer, {117.64, 83.53, 261.95, 112.39, 261.95, 287.61, 117.64, 316.47}, "outer")
  local img = ca.render()
  G.pixels(img, {
    {200, 200, green},
    {178, 200, green},
    {222, 200, green},
    {165, 200, red, "left of the 50-wide inner"},
    {235, 200, red, "right of the 50-wide inner"},
    {200, 146, red},
  })
  G.noLeaks(img, { corners(outer) }, white)
  T.golden(img, "ch05/listing5_8")
end, S400)

T.test("T5.8 with a CATransformLayer outer: perspective applied twice, no flattening", function()
  -- Without the red background (a transform layer draws none): clean pixel checks.
  local outer, inner = nested(RP(pi / 4, 0, 1, 0), RP(-pi / 4, 0, 1, 0), ca.TransformLayer)
  T.eq(outer.className, "CATransformLayer")
  quad(inner, {153.30, 153.30, 253.80, 146.20, 253.80, 253.80, 153.30, 246.70}, "inner through a transform layer")
  local img = ca.render()
  G.pixels(img, {
    {156, 200, green},
    {250, 200, green},
    {200, 200, green},
    {150, 200, white},
    {257, 200, white},
  })
  G.noLeaks(img, { corners(inner) }, white)
  -- The red background as a separate sibling added first (book: still visible). The inner
  -- layer intersects it along x = 200 (tests avoid intersecting layers, spec 1.9), so the
  -- sibling is pushed back with zPosition -1 (after its own perspective: the same image,
  -- centre depth -1 instead of a rounding tie with the inner's ≈ -1e-14), and only pixels
  -- where the inner is in front in 3D too (its right half) or does not reach are asserted.
  ca.root.sublayers = {}
  local bg = ca.Layer{ bounds = {0, 0, 200, 200}, position = {200, 200}, backgroundColor = red,
                       transform = RP(pi / 4, 0, 1, 0), zPosition = -1 }
  ca.root:addSublayer(bg)
  outer, inner = nested(RP(pi / 4, 0, 1, 0), RP(-pi / 4, 0, 1, 0), ca.TransformLayer)
  img = ca.render()
  G.pixels(img, {
    {240, 200, green, "inner's right half"},
    {245, 160, green},
    {258, 200, red, "red beyond the inner's right edge"},
    {122, 200, red},
    {265, 200, white},
  })
end, S400)

T.test("T5.8b nested rotations about y without perspective: flattened vs transform layer (F26, F28)", function()
  local outer, inner = nested(ca.Transform3D.rotation(pi / 4, 0, 1, 0), ca.Transform3D.rotation(-pi / 4, 0, 1, 0))
  quad(inner, {175, 150, 225, 150, 225, 250, 175, 250}, "plain outer: width 100·cos²45 = 50")
  local img = ca.render()
  G.pixels(img, {
    {178, 200, green},
    {222, 200, green},
    {172, 200, red},
    {228, 200, red},
    {200, 153, green},
    {200, 147, red},
  })
  ca.root.sublayers = {}
  outer, inner = nested(ca.Transform3D.rotation(pi / 4, 0, 1, 0), ca.Transform3D.rotation(-pi / 4, 0, 1, 0),
    ca.TransformLayer)
  quad(inner, {150, 150, 250, 150, 250, 250, 150, 250}, "transform-layer outer: the rotations cancel")
  img = ca.render()
  G.pixels(img, {
    {152, 200, green},
    {248, 200, green},
    {152, 152, green},
    {248, 248, green},
    {147, 200, white},
    {253, 200, white},
  })
end, S400)

---------------------------------------------------------------------------
-- Listing 5.9: the cube.

local faceColours = { red, green, blue, yellow, magenta, cyan }

-- The container (canvas 400×400, bg K) with six 200×200 faces at its centre.
-- opts.camera: the 5.9b camera; opts.doubleSided; opts.colours; opts.light (5.10).
local function cube(opts)
  opts = opts or {}
  ca.root.backgroundColor = black
  local C = ca.Layer{ frame = {0, 0, 400, 400}, backgroundColor = black }
  local perspective = P(500)
  if opts.camera then
    perspective = perspective:rotate(-pi / 4, 1, 0, 0)
    perspective = perspective:rotate(-pi / 4, 0, 1, 0)
  end
  C.sublayerTransform = perspective
  local faces = {}
  for i, t in ipairs(G.cubeFaceTransforms(100)) do
    local f = ca.Layer{ bounds = {0, 0, 200, 200}, position = {200, 200},
                        backgroundColor = (opts.colours or faceColours)[i], transform = t }
    if opts.doubleSided ~= nil then f.doubleSided = opts.doubleSided end
    if opts.light then opts.light(f, t) end
    C:addSublayer(f)
    faces[i] = f
  end
  ca.root:addSublayer(C)
  return C, faces
end

T.test("T5.9 face normals point out of the cube (row 3 of each face matrix)", function()
  local expected = { {0, 0, 1}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {-1, 0, 0}, {0, 0, -1} }
  for i, t in ipairs(G.cubeFaceTransforms(100)) do
    T.near({t.m31, t.m32, t.m33}, expected[i], 1e-12, "normal of face " .. i)
  end
end)

T.test("T5.9a front view: one square; faces 2–6 face away (F29, F32)", function()
  for _, ds in ipairs { true, false } do
    ca.root.sublayers = {}
    local C, faces = cube{ doubleSided = ds }
    quad(faces[1], {75, 75, 325, 75, 325, 325, 75, 325}, "face 1 (200·500/400 = 250 pt)")
    T.truthy(signedArea(corners(faces[1])) > 0, "face 1 faces the camera")
    for i = 2, 6 do
      T.truthy(signedArea(corners(faces[i])) < 0, "face " .. i .. " is back-facing")
    end
    quad(faces[6], {283.33, 116.67, 116.67, 116.67, 116.67, 283.33, 283.33, 283.33}, "face 6 (mirrored, 166.7 pt)")
    local img = ca.render()
    local tag = "doubleSided = " .. tostring(ds)
    G.pixels(img, {
      {80, 80, red, tag},
      {320, 320, red, tag},
      {200, 200, red, tag .. ": face 6 would be drawn over face 1 in array order"},
      {120, 200, red, tag},
      {70, 200, black, tag},
      {330, 200, black, tag},
      {200, 70, black, tag},
    })
    G.noColours(img, { green, blue, yellow, magenta, cyan }, tag .. ": pixels with a face 2–6 colour")
  end
end, S400)

local T59bQuads = {
  {35.28, 117.64, 200, 244.47, 200, 381.33, 76.10, 261.95},
  {200, 244.47, 364.72, 117.64, 323.90, 261.95, 200, 381.33},
  {200, 38.74, 364.72, 117.64, 200, 244.47, 35.28, 117.64},
}

T.test("T5.9b the camera view: faces 1–3 visible, 4–6 hidden (F30, F32)", function()
  for _, ds in ipairs { true, false } do
    ca.root.sublayers = {}
    local C, faces = cube{ camera = true, doubleSided = ds }
    for i = 1, 3 do
      quad(faces[i], T59bQuads[i], "face " .. i)
      T.truthy(signedArea(corners(faces[i])) > 0, "face " .. i .. " faces the camera")
    end
    for i = 4, 6 do T.truthy(signedArea(corners(faces[i])) < 0, "face " .. i .. " is back-facing") end
    local img = ca.render()
    local tag = "doubleSided = " .. tostring(ds)
    G.pixels(img, {
      {200, 130, blue, tag .. ": face 3 (top)"},
      {128, 251, red, tag .. ": face 1 (front)"},
      {272, 251, green, tag .. ": face 2 (right)"},
      {200, 200, blue, tag .. ": face 3 covers face 4's far corner"},
      {20, 20, black, tag},
      {200, 30, black, tag .. ": above the top vertex (200, 38.7)"},
      {200, 385, black, tag .. ": below the bottom vertex (200, 381.3)"},
      {30, 117, black, tag .. ": left of the leftmost vertex (35.3, 117.6)"},
    })
    G.noColours(img, { yellow, magenta, cyan }, tag .. ": pixels with a face 4–6 colour")
    G.noLeaks(img, { corners(faces[1]), corners(faces[2]), corners(faces[3]) }, black, tag)
    -- tol 32: along the top silhouette edges the hidden faces 5/6 (drawn first, same
    -- edge) tint the antialiased pixels a little, on each side with its own colour.
    G.mirrorSymmetric(img, function(r, g, b) return g, r, b end, 32,
      tag .. ": mirror symmetry about x = 200 with faces 1 and 2 swapped")
    if ds then T.golden(img, "ch05/listing5_9b") end
  end
end, S400)

T.test("T5.9c hit testing follows array order, not depth (F33, F34)", function()
  for _, ds in ipairs { true, false } do
    ca.root.sublayers = {}
    local C, f = cube{ camera = true, doubleSided = ds }
    local tag = "doubleSided = " .. tostring(ds)
    T.same(ca.root:hitTest({250, 130}), f[6], tag .. ": (250, 130) is face 3 on screen, face 6 in the array")
    T.same(ca.root:hitTest({150, 130}), f[5], tag .. ": (150, 130)")
    T.same(ca.root:hitTest({128, 251}), f[4], tag .. ": (128, 251)")
    T.same(ca.root:hitTest({272, 251}), f[4], tag .. ": (272, 251)")
    T.same(ca.root:hitTest({20, 20}), C, tag .. ": background")
    T.same(C:hitTest({250, 130}), f[6], tag .. ": from the container")
    disableActions()
    -- "把视图3覆盖在视图6上": face 3 on top of the array.
    C:addSublayer(f[3])
    T.same(ca.root:hitTest({250, 130}), f[3], tag .. ": face 3 moved to the top")
    T.same(ca.root:hitTest({150, 130}), f[3], tag .. ": face 3 moved to the top")
    T.same(ca.root:hitTest({128, 251}), f[4], tag .. ": face 4 still above face 1")
    -- Reordering does not change the picture (depth order).
    local img = ca.render()
    T.pixel(img, 200, 130, blue, 3, tag)
    T.pixel(img, 128, 251, red, 3, tag)
    -- A hidden face is never returned.
    disableActions()
    f[4].hidden = true
    T.same(ca.root:hitTest({128, 251}), f[1], tag .. ": face 4 hidden")
    T.same(ca.root:hitTest({272, 251}), f[2], tag .. ": face 4 hidden")
    f[3].hidden = true
    T.same(ca.root:hitTest({250, 130}), f[6], tag .. ": face 3 hidden")
    f[6].hidden = true
    T.same(ca.root:hitTest({250, 130}), C, tag .. ": faces 3 and 6 hidden")
  end
end, S400)

T.test("T5.9c front view: face 6 (behind, last in the array) takes every hit", function()
  local C, f = cube{}
  T.same(ca.root:hitTest({200, 200}), f[6])
  -- Outside face 6's 166.7-pt square the side faces (2–5, after face 1 in the array) take the hits.
  T.same(ca.root:hitTest({90, 200}), f[5], "left band: face 5")
  T.same(ca.root:hitTest({200, 90}), f[3], "top band: face 3")
  T.same(ca.root:hitTest({310, 200}), f[2], "right band: face 2")
  T.same(ca.root:hitTest({200, 310}), f[4], "bottom band: face 4")
  T.same(ca.root:hitTest({70, 200}), C, "outside the cube")
  f[5]:removeFromSuperlayer()
  T.same(ca.root:hitTest({90, 200}), f[1], "face 5 removed: face 1")
  local img = ca.render()
  T.pixel(img, 200, 200, red, 3, "while face 1 is what is drawn there")
end, S400)

---------------------------------------------------------------------------
-- Listing 5.10: lighting.

local LIGHT = { 0, 1, -0.5 }
local AMBIENT = 0.5
local function normalise(v)
  local n = math.sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2)
  return { v[1] / n, v[2] / n, v[3] / n }
end

T.test("T5.10 dynamic lighting: overlay alphas and grey levels (F31)", function()
  local alphas = {}
  local light = normalise(LIGHT)
  local function shade(face, t)
    local n = normalise { t.m31, t.m32, t.m33 }   -- (0, 0, 1) · upper-left 3×3
    local dot = light[1] * n[1] + light[2] * n[2] + light[3] * n[3]
    local a = math.max(0, math.min(1, 1 + dot - AMBIENT))
    alphas[#alphas + 1] = 1 + dot - AMBIENT
    face:addSublayer(ca.Layer{ frame = face.bounds, backgroundColor = black, opacity = a })
  end
  local C, faces = cube{ camera = true, colours = { white, white, white, white, white, white }, light = shade }
  T.near(alphas, { 0.0527864, 0.5, -0.3944272, 1.3944272, 0.5, 0.9472136 }, 1e-6, "unclamped alphas")
  T.near(faces[1].sublayers[1].opacity, 0.0527864, 1e-6)
  T.eq(faces[3].sublayers[1].opacity, 0, "face 3 clamped to 0")
  T.eq(faces[4].sublayers[1].opacity, 1, "face 4 clamped to 1")
  local img = ca.render()
  G.grey(img, 128, 251, 241.5, 2, "face 1")
  G.grey(img, 272, 251, 127.5, 2, "face 2")
  G.grey(img, 200, 130, 255, 2, "face 3")
  G.grey(img, 20, 20, 0, 2, "background")
  local top = T.px(img, 200, 130)
  local front = T.px(img, 128, 251)
  local right = T.px(img, 272, 251)
  T.truthy(top > front and front > right, "ordering top > front > right")
  -- Nothing of any face (faces 5 and 6 would show grey 127 / 13) outside the silhouette.
  G.noLeaks(img, { corners(faces[1]), corners(faces[2]), corners(faces[3]) }, black)
  -- Faces 4–6 (greys 0, 127.5, 13.5) never show: every pixel of the cube is one of the
  -- three visible greys or an edge blend; the 0-grey face 4 cannot be told from the
  -- background, so check that the silhouette interior has no dark pixel.
  for _, p in ipairs { {200, 200}, {200, 240}, {150, 180}, {250, 180}, {120, 300}, {280, 300} } do
    local r = T.px(img, p[1], p[2])
    T.truthy(r >= 120, string.format("(%d, %d) is a lit face (got %d)", p[1], p[2], r))
  end
  T.golden(img, "ch05/listing5_10")
end, S400)

---------------------------------------------------------------------------
-- anchorPointZ and zPosition (spec 1.5: M_L = T(-anchor, -anchorPointZ)·transform·T(position, zPosition)).

T.test("1.5 anchorPointZ is the pivot's z", function()
  ca.root.backgroundColor = white
  local L = ca.Layer{ bounds = {0, 0, 100, 100}, position = {200, 200}, backgroundColor = red, anchorPointZ = -50 }
  T.eq(L.anchorPointZ, -50)
  -- No perspective, 60° about y: the plane sits 50 in front of the pivot, so it swings
  -- right by 50·sin 60 = 43.3.
  L.transform = ca.Transform3D.rotation(pi / 3, 0, 1, 0)
  ca.root:addSublayer(L)
  quad(L, {218.30, 150, 268.30, 150, 268.30, 250, 218.30, 250}, "60° about y, anchorPointZ -50")
  local img = ca.render()
  G.pixels(img, {
    {222, 200, red},
    {265, 200, red},
    {200, 200, white, "anchorPointZ = 0 would cover x 175..225"},
    {214, 200, white},
    {272, 200, white},
  })
  -- 90° about y with perspective: edge-on without anchorPointZ, a narrow trapezoid at
  -- x 245.5..255.6 with it (the near edge, x = 255.6, is the taller one).
  disableActions()
  L.transform = RP(pi / 2, 0, 1, 0)
  quad(L, {255.56, 144.44, 245.45, 154.55, 245.45, 245.45, 255.56, 255.56}, "90° about y with perspective")
  img = ca.render()
  G.pixels(img, {
    {250, 200, red},
    {254, 148, red, "near the taller edge"},
    {247, 150, white, "above the shorter edge"},
    {150, 200, white, "anchorPointZ = +50 would land here"},
    {200, 200, white},
    {243, 200, white},
    {258, 200, white},
  })
end, S400)

T.test("1.5 zPosition is a z translation after the transform", function()
  ca.root.backgroundColor = white
  local C = ca.Layer{ frame = {0, 0, 400, 400}, sublayerTransform = P(500) }
  local A = ca.Layer{ bounds = {0, 0, 100, 100}, position = {100, 100}, zPosition = 100, backgroundColor = red }
  local B = ca.Layer{ bounds = {0, 0, 100, 100}, position = {150, 150}, backgroundColor = blue }
  C:addSublayer(A)
  C:addSublayer(B)   -- later in the array, but further away
  ca.root:addSublayer(C)
  -- Under the shared perspective: 100 closer = ×1.25 about the vanishing point (200, 200).
  quad(A, {12.5, 12.5, 137.5, 12.5, 137.5, 137.5, 12.5, 137.5}, "A at zPosition 100")
  quad(B, {100, 100, 200, 100, 200, 200, 100, 200}, "B at zPosition 0")
  local img = ca.render()
  G.pixels(img, {
    {15, 15, red},
    {135, 135, red},
    {120, 120, red, "A is in front of B where they overlap (depth, not array order)"},
    {150, 150, blue},
    {9, 9, white},
  })
  -- Hit testing still follows the array: B is on top there.
  T.same(ca.root:hitTest({120, 120}), B)
  -- With per-layer perspective the z translation comes after the divide: no size change.
  disableActions()
  C.sublayerTransform = ca.Transform3D.identity
  A.transform = P(500)
  quad(A, {50, 50, 150, 50, 150, 150, 50, 150}, "zPosition after the layer's own perspective")
end, S400)

T.test("hit testing beyond the horizon and behind the eye misses; nothing is mirrored", function()
  ca.root.backgroundColor = white
  local C = ca.Layer{ frame = {0, 0, 400, 400}, sublayerTransform = P(500) }
  -- A 3000×3000 floor tilted 80° about x: its far edge is at canvas y 134.1, the
  -- horizon at 111.8, and its near part (local y > 2007.7) is behind the eye.
  local floor = ca.Layer{ bounds = {0, 0, 3000, 3000}, position = {200, 200}, backgroundColor = green,
                          transform = ca.Transform3D.rotation(80 * pi / 180, 1, 0, 0) }
  C:addSublayer(floor)
  ca.root:addSublayer(C)
  T.same(ca.root:hitTest({200, 300}), floor, "on the floor")
  T.same(ca.root:hitTest({200, 140}), floor, "near the far edge")
  T.same(ca.root:hitTest({10, 395}), floor, "bottom-left corner of the canvas")
  T.same(ca.root:hitTest({200, 100}), C, "between the far edge and the horizon")
  -- (200, 50) is the image of local (1500, 2731.6) — inside the bounds but behind the eye (w < 0).
  T.same(ca.root:hitTest({200, 50}), C, "above the horizon: the inverse lands behind the eye")
  local img = ca.render()
  G.pixels(img, {
    {200, 300, green},
    {200, 140, green},
    {10, 395, green},
    {390, 395, green},
    {200, 128, white, "beyond the far edge"},
    {200, 50, white, "the part behind the eye is clipped, not mirrored above the horizon"},
    {200, 5, white},
  })
  local n = G.countColours(img, { green }, 20)
  T.truthy(n > 400 * 250, "the floor fills the lower canvas (" .. n .. " pixels)")
end, S400)
