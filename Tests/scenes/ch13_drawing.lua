-- Chapter 13 (efficient drawing): the Core Graphics sketch (listing 13.1),
-- the chalk blackboard that redraws everything per touch (13.3) and the
-- dirty-rectangle version (13.4): setNeedsDisplayInRect redraws only its
-- rect, the context is clipped to it and the rest of the store is kept.
-- Spec: shared/spec/book-ch10-15.md §1.4, "Chapter 13" listings 13.1/13.3/13.4,
-- facts F48/F49/F52/F53, G10. The views are view-backed (ca.ViewDelegate),
-- so replacing contents never fades (spec book-ch01-04 D23).
local ca = require "caluna"
local T = require "caluna.test"
local F = dofile(T.dir .. "/fixtures/images.lua")

local white, red, black = "#ffffff", "#ff0000", "#000000"

-- The pixel area of a rect in points, aligned out to whole pixels at scale s.
local function alignedOut(r, s)
  local x0, y0 = math.floor(r.x * s), math.floor(r.y * s)
  local x1, y1 = math.ceil((r.x + r.w) * s), math.ceil((r.y + r.h) * s)
  return { x = x0 / s, y = y0 / s, w = (x1 - x0) / s, h = (y1 - y0) / s }, (x1 - x0) * (y1 - y0)
end

-- CGRectIntersectsRect (touching edges do not intersect).
local function intersects(a, b)
  local ax, ay, aw, ah = a.x or a[1], a.y or a[2], a.w or a.width or a[3], a.h or a.height or a[4]
  local bx, by, bw, bh = b.x or b[1], b.y or b[2], b.w or b.width or b[3], b.h or b.height or b[4]
  return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah
end

