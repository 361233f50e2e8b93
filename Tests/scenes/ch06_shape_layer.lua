-- Chapter 6, listing 6.1 and the rounded-rect listing: CAShapeLayer — vector paths filled and
-- stroked in the layer's space, not clipped to the bounds, resolution independent; stroke
-- trimming, dashes, caps, joins, fill rules; UIBezierPath construction (arcs, per-corner
-- rounded rects, transforms); animations of its properties; listing 10.4 (a timing function
-- plotted with a shape layer).
-- Spec: shared/spec/book-ch05-06.md §2.4, listing 6.1 (T6.1), the rounded-rect listing
-- (T6.1b and "Additional [A] shape tests"), F35–F41, §5 (UIBezierPath);
-- shared/spec/book-ch10-15.md listing 10.4.
local ca = require "caluna"
local T = require "caluna.test"

local white, red, black = "#ffffff", "#ff0000", "#000000"
local pi = math.pi

local function disableActions() ca.Transaction.setDisableActions(true) end

-- T.pixel for a list of points.
local function pixels(img, colour, points, tol)
  for _, p in ipairs(points) do T.pixel(img, p[1], p[2], colour, tol) end
end

-- The book's listing 6.1: the stick figure's path.
local function stickFigurePath()
  local path = ca.Path()
  path:moveTo(175, 100)
  path:addArc(150, 100, 25, 0, 2 * pi, true)
  path:moveTo(150, 125):lineTo(150, 175):lineTo(125, 225)
  path:moveTo(150, 175):lineTo(175, 225)
  path:moveTo(100, 150):lineTo(200, 150)
  return path
end

local function stickFigure(cap)
  ca.root.backgroundColor = white
  local container = ca.Layer{ frame = {0, 0, 300, 300} }
  ca.root:addSublayer(container)
  local shape = ca.ShapeLayer{ strokeColor = "red", fillColor = "clear", lineWidth = 5,
                               lineJoin = "round", lineCap = cap or "round", path = stickFigurePath() }
  container:addSublayer(shape)   -- no frame: bounds zero at (0, 0)
  return shape
end

local figureRed = { {150, 150}, {175, 100}, {124, 100}, {150, 75}, {150, 125}, {137, 200}, {162, 200} }
local figureWhite = { {150, 100}, {150, 200}, {120, 120} }

---------------------------------------------------------------------------
-- Defaults and the property table.

T.test("T6.1 defaults of a new CAShapeLayer (Apple)", function()
  local s = ca.ShapeLayer()
  T.eq(s.className, "CAShapeLayer")
  T.eq(s.path, nil)
  T.eq(s.fillColor, {0, 0, 0, 1}, "fillColor: opaque black")
  T.eq(s.fillRule, "nonZero")
  T.eq(s.strokeColor, nil, "strokeColor: nil (no stroke)")
  T.eq(s.lineWidth, 1)
  T.eq(s.lineCap, "butt")
  T.eq(s.lineJoin, "miter")
  T.eq(s.miterLimit, 10)
  T.eq(s.lineDashPattern, nil)
  T.eq(s.lineDashPhase, 0)
  T.eq(s.strokeStart, 0)
  T.eq(s.strokeEnd, 1)
  local anim = {}
  for _, p in ipairs(ca.properties("ShapeLayer")) do anim[p.key] = p.animatable end
  for _, k in ipairs{ "path", "fillColor", "strokeColor", "lineWidth", "miterLimit", "lineDashPhase",
                      "strokeStart", "strokeEnd" } do
    T.eq(anim[k], true, k .. " is animatable")
  end
  for _, k in ipairs{ "fillRule", "lineCap", "lineJoin", "lineDashPattern" } do
    T.eq(anim[k], false, k .. " is not animatable")
  end
  T.raises(function() return ca.Layer().lineWidth end, "belongs to CAShapeLayer")
  T.raises(function() ca.Layer().path = ca.Path() end, "belongs to CAShapeLayer")
end)

