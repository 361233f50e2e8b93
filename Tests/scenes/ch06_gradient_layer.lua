-- Chapter 6, listings 6.6 and 6.7: CAGradientLayer — two-colour diagonal gradient, three
-- colours with locations; defaults, the locations/colors mismatch rule, radial and conic
-- types, rounded corners, animation of colors and locations, hostile input.
-- Spec: shared/spec/book-ch05-06.md §2.7, §3 listings 6.6/6.7 (T6.6, T6.7), §4 F51–F53,
-- §6 item 6. Expected colours are the [R] numbers; radial/conic ones are derived below
-- from Apple's definitions at the pixel centre (x + 0.5, y + 0.5).
local ca = require "caluna"
local T = require "caluna.test"

local red, blue, yellow, green, white = "#ff0000", "#0000ff", "#ffff00", "#00ff00", "#ffffff"
local S200 = { size = {200, 200} }
local TOL = 2

local function gradient(props)
  ca.root.backgroundColor = "#000000"
  props.frame = props.frame or {0, 0, 200, 200}
  local g = ca.GradientLayer(props)
  ca.root:addSublayer(g)
  return g
end

local function rgb(r, g, b) return {r / 255, g / 255, b / 255} end

-- Linear mix of two 0–255 triples at f.
local function mix(a, b, f)
  return rgb(a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f, a[3] + (b[3] - a[3]) * f)
end
local R, B = {255, 0, 0}, {0, 0, 255}

---------------------------------------------------------------------------
-- Listing 6.6

T.test("T6.6 two-colour diagonal gradient: every [R] sample (F51, F52)", function()
  local g = gradient{ colors = {red, blue}, startPoint = {0, 0}, endPoint = {1, 1} }
  T.eq(g.className, "CAGradientLayer")
  local img = ca.render()
  T.pixel(img, 0, 0, rgb(254, 0, 1), TOL)
  T.pixel(img, 199, 199, rgb(1, 0, 254), TOL)
  for _, p in ipairs{ {100, 100}, {199, 0}, {0, 199} } do
    T.pixel(img, p[1], p[2], rgb(128, 0, 128), TOL, "the anti-diagonal is one iso-line")
  end
  T.pixel(img, 50, 50, rgb(191, 0, 64), TOL)
  T.pixel(img, 150, 150, rgb(64, 0, 191), TOL)
  -- every pixel: t = projection of the pixel centre on the start→end axis
  for y = 0, 199, 7 do
    for x = 0, 199, 7 do
      T.pixel(img, x, y, mix(R, B, (x + y + 1) / 400), TOL, "pixel " .. x .. "," .. y)
    end
  end
  T.golden(img, "ch06/gradient_listing6_6")
end, S200)

T.test("T6.6 defaults: vertical (0.5,0)→(0.5,1), axial, no locations; constant along rows", function()
  local g = gradient{ colors = {red, blue} }
  T.eq(g.startPoint, {0.5, 0}); T.eq(g.endPoint, {0.5, 1})
  T.eq(g.type, "axial"); T.eq(g.locations, nil)
  local img = ca.render()
  for _, y in ipairs{0, 50, 120, 199} do
    local expect = mix(R, B, (y + 0.5) / 200)
    for _, x in ipairs{0, 77, 199} do T.pixel(img, x, y, expect, TOL, "row " .. y) end
  end
  T.pixel(img, 100, 0, rgb(254, 0, 1), TOL, "row 0 ≈ first colour")
  T.pixel(img, 100, 199, rgb(1, 0, 254), TOL, "last row ≈ last colour")
end, S200)

T.test("defaults of a fresh gradient layer: colors nil draws only the background", function()
  local g = gradient{ backgroundColor = white }
  T.eq(g.colors, nil)
  local props = ca.properties("GradientLayer")
  local img = ca.render()
  T.pixel(img, 100, 100, white, 0)
  g.colors = {}
  T.pixel(ca.render(), 100, 100, white, 0, "empty colours: nothing drawn")
  T.truthy(props ~= nil)
end, S200)

---------------------------------------------------------------------------
-- Listing 6.7