-- A copy of an image's pixels (a backing store is redrawn in place).
local function copy(img)
  local rows = {}
  for y = 0, img.height - 1 do
    local row = {}
    for x = 0, img.width - 1 do row[#row + 1] = string.char(img:pixel(x, y)) end
    rows[#rows + 1] = table.concat(row)
  end
  return ca.Image.fromPixels(img.width, img.height, table.concat(rows), "rgba")
end

---------------------------------------------------------------------------
-- Listing 13.1: the Core Graphics sketch view

-- The view: a path of touches; each move adds a line and redraws everything.
local function sketchView(frame, cap)
  local view = ca.Layer{ frame = frame, backgroundColor = white, delegate = ca.ViewDelegate }
  local path, info = {}, { draws = 0 }
  view.draw = function(layer, ctx)                      -- drawRect:
    info.draws = info.draws + 1
    info.clip = ctx:clipBoundingBox()
    ctx:setStrokeColor(red):setLineWidth(5):setLineJoin("round"):setLineCap(cap or "round")
    for i, p in ipairs(path) do
      if p.move then ctx:moveTo(p[1], p[2]) else ctx:addLineTo(p[1], p[2]) end
    end
    ctx:strokePath()
  end
  local touch = {
    began = function(x, y) path[#path + 1] = { x, y, move = true } end,
    moved = function(x, y) path[#path + 1] = { x, y }; view:setNeedsDisplay() end,
  }
  return view, touch, info
end

T.test("13.1 a scripted touch path is stroked red, 5 pt wide, with round caps", function()
  ca.root.backgroundColor = white
  -- The path (0,0)→(100,100)→(200,50), offset by (20,20) so the caps fit in the view.
  local view, touch, info = sketchView({0, 0, 240, 140})
  local butt, buttTouch = sketchView({0, 150, 240, 140}, "butt")
  ca.root:addSublayer(view); ca.root:addSublayer(butt)
  for _, t in ipairs{ touch, buttTouch } do
    t.began(20, 20); t.moved(120, 120); t.moved(220, 70)
  end
  local img = ca.render()
  T.eq(info.draws, 1, "the moves before the display pass draw once")
  -- along the segments
  for _, p in ipairs{ {20, 20}, {45, 45}, {70, 70}, {100, 100}, {120, 120}, {140, 110}, {170, 95}, {200, 80}, {220, 70} } do
    T.pixel(img, p[1], p[2], red, 3, "on the path at " .. T.show(p))
  end
  T.pixel(img, 71, 69, red, 3, "inside the 5 pt width (the pixel is within 2.2 pt of the centre line)")
  T.pixel(img, 74, 66, white, 3, "outside the width (5.7 pt off)")
  T.pixel(img, 120, 60, white); T.pixel(img, 200, 120, white)
  -- round caps reach 2 pt beyond the ends; butt caps stop there
  -- (pixels wholly inside the 2.5 pt cap disc and wholly beyond the end line)
  T.pixel(img, 18, 19, red, 3, "round cap before the start")
  T.pixel(img, 221, 69, red, 3, "round cap after the end")
  T.pixel(img, 18, 150 + 19, white, 3, "butt cap: nothing before the start")
  T.pixel(img, 221, 150 + 69, white, 3, "butt cap: nothing after the end")
  T.pixel(img, 70, 150 + 70, red, 3, "the butt-capped path is drawn")
  -- the backing store: bounds × scale × 4 bytes (F48)
  T.eq({view.contents.width, view.contents.height}, {240, 140})
  T.eq(view.contents.byteCount, 240 * 140 * 4)
  T.eq(ca.stats().backingStoreBytes, 2 * 240 * 140 * 4)
  T.golden(img, "ch13/listing13_1")
end, { size = {240, 290} })

T.test("13.1 every touch move redraws the whole view", function()
  local view, touch, info = sketchView({0, 0, 200, 100})
  ca.root:addSublayer(view)
  touch.began(10, 50)
  ca.step(1 / 60)
  T.eq(info.draws, 0, "touchesBegan does not redraw")
  for i = 1, 10 do
    touch.moved(10 + 18 * i, 50 + (i % 2) * 20)
    ca.step(1 / 60)
    T.eq(info.draws, i, "one redraw per move")
    ca.render()                                          -- the stats count the display work before a render
    local s = ca.stats()
    T.eq(s.drawCallbacks, 1)
    T.eq(s.dirtyPixels, 200 * 100, "the whole store")
    T.near(info.clip, {0, 0, 200, 100}, 0, "the clip is the whole view")
  end
  local img = ca.render()
  T.pixel(img, 190, 50, red, 3, "the last segment is on screen at once (no fade)")
  ca.step(1 / 60)
  T.eq(info.draws, 10, "no move, no redraw")
  ca.render()
  T.eq(ca.stats().drawCallbacks, 0)
end, { size = {200, 100} })

---------------------------------------------------------------------------
-- Listings 13.3 / 13.4: the chalk blackboard

local BRUSH_SIZE = 32

local function brushRect(p)
  return { x = p[1] - BRUSH_SIZE / 2, y = p[2] - BRUSH_SIZE / 2, w = BRUSH_SIZE, h = BRUSH_SIZE }
end

-- A blackboard view. dirty = true is listing 13.4 (setNeedsDisplayInRect and
-- CGRectIntersectsRect); false is 13.3 (setNeedsDisplay, draw everything).
local function blackboard(frame, brush, dirty)
  local board = ca.Layer{ frame = frame, backgroundColor = black, delegate = ca.ViewDelegate }
  local b = { strokes = {}, stamps = 0, clips = {}, layer = board }
  board.draw = function(layer, ctx)
    local clip = ctx:clipBoundingBox()
    b.clips[#b.clips + 1] = clip
    if b.extra then local extra = b.extra; b.extra = nil; extra(ctx) end
    for _, p in ipairs(b.strokes) do
      local r = brushRect(p)
      if not dirty or intersects(r, clip) then
        ctx:drawImage(brush, { r.x, r.y, r.w, r.h })
        b.stamps = b.stamps + 1
      end
    end
  end
  function b.add(x, y)
    local p = { x, y }
    b.strokes[#b.strokes + 1] = p
    if dirty then board:setNeedsDisplayInRect(brushRect(p)) else board:setNeedsDisplay() end
  end
  return b
end

-- A deterministic scribble: n points in (20…w−20) × (20…h−20), with fractional coordinates.
local function scribble(n, w, h, seed)
  local s = seed or 12345
  local function rnd() s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 end
  local pts, x, y = {}, w / 2, h / 2
  for i = 1, n do
    x = math.min(math.max(x + (rnd() - 0.5) * 40, 20), w - 20)
    y = math.min(math.max(y + (rnd() - 0.5) * 40, 20), h - 20)
    pts[i] = { math.floor(x * 8) / 8, math.floor(y * 8) / 8 }
  end
  return pts
end

T.test("13.3 the blackboard redraws every stroke on every touch", function()
  local brush = F.CHALK()
  local b = blackboard({0, 0, 200, 150}, brush, false)
  ca.root:addSublayer(b.layer)
  local total = 0
  for i, p in ipairs(scribble(20, 200, 150)) do
    b.add(p[1], p[2])
    ca.step(1 / 60)
    ca.render()
    total = total + i
    T.eq(b.stamps, total, "touch " .. i .. " stamps all " .. i .. " strokes")
    local s = ca.stats()
    T.eq(s.drawCallbacks, 1)
    T.eq(s.dirtyPixels, 200 * 150)
  end
  T.eq(#b.clips, 20)
  T.near(b.clips[20], {0, 0, 200, 150}, 0)
  local img = ca.render()
  local p = b.strokes[20]
  local r, g, bl = T.px(img, p[1] + 0.5, p[2] + 0.5)
  T.truthy(r > 100 and r == g and g == bl, "chalk at the last stroke: " .. T.show({r, g, bl}))
  T.pixel(img, 2, 2, black, 0, "the board")
end, { size = {200, 150} })

T.test("13.4(a)(b)(c) after 1,000 strokes a new stroke redraws only its dirty rect, and equals a full redraw", function()
  local W, H = 320, 240
  local brush = F.CHALK()
  local inc = blackboard({0, 0, W, H}, brush, true)          -- 13.4
  local full = blackboard({0, 0, W, H}, brush, false)        -- 13.3, the reference
  ca.root:addSublayer(inc.layer)
  inc.layer:display()                                         -- the empty board's store
  local pts = scribble(1001, W, H)
  for i = 1, 1000 do
    inc.add(pts[i][1], pts[i][2])
    inc.layer:displayIfNeeded()                               -- one update per touch
  end
  T.eq(#inc.clips, 1001)
  ca.render()                                                 -- a frame: the counters start afresh
  -- The new stroke, at a whole-point position so its rect is pixel-aligned.
  local p = { 150, 110 }
  local rect = brushRect(p)
  local expected = 0
  for _, q in ipairs(inc.strokes) do if intersects(brushRect(q), rect) then expected = expected + 1 end end
  expected = expected + 1                                     -- the new stroke itself
  local before = inc.stamps
  inc.add(p[1], p[2])
  T.eq(inc.layer:needsDisplay(), true)
  local img = ca.render()
  local s = ca.stats()
  T.eq(s.drawCallbacks, 1, "one callback")
  T.eq(s.dirtyPixels, 32 * 32, "only the dirty rect's pixels")
  T.near(inc.clips[#inc.clips], {rect.x, rect.y, rect.w, rect.h}, 0, "(b) clipBoundingBox is the dirty rect")
  T.eq(inc.stamps - before, expected, "(c) only the strokes intersecting the rect were drawn")
  T.truthy(expected < 1001 / 4, "the rect meets some strokes, not all 1,001 (" .. expected .. ")")
  -- (a) identity with the full redraw of all strokes
  for _, q in ipairs(inc.strokes) do full.strokes[#full.strokes + 1] = q end
  full.layer:display()
  local bad, maxDiff = inc.layer.contents:compare(full.layer.contents)
  T.eq(bad, 0, "(a) pixels differing from the full redraw (largest difference " .. maxDiff .. ")")
  T.eq(full.stamps, 1001)
  local r = T.px(img, 150, 110)
  T.truthy(r > 0, "chalk shows on screen")
end, { size = {320, 240} })

T.test("13.4(b) dirty rects marked before one display are united into one callback", function()
  local b = blackboard({0, 0, 200, 100}, F.CHALK(), true)
  ca.root:addSublayer(b.layer)
  b.layer:display()
  ca.render()
  b.add(30, 30); b.add(100, 60)
  ca.render()
  T.eq(ca.stats().drawCallbacks, 1)
  T.near(b.clips[#b.clips], {14, 14, 102, 62}, 0, "the union of (14,14,32,32) and (84,44,32,32)")
  T.eq(ca.stats().dirtyPixels, 102 * 62)
  T.eq(b.stamps, 2)
end, { size = {200, 100} })

T.test("13.4(b) a fractional dirty rect is aligned out to whole pixels (scale 2)", function()
  local b = blackboard({0, 0, 100, 80}, F.CHALK(), true)
  b.layer.contentsScale = 2
  ca.root:addSublayer(b.layer)
  b.layer:display()
  T.eq({b.layer.contents.width, b.layer.contents.height}, {200, 160})
  ca.render()
  b.add(40.3, 30.1)                                          -- rect (24.3, 14.1, 32, 32)
  ca.render()
  local want, pixels = alignedOut(brushRect{40.3, 30.1}, 2)
  T.near(b.clips[#b.clips], {want.x, want.y, want.w, want.h}, 1e-9, "clipBoundingBox: whole device pixels")
  T.near(b.clips[#b.clips], {24, 14, 32.5, 32.5}, 1e-9)
  T.eq(ca.stats().dirtyPixels, pixels)
  T.eq(pixels, 65 * 65)
end, { size = {100, 80}, scale = 2 })

T.test("13.4(c) counting: strokes 40 pt apart draw 1 stamp per update; 10 pt apart at most 7", function()
  for _, gap in ipairs{ 40, 10 } do
    local b = blackboard({0, 0, 600, 60}, F.CHALK(), true)
    ca.root:addSublayer(b.layer)
    b.layer:display()
    local worst = 0
    for i = 0, 12 do
      local before = b.stamps
      b.add(20 + gap * i, 30)
      b.layer:displayIfNeeded()
      worst = math.max(worst, b.stamps - before)
      if gap == 40 then T.eq(b.stamps - before, 1, "40 pt apart, update " .. i) end
    end
    if gap == 10 then
      T.truthy(worst <= 7 and worst >= 2, "10 pt apart: " .. worst .. " stamps at most per update")
      T.eq(worst, 4, "the new stroke and the 3 before it within 32 pt")
    end
    b.layer:removeFromSuperlayer()
  end
end, { size = {600, 60} })

T.test("13.4(d) drawing outside the clip leaves those pixels unchanged", function()
  local b = blackboard({0, 0, 200, 100}, F.CHALK(), true)
  ca.root:addSublayer(b.layer)
  b.add(40, 50)
  b.layer:display()
  ca.render()
  local before = copy(b.layer.contents)
  -- the next update also paints the whole board red, and a line across it
  b.extra = function(ctx)
    ctx:setFillColor(red):fillRect{0, 0, 200, 100}
    ctx:setStrokeColor("#00ff00"):setLineWidth(8):moveTo(0, 0):addLineTo(200, 100):strokePath()
  end
  b.layer:setNeedsDisplayInRect{150, 10, 20, 20}
  ca.render()
  local after = b.layer.contents
  local changedOutside, changedInside = 0, 0
  for y = 0, 99 do
    for x = 0, 199 do
      local same = table.concat({before:pixel(x, y)}, ",") == table.concat({after:pixel(x, y)}, ",")
      local inside = x >= 150 and x < 170 and y >= 10 and y < 30
      if inside and not same then changedInside = changedInside + 1 end
      if not inside and not same then changedOutside = changedOutside + 1 end
    end
  end
  T.eq(changedOutside, 0, "pixels changed outside the clip")
  T.eq(changedInside, 20 * 20, "the clip is painted red")
  T.eq({after:pixel(160, 20)}, {255, 0, 0, 255})
end, { size = {200, 100} })

T.test("13.4(e) pixels outside the dirty rect are preserved from the previous store; a full redraw clears (F49)", function()
  local b = blackboard({0, 0, 200, 100}, F.CHALK(), true)
  ca.root:addSublayer(b.layer)
  for _, p in ipairs{ {30, 30}, {60, 40}, {100, 50}, {140, 60}, {170, 70} } do b.add(p[1], p[2]) end
  b.layer:display()
  ca.render()
  local before = copy(b.layer.contents)
  -- Forget the strokes: a dirty update redraws nothing inside its rect and keeps the rest.
  b.strokes = {}
  b.layer:setNeedsDisplayInRect{84, 34, 32, 32}
  ca.render()
  local store = b.layer.contents
  local kept, cleared = 0, 0
  for y = 0, 99 do
    for x = 0, 199 do
      local inside = x >= 84 and x < 116 and y >= 34 and y < 66
      local a, c = {before:pixel(x, y)}, {store:pixel(x, y)}
      if inside then
        if c[4] == 0 then cleared = cleared + 1 end
      elseif a[1] == c[1] and a[2] == c[2] and a[3] == c[3] and a[4] == c[4] then
        kept = kept + 1
      end
    end
  end
  T.eq(kept, 200 * 100 - 32 * 32, "every pixel outside the rect kept")
  T.eq(cleared, 32 * 32, "the rect was cleared before drawing")
  local _, _, _, a = before:pixel(60, 40)
  T.truthy(a > 0, "there was chalk outside the rect")
  T.eq({store:pixel(60, 40)}, {before:pixel(60, 40)})
  -- F49: a full setNeedsDisplay wipes the whole store before drawing.
  b.layer:setNeedsDisplay()
  ca.render()
  local stillThere = 0
  for y = 0, 99, 3 do
    for x = 0, 199, 3 do
      local _, _, _, a2 = b.layer.contents:pixel(x, y)
      if a2 ~= 0 then stillThere = stillThere + 1 end
    end
  end
  T.eq(stillThere, 0, "pixels left from the old drawing")
end, { size = {200, 100} })

T.test("a dashed stroke that would draw tens of millions of dashes is an error, not a hang", function()
  local l = ca.Layer{ frame = {0, 0, 100, 100} }
  local drew = false
  l.draw = function(_, ctx)
    -- 200,000 strokes across the view with half-point dashes: 40 million dashes, which cairo
    -- would draw one by one (dashes finer than its tolerance it approximates instead).
    ctx:setLineDash(0, {0.5, 0.5})
    ctx:moveTo(0, 50)
    for i = 1, 200000 do ctx:addLineTo((i % 2) * 100, 50) end
    T.raises(function() ctx:strokePath() end, "would draw about 40000000 dashes")
    -- The refused stroke consumed its path; a reasonable dash still strokes.
    ctx:setLineDash(0, {4, 4}):setStrokeColor("red"):setLineWidth(4)
    ctx:moveTo(0, 50):addLineTo(100, 50):strokePath()
    drew = true
  end
  l:display()
  T.truthy(drew)
  ca.root:addSublayer(l)
  T.pixel(ca.render(), 2, 50, {1, 0, 0, 1}, 2, "the dashed line after the refused one")
end, { size = {100, 100} })
