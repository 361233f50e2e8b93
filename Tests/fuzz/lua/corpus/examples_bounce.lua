-- Three bouncing balls, the book's three ways to ease (chapters 10 and 11), side by side:
--   left:   listing 10.6, a keyframe animation with keyTimes and alternating easeIn/easeOut;
--   middle: listing 10.8, keyframes generated with the book's bounceEaseOut ("fixed"
--           variant of erratum E8: frames i = 0…60 and the model set to the end, so the
--           ball does not snap back to the top);
--   right:  listing 11.2, a display link that moves the ball by the measured frame time.
-- Every 1.5 s a timer drops all three again, so a multi-frame render shows the motion.
-- Render: caluna run examples/bounce.lua -o out/bounce/ --frames 90 --size 480x320 --scale 2
local ca = require "caluna"

local w = ca.size()
local top, bottom, size = 32, 268, 32     -- the book's ball centres: y from 32 to 268
ca.root.backgroundColor = "#f2efe8"
ca.root:addSublayer(ca.Layer { frame = { 0, bottom + size / 2, w, 36 }, backgroundColor = "#d8d0c0", name = "floor" })

-- The book's balls are image views: view-backed layers (ca.ViewDelegate) have no
-- implicit animations, so the timer and display link below move them directly.
local function ball(name, x, colour)
  local l = ca.Layer { name = name, bounds = { 0, 0, size, size }, position = { x, top }, backgroundColor = colour,
                       delegate = ca.ViewDelegate }
  ca.root:addSublayer(l)
  return l
end
local left = ball("keyframes 10.6", w / 6, "crimson")
local middle = ball("bounceEaseOut 10.8", w / 2, "#1f4e9c")
local right = ball("display link 11.2", w * 5 / 6, "#2e8b57")

-- Listing 10.6: eight keyframes, uneven keyTimes, one timing function per segment.
local function keyframeBounce()
  local x = left.position.x
  local values = {}
  for i, y in ipairs { 32, 268, 140, 268, 220, 268, 250, 268 } do values[i] = { x, y } end
  local easeIn, easeOut = ca.MediaTimingFunction("easeIn"), ca.MediaTimingFunction("easeOut")
  left.position = { x, bottom }
  left:addAnimation(ca.KeyframeAnimation {
    keyPath = "position", duration = 1.0, values = values,
    timingFunctions = { easeIn, easeOut, easeIn, easeOut, easeIn, easeOut, easeIn },
    keyTimes = { 0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0 } }, "bounce")
end

-- Listing 10.8, fixed: 61 keyframes of bounceEaseOut, the model at the end value.
local function easedKeyframes()
  local x = middle.position.x
  local frames = {}
  for i = 0, 60 do frames[#frames + 1] = { x, top + (bottom - top) * ca.easing.bounceEaseOut(i / 60) } end
  middle.position = { x, bottom }
  middle:addAnimation(ca.KeyframeAnimation { keyPath = "position", duration = 1.0, values = frames }, "bounce")
end

-- Listing 11.2: a display link steps the ball by the measured frame duration.
local link
local function displayLinkBounce()
  local x, duration, timeOffset = right.position.x, 1.0, 0
  local lastStep = ca.mediaTime()
  if link then link:invalidate() end
  right.position = { x, top }
  link = ca.displayLink(function(l)
    local thisStep = ca.mediaTime()
    local stepDuration = thisStep - lastStep
    lastStep = thisStep
    timeOffset = math.min(timeOffset + stepDuration, duration)
    local time = ca.easing.bounceEaseOut(timeOffset / duration)
    right.position = { x, top + (bottom - top) * time }
    if timeOffset >= duration then l:invalidate(); link = nil end
  end)
end

local function drop()
  keyframeBounce()
  easedKeyframes()
  displayLinkBounce()
end

drop()
ca.every(1.5, drop)
