local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
-- Chapter 7 (implicit animations): transactions, completion blocks, the action
-- lookup, view-backed layers, custom actions and transitions as actions, and the
-- presentation layer (L7.1–L7.7), with the derived rules D1–D5, D18–D21.
-- Spec: shared/spec/book-ch07-09.md §1.1–§1.4, §2 "Chapter 7", §5 items 3, 4, 7, 9, 11, 17.
--
-- Conventions (spec §2): the clock starts at 0; a scene is built and committed with
-- ca.step(0) (set-up before the first commit never animates), the listing's change
-- happens at t=0, then ca.advance(t) and the presentation layer is read. Implicit
-- animations use the default curve; f(0.5) = 0.802403 is the "mix" below.
local ca = require "caluna"
local T = FUZZ_Tlocal blue, red, green, white = {0, 0, 1, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 1, 1}
local EPS = 1e-6
local opts = { size = {300, 300} }
local curve = ca.MediaTimingFunction("default")
local easeInOut = ca.MediaTimingFunction("easeInEaseOut")

local function mix(a, b, f)
  return { a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f, a[3] + (b[3] - a[3]) * f, a[4] + (b[4] - a[4]) * f }
end

-- The book's colorLayer: 100×100, blue, at (50,50) on a white root; committed at t=0.
local function colorScene()
  ca.root.backgroundColor = white
  local L = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = blue }
  ca.root:addSublayer(L)
  ca.step(0)
  return L
end

local function pres(L) return L:presentation() end
local function keys(L) return table.concat(L:animationKeys(), ",") end

T.test("ca.reset clears open transactions", function()
  ca.Transaction.begin()
  ca.Transaction.begin()
  ca.reset(opts)
  T.eq(ca.Transaction.depth(), 0)
end)

---------------------------------------------------------------------------
-- The README example, loaded from examples/ (found from this file's path)

