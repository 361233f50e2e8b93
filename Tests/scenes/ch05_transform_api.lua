-- Chapter 5 value types: ca.Transform3D (CATransform3D) and ca.AffineTransform
-- (CGAffineTransform) as mutable values with Core Animation's function set, their
-- conversions, layers' copies, and hostile input. The pictures are in ch05_transforms.lua.
-- Spec: shared/spec/book-ch05-06.md §1.2–1.4, §1.6, §2.1–2.2, listings 5.1–5.3 and 5.5,
-- F5–F9, F13, F16–F18, Appendix A (row-vector math).
local ca = require "caluna"
local T = require "caluna.test"

local pi = math.pi
local r2 = math.sqrt(2) / 2
local deg30 = 30 / 180 * pi

local function isAffineValue(v) return tostring(v):sub(1, 16) == "AffineTransform{" end
local function is3D(v) return tostring(v):sub(1, 12) == "Transform3D{" end

-- Transform3D ---------------------------------------------------------------------------

T.test("Transform3D is a mutable value: fields m11…m44 read and write", function()
  local t = ca.Transform3D.identity
  T.eq(t.m34, 0, "F16: identity m34 = 0")
  t.m34 = -1 / 500
  T.eq(t.m34, -1 / 500)
  T.falsy(t:isIdentity())
  T.falsy(t:isAffine(), "perspective is not affine")
  local names = { "m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
                  "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44" }
  local u = ca.Transform3D.identity
  for i, k in ipairs(names) do u[k] = i end
  T.eq(u:elements(), { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 })
  for i, k in ipairs(names) do T.eq(u[k], i, k) end
end)

T.test("Transform3D.identity is a fresh value on each access", function()
  local a, b = ca.Transform3D.identity, ca.Transform3D.identity
  T.falsy(rawequal(a, b), "two accesses give two values")
  T.truthy(a == b, "equal values")
  a.m41 = 10
  T.eq(ca.Transform3D.identity.m41, 0, "changing one does not change the class's identity")
  T.eq(b.m41, 0)
  T.truthy(ca.Transform3D.identity:isIdentity())
end)

T.test("a variable shares its value; t:copy() makes an independent one", function()
  local t = ca.Transform3D.translation(1, 2, 3)
  local same, copy = t, t:copy()
  same.m41 = 9
  T.eq(t.m41, 9, "userdata are references: the same value")
  T.eq(copy.m41, 1, "the copy is independent")
  T.truthy(copy == ca.Transform3D.translation(1, 2, 3))
end)

T.test("CATransform3DMake…: translation, scale, rotation (axis defaults to z)", function()
  T.eq(ca.Transform3D.translation(1, 2, 3):elements(), { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1 })
  T.eq(ca.Transform3D.translation(1, 2), ca.Transform3D.translation(1, 2, 0), "tz defaults to 0")
  T.eq(ca.Transform3D.scale(2, 3, 4):elements(), { 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1 })
  T.eq(ca.Transform3D.scale(2, 3), ca.Transform3D.scale(2, 3, 1), "sz defaults to 1")
  T.eq(ca.Transform3D.rotation(0.7), ca.Transform3D.rotation(0.7, 0, 0, 1), "axis defaults to z")
  T.near(ca.Transform3D.rotation(0.7, 0, 9, 0), ca.Transform3D.rotation(0.7, 0, 1, 0), 1e-15, "the axis is normalised")
  T.truthy(ca.Transform3D.rotation(0.7, 0, 0, 0):isIdentity(), "zero axis → identity")
  -- About y: (x, 0, 0) → (x·c, 0, −x·s): the right edge moves away (spec §1.3).
  local ry = ca.Transform3D.rotation(pi / 4, 0, 1, 0)
  T.near({ ry.m11, ry.m13, ry.m31, ry.m33 }, { r2, -r2, r2, r2 }, 1e-15)
  local x, y, z, w = ry:apply(100, 0, 0)
  T.near({ x, y, z, w }, { 100 * r2, 0, -100 * r2, 1 }, 1e-12)
  -- F13: a rotation about z is the affine rotation.
  T.near(ca.Transform3D.rotation(deg30, 0, 0, 1), ca.Transform3D.fromAffine(ca.AffineTransform.rotation(deg30)), 1e-15)
end)

