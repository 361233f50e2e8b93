-- Chapter 4 (visual effects): rounded corners (4.1), borders (4.2), shadows (4.3),
-- shadowPath (4.4), masks (4.5), the LCD clock and the scaling filters (4.6),
-- group opacity and rasterization (4.7), maskedCorners and the radius clamp.
-- The contents filters' own facts F78–F81 are in ch02_contents.lua.
-- Spec: shared/spec/book-ch01-04.md §1.8–§1.11, §2 listings 4.1–4.7,
-- §3 F56–F88, §5 D4/D6/D7/D8/D14/D15/D18/D19/D20, §6 fixtures.
-- Scenes are built before the first render; later changes are made with
-- actions disabled, or on view-backed layers (ca.ViewDelegate), so nothing
-- fades (D23). Samples stay ≥ 3 pt from antialiased or blurred edges (D19)
-- unless the edge is what is tested; blurred values are never asserted
-- exactly (D8).
local ca = require "caluna"
local T = require "caluna.test"
local F = dofile(T.dir .. "/fixtures/images.lua")

local lightGray, white, black = "#aaaaaa", "#ffffff", "#000000"
local red, green, blue, yellow = "#ff0000", "#00ff00", "#0000ff", "#ffff00"
local magenta = "#ff00ff"

-- The pixel at a point given in L's own coordinates.
local function loc(img, L, x, y, colour, msg, tol)
  local p = L:convertPointToLayer({x, y}, ca.root)
  T.pixel(img, p.x, p.y, colour, tol or 3, msg or string.format("local (%g, %g)", x, y))
end
local function lpx(img, L, x, y)
  local p = L:convertPointToLayer({x, y}, ca.root)
  return T.px(img, p.x, p.y)
end
-- "Darker" (spec 4.3): at least 10 levels below lightGray (170) in every channel.
local function darker(img, L, x, y, msg)
  local r, g, b = lpx(img, L, x, y)
  T.truthy(r <= 160 and g <= 160 and b <= 160,
    string.format("%slocal (%g, %g) should be darker than lightGray, got (%d, %d, %d)",
      msg and msg .. ": " or "", x, y, r, g, b))
end
-- A flat grey within tol of v.
local function grey(img, x, y, v, tol, msg)
  local r, g, b = T.px(img, x, y)
  T.truthy(math.abs(r - v) <= tol and math.abs(g - v) <= tol and math.abs(b - v) <= tol,
    string.format("%spixel at (%g, %g): expected grey %d ±%d, got (%d, %d, %d)",
      msg and msg .. ": " or "", x, y, v, tol, r, g, b))
end
-- Starts the next variant of a scene: an empty root with the given background.
local function fresh(bg)
  ca.root.sublayers = {}
  ca.root.backgroundColor = bg
end
-- Whether two renders are byte-identical (tolerance 0).
local function identical(a, b, msg)
  local bad, maxDiff = a:compare(b, 0)
  T.eq(bad, 0, (msg or "pixels differing") .. " (largest difference " .. maxDiff .. ")")
end
local function disableActions() ca.Transaction.setDisableActions(true) end

---------------------------------------------------------------------------
-- Listings 4.1–4.3: two white views with overflowing red children.
-- The spec's root is 500×300; it is 520 wide here so that V2's overflow
-- (local (240,240) = root (510,260)) can be sampled.

local S43 = { size = {520, 300} }

-- Listing 4.1 (+ 4.2 borders, + 4.3 shadows when asked).
--   opts.border: borderWidth 5 on both; opts.shadow: the 4.3 shadow on V1;
--   opts.wrapper: V2 inside the shadow-casting S; opts.v2shadow: V2 casts its own shadow.
local function views(opts)
  opts = opts or {}
  ca.root.backgroundColor = lightGray
  local function view(frame)
    local v = ca.Layer{ frame = frame, backgroundColor = white, cornerRadius = 20 }
    local child = ca.Layer{ frame = {150, 150, 100, 100}, backgroundColor = red }
    v:addSublayer(child)
    if opts.border then v.borderWidth = 5 end
    return v, child
  end
  local function shadow(l) l.shadowOpacity = 0.5; l.shadowOffset = {0, 5}; l.shadowRadius = 5 end
  local V1, c1 = view{20, 20, 200, 200}
  local V2, c2 = view{270, 20, 200, 200}
  V2.masksToBounds = true
  if opts.shadow then shadow(V1) end
  if opts.v2shadow then shadow(V2) end
  ca.root:addSublayer(V1)
  local S
  if opts.wrapper then
    S = ca.Layer{ frame = {270, 20, 200, 200} }
    shadow(S)
    V2.frame = {0, 0, 200, 200}
    S:addSublayer(V2)
    ca.root:addSublayer(S)
  else
    ca.root:addSublayer(V2)
  end
  return V1, V2, c1, c2, S
end

T.test("F56 cornerRadius defaults to 0: a layer's corner pixel is its background", function()
  ca.root.backgroundColor = white
  local L = ca.Layer{ frame = {10, 10, 50, 50}, backgroundColor = red }
  ca.root:addSublayer(L)
  T.eq(L.cornerRadius, 0)
  T.eq(L.maskedCorners, 15, "D6 maskedCorners defaults to all four corners")
  local img = ca.render()
  T.pixel(img, 10, 10, red); T.pixel(img, 59, 10, red); T.pixel(img, 10, 59, red); T.pixel(img, 59, 59, red)
  T.pixel(img, 9, 9, white)
end, { size = {70, 70} })

T.test("4.1/F57 cornerRadius rounds the background but not sublayers; masksToBounds clips along the arc (fig 4.2)", function()
  local V1, V2 = views()
  T.falsy(V1.masksToBounds); T.truthy(V2.masksToBounds)
  T.eq(V1.cornerRadius, 20)
  local img = ca.render()
  loc(img, V1, 2, 2, lightGray, "V1 rounded background")
  loc(img, V1, 2, 198, lightGray, "V1 rounded background, bottom-left")
  loc(img, V1, 100, 100, white)
  loc(img, V1, 197, 197, red, "cornerRadius does not clip sublayers")
  loc(img, V1, 240, 240, red, "the overflow is visible")
  loc(img, V2, 2, 2, lightGray)
  loc(img, V2, 197, 197, lightGray, "clipped along the arc (distance 24 > 20)")
  loc(img, V2, 195, 160, red)
  loc(img, V2, 170, 170, red)
  loc(img, V2, 240, 240, lightGray, "the overflow is clipped")
end, S43)

