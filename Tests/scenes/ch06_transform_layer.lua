-- Chapter 6, listing 6.5: CATransformLayer — two independent cubes in one perspective,
-- the flattening control with plain layers, and Apple's transform-layer rules (no own
-- content, opacity per sublayer, masksToBounds/border/shadow/mask ignored, hit testing
-- passes through).
-- Spec: shared/spec/book-ch05-06.md §1.8–1.11, §2.6, §3 listing 6.5 (T6.5 and its extra
-- [A] rules), §4 F28, F50, Appendix A (every [R] number recomputed with the reference model).
-- Scenes are built before the first render; later changes are made with actions
-- disabled (D23).
local ca = require "caluna"
local T = require "caluna.test"

local white, black = "#ffffff", "#000000"
local red, green, blue = "#ff0000", "#00ff00", "#0000ff"
local pi = math.pi
local S400 = { size = {400, 400} }

local function disableActions() ca.Transaction.setDisableActions(true) end

local G = dofile(T.dir .. "/fixtures/projection.lua")
local P, corners, quad, signedArea = G.P, G.corners, G.quad, G.signedArea

---------------------------------------------------------------------------
-- Listing 6.5: two cubes.

-- Fixed colours instead of the book's rand(). The five visible faces get R, G (cube1) and
-- B, Y, M (cube2); the seven hidden ones have g ≥ r + 100 and b ≥ 100, which no blend of
-- the visible colours and the black background reaches (cube1's blends have b = 0,
-- cube2's have r ≥ g), so antialiased edges and seams never look like a hidden face.
local cube1Colours = { "#ff0000", "#00ff00", "#00ffff", "#0080ff", "#40ffa0", "#00c0c0" }
local cube2Colours = { "#0000ff", "#ffff00", "#ff00ff", "#64ffff", "#00a080", "#32dcff" }
local hiddenColours = { cube1Colours[3], cube1Colours[4], cube1Colours[5], cube1Colours[6],
                        cube2Colours[4], cube2Colours[5], cube2Colours[6] }

-- The book's cubeWithTransform: a container layer (a CATransformLayer unless `class`
-- says otherwise) at the centre with six 100×100 faces at frame (-50, -50, 100, 100).
local function cubeWithTransform(t, colours, class)
  local cube = (class or ca.TransformLayer)()
  cube.position = {200, 200}
  local faces = {}
  for i, ft in ipairs(G.cubeFaceTransforms(50)) do
    local f = ca.Layer{ frame = {-50, -50, 100, 100}, backgroundColor = colours[i] }
    f.transform = ft
    cube:addSublayer(f)
    faces[i] = f
  end
  cube.transform = t
  return cube, faces
end

local function twoCubes(class)
  ca.root.backgroundColor = black
  local C = ca.Layer{ frame = {0, 0, 400, 400}, backgroundColor = black, sublayerTransform = P(500) }
  local c1, f1 = cubeWithTransform(ca.Transform3D.translation(-100, 0, 0), cube1Colours, class)
  local t2 = ca.Transform3D.translation(100, 0, 0)
  t2 = t2:rotate(-pi / 4, 1, 0, 0)
  t2 = t2:rotate(-pi / 4, 0, 1, 0)
  local c2, f2 = cubeWithTransform(t2, cube2Colours, class)
  C:addSublayer(c1)
  C:addSublayer(c2)
  ca.root:addSublayer(C)
  return C, c1, f1, c2, f2
end