T.test("ca.Transform3D{16 numbers} and .new{…} in row order", function()
  local t = ca.Transform3D{ 1, 0, 0, 0.01, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1 }
  T.eq({ t.m14, t.m41, t.m42, t.m43 }, { 0.01, 5, 6, 7 })
  T.eq(ca.Transform3D.new{ 1, 0, 0, 0.01, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1 }, t)
end)

T.test("translate/scale/rotate apply their operation first, then t (spec §1.4)", function()
  local t = ca.Transform3D.scale(2, 2, 2)
  T.eq(t:translate(5, 0, 0), ca.Transform3D.translation(5, 0, 0) * t)
  T.eq(t:scale(1, 3), ca.Transform3D.scale(1, 3, 1) * t)
  T.eq(t:rotate(0.5, 1, 0, 0), ca.Transform3D.rotation(0.5, 1, 0, 0) * t)
  T.eq(t:rotate(0.5), ca.Transform3D.rotation(0.5) * t, "axis defaults to z")
  T.eq(t:rotate(0.5, 0, 0, 0), t, "Rotate with a zero axis keeps t")
  T.eq({ t:translate(5, 0, 0):apply(0, 0, 0) }, { 10, 0, 0, 1 }, "translate by 5, then scale by 2")
  T.eq(t.m11, 2, "the builders return new values; t is unchanged")
end)

T.test("concat and * apply the first value first (CATransform3DConcat)", function()
  local Tr, R = ca.Transform3D.translation(200, 0), ca.Transform3D.rotation(deg30)
  local x, y = (Tr * R):apply(0, 0)
  T.near({ x, y }, { 200 * math.cos(deg30), 100 }, 1e-9, "Concat(T, R) maps the anchor to (173.2, 100)")
  x, y = R:concat(Tr):apply(0, 0)
  T.near({ x, y }, { 200, 0 }, 1e-12, "Concat(R, T) maps it to (200, 0)")
end)

T.test("invert: the inverse, or nil, \"not invertible\" when singular", function()
  local t = ca.Transform3D.rotation(0.6, 1, 2, 3):translate(5, -7, 2):scale(2, 0.5, 3)
  t.m34 = -1 / 500
  local inv = t:invert()
  T.near(t * inv, ca.Transform3D.identity, 1e-12)
  T.near(inv * t, ca.Transform3D.identity, 1e-12)
  local none, why = ca.Transform3D.scale(1, 0):invert()
  T.eq(none, nil)
  T.eq(why, "not invertible")
end)

T.test("== compares elements (CATransform3DEqualToTransform); isIdentity", function()
  T.truthy(ca.Transform3D.rotation(1) == ca.Transform3D.rotation(1))
  T.truthy(ca.Transform3D.rotation(1) ~= ca.Transform3D.rotation(1.0000001))
  T.truthy(ca.Transform3D.translation(0, 0, 0):isIdentity())
  T.falsy(ca.Transform3D.translation(0, 0, 1e-300):isIdentity(), "exact, like Core Animation")
  T.falsy(ca.Transform3D.identity == ca.AffineTransform.identity, "a Transform3D never equals an AffineTransform")
  T.falsy(ca.AffineTransform.identity == ca.Transform3D.identity)
end)

T.test("affine parts: isAffine, affine(), fromAffine, toTransform3D", function()
  local a = ca.AffineTransform{ 1, 2, 3, 4, 5, 6 }
  local m = ca.Transform3D.fromAffine(a)
  T.eq(m:elements(), { 1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1 }, "CATransform3DMakeAffineTransform")
  T.truthy(m:isAffine())
  T.eq(a:toTransform3D(), m)
  local back = m:affine()
  T.truthy(isAffineValue(back), "affine() gives an AffineTransform")
  T.eq(back, a)
  -- GetAffineTransform drops z and perspective.
  local p = ca.Transform3D.translation(5, 6, 7)
  p.m34 = -0.002
  T.falsy(p:isAffine())
  T.eq(p:affine(), ca.AffineTransform.translation(5, 6))
end)

