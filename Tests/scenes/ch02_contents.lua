-- Chapter 2 (the backing image): contents and its gravity, scale, rect and
-- centre (listings 2.1–2.4), custom drawing through a delegate (listing 2.5),
-- display/needsDisplay, the scaling filters (ch.4 F78–F81) and snapshots.
-- Spec: shared/spec/book-ch01-04.md §1.3–§1.5, §1.9, §2 listings 2.1–2.5,
-- §3 F6–F31 and F78–F81, §5 D1/D9/D12/D13/D16/D22/D23/D24/D26, §6 fixtures.
-- Scenes are built before the first render (or changed under ca.ViewDelegate)
-- so contents changes don't fade (D23); one test pins the fade down.
local ca = require "caluna"
local T = require "caluna.test"
local F = dofile(T.dir .. "/fixtures/images.lua")

local lightGray, white, black = "#aaaaaa", "#ffffff", "#000000"
local red, green, blue, yellow = "#ff0000", "#00ff00", "#0000ff", "#ffff00"

-- The 200×200 white layerView of listing 1.1 at (50,50) in a light-grey root:
-- local (x, y) is root (50 + x, 50 + y).
local function layerView(props)
  ca.root.backgroundColor = lightGray
  local L = ca.Layer{ frame = {50, 50, 200, 200}, backgroundColor = white }
  for k, v in pairs(props or {}) do L[k] = v end
  ca.root:addSublayer(L)
  return L
end
local function loc(img, x, y, colour, msg) T.pixel(img, 50 + x, 50 + y, colour, 3, msg) end

