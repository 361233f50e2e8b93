-- Chapter 6, listing 6.10: CAScrollLayer — scrolling is setting bounds.origin, nothing
-- else (no clamping, no input handling); CALayer's scrolling category (scrollPoint,
-- scrollRectToVisible, visibleRect); scrollMode; hostile input.
-- Spec: shared/spec/book-ch05-06.md §2.9, §3 listing 6.10 (T6.10) and the unnumbered
-- scrolling category, §4 F58–F62.
local ca = require "caluna"
local T = require "caluna.test"

local red, green, blue, yellow, black = "#ff0000", "#00ff00", "#0000ff", "#ffff00", "#000000"
local S100 = { size = {100, 100} }

-- Scroll layer 100×100 at (0, 0), masksToBounds; content 300×300 in quadrants split at 150.
local function scrollScene()
  ca.root.backgroundColor = black
  local s = ca.ScrollLayer{ frame = {0, 0, 100, 100}, masksToBounds = true }
  local content = ca.Layer{ frame = {0, 0, 300, 300} }
  for _, q in ipairs{ {0, 0, red}, {150, 0, green}, {0, 150, blue}, {150, 150, yellow} } do
    content:addSublayer(ca.Layer{ frame = {q[1], q[2], 150, 150}, backgroundColor = q[3] })
  end
  s:addSublayer(content)
  -- No bounds action: pictures right after each scroll (the listing's layer backs a view,
  -- whose layers do not animate implicitly; see the last tests for the default).
  s.actions = { bounds = ca.null }
  ca.root:addSublayer(s)
  ca.render()
  return s, content
end

T.test("T6.10 scrollToPoint sets bounds.origin only; the frame stays (F59, F61)", function()
  local s = scrollScene()
  T.eq(s.className, "CAScrollLayer")
  T.eq(s.scrollMode, "both", "default")
  s:scrollToPoint{x = 100, y = 100}
  T.eq(s.bounds, {100, 100, 100, 100})
  T.eq(s.frame, {0, 0, 100, 100}, "frame unchanged")
  local img = ca.render()
  T.pixel(img, 10, 10, red, 0); T.pixel(img, 60, 10, green, 0)
  T.pixel(img, 10, 60, blue, 0); T.pixel(img, 60, 60, yellow, 0)
  s:scrollToPoint{150, 150}
  img = ca.render()
  for _, p in ipairs{ {0, 0}, {99, 0}, {0, 99}, {99, 99}, {50, 50} } do T.pixel(img, p[1], p[2], yellow, 0, "all yellow") end
end, S100)

T.test("T6.10 no clamping: scrolling past the content shows nothing (F60)", function()
  local s = scrollScene()
  s:scrollToPoint{1000, 1000}
  T.eq(s.bounds.x, 1000); T.eq(s.bounds.y, 1000)
  local img = ca.render()
  for _, p in ipairs{ {0, 0}, {50, 50}, {99, 99} } do T.pixel(img, p[1], p[2], black, 0) end
  s:scrollToPoint{-50, -50}
  T.eq(s.bounds, {-50, -50, 100, 100}, "negative origins too")
  T.pixel(ca.render(), 60, 60, red, 0)
  T.pixel(ca.render(), 10, 10, black, 0)
end, S100)

T.test("T6.10 a simulated pan: offset = origin − translation", function()
  local s = scrollScene()
  s:scrollToPoint{100, 100}
  local translation = {x = -30, y = -20}
  local offset = {x = s.bounds.x - translation.x, y = s.bounds.y - translation.y}
  s:scrollToPoint(offset)
  T.eq(s.bounds, {130, 120, 100, 100})
  -- a pan of several steps adds up
  for _ = 1, 3 do s:scrollToPoint{s.bounds.x + 5, s.bounds.y - 5} end
  T.eq(s.bounds, {145, 105, 100, 100})
end, S100)

T.test("T6.10 content:scrollPoint scrolls the nearest scroll layer ancestor (F62)", function()
  local s, content = scrollScene()
  T.eq(content:scrollPoint{50, 60}, true)
  T.eq(s.bounds, {50, 60, 100, 100})
  -- from a deeper layer: its point is converted into the scroll layer's space
  local q = content.sublayers[4]   -- yellow, at (150, 150) in content
  q:scrollPoint{10, 20}
  T.eq(s.bounds, {160, 170, 100, 100})
  T.eq(ca.root:scrollPoint{1, 1}, false, "no scroll ancestor: nothing happens (Core Animation's no-op)")
  T.eq(s.bounds, {160, 170, 100, 100})
end, S100)

