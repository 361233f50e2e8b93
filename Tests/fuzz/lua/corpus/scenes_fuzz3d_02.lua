local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
local ca = require 'caluna'
local T = FUZZ_T
T.test("fuzz3d: NaN and ∞ are refused everywhere a transform enters", function()
  local L = ca.Layer{ bounds = {0, 0, 10, 10} }
  ca.root:addSublayer(L)
  T.raises(function() ca.Transform3D{ 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, nan } end, "caluna")
  T.raises(function() ca.Transform3D.translation(nan, 0, 0) end, "caluna")
  T.raises(function() ca.Transform3D.rotation(inf, 0, 0, 1) end, "caluna")
  T.raises(function() ca.Transform3D.scale(1, -inf, 1) end, "caluna")
  local t = ca.Transform3D.identity
  T.raises(function() t.m34 = nan end, "caluna")
  T.eq(t.m34, 0, "the refused field is unchanged")
  T.raises(function() t.m11 = inf end, "caluna")
  T.eq(t.m11, 1)
  T.raises(function() t:translate(0, nan, 0) end, "caluna")
  T.raises(function() t:rotate(nan, 0, 1, 0) end, "caluna")
  T.raises(function() t:apply(nan, 0) end, "caluna")
  T.raises(function() ca.Transform3D.scale(1e300, 1, 1):concat(ca.Transform3D.scale(1e300, 1, 1)) end, "caluna")
  T.raises(function() ca.AffineTransform.rotation(nan) end, "caluna")
  T.raises(function() ca.AffineTransform{ 1, 0, 0, 1, 0, inf } end, "caluna")
  local a = ca.AffineTransform.identity
  T.raises(function() a.tx = nan end, "caluna")
  T.eq(a.tx, 0)
  T.raises(function() L.zPosition = nan end, "caluna")
  T.raises(function() L.anchorPointZ = inf end, "caluna")
  T.eq(L.zPosition, 0)
  T.eq(L.anchorPointZ, 0)
  T.eq(L.transform, ca.Transform3D.identity)
  T.eq(L.sublayerTransform, ca.Transform3D.identity)
  -- Singular: invert gives nil; the layer still accepts it and draws nothing for it.
  local s = ca.Transform3D.scale(0, 0, 0)
  T.eq(s:invert(), nil, "a singular matrix has no inverse")
  L.transform = s
  local img = ca.render()
  T.eq(img.width, 40)
end, { size = {40, 40} })

