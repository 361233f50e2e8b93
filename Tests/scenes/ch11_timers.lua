-- Chapter 11.1–11.2 (timer-based animation): listing 11.1 (NSTimer = ca.every, fixed
-- 1/60 s increments), listing 11.2 (CADisplayLink = ca.displayLink, measured frame
-- duration via CACurrentMediaTime = ca.mediaTime), frameInterval, dropped frames,
-- display-link fields, pause/invalidate, callback errors, and the README's example
-- scene (examples/bounce.lua) rebuilt inline so the tests stay self-contained.
-- Spec: shared/spec/book-ch10-15.md §1.2.1–1.2.6, §2 "Chapter 11" (11.1, 11.2), §4 F15–F19.
-- Convention: the clock starts at 0; ca.step(0) commits the scene.
local ca = require "caluna"
local T = require "caluna.test"

local white, red = "#ffffff", "#ff0000"
local bounceEaseOut = ca.easing.bounceEaseOut

-- Listing 10.7's interpolate helper is ca.interpolate (its own copy is tested in ch10).
local interpolate = ca.interpolate

-- y of the book's ball after `elapsed` seconds of bounceEaseOut, 32 → 268 in 1 s.
local function ballY(elapsed) return 32 + 236 * bounceEaseOut(math.min(elapsed, 1)) end

-- The 11.1(a) tick table: ball y after k fires at 60 Hz.
local tickTable = { { 1, 32.496 }, { 10, 81.576 }, { 20, 230.306 }, { 22, 265.660 }, { 30, 201.625 },
                    { 33, 197.244 }, { 40, 228.667 }, { 44, 265.124 }, { 50, 247.865 }, { 54, 268.000 },
                    { 60, 268.000 } }

local function ballScene()
  ca.root.backgroundColor = white
  -- The book's ball is an image view: view-backed, so no implicit animations.
  local ball = ca.Layer{ bounds = { 0, 0, 32, 32 }, position = { 150, 32 }, backgroundColor = red,
                         delegate = ca.ViewDelegate }
  ca.root:addSublayer(ball)
  ca.step(0)
  return ball
end

-- Listing 11.1: animate starts an NSTimer of 1/60 s; step adds a fixed 1/60 s.
local function timerBounce(ball)
  local s = { duration = 1.0, timeOffset = 0.0, fromValue = { 150, 32 }, toValue = { 150, 268 }, fires = {} }
  s.timer = ca.every(1 / 60.0, function(timer)
    s.timeOffset = math.min(s.timeOffset + 1 / 60.0, s.duration)
    local time = s.timeOffset / s.duration
    time = bounceEaseOut(time)
    local position = interpolate(s.fromValue, s.toValue, time)
    ball.position = position
    s.fires[#s.fires + 1] = { t = ca.mediaTime(), y = position.y, keys = #ball:animationKeys(),
                              valid = timer.valid }
    if s.timeOffset >= s.duration then
      timer:invalidate()
      s.timer = nil
    end
  end)
  s.handle = s.timer
  return s
end

