local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
-- Chapter 6, listings 6.2–6.4: CATextLayer — a wrapped, justified label, rich text with an
-- attributed string, a layer made by class name; defaults, alignment, truncation, implicit
-- animations, contentsScale against the render scale, the layout cache, hostile input.
-- Spec: shared/spec/book-ch05-06.md §2.5, listings 6.2–6.4 (T6.2–T6.4), F42–F49, §5 (fonts),
-- §6 item 10. Glyph bitmaps are never compared with Apple's (F47): the checks measure ink,
-- and the goldens pin caluna's own output (DejaVu Sans from fonts-dejavu-core).
local ca = require "caluna"
local T = FUZZ_Tlocal LOREM = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel "
  .. "varius in, facilisis pulvinar leo. Nunc quis nunc at mauris pharetra condimentum ut ac neque. "
  .. "Nunc elementum, libero ut porttitor dictum, diam odio congue lacus, vel fringilla sapien diam at "
  .. "purus. Etiam suscipit pretium nunc sit amet lobortis"
local FONT = "DejaVu Sans"
local S = { size = {300, 200} }
local S2 = { size = {300, 200}, scale = 2 }

---------------------------------------------------------------------------
-- Ink measurement (pixel coordinates).

local function isInk(r, g, b, a) return (a or 255) > 0 and (r + g + b) / 3 < 160 end

-- Bands of consecutive inked rows (text lines): { top, bottom, left, right }.
local function bands(img)
  local out, cur = {}, nil
  for y = 0, img.height - 1 do
    local lo, hi
    for x = 0, img.width - 1 do
      if isInk(img:pixel(x, y)) then lo = lo or x; hi = x end
    end
    if lo then
      if not cur then cur = { top = y, bottom = y, left = lo, right = hi }; out[#out + 1] = cur end
      cur.bottom = y
      cur.left = math.min(cur.left, lo); cur.right = math.max(cur.right, hi)
    else
      cur = nil
    end
  end
  return out
end

local function sameImage(a, b)
  if a.width ~= b.width or a.height ~= b.height then return false end
  for y = 0, a.height - 1 do
    for x = 0, a.width - 1 do
      local r1, g1, b1, a1 = a:pixel(x, y)
      local r2, g2, b2, a2 = b:pixel(x, y)
      if r1 ~= r2 or g1 ~= g2 or b1 ~= b2 or a1 ~= a2 then return false, x, y end
    end
  end
  return true
end

-- Share of ink pixels that are partly covered (edge softness): upscaled text has more.
local function softness(img)
  local ink, partial = 0, 0
  for y = 0, img.height - 1 do
    for x = 0, img.width - 1 do
      local r, g, b = img:pixel(x, y)
      local v = (r + g + b) / 3
      if v < 215 then ink = ink + 1; if v > 40 then partial = partial + 1 end end
    end
  end
  return partial / ink, ink
end

---------------------------------------------------------------------------
-- Listing 6.2: the label.

local function label(props)
  ca.root.backgroundColor = "white"
  local t = ca.TextLayer{ frame = {0, 0, 300, 200}, foregroundColor = "black", alignmentMode = "justified",
                          wrapped = true, font = FONT, fontSize = 15, string = LOREM }
  for k, v in pairs(props or {}) do t[k] = v end
  ca.root:addSublayer(t)
  return t
end

T.test("alignmentMode left, right, center, natural (LTR and RTL) on one line", function()
  local t = oneLine{ string = "Hello" }
  local function extent() local b = bands(ca.render()); return b[1].left, b[1].right end
  ca.Transaction.setDisableActions(true)
  local l, r = extent()
  T.truthy(l <= 3, "natural (LTR) is left: " .. l)
  local w = r - l
  t.alignmentMode = "left"; l, r = extent(); T.truthy(l <= 3, "left: " .. l)
  t.alignmentMode = "right"; l, r = extent(); T.truthy(r >= 296 and r <= 299, "right: " .. r)
  t.alignmentMode = "center"; l, r = extent(); T.near((l + r) / 2, 150, 3, "center")
  T.near(r - l, w, 1, "same width wherever it goes")
  t.alignmentMode = "natural"; t.string = "שלום עולם"
  l, r = extent(); T.truthy(r >= 295, "natural follows a right-to-left string to the right: " .. r)
  t.alignmentMode = "left"; l, r = extent(); T.truthy(l <= 3, "left stays left for RTL text: " .. l)
end, { size = {300, 40} })

-- Columns whose topmost ink is in the lower half of the line: the ellipsis's dots.
local function dotColumns(img, band)
  local mid = (band.top + band.bottom) / 2
  local out = {}
  for x = 0, img.width - 1 do
    local top
    for y = band.top, band.bottom do if isInk(img:pixel(x, y)) then top = y; break end end
    if top and top > mid then out[#out + 1] = x end
  end
  return out
end