T.test("4.1/F57 contents are not rounded without masksToBounds (V3)", function()
  ca.root.backgroundColor = lightGray
  local V3 = ca.Layer{ frame = {20, 20, 200, 200}, cornerRadius = 20 }
  V3.contents = F.SOLID_GREEN()
  local V3m = ca.Layer{ frame = {270, 20, 200, 200}, cornerRadius = 20, masksToBounds = true }
  V3m.contents = F.SOLID_GREEN()
  ca.root:addSublayer(V3); ca.root:addSublayer(V3m)
  local img = ca.render()
  loc(img, V3, 2, 2, green, "the image keeps its square corner")
  loc(img, V3, 100, 100, green)
  loc(img, V3m, 2, 2, lightGray, "masksToBounds rounds the image")
  loc(img, V3m, 197, 197, lightGray)
  loc(img, V3m, 100, 100, green)
end, S43)

---------------------------------------------------------------------------
-- Listing 4.2: borders

T.test("F59 borderWidth defaults to 0 and borderColor to black", function()
  local L = ca.Layer()
  T.eq(L.borderWidth, 0)
  T.eq({ca.color(L.borderColor)}, {0, 0, 0, 255})
end)

T.test("4.2/F58/F60/F61 the border is inside the bounds, above the sublayer, around the corners (fig 4.3)", function()
  local V1, V2 = views{ border = true }
  local img = ca.render()
  loc(img, V1, 2, 100, black, "F60 the border is inside the bounds")
  loc(img, V1, 7, 100, white)
  loc(img, V1, -2, 100, lightGray, "nothing outside the bounds")
  loc(img, V1, 197, 170, black, "F60 the border is above the sublayer")
  loc(img, V1, 240, 240, red)
  loc(img, V1, 248, 200, red, "F61 no border around the overflow")
  -- F58 the corner ring: inner radius 15, outer 20, centre (20,20).
  loc(img, V1, 7, 7, black, "ring (distance 17.7)")
  loc(img, V1, 12, 12, white, "inside the ring (distance 10.6)")
  loc(img, V1, 2, 2, lightGray, "outside the ring (distance 24.7)")
  loc(img, V2, 197, 170, black, "the border survives masksToBounds")
  loc(img, V2, 170, 170, red)
  loc(img, V2, 7, 7, black, "V2 ring")
  loc(img, V2, 2, 2, lightGray)
  T.golden(img, "ch04/listing4_2_borders")
end, S43)

T.test("4.2/F61 the border ignores the contents' alpha: IMG_CIRCLE with a square border (fig 4.4)", function()
  ca.root.backgroundColor = white
  local L = ca.Layer{ frame = {20, 20, 100, 100}, borderWidth = 5 }
  L.contents = F.CIRCLE()
  ca.root:addSublayer(L)
  local img = ca.render()
  loc(img, L, 2, 2, black, "the border runs along the transparent corner")
  loc(img, L, 2, 100 - 2.5, black)
  loc(img, L, 2, 50, black)
  loc(img, L, 50, 50, magenta, "the disc")
  loc(img, L, 9, 9, white, "the transparent corner inside the border")
end, { size = {140, 140} })

T.test("F59 borderWidth is in points: 5 pt covers 10 device pixels at scale 2", function()
  ca.root.backgroundColor = white
  local L = ca.Layer{ frame = {10, 10, 100, 100}, backgroundColor = white, borderWidth = 5 }
  ca.root:addSublayer(L)
  local img = ca.render()
  T.eq({img.width, img.height}, {240, 240})
  for dx = 0, 9 do
    T.eq({img:pixel(20 + dx, 120)}, {0, 0, 0, 255}, "device column " .. dx .. " of the layer")
  end
  T.eq({img:pixel(30, 120)}, {255, 255, 255, 255}, "device column 10 is not border")
  T.eq({img:pixel(120, 20 + 9)}, {0, 0, 0, 255}, "top border, device row 9")
  T.eq({img:pixel(120, 30)}, {255, 255, 255, 255}, "top border ends at device row 10")
end, { size = {120, 120}, scale = 2 })

T.test("D14 drawing order: background < contents < sublayers < border", function()
  ca.root.backgroundColor = white
  local L = ca.Layer{ frame = {10, 10, 100, 100}, backgroundColor = red, borderWidth = 10, borderColor = green }
  L.contents = F.SQUARE40()                    -- blue at 30…70
  L:addSublayer(ca.Layer{ frame = {50, 50, 50, 50}, backgroundColor = yellow })
  ca.root:addSublayer(L)
  local img = ca.render()
  loc(img, L, 20, 50, red, "background")
  loc(img, L, 40, 40, blue, "contents above the background")
  loc(img, L, 60, 60, yellow, "sublayer above the contents")
  loc(img, L, 95, 75, green, "border above the sublayer")
  loc(img, L, 40, 95, green, "border above the background")
end, { size = {120, 120} })

---------------------------------------------------------------------------
-- Listing 4.3: shadows

T.test("F62/F65/F67/D7 shadow defaults: opacity 0, black, offset (0,-3), radius 3, no path", function()
  local L = ca.Layer()
  T.eq(L.shadowOpacity, 0)
  T.eq({ca.color(L.shadowColor)}, {0, 0, 0, 255})
  T.eq(L.shadowOffset, {0, -3})
  T.eq(L.shadowRadius, 3)
  T.eq(L.shadowPath, nil)
  T.eq(L.mask, nil)
end)

T.test("4.3/F68/F70 a shadow below V1 follows the overflowing child; masksToBounds removes V2's (F71)", function()
  local V1, V2 = views{ border = true, shadow = true, v2shadow = true }
  local img = ca.render()
  darker(img, V1, 100, 203, "the shadow is offset +5 below")
  darker(img, V1, 200, 253, "F70 the shadow follows the overflowing red child")
  loc(img, V1, 100, -12, lightGray, "no shadow above")
  loc(img, V2, 100, 203, lightGray, "F71 the shadow is clipped with the content (fig 4.8)")
  loc(img, V2, 240, 240, lightGray)
end, S43)