T.test("T6.7 three colours with locations squeezed top-left (F53)", function()
  local g = gradient{ colors = {red, yellow, green}, locations = {0.0, 0.25, 0.5},
                      startPoint = {0, 0}, endPoint = {1, 1} }
  T.eq(g.locations, {0, 0.25, 0.5})
  local img = ca.render()
  T.pixel(img, 0, 0, rgb(255, 3, 0), TOL)
  -- The spec's [R] values at (25,25), (50,50), (75,75) take t = (x + y) / 400 (the pixel's
  -- corner, not its centre as at (0,0)); at the centre they differ by up to 3.1, hence ±4
  -- here and the exact centre values (±2) in the scan below.
  T.pixel(img, 25, 25, rgb(255, 128, 0), 4)
  T.pixel(img, 50, 50, rgb(255, 255, 0), 4)
  T.pixel(img, 75, 75, rgb(128, 255, 0), 4)
  T.pixel(img, 50, 50, rgb(252.45, 255, 0), TOL, "centre value: t = 0.2525")
  for _, p in ipairs{ {100, 100}, {199, 0}, {150, 150}, {199, 199} } do
    T.pixel(img, p[1], p[2], rgb(0, 255, 0), TOL, "past the last location: solid green")
  end
  -- every pixel: piecewise between the stops
  local Y, G = {255, 255, 0}, {0, 255, 0}
  for y = 0, 199, 9 do
    for x = 0, 199, 9 do
      local t = (x + y + 1) / 400
      local e = t < 0.25 and mix(R, Y, t / 0.25) or (t < 0.5 and mix(Y, G, (t - 0.25) / 0.25) or rgb(0, 255, 0))
      T.pixel(img, x, y, e, TOL, "pixel " .. x .. "," .. y)
    end
  end
  T.golden(img, "ch06/gradient_listing6_7")
end, S200)

T.test("T6.7 mismatch: 2 locations for 3 colours → a blank gradient (background only)", function()
  local g = gradient{ colors = {red, yellow, green}, locations = {0, 0.5}, backgroundColor = white }
  local img = ca.render()
  for _, p in ipairs{ {0, 0}, {100, 100}, {199, 199} } do T.pixel(img, p[1], p[2], white, 0) end
  ca.Transaction.setDisableActions(true)
  g.locations = {0, 0.5, 1}
  T.pixel(ca.render(), 100, 99, mix({255, 255, 0}, {0, 255, 0}, 0), 3, "matching counts draw again (vertical, yellow at 0.5)")
end, S200)

T.test("locations beyond 0…1 lie past the ends; unsorted locations are sorted (Apple asks for increasing)", function()
  -- stops at -1 (red) and 2 (blue) along a vertical axis: t ∈ [0,1] maps to (t+1)/3
  gradient{ colors = {red, blue}, locations = {-1, 2} }
  local img = ca.render()
  T.pixel(img, 10, 0, mix(R, B, (0.5 / 200 + 1) / 3), TOL)
  T.pixel(img, 10, 199, mix(R, B, (199.5 / 200 + 1) / 3), TOL)
  ca.root.sublayers[1]:removeFromSuperlayer()
  gradient{ colors = {blue, red}, locations = {1, 0} }
  local img2 = ca.render()
  T.pixel(img2, 10, 0, rgb(254, 0, 1), TOL, "sorted: red (location 0) at the top")
end, S200)

T.test("one colour fills the shape; rounded corners and maskedCorners are followed", function()
  gradient{ colors = {red, blue}, startPoint = {0, 0}, endPoint = {1, 0}, cornerRadius = 40, maskedCorners = 1 + 8,
            backgroundColor = white }
  local img = ca.render()
  T.pixel(img, 1, 1, "#000000", 0, "rounded top-left corner: nothing drawn (no background either)")
  T.pixel(img, 198, 198, "#000000", 0, "rounded bottom-right corner")
  T.pixel(img, 198, 1, rgb(1, 0, 254), TOL, "square top-right corner: gradient")
  T.pixel(img, 1, 198, rgb(254, 0, 1), TOL, "square bottom-left corner: gradient")
  ca.root.sublayers[1]:removeFromSuperlayer()
  gradient{ colors = {green} }
  T.pixel(ca.render(), 150, 30, green, 0, "one colour: solid")
end, S200)