T.test("properties round-trip; the path is copied on assignment (F41)", function()
  local s = ca.ShapeLayer{ fillRule = "evenOdd", lineCap = "square", lineJoin = "bevel",
                           lineDashPattern = {4, 2, 1}, lineDashPhase = 3, miterLimit = 2 }
  T.eq(s.fillRule, "evenOdd"); T.eq(s.lineCap, "square"); T.eq(s.lineJoin, "bevel")
  T.eq(s.lineDashPattern, {4, 2, 1}); T.eq(s.lineDashPhase, 3); T.eq(s.miterLimit, 2)
  local p = ca.Path():moveTo(0, 0):lineTo(10, 0)
  s.path = p
  p:lineTo(10, 10)
  T.eq(#p, 3)
  T.eq(#s.path, 2, "the layer kept the path as it was")
  s.path = nil
  T.eq(s.path, nil)
  s.lineDashPattern = {}
  T.eq(#s.lineDashPattern, 0, "an empty pattern: a solid line")
  s.fillColor = nil
  T.eq(s.fillColor, nil)
end)

---------------------------------------------------------------------------
-- Listing 6.1: the stick figure.

T.test("T6.1 listing 6.1: stick figure, round caps, zero-size layer draws (F35, F37, F39)", function()
  local shape = stickFigure()
  T.eq(shape.bounds, {0, 0, 0, 0}, "no frame set: bounds zero")
  local img = ca.render()
  pixels(img, red, figureRed)
  pixels(img, red, { {98, 150}, {201, 150} })   -- inside the round caps (2.5 pt past the ends)
  pixels(img, white, figureWhite)
  T.pixel(img, 96, 150, white, 3)
  T.pixel(img, 203, 150, white, 3)
  T.golden(img, "ch06/shape_listing6_1")
end, { size = {300, 300} })

T.test("T6.1 with lineCap butt: the arm ends stop at x = 100 and 200", function()
  stickFigure("butt")
  local img = ca.render()
  pixels(img, red, figureRed)
  pixels(img, white, figureWhite)
  pixels(img, white, { {98, 150}, {201, 150} })
  pixels(img, red, { {100, 150}, {199, 150} })
end, { size = {300, 300} })

---------------------------------------------------------------------------
-- The rounded rect with three rounded corners.

local function threeCornerPath()
  return ca.Path():addRoundedRect(50, 50, 100, 100, {20, 20}, {"topRight", "bottomRight", "bottomLeft"})
end

local t61bInside = { {52, 52}, {100, 52}, {148, 100}, {100, 100} }
local t61bRounded = { {148, 52}, {148, 148}, {52, 148} }

T.test("T6.1b rounded rect: three rounded corners, one square (default fill black)", function()
  ca.root.backgroundColor = white
  local shape = ca.ShapeLayer{ path = threeCornerPath() }
  ca.root:addSublayer(shape)
  local img = ca.render()
  pixels(img, black, t61bInside)
  pixels(img, white, t61bRounded)
  T.pixel(img, 49, 100, white); T.pixel(img, 150, 100, white)
  T.golden(img, "ch06/shape_rounded_rect")
end, { size = {200, 200} })

T.test("T6.1b the rounded rect as a mask over a red layer", function()
  local layer = ca.Layer{ frame = {0, 0, 200, 200}, backgroundColor = "red" }
  layer.mask = ca.ShapeLayer{ path = threeCornerPath() }
  ca.root:addSublayer(layer)
  local img = ca.render()
  pixels(img, red, t61bInside)
  for _, p in ipairs(t61bRounded) do T.eq(select(4, T.px(img, p[1], p[2])), 0, "transparent at " .. p[1] .. "," .. p[2]) end
  T.eq(select(4, T.px(img, 20, 20)), 0, "transparent outside the shape")
  T.eq(select(4, T.px(img, 180, 100)), 0)
  T.golden(img, "ch06/shape_rounded_rect_mask")
end, { size = {200, 200} })

T.test("per-corner radii: each corner alone, elliptical radii, clamping", function()
  ca.root.backgroundColor = white
  local corners = { topLeft = {52, 52}, topRight = {147, 52}, bottomLeft = {52, 147}, bottomRight = {147, 147} }
  local shapes = {}
  for name in pairs(corners) do
    disableActions()
    for _, s in ipairs(shapes) do s:removeFromSuperlayer() end
    local s = ca.ShapeLayer{ path = ca.Path():addRoundedRect(50, 50, 100, 100, 20, name) }
    ca.root:addSublayer(s)
    shapes = { s }
    local img = ca.render()
    for other, p in pairs(corners) do
      T.pixel(img, p[1], p[2], other == name and white or black, 3)
    end
  end
  -- A number mask (CACornerMask bits) and "allCorners".
  T.eq(#ca.Path():addRoundedRect(0, 0, 10, 10, 2, 15), #ca.Path():addRoundedRect(0, 0, 10, 10, 2, "allCorners"))
  T.eq(#ca.Path():addRoundedRect(0, 0, 10, 10, 2, {}), 6, "no corners: move, four lines, close")
  -- Elliptical radii 40 × 10 on the top-left: (55, 55) is cut off, (90, 55) is inside.
  disableActions()
  shapes[1]:removeFromSuperlayer()
  local s = ca.ShapeLayer{ path = ca.Path():addRoundedRect(50, 50, 100, 100, {40, 10}, "topLeft") }
  ca.root:addSublayer(s)
  local img = ca.render()
  T.pixel(img, 52, 52, white); T.pixel(img, 90, 56, black); T.pixel(img, 52, 70, black)
  -- Radii beyond half the side are clamped: a 100×100 rect with radius 500 is a circle.
  local b = ca.Path():addRoundedRect(0, 0, 100, 100, 500):bounds()
  T.eq(b, {x = 0, y = 0, width = 100, height = 100})
end, { size = {200, 200} })

---------------------------------------------------------------------------
-- Additional [A] stroke tests: a line (20,50)→(220,50), width 4, red.

local function strokedLine(props)
  ca.root.backgroundColor = white
  local s = ca.ShapeLayer{ path = ca.Path():moveTo(20, 50):lineTo(220, 50), strokeColor = "red", lineWidth = 4 }
  for k, v in pairs(props or {}) do s[k] = v end
  ca.root:addSublayer(s)
  return s
end

T.test("strokeEnd 0.5 strokes the first half by arc length", function()
  strokedLine{ strokeEnd = 0.5 }
  local img = ca.render()
  T.pixel(img, 60, 50, red); T.pixel(img, 118, 50, red)
  T.pixel(img, 180, 50, white); T.pixel(img, 122, 50, white)
end, { size = {240, 100} })

T.test("strokeStart 0.25, strokeEnd 0.75", function()
  strokedLine{ strokeStart = 0.25, strokeEnd = 0.75 }
  local img = ca.render()
  T.pixel(img, 100, 50, red); T.pixel(img, 71, 50, red); T.pixel(img, 168, 50, red)
  T.pixel(img, 60, 50, white); T.pixel(img, 180, 50, white)
end, { size = {240, 100} })

T.test("strokeStart ≥ strokeEnd draws no stroke; values outside 0…1 are clamped", function()
  local s = strokedLine{ strokeStart = 0.6, strokeEnd = 0.4 }
  local img = ca.render()
  T.pixel(img, 100, 50, white); T.pixel(img, 120, 50, white)
  disableActions()
  s.strokeStart = -1; s.strokeEnd = 2
  img = ca.render()
  T.pixel(img, 21, 50, red); T.pixel(img, 218, 50, red); T.pixel(img, 222, 50, white)
end, { size = {240, 100} })

T.test("strokeEnd trims over all subpaths (two lines, the second half is the second line)", function()
  ca.root.backgroundColor = white
  local p = ca.Path():moveTo(20, 30):lineTo(220, 30):moveTo(20, 70):lineTo(220, 70)
  local s = ca.ShapeLayer{ path = p, strokeColor = "red", lineWidth = 4, strokeEnd = 0.75 }
  ca.root:addSublayer(s)
  local img = ca.render()
  T.pixel(img, 210, 30, red, 3); T.pixel(img, 100, 70, red); T.pixel(img, 130, 70, white)
  -- strokeStart 0.5 starts exactly at the second subpath.
  disableActions()
  s.strokeStart = 0.5
  img = ca.render()
  T.pixel(img, 100, 30, white); T.pixel(img, 100, 70, red)
end, { size = {240, 100} })

T.test("a subpath the trim keeps whole stays closed (a join at its start); a cut one gets caps", function()
  ca.root.backgroundColor = white
  local p = ca.Path():addRect(20, 20, 60, 60):addRect(120, 20, 60, 60)
  -- 0.75 of 480 pt: the first square whole, the second from (120, 20) to (180, 80).
  local s = ca.ShapeLayer{ path = p, strokeColor = "red", fillColor = "clear", lineWidth = 10, strokeEnd = 0.75 }
  ca.root:addSublayer(s)
  local img = ca.render()
  T.pixel(img, 16, 16, red)      -- the miter join where the first square closes
  T.pixel(img, 116, 16, white)   -- the second starts with a butt end, no join
  T.pixel(img, 121, 16, red); T.pixel(img, 180, 60, red); T.pixel(img, 150, 80, white); T.pixel(img, 120, 60, white)
end, { size = {200, 100} })

T.test("lineDashPattern [10, 10], and with lineDashPhase 5", function()
  local s = strokedLine{ lineDashPattern = {10, 10} }
  local img = ca.render()
  T.pixel(img, 25, 50, red); T.pixel(img, 35, 50, white); T.pixel(img, 45, 50, red)
  disableActions()
  s.lineDashPhase = 5   -- the pattern starts 5 pt in: on 20–25, off 25–35, on 35–45
  img = ca.render()
  T.pixel(img, 22, 50, red); T.pixel(img, 30, 50, white); T.pixel(img, 40, 50, red); T.pixel(img, 47, 50, white)
  -- Dashes keep their place on the path when strokeStart cuts into it.
  disableActions()
  s.lineDashPhase = 0
  s.strokeStart = 0.1     -- from x = 40: dashes still on 40–50, off 50–60
  img = ca.render()
  T.pixel(img, 38, 50, white); T.pixel(img, 45, 50, red); T.pixel(img, 55, 50, white); T.pixel(img, 65, 50, red)
end, { size = {240, 100} })

T.test("lineCap square extends 2 pt (half the width) past both ends; butt does not", function()
  local s = strokedLine{ lineCap = "square" }
  local img = ca.render()
  T.pixel(img, 18, 50, red); T.pixel(img, 221, 50, red)
  T.pixel(img, 17, 50, white); T.pixel(img, 222, 50, white)
  disableActions()
  s.lineCap = "butt"
  img = ca.render()
  T.pixel(img, 19, 50, white); T.pixel(img, 20, 50, red); T.pixel(img, 219, 50, red); T.pixel(img, 220, 50, white)
end, { size = {240, 100} })

T.test("lineJoin and miterLimit: a sharp corner's miter tip, bevelled beyond the limit", function()
  ca.root.backgroundColor = white
  -- A right angle at (100, 20) with width 10: the miter tip reaches (105, 15).
  local p = ca.Path():moveTo(20, 20):lineTo(100, 20):lineTo(100, 90)
  local s = ca.ShapeLayer{ path = p, strokeColor = "red", fillColor = "clear", lineWidth = 10 }
  ca.root:addSublayer(s)
  local img = ca.render()
  T.pixel(img, 104, 16, red, 3)               -- miter (ratio √2 < 10)
  disableActions()
  s.lineJoin = "bevel"
  img = ca.render()
  T.pixel(img, 104, 16, white, 3)
  disableActions()
  s.lineJoin = "round"
  img = ca.render()
  T.pixel(img, 104, 16, white, 3); T.pixel(img, 102, 18, red, 3)
  disableActions()
  s.lineJoin = "miter"; s.miterLimit = 1.2   -- √2 > 1.2: bevelled
  img = ca.render()
  T.pixel(img, 104, 16, white, 3)
end, { size = {200, 100} })

T.test("fillRule: evenOdd leaves a hole in two nested rectangles, nonZero fills it", function()
  ca.root.backgroundColor = white
  local p = ca.Path():addRect(20, 20, 160, 160):addRect(60, 60, 80, 80)
  local s = ca.ShapeLayer{ path = p }
  ca.root:addSublayer(s)
  local img = ca.render()
  T.pixel(img, 100, 100, black); T.pixel(img, 40, 40, black)
  disableActions()
  s.fillRule = "evenOdd"
  img = ca.render()
  T.pixel(img, 100, 100, white); T.pixel(img, 40, 40, black); T.pixel(img, 10, 10, white)
end, { size = {200, 200} })

T.test("fill then stroke: the stroke is on top; fill and stroke with partial alpha", function()
  ca.root.backgroundColor = white
  local s = ca.ShapeLayer{ path = ca.Path():addRect(40, 40, 100, 100), fillColor = "blue",
                           strokeColor = "red", lineWidth = 10 }
  ca.root:addSublayer(s)
  local img = ca.render()
  T.pixel(img, 90, 90, "blue"); T.pixel(img, 40, 90, red); T.pixel(img, 43, 90, red); T.pixel(img, 36, 90, red)
  disableActions()
  s.opacity = 0.5
  img = ca.render()
  T.pixel(img, 90, 90, {0.5, 0.5, 1}, 2); T.pixel(img, 37, 90, {1, 0.5, 0.5}, 2)
end, { size = {200, 200} })

T.test("F38 scale ×8: a shape layer's edge stays sharp, a bitmap-contents layer's blurs", function()
  ca.root.backgroundColor = white
  -- Both 10×10 pt, scaled by 8: black left of x = 5.3 (shape) / left half (bitmap).
  local shape = ca.ShapeLayer{ frame = {0, 0, 10, 10}, path = ca.Path():addRect(0, 0, 5.3, 10) }
  local px = {}
  for y = 1, 10 do for x = 1, 10 do px[#px + 1] = x <= 5 and "\0\0\0\255" or "\255\255\255\255" end end
  local bitmap = ca.Layer{ frame = {0, 0, 10, 10}, contents = ca.Image.fromPixels(10, 10, table.concat(px), "rgba") }
  shape.position = {100, 60}; bitmap.position = {100, 160}
  shape.transform = ca.Transform3D.scale(8, 8, 1); bitmap.transform = ca.Transform3D.scale(8, 8, 1)
  ca.root:addSublayer(shape); ca.root:addSublayer(bitmap)
  local img = ca.render()
  -- Count the grey (neither black nor white) pixels across each edge.
  local function greys(y)
    local n = 0
    for x = 30, 170 do
      local r = img:pixel(x, y)
      if r > 8 and r < 247 then n = n + 1 end
    end
    return n
  end
  T.truthy(greys(60) <= 2, "shape edge: " .. greys(60) .. " grey pixels")
  T.truthy(greys(160) >= 4, "bitmap edge: " .. greys(160) .. " grey pixels")
  T.pixel(img, 103, 60, white); T.pixel(img, 101, 60, black)   -- the edge at x = 60 + 8·5.3 = 102.4
end, { size = {200, 200} })

T.test("rendered at scale 8 the figure is drawn as vectors (sharp arm edge)", function()
  stickFigure()
  local img = ca.render()
  -- The arm's top edge at y = 147.5 pt = 1180 px: one partially covered row at most.
  local grey = 0
  for y = 1170, 1190 do
    local r, g = img:pixel(150 * 8 + 40, y)
    if g > 8 and g < 247 then grey = grey + 1 end
  end
  T.truthy(grey <= 2, grey .. " grey rows across the 5 pt arm at scale 8")
  T.pixel(img, 150, 150, red)
end, { size = {300, 300}, scale = 8 })

---------------------------------------------------------------------------
-- UIBezierPath construction.

T.test("arcs: clockwise is clockwise on screen; counter-clockwise goes the other way", function()
  ca.root.backgroundColor = white
  local cw = ca.Path():addArc(100, 100, 50, 0, pi / 2, true)
  local x, y = cw:currentPoint()
  T.near(x, 100, 1e-9); T.near(y, 150, 1e-9)
  local s = ca.ShapeLayer{ path = cw, strokeColor = "red", fillColor = "clear", lineWidth = 4 }
  ca.root:addSublayer(s)
  local img = ca.render()
  T.pixel(img, 135, 135, red)      -- 45°: below right of the centre
  T.pixel(img, 64, 64, white)
  disableActions()
  s.path = ca.Path():addArc(100, 100, 50, 0, pi / 2, false)   -- three quarters, through the top
  img = ca.render()
  T.pixel(img, 135, 135, white)
  T.pixel(img, 64, 64, red); T.pixel(img, 100, 50, red); T.pixel(img, 135, 64, red)
  -- clockwise from 0 to -π/2 sweeps three quarters too (the end moves by a turn).
  local p = ca.Path():addArc(100, 100, 50, 0, -pi / 2, true)
  T.eq(#p, 4, "move + three quarter-turn cubics")
  x, y = p:currentPoint()
  T.near(x, 100, 1e-9); T.near(y, 50, 1e-9)
end, { size = {200, 200} })

T.test("arcs: a line joins a differing current point; full circles; radius accuracy", function()
  T.eq(#ca.Path():moveTo(20, 20):addArc(100, 100, 50, 0, pi / 2, true), 3, "move, line, cubic")
  T.eq(#ca.Path():moveTo(150, 100):addArc(100, 100, 50, 0, pi / 2, true), 2, "no line from the arc's start")
  T.eq(#ca.Path():addArc(0, 0, 10, 0, 2 * pi, true), 5, "move + 4 cubics")
  T.eq(#ca.Path():addArc(0, 0, 10, 0, 20 * pi, true), 5, "more than a turn draws one circle")
  T.eq(#ca.Path():addArc(0, 0, 10, 1, 1, true), 1, "zero sweep: only the move")
  -- Points on the cubics stay on the circle (error < 3e-4 r).
  local p = ca.Path():addArc(0, 0, 100, 0, 2 * pi, true)
  for i = 0, 40 do
    local x, y = p:pointAt(i / 40)
    T.near(math.sqrt(x * x + y * y), 100, 0.03)
  end
end)

T.test("path transforms: applyTransform maps every point; ellipse and rect start points", function()
  local p = ca.Path():moveTo(0, 0):curveTo(0.5, 0, 0.5, 1, 1, 1)
  p:applyTransform(ca.AffineTransform.scale(200, 200))
  T.eq(p:bounds(), {x = 0, y = 0, width = 200, height = 200})
  local x, y = p:currentPoint()
  T.eq({x, y}, {200, 200})
  p:applyTransform(ca.Transform3D.translation(10, 20, 0))
  x, y = p:currentPoint()
  T.eq({x, y}, {210, 220})
  local q = p:copy():lineTo(0, 0)
  T.eq(#p, 2); T.eq(#q, 3)
  T.eq(#ca.Path():addPath(p):addPath(q), 5)
  x, y = ca.Path():addRect(10, 20, 30, 40):currentPoint()
  T.eq({x, y}, {10, 20}, "after a close: the subpath's start")
  x, y = ca.Path():addEllipse(0, 0, 100, 50):currentPoint()
  T.eq({x, y}, {100, 25})
end)

---------------------------------------------------------------------------
-- Animations.

T.test("implicit animation of strokeEnd: the default curve at t = 0.125 of 0.25 s", function()
  local s = strokedLine{ strokeEnd = 0 }
  ca.step(0)
  s.strokeEnd = 1
  ca.advance(0.125)
  -- The default timing curve (0.25, 0.1, 0.25, 1) at x = 0.5 is 0.802403.
  T.near(s:presentation().strokeEnd, 0.802403, 1e-4)
  T.eq(s.strokeEnd, 1)
  local img = ca.render()
  T.pixel(img, 178, 50, red); T.pixel(img, 183, 50, white)   -- the end at x = 20 + 200·0.8024 = 180.5
  ca.advance(0.25)
  T.eq(s:presentation().strokeEnd, 1)
end, { size = {240, 100} })

T.test("the other implicit properties animate; path never animates implicitly", function()
  local s = strokedLine()
  ca.step(0)
  s.lineWidth = 9; s.strokeColor = "blue"; s.fillColor = "red"; s.miterLimit = 4; s.lineDashPhase = 8
  s.strokeStart = 0.5
  s.path = ca.Path():moveTo(20, 80):lineTo(220, 80)
  local keys = s:animationKeys()
  table.sort(keys)
  T.eq(table.concat(keys, ","), "fillColor,lineDashPhase,lineWidth,miterLimit,strokeColor,strokeStart")
  ca.advance(0.125)
  T.truthy(s:presentation().lineWidth > 4 and s:presentation().lineWidth < 9)
  local x, y = s:presentation().path:currentPoint()
  T.eq({x, y}, {220, 80}, "the presentation shows the new path at once")
  -- Not animatable: set at once, no action.
  s.lineCap = "round"; s.fillRule = "evenOdd"; s.lineJoin = "round"; s.lineDashPattern = {3, 3}
  T.eq(#s:animationKeys(), 6)
end, { size = {240, 100} })

T.test("explicit path animation: same structure interpolates point-wise, different structure switches at the middle", function()
  ca.root.backgroundColor = white
  local from = ca.Path():moveTo(20, 20):lineTo(120, 20)
  local to = ca.Path():moveTo(20, 80):lineTo(220, 80)
  local s = ca.ShapeLayer{ path = to, strokeColor = "red", lineWidth = 4 }
  ca.root:addSublayer(s)
  ca.step(0)
  s:addAnimation(ca.BasicAnimation{ keyPath = "path", fromValue = from, toValue = to, duration = 1 }, "morph")
  ca.advance(0.5)
  local x, y = s:presentation().path:currentPoint()
  T.near(x, 170, 1e-9); T.near(y, 50, 1e-9)
  local img = ca.render()
  T.pixel(img, 95, 50, red); T.pixel(img, 60, 80, white); T.pixel(img, 60, 20, white)
  -- A different element count: the from path until the middle, then the to path.
  local other = ca.Path():moveTo(20, 20):lineTo(120, 20):lineTo(120, 60)
  s:addAnimation(ca.BasicAnimation{ keyPath = "path", fromValue = other, toValue = to, duration = 1 }, "morph")
  ca.advance(0.75)
  T.eq(#s:presentation().path, 3)
  ca.advance(1.3)
  T.eq(#s:presentation().path, 2)
  x, y = s:presentation().path:currentPoint()
  T.eq({x, y}, {220, 80})
end, { size = {240, 100} })

---------------------------------------------------------------------------
-- Effects: clipping, shadow, perspective, transition.

T.test("the path is clipped only by masksToBounds (F37)", function()
  ca.root.backgroundColor = white
  local s = ca.ShapeLayer{ frame = {50, 50, 50, 50}, path = ca.Path():addRect(0, 0, 100, 100) }
  ca.root:addSublayer(s)
  local img = ca.render()
  T.pixel(img, 60, 60, black); T.pixel(img, 140, 140, black); T.pixel(img, 40, 40, white)
  disableActions()
  s.masksToBounds = true
  img = ca.render()
  T.pixel(img, 60, 60, black); T.pixel(img, 98, 98, black); T.pixel(img, 101, 101, white); T.pixel(img, 140, 140, white)
end, { size = {200, 200} })

T.test("a zero-size shape layer casts a shadow that follows its shape's alpha", function()
  ca.root.backgroundColor = white
  local s = ca.ShapeLayer{ path = ca.Path():addEllipse(50, 50, 60, 60), fillColor = "red",
                           shadowOpacity = 1, shadowColor = "black", shadowOffset = {30, 0}, shadowRadius = 0 }
  ca.root:addSublayer(s)
  local img = ca.render()
  T.pixel(img, 80, 80, red)
  T.pixel(img, 135, 80, black)          -- right of the shape, inside its shadow
  T.pixel(img, 135, 55, white)          -- outside the circular shadow (a box shadow would cover it)
end, { size = {200, 200} })

T.test("a shape layer in perspective draws its path (offscreen extent includes it)", function()
  ca.root.backgroundColor = white
  local c = ca.Layer{ frame = {0, 0, 200, 200} }
  local t = ca.Transform3D.identity; t.m34 = -1 / 500
  c.sublayerTransform = t
  local s = ca.ShapeLayer{ position = {100, 100}, path = ca.Path():addRect(-40, -40, 80, 80), fillColor = "red" }
  s.transform = ca.Transform3D.rotation(pi / 6, 0, 1, 0)
  c:addSublayer(s)
  ca.root:addSublayer(c)
  local img = ca.render()
  T.pixel(img, 100, 100, red); T.pixel(img, 10, 10, white)
end, { size = {200, 200} })

T.test("a transition on a shape layer fades from the old path to the new", function()
  ca.root.backgroundColor = white
  local s = ca.ShapeLayer{ frame = {0, 0, 200, 200}, path = ca.Path():addRect(20, 20, 60, 60), fillColor = "red" }
  ca.root:addSublayer(s)
  ca.step(0)
  s:addAnimation(ca.Transition{ type = "fade", duration = 1 }, "t")
  s.path = ca.Path():addRect(120, 120, 60, 60)
  ca.advance(0.5)
  local img = ca.render()
  T.pixel(img, 50, 50, {1, 0.5, 0.5}, 4); T.pixel(img, 150, 150, {1, 0.5, 0.5}, 4)
end, { size = {200, 200} })

---------------------------------------------------------------------------
-- Listing 10.4: plotting a timing function.

T.test("listing 10.4: easeOut plotted with a shape layer in a flipped container", function()
  local expected = { linear = {0, 0, 1, 1}, easeIn = {0.42, 0, 1, 1}, easeOut = {0, 0, 0.58, 1},
                     easeInEaseOut = {0.42, 0, 0.58, 1}, default = {0.25, 0.1, 0.25, 1} }
  for name, c in pairs(expected) do
    local f = ca.MediaTimingFunction(name)
    local x0, y0 = f:getControlPoint(0); local x3, y3 = f:getControlPoint(3)
    T.near({x0, y0, x3, y3}, {0, 0, 1, 1}, 1e-6, name)
    local x1, y1 = f:getControlPoint(1); local x2, y2 = f:getControlPoint(2)
    T.near({x1, y1, x2, y2}, c, 1e-6, name)
  end
  ca.root.backgroundColor = white
  local container = ca.Layer{ frame = {0, 0, 200, 200}, geometryFlipped = true }
  ca.root:addSublayer(container)
  local f = ca.MediaTimingFunction("easeOut")
  local c1x, c1y = f:getControlPoint(1)
  local c2x, c2y = f:getControlPoint(2)
  local path = ca.Path():moveTo(0, 0):curveTo(c1x, c1y, c2x, c2y, 1, 1)
  path:applyTransform(ca.AffineTransform.scale(200, 200))
  local shape = ca.ShapeLayer{ strokeColor = "red", fillColor = "clear", lineWidth = 4, path = path }
  container:addSublayer(shape)
  local img = ca.render()
  -- (19.44, 31.25), (68.5, 100), (133.31, 168.75) in layer space, y flipped in the image.
  pixels(img, red, { {19, 169}, {68, 100}, {133, 31} })
  T.pixel(img, 68, 132, white)   -- on the diagonal: easeOut lies above it
  T.pixel(img, 1, 198, red, 60); T.pixel(img, 198, 1, red, 60)   -- the ends (half-covered by the butt caps)
  T.golden(img, "ch06/shape_listing10_4")
end, { size = {200, 200} })

---------------------------------------------------------------------------
-- Hostile input.

T.test("hostile input: clear errors, the layer keeps its values", function()
  local s = ca.ShapeLayer()
  T.raises(function() s.lineWidth = 0 / 0 end, "must be finite")
  T.raises(function() s.lineWidth = -1 end, "lineWidth must not be negative")
  T.raises(function() s.lineWidth = 1e9 end, "beyond")
  T.raises(function() s.miterLimit = -2 end, "miterLimit must not be negative")
  T.raises(function() s.strokeEnd = 1 / 0 end, "must be finite")
  T.raises(function() s.lineDashPhase = 0 / 0 end, "must be finite")
  T.raises(function() s.lineDashPattern = {5, -1} end, "lineDashPattern[2] must be in 0")
  T.raises(function() s.lineDashPattern = {0, 0} end, "must not all be 0")
  local many = {}
  for i = 1, 2000 do many[i] = 1 end
  T.raises(function() s.lineDashPattern = many end, "2000 lengths is more than 1024")
  T.raises(function() s.lineDashPattern = {1, "a"} end, "lineDashPattern[2] expects")
  T.raises(function() s.lineDashPattern = 5 end, "lineDashPattern expects")
  T.raises(function() s.lineDashPattern = {1, 0 / 0} end, "finite")
  T.raises(function() s.fillRule = "even-odd" end, 'fillRule must be one of "nonZero", "evenOdd"')
  T.raises(function() s.lineCap = "rounded" end, 'lineCap must be one of "butt", "round", "square"')
  T.raises(function() s.lineJoin = 3 end, "lineJoin")
  T.raises(function() s.path = "M 0 0" end, "path expects a Path")
  T.raises(function() s.fillColor = "nocolour" end, "unknown colour")
  T.raises(function() s.path = ca.Path():moveTo(0, 0):lineTo(1e8, 0):applyTransform(ca.AffineTransform.scale(10, 1)) end,
           "beyond")
  T.eq(s.lineWidth, 1); T.eq(s.lineDashPattern, nil); T.eq(s.fillRule, "nonZero"); T.eq(s.path, nil)
  -- Path construction.
  local p = ca.Path()
  T.raises(function() p:addArc(0, 0, 10, 0, 0 / 0, true) end, "must be finite")
  T.raises(function() p:addArc(0, 0, -10, 0, 1, true) end, "radius must be ≥ 0")
  T.raises(function() p:addArc(0, 0, 10, 0, 1) end, "argument 7 expects a boolean")
  T.raises(function() p:addArc(0, 0, 10, 0, 1e7, true) end, "beyond ±1e6 radians")
  T.raises(function() p:addArc(1e9, 0, 10, 0, 1, true) end, "beyond ±1e8")
  T.raises(function() p:addRoundedRect(0, 0, 10, 10, -1) end, "radii must be ≥ 0")
  T.raises(function() p:addRoundedRect(0, 0, 10, 10, 2, "topleft") end, 'unknown corner "topleft"')
  T.raises(function() p:addRoundedRect(0, 0, 10, 10, 2, 16) end, "integer in 0…15")
  T.raises(function() p:addRoundedRect(0, 0, 10, 10, {0 / 0, 1}) end, "finite")
  T.raises(function() p:addRoundedRect(0, 0, 10, 10, "big") end, "argument 6 expects a radius")
  local t = ca.Transform3D.identity; t.m34 = -0.002
  T.raises(function() p:applyTransform(t) end, "expects an AffineTransform")
  T.raises(function() p:applyTransform(ca.AffineTransform.scale(0 / 0, 1)) end, "finite")
  T.raises(function() p:addPath("x") end, "argument 2 expects a Path")
  T.eq(#p, 0, "nothing was added by the failed calls")
  -- Short dashes along a very long path would take minutes in cairo: refused at render.
  local zig = ca.Path():moveTo(0, 0)
  for i = 1, 1000 do zig:lineTo((i % 2) * 1e7, i) end
  local z = ca.ShapeLayer{ path = zig, strokeColor = "red", lineDashPattern = {1, 1} }
  ca.root:addSublayer(z)
  T.raises(function() ca.render() end, "would draw about 10000000000 dashes")
  z.lineDashPattern = {1e5, 1e5}
  T.truthy(ca.render(), "longer dashes draw")
  z:removeFromSuperlayer()
  -- A huge path still renders (and a stroke of every kind on it).
  local big = ca.Path():moveTo(0, 0)
  for i = 1, 5000 do big:lineTo(i % 200, (i * 7) % 200) end
  local b = ca.ShapeLayer{ path = big, strokeColor = "red", lineDashPattern = {1, 1}, strokeStart = 0.3, strokeEnd = 0.6,
                           lineJoin = "round", lineCap = "round" }
  ca.root:addSublayer(b)
  T.truthy(ca.render())
end, { size = {200, 200} })