T.test("4.3/F72 the wrapper casts the shadow of the clipped view (fig 4.10)", function()
  local V1, V2, c1, c2, S = views{ border = true, shadow = true, wrapper = true }
  T.same(V2.superlayer, S)
  T.eq(S.backgroundColor, nil)
  local img = ca.render()
  darker(img, V1, 100, 203)
  darker(img, S, 100, 203, "the wrapper's shadow")
  loc(img, S, 240, 240, lightGray, "the overflow is clipped and casts no shadow")
  loc(img, S, 248, 200, lightGray)
  loc(img, S, 100, -12, lightGray)
  loc(img, V2, 2, 2, lightGray, "the inner view is still rounded")
  loc(img, V2, 170, 170, red)
  T.golden(img, "ch04/listing4_3_shadows")
end, S43)

-- The default-offset scene: root 200×200 white, Q red at (50,50,100,100).
local function shadowQ(props)
  local Q = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = red, shadowOpacity = 1, shadowRadius = 0 }
  for k, v in pairs(props or {}) do Q[k] = v end
  ca.root:addSublayer(Q)
  return Q, ca.render()
end
local S200 = { size = {200, 200} }

T.test("4.3/F64/F67 the default offset puts a hard shadow 3 pt above (fig 4.5)", function()
  ca.root.backgroundColor = white
  local Q, img = shadowQ()
  T.pixel(img, 100, 48, black)
  T.pixel(img, 100, 46, white)
  T.pixel(img, 100, 152, white)
  T.pixel(img, 100, 100, red, 3, "the layer is above its shadow")
end, S200)

T.test("F64 opacity 1 and every other default: a slightly blurred shadow a little above", function()
  ca.root.backgroundColor = white
  local Q = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = red, shadowOpacity = 1 }
  ca.root:addSublayer(Q)
  local img = ca.render()
  local r, g, b = T.px(img, 100, 49)
  T.truthy(r < 250 and g < 250 and b < 250, "1 pt above the top edge is darker: " .. T.show({r, g, b}))
  r, g, b = T.px(img, 100, 154)
  T.truthy(r >= 248 and g >= 248 and b >= 248, "4 pt below the bottom edge is ≥ 97% white: " .. T.show({r, g, b}))
  r = T.px(img, 100, 44)
  local r2 = T.px(img, 100, 48)
  T.truthy(r > r2, "blurred: lighter further from the edge (" .. r .. " at 44, " .. r2 .. " at 48)")
end, S200)

T.test("4.3/F68 a positive height casts the shadow downward: offset (0,5)", function()
  ca.root.backgroundColor = white
  local Q, img = shadowQ{ shadowOffset = {0, 5} }
  T.pixel(img, 100, 153, black)
  T.pixel(img, 100, 156, white)
  T.pixel(img, 100, 48, white)
end, S200)

T.test("4.3 shadowOpacity 0.5 gives half-black: ≈ (128,128,128)", function()
  ca.root.backgroundColor = white
  local Q, img = shadowQ{ shadowOpacity = 0.5, shadowOffset = {0, 10} }
  T.pixel(img, 100, 155, {128 / 255, 128 / 255, 128 / 255})
end, S200)

T.test("4.3 shadowColor blue tints the shadow", function()
  ca.root.backgroundColor = white
  local Q, img = shadowQ{ shadowColor = blue, shadowOffset = {0, 10} }
  T.pixel(img, 100, 155, blue)
end, S200)

T.test("4.3/F69 shadowRadius 0 gives a hard edge", function()
  ca.root.backgroundColor = white
  local Q, img = shadowQ{ shadowOffset = {0, 10} }
  T.pixel(img, 100, 155, black)
  T.pixel(img, 100, 159, black)
  T.pixel(img, 100, 161, white)
end, S200)

T.test("F66 shadowOffset width is the horizontal shift: (10,0)", function()
  ca.root.backgroundColor = white
  local Q, img = shadowQ{ shadowOffset = {10, 0} }
  T.pixel(img, 155, 100, black, 3, "5 pt right of the right edge")
  T.pixel(img, 45, 100, white, 3, "5 pt left of the left edge")
  T.pixel(img, 100, 45, white)
end, S200)

T.test("F62 shadowOpacity 0 renders exactly like no shadow at all", function()
  ca.root.backgroundColor = white
  local _, withZero = shadowQ{ shadowOpacity = 0, shadowOffset = {7, 9}, shadowRadius = 4, shadowColor = blue,
                               shadowPath = ca.Path():addRect(0, 0, 120, 120) }
  fresh(white)
  ca.root:addSublayer(ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = red })
  identical(withZero, ca.render())
end, S200)

T.test("F63/D clamp: shadowOpacity 2.0 renders like 1.0 and -1 like 0", function()
  ca.root.backgroundColor = white
  local blurred = { shadowOffset = {0, 10}, shadowRadius = 5 }
  local function with(opacity)
    fresh(white)
    local props = { shadowOpacity = opacity }
    for k, v in pairs(blurred) do props[k] = v end
    local _, img = shadowQ(props)
    return img
  end
  local two, one = with(2.0), with(1.0)
  identical(two, one, "2.0 vs 1.0")
  identical(with(-1), with(0), "-1 vs 0")
  local r = T.px(one, 100, 155)
  T.truthy(r < 100, "the reference does cast a dark shadow below the layer: " .. r)
end, S200)

T.test("F69 radius 10: monotonic falloff outward; dark just outside the hard edge; lighter just inside", function()
  ca.root.backgroundColor = white
  -- The shadow is moved clear of the layer: hard rect (140,50)…(240,150).
  local Q = ca.Layer{ frame = {20, 50, 100, 100}, backgroundColor = red, shadowOpacity = 1,
                      shadowRadius = 10, shadowOffset = {120, 0} }
  ca.root:addSublayer(Q)
  local img = ca.render()
  local interior = T.px(img, 190, 100)
  T.truthy(interior <= 5, "the interior (5σ from the edges) is black: " .. interior)
  local prev = -1
  for x = 190, 290 do
    local r, g, b = T.px(img, x, 100)
    T.truthy(r == g and g == b, "a grey shadow at x " .. x)
    T.truthy(r >= prev, string.format("darkness increased moving outward at x %d (%d after %d)", x, r, prev))
    prev = r
  end
  T.eq(prev, 255, "the background far outside")
  local outside = math.min(T.px(img, 240, 100), T.px(img, 241, 100), T.px(img, 242, 100))
  T.truthy(outside < 250, "within 3 pt outside the hard edge is darker than the background: " .. outside)
  local inside = T.px(img, 237, 100)
  T.truthy(inside > interior, "3 pt inside the edge is lighter than the interior: " .. inside)
  -- The same vertically, below the bottom edge (y 150).
  prev = -1
  for y = 100, 199 do
    local r = T.px(img, 190, y)
    T.truthy(r >= prev, "darkness increased moving down at y " .. y)
    prev = r
  end
end, { size = {300, 200} })

