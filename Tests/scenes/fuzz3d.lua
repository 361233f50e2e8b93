-- Random 3D geometry, deterministic (fixed seeds): transforms, sublayerTransforms,
-- doubleSided, zPosition, anchorPointZ, hidden and reparenting on a small tree of plain
-- and transform layers, with hostile matrices among them — singular, huge m34 (±1e6),
-- m44 = 0 (every point at infinity), w < 0 everywhere (behind the eye), near-degenerate
-- perspective — and NaN/∞ attempts, which must be refused with an error and not stored.
-- The tree is rendered after every few changes, hit-tested and converted through: nothing
-- may crash or hang, errors must be caluna's clear messages, and afterwards the engine
-- renders a normal scene correctly. Spec: book-ch05-06.md §1.3–1.11, §6 (4: clip w ≤ 0).
local ca = require "caluna"
local T = require "caluna.test"

local pi = math.pi
local nan, inf = 0 / 0, math.huge

local function clear(msg)
  msg = tostring(msg)
  return msg:find("caluna", 1, true) ~= nil
end

-- A random matrix from a menu of ordinary and hostile ones.
local function randomMatrix()
  local r = math.random(16)
  local t
  if r == 1 then
    t = ca.Transform3D.identity
  elseif r == 2 then
    t = ca.Transform3D.rotation(math.random() * 2 * pi, math.random() - 0.5, math.random() - 0.5, math.random() - 0.5)
  elseif r == 3 then
    t = ca.Transform3D.translation(math.random(-300, 300), math.random(-300, 300), math.random(-600, 600))
  elseif r == 4 then
    t = ca.Transform3D.scale(math.random() * 4 - 2, math.random() * 4 - 2, math.random() * 4 - 2)
  elseif r == 5 then   -- singular
    t = ca.Transform3D.scale(0, math.random(), 1)
  elseif r == 6 then   -- the zero matrix
    t = ca.Transform3D{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
  elseif r == 7 then   -- huge perspective, either sign
    t = ca.Transform3D.rotation(math.random() * pi, 0, 1, 0)
    t.m34 = (math.random(2) == 1 and 1 or -1) * 1e6
  elseif r == 8 then   -- m44 = 0: every point of the plane z = 0 at infinity
    t = ca.Transform3D.identity
    t.m44 = 0
  elseif r == 9 then   -- w < 0 everywhere: the whole layer behind the eye
    t = ca.Transform3D.identity
    t.m44 = -1
  elseif r == 10 then  -- a line at infinity through the layer
    t = ca.Transform3D.identity
    t.m14 = 0.02
    t.m44 = 0
  elseif r == 11 then  -- perspective with a layer reaching past the eye
    t = ca.Transform3D.identity
    t.m34 = -1 / math.random(1, 50)
    t = t:rotate(math.random() * pi, 1, 0, 0)
  elseif r == 12 then  -- tiny and huge entries
    t = ca.Transform3D{ 1e-300, 0, 0, 0, 0, 1e-300, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }
  elseif r == 13 then
    t = ca.Transform3D.scale(1e7, 1e7, 1)
  elseif r == 14 then  -- random entries
    local e = {}
    for i = 1, 16 do e[i] = (math.random() - 0.5) * (math.random(3) == 1 and 1e3 or 2) end
    t = ca.Transform3D(e)
  elseif r == 15 then  -- the book's perspective, rotated
    t = ca.Transform3D.identity
    t.m34 = -1 / 500
    t = t:rotate(math.random() * 2 * pi, math.random(), math.random(), math.random())
  else                 -- an affine shear
    t = ca.AffineTransform.shear(math.random() * 4 - 2, math.random() * 4 - 2):toTransform3D()
  end
  return t
end

-- Attempts that must be refused (error) without storing anything.
local function hostile(layers)
  local L = layers[math.random(#layers)]
  local before = L.transform
  local beforeSub = L.sublayerTransform
  local beforeZ = L.zPosition
  local r = math.random(10)
  local ok, err
  if r == 1 then
    ok, err = pcall(function() L.transform = ca.Transform3D{ 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, nan } end)
  elseif r == 2 then
    ok, err = pcall(function() local t = ca.Transform3D.identity; t.m34 = nan; L.transform = t end)
  elseif r == 3 then
    ok, err = pcall(function() local t = ca.Transform3D.identity; t.m41 = inf; L.sublayerTransform = t end)
  elseif r == 4 then
    ok, err = pcall(function() L.transform = ca.Transform3D.rotation(nan, 0, 1, 0) end)
  elseif r == 5 then
    ok, err = pcall(function() L.transform = ca.Transform3D.translation(0, 0, -inf) end)
  elseif r == 6 then   -- overflow to ∞ in a product
    ok, err = pcall(function()
      L.transform = ca.Transform3D.scale(1e300, 1e300, 1):concat(ca.Transform3D.scale(1e300, 1e300, 1))
    end)
  elseif r == 7 then
    ok, err = pcall(function() L.zPosition = nan end)
  elseif r == 8 then
    ok, err = pcall(function() L.anchorPointZ = -inf end)
  elseif r == 9 then
    ok, err = pcall(function() L.transform = ca.AffineTransform{ 1, 0, 0, 1, nan, 0 } end)
  else
    ok, err = pcall(function() L.sublayerTransform = ca.Transform3D.scale(inf, 1, 1) end)
  end
  if ok then error("a NaN/∞ value was accepted (case " .. r .. ")", 0) end
  if not clear(err) then error("unclear error for NaN/∞ (case " .. r .. "): " .. tostring(err), 0) end
  if not (L.transform == before and L.sublayerTransform == beforeSub and L.zPosition == beforeZ) then
    error("a refused value changed the layer (case " .. r .. ")", 0)
  end
  for _, x in ipairs(L.transform:elements()) do
    if x ~= x or x == inf or x == -inf then error("a non-finite transform was stored", 0) end
  end
end

-- Builds the tree: root > C (plain) > {TL1 > {A, B, TL2 > {D}}, E > {F}}, G (TL) > {H}.
local function tree()
  ca.root.backgroundColor = "#ffffff"
  local colours = { "#ff0000", "#00ff00", "#0000ff", "#ffff00", "#ff00ff", "#00ffff", "#804000" }
  local C = ca.Layer{ frame = {0, 0, 120, 120}, backgroundColor = "#202020" }
  local TL1 = ca.TransformLayer{ bounds = {0, 0, 60, 60}, position = {60, 60} }
  local TL2 = ca.TransformLayer{ position = {30, 30} }
  local G = ca.TransformLayer{ position = {60, 60} }
  local leaves = {}
  for i = 1, 7 do
    leaves[i] = ca.Layer{ bounds = {0, 0, 40, 30}, position = {20 + 10 * i, 20 + 8 * i}, backgroundColor = colours[i] }
  end
  local A, B, D, E, F, H = leaves[1], leaves[2], leaves[3], leaves[4], leaves[5], leaves[6]
  A:addSublayer(leaves[7])
  TL1:addSublayer(A)
  TL1:addSublayer(B)
  TL1:addSublayer(TL2)
  TL2:addSublayer(D)
  E:addSublayer(F)
  C:addSublayer(TL1)
  C:addSublayer(E)
  ca.root:addSublayer(C)
  ca.root:addSublayer(G)
  G:addSublayer(H)
  return { C, TL1, TL2, G, A, B, D, E, F, H, leaves[7] }
end

-- rounds × steps random changes; each round starts from a fresh tree, so hostile states
-- alternate with ordinary ones. Returns renders, errors, hits, layers drawn in all.
local function fuzz(seed, rounds, steps)
  math.randomseed(seed)
  local renders, errors, hits, drawn = 0, 0, 0, 0
  local layers
  for i = 1, rounds * steps do
    if i % steps == 1 then
      ca.Transaction.setDisableActions(true)
      ca.root.sublayers = {}
      layers = tree()
    end
    local L = layers[math.random(#layers)]
    local r = math.random(20)
    local ok, err = true, nil
    if r <= 5 then
      ok, err = pcall(function() L.transform = randomMatrix() end)
    elseif r <= 7 then
      ok, err = pcall(function() L.sublayerTransform = randomMatrix() end)
    elseif r == 8 then
      L.doubleSided = math.random(2) == 1
    elseif r == 9 then
      local z = ({ 0, 1, -1, 50, -50, 400, -400, 499.9, 500, 501, 1e6, -1e6 })[math.random(12)]
      ok, err = pcall(function() L.zPosition = z end)
    elseif r == 10 then
      local z = ({ 0, 10, -10, 500, -500, 1e6 })[math.random(6)]
      ok, err = pcall(function() L.anchorPointZ = z end)
    elseif r == 11 then
      L.hidden = math.random(8) == 1
    elseif r == 12 then
      ok, err = pcall(function() L.opacity = math.random() end)
    elseif r == 13 then   -- reparent (cycles and the like must be refused clearly)
      local P = layers[math.random(#layers)]
      ok, err = pcall(function() P:addSublayer(L) end)
    elseif r == 14 then
      ok, err = pcall(function()
        L.bounds = { math.random(-20, 20), math.random(-20, 20), math.random(0, 80), math.random(0, 80) }
      end)
    elseif r == 15 then
      ok, err = pcall(function() L.position = { math.random(-100, 220), math.random(-100, 220) } end)
    elseif r == 16 then
      hostile(layers)
    elseif r == 17 then   -- hit testing through whatever the geometry is now
      local p = { math.random(-50, 170), math.random(-50, 170) }
      ok, err = pcall(function() return ca.root:hitTest(p) end)
      hits = hits + 1
    elseif r == 18 then   -- conversions may fail for singular geometry, clearly
      local M = layers[math.random(#layers)]
      ok, err = pcall(function()
        local q = L:convertPointToLayer({ math.random(-50, 50), math.random(-50, 50) }, M)
        if q.x ~= q.x or q.y ~= q.y then error("convertPoint returned NaN", 0) end
      end)
    elseif r == 19 then   -- the value API on hostile matrices
      local t = randomMatrix()
      ok, err = pcall(function()
        local inv = t:invert()
        if inv then t:concat(inv) end
        t:apply(math.random(-100, 100), math.random(-100, 100), math.random(-100, 100))
        t:isAffine()
      end)
    else
      ok, err = pcall(function() L.affineTransform = ca.AffineTransform.rotation(math.random() * 7):scale(math.random() * 2, 1) end)
    end
    if not ok then
      errors = errors + 1
      if not clear(err) then error(string.format("step %d: unclear error: %s", i, tostring(err)), 0) end
    end
    if i % 4 == 0 then
      local fine, rerr = pcall(ca.render)
      if not fine and not clear(rerr) then error(string.format("step %d: render raised an unclear error: %s", i, tostring(rerr)), 0) end
      renders = renders + 1
      drawn = drawn + ca.stats().layersDrawn
      ca.Transaction.setDisableActions(true)
    end
  end
  return renders, errors, hits, drawn
end

T.test("fuzz3d: random transforms on plain and transform layers, rendered every 4 changes", function()
  local totalRenders, totalErrors, totalHits, totalDrawn = 0, 0, 0, 0
  for _, seed in ipairs { 20260501, 7, 424242, 99, 31337 } do
    local renders, errors, hits, drawn = fuzz(seed, 24, 40)
    totalRenders = totalRenders + renders
    totalErrors = totalErrors + errors
    totalHits = totalHits + hits
    totalDrawn = totalDrawn + drawn
  end
  T.truthy(totalRenders >= 1200, "rendered " .. totalRenders .. " times")
  T.truthy(totalErrors > 0, "hostile values were refused (" .. totalErrors .. " errors)")
  T.truthy(totalHits > 50, "hit tests: " .. totalHits)
  -- The renders drew something most of the time (not only degenerate trees).
  T.truthy(totalDrawn > 4 * totalRenders, string.format("%d layers drawn in %d renders", totalDrawn, totalRenders))
  -- The engine is still usable: a normal scene renders correctly.
  ca.Transaction.setDisableActions(true)
  ca.root.sublayers = {}
  ca.root.transform = ca.Transform3D.identity
  ca.root.sublayerTransform = ca.Transform3D.identity
  ca.root.backgroundColor = "#ffffff"
  local L = ca.Layer{ bounds = {0, 0, 60, 60}, position = {60, 60}, backgroundColor = "#ff0000" }
  local t = ca.Transform3D.identity
  t.m34 = -1 / 500
  L.transform = t:rotate(pi / 4, 0, 1, 0)
  ca.root:addSublayer(L)
  local img = ca.render()
  T.eq(img.width, 120)
  T.pixel(img, 60, 60, "#ff0000")
  T.pixel(img, 5, 5, "#ffffff")
  T.same(ca.root:hitTest({60, 60}), L)
end, { size = {120, 120} })

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
