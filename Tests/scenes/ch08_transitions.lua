-- Chapter 8 transitions: CATransition on contents (L8.11), on a container whose sublayers
-- are swapped (L8.12), and the custom transition made from a renderInContext snapshot
-- (L8.14). Spec: shared/spec/book-ch07-09.md §1.12 (R-X1…R-X7), §1.14, "L8.11"–"L8.14",
-- facts 8-35…8-52. L8.13 is UIKit's flip (transitionWithView:), which has no
-- CATransition type: not tested (the spec marks it NO).
--
-- Conventions (spec §2): a scene is built and committed with ca.step(0) (set-up before the
-- first commit never animates); the listing's change happens at t = 0.
local ca = require "caluna"
local T = require "caluna.test"

local red, blue, green, yellow = {1, 0, 0, 1}, {0, 0, 1, 1}, {0, 1, 0, 1}, {1, 1, 0, 1}
local half = {0.5, 0, 0.5, 1}
local opts = { size = {200, 200} }

-- A solid w × h image of `c` (the book's photos, replaced by fixed colours: spec §6 item 13).
local function solid(c, w, h)
  w, h = w or 4, h or 4
  local px = string.char(math.floor(c[1] * 255 + 0.5), math.floor(c[2] * 255 + 0.5),
                         math.floor(c[3] * 255 + 0.5), math.floor(c[4] * 255 + 0.5))
  return ca.Image.fromPixels(w, h, px:rep(w * h))
end

local function keys(l) return table.concat(l:animationKeys(), ",") end

-- The image view of L8.11: a 200 × 200 layer showing an image, committed.
local function imageView(image)
  local v = ca.Layer{ frame = {0, 0, 200, 200}, contents = image }
  ca.root:addSublayer(v)
  ca.step(0)
  return v
end

T.test("L8.11 a fade transition cross-fades contents; its key is always \"transition\" (8-38, 8-44)", function()
  local images = { solid(red), solid(blue), solid(green), solid(yellow) }
  local v = imageView(images[1])
  local t = ca.Transition()
  T.eq(t.type, "fade", "the default type is fade (8-38)")
  T.eq(t.duration, 0, "duration 0 means the transaction's 0.25 s")
  v:addAnimation(t)                        -- no key given
  T.eq(keys(v), "transition", "whatever the key, a transition is kept under \"transition\" (R-X2)")
  ca.transaction({ disableActions = true }, function() v.contents = images[2] end)
  ca.advance(0.125)
  local img = ca.render()
  T.pixel(img, 100, 100, half, 2, "half way: red and blue in equal parts")
  T.golden(img, "ch08/l811_fade_t0125")
  ca.advance(0.25)
  T.pixel(ca.render(), 100, 100, blue, 0, "at 0.25 s the new image")
  T.eq(keys(v), "", "removed when done")
  -- The book's button cycles through the four images: each switch fades the same way.
  for i = 3, 4 do
    local t0 = ca.mediaTime()
    v:addAnimation(ca.Transition(), "anything")
    ca.transaction({ disableActions = true }, function() v.contents = images[i] end)
    ca.advance(t0 + 0.125)
    local prev = images[i - 1]
    local a, b = { prev:pixel(0, 0) }, { images[i]:pixel(0, 0) }
    T.pixel(ca.render(), 100, 100, { (a[1] + b[1]) / 510, (a[2] + b[2]) / 510, (a[3] + b[3]) / 510, 1 }, 2,
            "image " .. (i - 1) .. " → " .. i)
    ca.advance(t0 + 0.25)
    T.pixel(ca.render(), 100, 100, i == 3 and green or yellow, 0)
  end
end, opts)

T.test("L8.11 implicit: setting contents on a standalone layer fades by itself (8-45, R-X4)", function()
  local v = imageView(solid(red))
  v.contents = solid(blue)                 -- actions on: the "contents" action is a fade
  T.eq(keys(v), "transition")
  ca.advance(0.125)
  T.pixel(ca.render(), 100, 100, half, 2)
  ca.advance(0.25)
  T.pixel(ca.render(), 100, 100, blue, 0)
  -- A view-backed layer (UIImageView's) changes instantly outside an animation block.
  ca.reset(opts)
  v = imageView(solid(red))
  v.delegate = ca.ViewDelegate
  v.contents = solid(blue)
  T.eq(keys(v), "", "view-backed: no implicit transition (fact 7-26)")
  ca.step(0)
  T.pixel(ca.render(), 100, 100, blue, 0)
end, opts)

T.test("L8.11 type variants: old and new images in the expected halves at 0.125 s", function()
  -- Slides move by the layer's width; y down, so "fromTop" enters from the top edge.
  for _, case in ipairs{
    { "push", "fromLeft", { 50, 100, blue }, { 150, 100, red } },
    { "push", "fromRight", { 50, 100, red }, { 150, 100, blue } },
    { "push", "fromTop", { 100, 50, blue }, { 100, 150, red } },
    { "push", "fromBottom", { 100, 50, red }, { 100, 150, blue } },
    { "moveIn", "fromLeft", { 50, 100, blue }, { 150, 100, red } },
    { "reveal", "fromRight", { 50, 100, red }, { 150, 100, blue } },
    { "moveIn", nil, { 50, 100, blue }, { 150, 100, red } },   -- nil subtype: from the left
  } do
    ca.reset(opts)
    local v = imageView(solid(red))
    v.masksToBounds = true
    ca.step(0)
    v:addAnimation(ca.Transition{ type = case[1], subtype = case[2] })
    ca.transaction({ disableActions = true }, function() v.contents = solid(blue) end)
    ca.advance(0.125)
    local img = ca.render()
    local what = case[1] .. " " .. tostring(case[2])
    for i = 3, 4 do T.pixel(img, case[i][1], case[i][2], case[i][3], 2, what) end
    if case[1] == "push" and case[2] == "fromLeft" then T.golden(img, "ch08/l811_push_t0125") end
  end
end, opts)

-- L8.12: the tab bar's view. The transition goes on the container, which stays in the tree
-- while its children are swapped (8-46, 8-47, R-X5).
local function container()
  local c = ca.Layer{ frame = {0, 0, 200, 200} }
  local a = ca.Layer{ frame = {0, 0, 200, 200}, backgroundColor = red, name = "A" }
  c:addSublayer(a)
  ca.root:addSublayer(c)
  ca.step(0)
  return c, a
end

T.test("L8.12 a fade on the container cross-fades swapped sublayers (8-46)", function()
  local c, a = container()
  local b = ca.Layer{ frame = {0, 0, 200, 200}, backgroundColor = blue, name = "B" }
  c:addAnimation(ca.Transition{ type = "fade" })
  a:removeFromSuperlayer()
  c:addSublayer(b)
  ca.advance(0.125)
  local img = ca.render()
  T.pixel(img, 100, 100, half, 2, "the old tab fades into the new one")
  T.golden(img, "ch08/l812_tabs_t0125")
  ca.advance(0.25)
  T.pixel(ca.render(), 100, 100, blue, 0)
  T.eq(#c.sublayers, 1)
  T.eq(c.sublayers[1].name, "B")
end, opts)

T.test("L8.12 negative: a transition on the removed layer goes with it (8-47, R-A4)", function()
  local c, a = container()
  local b = ca.Layer{ frame = {0, 0, 200, 200}, backgroundColor = blue }
  a:addAnimation(ca.Transition{ type = "fade" })
  T.eq(keys(a), "transition")
  a:removeFromSuperlayer()
  T.eq(keys(a), "", "removing a layer removes its animations")
  c:addSublayer(b)
  ca.step(0)
  T.pixel(ca.render(), 100, 100, blue, 0, "no transition: the new tab at once")
end, opts)

T.test("L8.12 push on the container slides the whole subtree", function()
  local c, a = container()
  c.masksToBounds = true
  local b = ca.Layer{ frame = {0, 0, 200, 200}, backgroundColor = blue }
  b:addSublayer(ca.Layer{ frame = {80, 80, 40, 40}, backgroundColor = green })
  c:addAnimation(ca.Transition{ type = "push", subtype = "fromRight", timingFunction = "linear" })
  a:removeFromSuperlayer()
  c:addSublayer(b)
  ca.advance(0.125)
  local img = ca.render()
  T.pixel(img, 50, 100, red, 2, "the old tab leaves to the left")
  T.pixel(img, 150, 100, blue, 2, "the new tab arrives from the right")
  T.pixel(img, 198, 100, green, 2, "with its sublayer: (80…120) + 100 pt")
  T.pixel(img, 178, 100, blue, 2)
end, opts)

-- L8.14: snapshot the view (renderInContext), cover it with the snapshot, change the view,
-- then spin, shrink and fade the cover away in a UIView animation block of 1 s.
T.test("L8.14 custom transition from a renderInContext snapshot (8-51, 8-52)", function()
  local view = ca.Layer{ frame = {0, 0, 200, 200}, backgroundColor = red }
  view:addSublayer(ca.Layer{ frame = {20, 20, 40, 40}, backgroundColor = green })
  ca.root:addSublayer(view)
  ca.step(0)
  local before = ca.render()
  local snapshot = view:snapshot()
  T.eq(snapshot.width, 200); T.eq(snapshot.height, 200)
  local cover = ca.Layer{ frame = view.bounds, contents = snapshot, delegate = ca.ViewDelegate }
  ca.transaction({ disableActions = true }, function()
    view:addSublayer(cover)
    view.backgroundColor = blue
    view.sublayers[1].hidden = true
  end)
  -- UIKit animates a view added in the same run-loop turn from its values then; here the
  -- cover is committed first (set-up before a layer's first commit never animates, D19).
  ca.step(0)
  local completions = 0
  ca.animate(1.0, function()
    cover.affineTransform = ca.AffineTransform.scale(0.01, 0.01):rotate(math.pi / 2)
    cover.opacity = 0
  end, function(finished)
    completions = completions + 1
    T.eq(finished, true)
    cover:removeFromSuperlayer()
  end)
  ca.step(0)
  local n = ca.render():compare(before)
  T.eq(n, 0, "after the change the frame is the old one: the cover shows the snapshot")
  ca.advance(0.5)
  local p = cover:presentation()
  T.near(p.opacity, 0.5, 1e-9, "easeInEaseOut at half time is half way")
  T.near(p:valueForKeyPath("transform.scale.x"), 0.505, 1e-9)
  T.near(p:valueForKeyPath("transform.rotation.z"), math.pi / 4, 1e-9)
  local img = ca.render()
  T.pixel(img, 5, 5, blue, 0, "the corner of the new view shows around the shrinking cover")
  T.pixel(img, 100, 100, half, 2, "the centre: half the red snapshot over blue")
  T.golden(img, "ch08/l814_custom_t05")
  ca.advance(1.0)
  T.eq(completions, 1, "the completion ran once")
  T.eq(#view.sublayers, 1, "the cover was removed")
  local done = ca.render()
  T.pixel(done, 100, 100, blue, 0); T.pixel(done, 5, 5, blue, 0); T.pixel(done, 195, 195, blue, 0)
  T.pixel(done, 40, 40, blue, 0, "the hidden sublayer stays hidden")
end, opts)

T.test("L8.14 the snapshot holds model values, not animated ones (renderInContext, §1.14)", function()
  local view = ca.Layer{ frame = {0, 0, 200, 200}, backgroundColor = red }
  ca.root:addSublayer(view)
  ca.step(0)
  ca.transaction({ timingFunction = "linear" }, function()
    view.backgroundColor = blue            -- implicit fade from red, 0.25 s
  end)
  ca.advance(0.125)
  local shown = ca.render()
  T.pixel(shown, 100, 100, half, 2, "on screen: half way")
  local r, g, b = view:snapshot():pixel(100, 100)
  T.eq({ r, g, b }, { 0, 0, 255 }, "the snapshot renders the model: blue")
end, opts)