T.test("T6.10 visibleRect: the part not clipped by the scroll layer, in the layer's own coordinates", function()
  local s, content = scrollScene()
  s:scrollToPoint{150, 150}
  T.eq(content:visibleRect(), {150, 150, 100, 100})
  T.eq(content.sublayers[4]:visibleRect(), {0, 0, 100, 100}, "the yellow quadrant, in its own space")
  T.eq(content.sublayers[1]:visibleRect().width, 0, "the red quadrant is scrolled out")
  s:scrollToPoint{250, 250}
  T.eq(content:visibleRect(), {250, 250, 50, 50}, "clipped by the content's own bounds")
  T.eq(s:visibleRect(), s.bounds, "a layer with no scroll ancestor: its bounds")
end, S100)

T.test("T6.10 scrollMode vertically: scrollToPoint changes only y", function()
  local s = scrollScene()
  s:scrollToPoint{30, 30}
  s.scrollMode = "vertically"
  s:scrollToPoint{40, 70}
  T.eq(s.bounds.x, 30); T.eq(s.bounds.y, 70)
  s.scrollMode = "horizontally"
  s:scrollToPoint{40, 90}
  T.eq(s.bounds, {40, 70, 100, 100})
  s.scrollMode = "none"
  s:scrollToPoint{0, 0}
  T.eq(s.bounds, {40, 70, 100, 100})
end, S100)

T.test("scrollToRect and scrollRectToVisible: the smallest movement that shows the rect", function()
  local s, content = scrollScene()
  s:scrollToRect{20, 20, 30, 30}
  T.eq(s.bounds, {0, 0, 100, 100}, "already visible: no movement")
  s:scrollToRect{150, 40, 20, 20}
  T.eq(s.bounds, {70, 0, 100, 100}, "right edge brought to the right side, y unchanged")
  s:scrollToRect{10, 250, 10, 30}
  T.eq(s.bounds, {10, 180, 100, 100}, "left edge to the left side, bottom edge to the bottom")
  s:scrollToRect{0, 0, 200, 50}
  T.eq(s.bounds, {0, 0, 100, 100}, "wider than the bounds: its start edge")
  T.eq(content.sublayers[4]:scrollRectToVisible{100, 100, 20, 20}, true)   -- (250..270) in content
  T.eq(s.bounds, {170, 170, 100, 100})
  local v = content:visibleRect()
  T.truthy(v.x <= 250 and v.y <= 250 and v.x + v.width >= 270 and v.y + v.height >= 270, "the rect is now visible")
end, S100)

T.test("a scroll is a bounds change: it animates implicitly unless actions are disabled (Apple)", function()
  local s = scrollScene()
  s.actions = nil
  ca.step(0)
  s:scrollToPoint{100, 0}
  T.eq(s.bounds.x, 100, "the model changes at once")
  ca.flush()
  T.eq(#s:animationKeys(), 1, "the bounds action")
  ca.advance(1)
  T.pixel(ca.render(), 60, 10, green, 0, "after the animation")
end, S100)

T.test("hostile input: wrong kinds, NaN, huge values, missing arguments", function()
  local s, content = scrollScene()
  T.raises(function() content:scrollToPoint{1, 2} end, "not a CAScrollLayer")
  T.raises(function() content:scrollToRect{1, 2, 3, 4} end, "not a CAScrollLayer")
  T.raises(function() s:scrollToPoint{0 / 0, 1} end, "finite")
  T.raises(function() s:scrollToPoint{1e300, 1} end, "beyond the supported range")
  T.raises(function() s:scrollToPoint() end, "scrollToPoint")
  T.raises(function() s:scrollToRect{1, 2} end, "scrollToRect")
  T.raises(function() content:scrollPoint{1 / 0, 0} end, "finite")
  T.raises(function() content:scrollRectToVisible("x") end, "scrollRectToVisible")
  T.raises(function() s.scrollMode = "diagonally" end, "scrollMode must be one of")
  T.raises(function() ca.Layer().scrollMode = "both" end, "CAScrollLayer")
  T.raises(function() s:presentation():scrollToPoint{1, 1} end, "presentation")
  s:scrollToPoint{5, 5}
  T.eq(s.bounds, {5, 5, 100, 100}, "still usable")
end, S100)
