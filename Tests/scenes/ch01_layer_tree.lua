-- Chapter 1 (the layer tree): listing 1.1, F3, F16 and the tree operations.
-- Spec: shared/spec/book-ch01-04.md §1.2, §2 listing 1.1, §3 F3/F16/F33, §1.12.
local ca = require "caluna"
local T = require "caluna.test"

-- UIKit's named colours (spec §0).
local lightGray, white, blue = "#aaaaaa", "#ffffff", "#0000ff"

-- Listing 1.1: R 300×300 lightGray; L (50,50,200,200) white in R; B (50,50,100,100) blue in L.
local function listing11()
  local R = ca.root
  R.backgroundColor = lightGray
  local L = ca.Layer{ frame = {50, 50, 200, 200}, backgroundColor = white }
  R:addSublayer(L)
  local B = ca.Layer()
  B.frame = {50, 50, 100, 100}
  B.backgroundColor = blue
  L:addSublayer(B)
  return R, L, B
end

-- The eight pixel asserts of listing 1.1 (points in root coordinates).
local function assertListing11Pixels(img)
  T.pixel(img, 20, 20, lightGray)
  T.pixel(img, 75, 75, white)
  T.pixel(img, 150, 150, blue)
  T.pixel(img, 103, 103, blue)
  T.pixel(img, 97, 97, white)
  T.pixel(img, 197, 197, blue)
  T.pixel(img, 203, 203, white)
  T.pixel(img, 260, 260, lightGray)
end

