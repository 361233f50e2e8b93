local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
-- Chapter 1 (the layer tree): listing 1.1, F3, F16 and the tree operations.
-- Spec: shared/spec/book-ch01-04.md §1.2, §2 listing 1.1, §3 F3/F16/F33, §1.12.
local ca = require "caluna"
local T = FUZZ_T-- UIKit's named colours (spec §0).
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