T.test("apply projects [x y z 1]·t / w; nil when w <= 0", function()
  -- Listing 5.5: m34 = −1/500, then rotate 45° about y. The top-left corner of the
  -- 200-pt square, relative to the anchor, lands at (−82.36, −116.47) (spec Appendix A).
  local t = ca.Transform3D.identity
  t.m34 = -1 / 500
  t = t:rotate(pi / 4, 0, 1, 0)
  local x, y, z, w = t:apply(-100, -100)
  T.near({ x, y }, { -82.36, -116.47 }, 0.005)
  T.near(w, 1 - 100 * r2 / 500, 1e-12)
  T.near(z, 100 * r2 / w, 1e-9, "the left edge (x < 0) came toward the viewer")
  local p = ca.Transform3D.identity
  p.m34 = -1 / 500
  T.near({ p:apply(10, 20, 250) }, { 20, 40, 500, 0.5 }, 1e-12, "z toward the viewer enlarges by d/(d − z)")
  local none, why = p:apply(10, 20, 500)
  T.eq(none, nil, "z = d: w = 0")
  T.truthy(why:find("behind the viewer", 1, true))
  T.eq(p:apply(0, 0, 900), nil, "z > d: behind the viewer")
end)

T.test("F17/F18 the d-sweep: the near/far edge ratio falls toward 1 as d grows", function()
  local expected = { [100] = 5.83, [250] = 1.79, [500] = 1.329, [1000] = 1.152, [5000] = 1.029, [1e6] = 1.0001 }
  local previous = math.huge
  for _, d in ipairs{ 100, 250, 500, 1000, 5000, 1e6 } do
    local t = ca.Transform3D.identity
    t.m34 = -1 / d
    t = t:rotate(pi / 4, 0, 1, 0)
    local layer = ca.Transform3D.translation(-100, -100) * t * ca.Transform3D.translation(200, 200)
    local _, tly = layer:apply(0, 0)
    local _, try = layer:apply(200, 0)
    local _, bry = layer:apply(200, 200)
    local _, bly = layer:apply(0, 200)
    local ratio = (bly - tly) / (bry - try)
    T.near(ratio, expected[d], d == 1e6 and 5e-5 or (d <= 250 and 0.005 or 0.0005), "d = " .. d)
    T.truthy(ratio < previous, "strictly decreasing")
    previous = ratio
    if d == 500 then T.near({ bly - tly, bry - try }, { 232.94, 175.22 }, 0.005) end
  end
end)