T.test("F70 the shadow is the contents' alpha: IMG_CIRCLE casts a round shadow", function()
  ca.root.backgroundColor = white
  local L = ca.Layer{ frame = {50, 50, 100, 100}, shadowOpacity = 1, shadowRadius = 0, shadowOffset = {0, 10} }
  L.contents = F.CIRCLE()
  ca.root:addSublayer(L)
  local img = ca.render()
  loc(img, L, 3, 98, white, "no shadow in the transparent corner")
  loc(img, L, 50, 105, black, "the disc's shadow below it")
  loc(img, L, 50, 50, magenta)
  loc(img, L, 97, 3, white)
end, S200)

T.test("§1.8 an empty layer casts no shadow unless it has a shadowPath", function()
  ca.root.backgroundColor = white
  local E = ca.Layer{ frame = {20, 20, 60, 60}, shadowOpacity = 1, shadowRadius = 0, shadowOffset = {0, 0} }
  local P = ca.Layer{ frame = {120, 20, 60, 60}, shadowOpacity = 1, shadowRadius = 0, shadowOffset = {0, 0},
                      shadowPath = ca.Path():addRect(0, 0, 60, 60) }
  ca.root:addSublayer(E); ca.root:addSublayer(P)
  local img = ca.render()
  T.pixel(img, 50, 50, white, 3, "no content, no shadow")
  T.pixel(img, 150, 50, black, 3, "a shadowPath shows without content")
end, { size = {200, 100} })

T.test("D15 a mask clips the layer's shadow too", function()
  ca.root.backgroundColor = white
  local Q = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = red, shadowOpacity = 1, shadowRadius = 0,
                      shadowOffset = {0, 30} }
  ca.root:addSublayer(Q)
  T.pixel(ca.render(), 100, 170, black, 3, "without a mask the shadow shows below")
  fresh(white)
  Q = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = red, shadowOpacity = 1, shadowRadius = 0,
                shadowOffset = {0, 30} }
  Q.mask = ca.Layer{ frame = {0, 0, 100, 100}, backgroundColor = black }
  ca.root:addSublayer(Q)
  local img = ca.render()
  T.pixel(img, 100, 170, white, 3, "the mask hides the shadow")
  T.pixel(img, 100, 100, red)
end, S200)

T.test("D18 the shadow is computed in the layer's space and turns with it", function()
  ca.root.backgroundColor = white
  local Q = ca.Layer{ bounds = {0, 0, 60, 60}, position = {100, 100}, backgroundColor = red, shadowOpacity = 1,
                      shadowRadius = 0, shadowOffset = {0, 20} }
  Q.affineTransform = ca.AffineTransform.rotation(math.pi / 2)   -- clockwise on screen: local +y → screen −x
  ca.root:addSublayer(Q)
  local img = ca.render()
  T.pixel(img, 60, 100, black, 3, "the local downward offset points left on screen")
  T.pixel(img, 100, 140, white, 3, "nothing below")
  T.pixel(img, 100, 100, red)
end, S200)

---------------------------------------------------------------------------
-- Listing 4.4: shadowPath

local function twoSquares()
  ca.root.backgroundColor = white
  local P1 = ca.Layer{ frame = {25, 25, 100, 100}, shadowOpacity = 0.5 }
  local P2 = ca.Layer{ frame = {175, 25, 100, 100}, shadowOpacity = 0.5 }
  P1.contents = F.SQUARE40()
  P2.contents = F.SQUARE40()
  ca.root:addSublayer(P1); ca.root:addSublayer(P2)
  return P1, P2
end
local S44 = { size = {300, 150} }

T.test("4.4/F73 a square and a circular shadowPath under identical content (fig 4.11)", function()
  local P1, P2 = twoSquares()
  P1.shadowPath = ca.Path():addRect(0, 0, 100, 100)
  P2.shadowPath = ca.Path():addEllipse(0, 0, 100, 100)
  local img = ca.render()
  local function g(L, x, y, msg) local p = L:convertPointToLayer({x, y}, ca.root); grey(img, p.x, p.y, 128, 12, msg) end
  g(P1, 8, 8, "inside the rect shadow")
  loc(img, P2, 8, 8, white, "outside the circle")
  g(P2, 50, 18, "inside the circle, outside the content")
  loc(img, P1, 50, 50, blue, "the content is above its shadow")
  loc(img, P2, 50, 50, blue)
  T.golden(img, "ch04/listing4_4_shadow_paths")
end, S44)

T.test("4.4 without shadowPath the shadow comes from the content's square", function()
  local P1, P2 = twoSquares()
  P1.shadowRadius = 0
  P1.shadowOffset = {0, 10}
  local img = ca.render()
  local p = P1:convertPointToLayer({50, 75}, ca.root)
  grey(img, p.x, p.y, 128, 3, "the square's shadow")
  loc(img, P1, 8, 8, white)
  loc(img, P1, 50, 50, blue)
end, S44)

T.test("4.4 shadowPath overrides an opaque background", function()
  ca.root.backgroundColor = white
  local E = ca.Layer{ frame = {25, 0, 100, 100}, backgroundColor = red, shadowOpacity = 1, shadowRadius = 0,
                      shadowOffset = {0, 20}, shadowPath = ca.Path():addEllipse(0, 0, 100, 100) }
  local N = ca.Layer{ frame = {175, 0, 100, 100}, backgroundColor = red, shadowOpacity = 1, shadowRadius = 0,
                      shadowOffset = {0, 20} }
  ca.root:addSublayer(E); ca.root:addSublayer(N)
  local img = ca.render()
  loc(img, E, 2, 115, white, "outside the elliptical path")
  loc(img, E, 50, 115, black, "inside it")
  loc(img, N, 2, 115, black, "without the path, the square background's shadow")
end, S44)