-- An Image cropped out of another (pixels).
local function crop(img, x0, y0, w, h)
  local rows = {}
  for y = y0, y0 + h - 1 do
    local row = {}
    for x = x0, x0 + w - 1 do row[#row + 1] = string.char(img:pixel(x, y)) end
    rows[#rows + 1] = table.concat(row)
  end
  return ca.Image.fromPixels(w, h, table.concat(rows), "rgba")
end

-- Whether every channel of the pixel is within tol of (r, g, b, a).
local function close(img, x, y, r, g, b, a, tol)
  local pr, pg, pb, pa = img:pixel(x, y)
  tol = tol or 0
  return math.abs(pr - r) <= tol and math.abs(pg - g) <= tol and math.abs(pb - b) <= tol and math.abs(pa - (a or 255)) <= tol
end

local S300 = { size = {300, 300} }

---------------------------------------------------------------------------
-- Listing 2.1 and the gravity snippets

T.test("2.1 contents shows the image stretched to the bounds (default gravity resize, fig 2.1)", function()
  local L = layerView()
  L.contents = F.TB()
  T.eq(L.contentsGravity, "resize", "default gravity")
  local img = ca.render()
  loc(img, 10, 50, red, "not letterboxed: aspect-fit would leave x < 33 white")
  loc(img, 190, 150, blue)
  loc(img, 3, 3, red, "the image reaches the corners")
  loc(img, 196, 196, blue)
  loc(img, 100, 70, red); loc(img, 100, 130, blue)
  T.pixel(img, 20, 20, lightGray)
  T.golden(img, "ch02/listing2_1")
end, S300)

T.test("F6/D13 a non-image contents renders like nil and raises no error", function()
  local L = layerView{ delegate = ca.ViewDelegate }     -- changes show at once (D23)
  local blank = ca.render()
  local wrapper = { CGImage = F.TB() }                   -- a UIImage-like wrapper, not the image
  for _, v in ipairs{ "Snowman.png", 42, {}, true, wrapper, print } do
    L.contents = v
    local img = ca.render()
    local bad, maxDiff = img:compare(blank)
    T.eq(bad, 0, "contents = " .. T.show(v) .. " differs from contents = nil")
    T.eq(maxDiff, 0)
    loc(img, 100, 100, white)
  end
  L.contents = F.TB()
  loc(ca.render(), 100, 50, red, "an image assigned afterwards shows")
  L.contents = nil
  T.eq(L.contents, nil)
  T.eq(ca.render():compare(blank), 0)
end, S300)

T.test("D13 a non-image contents value is stored (and read back)", function()
  local L = ca.Layer()
  L.contents = "Snowman.png"
  T.eq(L.contents, "Snowman.png", "D13: accept and store it; render as blank")
  local t = {}
  L.contents = t
  T.same(L.contents, t)
end)

T.test("F8 snippet: resizeAspect letterboxes the image (fig 2.2)", function()
  local L = layerView{ contentsGravity = "resizeAspect" }
  L.contents = F.TB()
  -- scale min(2, 1.333): 133.3×200 centred, x 33.3…166.7.
  local img = ca.render()
  loc(img, 15, 100, white, "letterbox")
  loc(img, 185, 100, white, "letterbox")
  loc(img, 100, 50, red)
  loc(img, 100, 150, blue)
  loc(img, 37, 10, red); loc(img, 163, 190, blue)
  loc(img, 30, 10, white); loc(img, 170, 190, white)
  T.golden(img, "ch02/gravity_resize_aspect")
end, S300)

T.test("snippet extra: resizeAspectFill overflows the bounds unless masksToBounds", function()
  local L = layerView{ contentsGravity = "resizeAspectFill", delegate = ca.ViewDelegate }
  L.contents = F.TB()
  -- scale 2: 200×300 at local y −50…250.
  local img = ca.render()
  T.pixel(img, 150, 30, red, 3, "local y −20: the overflow is visible")
  T.pixel(img, 150, 280, blue, 3, "local y 230")
  loc(img, 100, 90, red); loc(img, 100, 110, blue)
  L.masksToBounds = true
  img = ca.render()
  T.pixel(img, 150, 30, lightGray, 3, "clipped")
  T.pixel(img, 150, 280, lightGray, 3, "clipped")
  loc(img, 100, 90, red); loc(img, 100, 110, blue)
end, S300)

---------------------------------------------------------------------------
-- contentsGravity: the 12 strings, placement (§1.4), D1, D12

local gravities = { "center", "top", "bottom", "left", "right", "topLeft", "topRight", "bottomLeft", "bottomRight",
                    "resize", "resizeAspect", "resizeAspectFill" }

T.test("F7 contentsGravity is a string: all 12 constants round-trip, default resize", function()
  local L = ca.Layer()
  T.eq(L.contentsGravity, "resize")
  for _, g in ipairs(gravities) do
    L.contentsGravity = g
    T.eq(L.contentsGravity, g)
    T.eq(type(L.contentsGravity), "string")
  end
  T.eq(#gravities, 12)
end)

T.test("D12 (divergence) an unknown gravity or filter string is an error and keeps the old value", function()
  local L = ca.Layer{ contentsGravity = "center" }
  T.raises(function() L.contentsGravity = "middle" end, "contentsGravity")
  T.raises(function() L.contentsGravity = "Center" end, "contentsGravity", "the strings are case-sensitive")
  T.raises(function() L.contentsGravity = 3 end, "contentsGravity")
  T.eq(L.contentsGravity, "center")
  T.raises(function() L.minificationFilter = "cubic" end, "minificationFilter")
  T.raises(function() L.magnificationFilter = "bilinear" end, "magnificationFilter")
  T.eq(L.minificationFilter, "linear")
  T.eq(L.magnificationFilter, "linear")
end)

-- Where §1.4 puts a w×h image in W×H bounds, as fractions of the free space.
local placement = {
  center = {0.5, 0.5}, top = {0.5, 0}, bottom = {0.5, 1}, left = {0, 0.5}, right = {1, 0.5},
  topLeft = {0, 0}, topRight = {1, 0}, bottomLeft = {0, 1}, bottomRight = {1, 1},
}

T.test("F7/§1.4/D1 each non-resizing gravity places a 20×20 image where the table says", function()
  ca.root.backgroundColor = lightGray
  local layers = {}
  local names = { "topLeft", "top", "topRight", "left", "center", "right", "bottomLeft", "bottom", "bottomRight" }
  for i, g in ipairs(names) do
    local col, row = (i - 1) % 3, (i - 1) // 3
    local L = ca.Layer{ frame = {10 + 110 * col, 10 + 110 * row, 100, 100}, backgroundColor = white, contentsGravity = g }
    L.contents = F.solid(20, 20, 255, 0, 0)
    ca.root:addSublayer(L)
    layers[g] = L
  end
  local img = ca.render()
  for g, L in pairs(layers) do
    local o = L.frame
    for other, f in pairs(placement) do
      -- the centre of the 20×20 box this gravity would give: (W − w)·fx + 10
      local x, y = o.x + 80 * f[1] + 10, o.y + 80 * f[2] + 10
      if other == g then
        T.pixel(img, x, y, red, 3, g .. " puts the image at " .. T.show({80 * f[1], 80 * f[2]}))
        T.pixel(img, x - 7, y - 7, red, 3, g)
        T.pixel(img, x + 7, y + 7, red, 3, g)
      else
        T.pixel(img, x, y, white, 3, g .. ": nothing where " .. other .. " would put it")
      end
    end
  end
  -- D1: "top" is the visual top in caluna's y-down space: the image at y = 0…20.
  local top = layers.top.frame
  T.pixel(img, top.x + 50, top.y + 1, red, 3, "D1 top starts at y = 0")
  T.pixel(img, top.x + 50, top.y + 21, white, 3, "D1 top ends at y = 20")
  T.pixel(img, layers.bottom.frame.x + 50, layers.bottom.frame.y + 98, red, 3, "bottom ends at y = H")
end, { size = {340, 340} })

T.test("§1.4 the gravity rect is placed in the bounds rectangle: bounds.origin does not move contents", function()
  ca.root.backgroundColor = lightGray
  local L = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = white, contentsGravity = "topLeft" }
  L.contents = F.solid(20, 20, 255, 0, 0)
  L.bounds = {30, 40, 100, 100}
  ca.root:addSublayer(L)
  local img = ca.render()
  T.pixel(img, 60, 60, red)
  T.pixel(img, 75, 75, white)
end, { size = {200, 200} })

---------------------------------------------------------------------------
-- Defaults

T.test("F9/F14/F15/F17/F22/F78 defaults of the contents properties", function()
  local L = ca.Layer()
  T.eq(L.contents, nil)
  T.eq(L.contentsScale, 1, "F9")
  T.eq(L.masksToBounds, false, "F14")
  T.eq(L.contentsRect, {0, 0, 1, 1}, "F17")
  T.eq(L.contentsCenter, {0, 0, 1, 1}, "F22")
  T.eq(L.minificationFilter, "linear", "F78")
  T.eq(L.magnificationFilter, "linear", "F78")
  T.eq(L.minificationFilterBias, 0)
  T.eq(L.opaque, false)
  T.eq(L.needsDisplayOnBoundsChange, false)
  T.eq(L.geometryFlipped, false)
  T.eq(L:needsDisplay(), false, "F29: a new layer does not ask to draw")
  -- round trips
  L.contentsRect = {0.25, 0.5, 0.5, 0.25}
  T.eq(L.contentsRect, {0.25, 0.5, 0.5, 0.25})
  L.contentsCenter = {0.1, 0.2, 0.3, 0.4}
  T.near(L.contentsCenter, {0.1, 0.2, 0.3, 0.4}, 1e-9)
  L.contentsScale = 2.5
  T.eq(L.contentsScale, 2.5)
  for _, f in ipairs{ "nearest", "trilinear", "linear" } do
    L.minificationFilter = f; L.magnificationFilter = f
    T.eq(L.minificationFilter, f); T.eq(L.magnificationFilter, f)
  end
end)

---------------------------------------------------------------------------
-- Listing 2.2: center gravity and contentsScale

local function centerScene(scale, masks)
  ca.root.backgroundColor = lightGray
  local L = ca.Layer{ frame = {100, 100, 100, 100}, backgroundColor = white, contentsGravity = "center",
                      contentsScale = scale, masksToBounds = masks or false }
  L.contents = F.Q()
  ca.root:addSublayer(L)
  return L
end

T.test("2.2(a) F11/F12/F13 center at contentsScale 1: 200×200 pt, overflowing the layer (fig 2.3)", function()
  centerScene(1)
  local img = ca.render()
  T.pixel(img, 60, 60, red)
  T.pixel(img, 240, 60, green)
  T.pixel(img, 60, 240, blue)
  T.pixel(img, 240, 240, yellow)
  T.pixel(img, 30, 30, lightGray)
  T.pixel(img, 148, 148, red); T.pixel(img, 152, 152, yellow)
end, S300)

T.test("2.2(b) F11 center at contentsScale 2: 100×100 pt, exactly filling the layer (fig 2.4)", function()
  centerScene(2)
  local img = ca.render()
  T.pixel(img, 60, 60, lightGray)
  T.pixel(img, 110, 110, red)
  T.pixel(img, 190, 110, green)
  T.pixel(img, 110, 190, blue)
  T.pixel(img, 190, 190, yellow)
  T.pixel(img, 97, 150, lightGray); T.pixel(img, 203, 150, lightGray)
end, S300)

T.test("2.2(c) F14 masksToBounds clips the overflow (fig 2.5)", function()
  centerScene(1, true)
  local img = ca.render()
  T.pixel(img, 60, 60, lightGray)
  T.pixel(img, 110, 110, red, 3, "image px (60,60)")
  T.pixel(img, 190, 190, yellow, 3, "image px (140,140)")
  T.pixel(img, 240, 240, lightGray)
  T.pixel(img, 190, 110, green); T.pixel(img, 110, 190, blue)
  T.golden(img, "ch02/listing2_2c")
end, S300)

T.test("2.2(d) F11/F16 pixel density at render scale 2: contentsScale 2 is 1:1, scale 1 gives 2×2 blocks", function()
  ca.root.backgroundColor = lightGray
  local L = ca.Layer{ frame = {100, 100, 100, 100}, backgroundColor = white, contentsGravity = "center",
                      contentsScale = 2, magnificationFilter = "nearest", delegate = ca.ViewDelegate }
  L.contents = F.CHK1(200)
  ca.root:addSublayer(L)
  local img = ca.render()
  T.eq({img.width, img.height}, {600, 600}, "F16: 300 pt at scale 2")
  -- The layer covers device pixels 200…399; image px i is device px 200 + i.
  for _, y in ipairs{ 201, 250, 300, 398 } do
    for x = 202, 396 do
      local v = img:pixel(x, y)
      T.truthy(v == 0 or v == 255, "device (" .. x .. "," .. y .. ") is " .. v)
      local n = img:pixel(x + 1, y)
      T.truthy(v ~= n, "device pixels (" .. x .. "," .. y .. ") and the next alternate")
      T.eq(v, ((x - 200) + (y - 200)) % 2 == 0 and 0 or 255, "image px (0,0) is black")
    end
  end
  L.contentsScale = 1                                    -- 200 pt: device 100…499, 2×2 per image px
  img = ca.render()
  for _, y in ipairs{ 120, 300, 478 } do
    for x = 120, 476, 2 do
      local v = img:pixel(x, y)
      T.truthy(v == 0 or v == 255, "device (" .. x .. "," .. y .. ") is " .. v)
      T.eq(img:pixel(x + 1, y), v, "2×2 block at device (" .. x .. "," .. y .. ")")
      T.eq(img:pixel(x, y + 1), v, "2×2 block at device (" .. x .. "," .. y .. ")")
      T.eq(img:pixel(x + 1, y + 1), v)
      T.truthy(img:pixel(x + 2, y) ~= v, "neighbouring blocks differ at device x " .. x)
    end
  end
end, { size = {300, 300}, scale = 2 })

T.test("2.2(e) F10 contentsScale has no visible effect under the stretching gravities", function()
  ca.root.backgroundColor = lightGray
  local L = ca.Layer{ frame = {100, 100, 100, 100}, backgroundColor = white }
  L.contents = F.Q()
  ca.root:addSublayer(L)
  for _, g in ipairs{ "resizeAspect", "resize", "resizeAspectFill" } do
    L.contentsGravity = g
    L.contentsScale = 1
    local one = ca.render()
    L.contentsScale = 2
    local two = ca.render()
    local _, maxDiff = one:compare(two)
    T.truthy(maxDiff <= 1, g .. ": scale 1 and 2 differ by " .. maxDiff)
    T.pixel(two, 110, 110, red, 3, g)
  end
  -- …but it does under center (the contrast that makes the test meaningful).
  L.contentsGravity = "center"; L.contentsScale = 1
  local one = ca.render()
  L.contentsScale = 2
  T.truthy(one:compare(ca.render()) > 0, "center: scale changes the size")
end, S300)

---------------------------------------------------------------------------
-- Listing 2.3: sprites through contentsRect

-- The listing's helper addSpriteImage:withContentRect:toLayer:.
local function addSpriteImage(image, rect, layer)
  layer.contents = image
  layer.contentsGravity = "resizeAspect"
  layer.contentsRect = rect
end

T.test("2.3 F19 four layers show the four sprites of one shared sheet (fig 2.8)", function()
  ca.root.backgroundColor = lightGray
  local sheet = F.Q()
  local sprites = {
    { name = "igloo", rect = {0, 0, 0.5, 0.5}, colour = red, at = {0, 0} },
    { name = "cone", rect = {0.5, 0, 0.5, 0.5}, colour = green, at = {110, 0} },
    { name = "anchor", rect = {0, 0.5, 0.5, 0.5}, colour = blue, at = {0, 110} },
    { name = "spaceship", rect = {0.5, 0.5, 0.5, 0.5}, colour = yellow, at = {110, 110} },
  }
  for _, s in ipairs(sprites) do
    s.layer = ca.Layer{ frame = {s.at[1], s.at[2], 100, 100}, backgroundColor = white }
    addSpriteImage(sheet, s.rect, s.layer)
    ca.root:addSublayer(s.layer)
  end
  local img = ca.render()
  for _, s in ipairs(sprites) do
    local x0, y0 = s.at[1], s.at[2]
    T.pixel(img, x0 + 50, y0 + 50, s.colour, 3, s.name .. " centre")
    for _, p in ipairs{ {6, 6}, {50, 6}, {94, 6}, {6, 50}, {94, 50}, {6, 94}, {50, 94}, {94, 94} } do
      T.pixel(img, x0 + p[1], y0 + p[2], s.colour, 0, s.name .. ": pure 6 pt inside the edge (no bleed)")
    end
    T.eq(s.layer.contentsRect, s.rect)
  end
  T.eq(ca.stats().imageBytes, 200 * 200 * 4, "G10/F47: the shared sheet is counted once")
end, { size = {210, 210} })

T.test("2.3 F19 the four layers hold the very same image object", function()
  local sheet = F.Q()
  local layers = {}
  for i = 1, 4 do
    layers[i] = ca.Layer{ frame = {0, 0, 100, 100} }
    addSpriteImage(sheet, {(i - 1) % 2 * 0.5, (i - 1) // 2 * 0.5, 0.5, 0.5}, layers[i])
    ca.root:addSublayer(layers[i])
  end
  for i = 1, 4 do T.same(layers[i].contents, sheet, "layer " .. i .. " contents is the sheet itself") end
  T.same(layers[1].contents, layers[2].contents)
end)

T.test("2.3 aspect modes use the sub-rect's aspect ratio (IMG_Q_WIDE)", function()
  ca.root.backgroundColor = lightGray
  local sheet = F.QWide()                                 -- each sprite 100×50 px
  local colours = { red, green, blue, yellow }
  for i = 1, 4 do
    local L = ca.Layer{ frame = {(i - 1) * 110, 0, 100, 100}, backgroundColor = white }
    addSpriteImage(sheet, {(i - 1) % 2 * 0.5, (i - 1) // 2 * 0.5, 0.5, 0.5}, L)
    ca.root:addSublayer(L)
  end
  local img = ca.render()
  for i = 1, 4 do
    local x0 = (i - 1) * 110
    T.pixel(img, x0 + 50, 10, white, 3, "sprite " .. i .. ": letterbox above y 25")
    T.pixel(img, x0 + 50, 90, white, 3, "sprite " .. i .. ": letterbox below y 75")
    T.pixel(img, x0 + 50, 50, colours[i], 3, "sprite " .. i)
    T.pixel(img, x0 + 5, 30, colours[i], 3, "sprite " .. i .. ": full width")
  end
end, { size = {430, 100} })

T.test("F15 contentsRect is in unit coordinates: the same rect picks the same quadrant at 200 and 400 px", function()
  ca.root.backgroundColor = lightGray
  local small, big = F.Q(200), F.Q(400)
  local rects = { {0.5, 0, 0.5, 0.5}, {0.5, 0.5, 0.5, 0.5}, {0, 0.5, 0.5, 0.5} }
  local colours = { green, yellow, blue }
  for i, r in ipairs(rects) do
    for j, image in ipairs{ small, big } do
      local L = ca.Layer{ frame = {(i - 1) * 60, (j - 1) * 60, 50, 50}, contentsRect = r }
      L.contents = image
      ca.root:addSublayer(L)
    end
  end
  local img = ca.render()
  for i = 1, 3 do
    for j = 1, 2 do
      T.pixel(img, (i - 1) * 60 + 25, (j - 1) * 60 + 25, colours[i], 3, "rect " .. i .. ", image " .. j)
      T.pixel(img, (i - 1) * 60 + 4, (j - 1) * 60 + 46, colours[i], 3, "rect " .. i .. ", image " .. j)
    end
  end
end, { size = {180, 120} })

T.test("2.3 F18 an out-of-unit contentsRect extends the edge pixels (both directions)", function()
  ca.root.backgroundColor = lightGray
  local edge = F.EDGE()
  local right = ca.Layer{ frame = {0, 0, 200, 100}, contentsRect = {0.5, 0, 1, 1}, magnificationFilter = "nearest" }
  local left = ca.Layer{ frame = {0, 110, 200, 100}, contentsRect = {-0.5, 0, 1, 1}, magnificationFilter = "nearest" }
  right.contents = edge; left.contents = edge
  ca.root:addSublayer(right); ca.root:addSublayer(left)
  local img = ca.render()
  T.pixel(img, 50, 50, blue, 3, "image x 75")
  T.pixel(img, 150, 50, green, 3, "image x 125: the edge column x = 99 is extended")
  T.pixel(img, 195, 50, green)
  T.pixel(img, 110, 50, green, 3, "image x 105")
  T.pixel(img, 25, 110 + 50, red, 3, "the left edge extended (image x −37.5)")
  T.pixel(img, 5, 110 + 5, red)
  T.pixel(img, 150, 110 + 50, red, 3, "image x 25")
  T.pixel(img, 195, 110 + 50, red, 3, "image x 47.5: the visible part is −50…50, all red")
end, { size = {200, 210} })

---------------------------------------------------------------------------
-- Listing 2.4: contentsCenter

local function addStretchableImage(image, rect, layer)
  layer.contents = image
  layer.contentsCenter = rect
end

local function buttons(center)
  ca.root.backgroundColor = lightGray
  local b1 = ca.Layer{ frame = {10, 10, 200, 60}, magnificationFilter = "nearest" }
  local b2 = ca.Layer{ frame = {10, 80, 60, 200}, magnificationFilter = "nearest" }
  local btn = F.BTN()
  if center then
    addStretchableImage(btn, center, b1); addStretchableImage(btn, center, b2)
  else
    b1.contents = btn; b2.contents = btn
  end
  ca.root:addSublayer(b1); ca.root:addSublayer(b2)
  return b1, b2
end

T.test("2.4 F20 contentsCenter keeps the border of a stretched button (figs 2.9/2.10)", function()
  local b1, b2 = buttons{0.25, 0.25, 0.5, 0.5}
  T.eq(b1.contentsGravity, "resize")
  local img = ca.render()
  local function p1(x, y, c, m) T.pixel(img, 10 + x, 10 + y, c, 3, "button1 local (" .. x .. "," .. y .. ")" .. (m and (": " .. m) or "")) end
  local function p2(x, y, c) T.pixel(img, 10 + x, 80 + y, c, 3, "button2 local (" .. x .. "," .. y .. ")") end
  p1(5, 5, red, "corners are not scaled"); p1(195, 5, red); p1(5, 55, red); p1(195, 55, red)
  p1(15, 5, blue, "the corner stays 10 px wide"); p1(100, 5, blue); p1(5, 30, blue); p1(195, 30, blue)
  p1(15, 30, white, "the border stays 10 px thick"); p1(100, 30, white)
  p1(100, 55, blue); p1(185, 30, white)
  p2(5, 5, red); p2(5, 15, blue); p2(30, 100, white); p2(55, 195, red); p2(55, 100, blue); p2(30, 5, blue)
  T.golden(img, "ch02/listing2_4")
end, { size = {220, 290} })

T.test("2.4 F22 contrast: the default contentsCenter stretches the whole image uniformly", function()
  local b1 = buttons(nil)
  T.eq(b1.contentsCenter, {0, 0, 1, 1})
  local img = ca.render()
  T.pixel(img, 10 + 15, 10 + 5, red, 3, "the corner is stretched to 50×15")
  T.pixel(img, 10 + 45, 10 + 10, red)
  T.pixel(img, 10 + 55, 10 + 5, blue)
  T.pixel(img, 10 + 100, 10 + 30, white)
  T.pixel(img, 10 + 5, 10 + 30, blue, 3, "the left band is 50 wide")
  T.pixel(img, 10 + 45, 10 + 30, blue)
end, { size = {220, 290} })

T.test("2.4 F21 contentsCenter has no effect when the content is not resized", function()
  ca.root.backgroundColor = lightGray
  local L = ca.Layer{ frame = {10, 10, 40, 40}, magnificationFilter = "nearest", delegate = ca.ViewDelegate }
  L.contents = F.BTN()
  ca.root:addSublayer(L)
  local plain = ca.render()
  L.contentsCenter = {0.25, 0.25, 0.5, 0.5}
  local sliced = ca.render()
  local bad, maxDiff = plain:compare(sliced)
  T.eq(bad, 0, "pixels that differ (largest difference " .. maxDiff .. ")")
  T.pixel(sliced, 15, 15, red); T.pixel(sliced, 25, 15, blue); T.pixel(sliced, 30, 30, white)
end, { size = {60, 60} })

T.test("2.4 F23 contentsCenter also applies to drawn content (bounds change without a redraw)", function()
  ca.root.backgroundColor = lightGray
  local calls = 0
  local L = ca.Layer{ frame = {10, 10, 40, 40}, magnificationFilter = "nearest",
                      contentsCenter = {0.25, 0.25, 0.5, 0.5} }
  -- the IMG_BTN pattern, drawn
  L.draw = function(layer, ctx)
    calls = calls + 1
    ctx:setFillColor(red):fillRect{0, 0, 40, 40}
    ctx:setFillColor(blue):fillRect{10, 0, 20, 40}:fillRect{0, 10, 40, 20}
    ctx:setFillColor(white):fillRect{10, 10, 20, 20}
  end
  L:display()
  T.eq({L.contents.width, L.contents.height}, {40, 40})
  L.bounds = {0, 0, 200, 60}                             -- before the first render: no animation
  L.position = {110, 40}
  ca.root:addSublayer(L)
  local img = ca.render()
  T.eq(calls, 1, "no redraw: needsDisplayOnBoundsChange is off")
  T.eq({L.contents.width, L.contents.height}, {40, 40})
  local o = L.frame
  local function p(x, y, c, m) T.pixel(img, o.x + x, o.y + y, c, 3, "local (" .. x .. "," .. y .. ")" .. (m and (": " .. m) or "")) end
  p(5, 5, red); p(195, 5, red); p(5, 55, red); p(195, 55, red)
  p(15, 5, blue, "the corner stays 10 px wide"); p(100, 5, blue); p(5, 30, blue); p(195, 30, blue)
  p(15, 30, white); p(100, 30, white)
end, { size = {220, 80} })

T.test("D9 contentsCenter corner cases: a too-small layer scales the border down; aspect modes slice the fitted rect", function()
  ca.root.backgroundColor = lightGray
  local small = ca.Layer{ frame = {10, 10, 16, 16}, magnificationFilter = "nearest", minificationFilter = "nearest" }
  addStretchableImage(F.BTN(), {0.25, 0.25, 0.5, 0.5}, small)
  local aspect = ca.Layer{ frame = {40, 10, 200, 100}, contentsGravity = "resizeAspect", magnificationFilter = "nearest" }
  addStretchableImage(F.BTN(), {0.25, 0.25, 0.5, 0.5}, aspect)
  ca.root:addSublayer(small); ca.root:addSublayer(aspect)
  local img = ca.render()
  -- 16 < 10 + 10: each 10 pt corner becomes 8 pt, the centre vanishes
  for _, p in ipairs{ {2, 2}, {13, 2}, {2, 13}, {13, 13}, {6, 6}, {9, 9} } do
    T.pixel(img, 10 + p[1], 10 + p[2], red, 3, "small layer local " .. T.show(p))
  end
  -- resizeAspect: the 100×100 fitted rect at x 50…150, then nine-sliced
  local function a(x, y, c, m) T.pixel(img, 40 + x, 10 + y, c, 3, "aspect local (" .. x .. "," .. y .. ")" .. (m and ": " .. m or "")) end
  a(45, 50, lightGray, "letterbox"); a(155, 50, lightGray, "letterbox")
  a(55, 5, red, "corner at the fitted rect's edge"); a(145, 95, red)
  a(65, 5, blue, "the corner stays 10 pt"); a(55, 50, blue); a(100, 50, white); a(65, 15, white)
end, { size = {250, 120} })

---------------------------------------------------------------------------
-- Listing 2.5: CALayerDelegate drawing

-- Listing 1.1's scene with the blue layer drawn by a delegate (fig 2.12).
local function delegateScene(scale)
  ca.root.backgroundColor = lightGray
  local L = ca.Layer{ frame = {50, 50, 200, 200}, backgroundColor = white }
  local B = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = blue, contentsScale = scale }
  local d = { draws = 0 }
  function d:drawLayer(layer, ctx)
    self.draws = self.draws + 1
    ctx:setLineWidth(10)
    ctx:setStrokeColor(red)
    ctx:strokeEllipseInRect(layer.bounds)
  end
  B.delegate = d
  L:addSublayer(B)
  ca.root:addSublayer(L)
  return B, d
end

for _, s in ipairs{ 1, 2 } do
  T.test("2.5 F24/F25/F28/F29/F30 the delegate draws a clipped red ring on blue (contentsScale " .. s .. ")", function()
    local B, d = delegateScene(s)
    local img = ca.render()
    T.eq(d.draws, 0, "F29: a layer does not draw itself when shown")
    T.eq(B.contents, nil)
    T.pixel(img, 150, 102, blue, 3, "nothing drawn yet")
    ca.Transaction.setDisableActions(true)               -- the layer is on screen: no fade (D23)
    B:display()
    T.eq(d.draws, 1, "display() draws once")
    T.eq({B.contents.width, B.contents.height}, {100 * s, 100 * s}, "F24: bounds × contentsScale pixels")
    T.eq(B.contents.byteCount, 100 * s * 100 * s * 4)
    img = ca.render()
    ca.render()
    T.eq(d.draws, 1, "F25: the content is cached")
    T.pixel(img, 150, 150, blue, 3, "F28: the store starts transparent")
    T.pixel(img, 150, 102, red, 3, "local y 2: the inner half of the stroke")
    T.pixel(img, 150, 108, blue, 3, "local y 8")
    T.pixel(img, 150, 98, white, 3, "F30: the outer half is clipped though masksToBounds is off")
    T.pixel(img, 102, 150, red)
    T.pixel(img, 98, 150, white)
    T.pixel(img, 197, 150, red); T.pixel(img, 202, 150, white)
    T.eq(B.masksToBounds, false)
    if s == 2 then T.golden(img, "ch02/listing2_5") end
  end, { size = {300, 300}, scale = s })
end

T.test("2.5 setNeedsDisplay marks the layer; the next display pass draws it once", function()
  local B, d = delegateScene(1)
  B:display()
  ca.render()
  T.eq(d.draws, 1)
  T.eq(B:needsDisplay(), false)
  B:setNeedsDisplay()
  T.eq(B:needsDisplay(), true)
  T.eq(d.draws, 1, "nothing drawn until the pass")
  ca.render()
  T.eq(d.draws, 2, "render ran a display pass")
  T.eq(B:needsDisplay(), false)
  B:setNeedsDisplay(); B:setNeedsDisplay()
  ca.step(1 / 60)
  T.eq(d.draws, 3, "a step runs the pass too; two marks draw once")
  ca.render()
  T.eq(d.draws, 3)
  B:setNeedsDisplay()
  B:displayIfNeeded()
  T.eq(d.draws, 4, "displayIfNeeded draws a marked layer now")
  B:displayIfNeeded()
  T.eq(d.draws, 4, "…and nothing when unmarked")
  ca.render()
  T.eq(d.draws, 4)
end, S300)

T.test("2.5 F27 displayLayer wins over drawLayer and may set contents directly", function()
  local B = delegateScene(1)
  local calls = {}
  local q = F.Q()
  B.delegate = {
    displayLayer = function(self, layer) calls[#calls + 1] = "displayLayer"; layer.contents = q end,
    drawLayer = function(self, layer, ctx) calls[#calls + 1] = "drawLayer" end,
    layerWillDraw = function(self, layer) calls[#calls + 1] = "layerWillDraw" end,
  }
  B:display()
  T.eq(table.concat(calls, ","), "displayLayer", "displayLayer once; no drawLayer, no layerWillDraw")
  local img = ca.render()
  T.pixel(img, 125, 125, red); T.pixel(img, 175, 125, green)
  T.pixel(img, 125, 175, blue); T.pixel(img, 175, 175, yellow)
  T.eq({B.contents.width, B.contents.height}, {200, 200})
  T.same(B.contents, q, "contents is the image displayLayer set")
end, S300)

T.test("2.5 §1.12 layerWillDraw is called before drawLayer", function()
  local B = delegateScene(1)
  local calls = {}
  B.delegate = {
    layerWillDraw = function(self, layer) calls[#calls + 1] = "layerWillDraw:" .. tostring(rawequal(layer, B)) end,
    drawLayer = function(self, layer, ctx) calls[#calls + 1] = "drawLayer:" .. tostring(rawequal(layer, B)) end,
  }
  B:display()
  T.eq(table.concat(calls, ","), "layerWillDraw:true,drawLayer:true")
  B:setNeedsDisplay()
  ca.render()
  T.eq(table.concat(calls, ","), "layerWillDraw:true,drawLayer:true,layerWillDraw:true,drawLayer:true")
end, S300)

T.test("2.5 F26 a delegate that implements nothing: display() is harmless, only the background shows", function()
  local B = delegateScene(1)
  B.delegate = {}
  B:display()
  local img = ca.render()
  T.pixel(img, 150, 150, blue)
  T.pixel(img, 150, 102, blue)
  T.pixel(img, 75, 75, white)
  B:setNeedsDisplay()
  ca.render()
  T.pixel(ca.render(), 150, 102, blue)
end, S300)

T.test("D24 display() with no drawer clears manually set contents", function()
  ca.root.backgroundColor = lightGray
  local B = ca.Layer{ frame = {100, 100, 100, 100}, backgroundColor = blue }
  B.contents = F.Q()
  ca.root:addSublayer(B)
  B:display()
  T.truthy(B.contents == nil or B.contents.width == 100, "nil, or an empty backing image")
  local img = ca.render()
  T.pixel(img, 125, 125, blue, 3, "blank: only the background")
  T.pixel(img, 175, 175, blue)
end, S300)

T.test("D23 redisplaying an on-screen standalone layer fades its contents (0.25 s)", function()
  ca.root.backgroundColor = white
  local colour = red
  local L = ca.Layer{ frame = {0, 0, 100, 100} }
  L.draw = function(layer, ctx) ctx:setFillColor(colour):fillRect(layer.bounds) end
  L:display()
  ca.root:addSublayer(L)
  T.pixel(ca.render(), 50, 50, red, 3, "built before the first render: no fade")
  colour = blue
  L:setNeedsDisplay()
  ca.step(0)                                           -- the display pass replaces contents
  ca.step(0.125)
  local r, g, b = T.px(ca.render(), 50, 50)
  T.truthy(r > 40 and r < 215 and b > 40 and b < 215,
           string.format("half-way through the fade: (%d, %d, %d) is between red and blue", r, g, b))
  ca.step(1)
  T.pixel(ca.render(), 50, 50, blue, 3, "after the fade")
  -- A view-backed layer (UIKit's delegate) changes at once.
  local V = ca.Layer{ frame = {100, 0, 100, 100}, delegate = ca.ViewDelegate }
  V.draw = function(layer, ctx) ctx:setFillColor(colour):fillRect(layer.bounds) end
  V:display()
  ca.root:addSublayer(V)
  ca.render()
  colour = green
  V:setNeedsDisplay()
  ca.step(0)
  ca.step(0.125)
  T.pixel(ca.render(), 150, 50, green, 3, "no fade under ca.ViewDelegate")
end, { size = {200, 100} })

T.test("D26 a fractional backing store size is rounded up; the CTM maps the bounds exactly", function()
  local L = ca.Layer{ bounds = {0, 0, 10.5, 20.25} }
  local box
  L.draw = function(layer, ctx) box = ctx:clipBoundingBox(); ctx:setFillColor(red):fillRect(layer.bounds) end
  L:display()
  T.eq({L.contents.width, L.contents.height}, {11, 21})
  T.near(box, {0, 0, 11, 21}, 1e-9, "the clip is the whole store")
  T.eq({L.contents:pixel(0, 0)}, {255, 0, 0, 255})
  T.eq({L.contents:pixel(9, 19)}, {255, 0, 0, 255})
  local r, g, b, a = L.contents:pixel(10, 5)
  T.truthy(a > 100 and a < 155, "half a pixel covered in the last column (alpha " .. a .. ")")
  L.contentsScale = 2
  L:display()
  T.eq({L.contents.width, L.contents.height}, {21, 41}, "ceil(10.5·2) × ceil(20.25·2)")
  L.bounds = {0, 0, 0.3, 0.3}
  L.contentsScale = 1
  L:display()
  T.eq({L.contents.width, L.contents.height}, {1, 1}, "0.3 pt rounds up to 1 pixel")
end)

---------------------------------------------------------------------------
-- geometryFlipped, needsDisplayOnBoundsChange, opaque

T.test("F45/D16 contents stay upright under geometryFlipped; drawn content follows the geometry", function()
  ca.root.backgroundColor = white
  local P = ca.Layer{ frame = {0, 0, 200, 200}, geometryFlipped = true }
  local C = ca.Layer{ frame = {0, 0, 50, 50} }
  C.contents = F.TB()
  P:addSublayer(C); ca.root:addSublayer(P)
  -- A drawn layer and a sublayer at the same local place land at the same spot.
  local D = ca.Layer{ frame = {100, 0, 50, 50} }
  D.draw = function(layer, ctx) ctx:setFillColor(green):fillRect{0, 0, 50, 10} end
  D:display()
  local G = ca.Layer{ frame = {20, 0, 10, 10}, backgroundColor = red }
  D:addSublayer(G)
  P:addSublayer(D)
  local img = ca.render()
  T.pixel(img, 25, 160, red, 3, "red still renders above blue (C is at root y 150…200)")
  T.pixel(img, 25, 190, blue)
  T.pixel(img, 25, 100, white)
  T.pixel(img, 105, 195, green, 3, "drawn y 0…10 is where a sublayer at y 0 is")
  T.pixel(img, 125, 195, red, 3, "the sublayer G")
  T.pixel(img, 105, 155, white, 3, "nothing drawn at local y 40…50")
end, { size = {200, 200} })

-- Draws a 10×10 red square at the top-left, blue elsewhere; counts the draws.
local function squareLayer(frame)
  local L = ca.Layer{ frame = frame }
  local n = { draws = 0 }
  L.draw = function(layer, ctx)
    n.draws = n.draws + 1
    ctx:setFillColor(blue):fillRect(layer.bounds)
    ctx:setFillColor(red):fillRect{0, 0, 10, 10}
  end
  return L, n
end

T.test("§1.5 needsDisplayOnBoundsChange off: a resized layer keeps its old contents, stretched", function()
  ca.root.backgroundColor = white
  local L, n = squareLayer{0, 0, 50, 50}
  L.delegate = ca.ViewDelegate
  L:display()
  ca.root:addSublayer(L)
  ca.render()
  L.bounds = {0, 0, 100, 50}
  L.position = {50, 25}
  local img = ca.render()
  T.eq(n.draws, 1, "no redraw")
  T.eq(L:needsDisplay(), false)
  T.eq({L.contents.width, L.contents.height}, {50, 50})
  T.pixel(img, 15, 5, red, 3, "the 10 pt square is stretched to 20 pt wide")
  T.pixel(img, 25, 5, blue)
  T.pixel(img, 90, 40, blue)
end, { size = {120, 60} })

T.test("§1.5 needsDisplayOnBoundsChange on: a resized layer is redrawn at its new size", function()
  ca.root.backgroundColor = white
  local L, n = squareLayer{0, 0, 50, 50}
  L.delegate = ca.ViewDelegate
  L.needsDisplayOnBoundsChange = true
  L:display()
  ca.root:addSublayer(L)
  ca.render()
  L.bounds = {0, 0, 100, 50}
  L.position = {50, 25}
  T.eq(L:needsDisplay(), true, "a bounds change marks the layer")
  local img = ca.render()
  T.eq(n.draws, 2, "redrawn once")
  T.eq({L.contents.width, L.contents.height}, {100, 50})
  T.pixel(img, 5, 5, red)
  T.pixel(img, 15, 5, blue, 3, "drawn at the new size: the square stays 10 pt")
  T.pixel(img, 90, 40, blue)
  L.position = {60, 25}
  ca.render()
  T.eq(n.draws, 2, "moving the layer is not a bounds change")
end, { size = {120, 60} })

T.test("§1.12 an opaque layer's backing store is opaque: translucent drawing composites onto black", function()
  ca.root.backgroundColor = white
  local L = ca.Layer{ frame = {0, 0, 100, 100}, opaque = true }
  L.draw = function(layer, ctx)
    ctx:setFillColor{1, 0, 0, 0.5}:fillRect{0, 0, 50, 100}
  end
  L:display()
  ca.root:addSublayer(L)
  local store = L.contents
  for _, p in ipairs{ {0, 0}, {25, 50}, {49, 99}, {50, 0}, {75, 50}, {99, 99} } do
    local _, _, _, a = store:pixel(p[1], p[2])
    T.eq(a, 255, "alpha at store px " .. T.show(p))
  end
  T.truthy(close(store, 25, 50, 128, 0, 0, 255, 2), "half red over black: " .. T.show({store:pixel(25, 50)}))
  T.truthy(close(store, 75, 50, 0, 0, 0, 255, 0), "undrawn: black, " .. T.show({store:pixel(75, 50)}))
  local img = ca.render()
  T.pixel(img, 75, 50, black, 3, "the white root does not show through")
  T.pixel(img, 25, 50, "#800000")
  -- Not opaque: the same drawing leaves the rest transparent.
  L.opaque = false
  L:display()
  T.truthy(close(L.contents, 75, 50, 0, 0, 0, 0, 0), "transparent: " .. T.show({L.contents:pixel(75, 50)}))
  local r, g, b, a = L.contents:pixel(25, 50)
  T.truthy(math.abs(a - 128) <= 2 and r >= 253, "straight half-transparent red: " .. T.show({r, g, b, a}))
end, { size = {100, 100} })

---------------------------------------------------------------------------
-- Scaling filters (ch.4 §1.9, F79–F81)

local function filtered(image, size, props)
  ca.root.backgroundColor = white
  local L = ca.Layer{ frame = {0, 0, size, size} }
  for k, v in pairs(props) do L[k] = v end
  L.contents = image
  ca.root:addSublayer(L)
  return ca.render(), L
end

T.test("F79 linear magnification blurs: IMG_2x2 into 100×100", function()
  local img = filtered(F.TWO(), 100, { magnificationFilter = "linear" })
  local r, g, b, a = img:pixel(50, 50)
  -- the average of red, green, blue and white
  T.near({r, g, b, a}, {127.5, 127.5, 127.5, 255}, 8, "the centre mixes all four")
  T.pixel(img, 10, 10, red, 3, "pure red in the edge-clamp region")
  T.pixel(img, 90, 10, green); T.pixel(img, 10, 90, blue); T.pixel(img, 90, 90, white)
  local r2 = img:pixel(40, 10)
  T.truthy(r2 > 10 and r2 < 245, "a gradient between red and green at x 40: r " .. r2)
end, { size = {100, 100} })

T.test("F81 nearest magnification is blocky: four exact 50×50 quadrants", function()
  local img = filtered(F.TWO(), 100, { magnificationFilter = "nearest" })
  local bad = 0
  for y = 0, 99 do
    for x = 0, 99 do
      local c = y < 50 and (x < 50 and {255, 0, 0} or {0, 255, 0}) or (x < 50 and {0, 0, 255} or {255, 255, 255})
      if not close(img, x, y, c[1], c[2], c[3], 255, 0) then bad = bad + 1 end
    end
  end
  T.eq(bad, 0, "pixels not exactly their quadrant's colour")
end, { size = {100, 100} })

T.test("F81 nearest minification keeps pixel differences: the 256 checker at 32×32 is all 0 or 255", function()
  local img = filtered(F.CHK1(256), 32, { minificationFilter = "nearest" })
  local bad = 0
  for y = 0, 31 do
    for x = 0, 31 do
      local r, g, b = img:pixel(x, y)
      if not ((r == 0 or r == 255) and g == r and b == r) then bad = bad + 1 end
    end
  end
  T.eq(bad, 0, "grey pixels")
end, { size = {32, 32} })

T.test("F80/D21 trilinear minification averages: the 256 checker at 32×32 is 128 ± 20 everywhere", function()
  local img, L = filtered(F.CHK1(256), 32, { minificationFilter = "trilinear" })
  local worst = 0
  for y = 0, 31 do
    for x = 0, 31 do
      local r, g, b = img:pixel(x, y)
      worst = math.max(worst, math.abs(r - 128), math.abs(g - 128), math.abs(b - 128))
    end
  end
  T.truthy(worst <= 20, "largest distance from 128: " .. worst)
  T.eq(L.minificationFilterBias, 0)
end, { size = {32, 32} })

---------------------------------------------------------------------------
-- renderInContext / snapshot

local function snapshotScene()
  ca.root.backgroundColor = white
  local P = ca.Layer{ frame = {40, 30, 100, 80}, backgroundColor = "#336699" }
  local a = ca.Layer{ frame = {10, 10, 40, 40}, backgroundColor = red, opacity = 0.5 }
  local b = ca.Layer{ frame = {50, 20, 40, 50}, contentsGravity = "resizeAspect" }
  b.contents = F.Q()
  local c = ca.Layer{ frame = {5, 55, 30, 20} }
  c.draw = function(layer, ctx) ctx:setFillColor(yellow):fillEllipseInRect(layer.bounds) end
  c:display()
  P:addSublayer(a); P:addSublayer(b); P:addSublayer(c)
  ca.root:addSublayer(P)
  ca.root:addSublayer(ca.Layer{ frame = {0, 0, 20, 200}, backgroundColor = green })
  return P
end

for _, s in ipairs{ 1, 2 } do
  T.test("§1.12 snapshot of a subtree equals the matching crop of a full render (scale " .. s .. ")", function()
    local P = snapshotScene()
    local full = ca.render()
    local snap = P:snapshot()
    T.eq({snap.width, snap.height}, {100 * s, 80 * s}, "bounds × scale")
    local bad, maxDiff = snap:compare(crop(full, 40 * s, 30 * s, 100 * s, 80 * s), 2)
    T.eq(bad, 0, "pixels differing by more than 2 (largest " .. maxDiff .. ")")
    local half = P:snapshot(0.5)
    T.eq({half.width, half.height}, {50, 40}, "an explicit scale")
  end, { size = {200, 200}, scale = s })
end

T.test("§1.12 renderInContext draws a layer tree into another layer's backing store", function()
  local P = snapshotScene()
  local D = ca.Layer{ frame = {0, 120, 100, 80} }
  D.draw = function(layer, ctx) P:renderInContext(ctx) end
  D:display()
  local bad, maxDiff = D.contents:compare(P:snapshot(1), 2)
  T.eq(bad, 0, "pixels differing by more than 2 (largest " .. maxDiff .. ")")
  ca.root:addSublayer(D)
  local full = ca.render()
  T.eq(crop(full, 0, 120, 100, 80):compare(crop(full, 40, 30, 100, 80), 2), 0, "the copy on screen matches the original")
  T.raises(function() P:renderInContext(nil) end, "DrawingContext")
end, { size = {200, 200} })

T.test("misuse: a draw callback cannot display its own layer; the root cannot be a mask", function()
  local L = ca.Layer{ frame = {0, 0, 10, 10} }
  ca.root:addSublayer(L)
  L.draw = function(layer, ctx) layer:display() end
  T.raises(function() L:display() end, "already displaying")
  L.draw = function(layer, ctx) ctx:setFillColor("red"); ctx:fillRect{0, 0, 10, 10} end
  L:display()
  T.eq(L.contents.width, 10, "the layer displays again afterwards")
  local other = ca.Layer{}
  T.raises(function() other.mask = ca.root end, "root layer cannot be a mask")
  T.raises(function() other.mask = "not a layer" end, "Layer.mask expects a Layer")
end, { size = {20, 20} })
