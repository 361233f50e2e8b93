-- Chapter 4's visual effects in one picture:
--   top:    a rounded, bordered card that clips its contents (masksToBounds) inside a
--           wrapper that casts its shadow (listings 4.1–4.3); a ball whose shadow is an
--           independent shadowPath, a flat ellipse on the "ground" (listing 4.4); an
--           image cut out by a star-shaped mask layer, in a wrapper whose shadow follows
--           the star (listing 4.5);
--   bottom: pixel-art sprites picked from one sheet with contentsRect, letterboxed by
--           contentsGravity = resizeAspect, magnified with the nearest and the linear
--           filters (listing 4.6); two "Hello World" buttons at opacity 0.5 on a panel
--           with two rounded corners (maskedCorners): without group opacity the label
--           shows through, with shouldRasterize the button fades as one (listing 4.7).
-- Render: caluna run examples/effects.lua -o effects.png --size 640x460 --scale 2
local ca = require "caluna"

local root = ca.root
local w, h = ca.size()
local scale = ca.scale()
root.backgroundColor = "#ece6da"
local ink, paper, navy = "#3b3428", "#fdfbf7", "#2f4b7c"

-- A text layer (drawn once).
local function caption(text, x, y, width, opts)
  opts = opts or {}
  local l = ca.Layer { frame = { x, y, width, opts.height or 18 }, contentsScale = scale }
  l.draw = function(_, ctx)
    ctx:setFont(opts.font or "DejaVu Sans", opts.size or 11):setFillColor(opts.color or ink)
    ctx:drawText(text, { 0, 0, width, opts.height or 18 }, opts.align or "center")
  end
  l:display()
  root:addSublayer(l)
  return l
end

-- An image drawn by fn(ctx) into a width×height backing store.
local function drawn(width, height, fn)
  local l = ca.Layer { bounds = { 0, 0, width, height }, contentsScale = scale }
  l.draw = function(_, ctx) fn(ctx) end
  l:display()
  return l.contents
end

caption("Core Animation visual effects, rendered by caluna", 0, 10, w, { size = 15, height = 22,
        font = "DejaVu Sans Bold" })

---------------------------------------------------------------------------
-- 4.1–4.3: cornerRadius + border + masksToBounds, shadow from a wrapper.
local wrapper = ca.Layer { frame = { 40, 50, 160, 160 }, shadowOpacity = 0.35, shadowOffset = { 0, 8 },
                           shadowRadius = 9, shadowColor = "#3a2a10" }
local card = ca.Layer { frame = { 0, 0, 160, 160 }, backgroundColor = paper, cornerRadius = 28,
                        masksToBounds = true, borderWidth = 4, borderColor = navy }
card:addSublayer(ca.Layer { frame = { -30, 96, 220, 80 }, backgroundColor = "#8fb996" })   -- a hill
card:addSublayer(ca.Layer { frame = { 70, 20, 110, 110 }, backgroundColor = "#f2a541", cornerRadius = 55 })
card:addSublayer(ca.Layer { frame = { 96, 46, 58, 58 }, backgroundColor = "#e4572e", cornerRadius = 29 })
card:addSublayer(ca.Layer { frame = { 18, 110, 124, 90 }, backgroundColor = "#4f7c5a", cornerRadius = 45 })
wrapper:addSublayer(card)
root:addSublayer(wrapper)
caption("cornerRadius · border · masksToBounds\nshadow cast by a wrapper", 10, 222, 220, { height = 30, size = 10 })

---------------------------------------------------------------------------
-- 4.4: the content's shadow would be a disc; shadowPath makes it a flat ellipse below.
local ballImage = drawn(120, 120, function(ctx)
  ctx:addEllipseInRect { 4, 4, 112, 112 }:clip()
  ctx:drawRadialGradient { colors = { "#ffffff", "#6fa8dc", "#1d3d6e" }, locations = { 0, 0.35, 1 },
                           startCenter = { 42, 38 }, startRadius = 0, endCenter = { 60, 60 }, endRadius = 60 }
end)
local ball = ca.Layer { frame = { 260, 44, 120, 120 }, shadowOpacity = 0.5, shadowRadius = 6,
                        shadowOffset = { 0, 0 }, shadowColor = "#2a2010",
                        shadowPath = ca.Path():addEllipse(12, 146, 96, 16) }
ball.contents = ballImage
root:addSublayer(ball)
caption("shadowPath: a shadow shape\nindependent of the content", 210, 222, 220, { height = 30, size = 10 })

---------------------------------------------------------------------------
-- 4.5: a star-shaped mask layer over an image; the wrapper's shadow follows the star.
local landscape = drawn(160, 160, function(ctx)
  ctx:drawLinearGradient { colors = { "#20305f", "#a4508b", "#f6a35b" }, start = { 0, 0 }, ["end"] = { 0, 110 },
                           drawsAfterEnd = true }
  ctx:setFillColor("#fff2c4"):fillEllipseInRect { 58, 62, 44, 44 }
  ctx:setFillColor("#37264a"):moveTo(0, 160):addLineTo(0, 112):addCurveTo(40, 90, 70, 120, 100, 104)
     :addCurveTo(125, 92, 145, 100, 160, 96):addLineTo(160, 160):closePath():fillPath()
end)
local starMask = ca.Layer { frame = { 0, 0, 160, 160 }, contentsScale = scale }
starMask.draw = function(_, ctx)
  ctx:moveTo(80, 6)
  for i = 1, 10 do
    local r = (i % 2 == 0) and 76 or 32
    local a = -math.pi / 2 + i * math.pi / 5
    ctx:addLineTo(80 + r * math.cos(a), 86 + r * math.sin(a))
  end
  ctx:closePath():setFillColor("black"):fillPath()   -- only alpha matters in a mask