T.test("4.4 shadowPath is in layer coordinates and filled with the non-zero rule", function()
  ca.root.backgroundColor = white
  local path = ca.Path():addRect(10, 10, 40, 40):addRect(30, 30, 40, 40)   -- same winding: overlap stays filled
  local L = ca.Layer{ frame = {100, 20, 20, 20}, shadowOpacity = 1, shadowRadius = 0, shadowOffset = {0, 0},
                      shadowPath = path }
  ca.root:addSublayer(L)
  local img = ca.render()
  loc(img, L, 20, 20, black)
  loc(img, L, 40, 40, black, "the overlap is filled under non-zero (even-odd would leave a hole)")
  loc(img, L, 60, 60, black)
  loc(img, L, 60, 20, white)
  loc(img, L, 5, 5, white)
  -- A hand-built triangle (moveTo/lineTo/closePath).
  local tri = ca.Layer{ frame = {20, 20, 60, 60}, shadowOpacity = 1, shadowRadius = 0, shadowOffset = {0, 0},
                        shadowPath = ca.Path():moveTo(0, 0):lineTo(60, 0):lineTo(0, 60):closePath() }
  ca.root:addSublayer(tri)
  img = ca.render()
  loc(img, tri, 10, 10, black)
  loc(img, tri, 50, 50, white)
end, { size = {200, 140} })

---------------------------------------------------------------------------
-- Listing 4.5: masks

local function maskScene(maskProps, cone)
  ca.root.backgroundColor = white
  local IV = ca.Layer{ frame = {0, 0, 200, 200} }
  IV.contents = F.Q()
  local M = ca.Layer{ frame = IV.bounds }
  if cone ~= false then M.contents = cone or F.CONE() end
  for k, v in pairs(maskProps or {}) do M[k] = v end
  IV.mask = M
  ca.root:addSublayer(IV)
  return IV, M
end

