-- Chapter 9 (layer time): duration/repeatCount (L9.1), autoreverses and infinite repeats
-- (L9.2), speed and timeOffset (L9.3), scrubbing a paused layer (L9.4), and the derived
-- timing rules D8–D16: the fill matrix, didStart after a delay, hierarchical speed,
-- convertTime, pause/resume, autoreverse/fraction fills, repeatDuration, group time, keyTimes.
-- Spec: shared/spec/book-ch07-09.md §0.4, §1.15–1.17, §2 "Chapter 9", derived D8–D16, §5-1/§5-2.
--
-- Conventions (spec §2): the clock starts at 0; the scene is committed with ca.step(0),
-- the animation is added at t=0, then ca.advance(t) and the presentation is read.
-- The door (L9.2/L9.4) is checked through presentation values only: the container's
-- sublayerTransform perspective arrives with issue #7.
local ca = require "caluna"
local T = require "caluna.test"

local pi = math.pi
local blue, white = {0, 0, 1, 1}, {1, 1, 1, 1}
local EPS = 1e-6
local opts = { size = {300, 300} }

local function pres(L) return L:presentation() end
local function rot(L) return L:presentation():valueForKeyPath("transform.rotation.z") end
local function rotY(L) return L:presentation():valueForKeyPath("transform.rotation.y") end
local function px(L) return L:presentation():valueForKeyPath("position.x") end

