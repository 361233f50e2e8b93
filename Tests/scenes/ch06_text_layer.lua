-- Chapter 6, listings 6.2–6.4: CATextLayer — a wrapped, justified label, rich text with an
-- attributed string, a layer made by class name; defaults, alignment, truncation, implicit
-- animations, contentsScale against the render scale, the layout cache, hostile input.
-- Spec: shared/spec/book-ch05-06.md §2.5, listings 6.2–6.4 (T6.2–T6.4), F42–F49, §5 (fonts),
-- §6 item 10. Glyph bitmaps are never compared with Apple's (F47): the checks measure ink,
-- and the goldens pin caluna's own output (DejaVu Sans from fonts-dejavu-core).
local ca = require "caluna"
local T = require "caluna.test"

local LOREM = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel "
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

T.test("defaults of a new CATextLayer (T6.2, F43, F44)", function()
  local t = ca.TextLayer()
  T.eq(t.className, "CATextLayer")
  T.eq(t.string, nil)
  T.eq(t.font, "Helvetica")
  T.eq(t.fontSize, 36)
  T.eq(t.foregroundColor, {1, 1, 1, 1}, "opaque white")
  T.eq(t.wrapped, false)
  T.eq(t.alignmentMode, "natural")
  T.eq(t.truncationMode, "none")
  T.eq(t.allowsFontSubpixelQuantization, false)
  T.eq(t.contentsScale, 1, "F43: contentsScale defaults to 1")
  T.eq(t:attributedString(), nil)
  local keys = {}
  for _, p in ipairs(ca.properties("TextLayer")) do keys[p.key or p.name or p[1]] = p end
  for _, k in ipairs({"string", "font", "fontSize", "foregroundColor", "wrapped", "alignmentMode",
                      "truncationMode", "allowsFontSubpixelQuantization"}) do
    T.truthy(keys[k], "ca.properties lists " .. k)
  end
  T.raises(function() t.isWrapped = true end, "no property")
end)