T.test("T6.5 two cubes with their own transforms in one perspective (F28, F50)", function()
  local C, c1, f1, c2, f2 = twoCubes()
  T.eq(c1.className, "CATransformLayer")
  T.eq(c1.bounds, {0, 0, 0, 0}, "default bounds: zero")
  -- cube1: face 1 square plus a sliver of face 2; faces 3–6 back-facing.
  quad(f1[1], {33.33, 144.44, 144.44, 144.44, 144.44, 255.56, 33.33, 255.56}, "cube1 face 1")
  quad(f1[2], {144.44, 144.44, 154.55, 154.55, 154.55, 245.45, 144.44, 255.56}, "cube1 face 2 (sliver)")
  T.truthy(signedArea(corners(f1[1])) > 0 and signedArea(corners(f1[2])) > 0, "cube1 faces 1, 2 front-facing")
  for i = 3, 6 do T.truthy(signedArea(corners(f1[i])) < 0, "cube1 face " .. i .. " back-facing") end
  -- cube2: faces 1–3 visible.
  quad(f2[1], {231.52, 161.95, 320.59, 217.66, 303.02, 287.93, 227.36, 233.02}, "cube2 face 1")
  quad(f2[2], {320.59, 217.66, 383.70, 161.95, 359.44, 233.02, 303.02, 287.93}, "cube2 face 2")
  quad(f2[3], {297.15, 117.07, 383.70, 161.95, 320.59, 217.66, 231.52, 161.95}, "cube2 face 3")
  for i = 1, 3 do T.truthy(signedArea(corners(f2[i])) > 0, "cube2 face " .. i .. " front-facing") end
  for i = 4, 6 do T.truthy(signedArea(corners(f2[i])) < 0, "cube2 face " .. i .. " back-facing") end
  local img = ca.render()
  G.pixels(img, {
    {90, 200, cube1Colours[1], "cube1 face 1"},
    {40, 150, cube1Colours[1], "cube1 face 1, top-left (perspective-enlarged)"},
    {149, 200, cube1Colours[2], "cube1 face 2 sliver"},
    {152, 200, cube1Colours[2], "cube1 face 2 sliver"},
    {146, 151, cube1Colours[2], "top of the sliver (face 3's inside is behind it)"},
    {146, 248, cube1Colours[2], "bottom of the sliver (face 4's inside is behind it)"},
    {157, 200, black, "right of the sliver"},
    {270, 225, cube2Colours[1], "cube2 face 1"},
    {342, 225, cube2Colours[2], "cube2 face 2"},
    {308, 165, cube2Colours[3], "cube2 face 3"},
    {200, 200, black, "between the cubes"},
    {20, 20, black},
  })
  G.noColours(img, hiddenColours, "pixels with a back-face colour")
  local quads = { corners(f1[1]), corners(f1[2]) }
  for i = 1, 3 do quads[#quads + 1] = corners(f2[i]) end
  G.noLeaks(img, quads, black)
end, S400)

T.test("T6.5 culled (doubleSided = false) and depth-ordered (true) give the same picture", function()
  local C, c1, f1, c2, f2 = twoCubes()
  for i = 1, 6 do f1[i].doubleSided = false; f2[i].doubleSided = false end
  local culled = ca.render()
  G.pixels(culled, {
    {90, 200, cube1Colours[1]},
    {149, 200, cube1Colours[2]},
    {146, 151, cube1Colours[2], "top of the sliver"},
    {146, 248, cube1Colours[2], "bottom of the sliver"},
    {270, 225, cube2Colours[1]},
    {342, 225, cube2Colours[2]},
    {308, 165, cube2Colours[3]},
    {200, 200, black},
  })
  G.noColours(culled, hiddenColours, "pixels with a back-face colour")
  T.golden(culled, "ch06/listing6_5")
  disableActions()
  for i = 1, 6 do f1[i].doubleSided = true; f2[i].doubleSided = true end
  local both = ca.render()
  -- tol 80: along silhouette edges a hidden face drawn first may tint the antialiased
  -- pixels (at most a quarter of its colour); whole pixels of it must not show.
  local bad, maxDiff = both:compare(culled, 80)
  T.eq(bad, 0, "pixels differing by more than 80 (largest difference " .. maxDiff .. ")")
  -- Faces 2–5 of cube1 all have their centres at depth 0: a sort by centre depth ties
  -- there, yet face 2 is in front of the insides of faces 3 and 4 where they overlap.
  T.pixel(both, 146, 151, cube1Colours[2], 3, "top of the sliver: face 2 is in front of face 3's inside")
  T.pixel(both, 146, 248, cube1Colours[2], 3, "bottom of the sliver: face 2 is in front of face 4's inside")
end, S400)

T.test("T6.5 control: plain layers flatten each cube into one card showing face 1", function()
  local C, c1, f1, c2, f2 = twoCubes(ca.Layer)
  T.eq(c1.className, "CALayer")
  -- Orthographic inside each cube layer: face 1 (z = +50) hides face 6; the sides are edge-on.
  quad(f1[1], {50, 150, 150, 150, 150, 250, 50, 250}, "cube1 card: no perspective enlargement")
  quad(f2[1], {266.01, 138.37, 353.94, 188.22, 332.61, 259.13, 257.68, 209.24}, "cube2 card")
  local img = ca.render()
  G.pixels(img, {
    {100, 200, cube1Colours[1]},
    {149, 200, cube1Colours[1], "face 1 reaches 150, face 2 is edge-on"},
    {152, 200, black, "no face-2 sliver"},
    {46, 200, black, "no perspective enlargement"},
    {53, 153, cube1Colours[1]},
    {305, 200, cube2Colours[1], "cube2 card"},
    {240, 230, black, "where the transform-layer cube2 shows face 1"},
    {365, 200, black, "where the transform-layer cube2 shows face 2"},
    {308, 125, black, "where the transform-layer cube2 shows face 3"},
  })
  -- Only the two face-1 colours appear.
  local others = { cube1Colours[2], cube2Colours[2], cube2Colours[3] }
  for _, c in ipairs(hiddenColours) do others[#others + 1] = c end
  G.noColours(img, others, "pixels of a face other than 1")
  G.noLeaks(img, { corners(f1[1]), corners(f2[1]) }, black)
end, S400)

T.test("T6.5 the two cubes share the container's 3D space (depth-sorted there)", function()
  local C, c1, f1, c2, f2 = twoCubes()
  -- Cube1 moved onto the axis, in front of cube2 (z 150..250): face 1 at z = 250 is
  -- scaled 500/250 = 2 about (200, 200) and covers most of cube2; its sides face away.
  c1.transform = ca.Transform3D.translation(0, 0, 200)
  quad(f1[1], {100, 100, 300, 100, 300, 300, 100, 300}, "cube1 face 1 in front")
  for i = 2, 6 do T.truthy(signedArea(corners(f1[i])) < 0, "cube1 face " .. i .. " back-facing") end
  local img = ca.render()
  G.pixels(img, {
    {250, 200, cube1Colours[1], "cube1 (nearer) covers cube2's face 1"},
    {290, 200, cube1Colours[1], "cube1 covers cube2's face 1"},
    {342, 225, cube2Colours[2], "cube2's face 2 right of cube1"},
    {308, 165, cube2Colours[3], "cube2's face 3 right of cube1"},
  })
  G.noColours(img, hiddenColours)
  -- Cube1 behind cube2 (z -350..-250), still later in the array: cube2 covers its right part.
  disableActions()
  c1.transform = ca.Transform3D.translation(0, 0, -300)
  quad(f1[1], {166.67, 166.67, 233.33, 166.67, 233.33, 233.33, 166.67, 233.33}, "cube1 face 1 behind")
  img = ca.render()
  G.pixels(img, {
    {200, 200, cube1Colours[1], "cube1's face 1 where cube2 does not reach"},
    {232, 200, cube2Colours[1], "cube2 is nearer although cube1 is later in the array"},
    {232, 230, cube2Colours[1], "cube2 is nearer"},
    {342, 225, cube2Colours[2]},
  })
  G.noColours(img, hiddenColours)
end, S400)

---------------------------------------------------------------------------
-- Apple's transform-layer rules (spec §2.6, T6.5 extras).

T.test("className: CALayer and CATransformLayer", function()
  T.eq(ca.Layer().className, "CALayer")
  T.eq(ca.TransformLayer().className, "CATransformLayer")
  T.eq(ca.TransformLayer{ bounds = {0, 0, 10, 10} }.className, "CATransformLayer")
  T.eq(ca.root.className, "CALayer")
  T.raises(function() ca.TransformLayer().className = "CALayer" end, "className")
end)

T.test("F50 a transform layer draws no content of its own", function()
  ca.root.backgroundColor = white
  local TL = ca.TransformLayer{ bounds = {0, 0, 100, 100}, position = {200, 200}, backgroundColor = red }
  ca.root:addSublayer(TL)
  local img = ca.render()
  T.pixel(img, 200, 200, white, 3, "no red background")
  G.noColours(img, { red }, "red pixels")
  -- Its sublayers are drawn.
  disableActions()
  TL:addSublayer(ca.Layer{ frame = {25, 25, 50, 50}, backgroundColor = green })
  img = ca.render()
  T.pixel(img, 200, 200, green)
  T.pixel(img, 160, 160, white, 3, "still no background around the sublayer")
  G.noColours(img, { red }, "red pixels")
end, S400)

-- R (below) and B (above) overlapping in x 180..220 of the canvas, in `holder`.
local function overlap(holder)
  ca.root.backgroundColor = white
  holder.bounds = {0, 0, 200, 100}
  holder.position = {200, 200}
  holder:addSublayer(ca.Layer{ frame = {0, 0, 120, 100}, backgroundColor = red })
  holder:addSublayer(ca.Layer{ frame = {80, 0, 120, 100}, backgroundColor = blue })
  holder.opacity = 0.5
  ca.root:addSublayer(holder)
end

T.test("opacity on a transform layer applies to each sublayer separately", function()
  overlap(ca.TransformLayer())
  local img = ca.render()
  T.pixel(img, 200, 200, {128 / 255, 64 / 255, 191 / 255}, 3, "overlap: B at 0.5 over (R at 0.5 over W)")
  T.pixel(img, 120, 200, {1, 128 / 255, 128 / 255}, 3, "R only")
  T.pixel(img, 280, 200, {128 / 255, 128 / 255, 1}, 3, "B only")
  T.pixel(img, 200, 140, white)
end, S400)

T.test("contrast: group opacity on a plain layer", function()
  overlap(ca.Layer{ allowsGroupOpacity = true })
  local img = ca.render()
  T.pixel(img, 200, 200, {128 / 255, 128 / 255, 1}, 3, "overlap: the flattened group at 0.5")
  T.pixel(img, 120, 200, {1, 128 / 255, 128 / 255}, 3, "R only")
end, S400)

T.test("a transform layer ignores masksToBounds, border, corner radius, shadow and mask", function()
  ca.root.backgroundColor = white
  local TL = ca.TransformLayer{ bounds = {0, 0, 100, 100}, position = {200, 200} }
  TL.masksToBounds = true
  TL.cornerRadius = 30
  TL.borderWidth = 10
  TL.borderColor = blue
  TL.shadowOpacity = 1
  TL.shadowColor = black
  TL.shadowOffset = {10, 10}
  TL.shadowRadius = 0
  TL.mask = ca.Layer{ frame = {40, 40, 20, 20}, backgroundColor = black }
  -- A sublayer overflowing the bounds on every side: canvas x, y 100..300.
  TL:addSublayer(ca.Layer{ frame = {-50, -50, 200, 200}, backgroundColor = green })
  ca.root:addSublayer(TL)
  local img = ca.render()
  G.pixels(img, {
    {110, 110, green, "not clipped to the bounds (or the mask)"},
    {290, 290, green, "not clipped"},
    {151, 200, green, "no border"},
    {152, 152, green, "no rounded-corner clip, no mask"},
    {305, 200, white, "no shadow"},
    {200, 305, white, "no shadow"},
    {305, 305, white, "no shadow"},
  })
  G.noColours(img, { blue }, "border pixels")
end, S400)

T.test("a hidden transform layer hides its subtree", function()
  ca.root.backgroundColor = white
  local TL = ca.TransformLayer{ bounds = {0, 0, 100, 100}, position = {200, 200} }
  local s = ca.Layer{ frame = {0, 0, 100, 100}, backgroundColor = green }
  TL:addSublayer(s)
  TL.hidden = true
  ca.root:addSublayer(TL)
  local img = ca.render()
  T.pixel(img, 200, 200, white)
  G.noColours(img, { green }, "green pixels")
  T.same(ca.root:hitTest({200, 200}), ca.root, "a hidden subtree is not hit")
  disableActions()
  TL.hidden = false
  img = ca.render()
  T.pixel(img, 200, 200, green)
  T.same(ca.root:hitTest({200, 200}), s)
end, S400)

T.test("hit testing passes through a transform layer, applying its geometry", function()
  ca.root.backgroundColor = white
  local TL = ca.TransformLayer{ bounds = {0, 0, 100, 100}, position = {200, 200} }
  local s = ca.Layer{ frame = {60, 40, 40, 20}, backgroundColor = green }   -- right of centre
  TL:addSublayer(s)
  ca.root:addSublayer(TL)
  T.same(ca.root:hitTest({230, 200}), s, "the sublayer")
  T.same(ca.root:hitTest({170, 170}), ca.root, "inside the transform layer's bounds but no sublayer: not the transform layer")
  local hit = ca.root:hitTest({160, 200})
  T.falsy(rawequal(hit, TL), "the transform layer itself is never returned")
  -- Its transform applies: turned 90° clockwise, the sublayer is below the centre.
  disableActions()
  TL.transform = ca.Transform3D.rotation(pi / 2, 0, 0, 1)
  T.same(ca.root:hitTest({200, 230}), s, "rotated with the transform layer")
  T.same(ca.root:hitTest({230, 200}), ca.root, "no longer to the right")
  local img = ca.render()
  T.pixel(img, 200, 230, green)
  T.pixel(img, 230, 200, white)
  -- A sublayer outside the transform layer's bounds is still hit (nothing to clip against).
  local far = ca.Layer{ frame = {200, 0, 20, 20}, backgroundColor = blue }
  TL:addSublayer(far)
  local p = far:convertPointToLayer({10, 10}, nil)
  T.same(ca.root:hitTest({p.x, p.y}), far, "outside the transform layer's bounds")
end, S400)

T.test("nested transform layers concatenate in 3D (the book's arm)", function()
  ca.root.backgroundColor = white
  local shoulder = ca.TransformLayer{ position = {200, 200}, transform = ca.Transform3D.rotation(pi / 4, 0, 1, 0) }
  local elbow = ca.TransformLayer{ transform = ca.Transform3D.rotation(-pi / 4, 0, 1, 0) }
  local hand = ca.Layer{ bounds = {0, 0, 100, 100}, backgroundColor = green }
  elbow:addSublayer(hand)
  shoulder:addSublayer(elbow)
  ca.root:addSublayer(shoulder)
  quad(hand, {150, 150, 250, 150, 250, 250, 150, 250}, "rotations cancel through two transform layers")
  local img = ca.render()
  T.pixel(img, 152, 200, green)
  T.pixel(img, 248, 200, green)
  T.pixel(img, 147, 200, white)
  -- Moving the elbow moves the hand, not the shoulder.
  disableActions()
  elbow.position = {0, 100}
  quad(hand, {150, 250, 250, 250, 250, 350, 150, 350}, "the hand follows the elbow")
end, S400)