T.test("4.5/F74 a cone mask keeps only the cone of the image (fig 4.13)", function()
  local IV, M = maskScene()
  T.same(IV.mask, M)
  T.eq(#IV.sublayers, 0, "the mask is not a sublayer")
  T.eq(M.superlayer, nil)
  local img = ca.render()
  T.pixel(img, 95, 40, red)
  T.pixel(img, 80, 120, blue)
  T.pixel(img, 120, 120, yellow)
  T.pixel(img, 10, 10, white)
  T.pixel(img, 190, 100, white)
  T.pixel(img, 100, 195, white)
  T.golden(img, "ch04/listing4_5_mask")
end, S200)

T.test("4.5/F75 the mask's colour is irrelevant: red and black cones give byte-identical renders", function()
  maskScene(nil, F.CONE(255, 0, 0))
  local a = ca.render()
  fresh(white)
  maskScene(nil, F.CONE(0, 0, 0))
  identical(a, ca.render())
  fresh(white)
  maskScene(nil, F.CONE(0, 0, 255))
  identical(a, ca.render(), "blue cone")
end, S200)

T.test("4.5/F76 a smaller mask hides everything outside it", function()
  maskScene({ frame = {0, 0, 100, 100}, backgroundColor = blue }, false)
  local img = ca.render()
  T.pixel(img, 50, 50, red)
  T.pixel(img, 150, 150, white)
  T.pixel(img, 150, 50, white)
  T.pixel(img, 50, 150, white)
end, S200)

T.test("4.5 the mask clips sublayers too (what a PNG's alpha cannot do)", function()
  local IV = maskScene()
  IV:addSublayer(ca.Layer{ frame = {150, 0, 50, 50}, backgroundColor = green })
  IV:addSublayer(ca.Layer{ frame = {90, 130, 20, 20}, backgroundColor = magenta })
  local img = ca.render()
  T.pixel(img, 175, 25, white, 3, "a sublayer outside the cone is hidden")
  T.pixel(img, 100, 140, magenta, 3, "a sublayer inside the cone shows")
end, S200)

T.test("4.5 partial mask alpha gives partial visibility", function()
  maskScene({ frame = {0, 0, 100, 100}, backgroundColor = {0, 0, 0, 0.5} }, false)
  local img = ca.render()
  T.pixel(img, 50, 50, {1, 128 / 255, 128 / 255})
  T.pixel(img, 150, 150, white)
end, S200)

T.test("4.5 masksToBounds and mask both apply", function()
  ca.root.backgroundColor = white
  local function scene(clip)
    local IV = ca.Layer{ frame = {50, 50, 200, 200}, masksToBounds = clip }
    IV.contents = F.Q()
    IV:addSublayer(ca.Layer{ frame = {150, 150, 100, 100}, backgroundColor = magenta })
    IV.mask = ca.Layer{ frame = {100, 0, 200, 250}, backgroundColor = black }
    ca.root:addSublayer(IV)
    return IV
  end
  local IV = scene(true)
  local img = ca.render()
  loc(img, IV, 150, 50, green, "inside both")
  loc(img, IV, 175, 175, magenta, "the sublayer inside both")
  loc(img, IV, 50, 50, white, "outside the mask")
  loc(img, IV, 50, 150, white)
  loc(img, IV, 225, 225, white, "inside the mask but outside the bounds")
  fresh(white)
  IV = scene(false)
  img = ca.render()
  loc(img, IV, 225, 225, magenta, "without masksToBounds the mask alone lets the overflow show")
  loc(img, IV, 225, 260, white, "but not past the mask")
  loc(img, IV, 50, 50, white)
end, { size = {300, 320} })

T.test("F77 a mask made of two sublayers shows their union", function()
  ca.root.backgroundColor = white
  local IV = ca.Layer{ frame = {0, 0, 300, 100}, backgroundColor = red }
  local M = ca.Layer{ frame = {0, 0, 300, 100} }
  M:addSublayer(ca.Layer{ frame = {0, 0, 100, 100}, backgroundColor = black })
  M:addSublayer(ca.Layer{ frame = {200, 0, 100, 100}, backgroundColor = black })
  IV.mask = M
  ca.root:addSublayer(IV)
  local img = ca.render()
  T.pixel(img, 50, 50, red)
  T.pixel(img, 250, 50, red)
  T.pixel(img, 150, 50, white, 3, "the middle third is hidden")
end, { size = {300, 100} })

---------------------------------------------------------------------------
-- Listing 4.6: the LCD clock. Six view-backed 30×48 layers show 10×16 cells
-- of IMG_DIGITS (3× magnification); a 1 s timer sets them from an injected
-- time of day: startSeconds + ca.mediaTime().

local function lcdClock(h, m, s)
  ca.root.backgroundColor = lightGray         -- so the cells' white halves show
  local sheet = F.DIGITS()
  local views = {}
  for i = 1, 6 do
    local v = ca.Layer{ frame = {10 + (i - 1) * 40, 10, 30, 48}, contentsGravity = "resizeAspect",
                        delegate = ca.ViewDelegate }
    v.contents = sheet
    ca.root:addSublayer(v)
    views[i] = v
  end
  local start = h * 3600 + m * 60 + s
  local clock = { views = views }
  local function setDigit(v, d) v.contentsRect = {d * 0.1, 0, 0.1, 1.0} end
  function clock.tick()
    local t = math.floor(start + ca.mediaTime() + 1e-9) % 86400
    local hour, minute, second = t // 3600, t // 60 % 60, t % 60
    local digits = { hour // 10, hour % 10, minute // 10, minute % 10, second // 10, second % 10 }
    for i = 1, 6 do setDigit(views[i], digits[i]) end
    clock.digits = digits
  end
  clock.tick()
  clock.timer = ca.every(1.0, clock.tick)
  return clock
end
local SLCD = { size = {250, 68} }

-- Checks the digits, their contentsRects and the colour at local (7,24).
local function showsDigits(clock, img, expected)
  T.eq(clock.digits, expected)
  for i, v in ipairs(clock.views) do
    local d = expected[i]
    T.near(v.contentsRect, {d * 0.1, 0, 0.1, 1}, 1e-9, "contentsRect of view " .. i)
    local c = F.DIGIT_COLORS[d]
    loc(img, v, 7, 24, {c[1] / 255, c[2] / 255, c[3] / 255}, "view " .. i .. " shows digit " .. d)
    loc(img, v, 23, 24, white, "the right half of view " .. i)
  end
end

-- Whether (r, g, b) lies strictly between colour c and white: not within 3 of
-- either, and every channel inside their range.
local function between(c, r, g, b)
  local p = {r, g, b}
  local nearC, nearW = true, true
  for k = 1, 3 do
    local lo, hi = math.min(c[k], 255), math.max(c[k], 255)
    if p[k] < lo - 1 or p[k] > hi + 1 then return false end
    if math.abs(p[k] - c[k]) > 3 then nearC = false end
    if math.abs(p[k] - 255) > 3 then nearW = false end
  end
  return not nearC and not nearW
end

T.test("4.6 LCD clock at 12:34:56: digits, contentsRect, linear blur (fig 4.18)", function()
  local clock = lcdClock(12, 34, 56)
  T.eq(clock.views[1].magnificationFilter, "linear", "the default filter")
  local img = ca.render()
  showsDigits(clock, img, {1, 2, 3, 4, 5, 6})
  for i, v in ipairs(clock.views) do
    local c, blurred = F.DIGIT_COLORS[clock.digits[i]], false
    for x = 1, 28 do
      if between(c, lpx(img, v, x, 24)) then blurred = true end
    end
    T.truthy(blurred, "view " .. i .. ": linear filtering leaves a pixel between C_d and white")
  end
end, SLCD)

T.test("4.6 magnificationFilter nearest makes the digits crisp (fig 4.19)", function()
  local clock = lcdClock(12, 34, 56)
  for _, v in ipairs(clock.views) do v.magnificationFilter = "nearest" end
  local img = ca.render()
  showsDigits(clock, img, {1, 2, 3, 4, 5, 6})
  for i, v in ipairs(clock.views) do
    local c, bad, example = F.DIGIT_COLORS[clock.digits[i]], 0, nil
    for y = 1, 46 do
      for x = 1, 28 do
        local r, g, b, a = lpx(img, v, x, y)
        local isC = r == c[1] and g == c[2] and b == c[3] and a == 255
        local isW = r == 255 and g == 255 and b == 255 and a == 255
        if not (isC or isW) then bad = bad + 1; example = example or {x, y, r, g, b, a} end
      end
    end
    T.eq(bad, 0, "view " .. i .. ": pixels neither C_d nor white, e.g. " .. T.show(example))
  end
  T.golden(img, "ch04/listing4_6_lcd_nearest")
end, SLCD)

T.test("4.6 four seconds later the clock shows 12:35:00", function()
  local clock = lcdClock(12, 34, 56)
  ca.step(0)
  for _ = 1, 4 do ca.step(1) end
  T.eq(ca.mediaTime(), 4)
  local img = ca.render()
  showsDigits(clock, img, {1, 2, 3, 5, 0, 0})
end, SLCD)

T.test("4.6 the hour runs 0–23: 9:05:03 shows 0 9 0 5 0 3; 23:59:59 + 1 s wraps to 00:00:00", function()
  local clock = lcdClock(9, 5, 3)
  showsDigits(clock, ca.render(), {0, 9, 0, 5, 0, 3})
  fresh(lightGray)
  clock.timer:invalidate()
  clock = lcdClock(23, 59, 59)
  showsDigits(clock, ca.render(), {2, 3, 5, 9, 5, 9})
  ca.step(1)
  showsDigits(clock, ca.render(), {0, 0, 0, 0, 0, 0})
end, SLCD)

---------------------------------------------------------------------------
-- Listing 4.7: group opacity and shouldRasterize

-- The customButton helper on a 400×300 black container: white 150×50 buttons
-- with radius 10 holding a white label at (20,10,110,30).
local function buttons(b2props)
  ca.root.backgroundColor = black
  local function button(pos)
    local b = ca.Layer{ bounds = {0, 0, 150, 50}, position = pos, backgroundColor = white, cornerRadius = 10 }
    local label = ca.Layer{ frame = {20, 10, 110, 30}, backgroundColor = white }
    b:addSublayer(label)
    ca.root:addSublayer(b)
    return b, label
  end
  local b1 = button{50, 150}
  local b2, label2 = button{250, 150}
  b2.opacity = 0.5
  for k, v in pairs(b2props) do b2[k] = v end
  return b1, b2, label2
end
local S47 = { size = {400, 300} }

T.test("4.7 group opacity off (the book's iOS 6): the label shows through, 128 vs 191 (fig 4.20, F84/F85)", function()
  local b1, b2, label = buttons{ allowsGroupOpacity = false, shouldRasterize = false }
  T.eq(b1.frame, {-25, 125, 150, 50}, "position is the centre")
  local img = ca.render()
  grey(img, 185, 150, 128, 3, "the button outside the label")
  grey(img, 250, 150, 191, 3, "inside the label: 75% coverage")
  grey(img, 30, 150, 255, 3, "button1 is opaque")
  T.eq(label.opacity, 1.0, "the label's model opacity")
  T.golden(img, "ch04/listing4_7_buttons_no_group_opacity")
end, S47)

T.test("4.7/F87 shouldRasterize flattens the button before opacity: both 128 (fig 4.21)", function()
  local b1, b2, label = buttons{ allowsGroupOpacity = false, shouldRasterize = true, rasterizationScale = 1 }
  local img = ca.render()
  grey(img, 185, 150, 128, 3, "outside the label")
  grey(img, 250, 150, 128, 3, "inside the label")
  T.eq(label.opacity, 1.0)
  T.eq(b2.opacity, 0.5)
end, S47)

T.test("4.7/D4 allowsGroupOpacity without rasterization: both 128", function()
  local b1, b2 = buttons{ allowsGroupOpacity = true, shouldRasterize = false }
  local img = ca.render()
  grey(img, 185, 150, 128, 3, "outside the label")
  grey(img, 250, 150, 128, 3, "inside the label")
end, S47)

T.test("D4 caluna's allowsGroupOpacity default is true (Apple's modern default)", function()
  local L = ca.Layer()
  T.eq(L.allowsGroupOpacity, true)
  T.eq(L.shouldRasterize, false)
  local b1, b2 = buttons{}
  grey(ca.render(), 250, 150, 128, 3, "the default fades the button as one")
end, S47)

T.test("F88 rasterizationScale defaults to 1.0", function()
  T.eq(ca.Layer().rasterizationScale, 1.0)
end)

-- A white 150×50 rasterised button holding 1-pt black bars at x = 20, 22, …, 58.
local function barButton(rscale)
  ca.root.backgroundColor = black
  local b = ca.Layer{ frame = {25, 50, 150, 50}, backgroundColor = white, shouldRasterize = true,
                      rasterizationScale = rscale }
  for k = 0, 19 do
    b:addSublayer(ca.Layer{ frame = {20 + 2 * k, 10, 1, 30}, backgroundColor = black })
  end
  ca.root:addSublayer(b)
  return b
end

T.test("4.7/F88 rasterizationScale 2 at render scale 2 keeps 1-pt bars sharp", function()
  local b = barButton(2)
  local img = ca.render()
  for k = 0, 19 do
    local x = 25 + 20 + 2 * k
    T.pixel(img, x + 0.5, 75, black, 0, "bar " .. k)
    T.pixel(img, x + 1.5, 75, white, 0, "gap after bar " .. k)
  end
end, { size = {200, 150}, scale = 2 })

T.test("4.7/F88 rasterizationScale 0.5 at render scale 2 loses the bars to resampling", function()
  local b = barButton(0.5)
  local img = ca.render()
  local lost = false
  for k = 0, 19 do
    for dx = 0, 3 do
      local r = img:pixel(2 * (25 + 20 + 2 * k) + dx, 150)
      if r > 40 and r < 215 then lost = true end
    end
  end
  T.truthy(lost, "some pixel in the bars differs from both 0 and 255 by more than 40")
end, { size = {200, 150}, scale = 2 })

T.test("4.7 a rasterised subtree is cached: an unchanged re-render hits, a changed sublayer misses", function()
  local b1, b2, label = buttons{ shouldRasterize = true }
  local first = ca.render()
  local s = ca.stats()
  T.eq(s.rasterCacheMisses, 1, "the first render rasterises")
  T.eq(s.rasterCacheHits, 0)
  ca.render()
  s = ca.stats()
  T.eq(s.rasterCacheHits + s.rasterCacheMisses + s.damageRects, 0, "an unchanged frame draws nothing at all")
  local second = ca.render{ full = true }
  s = ca.stats()
  T.eq(s.rasterCacheHits, 1, "an unchanged subtree is a hit")
  T.eq(s.rasterCacheMisses, 0)
  identical(first, second, "the cached bitmap draws the same")
  ca.Transaction.begin()
  disableActions()
  label.backgroundColor = red
  ca.Transaction.commit()
  local third = ca.render()
  s = ca.stats()
  T.eq(s.rasterCacheMisses, 1, "a changed sublayer invalidates the cache")
  T.eq(s.rasterCacheHits, 0)
  T.pixel(third, 250, 150, {128 / 255, 0, 0}, 3, "the new colour shows, faded")
  ca.render{ full = true }
  T.eq(ca.stats().rasterCacheHits, 1, "and the new bitmap is cached again")
end, S47)

T.test("F83 opacity affects the subtree: a 50% parent fades its opaque child to 128", function()
  for _, group in ipairs{ false, true } do
    fresh(black)
    local P = ca.Layer{ frame = {50, 50, 100, 100}, opacity = 0.5, allowsGroupOpacity = group }
    local C = ca.Layer{ frame = {0, 0, 100, 100}, backgroundColor = white }
    P:addSublayer(C)
    ca.root:addSublayer(P)
    local img = ca.render()
    grey(img, 100, 100, 128, 3, "allowsGroupOpacity " .. tostring(group))
    T.eq(C.opacity, 1.0, "the child's model opacity")
  end
end, S200)

T.test("F84 non-group blending of a red 50% parent and a green child: ≈ (64,128,0)", function()
  local function scene(group)
    fresh(black)
    local P = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = red, opacity = 0.5, allowsGroupOpacity = group }
    P:addSublayer(ca.Layer{ frame = {25, 25, 50, 50}, backgroundColor = green })
    ca.root:addSublayer(P)
    return ca.render()
  end
  local img = scene(false)
  T.pixel(img, 100, 100, {64 / 255, 128 / 255, 0}, 3, "50% green + 25% red + 25% black")
  T.pixel(img, 60, 60, {128 / 255, 0, 0}, 3, "the parent alone")
  img = scene(true)
  T.pixel(img, 100, 100, {0, 128 / 255, 0}, 3, "with group opacity the child hides the red")
end, S200)

---------------------------------------------------------------------------
-- maskedCorners (D6's extension) and oversized radii

T.test("D6 maskedCorners rounds only the listed corners (background, border and masksToBounds)", function()
  ca.root.backgroundColor = white
  -- 1 = minX-minY (top-left), 8 = maxX-maxY (bottom-right).
  local L = ca.Layer{ frame = {20, 20, 100, 100}, backgroundColor = red, cornerRadius = 20, maskedCorners = 1 + 8 }
  local B = ca.Layer{ frame = {140, 20, 100, 100}, backgroundColor = white, cornerRadius = 20, maskedCorners = 2 + 4,
                      borderWidth = 4 }
  local C = ca.Layer{ frame = {260, 20, 100, 100}, cornerRadius = 20, maskedCorners = 2, masksToBounds = true }
  C:addSublayer(ca.Layer{ frame = {-10, -10, 120, 120}, backgroundColor = blue })
  ca.root:addSublayer(L); ca.root:addSublayer(B); ca.root:addSublayer(C)
  T.eq(L.maskedCorners, 9)
  local img = ca.render()
  loc(img, L, 2, 2, white, "top-left rounded")
  loc(img, L, 97, 97, white, "bottom-right rounded")
  loc(img, L, 97, 2, red, "top-right square")
  loc(img, L, 2, 97, red, "bottom-left square")
  loc(img, B, 1, 1, black, "a square corner keeps the border's corner")
  loc(img, B, 98, 1, white, "top-right rounded: the border follows the arc")
  loc(img, B, 7, 7, white)
  loc(img, B, 93, 7, black, "the border's ring at the rounded corner (distance 18.4)")
  loc(img, C, 97, 2, white, "masksToBounds clips the rounded top-right")
  loc(img, C, 2, 2, blue, "and not the square corners")
  loc(img, C, 97, 97, blue)
  loc(img, C, 50, 50, blue)
end, { size = {380, 140} })

T.test("cornerRadius larger than half the side is clamped: a circle and a pill", function()
  ca.root.backgroundColor = white
  local circle = ca.Layer{ frame = {20, 20, 100, 100}, backgroundColor = red, cornerRadius = 80 }
  local pill = ca.Layer{ frame = {140, 40, 200, 60}, backgroundColor = blue, cornerRadius = 100 }
  ca.root:addSublayer(circle); ca.root:addSublayer(pill)
  T.eq(circle.cornerRadius, 80, "the model value is kept")
  local img = ca.render()
  loc(img, circle, 20, 20, red, "inside the circle (distance 42)")
  loc(img, circle, 10, 10, white, "outside the circle (distance 57)")
  loc(img, circle, 50, 2, red); loc(img, circle, 2, 50, red); loc(img, circle, 97, 50, red); loc(img, circle, 50, 97, red)
  loc(img, circle, 90, 90, white)
  loc(img, pill, 100, 2, blue, "the straight top of the pill")
  loc(img, pill, 2, 30, blue, "the round end reaches the side")
  loc(img, pill, 10, 30, blue)
  loc(img, pill, 5, 5, white, "outside the end cap (distance 35 > 30)")
  loc(img, pill, 195, 55, white)
  loc(img, pill, 40, 5, blue, "the straight part starts at 30")
end, { size = {360, 140} })

---------------------------------------------------------------------------
-- The README picture, loaded from examples/ (found from this file's path)

T.test("README example examples/effects.lua: group opacity off vs shouldRasterize on the panel", function()
  local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
  dofile(here .. "/../../examples/effects.lua")
  local img = ca.render()
  -- Panel #2b2d42 under white buttons at opacity 0.5: (149,150,160); the left
  -- button's label adds another half of white (202,202,208), the rasterised one doesn't.
  T.pixel(img, 300, 327, {149 / 255, 150 / 255, 160 / 255}, 3, "left button, outside the label")
  T.pixel(img, 310, 315, {202 / 255, 202 / 255, 208 / 255}, 3, "left label shows through")
  T.pixel(img, 450, 327, {149 / 255, 150 / 255, 160 / 255}, 3, "right button, outside the label")
  T.pixel(img, 460, 315, {149 / 255, 150 / 255, 160 / 255}, 3, "right label fades with its button")
  T.golden(img, "ch04/effects_example")
end, { size = {640, 460}, scale = 2 })

---------------------------------------------------------------------------
-- Masks as layers in time and layout (Apple: a mask is hosted by its owner)

T.test("F77 an animated mask moves the visible part; its animation runs in the owner's time", function()
  ca.root.backgroundColor = white
  local owner = ca.Layer{ frame = {0, 0, 200, 100}, backgroundColor = red }
  local m = ca.Layer{ frame = {0, 0, 50, 100}, backgroundColor = black }
  owner.mask = m
  owner.speed = 2                                 -- the owner's time runs twice as fast
  ca.root:addSublayer(owner)
  m:addAnimation(ca.BasicAnimation{ keyPath = "position.x", fromValue = 25, toValue = 175, duration = 2 }, "slide")
  ca.render()
  T.pixel(ca.render(), 25, 50, red, 3, "at t = 0 the mask covers the left")
  ca.step(0.5)                                    -- owner time 1.0: half way, the mask spans 75…125
  local img = ca.render()
  T.pixel(img, 100, 50, red, 3, "the mask moved to the middle")
  T.pixel(img, 25, 50, white, 3, "the left is cut away now")
  T.pixel(img, 175, 50, white)
  T.falsy(m.superlayer, "the mask still has no superlayer")
end, { size = {200, 100} })

T.test("a mask's sublayers are laid out (its layoutSublayers runs in the owner's pass)", function()
  local owner = ca.Layer{ frame = {0, 0, 100, 100}, backgroundColor = red }
  local m = ca.Layer{ frame = {0, 0, 100, 100} }
  local part = ca.Layer{ backgroundColor = black }
  m:addSublayer(part)
  local calls = 0
  m.layoutSublayers = function(layer) calls = calls + 1; part.frame = {0, 0, layer.bounds.width / 2, 100} end
  owner.mask = m
  ca.root:addSublayer(owner)
  m:setNeedsLayout()
  local img = ca.render()
  T.eq(calls, 1)
  T.pixel(img, 25, 50, red, 3, "the laid-out half shows")
  T.pixel(img, 75, 50, {0, 0, 0, 0}, 3, "the other half is cut away (transparent root)")
end, { size = {100, 100} })