T.test("1.1 properties of the blue sublayer (F33)", function()
  local R, L, B = listing11()
  T.eq(B.bounds, {0, 0, 100, 100}, "bounds")
  T.eq(B.position, {100, 100}, "position")
  T.eq(B.anchorPoint, {0.5, 0.5}, "anchorPoint")
  T.eq(B.frame, {50, 50, 100, 100}, "frame")
  T.eq(#L.sublayers, 1)
  T.same(L.sublayers[1], B)
  T.same(B.superlayer, L)
  T.same(L.superlayer, R)
  T.eq(R.superlayer, nil, "the root has no superlayer")
  T.eq(#B.sublayers, 0, "a fresh layer has no sublayers")
end, { size = {300, 300} })

T.test("1.1 pixels at scale 1 (fig 1.3 / 1.5)", function()
  listing11()
  local img = ca.render()
  T.eq(img.width, 300); T.eq(img.height, 300)
  assertListing11Pixels(img)
end, { size = {300, 300} })

T.test("F16 listing 1.1 at scale 2: a point is 2×2 pixels", function()
  listing11()
  T.eq(ca.scale(), 2)
  local w, h = ca.pixelSize()
  T.eq(w, 600); T.eq(h, 600)
  local img = ca.render()
  T.eq(img.width, 600); T.eq(img.height, 600)
  assertListing11Pixels(img)
  -- B's edge at x = 100 pt is device column 200: 199 is white, 200 is blue.
  T.eq({img:pixel(199, 300)}, {255, 255, 255, 255})
  T.eq({img:pixel(200, 300)}, {0, 0, 255, 255})
  T.eq({img:pixel(399, 300)}, {0, 0, 255, 255})
  T.eq({img:pixel(400, 300)}, {255, 255, 255, 255})
end, { size = {300, 300}, scale = 2 })

T.test("F16 a 100×100-pt root at scale 2 is 200×200 px; a 1-pt layer covers 2 columns", function()
  ca.root.backgroundColor = white
  local bar = ca.Layer{ frame = {10, 0, 1, 100}, backgroundColor = "#ff0000" }
  ca.root:addSublayer(bar)
  local img = ca.render()
  T.eq(img.width, 200); T.eq(img.height, 200)
  T.eq({img:pixel(19, 50)}, {255, 255, 255, 255}, "column 19")
  T.eq({img:pixel(20, 50)}, {255, 0, 0, 255}, "column 20")
  T.eq({img:pixel(21, 50)}, {255, 0, 0, 255}, "column 21")
  T.eq({img:pixel(22, 50)}, {255, 255, 255, 255}, "column 22")
end, { size = {100, 100}, scale = 2 })

T.test("1.1 golden (fig 1.5)", function()
  listing11()
  T.golden(ca.render(), "ch01_listing_1_1")
end, { size = {300, 300} })

T.test("F3 any number of sublayers: 10,000 render", function()
  local R = ca.root
  R.backgroundColor = white
  local L = ca.Layer{ frame = {0, 0, 100, 100} }
  R:addSublayer(L)
  for i = 0, 9999 do
    local x, y = i % 100, (i // 100) % 100
    L:addSublayer(ca.Layer{ frame = {x, y, 1, 1}, backgroundColor = (i % 2 == 0) and "#ff0000" or "#0000ff" })
  end
  T.eq(#L.sublayers, 10000)
  T.eq(L.sublayers[10000].frame, {99, 99, 1, 1})
  local img = ca.render()
  T.eq(img.width, 100)
  -- Layer i sits at (i % 100, i // 100): even i are red, odd i blue.
  T.pixel(img, 0, 0, "#ff0000")
  T.pixel(img, 1, 0, "#0000ff")
  T.pixel(img, 50, 37, "#ff0000")
  T.pixel(img, 99, 99, "#0000ff")
  T.truthy(ca.stats().layersDrawn >= 10000, "layersDrawn = " .. ca.stats().layersDrawn)
end, { size = {100, 100} })

T.test("1.2 addSublayer appends: the last sublayer is drawn on top", function()
  local R = ca.root
  local A = ca.Layer{ frame = {0, 0, 60, 60}, backgroundColor = "#ff0000", name = "A" }
  local B = ca.Layer{ frame = {30, 30, 60, 60}, backgroundColor = blue, name = "B" }
  R:addSublayer(A)
  R:addSublayer(B)
  T.same(R.sublayers[1], A); T.same(R.sublayers[2], B)
  local img = ca.render()
  T.pixel(img, 45, 45, blue)
  T.pixel(img, 10, 10, "#ff0000")
  -- Adding A again moves it to the end (it is removed from its old place first).
  R:addSublayer(A)
  T.eq(#R.sublayers, 2)
  T.same(R.sublayers[1], B); T.same(R.sublayers[2], A)
  T.pixel(ca.render(), 45, 45, "#ff0000")
end, { size = {100, 100} })

T.test("1.12 insertSublayer at a 1-based index", function()
  local P = ca.Layer()
  local a, b, c, d = ca.Layer{ name = "a" }, ca.Layer{ name = "b" }, ca.Layer{ name = "c" }, ca.Layer{ name = "d" }
  P:addSublayer(a); P:addSublayer(b)
  P:insertSublayer(c, 1)           -- front of the array (drawn first)
  T.same(P.sublayers[1], c); T.same(P.sublayers[2], a); T.same(P.sublayers[3], b)
  P:insertSublayer(d, 4)           -- count + 1: the end
  T.same(P.sublayers[4], d)
  P:insertSublayer(d, 2)           -- moving an existing sublayer
  local names = {}
  for i, l in ipairs(P.sublayers) do names[i] = l.name end
  T.eq(table.concat(names, ","), "c,d,a,b")
  T.same(d.superlayer, P)
end)

T.test("1.12 insertSublayerAbove / insertSublayerBelow", function()
  local P = ca.Layer()
  local a, b, x, y = ca.Layer{ name = "a" }, ca.Layer{ name = "b" }, ca.Layer{ name = "x" }, ca.Layer{ name = "y" }
  P:addSublayer(a); P:addSublayer(b)
  P:insertSublayerAbove(x, a)      -- a, x, b
  P:insertSublayerBelow(y, a)      -- y, a, x, b
  local function order()
    local n = {}
    for i, l in ipairs(P.sublayers) do n[i] = l.name end
    return table.concat(n, ",")
  end
  T.eq(order(), "y,a,x,b")
  -- A nil sibling means the back (below) or the front (above), as in CA.
  local z, w = ca.Layer{ name = "z" }, ca.Layer{ name = "w" }
  P:insertSublayerBelow(z, nil)
  P:insertSublayerAbove(w, nil)
  T.eq(order(), "z,y,a,x,b,w")
  P:insertSublayerAbove(z, b)      -- moving: z leaves the front
  T.eq(order(), "y,a,x,b,z,w")
  T.same(z.superlayer, P)
end)

T.test("1.12 replaceSublayer keeps the slot", function()
  local R = ca.root
  R.backgroundColor = white
  local a = ca.Layer{ frame = {0, 0, 50, 50}, backgroundColor = "#ff0000" }
  local b = ca.Layer{ frame = {25, 25, 50, 50}, backgroundColor = blue }
  local c = ca.Layer{ frame = {0, 0, 50, 50}, backgroundColor = "#00ff00" }
  R:addSublayer(a); R:addSublayer(b)
  R:replaceSublayer(a, c)
  T.eq(#R.sublayers, 2)
  T.same(R.sublayers[1], c); T.same(R.sublayers[2], b)
  T.eq(a.superlayer, nil, "the replaced layer leaves the tree")
  T.same(c.superlayer, R)
  local img = ca.render()
  T.pixel(img, 10, 10, "#00ff00")
  T.pixel(img, 40, 40, blue, 3, "the replacement stays below b")
end, { size = {100, 100} })

T.test("1.12 removeFromSuperlayer", function()
  local R = ca.root
  R.backgroundColor = white
  local a = ca.Layer{ frame = {0, 0, 50, 50}, backgroundColor = "#ff0000" }
  local kid = ca.Layer{ frame = {0, 0, 10, 10}, backgroundColor = blue }
  a:addSublayer(kid)
  R:addSublayer(a)
  T.pixel(ca.render(), 20, 20, "#ff0000")
  a:removeFromSuperlayer()
  T.eq(#R.sublayers, 0)
  T.eq(a.superlayer, nil)
  T.same(kid.superlayer, a, "the subtree stays intact")
  local img = ca.render()
  T.pixel(img, 20, 20, white)
  T.pixel(img, 5, 5, white)
  a:removeFromSuperlayer()          -- removing a detached layer is a no-op
  T.eq(a.superlayer, nil)
end, { size = {100, 100} })

T.test("1.2 the same Lua object comes back for the same layer", function()
  local L = ca.Layer()
  local B = ca.Layer()
  L:addSublayer(B)
  T.same(L.sublayers[1], B)
  T.same(B.superlayer, L)
  T.same(B.superlayer.sublayers[1], B)
  T.truthy(L.sublayers ~= L.sublayers, "sublayers is a fresh array each read")
  T.same(ca.root, ca.root)
  ca.root:addSublayer(L)
  collectgarbage(); collectgarbage()
  T.same(ca.root.sublayers[1], L)
  T.same(ca.root.sublayers[1].sublayers[1], B)
end)

T.test("1.2 the sublayers setter replaces the array", function()
  local P = ca.Layer()
  local a, b, c = ca.Layer{ name = "a" }, ca.Layer{ name = "b" }, ca.Layer{ name = "c" }
  P:addSublayer(a)
  P.sublayers = {c, b}
  T.eq(#P.sublayers, 2)
  T.same(P.sublayers[1], c); T.same(P.sublayers[2], b)
  T.eq(a.superlayer, nil)
  T.same(b.superlayer, P)
  P.sublayers = {}
  T.eq(#P.sublayers, 0)
  T.eq(c.superlayer, nil)
end)

T.test("1.12 defaults of a fresh layer", function()
  local l = ca.Layer()
  T.eq(l.bounds, {0, 0, 0, 0})
  T.eq(l.position, {0, 0})
  T.eq(l.anchorPoint, {0.5, 0.5})
  T.eq(l.anchorPointZ, 0)
  T.eq(l.zPosition, 0)
  T.eq(l.hidden, false)
  T.eq(l.opacity, 1)
  T.eq(l.backgroundColor, nil)
  T.eq(l.masksToBounds, false)
  T.eq(l.geometryFlipped, false)
  T.eq(l.name, nil)
  T.truthy(l.transform:isIdentity())
  T.eq(l.superlayer, nil)
end)

T.test("1.10 opacity affects the sublayers too (group opacity by default)", function()
  ca.root.backgroundColor = "#000000"
  local P = ca.Layer{ frame = {0, 0, 100, 50}, backgroundColor = white, opacity = 0.5 }
  local C = ca.Layer{ frame = {50, 0, 50, 50}, backgroundColor = white }
  P:addSublayer(C); ca.root:addSublayer(P)
  T.eq(P.allowsGroupOpacity, true)
  T.eq(C.opacity, 1, "the child's model opacity is untouched")
  local img = ca.render()
  T.pixel(img, 25, 25, "#808080")
  T.pixel(img, 75, 25, "#808080", 3, "the group fades as one")
  P.allowsGroupOpacity = false       -- the book's iOS 6 behaviour: 50% + 25% = 75%
  img = ca.render()
  T.pixel(img, 25, 25, "#808080")
  T.pixel(img, 75, 25, {191 / 255, 191 / 255, 191 / 255, 1})
end, { size = {100, 50} })

T.test("1.10 opacity outside 0…1 renders clamped", function()
  ca.root.backgroundColor = "#000000"
  local P = ca.Layer{ frame = {0, 0, 50, 50}, backgroundColor = white, opacity = 2 }
  ca.root:addSublayer(P)
  T.pixel(ca.render(), 25, 25, white)
  ca.Transaction.setDisableActions(true)   -- committed layers would animate: jump
  P.opacity = -1
  T.pixel(ca.render(), 25, 25, "#000000")
end, { size = {50, 50} })

T.test("1.11 masksToBounds clips the sublayers, then opacity applies", function()
  ca.root.backgroundColor = "#000000"
  local P = ca.Layer{ frame = {0, 0, 100, 50}, backgroundColor = white, opacity = 0.5, masksToBounds = true }
  local C = ca.Layer{ frame = {50, 0, 100, 80}, backgroundColor = white }
  P:addSublayer(C); ca.root:addSublayer(P)
  local img = ca.render()
  T.pixel(img, 75, 25, "#808080")
  T.pixel(img, 75, 65, "#000000", 3, "clipped below P")
  T.pixel(img, 120, 25, "#000000", 3, "clipped right of P")
  ca.Transaction.setDisableActions(true)   -- committed layers would animate: jump
  P.masksToBounds = false
  img = ca.render()
  T.pixel(img, 75, 65, "#808080", 3, "the overflow shows, faded with its parent")
  T.pixel(img, 120, 25, "#808080")
end, { size = {200, 100} })