---------------------------------------------------------------------------
-- Radial and conic (Apple's types; not in the book)

-- Apple: radial = ellipse centred on startPoint with radii |end − start| per axis (points).
local function radialT(x, y, s, e)
  local cx, cy = s[1] * 200, s[2] * 200
  local rx, ry = math.abs(e[1] - s[1]) * 200, math.abs(e[2] - s[2]) * 200
  local dx, dy = (x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry
  return math.min(1, math.sqrt(dx * dx + dy * dy))
end

T.test("radial: a circle and an ellipse centred on startPoint, end colour beyond", function()
  local g = gradient{ colors = {red, blue}, type = "radial", startPoint = {0.5, 0.5}, endPoint = {1, 1} }
  local img = ca.render()
  for _, p in ipairs{ {100, 100}, {150, 100}, {100, 30}, {130, 160}, {0, 0}, {199, 100} } do
    T.pixel(img, p[1], p[2], mix(R, B, radialT(p[1], p[2], {0.5, 0.5}, {1, 1})), TOL, "circle " .. p[1] .. "," .. p[2])
  end
  T.pixel(img, 150, 100, rgb(126, 0, 129), TOL, "half-way out: t = 0.505")
  T.pixel(img, 0, 0, rgb(0, 0, 255), 0, "outside the circle: the last colour")
  ca.Transaction.setDisableActions(true)
  g.endPoint = {1, 0.75}    -- rx 100, ry 50
  local img2 = ca.render()
  for _, p in ipairs{ {100, 125}, {150, 100}, {100, 149}, {120, 110}, {100, 160} } do
    T.pixel(img2, p[1], p[2], mix(R, B, radialT(p[1], p[2], {0.5, 0.5}, {1, 0.75})), TOL, "ellipse " .. p[1] .. "," .. p[2])
  end
  T.pixel(img2, 100, 125, mix(R, B, radialT(100, 125, {0.5, 0.5}, {1, 0.75})), TOL, "25 pt down is half-way (ry = 50)")
  g.endPoint = {1, 0.5}     -- ry = 0: the limit, every point but the centre is at t = ∞
  T.pixel(ca.render(), 100, 20, rgb(0, 0, 255), 0, "zero radius: the last colour")
end, S200)

-- Apple: conic = angle about startPoint, 0 along start→end, clockwise on a y-down screen.
local function conicT(x, y, s, e)
  local a0 = math.atan(e[2] - s[2], e[1] - s[1])
  local a = math.atan(y + 0.5 - s[2] * 200, x + 0.5 - s[1] * 200) - a0
  a = a % (2 * math.pi)
  return a / (2 * math.pi)
end

T.test("conic: the angle about startPoint from the start→end direction, clockwise", function()
  local g = gradient{ colors = {red, blue}, type = "conic", startPoint = {0.5, 0.5}, endPoint = {1, 0.5} }
  local img = ca.render()
  for _, p in ipairs{ {150, 100}, {100, 150}, {50, 100}, {100, 50}, {180, 180}, {20, 20}, {150, 99}, {199, 120} } do
    T.pixel(img, p[1], p[2], mix(R, B, conicT(p[1], p[2], {0.5, 0.5}, {1, 0.5})), TOL, "conic " .. p[1] .. "," .. p[2])
  end
  T.pixel(img, 100, 150, rgb(192, 0, 63), TOL, "a quarter turn clockwise (straight down)")
  T.pixel(img, 100, 50, rgb(63, 0, 192), TOL, "three quarters (straight up)")
  ca.Transaction.setDisableActions(true)
  g.endPoint = {0.5, 0}   -- start at 12 o'clock
  g.colors = {red, green, blue}
  local img2 = ca.render()
  local G3 = {0, 255, 0}
  local function three(t) return t < 0.5 and mix(R, G3, t / 0.5) or mix(G3, B, (t - 0.5) / 0.5) end
  for _, p in ipairs{ {100, 20}, {180, 100}, {100, 180}, {20, 100}, {60, 30} } do
    T.pixel(img2, p[1], p[2], three(conicT(p[1], p[2], {0.5, 0.5}, {0.5, 0})), TOL, "from the top " .. p[1] .. "," .. p[2])
  end
end, S200)

---------------------------------------------------------------------------
-- Animation (colors, locations, startPoint are animatable)

T.test("colors animates per stop: half-way the stops are the mid colours", function()
  local g = gradient{ colors = {red, blue} }
  ca.step(0)
  g:addAnimation(ca.BasicAnimation{ keyPath = "colors", fromValue = {red, blue}, toValue = {blue, red}, duration = 1 })
  ca.flush()
  ca.advance(0.5)
  local p = g:presentation().colors
  T.near(p[1], {0.5, 0, 0.5, 1}, 1e-9); T.near(p[2], {0.5, 0, 0.5, 1}, 1e-9)
  local img = ca.render()
  T.pixel(img, 100, 0, rgb(128, 0, 128), TOL); T.pixel(img, 100, 199, rgb(128, 0, 128), TOL)
  T.eq(#g.colors, 2, "the model keeps its colours")
end, S200)

T.test("locations animates: half-way between {0, 1} and {0.5, 1}", function()
  local g = gradient{ colors = {red, blue}, locations = {0, 1} }
  ca.step(0)
  g:addAnimation(ca.BasicAnimation{ keyPath = "locations", toValue = {0.5, 1}, duration = 1 })
  ca.flush()
  ca.advance(0.5)
  T.near(g:presentation().locations, {0.25, 1}, 1e-9)
  local img = ca.render()
  T.pixel(img, 100, 20, rgb(255, 0, 0), TOL, "above 0.25: still red")
  -- row 120: t = 0.6025 → (t − 0.25) / 0.75
  T.pixel(img, 100, 120, mix(R, B, (120.5 / 200 - 0.25) / 0.75), TOL)
end, S200)

T.test("implicit animation of startPoint (an animatable property) runs by default", function()
  local g = gradient{ colors = {red, blue} }
  ca.step(0)
  g.startPoint = {0.5, 0.5}
  ca.flush()
  T.truthy(#g:animationKeys() == 1, "an implicit action was added")
end, S200)

---------------------------------------------------------------------------
-- Hostile input

T.test("bad gradient values raise clear errors and leave the layer usable", function()
  local g = gradient{ colors = {red, blue} }
  T.raises(function() g.colors = {red, 3} end, "colors[2]")
  T.raises(function() g.colors = "red" end, "colors")
  T.raises(function() g.locations = {0, 0 / 0} end, "finite")
  T.raises(function() g.locations = {0, 1e300} end, "locations")
  T.raises(function() g.startPoint = {0 / 0, 0} end, "finite")
  T.raises(function() g.type = "diamond" end, "type must be one of")
  local many = {}
  for i = 1, 1025 do many[i] = red end
  T.raises(function() g.colors = many end, "at most 1024")
  T.raises(function() ca.Layer().colors = {red} end, "CAGradientLayer")
  T.pixel(ca.render(), 100, 0, rgb(254, 0, 1), TOL, "still drawn as before")
end, S200)

T.test("a gradient inside a flipped superlayer draws counter-flipped, like contents", function()
  ca.root.geometryFlipped = true
  gradient{ colors = {red, blue} }
  local img = ca.render()
  T.pixel(img, 100, 0, rgb(254, 0, 1), TOL, "first colour still at the visual top")
end, S200)

T.test("rendering is deterministic", function()
  gradient{ colors = {red, yellow, blue}, type = "conic", startPoint = {0.3, 0.6}, endPoint = {0, 0} }
  local a, b = ca.render(), ca.render()
  for y = 0, 199, 3 do
    for x = 0, 199, 3 do
      T.truthy(select(1, a:pixel(x, y)) == select(1, b:pixel(x, y)) and select(3, a:pixel(x, y)) == select(3, b:pixel(x, y)),
               "identical at " .. x .. "," .. y)
    end
  end
end, S200)