T.test("elements and tostring", function()
  local e = ca.Transform3D.translation(1, 2, 3):elements()
  T.eq(#e, 16)
  T.eq({ e[13], e[14], e[15] }, { 1, 2, 3 })
  T.truthy(is3D(ca.Transform3D.identity))
end)

-- AffineTransform -----------------------------------------------------------------------

T.test("AffineTransform is its own mutable value: fields a, b, c, d, tx, ty", function()
  local t = ca.AffineTransform.identity
  T.eq(t:elements(), { 1, 0, 0, 1, 0, 0 })
  T.eq({ t.a, t.b, t.c, t.d, t.tx, t.ty }, { 1, 0, 0, 1, 0, 0 })
  t.tx, t.ty, t.c = 5, 6, -2
  T.eq(t:elements(), { 1, 0, -2, 1, 5, 6 })
  T.eq(ca.AffineTransform.identity.tx, 0, "identity is a fresh value on each access")
  T.falsy(rawequal(ca.AffineTransform.identity, ca.AffineTransform.identity))
  T.truthy(isAffineValue(t))
  local c = t:copy()
  c.a = 3
  T.eq(t.a, 1, "copy() is independent")
  T.raises(function() return t.m11 end, "AffineTransform has no field or method 'm11'")
end)

T.test("CGAffineTransformMake…, ca.AffineTransform{a, b, c, d, tx, ty}", function()
  T.eq(ca.AffineTransform.translation(3, 4):elements(), { 1, 0, 0, 1, 3, 4 })
  T.eq(ca.AffineTransform.scale(2, 3):elements(), { 2, 0, 0, 3, 0, 0 })
  local c, s = math.cos(0.3), math.sin(0.3)
  T.eq(ca.AffineTransform.rotation(0.3):elements(), { c, s, -s, c, 0, 0 })
  T.eq(ca.AffineTransform{ 1, 2, 3, 4, 5, 6 }:elements(), { 1, 2, 3, 4, 5, 6 })
  T.eq(ca.AffineTransform.new{ 1, 2, 3, 4, 5, 6 }, ca.AffineTransform{ 1, 2, 3, 4, 5, 6 })
end)

T.test("T5.1: rotation(π/4) = (0.70711, 0.70711, −0.70711, 0.70711, 0, 0), clockwise", function()
  local t = ca.AffineTransform.rotation(pi / 4)
  T.near(t, { 0.70711, 0.70711, -0.70711, 0.70711, 0, 0 }, 5e-6)
  local p = t:apply{ 1, 0 }
  T.truthy(p.y > 0, "+x turns toward +y (down): clockwise on screen")
end)

T.test("T5.2: Scale, Rotate 30°, Translate 200 applies in reverse (F8, F9)", function()
  local t = ca.AffineTransform.identity
  t = t:scale(0.5, 0.5)
  t = t:rotate(deg30)
  t = t:translate(200, 0)
  T.near(t, { 0.43301, 0.25, -0.25, 0.43301, 86.603, 50.0 }, 5e-4)
  T.near(math.sqrt(t.tx ^ 2 + t.ty ^ 2), 100, 1e-9, "moved diagonally by 100")
  local other = ca.AffineTransform.identity:translate(200, 0):rotate(deg30):scale(0.5, 0.5)
  T.near({ other.tx, other.ty }, { 200, 0 }, 1e-9, "code order translate → rotate → scale keeps (200, 0)")
  T.truthy(other ~= t, "order matters")
  T.eq(t, ca.AffineTransform.translation(200, 0) * ca.AffineTransform.rotation(deg30) * ca.AffineTransform.scale(0.5, 0.5))
  -- Concat: the first argument is applied first.
  local T2, R = ca.AffineTransform.translation(200, 0), ca.AffineTransform.rotation(deg30)
  T.near(T2:concat(R):apply{ 0, 0 }, { 173.205, 100 }, 5e-4)
  T.near((R * T2):apply{ 0, 0 }, { 200, 0 }, 1e-12)
end)

T.test("listing 5.3 (not in the spec text): shear(1, 0) = (1, 0, −1, 1, 0, 0)", function()
  local s = ca.AffineTransform.shear(1, 0)
  T.eq(s:elements(), { 1, 0, -1, 1, 0, 0 })
  local top, bottom = s:apply{ 0, -50 }, s:apply{ 0, 50 }
  T.eq(top.x - bottom.x, 100, "the top edge shifts +x by the height")
  T.eq(ca.AffineTransform.shear(0.5, 2):elements(), { 1, 2, -0.5, 1, 0, 0 })
end)

T.test("AffineTransform invert, isIdentity, ==, apply, applyRect", function()
  local t = ca.AffineTransform.rotation(0.3):translate(4, 5):scale(2, 3)
  T.near(t * t:invert(), ca.AffineTransform.identity, 1e-12)
  local none, why = ca.AffineTransform{ 1, 2, 2, 4, 0, 0 }:invert()
  T.eq(none, nil)
  T.eq(why, "not invertible")
  T.truthy(ca.AffineTransform.translation(0, 0):isIdentity())
  T.falsy(t:isIdentity())
  T.truthy(ca.AffineTransform.scale(2, 3) == ca.AffineTransform{ 2, 0, 0, 3, 0, 0 })
  local p = ca.AffineTransform.translation(10, 20):apply{ x = 1, y = 2 }
  T.eq(p, { x = 11, y = 22 })
  T.eq(p.x, 11)
  T.eq(ca.AffineTransform.scale(2, 3):apply(1, 1), { 2, 3 }, "or two numbers")
  local side = 200 * math.sqrt(2)
  T.near(ca.AffineTransform.rotation(pi / 4):applyRect{ -100, -100, 200, 200 }, { -side / 2, -side / 2, side, side }, 1e-9,
    "CGRectApplyAffineTransform: the bounding box")
  T.eq(ca.AffineTransform.scale(-1, 1):applyRect{ x = 10, y = 0, width = 5, height = 5 }, { -15, 0, 5, 5 })
end)

-- Layers ----------------------------------------------------------------------------------

T.test("layer.affineTransform reads an AffineTransform; transform accepts one", function()
  local L = ca.Layer{ bounds = { 0, 0, 200, 200 }, position = { 200, 200 } }
  T.truthy(isAffineValue(L.affineTransform))
  T.truthy(L.affineTransform:isIdentity())
  L.affineTransform = ca.AffineTransform.rotation(pi / 4)           -- listing 5.1
  T.near(L.affineTransform, { r2, r2, -r2, r2, 0, 0 }, 1e-15)
  T.near(L.transform, ca.Transform3D.rotation(pi / 4), 1e-15)
  T.eq(L.transform.m34, 0)
  T.near(L.frame, { 58.58, 58.58, 282.84, 282.84 }, 0.005, "T5.1 frame")
  T.eq(L.bounds, { 0, 0, 200, 200 })
  L.transform = ca.AffineTransform.scale(2, 3)                       -- converted to a Transform3D
  T.eq(L.transform, ca.Transform3D.scale(2, 3))
  T.truthy(is3D(L.transform))
  local p = ca.Transform3D.translation(1, 2, 3)
  p.m34 = -0.01
  L.affineTransform = p                                              -- keeps only the affine part
  T.eq(L.transform, ca.Transform3D.translation(1, 2))
  T.eq(L.affineTransform, ca.AffineTransform.translation(1, 2))
end)

T.test("reading layer.transform gives a copy: change it and assign it back", function()
  local L = ca.Layer()
  local t = L.transform
  t.m34 = -1 / 500
  t.m41 = 50
  T.truthy(L.transform:isIdentity(), "changing the copy does not change the layer")
  L.transform.m41 = 7
  T.eq(L.transform.m41, 0, "nor does changing a fresh read")
  L.transform = t
  T.eq(L.transform.m34, -1 / 500, "assigning it back does")
  t.m41 = 99
  T.eq(L.transform.m41, 50, "the layer keeps its own copy")
  L.transform = ca.Transform3D.translation(50, 0, 0)   -- affine: affineTransform reads it
  local a = L.affineTransform
  a.tx = 1234
  T.eq(L.affineTransform.tx, 50)
end)

T.test("a drawing context's concat and animation values take AffineTransforms", function()
  local seen
  local L = ca.Layer{ frame = { 0, 0, 20, 20 } }
  L.draw = function(layer, ctx)
    ctx:concat(ca.AffineTransform.translation(5, 7))
    seen = ctx:currentTransform()
  end
  L:display()
  T.near(seen, ca.Transform3D.translation(5, 7), 1e-12)
  local anim = ca.BasicAnimation{ keyPath = "transform", fromValue = ca.AffineTransform.rotation(0.5),
                                  toValue = ca.AffineTransform.identity, duration = 1 }
  T.near(anim.fromValue, ca.Transform3D.rotation(0.5), 1e-15, "stored as the Transform3D it denotes")
end)

T.test("ca.interpolate takes AffineTransforms as transforms", function()
  local mid = ca.interpolate(ca.AffineTransform.identity, ca.AffineTransform.translation(10, 20), 0.5)
  T.near(mid, ca.Transform3D.translation(5, 10), 1e-12)
end)

-- Hostile input ---------------------------------------------------------------------------

T.test("hostile: fields refuse NaN, ∞, strings, unknown names", function()
  local t, a = ca.Transform3D.identity, ca.AffineTransform.identity
  T.raises(function() t.m34 = 0 / 0 end, "Transform3D.m34 must be finite")
  T.raises(function() t.m11 = math.huge end, "Transform3D.m11 must be finite")
  T.raises(function() t.m12 = "1" end, "Transform3D.m12 expects a finite number, got string \"1\"")
  T.raises(function() t.m13 = nil end, "Transform3D.m13 expects a finite number, got nil")
  T.raises(function() t.m55 = 1 end, "Transform3D has no field 'm55'")
  T.raises(function() t.rotate = 1 end, "Transform3D has no field 'rotate'")
  T.raises(function() t[1] = 1 end, "Transform3D has no field number 1")
  T.raises(function() return t.m99 end, "Transform3D has no field or method 'm99'")
  T.raises(function() return t[3] end, "Transform3D: a field or method name must be a string")
  T.raises(function() a.tx = -math.huge end, "AffineTransform.tx must be finite")
  T.raises(function() a.a = {} end, "AffineTransform.a expects a finite number")
  T.raises(function() a.m11 = 1 end, "AffineTransform has no field 'm11'")
  T.truthy(t:isIdentity() and a:isIdentity(), "nothing changed")
end)

T.test("hostile: constructors and methods check their arguments", function()
  local nan, inf = 0 / 0, math.huge
  T.raises(function() return ca.Transform3D.translation(1) end, "Transform3D.translation: argument 2 expects a number, got no value")
  T.raises(function() return ca.Transform3D.translation(nan, 1) end, "must be finite")
  T.raises(function() return ca.Transform3D.scale(1, "2") end, "Transform3D.scale: argument 2 expects a number")
  T.raises(function() return ca.Transform3D.rotation() end, "Transform3D.rotation: argument 1 expects a number")
  T.raises(function() return ca.Transform3D.rotation(1, 0, 1) end, "argument 4 expects a number")
  T.raises(function() return ca.Transform3D.rotation(1, inf, 0, 0) end, "must be finite")
  T.raises(function() return ca.Transform3D{ 1, 2, 3 } end, "Transform3D{…} expects 16 numbers")
  T.raises(function() return ca.Transform3D{} end, "got a table of length 0")
  T.raises(function() return ca.Transform3D("x") end, "Transform3D{…} expects 16 numbers")
  T.raises(function() return ca.Transform3D{ 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, "z", 1 } end, "element 15 (m43) is string \"z\"")
  T.raises(function() return ca.Transform3D{ 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, nan, 1 } end, "elements must be finite")
  T.raises(function() return ca.AffineTransform{ 1, 0, 0, 1, 0 } end, "AffineTransform{…} expects 6 numbers a, b, c, d, tx, ty")
  T.raises(function() return ca.AffineTransform.translation(1, 2, 3) end, "AffineTransform.translation takes (tx, ty): got 3 arguments")
  T.raises(function() return ca.AffineTransform.rotation(inf) end, "AffineTransform.rotation: argument 1 must be finite")
  T.raises(function() return ca.AffineTransform.shear(1) end, "AffineTransform.shear: argument 2 expects a number")
  local t, a = ca.Transform3D.identity, ca.AffineTransform.identity
  T.raises(function() return t:translate(1) end, "Transform3D:translate: argument 3 expects a number")
  T.raises(function() return a:rotate(1, 0, 0, 1) end, "AffineTransform:rotate takes (angle)")
  T.raises(function() return t:concat() end, "Transform3D:concat: argument 2 expects a Transform3D, got no value")
  T.raises(function() return t:concat(a) end, "convert with ca.Transform3D.fromAffine")
  T.raises(function() return a * t end, "AffineTransform *: argument 2 expects an AffineTransform (take t:affine() of a Transform3D)")
  T.raises(function() return t * ca.Layer() end, "argument 2 expects a Transform3D, got userdata")
  T.raises(function() return 2 * t end, "a * b multiplies two Transform3D or two AffineTransform values")
  T.raises(function() return t.concat(5, t) end, "concat: argument 1 expects a Transform3D or an AffineTransform")
  T.raises(function() return t.isAffine(a) end, "Transform3D:isAffine: argument 1 expects a Transform3D (convert with")
  T.raises(function() return a.applyRect(t, { 0, 0, 1, 1 }) end, "argument 1 expects an AffineTransform")
  T.raises(function() return ca.Transform3D.fromAffine(t) end, "Transform3D.fromAffine: argument 1 expects an AffineTransform")
  T.raises(function() return t:apply("1", 2) end, "Transform3D:apply: argument 2 expects a number")
  T.raises(function() return t:apply(1, 2, 3, 4) end, "Transform3D:apply takes (x, y[, z])")
  T.raises(function() return a:apply{ nan, 0 } end, "AffineTransform:apply: the point must be finite")
  T.raises(function() return a:apply("p") end, "AffineTransform:apply: argument 2 expects a point")
  T.raises(function() return a:applyRect{ 0, 0, 1 } end, "AffineTransform:applyRect: argument 2 expects a rect")
  T.raises(function() return a:applyRect{ 0, 0, inf, 1 } end, "the rect must be finite")
  local L = ca.Layer()
  T.raises(function() L.transform = ca.Image.fromPixels(1, 1, "\0\0\0\0") end, "Layer.transform expects a Transform3D")
  T.raises(function() L.transform = { 1, 0, 0, 1 } end, "Layer.transform expects a Transform3D")
  T.truthy(L.transform:isIdentity())
end)

T.test("hostile: results that overflow are errors, never ∞ values", function()
  local big = ca.Transform3D.scale(1e300, 1e300)
  T.raises(function() return big * big end, "Transform3D *: the result is not finite")
  T.raises(function() return big:scale(1e300, 1) end, "the result is not finite")
  local abig = ca.AffineTransform.scale(1e300, 1)
  T.raises(function() return abig:apply{ 1e300, 0 } end, "AffineTransform:apply: the result is not finite")
  T.raises(function() return abig:applyRect{ 0, 0, 1e300, 1 } end, "the result is not finite")
  T.eq(ca.Transform3D.scale(1e-200, 1e-200, 1e-200):invert(), nil, "an inverse that would overflow")
end)

T.test("hostile: a thousand random calls never crash", function()
  math.randomseed(7)
  local values = { 0, 1, -1, 0.5, 1e300, -1e300, 0 / 0, math.huge, "x", {}, { 1, 2 }, { 1, 2, 3, 4 }, true, print,
                   ca.Transform3D.identity, ca.AffineTransform.identity, ca.Layer() }
  local t3 = { "translate", "scale", "rotate", "concat", "invert", "isIdentity", "isAffine", "affine", "apply",
               "elements", "copy" }
  local af = { "translate", "scale", "rotate", "concat", "invert", "isIdentity", "apply", "applyRect", "elements",
               "toTransform3D", "copy" }
  local ok, failed = 0, 0
  for i = 1, 1000 do
    local self = (i % 2 == 0) and ca.Transform3D.rotation(0.3, 1, 1, 0) or ca.AffineTransform.rotation(0.3)
    local names = (i % 2 == 0) and t3 or af
    local name = names[math.random(#names)]
    local args = {}
    for k = 1, math.random(0, 4) do args[k] = values[math.random(#values)] end
    local good, err = pcall(function() return self[name](self, table.unpack(args)) end)
    if good then ok = ok + 1 else
      failed = failed + 1
      T.truthy(tostring(err):find("caluna: ", 1, true), "errors come from caluna: " .. tostring(err))
    end
    local field = (i % 2 == 0) and "m34" or "ty"
    pcall(function() self[field] = values[math.random(#values)] end)
    T.truthy(self[field] == self[field], "fields stay numbers (never NaN)")
  end
  T.truthy(ok > 0 and failed > 0)
end)