end
starMask:display()
local starWrap = ca.Layer { frame = { 440, 46, 160, 160 }, shadowOpacity = 0.4, shadowOffset = { 0, 6 },
                            shadowRadius = 6, shadowColor = "#2a2010" }
local starImage = ca.Layer { frame = { 0, 0, 160, 160 }, mask = starMask }
starImage.contents = landscape
starWrap:addSublayer(starImage)
root:addSublayer(starWrap)
caption("mask: a star-shaped layer\ncuts out an image", 410, 222, 220, { height = 30, size = 10 })

---------------------------------------------------------------------------
-- 4.6: one sheet of two 16×16 pixel-art sprites, picked with contentsRect.
local sprites = {
  { -- a heart
    "................", "..XXX......XXX..", ".XooXX....XXooX.", "XooXXXX..XXXXXXX",
    "XoXXXXXXXXXXXXXX", "XXXXXXXXXXXXXXXX", "XXXXXXXXXXXXXXXX", ".XXXXXXXXXXXXXX.",
    "..XXXXXXXXXXXX..", "...XXXXXXXXXX...", "....XXXXXXXX....", ".....XXXXXX.....",
    "......XXXX......", ".......XX.......", "................", "................",
  },
  { -- a little invader
    "................", "...X.......X....", "....X.....X.....", "...XXXXXXXXX....",
    "..XX.XXXXX.XX...", ".XXXXXXXXXXXXX..", ".X.XXXXXXXXX.X..", ".X.X.......X.X..",
    "....XX...XX.....", "................", "..o..o..o..o..o.", "................",
    "................", "................", "................", "................",
  },
}
local palette = { { ["X"] = { 214, 40, 57 }, ["o"] = { 255, 214, 214 } },
                  { ["X"] = { 58, 134, 255 }, ["o"] = { 255, 190, 11 } } }
-- Cells are 18×18 with a transparent 1-px frame, so linear filtering at a cell's
-- edge blends with transparency rather than the neighbouring sprite.
local pixels = {}
local clear = string.char(0, 0, 0, 0)
for y = 0, 17 do
  for s = 1, 2 do
    local row = sprites[s][y]
    for x = 0, 17 do
      local c = row and x >= 1 and x <= 16 and palette[s][row:sub(x, x)]
      pixels[#pixels + 1] = c and string.char(c[1], c[2], c[3], 255) or clear
    end
  end
end
local sheet = ca.Image.fromPixels(36, 18, table.concat(pixels), "rgba")

local function sprite(index, x, y, filter)
  local l = ca.Layer { frame = { x, y, 90, 70 }, backgroundColor = paper, cornerRadius = 12,
                       borderWidth = 1, borderColor = "#d6cdbd", contentsGravity = "resizeAspect",
                       contentsRect = { ((index - 1) * 18 + 1) / 36, 1 / 18, 16 / 36, 16 / 18 }, magnificationFilter = filter }
  l.contents = sheet
  root:addSublayer(l)
  return l
end
sprite(1, 40, 270, "nearest")
sprite(2, 140, 270, "nearest")
sprite(1, 40, 350, "linear")
sprite(2, 140, 350, "linear")
caption("contentsRect picks sprites from one sheet; resizeAspect\nnearest (top) vs linear (bottom) magnification",
        10, 424, 260, { height = 30, size = 9 })

---------------------------------------------------------------------------
-- 4.7: group opacity on a panel rounded at two corners only.
local panel = ca.Layer { frame = { 270, 262, 330, 150 }, backgroundColor = "#2b2d42", cornerRadius = 26,
                         maskedCorners = 1 + 8 }   -- minX-minY and maxX-maxY
root:addSublayer(panel)

local function button(x, props, note)
  local b = ca.Layer { frame = { x, 40, 130, 50 }, backgroundColor = "white", cornerRadius = 10 }
  local label = ca.Layer { frame = { 12, 10, 106, 30 }, backgroundColor = "white", contentsScale = scale }
  label.draw = function(_, ctx)
    ctx:setFont("DejaVu Sans Bold", 13):setFillColor(navy)
    ctx:drawText("Hello World", { 0, 6, 106, 24 }, "center")
  end
  label:display()
  b:addSublayer(label)
  for k, v in pairs(props) do b[k] = v end
  panel:addSublayer(b)
  local n = ca.Layer { frame = { x - 10, 100, 150, 34 }, contentsScale = scale }
  n.draw = function(_, ctx)
    ctx:setFont("DejaVu Sans Mono", 9):setFillColor("#d8dbe8"):drawText(note, { 0, 0, 150, 34 }, "center")
  end
  n:display()
  panel:addSublayer(n)
end
button(25, { opacity = 0.5, allowsGroupOpacity = false }, "opacity 0.5\nallowsGroupOpacity = false")
button(175, { opacity = 0.5, allowsGroupOpacity = false, shouldRasterize = true, rasterizationScale = scale },
       "opacity 0.5\nshouldRasterize = true")
caption("group opacity · shouldRasterize · maskedCorners", 270, 424, 330, { size = 9 })
