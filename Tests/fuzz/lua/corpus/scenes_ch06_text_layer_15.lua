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

T.test("hostile input gives clear errors", function()
  local t = ca.TextLayer{ frame = {0, 0, 100, 100} }
  T.raises(function() t.string = ("x"):rep(65537) end, "longer than 65536 bytes")
  t.string = ("x"):rep(65536)
  T.raises(function() t.string = 5 end, "expects a string")
  T.raises(function() t.fontSize = 0 / 0 end, "finite")
  T.raises(function() t.fontSize = -1 end, "fontSize must be in [0, 1000]")
  T.raises(function() t.fontSize = 1e6 end, "fontSize must be in [0, 1000]")
  T.raises(function() t.alignmentMode = "middle" end, "alignmentMode must be one of")
  T.raises(function() t.truncationMode = "both" end, "truncationMode must be one of")
  T.raises(function() t.font = "" end, "font name must be 1…256 bytes")
  T.raises(function() t.font = ("f"):rep(300) end, "1…256 bytes")
  T.raises(function() t.foregroundColor = nil end, "expects a colour")
  T.raises(function() t.foregroundColor = "notacolour" end, "unknown colour")
  T.raises(function() t.wrapped = "yes" end, "expects a boolean")
  T.raises(function() t:setAttributedString(5) end, "expects an array of runs")
  T.raises(function() t:setAttributedString{ { text = "a", colour = "red" } } end, "no attribute 'colour'")
  T.raises(function() t:setAttributedString{ { font = FONT } } end, "needs text")
  T.raises(function() t:setAttributedString{ "ok", "\xff\xfe" } end, "runs[2] is not valid UTF-8")
  T.raises(function() t:setAttributedString{ "a\0b" } end, "NUL")
  T.raises(function() t:setAttributedString{ { text = "a", fontSize = 0 } } end, "fontSize must be in (0, 1000]")
  T.raises(function() t:setAttributedString{ { text = "a", fontSize = 0 / 0 } } end, "finite")
  T.raises(function() t:setAttributedString{ { text = "a", kern = 1e9 } } end, "kern must be within")
  T.raises(function() t:setAttributedString{ { text = "a", underline = 1 } } end, "expects a boolean")
  T.raises(function() t:setAttributedString{ { text = "a", foregroundColor = "nope" } } end, "unknown colour")
  local many = {}
  for i = 1, 4097 do many[i] = "x" end
  T.raises(function() t:setAttributedString(many) end, "4097 runs is more than the 4096 allowed")
  local big = {}
  for i = 1, 3 do big[i] = ("y"):rep(30000) end
  T.raises(function() t:setAttributedString(big) end, "more than 65536 bytes")
  T.raises(function() ca.Layer():setAttributedString{ "a" } end, "not a CATextLayer")
  T.raises(function() ca.Layer().fontSize = 3 end, "belongs to CATextLayer")
  T.eq(t.string, ("x"):rep(65536), "failed sets leave the string as it was")
  -- A store too large to draw is an error, not a crash; the engine stays usable.
  t.string = "big"
  t.bounds = {0, 0, 20000, 20000}
  ca.root:addSublayer(t)
  T.raises(function() ca.render() end, "too large")
  ca.Transaction.setDisableActions(true)
  t.bounds = {0, 0, 100, 100}
  ca.render()
  -- An unknown family is substituted by fontconfig, not refused.
  t.font = "No Such Font Family"
  ca.render()
  T.eq(ca.stats().textLayouts, 1)
end, { size = {100, 100} })