T.test("T6.2 wrapped, justified paragraph: bands, top line, justified edges, black ink (F42)", function()
  label()
  local img = ca.render()
  local b = bands(img)
  T.truthy(#b >= 5, "(a) ≥5 line bands, got " .. #b)
  T.truthy(b[1].top < 15, "(b) first ink row " .. b[1].top .. " < 15 (first line at the top)")
  for i = 1, #b - 1 do
    T.truthy(b[i].left <= 3 and b[i].right >= 295,
             ("(c) line %d spans %d…%d (justified: ≤3 … ≥295)"):format(i, b[i].left, b[i].right))
  end
  local last = b[#b]
  T.truthy(last.left <= 3, "(d) last line starts at the left, got " .. last.left)
  T.truthy(last.right < 250, "(d) last line is shorter (natural, not justified): ends at " .. last.right)
  -- (e) every ink pixel is grey-black (antialiasing only lightens it).
  for y = 0, img.height - 1 do
    for x = 0, img.width - 1 do
      local r, g, bl = img:pixel(x, y)
      if r < 250 then T.truthy(r == g and g == bl, ("(e) ink at %d,%d is grey (%d,%d,%d)"):format(x, y, r, g, bl)) end
    end
  end
  local darkest = 255
  for y = b[1].top, b[1].bottom do for x = 0, 299 do darkest = math.min(darkest, (img:pixel(x, y))) end end
  T.eq(darkest, 0, "(e) fully covered glyph pixels are black")
  T.golden(img, "ch06/text_listing6_2")
end, S)

T.test("T6.2 (f): wrapped = false keeps the paragraph on one line", function()
  label{ wrapped = false }
  local b = bands(ca.render())
  T.eq(#b, 1, "one band")
  T.truthy(b[1].top < 15 and b[1].bottom < 22, "the band is the first line")
  T.truthy(b[1].right >= 298, "the line runs past the right edge (clipped, not wrapped)")
end, S)

T.test("T6.2 contentsScale at render scale 2: 1 → 300×200 store, upscaled; 2 → 600×400, crisp (F49)", function()
  local t = label()
  T.eq(t:textStoreSize(), nil, "no store before the first render")
  local img1 = ca.render()
  local soft1 = softness(img1)
  T.eq({ t:textStoreSize() }, {300, 200}, "contentsScale 1: 300×200 px")
  T.golden(img1, "ch06/text_listing6_2_scale2_cs1")
  t.contentsScale = 2
  local img = ca.render()
  T.eq({ t:textStoreSize() }, {600, 400}, "contentsScale 2: 600×400 px")
  local soft2 = softness(img)
  T.truthy(soft2 < soft1 * 0.8, ("sharper at contentsScale 2: partial-ink share %.3f vs %.3f"):format(soft2, soft1))
  local b = bands(img)
  local b1 = bands(img1)
  T.truthy(#b >= 5 and b[1].top < 30, "same paragraph at 2×")
  T.eq(#b, #b1, "the same lines at both contentsScales (unhinted layout: only sharpness differs)")
  T.near(b[#b].right, b1[#b1].right, 4, "the last line ends at the same place")
  T.golden(img, "ch06/text_listing6_2_scale2")
end, S2)

---------------------------------------------------------------------------
-- Listing 6.3: rich text.

local function runs(ipsumColour, underline)
  local rest = LOREM:sub(12)
  return {
    { text = "Lorem ", font = FONT, fontSize = 15, foregroundColor = "black" },
    { text = "ipsum", font = FONT, fontSize = 15, foregroundColor = ipsumColour, underline = underline },
    { text = rest, font = FONT, fontSize = 15, foregroundColor = "black" },
  }
end

local function isRed(r, g, b) return r > 120 and r - g > 60 and r - b > 60 end

T.test("T6.3 red underlined 'ipsum'; the layer's font, size and colour are ignored (F45, F46)", function()
  local t = label()
  -- The word's ink extent from a rendering with "ipsum" blue (colour never moves glyphs).
  t:setAttributedString(runs("blue", false))
  T.eq(t.string, LOREM, "string reads the runs' text")
  local plain = ca.render()
  local b = bands(plain)
  local ipsum = { left = math.huge, right = -1 }
  local baseline = 0
  for y = b[1].top, b[1].bottom do
    for x = 0, plain.width - 1 do
      local r, g, bl = plain:pixel(x, y)
      if bl > 120 and bl - r > 60 then ipsum.left = math.min(ipsum.left, x); ipsum.right = math.max(ipsum.right, x) end
      -- Baseline: the bottom of "Lorem" (no descenders), left of "ipsum".
      if x < 15 and isInk(r, g, bl) then baseline = y end
    end
  end
  T.truthy(ipsum.right > ipsum.left + 20, "found 'ipsum' on line 1")
  local inkWidth = ipsum.right - ipsum.left + 1

  t:setAttributedString(runs("red", true))
  local img = ca.render()
  T.eq(#t:attributedString(), 3)
  T.eq(t:attributedString()[2].underline, true)
  local longest, underlineRow = 0, nil
  for y = 0, img.height - 1 do
    local run, best = 0, 0
    for x = 0, img.width - 1 do
      local r, g, bl = img:pixel(x, y)
      if isRed(r, g, bl) then
        T.truthy(x >= ipsum.left - 2 and x <= ipsum.right + 2 and y <= b[1].bottom + 4,
                 ("red only within 'ipsum' (%d…%d) on line 1: red at %d,%d"):format(ipsum.left, ipsum.right, x, y))
        run = run + 1; best = math.max(best, run)
      else
        run = 0
        if r < 250 then
          T.truthy(math.abs(r - g) <= 12 and math.abs(g - bl) <= 12 or (x >= ipsum.left - 2 and x <= ipsum.right + 2),
                   ("other ink is black/grey: %d,%d is (%d,%d,%d)"):format(x, y, r, g, bl))
        end
      end
    end
    if best > longest then longest, underlineRow = best, y end
  end
  T.truthy(longest >= 0.9 * inkWidth, ("underline run %d ≥ 0.9 × word ink width %d"):format(longest, inkWidth))
  T.truthy(underlineRow > baseline and underlineRow <= baseline + 5,
           ("the underline (row %d) lies just below the baseline (row %d)"):format(underlineRow, baseline))
  T.golden(img, "ch06/text_listing6_3")

  -- Apple: with an attributed string, font/fontSize/foregroundColor are ignored.
  ca.Transaction.setDisableActions(true)
  t.foregroundColor = "lime"; t.fontSize = 40; t.font = "DejaVu Serif"
  T.truthy(sameImage(img, ca.render()), "changing the layer's font, size and colour changes nothing")
  T.eq(ca.stats().textLayouts, 0, "and does not lay the text out again")
  -- A plain string replaces the attributed one.
  t.string = "plain"
  T.eq(t:attributedString(), nil)
end, S)

T.test("T6.3 at render scale 2 with contentsScale 2", function()
  local t = label{ contentsScale = 2 }
  t:setAttributedString(runs("red", true))
  T.golden(ca.render(), "ch06/text_listing6_3_scale2")
end, S2)

T.test("attributed runs: Core Text defaults, strings as runs, strikethrough and kern round-trip", function()
  local t = ca.TextLayer{ frame = {0, 0, 300, 60} }
  t:setAttributedString{ "plain ", { text = "struck", strikethrough = true, kern = 2, font = "DejaVu Serif Bold" } }
  local r = t:attributedString()
  T.eq(r[1].text, "plain "); T.eq(r[1].font, nil); T.eq(r[1].underline, nil)
  T.eq(r[2].strikethrough, true); T.eq(r[2].kern, 2); T.eq(r[2].font, "DejaVu Serif Bold")
  ca.root.backgroundColor = "white"
  ca.root:addSublayer(t)
  local b = bands(ca.render())
  -- Runs without colour are black (not the layer's white): ink shows on white.
  T.eq(#b >= 1, true, "default run colour is black")
  T.truthy(b[1].bottom - b[1].top < 16, "default run size is 12 pt, got a band of " .. (b[1].bottom - b[1].top + 1))
  t:setAttributedString(nil)
  T.eq(t:attributedString(), nil); T.eq(t.string, nil)
end, S)

---------------------------------------------------------------------------
-- Listing 6.4: LayerLabel — a layer made by class name, the setters mirrored.

T.test("T6.4 a CATextLayer made by class name; LayerLabel's setters (F48)", function()
  local cls
  for k, v in pairs(ca) do if type(v) == "table" and v.className == "CATextLayer" then cls = v end end
  T.truthy(cls, "a class named CATextLayer")
  local l = cls{ frame = {0, 0, 300, 200} }
  T.eq(l.className, "CATextLayer")
  -- LayerLabel: text → string, textColor → foregroundColor, font → font + fontSize.
  l.string = "Hello"; l.foregroundColor = "black"; l.font = FONT; l.fontSize = 17
  l.alignmentMode = "justified"; l.wrapped = true
  T.eq(l.string, "Hello"); T.eq(l.foregroundColor, {0, 0, 0, 1}); T.eq(l.fontSize, 17); T.eq(l.font, FONT)
  T.eq(l.alignmentMode, "justified"); T.eq(l.wrapped, true)
  ca.root.backgroundColor = "white"
  ca.root:addSublayer(l)
  T.eq(#bands(ca.render()), 1)
end, S)

T.test("the default font Helvetica is substituted by fontconfig (spec §6 item 10)", function()
  ca.root.backgroundColor = "white"
  local t = ca.TextLayer{ frame = {0, 0, 300, 60}, foregroundColor = "black", fontSize = 20, string = "Helvetica" }
  T.eq(t.font, "Helvetica")
  ca.root:addSublayer(t)
  local b = bands(ca.render())
  T.eq(#b, 1, "drawn with an installed sans font")
  T.truthy(b[1].right - b[1].left > 60, "real glyphs, not an empty line")
end, { size = {300, 60} })

---------------------------------------------------------------------------
-- Alignment and truncation.

local function oneLine(props)
  ca.root.backgroundColor = "white"
  local t = ca.TextLayer{ frame = {0, 0, 300, 40}, foregroundColor = "black", font = FONT, fontSize = 20 }
  for k, v in pairs(props) do t[k] = v end
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

T.test("truncationMode start, middle, end put the ellipsis there; none clips", function()
  local t = oneLine{ string = ("l"):rep(100) }
  ca.Transaction.setDisableActions(true)
  local function dots()
    local img = ca.render()
    local b = bands(img)
    T.eq(#b, 1)
    local d = dotColumns(img, b[1])
    return d, b[1]
  end
  local d, b = dots()
  T.eq(#d, 0, "none: no ellipsis"); T.truthy(b.right >= 290, "none: the text runs past the edge, got " .. b.right)
  t.truncationMode = "end"; d, b = dots()
  T.truthy(#d >= 3, "end: an ellipsis"); T.truthy(d[1] > 240 and d[#d] <= 299, ("end: dots at %d…%d"):format(d[1], d[#d]))
  T.truthy(b.left <= 3, "end: the text starts at the left")
  t.truncationMode = "start"; d, b = dots()
  T.truthy(#d >= 3 and d[#d] < 60, ("start: dots at %d…%d"):format(d[1], d[#d]))
  t.truncationMode = "middle"; d, b = dots()
  T.truthy(#d >= 3 and d[1] > 110 and d[#d] < 190, ("middle: dots at %d…%d"):format(d[1], d[#d]))
  -- Wrapped: the last line that fits the height is truncated.
  t.wrapped = true; t.truncationMode = "end"; t.string = LOREM; t.bounds = {0, 0, 300, 40}
  local img = ca.render()
  local bs = bands(img)
  T.truthy(#bs >= 1 and #bs <= 2, "only the lines that fit: " .. #bs)
  local last = bs[#bs]
  local dd = dotColumns(img, last)
  T.truthy(#dd >= 3 and dd[#dd] > last.right - 12, "the last visible line ends with an ellipsis")
end, { size = {300, 40} })

---------------------------------------------------------------------------
-- Animation, caching, contentsScale.

T.test("fontSize and foregroundColor animate implicitly; a colour change redraws without a new layout", function()
  ca.root.backgroundColor = "black"
  local t = ca.TextLayer{ frame = {0, 0, 300, 80}, font = FONT, string = "Hi" }
  ca.root:addSublayer(t)
  ca.render()
  t.fontSize = 20
  t.foregroundColor = "black"
  ca.step(0.125)
  local p = t:presentation()
  -- The default curve (0.25, 0.1, 0.25, 1) at half time: 0.8024.
  T.near(p.fontSize, 36 + (20 - 36) * 0.8024, 0.05, "fontSize mid-value")
  T.near(p.foregroundColor.r, 1 - 0.8024, 0.005, "foregroundColor mid-value")
  local img = ca.render()
  local brightest = 0
  for y = 0, img.height - 1 do for x = 0, img.width - 1 do brightest = math.max(brightest, (img:pixel(x, y))) end end
  T.near(brightest, 255 * (1 - 0.8024), 3, "glyphs are drawn in the presentation colour")
  ca.step(0.5)
  ca.render()
  -- Colour alone: the same layout redrawn.
  t.foregroundColor = "white"
  ca.step(0.1)
  ca.render()
  T.eq(ca.stats().textLayouts, 0, "a colour animation frame lays nothing out")
end, { size = {300, 80} })

T.test("moving or fading must not lay out again; a string change lays out once", function()
  local t = label()
  ca.render()
  T.eq(ca.stats().textLayouts, 1, "the first render lays out")
  ca.Transaction.setDisableActions(true)
  t.position = {160, 110}
  t.opacity = 0.5
  t.transform = ca.Transform3D.rotation(0.1, 0, 0, 1)
  ca.render()
  T.eq(ca.stats().textLayouts, 0, "move, fade, rotate: no layout")
  ca.render()
  T.eq(ca.stats().textLayouts, 0)
  t.string = "Another string"
  ca.render()
  T.eq(ca.stats().textLayouts, 1, "a string change: one layout")
  ca.Transaction.setDisableActions(true)   -- each render ends the implicit transaction
  t.bounds = {0, 0, 200, 200}
  ca.render()
  T.eq(ca.stats().textLayouts, 1, "a size change: one layout")
  ca.render()
  T.eq(ca.stats().textLayouts, 0)
end, S)

T.test("text stays upright under a geometryFlipped superlayer; renders are deterministic", function()
  label()
  local a = ca.render()
  T.truthy(sameImage(a, ca.render()), "identical renders")
  ca.root:removeAllAnimations()
  local t = ca.root.sublayers[1]
  t:removeFromSuperlayer()
  local flipped = ca.Layer{ frame = {0, 0, 300, 200}, geometryFlipped = true }
  flipped:addSublayer(t)
  ca.root:addSublayer(flipped)
  T.truthy(sameImage(a, ca.render()), "same pixels: the first line stays at the visual top")
end, S)

---------------------------------------------------------------------------
-- Hostile input.

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

T.test("a text layer inside a shouldRasterize subtree still counts its layouts", function()
  local group = ca.Layer{ frame = {0, 0, 100, 100}, shouldRasterize = true }
  group:addSublayer(ca.TextLayer{ frame = {0, 0, 100, 40}, string = "raster", fontSize = 15 })
  ca.root:addSublayer(group)
  ca.render()
  T.eq(ca.stats().textLayouts, 1, "laid out once, while the raster cache was drawn")
end, { size = {100, 100} })