-- Listing 11.2: the same with a display link and the measured step duration.
local function displayLinkBounce(ball, configure)
  local s = { duration = 1.0, timeOffset = 0.0, fromValue = { 150, 32 }, toValue = { 150, 268 }, calls = {} }
  s.lastStep = ca.mediaTime()
  s.t0 = s.lastStep
  s.link = ca.displayLink(function(link)
    local thisStep = ca.mediaTime()
    local stepDuration = thisStep - s.lastStep
    s.lastStep = thisStep
    s.timeOffset = math.min(s.timeOffset + stepDuration, s.duration)
    local time = s.timeOffset / s.duration
    time = bounceEaseOut(time)
    local position = interpolate(s.fromValue, s.toValue, time)
    ball.position = position
    s.calls[#s.calls + 1] = { t = thisStep, y = position.y }
    if s.timeOffset >= s.duration then
      link:invalidate()
      s.link = nil
    end
  end)
  s.handle = s.link
  if configure then configure(s.link) end
  return s
end

---------------------------------------------------------------------------
-- Listing 11.1: NSTimer

T.test("11.1(a) NSTimer at 60 Hz host steps: the tick table, one fire per frame at k/60", function()
  local ball = ballScene()
  local s = timerBounce(ball)
  T.eq(s.handle.interval, 1 / 60)
  T.eq(s.handle.repeats, true)
  T.near(s.handle.fireDate, 1 / 60, 1e-12)
  local ys = {}
  for k = 1, 60 do
    ca.step(1 / 60)
    T.eq(#s.fires, k, "one fire per 1/60 s frame")
    T.near(s.fires[k].t, k / 60, 1e-12, "fire " .. k .. " time")
    T.near(s.fires[k].y, ballY(k / 60), 1e-9, "fire " .. k)
    T.eq(ball.position.y, s.fires[k].y)
    ys[k] = s.fires[k].y
  end
  for _, row in ipairs(tickTable) do
    T.near(ys[row[1]], row[2], 1e-3, "y after " .. row[1] .. " fires")
  end
end, { size = { 300, 300 } })

T.test("11.1(a) the MIN clamp ends on the 60th fire; invalid after it, no 61st fire", function()
  local ball = ballScene()
  local s = timerBounce(ball)
  for _ = 1, 59 do ca.step(1 / 60) end
  T.truthy(s.handle.valid, "still valid after 59 fires")
  T.truthy(s.timeOffset < 1)
  ca.step(1 / 60)
  T.eq(#s.fires, 60)
  -- 60 additions of 1/60 give 1.0000000000000013; MIN clamps to exactly 1.0.
  T.eq(s.timeOffset, 1.0)
  T.near(ball.position.y, 268, 1e-9)
  T.falsy(s.handle.valid, "invalid after the 60th fire")
  T.eq(s.timer, nil)
  for _ = 1, 30 do ca.step(1 / 60) end
  T.eq(#s.fires, 60, "no 61st fire")
  T.near(ball.position.y, 268, 1e-9)
  -- The accumulation the clamp hides.
  local sum = 0
  for _ = 1, 60 do sum = sum + 1 / 60.0 end
  T.truthy(sum > 1.0)
end, { size = { 300, 300 } })

T.test("11.1(b) 30 Hz host steps: missed fire dates coalesce, the animation takes 2.0 s", function()
  local ball = ballScene()
  local s = timerBounce(ball)
  for k = 1, 60 do
    ca.step(1 / 30)
    T.eq(#s.fires, k, "exactly one fire per 1/30 s frame")
    T.near(s.fires[k].t, k / 30, 1e-12)
    if k == 1 then
      -- Due at 1/60, fired at 2/60; the next fire date is the first after the frame.
      T.near(s.handle.fireDate, 3 / 60, 1e-12)
    end
    if k == 30 then
      T.near(ca.mediaTime(), 1.0, 1e-12)
      T.near(ball.position.y, 201.625, 1e-3, "only half-way (k = 30 of the tick table) after 1 s")
      T.truthy(s.handle.valid)
    end
  end
  T.near(ca.mediaTime(), 2.0, 1e-12)
  T.falsy(s.handle.valid, "finished after 2.0 s of virtual time")
  T.near(ball.position.y, 268, 1e-9)
  for _ = 1, 10 do ca.step(1 / 30) end
  T.eq(#s.fires, 60)
end, { size = { 300, 300 } })

T.test("11.1(c) timer-driven model changes make no implicit animations", function()
  local ball = ballScene()
  local s = timerBounce(ball)
  for k = 1, 60 do
    ca.step(1 / 60)
    T.eq(s.fires[k].keys, 0, "inside fire " .. k)
    T.eq(#ball:animationKeys(), 0, "after frame " .. k)
    T.eq(ball:presentation().position, ball.position, "the presentation is the model at frame " .. k)
  end
end, { size = { 300, 300 } })

---------------------------------------------------------------------------
-- Listing 11.2: CADisplayLink with the measured step

T.test("11.2 display link at 60 Hz: measured deltas match 11.1(a), 60 callbacks", function()
  local ball = ballScene()
  local s = displayLinkBounce(ball)
  for k = 1, 70 do ca.step(1 / 60) end
  T.eq(#s.calls, 60)
  for k, c in ipairs(s.calls) do
    T.near(c.t, k / 60, 1e-12)
    T.near(c.y, ballY(c.t - s.t0), 1e-9, "callback " .. k)
  end
  for _, row in ipairs(tickTable) do
    T.near(s.calls[row[1]].y, row[2], 1e-3, "y after " .. row[1] .. " callbacks")
  end
  T.eq(s.timeOffset, 1.0)
  T.falsy(s.handle.valid)
  T.near(ball:presentation().position.y, 268, 1e-9)
  T.eq(#ball:animationKeys(), 0)
end, { size = { 300, 300 } })

T.test("11.2 at 30 Hz host steps: 30 callbacks, finished at exactly T0 + 1.0", function()
  for _, t0 in ipairs{ 0, 0.5, 12.345 } do
    ca.reset{ size = { 300, 300 } }
    local ball = ballScene()
    ca.advance(t0)
    local s = displayLinkBounce(ball)
    T.eq(s.t0, t0)
    for _ = 1, 40 do ca.step(1 / 30) end
    T.eq(#s.calls, 30, "T0 = " .. t0)
    T.eq(s.calls[30].t, t0 + 1.0, "the last callback is at T0 + 1.0 exactly")
    T.eq(s.timeOffset, 1.0)
    T.falsy(s.handle.valid)
    for k, c in ipairs(s.calls) do
      T.near(c.y, ballY(c.t - t0), 1e-9, "T0 = " .. t0 .. ", callback " .. k)
    end
    T.near(s.calls[15].y, ballY(0.5), 1e-9)
  end
end, { size = { 300, 300 } })

T.test("11.2 frameInterval 2 at 60 Hz: 30 callbacks, finished at exactly T0 + 1.0", function()
  local ball = ballScene()
  local s = displayLinkBounce(ball, function(link) link.frameInterval = 2 end)
  T.eq(s.handle.frameInterval, 2)
  for _ = 1, 80 do ca.step(1 / 60) end
  T.eq(#s.calls, 30)
  T.eq(s.calls[1].t, 2 / 60)
  T.eq(s.calls[30].t, 1.0)
  T.eq(s.timeOffset, 1.0)
  T.near(ball.position.y, 268, 1e-9)
end, { size = { 300, 300 } })

T.test("F17 frameInterval 1, 2, 3 → 60, 30, 20 callbacks a second; preferredFramesPerSecond", function()
  local counts, links = {}, {}
  for i, fi in ipairs{ 1, 2, 3 } do
    counts[i] = 0
    links[i] = ca.displayLink(function() counts[i] = counts[i] + 1 end)
    if fi ~= 1 then links[i].frameInterval = fi end
  end
  T.eq(links[1].frameInterval, 1, "the default is 1")
  T.eq(links[1].preferredFramesPerSecond, 0, "the default is 0: every frame")
  local rateCount = 0
  local rate = ca.displayLink(function() rateCount = rateCount + 1 end)
  rate.preferredFramesPerSecond = 20
  T.eq(rate.preferredFramesPerSecond, 20)
  for _ = 1, 60 do ca.step(1 / 60) end
  T.eq(counts, { 60, 30, 20 })
  T.eq(rateCount, 20, "preferredFramesPerSecond = 20 at 60 Hz")
  for _ = 1, 60 do ca.step(1 / 60) end
  T.eq(counts, { 120, 60, 40 })
end)

T.test("11.2 irregular host steps: y depends only on the elapsed time", function()
  local ball = ballScene()
  local s = displayLinkBounce(ball)
  local steps = { 0.016, 0.050, 0.017, 0.1, 0.033, 0.008, 0.2, 0.0125, 0.07 }
  local n = 0
  while s.handle.valid and n < 200 do
    n = n + 1
    ca.step(steps[(n - 1) % #steps + 1])
    local c = s.calls[#s.calls]
    T.eq(#s.calls, n, "one callback per host frame")
    T.near(c.y, ballY(c.t - s.t0), 1e-9, "callback " .. n .. " at " .. c.t)
    T.eq(ball.position.y, c.y)
  end
  T.truthy(ca.mediaTime() >= 1.0 and ca.mediaTime() - steps[(n - 1) % #steps + 1] < 1.0,
           "finished on the first frame at or past 1 s")
  T.near(ball.position.y, 268, 1e-9)
end, { size = { 300, 300 } })

T.test("F18 a host jump of 5/60 s gives one callback (dropped frames are skipped)", function()
  local ball = ballScene()
  local s = displayLinkBounce(ball)
  ca.step(1 / 60)
  ca.step(5 / 60)
  T.eq(#s.calls, 2)
  T.near(s.handle.duration, 5 / 60, 1e-12)
  T.near(s.calls[2].y, ballY(6 / 60), 1e-9, "the measured step covers the whole jump")
end, { size = { 300, 300 } })

T.test("display link timestamp, targetTimestamp and duration", function()
  ca.step(0)
  ca.advance(0.5)
  local seen = {}
  local link = ca.displayLink(function(l)
    seen[#seen + 1] = { l.timestamp, l.targetTimestamp, l.duration, ca.mediaTime() }
  end)
  T.eq(link.timestamp, 0.5, "before the first callback: the time it was made")
  T.eq(link.valid, true)
  T.eq(link.paused, false)
  ca.step(1 / 60)
  ca.step(1 / 60)
  ca.step(1 / 30)
  T.eq(#seen, 3)
  local t1, t2, t3 = 0.5 + 1 / 60, 0.5 + 2 / 60, 0.5 + 4 / 60
  T.near(seen[1], { 0.5, t1, 1 / 60, t1 }, 1e-12, "first callback")
  T.near(seen[2], { t1, t2, 1 / 60, t2 }, 1e-12, "second callback")
  T.near(seen[3], { t2, t3, 2 / 60, t3 }, 1e-12, "third callback, after a 1/30 s frame")
  for i, v in ipairs(seen) do
    T.eq(v[2], v[4], "targetTimestamp = ca.mediaTime() in callback " .. i)
    T.eq(v[3], v[2] - v[1], "duration = targetTimestamp − timestamp in callback " .. i)
  end
  T.near(link.timestamp, t2, 1e-12, "read outside the callback")
  T.near(link.targetTimestamp, t3, 1e-12)
  T.eq(ca.mediaTime(), ca.currentMediaTime())
end)

T.test("display link paused: no callbacks while paused, resumes at the next frame", function()
  local calls = 0
  local link = ca.displayLink(function() calls = calls + 1 end)
  for _ = 1, 3 do ca.step(1 / 60) end
  link.paused = true
  T.eq(link.paused, true)
  for _ = 1, 10 do ca.step(1 / 60) end
  T.eq(calls, 3)
  T.truthy(link.valid, "a paused link stays valid")
  link.paused = false
  ca.step(1 / 60)
  T.eq(calls, 4)
  T.near(link.targetTimestamp, 14 / 60, 1e-12)
  T.raises(function() link.paused = 1 end, "boolean")
end)

T.test("invalidate inside its own callback: no further calls; the others still run", function()
  local calls, other = 0, 0
  local link
  link = ca.displayLink(function(l)
    calls = calls + 1
    if calls == 3 then l:invalidate() end
  end)
  local second = ca.displayLink(function() other = other + 1 end)
  for _ = 1, 10 do ca.step(1 / 60) end
  T.eq(calls, 3)
  T.eq(other, 10)
  T.falsy(link.valid)
  T.truthy(second.valid)
  link:invalidate() -- twice is harmless
  ca.step(1 / 60)
  T.eq(calls, 3)
end)

T.test("callbacks receive the very link or timer ca.displayLink / ca.every returned (CADisplayLink and NSTimer pass themselves)", function()
  local link, got, timer, gotTimer
  link = ca.displayLink(function(l) got = l end)
  timer = ca.every(1 / 60, function(t) gotTimer = t end)
  ca.step(1 / 60)
  T.eq(got.valid, true)
  T.eq(gotTimer.interval, 1 / 60)
  T.truthy(rawequal(got, link) and rawequal(gotTimer, timer),
           "display link the same: " .. tostring(rawequal(got, link)) .. ", timer the same: " .. tostring(rawequal(gotTimer, timer)))
end)

T.test("timers and display links fire in the order they were made", function()
  local order = {}
  ca.displayLink(function() order[#order + 1] = "link" end)
  ca.every(1 / 60, function() order[#order + 1] = "timer" end)
  local once = ca.after(1 / 60, function() order[#order + 1] = "once" end)
  T.eq(once.repeats, false)
  ca.step(1 / 60)
  T.falsy(once.valid, "a one-shot timer is done after it fired")
  ca.step(1 / 60)
  T.eq(table.concat(order, " "), "link timer once link timer")
end)

---------------------------------------------------------------------------
-- Errors

T.test("ca.every(0, fn) and ca.every(-1, fn) raise", function()
  local fn = function() end
  T.raises(function() ca.every(0, fn) end, "above 0")
  T.raises(function() ca.every(-1, fn) end, "not negative")
  T.raises(function() ca.every(0 / 0, fn) end, "finite")
  T.raises(function() ca.every(1 / 60, "fn") end, "function")
end)

T.test("ca.every errors name the API (docs/lua.md: misuse names the API)", function()
  local fn = function() end
  T.raises(function() ca.every(0, fn) end, "ca.every")
  T.raises(function() ca.every(-1, fn) end, "ca.every")
end)

T.test("ca.displayLink(\"x\") and bad link fields raise", function()
  T.raises(function() ca.displayLink("x") end, "ca.displayLink")
  T.raises(function() ca.displayLink("x") end, "function")
  local link = ca.displayLink(function() end)
  T.raises(function() link.frameInterval = 0 end, "frameInterval")
  T.raises(function() link.frameInterval = 1.5 end, "frameInterval")
  T.raises(function() link.preferredFramesPerSecond = -1 end, "preferredFramesPerSecond")
  T.raises(function() link.duration = 1 end, "cannot be set")
  T.raises(function() return link.nope end, "no field 'nope'")
  T.eq(link.frameInterval, 1, "unchanged by the failed assignments")
end)

T.test("a Lua error inside a display-link callback reaches ca.step with file:line; the engine keeps working", function()
  local calls, other, line = 0, 0, nil
  ca.displayLink(function()
    calls = calls + 1
    if calls == 2 then
      line = debug.getinfo(1, "l").currentline + 1
      error("the ball fell through the floor")
    end
  end)
  ca.displayLink(function() other = other + 1 end)
  ca.step(1 / 60)
  local msg = T.raises(function() ca.step(1 / 60) end, "the ball fell through the floor")
  T.truthy(msg:find("ch11_timers.lua:" .. line .. ":", 1, true), "file:line in " .. msg)
  T.eq(other, 2, "the other callback still ran in that frame")
  T.near(ca.mediaTime(), 2 / 60, 1e-12, "the frame completed")
  ca.step(1 / 60)
  T.eq(calls, 3, "the failing link still runs")
  T.eq(other, 3)
  local L = ca.Layer{ frame = { 0, 0, 10, 10 }, backgroundColor = red }
  ca.root:addSublayer(L)
  T.pixel(ca.render(), 5, 5, red)
end)

T.test("ca.step, ca.advance and ca.render inside a callback raise", function()
  local which = "step"
  local link = ca.displayLink(function()
    if which == "step" then ca.step(1 / 60)
    elseif which == "advance" then ca.advance(10)
    else ca.render() end
  end)
  T.raises(function() ca.step(1 / 60) end, "step cannot be called from inside a callback")
  which = "advance"
  T.raises(function() ca.step(1 / 60) end, "inside a callback")
  which = "render"
  T.raises(function() ca.step(1 / 60) end, "inside a callback")
  link:invalidate()
  ca.step(1 / 60)
  T.near(ca.mediaTime(), 4 / 60, 1e-12, "only the host's steps moved the clock")
end)

---------------------------------------------------------------------------
-- The README's example scene (examples/bounce.lua), rebuilt here: three balls in a
-- 480×320 scene, dropped again every 1.5 s by a timer. Left: listing 10.6's keyframes;
-- middle: 10.8's bounceEaseOut keyframes, fixed (i = 0…60, model at the end);
-- right: listing 11.2's display link.

local function bounceExample()
  local w = ca.size()
  local top, bottom, size = 32, 268, 32
  ca.root.backgroundColor = "#f2efe8"
  ca.root:addSublayer(ca.Layer{ frame = { 0, bottom + size / 2, w, 36 }, backgroundColor = "#d8d0c0" })
  local function ball(x, colour)
    local l = ca.Layer{ bounds = { 0, 0, size, size }, position = { x, top }, backgroundColor = colour,
                        delegate = ca.ViewDelegate }
    ca.root:addSublayer(l)
    return l
  end
  local left, middle, right = ball(w / 6, "crimson"), ball(w / 2, "#1f4e9c"), ball(w * 5 / 6, "#2e8b57")
  local link
  local function drop()
    local values = {}
    for i, y in ipairs{ 32, 268, 140, 268, 220, 268, 250, 268 } do values[i] = { left.position.x, y } end
    local easeIn, easeOut = ca.MediaTimingFunction("easeIn"), ca.MediaTimingFunction("easeOut")
    left.position = { left.position.x, bottom }
    left:addAnimation(ca.KeyframeAnimation{ keyPath = "position", duration = 1.0, values = values,
      timingFunctions = { easeIn, easeOut, easeIn, easeOut, easeIn, easeOut, easeIn },
      keyTimes = { 0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0 } }, "bounce")
    local frames = {}
    for i = 0, 60 do frames[#frames + 1] = { middle.position.x, top + (bottom - top) * bounceEaseOut(i / 60) } end
    middle.position = { middle.position.x, bottom }
    middle:addAnimation(ca.KeyframeAnimation{ keyPath = "position", duration = 1.0, values = frames }, "bounce")
    local x, duration, timeOffset, lastStep = right.position.x, 1.0, 0, ca.mediaTime()
    if link then link:invalidate() end
    right.position = { x, top }
    link = ca.displayLink(function(l)
      local thisStep = ca.mediaTime()
      timeOffset = math.min(timeOffset + (thisStep - lastStep), duration)
      lastStep = thisStep
      right.position = { x, top + (bottom - top) * bounceEaseOut(timeOffset / duration) }
      if timeOffset >= duration then l:invalidate(); link = nil end
    end)
  end
  drop()
  ca.every(1.5, drop)
  return left, middle, right
end

T.test("README example (examples/bounce.lua, rebuilt inline): three balls, dropped again every 1.5 s", function()
  local left, middle, right = bounceExample()
  local expectedLeft = { [0] = 32, [0.3] = 268, [0.5] = 140, [0.8] = 220, [0.95] = 250 }
  -- Step as `caluna run --fps 30` does: frame i at i/30.
  for i = 0, 90 do
    ca.advance(i / 30)
    local t = i / 30
    local phase = t - 1.5 * math.floor(t / 1.5 + 1e-9)
    phase = math.max(phase, 0)
    local l, m, r = left:presentation().position, middle:presentation().position, right:presentation().position
    T.eq({ l.x, m.x, r.x }, { 80, 240, 400 }, "side by side")
    local want = ballY(phase)
    T.near(m.y, want, 1e-9, "middle ball at " .. t)
    T.near(r.y, want, 1e-9, "right ball at " .. t)
    for key, y in pairs(expectedLeft) do
      if math.abs(phase - key) < 1e-9 then T.near(l.y, y, 1e-9, "left ball at " .. t) end
    end
    if phase >= 1.0 then
      T.near({ l.y, m.y, r.y }, { 268, 268, 268 }, 1e-9, "all resting at " .. t)
    end
  end
end, { size = { 480, 320 } })

T.test("README example (rebuilt inline): golden at t = 0.5", function()
  bounceExample()
  for i = 1, 15 do ca.advance(i / 30) end
  local img = ca.render()
  T.pixel(img, 80, 140, "crimson")
  T.pixel(img, 240, ballY(0.5), "#1f4e9c")
  T.pixel(img, 400, ballY(0.5), "#2e8b57")
  T.pixel(img, 240, 32, "#f2efe8")
  T.golden(img, "ch11/bounce_example_t050")
end, { size = { 480, 320 } })