-- A delegate that logs { kind = "start"|"stop", time = ca.mediaTime(), finished }.
local function recorder()
  local log = {}
  local d = { log = log }
  function d:animationDidStart() log[#log + 1] = { kind = "start", time = ca.mediaTime() } end
  function d:animationDidStop(_, finished)
    log[#log + 1] = { kind = "stop", time = ca.mediaTime(), finished = finished }
  end
  return d
end
local function events(d, kind)
  local out = {}
  for _, e in ipairs(d.log) do if e.kind == kind then out[#out + 1] = e end end
  return out
end

-- A plain coloured square at (150,150), committed at t=0.
local function square(pos)
  ca.root.backgroundColor = white
  local L = ca.Layer{ bounds = {0, 0, 64, 64}, position = pos or {150, 150}, backgroundColor = blue }
  ca.root:addSublayer(L)
  ca.step(0)
  return L
end

-- position.x from 0 to 100 on a layer whose model x is 200.
local function xAnimation(t)
  local a = ca.BasicAnimation{ keyPath = "position.x", fromValue = 0, toValue = 100, duration = 1 }
  for k, v in pairs(t or {}) do a[k] = v end
  return a
end

-- The book's path and the cubic itself (parametric reference values).
local function bookPath() return ca.Path():moveTo(0, 150):curveTo(75, 0, 225, 300, 300, 150) end
local function B(t)
  local s = 1 - t
  return { 3 * s * s * t * 75 + 3 * s * t * t * 225 + t * t * t * 300,
           s * s * s * 150 + 3 * s * t * t * 300 + t * t * t * 150 }
end

---------------------------------------------------------------------------------------------
-- L9.1 — duration and repeatCount.
---------------------------------------------------------------------------------------------

-- The listing's start: transform.rotation byValue 2π with the text fields' duration/repeatCount.
local function spin(L, duration, repeatCount, delegate, extra)
  local animation = ca.BasicAnimation()
  animation.keyPath = "transform.rotation"
  animation.duration = duration
  animation.repeatCount = repeatCount
  animation.byValue = 2 * pi
  animation.delegate = delegate
  for k, v in pairs(extra or {}) do animation[k] = v end
  L:addAnimation(animation, "rotateAnimation")
end

T.test("L9.1 duration 2 × repeatCount 3.5 ends at exactly 7 s (one advance 0 → 10)", function()
  local L = square()
  local d = recorder()
  spin(L, 2, 3.5, d)
  ca.advance(10)
  local s = events(d, "stop")
  T.eq(#s, 1, "one didStop")
  T.eq(s[1].time, 7, "ca.mediaTime() in didStop")
  T.eq(s[1].finished, true)
  T.eq(L:animationForKey("rotateAnimation"), nil)
  T.near(pres(L).transform, ca.Transform3D.identity, 1e-12)
end, opts)

T.test("L9.1 duration 2 × repeatCount 3.5: rotation at 5 and 6.5, still running at 6.999, gone at 7", function()
  local L = square()
  local d = recorder()
  spin(L, 2, 3.5, d)
  ca.advance(1)
  T.nearAngle(rot(L), pi, 1e-6, "t=1: half of the first turn")
  ca.advance(5)
  T.near(math.abs(rot(L)), pi, 1e-6, "t=5: 2.5 turns")
  ca.advance(6.5)
  T.nearAngle(rot(L), pi / 2, 1e-6, "t=6.5: 3.25 turns")
  ca.advance(6.999)
  T.eq(#events(d, "stop"), 0, "not yet at 6.999")
  T.truthy(L:animationForKey("rotateAnimation"))
  T.nearAngle(rot(L), pi * 6.999 % (2 * pi), 1e-6, "t=6.999")
  ca.advance(7)
  local s = events(d, "stop")
  T.eq(#s, 1); T.eq(s[1].time, 7)
  T.eq(L:animationForKey("rotateAnimation"), nil)
  T.near(pres(L).transform, ca.Transform3D.identity, 1e-12, "after 7: the model (identity)")
end, opts)

T.test("L9.1 duration 0, repeatCount 0 mean one 0.25 s iteration", function()
  local L = square()
  local d = recorder()
  spin(L, 0, 0, d)
  ca.advance(0.125)
  T.near(math.abs(rot(L)), pi, 1e-6, "half-way at 0.125")
  ca.advance(10)
  local s = events(d, "stop")
  T.eq(#s, 1); T.eq(s[1].time, 0.25)
end, opts)

T.test("L9.1 duration 1, repeatCount 0.5 stops at 0.5 s", function()
  local L = square()
  local d = recorder()
  spin(L, 1, 0.5, d)
  ca.advance(0.25)
  T.nearAngle(rot(L), pi / 2, 1e-6)
  ca.advance(10)
  local s = events(d, "stop")
  T.eq(#s, 1); T.eq(s[1].time, 0.5)
end, opts)

T.test("L9.1 fill forwards + removedOnCompletion NO: after 7 s the rotation stays at π", function()
  local L = square()
  local d = recorder()
  spin(L, 2, 3.5, d, { fillMode = "forwards", removedOnCompletion = false })
  ca.advance(10)
  local s = events(d, "stop")
  T.eq(#s, 1, "didStop still runs at the end"); T.eq(s[1].time, 7); T.eq(s[1].finished, true)
  T.truthy(L:animationForKey("rotateAnimation"), "still attached")
  T.near(math.abs(rot(L)), pi, 1e-6, "t=10: held at 3.5 turns = half a turn")
  ca.advance(100)
  T.near(math.abs(rot(L)), pi, 1e-6, "t=100")
  T.eq(L.transform, ca.Transform3D.identity, "the model never changed")
end, opts)

---------------------------------------------------------------------------------------------
-- L9.2 — the swinging door.
---------------------------------------------------------------------------------------------

local function doorScene()
  ca.root.backgroundColor = white
  local container = ca.Layer{ frame = {0, 0, 300, 300} }
  ca.root:addSublayer(container)
  local door = ca.Layer{ anchorPoint = {0, 0.5}, bounds = {0, 0, 128, 256}, position = {86, 150},
                         backgroundColor = blue }
  container:addSublayer(door)
  ca.step(0)
  return door
end

local function swing(door, timing, delegate)
  local animation = ca.BasicAnimation()
  animation.keyPath = "transform.rotation.y"
  animation.toValue = -pi / 2
  animation.duration = 2.0
  animation.autoreverses = true
  for k, v in pairs(timing) do animation[k] = v end
  animation.delegate = delegate
  door:addAnimation(animation, "door")
end

local function checkSwing(door, d)
  ca.flush()
  T.near(rotY(door), 0, EPS, "t=0")
  local expect = { {1, -pi / 4}, {2, -pi / 2}, {3, -pi / 4}, {4, 0}, {5, -pi / 4}, {6, -pi / 2}, {7, -pi / 4} }
  for _, e in ipairs(expect) do
    ca.advance(e[1])
    T.near(rotY(door), e[2], EPS, "t=" .. e[1])
  end
  ca.advance(1000)
  T.truthy(door:animationForKey("door"), "still attached at t=1000")
  T.near(rotY(door), 0, EPS, "t=1000: closed (an even number of seconds ×2)")
  ca.advance(1001)
  T.near(rotY(door), -pi / 4, EPS, "t=1001")
  T.eq(#events(d, "stop"), 0, "never a didStop")
  T.eq(#events(d, "start"), 1, "didStart once, at t=0")
  T.eq(events(d, "start")[1].time, 0)
  T.eq(door.transform, ca.Transform3D.identity, "the model door stays closed")
end

T.test("L9.2 autoreverses + repeatDuration ∞: opens and closes forever", function()
  local door = doorScene()
  local d = recorder()
  swing(door, { repeatDuration = math.huge }, d)
  checkSwing(door, d)
end, opts)

T.test("L9.2 repeatCount ∞ does the same", function()
  local door = doorScene()
  local d = recorder()
  swing(door, { repeatCount = math.huge }, d)
  checkSwing(door, d)
end, opts)

T.test("L9.2 autoreverses + repeatCount 2 ends at t=8 (4 × duration); fill forwards holds the start value", function()
  local door = doorScene()
  local d = recorder()
  swing(door, { repeatCount = 2, fillMode = "forwards", removedOnCompletion = false }, d)
  ca.advance(6)
  T.near(rotY(door), -pi / 2, EPS, "t=6: open in the second cycle")
  ca.advance(7)
  T.near(rotY(door), -pi / 4, EPS, "t=7: closing")
  ca.advance(7.999)
  T.eq(#events(d, "stop"), 0)
  ca.advance(20)
  local s = events(d, "stop")
  T.eq(#s, 1); T.eq(s[1].time, 8); T.eq(s[1].finished, true)
  T.near(rotY(door), 0, EPS, "filled with the end of an autoreversed cycle = the start value")
  T.truthy(door:animationForKey("door"))
end, opts)

T.test("L9.2 autoreverses + repeatCount 2 without fill: removed at t=8", function()
  local door = doorScene()
  swing(door, { repeatCount = 2 })
  ca.advance(7.5)
  T.near(rotY(door), -pi / 8, EPS, "t=7.5")
  ca.advance(8)
  T.eq(door:animationForKey("door"), nil)
  T.near(rotY(door), 0, EPS)
end, opts)

---------------------------------------------------------------------------------------------
-- L9.3 — speed and timeOffset.
---------------------------------------------------------------------------------------------

local function slide(speed, timeOffset, d)
  ca.root.backgroundColor = white
  local ship = ca.Layer{ bounds = {0, 0, 64, 64}, position = {0, 150}, backgroundColor = blue }
  ca.root:addSublayer(ship)
  ca.step(0)
  local animation = ca.KeyframeAnimation()
  animation.keyPath = "position"
  animation.timeOffset = timeOffset
  animation.speed = speed
  animation.duration = 1.0
  animation.path = bookPath()
  animation.rotationMode = "auto"
  animation.removedOnCompletion = false
  animation.delegate = d
  ship:addAnimation(animation, "slide")
  ca.flush()
  return ship
end

T.test("L9.3 speed 1, offset 0: (150,150) at 0.5; from t=1 the model, still attached", function()
  local d = recorder()
  local ship = slide(1, 0, d)
  T.near(pres(ship).position, {0, 150}, EPS, "t=0")
  ca.advance(0.5)
  T.near(pres(ship).position, {150, 150}, EPS, "t=0.5")
  T.near(rot(ship), 0.588003, 1e-6, "t=0.5: tangent")
  ca.advance(1)
  T.near(pres(ship).position, {0, 150}, EPS, "t=1: fill removed → model")
  T.near(rot(ship), 0, EPS)
  T.truthy(ship:animationForKey("slide"), "removedOnCompletion NO keeps it attached")
  T.eq(events(d, "stop")[1].time, 1)
  ca.advance(5)
  T.near(pres(ship).position, {0, 150}, EPS)
  T.truthy(ship:animationForKey("slide"))
end, opts)

T.test("L9.3 speed 1, offset 0.5: starts at the middle, wraps at 0.5, plays a full second", function()
  local d = recorder()
  local ship = slide(1, 0.5, d)
  T.near(pres(ship).position, {150, 150}, EPS, "t=0: the middle")
  T.near(rot(ship), 0.588003, 1e-6, "t=0: tangent at the middle")
  ca.advance(0.25)
  T.near(pres(ship).position, {232.03125, 192.1875}, EPS, "t=0.25: B(0.75) (parametric)")
  ca.advance(0.5)
  T.near(pres(ship).position, {0, 150}, EPS, "t=0.5: wrapped to the start")
  ca.advance(0.75)
  T.near(pres(ship).position, {67.96875, 107.8125}, EPS, "t=0.75: B(0.25) (parametric)")
  ca.advance(0.999)
  T.near(pres(ship).position, B(0.499), EPS, "t=0.999: just before the middle again")
  T.eq(#events(d, "stop"), 0)
  ca.advance(1)
  T.near(pres(ship).position, {0, 150}, EPS, "t=1: done → model")
  T.eq(events(d, "stop")[1].time, 1)
end, opts)

T.test("L9.3 speed 2, offset 0: (150,150) at 0.25; done at 0.5", function()
  local d = recorder()
  local ship = slide(2, 0, d)
  ca.advance(0.125)
  T.near(pres(ship).position, {67.96875, 107.8125}, EPS, "t=0.125: B(0.25) (parametric)")
  ca.advance(0.25)
  T.near(pres(ship).position, {150, 150}, EPS, "t=0.25")
  ca.advance(0.5)
  T.near(pres(ship).position, {0, 150}, EPS, "t=0.5: model")
  local s = events(d, "stop")
  T.eq(#s, 1); T.eq(s[1].time, 0.5)
end, opts)

T.test("L9.3 §5-1 speed 2, offset 0.5 starts at the MIDDLE (Apple's formula), wraps at 0.25, done at 0.5", function()
  local d = recorder()
  local ship = slide(2, 0.5, d)
  T.near(pres(ship).position, {150, 150}, EPS, "t=0: the middle, not the end")
  T.golden(ca.render(), "ch09/l9_3_speed2_offset0_5_t0")
  ca.advance(0.125)
  T.near(pres(ship).position, {232.03125, 192.1875}, EPS, "t=0.125: B(0.75) (parametric)")
  ca.advance(0.25)
  T.near(pres(ship).position, {0, 150}, EPS, "t=0.25: wrapped to the start")
  ca.advance(0.375)
  T.near(pres(ship).position, {67.96875, 107.8125}, EPS, "t=0.375: B(0.25) (parametric)")
  ca.advance(0.5)
  T.near(pres(ship).position, {0, 150}, EPS, "t=0.5: done → model")
  local s = events(d, "stop")
  T.eq(#s, 1); T.eq(s[1].time, 0.5)
end, opts)

---------------------------------------------------------------------------------------------
-- L9.4 — scrubbing a paused door.
---------------------------------------------------------------------------------------------

local function pausedDoor(d)
  local door = doorScene()
  door.speed = 0
  local animation = ca.BasicAnimation()
  animation.keyPath = "transform.rotation.y"
  animation.toValue = -pi / 2
  animation.duration = 1.0
  animation.delegate = d
  door:addAnimation(animation, "door")
  ca.step(0)
  return door
end

T.test("L9.4 speed 0 before adding: the door stays at 0 at any time, attached forever", function()
  local door = pausedDoor()
  for _, t in ipairs({0, 1, 5, 100}) do
    ca.advance(t)
    T.near(rotY(door), 0, EPS, "t=" .. t)
    T.truthy(door:animationForKey("door"), "attached at t=" .. t)
  end
end, opts)

T.test("L9.4 timeOffset 0.5 / 0.25 / 0.999 show −π/4, −π/8, −1.569225", function()
  local door = pausedDoor()
  ca.advance(3)
  door.timeOffset = 0.5
  ca.step(0)
  T.near(rotY(door), -pi / 4, EPS, "0.5")
  T.near(rotY(door), -0.785398, 1e-6)
  ca.advance(10)
  T.near(rotY(door), -pi / 4, EPS, "0.5 still, seven seconds later")
  door.timeOffset = 0.25
  ca.step(1 / 60)
  T.near(rotY(door), -pi / 8, EPS, "0.25")
  door.timeOffset = 0.999
  ca.step(1 / 60)
  T.near(rotY(door), -1.569225, 1e-6, "0.999")
  T.truthy(door:animationForKey("door"))
end, opts)

T.test("L9.4 the pan handler: dx = −100 from 0 gives timeOffset 0.5; the clamp keeps it in [0, 0.999]", function()
  local door = pausedDoor()
  local function pan(dx)
    local timeOffset = door.timeOffset
    timeOffset = math.min(0.999, math.max(0.0, timeOffset - dx / 200.0))
    door.timeOffset = timeOffset
  end
  pan(-100)
  T.eq(door.timeOffset, 0.5)
  ca.step(1 / 60)
  T.near(rotY(door), -pi / 4, EPS)
  pan(50)
  T.eq(door.timeOffset, 0.25)
  ca.step(1 / 60)
  T.near(rotY(door), -pi / 8, EPS)
  pan(-1000)
  T.eq(door.timeOffset, 0.999)
  ca.step(1 / 60)
  T.near(rotY(door), -1.569225, 1e-6)
  pan(1000)
  T.eq(door.timeOffset, 0)
  ca.step(1 / 60)
  T.near(rotY(door), 0, EPS)
  T.truthy(door:animationForKey("door"), "never completes while clamped")
end, opts)

T.test("L9.4 timeOffset 1.0 completes the animation: didStop(true), removed, the model value 0", function()
  local d = recorder()
  local door = pausedDoor(d)
  ca.advance(1)
  door.timeOffset = 0.5
  ca.step(0)
  T.near(rotY(door), -pi / 4, EPS)
  door.timeOffset = 1.0
  ca.step(0)
  local s = events(d, "stop")
  T.eq(#s, 1, "didStop"); T.eq(s[1].finished, true); T.eq(s[1].time, 1)
  T.eq(door:animationForKey("door"), nil, "removed")
  T.near(rotY(door), 0, EPS, "snapped back to the model")
  door.timeOffset = 0.5
  ca.step(0)
  T.near(rotY(door), 0, EPS, "nothing left to scrub")
end, opts)

---------------------------------------------------------------------------------------------
-- D8 — the fill matrix.
---------------------------------------------------------------------------------------------

-- position.x 0→100, model 200, beginTime 1 (added at t=0), duration 1, removedOnCompletion NO.
local function fillCase(fillMode, removedOnCompletion)
  local L = square({200, 150})
  local begin = L:convertTime(ca.mediaTime(), nil) + 1
  T.eq(begin, 1, "the delay idiom at t=0")
  L:addAnimation(xAnimation{ beginTime = begin, fillMode = fillMode, removedOnCompletion = removedOnCompletion }, "x")
  ca.flush()
  return L
end

for _, row in ipairs({
  { "removed",   200, 50, 200 },
  { "backwards", 0,   50, 200 },
  { "forwards",  200, 50, 100 },
  { "both",      0,   50, 100 },
}) do
  T.test(string.format("D8 fillMode %s with a 1 s delay: t=0.5 → %d, 1.5 → %d, 2.5 → %d", row[1], row[2], row[3], row[4]), function()
    local L = fillCase(row[1], false)
    ca.advance(0.5)
    T.near(px(L), row[2], EPS, "t=0.5 (before beginTime)")
    ca.advance(1)
    T.near(px(L), 0, EPS, "t=1: the first frame")
    ca.advance(1.5)
    T.near(px(L), row[3], EPS, "t=1.5 (active)")
    ca.advance(2.5)
    T.near(px(L), row[4], EPS, "t=2.5 (after the end)")
    T.truthy(L:animationForKey("x"), "still attached (removedOnCompletion NO)")
    T.eq(L.position.x, 200, "the model is untouched")
  end, opts)
end

T.test("D8 fill forwards needs removedOnCompletion NO: with YES, t=2.5 → 200 and no animation", function()
  local L = fillCase("forwards", true)
  ca.advance(1.5)
  T.near(px(L), 50, EPS)
  ca.advance(2.5)
  T.near(px(L), 200, EPS)
  T.eq(L:animationForKey("x"), nil)
end, opts)

T.test("D8 fill backwards: the first frame shows during the delay, even when jumping straight in", function()
  local L = fillCase("backwards", false)
  T.near(px(L), 0, EPS, "t=0 after the commit")
  T.pixel(ca.render(), 10, 150, blue, 3, "drawn at x=0")
end, opts)

T.test("D8 §5-2 beginTime is a time in the layer's timeline: a beginTime in the past starts part-way", function()
  local L = square({200, 150})
  ca.advance(2)
  L:addAnimation(xAnimation{ beginTime = 1.5, duration = 1 }, "x")
  ca.step(0)
  T.near(px(L), 50, EPS, "t=2: already half-way")
  ca.advance(2.5)
  T.near(px(L), 200, EPS, "t=2.5: over")
end, opts)

---------------------------------------------------------------------------------------------
-- D9 — didStart after a delay.
---------------------------------------------------------------------------------------------

T.test("D9 beginTime 1: didStart at t=1 (not 0), didStop at t=2, even in one advance", function()
  local L = square({200, 150})
  local d = recorder()
  L:addAnimation(xAnimation{ beginTime = L:convertTime(ca.mediaTime(), nil) + 1, delegate = d })
  ca.advance(3)
  T.eq(#d.log, 2)
  T.eq(d.log[1].kind, "start"); T.eq(d.log[1].time, 1)
  T.eq(d.log[2].kind, "stop"); T.eq(d.log[2].time, 2); T.eq(d.log[2].finished, true)
end, opts)

T.test("D9 stepped: no didStart during the delay", function()
  local L = square({200, 150})
  local d = recorder()
  L:addAnimation(xAnimation{ beginTime = 1, delegate = d })
  ca.advance(0.999)
  T.eq(#d.log, 0, "nothing before t=1")
  ca.advance(1)
  T.eq(#d.log, 1); T.eq(d.log[1].kind, "start"); T.eq(d.log[1].time, 1)
  ca.advance(1.5)
  T.eq(#d.log, 1)
  ca.advance(2)
  T.eq(#d.log, 2); T.eq(d.log[2].time, 2)
end, opts)

T.test("D9 no delay: didStart at the commit time, t=0", function()
  local L = square({200, 150})
  local d = recorder()
  L:addAnimation(xAnimation{ delegate = d })
  ca.step(0)
  T.eq(#d.log, 1); T.eq(d.log[1].kind, "start"); T.eq(d.log[1].time, 0)
end, opts)

---------------------------------------------------------------------------------------------
-- D10 — hierarchical speed.
---------------------------------------------------------------------------------------------

T.test("D10 superlayer speed 2 × layer speed 2: a 4 s animation ends at t=1", function()
  ca.root.backgroundColor = white
  local parent = ca.Layer{ frame = {0, 0, 300, 300}, speed = 2 }
  local child = ca.Layer{ bounds = {0, 0, 20, 20}, position = {200, 150}, speed = 2, backgroundColor = blue }
  ca.root:addSublayer(parent); parent:addSublayer(child)
  ca.step(0)
  local d = recorder()
  child:addAnimation(ca.BasicAnimation{ keyPath = "position.x", fromValue = 0, toValue = 100, duration = 4, delegate = d })
  ca.advance(0.5)
  T.near(px(child), 50, EPS, "t=0.5: half-way (4× speed)")
  ca.advance(3)
  local s = events(d, "stop")
  T.eq(#s, 1); T.eq(s[1].time, 1)
  T.near(px(child), 200, EPS)
end, opts)

T.test("D10 R-H1 a child's speed does not affect its superlayer's animations", function()
  ca.root.backgroundColor = white
  local parent = ca.Layer{ bounds = {0, 0, 100, 100}, position = {200, 150}, speed = 2 }
  local child = ca.Layer{ bounds = {0, 0, 20, 20}, position = {50, 50}, speed = 2 }
  ca.root:addSublayer(parent); parent:addSublayer(child)
  ca.step(0)
  local dp, dc = recorder(), recorder()
  parent:addAnimation(ca.BasicAnimation{ keyPath = "position.x", fromValue = 0, toValue = 100, duration = 4, delegate = dp })
  child:addAnimation(ca.BasicAnimation{ keyPath = "position.x", fromValue = 0, toValue = 100, duration = 4, delegate = dc })
  ca.advance(0.5)
  T.near(px(parent), 25, EPS, "parent: only its own speed 2")
  T.near(px(child), 50, EPS, "child: 2 × 2")
  ca.advance(5)
  T.eq(events(dp, "stop")[1].time, 2)
  T.eq(events(dc, "stop")[1].time, 1)
end, opts)

T.test("D10 root speed 100: a 1 s animation is half-way at t=0.005 and done at t=0.01", function()
  local L = square({200, 150})
  ca.root.speed = 100
  local d = recorder()
  L:addAnimation(xAnimation{ delegate = d })
  ca.advance(0.005)
  T.near(px(L), 50, EPS, "t=0.005")
  ca.advance(1)
  local s = events(d, "stop")
  T.eq(#s, 1)
  T.near(s[1].time, 0.01, 1e-12, "done at 0.01")
  T.near(px(L), 200, EPS)
end, opts)

T.test("D10/9-36 a negative layer speed rewinds the animation", function()
  local L = square({200, 150})
  L:addAnimation(xAnimation{ duration = 2 }, "x")
  ca.advance(1)
  T.near(px(L), 50, EPS)
  -- Run backwards from here without a jump: local = (t − 0)·(−1) + 2 equals 1 at t=1.
  L.speed = -1
  L.beginTime = 0
  L.timeOffset = 2
  ca.step(0)
  T.near(L:localTime(), 1, 1e-12)
  T.near(px(L), 50, EPS, "t=1: no jump")
  ca.advance(1.5)
  T.near(px(L), 25, EPS, "t=1.5: going back")
  ca.advance(1.75)
  T.near(px(L), 12.5, EPS, "t=1.75")
end, opts)

T.test("9-31 an animation's own speed 0 pauses it at its timeOffset (set before adding)", function()
  local L = square({200, 150})
  L:addAnimation(xAnimation{ speed = 0, timeOffset = 0.3 }, "x")
  for _, t in ipairs({0, 1, 10}) do
    ca.advance(t)
    T.near(px(L), 30, EPS, "t=" .. t)
  end
  T.truthy(L:animationForKey("x"))
end, opts)

---------------------------------------------------------------------------------------------
-- D11 — convertTime.
---------------------------------------------------------------------------------------------

T.test("D11 convertTime through beginTime 1, speed 2, timeOffset 3 and a speed-0.5 child", function()
  local A = ca.Layer{ beginTime = 1, speed = 2, timeOffset = 3 }
  local Bl = ca.Layer{ speed = 0.5 }
  ca.root:addSublayer(A); A:addSublayer(Bl)
  T.near(A:convertTime(5, nil), 11, 1e-12, "A:convertTime(5, nil)")
  T.near(A:convertTimeToLayer(11, nil), 5, 1e-12, "A:convertTimeToLayer(11, nil)")
  T.near(Bl:convertTime(5, nil), 5.5, 1e-12, "B:convertTime(5, nil)")
  T.near(A:convertTime(5.5, Bl), 11, 1e-12, "A:convertTime(5.5, B)")
  T.near(Bl:convertTime(11, A), 5.5, 1e-12, "B:convertTime(11, A)")
  T.near(Bl:convertTimeToLayer(5.5, A), 11, 1e-12)
  T.near(A:convertTimeFromLayer(5, nil), 11, 1e-12, "alias")
  ca.step(0)
  ca.advance(5)
  T.near(A:localTime(), 11, 1e-12, "A's time at t=5")
  T.near(Bl:localTime(), 5.5, 1e-12, "B's time at t=5")
  T.near(ca.root:localTime(), 5, 1e-12)
end, opts)

T.test("D11 §5-16 converting through a paused layer maps back to its beginTime", function()
  local P = ca.Layer{ beginTime = 3, speed = 0, timeOffset = 7 }
  ca.root:addSublayer(P)
  T.near(P:convertTime(5, nil), 7, 1e-12, "every parent time maps to the timeOffset")
  T.near(P:convertTime(100, nil), 7, 1e-12)
  T.near(P:convertTimeToLayer(7, nil), 3, 1e-12, "back up: the beginTime")
  T.near(P:convertTimeToLayer(9, nil), 3, 1e-12)
end, opts)

T.test("D11 convertTime synchronises an animation with a layer that has its own timing", function()
  -- A fast layer (speed 2, beginTime 1, timeOffset 3): an animation delayed by 1 s of media
  -- time must be given its beginTime in the layer's own time.
  ca.root.backgroundColor = white
  local A = ca.Layer{ beginTime = 1, speed = 2, timeOffset = 3, bounds = {0, 0, 20, 20}, position = {200, 150} }
  ca.root:addSublayer(A)
  ca.step(0)
  ca.advance(2)
  local d = recorder()
  A:addAnimation(xAnimation{ beginTime = A:convertTime(ca.mediaTime() + 1, nil), duration = 2, delegate = d })
  ca.advance(2.5)
  T.near(px(A), 200, EPS, "t=2.5: still waiting")
  ca.advance(3.5)
  T.near(px(A), 50, EPS, "t=3.5: half-way (2 s at speed 2 = 1 s)")
  ca.advance(10)
  T.eq(events(d, "start")[1].time, 3)
  T.eq(events(d, "stop")[1].time, 4)
end, opts)

---------------------------------------------------------------------------------------------
-- D12 — pause and resume (QA1673).
---------------------------------------------------------------------------------------------

local function pauseLayer(layer)
  local pausedTime = layer:convertTime(ca.mediaTime(), nil)
  layer.speed = 0.0
  layer.timeOffset = pausedTime
end

local function resumeLayer(layer)
  local pausedTime = layer.timeOffset
  layer.speed = 1.0
  layer.timeOffset = 0.0
  layer.beginTime = 0.0
  local timeSincePause = layer:convertTime(ca.mediaTime(), nil) - pausedTime
  layer.beginTime = timeSincePause
end

T.test("D12 pause at t=1, resume at t=3: 50 during the pause, 75 at 3.5, ends at t=4", function()
  local L = square({200, 150})
  local d = recorder()
  L:addAnimation(xAnimation{ duration = 2, delegate = d }, "x")
  ca.advance(1)
  T.near(px(L), 50, EPS)
  pauseLayer(L)
  ca.step(0)
  T.near(px(L), 50, EPS, "t=1 paused: no jump")
  ca.advance(2)
  T.near(px(L), 50, EPS, "t=2: still 50")
  ca.advance(3)
  T.near(px(L), 50, EPS, "t=3: still 50")
  resumeLayer(L)
  T.eq(L.beginTime, 2)
  ca.step(0)
  T.near(px(L), 50, EPS, "t=3 resumed: no jump")
  ca.advance(3.5)
  T.near(px(L), 75, EPS, "t=3.5")
  ca.advance(3.999)
  T.eq(#events(d, "stop"), 0)
  ca.advance(10)
  local s = events(d, "stop")
  T.eq(#s, 1); T.eq(s[1].time, 4); T.eq(s[1].finished, true)
  T.near(px(L), 200, EPS)
end, opts)

T.test("D12 speed 0 without timeOffset: local time jumps to 0 — an animation added at t=0 shows its first frame", function()
  local L = square({200, 150})
  L:addAnimation(xAnimation{ duration = 2 }, "x")
  ca.advance(1)
  T.near(px(L), 50, EPS)
  L.speed = 0
  ca.step(0)
  T.near(L:localTime(), 0, 1e-12)
  T.near(px(L), 0, EPS, "the first frame")
  ca.advance(5)
  T.near(px(L), 0, EPS)
  T.truthy(L:animationForKey("x"))
end, opts)

T.test("D12 speed 0 without timeOffset: an animation added later is before its beginTime → the model", function()
  local L = square({200, 150})
  ca.advance(1)
  L:addAnimation(xAnimation{ duration = 2 }, "x")
  ca.advance(1.5)
  T.near(px(L), 25, EPS)
  L.speed = 0
  ca.step(0)
  T.near(px(L), 200, EPS, "before its beginTime (1): the model value")
  ca.advance(5)
  T.near(px(L), 200, EPS)
end, opts)

---------------------------------------------------------------------------------------------
-- D13 / D14 — autoreverse, fractional repeats, repeatDuration.
---------------------------------------------------------------------------------------------

local function timedX(extra)
  local L = square({200, 150})
  local d = recorder()
  local t = { fillMode = "forwards", removedOnCompletion = false, delegate = d }
  for k, v in pairs(extra) do t[k] = v end
  L:addAnimation(xAnimation(t), "x")
  return L, d
end

T.test("D13 autoreverses, repeatCount 1: 0 → 100 → 0 over 2 s; the filled end value is 0", function()
  local L, d = timedX{ autoreverses = true, repeatCount = 1 }
  ca.advance(0.5); T.near(px(L), 50, EPS)
  ca.advance(1); T.near(px(L), 100, EPS)
  ca.advance(1.5); T.near(px(L), 50, EPS, "falling")
  ca.advance(5)
  T.near(px(L), 0, EPS, "end = the start value")
  T.eq(events(d, "stop")[1].time, 2)
end, opts)

T.test("D13 autoreverses, repeatCount 1.5: ends at t=3 at 100", function()
  local L, d = timedX{ autoreverses = true, repeatCount = 1.5 }
  ca.advance(2.5); T.near(px(L), 50, EPS, "rising again")
  ca.advance(5)
  T.near(px(L), 100, EPS)
  T.eq(events(d, "stop")[1].time, 3)
end, opts)

T.test("D13 repeatCount 2.5 without autoreverse: ends at t=2.5 at 50", function()
  local L, d = timedX{ repeatCount = 2.5 }
  ca.advance(1.25); T.near(px(L), 25, EPS, "second iteration")
  ca.advance(5)
  T.near(px(L), 50, EPS)
  T.eq(events(d, "stop")[1].time, 2.5)
end, opts)

T.test("D13 repeatCount 2 without autoreverse: the filled end value is the iteration's end (100), not its start", function()
  local L, d = timedX{ repeatCount = 2 }
  ca.advance(1); T.near(px(L), 0, EPS, "t=1: the second iteration starts over")
  ca.advance(5)
  T.near(px(L), 100, EPS)
  T.eq(events(d, "stop")[1].time, 2)
end, opts)

T.test("1.16 autoreverses mirrors the eased forward half (easeIn): 1.5 s equals 0.5 s", function()
  local L = timedX{ autoreverses = true, timingFunction = "easeIn" }
  ca.advance(0.5); T.near(px(L), 31.5357, 1e-3, "easeIn(0.5) = 0.315357")
  ca.advance(1.5); T.near(px(L), 31.5357, 1e-3, "the backward half retraces the forward half")
  ca.advance(1.75); T.near(px(L), 9.3465, 1e-3, "easeIn(0.25) = 0.093465")
end, opts)

T.test("1.16 with timeOffset 0.5 the filled end value is where the timeline stops (the middle)", function()
  local L, d = timedX{ timeOffset = 0.5 }
  ca.flush(); T.near(px(L), 50, EPS, "t=0")
  ca.advance(0.25); T.near(px(L), 75, EPS)
  ca.advance(0.75); T.near(px(L), 25, EPS, "wrapped")
  ca.advance(3)
  T.near(px(L), 50, EPS, "filled: 1 s of play from the middle ends at the middle")
  T.eq(events(d, "stop")[1].time, 1)
end, opts)

T.test("D14 repeatDuration 2.5: ends mid-cycle at t=2.5, filled at 50", function()
  local L, d = timedX{ repeatDuration = 2.5 }
  ca.advance(2.25); T.near(px(L), 25, EPS)
  ca.advance(5)
  T.near(px(L), 50, EPS)
  T.eq(events(d, "stop")[1].time, 2.5)
end, opts)

T.test("D14 repeatDuration 2.5 with autoreverses: 50 falling at 1.5, ends at 2.5 at 50 rising", function()
  local L, d = timedX{ repeatDuration = 2.5, autoreverses = true }
  ca.advance(1.25); T.near(px(L), 75, EPS, "t=1.25 falling")
  ca.advance(1.5); T.near(px(L), 50, EPS, "t=1.5 falling")
  ca.advance(2.25); T.near(px(L), 25, EPS, "t=2.25 rising (second cycle)")
  ca.advance(2.4); T.near(px(L), 40, EPS, "t=2.4 rising")
  ca.advance(5)
  T.near(px(L), 50, EPS, "filled at the cut-off value")
  T.eq(events(d, "stop")[1].time, 2.5)
end, opts)

T.test("D14 9-8 repeatCount and repeatDuration both set: repeatDuration wins (documented choice)", function()
  local L, d = timedX{ repeatDuration = 2.5, repeatCount = 5 }
  ca.advance(10)
  T.eq(events(d, "stop")[1].time, 2.5)
  T.near(px(L), 50, EPS)
end, opts)

---------------------------------------------------------------------------------------------
-- D15 — group time.
---------------------------------------------------------------------------------------------

T.test("D15 a child's beginTime is an offset inside a 3 s group", function()
  local L = square({200, 150})
  local d = recorder()
  local child = xAnimation{ beginTime = 1, duration = 1 }
  L:addAnimation(ca.AnimationGroup{ duration = 3, animations = { child }, delegate = d }, "g")
  ca.advance(0.5); T.near(px(L), 200, EPS, "t=0.5: before the child → model")
  ca.advance(1.5); T.near(px(L), 50, EPS, "t=1.5")
  ca.advance(2.5); T.near(px(L), 200, EPS, "t=2.5: child over, group still running → model")
  T.truthy(L:animationForKey("g"))
  ca.advance(3)
  T.eq(L:animationForKey("g"), nil)
  T.eq(events(d, "stop")[1].time, 3)
end, opts)

T.test("D15 group speed 2: the child runs at 0.5…1.0 of parent time", function()
  local L = square({200, 150})
  local d = recorder()
  local child = xAnimation{ beginTime = 1, duration = 1 }
  L:addAnimation(ca.AnimationGroup{ duration = 3, speed = 2, animations = { child }, delegate = d }, "g")
  ca.advance(0.25); T.near(px(L), 200, EPS, "t=0.25: before")
  ca.advance(0.5); T.near(px(L), 0, EPS, "t=0.5: the child starts")
  ca.advance(0.75); T.near(px(L), 50, EPS, "t=0.75")
  ca.advance(1.25); T.near(px(L), 200, EPS, "t=1.25: after the child")
  ca.advance(5)
  T.eq(events(d, "stop")[1].time, 1.5, "the group lasts 3 / 2 s")
end, opts)

T.test("D15 9-23 the group's duration and repeatCount do not scale the child", function()
  local L = square({200, 150})
  local child = xAnimation{ duration = 2 }
  L:addAnimation(ca.AnimationGroup{ duration = 4, repeatCount = 2, animations = { child } }, "g")
  ca.advance(1); T.near(px(L), 50, EPS, "child keeps its 2 s")
  ca.advance(3); T.near(px(L), 200, EPS, "child done inside the first group iteration")
  ca.advance(5); T.near(px(L), 50, EPS, "second group iteration replays the child")
  ca.advance(8)
  T.eq(L:animationForKey("g"), nil)
end, opts)

T.test("D15 a group's timeOffset shifts its children", function()
  local L = square({200, 150})
  local child = xAnimation{ duration = 2 }
  L:addAnimation(ca.AnimationGroup{ duration = 2, timeOffset = 1, animations = { child } }, "g")
  ca.flush()
  T.near(px(L), 50, EPS, "t=0: the child is half-way")
  ca.advance(0.5); T.near(px(L), 75, EPS)
  ca.advance(1.5); T.near(px(L), 25, EPS, "wrapped")
end, opts)

---------------------------------------------------------------------------------------------
-- D16 — keyTimes.
---------------------------------------------------------------------------------------------

T.test("D16 keyTimes [0, 0.25, 1] on values [0, 100, 0] over 4 s", function()
  local L = square({200, 150})
  L:addAnimation(ca.KeyframeAnimation{ keyPath = "position.x", values = {0, 100, 0}, keyTimes = {0, 0.25, 1},
                                       duration = 4 }, "k")
  ca.flush(); T.near(px(L), 0, EPS, "t=0")
  ca.advance(0.5); T.near(px(L), 50, EPS, "t=0.5")
  ca.advance(1); T.near(px(L), 100, EPS, "t=1")
  ca.advance(2.5); T.near(px(L), 50, EPS, "t=2.5")
  ca.advance(3.999); T.near(px(L), 100 * 0.001 / 3, EPS)
  ca.advance(4); T.near(px(L), 200, EPS, "t=4: model")
end, opts)

T.test("D16 discrete keyframes hold each value until the next key time", function()
  local L = square({200, 150})
  L:addAnimation(ca.KeyframeAnimation{ keyPath = "position.x", values = {0, 100, 50}, keyTimes = {0, 0.25, 0.5, 1},
                                       calculationMode = "discrete", duration = 4 }, "k")
  ca.advance(0.5); T.near(px(L), 0, EPS)
  ca.advance(1); T.near(px(L), 100, EPS)
  ca.advance(1.999); T.near(px(L), 100, EPS)
  ca.advance(2); T.near(px(L), 50, EPS)
  ca.advance(3.9); T.near(px(L), 50, EPS)
end, opts)

T.test("times stay finite: local times are clamped to ±1e15 s however extreme the speeds (hostile)", function()
  local a = ca.Layer{ speed = 1e308 }
  local b = ca.Layer{ speed = 1e308 }
  local c = ca.Layer{ speed = 1e-308 }
  ca.root:addSublayer(a); a:addSublayer(b); b:addSublayer(c)
  ca.advance(1)
  T.eq(b:localTime(), 1e15)
  T.eq(b:convertTime(1, nil), 1e15)
  T.eq(b:convertTime(-1e12, nil), -1e15)
  T.eq(c:convertTime(1, b), 0)
  T.raises(function() b:convertTime(1e300, nil) end, "must be a time within ±1e15 s")
  local back = a:convertTime(1e15, b)
  T.truthy(back == back and math.abs(back) < math.huge, "convertTime back up the chain is finite (" .. back .. ")")
  local anim = ca.BasicAnimation{ keyPath = "opacity", fromValue = 0, toValue = 1, duration = 1, speed = 1e308 }
  c:addAnimation(anim, "fade")
  ca.advance(2)
  local o = c:presentation().opacity
  T.truthy(o == o and o >= 0 and o <= 1, "a 1e308-speed animation under them samples a finite opacity (" .. o .. ")")
end)
