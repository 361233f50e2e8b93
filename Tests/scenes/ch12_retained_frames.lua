-- Chapter 12 (tuning for speed): the engine keeps its last frame and ca.render redraws
-- only the damage. The rectangles, the statistics, full redraws on request, and the
-- bytes: always those of a full redraw. docs/rendering.md.
local ca = require "caluna"
local T = require "caluna.test"

-- ca.damage() flattened (T.eq compares flat lists): x, y, width, height, x, …
local function damage()
  local out = {}
  for _, r in ipairs(ca.damage()) do
    T.eq(#r, 4, "a rectangle has 4 numbers")
    for i = 1, 4 do out[#out + 1] = r[i] end
  end
  return out
end

local function box()
  ca.root.backgroundColor = "white"
  local b = ca.Layer{ frame = {10, 10, 20, 20}, backgroundColor = "red" }
  ca.root:addSublayer(b)
  return b
end

local function change(f)
  ca.Transaction.setDisableActions(true)
  f()
end

T.test("the first render is full; an unchanged one writes nothing", function()
  box()
  ca.render()
  local s = ca.stats()
  T.eq(damage(), { 0, 0, 200, 100 })
  T.eq({ s.damageRects, s.damagedPixels, s.fullRedraws }, { 1, 20000, 1 })
  ca.render()
  s = ca.stats()
  T.eq(#damage(), 0)
  T.eq({ s.damageRects, s.damagedPixels, s.fullRedraws, s.layersDrawn }, { 0, 0, 0, 0 })
end, { size = {200, 100} })

T.test("a moved 20×20 layer damages its old and new boxes, 2 pixels of antialiasing around", function()
  local b = box()
  ca.render()
  change(function() b.position = {100, 50} end)
  ca.render()
  T.eq(damage(), { 8, 8, 24, 24, 88, 38, 24, 24 })
  T.eq(ca.stats().damagedPixels, 2 * 24 * 24)
  change(function() b.position = {100.5, 50} end)
  ca.render()
  T.eq(damage(), { 88, 38, 25, 24 }, "overlapping boxes merge")
  change(function() b.shadowOpacity = 0.5 end)
  ca.render()
  T.eq(damage(), { 76, 23, 49, 48 }, "a shadow widens the damage by its blur and offset")
end, { size = {200, 100} })

T.test("ca.render{full = true} redraws everything; the bytes equal the incremental frame's", function()
  local b = box()
  ca.render()
  change(function() b.position = {60.25, 40.5}; b.cornerRadius = 4; b.opacity = 0.5 end)
  local incremental = ca.render()
  T.eq(ca.stats().fullRedraws, 0)
  local full = ca.render{ full = true }
  T.eq(ca.stats().fullRedraws, 1)
  T.eq(damage(), { 0, 0, 200, 100 })
  T.eq(incremental:compare(full), 0)
end, { size = {200, 100} })

T.test("ca.render returns a copy: a later render does not change an earlier image", function()
  local b = box()
  local before = ca.render()
  T.pixel(before, 20, 20, "red", 0)
  change(function() b.position = {150, 50} end)
  local after = ca.render()
  T.pixel(before, 20, 20, "red", 0)
  T.pixel(after, 20, 20, "white", 0)
end, { size = {200, 100} })

T.test("ca.damage() is {} before any render; bad options are errors", function()
  T.eq(#damage(), 0)
  T.raises(function() ca.render{ full = 1 } end, "ca.render: argument 1 expects {full = a boolean}")
  T.raises(function() ca.render{ path = 5 } end, "ca.render: argument 1 expects {path = a string}")
  T.raises(function() ca.render(true) end, "nil, a PNG path or {path = …, full = …}")
end, { size = {40, 30} })

T.test("a new size redraws everything", function()
  box()
  ca.render()
  ca.setup{ size = {120, 80} }
  local img = ca.render()
  T.eq({ img.width, img.height }, { 120, 80 })
  T.eq(damage(), { 0, 0, 120, 80 })
end, { size = {200, 100} })

-- Threads (docs/rendering.md "Threads"): ca.setup{threads = n} draws the same bytes on any
-- count; the stats say how many threads and bands the last render used.
T.test("ca.setup{threads} draws the same bytes on 1, 2 and 5 threads", function()
  ca.root.backgroundColor = "white"
  for i = 0, 29 do
    ca.root:addSublayer(ca.Layer{ frame = {10 + (i % 6) * 64, 8 + (i // 6) * 58, 50, 44},
      backgroundColor = {i / 30, 0.4, 1 - i / 30, 1}, cornerRadius = 9, shadowOpacity = 0.5,
      shadowRadius = 3, opacity = (i % 3 == 0) and 0.7 or 1 })
  end
  ca.setup{ threads = 1 }
  local one = ca.render{ full = true }
  T.eq({ ca.stats().renderThreads, ca.stats().bandsDrawn }, { 1, 1 })
  for _, n in ipairs({ 2, 5 }) do
    ca.setup{ threads = n }
    local many = ca.render{ full = true }
    T.eq({ ca.stats().renderThreads, ca.stats().bandsDrawn }, { n, n })
    T.eq(many:compare(one), 0)
  end
  T.raises(function() ca.setup{ threads = 65 } end, "threads must be 0")
  T.raises(function() ca.setup{ threads = -1 } end, "threads must be 0")
  T.raises(function() ca.setup{ threads = 1.5 } end, "whole number")
  T.raises(function() ca.setup{ threads = "2" } end, "whole number")
  ca.setup{ threads = 0 }
end, { size = {400, 300} })
