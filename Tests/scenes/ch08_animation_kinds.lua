-- Animation kinds beyond the book's listings: Apple's from/to/by table row by
-- row, additive and cumulative animations, springs, paced / cubic / discrete
-- keyframes, timing-function count rules, value functions, virtual key paths,
-- hit testing the presentation tree, ca.interpolate.
-- Spec: shared/spec/book-ch07-09.md §1.7–1.11; DESIGN §4 "Time".
local ca = require "caluna"
local T = require "caluna.test"

local opts = { size = { 300, 300 } }
local pi = math.pi

-- A committed 10×10 layer at x = 200 (the model value every row starts from).
local function layerAt(x)
  local l = ca.Layer{ bounds = { 0, 0, 10, 10 }, position = { x or 200, 100 } }
  ca.root:addSublayer(l)
  ca.step(0)
  return l
end

local function x(l) return l:presentation().position.x end

local function add(l, props, key)
  props.keyPath = props.keyPath or "position.x"
  props.duration = props.duration or 1
  l:addAnimation(ca.BasicAnimation(props), key)
end

T.test("Apple's from/to/by table, every row, at half time (model x = 200)", function()
  local rows = {
    { "from, to", { fromValue = 0, toValue = 100 }, 50 },
    { "from, by", { fromValue = 0, byValue = 40 }, 20 },
    { "to, by", { toValue = 100, byValue = 40 }, 80 },
    { "from only: to the current value", { fromValue = 0 }, 100 },
    { "to only: from the current value", { toValue = 100 }, 150 },
    { "by only: current to current + by", { byValue = 40 }, 220 },
    { "none: current to current", {}, 200 },
    { "all three: byValue ignored", { fromValue = 0, toValue = 100, byValue = 40 }, 50 },
  }
  for _, row in ipairs(rows) do
    ca.reset{ size = { 300, 300 } }
    local l = layerAt(200)
    add(l, row[2], "a")
    ca.step(0)
    ca.advance(0.5)
    T.near(x(l), row[3], 1e-9, row[1])
  end
end, opts)

T.test("no from and no to: the presentation value before the commit to the new model value", function()
  local l = layerAt(200)
  l.position = { 300, 100 }           -- the model moves; the screen still shows 200
  add(l, {}, "a")                      -- this is what an implicit animation is
  ca.step(0)
  T.near(x(l), 200, 1e-9, "starts where it was drawn")
  ca.advance(0.5)
  T.near(x(l), 250, 1e-9)
  ca.advance(1)
  T.near(x(l), 300, 1e-9)
end, opts)

T.test("additive animations add to the underlying value and to each other", function()
  local l = layerAt(200)
  add(l, { fromValue = 0, toValue = 100, additive = true }, "a")
  ca.step(0)
  ca.advance(0.5)
  T.near(x(l), 250, 1e-9, "model 200 + 50")
  add(l, { fromValue = 0, toValue = 100, additive = true }, "b")
  ca.step(0)
  ca.advance(1.0)
  T.near(x(l), 250, 1e-9, "a has ended; b adds 50")
  -- A non-additive animation replaces what is below it; an additive one on top adds.
  add(l, { fromValue = 0, toValue = 0, duration = 10 }, "c")
  add(l, { fromValue = 10, toValue = 10, additive = true, duration = 10 }, "d")
  ca.step(0)
  ca.advance(1.2)
  T.near(x(l), 10, 1e-9, "c replaces b's result, d adds 10")
end, opts)

T.test("cumulative repeats continue from the previous repeat's end", function()
  local l = layerAt(200)
  add(l, { fromValue = 0, toValue = 100, repeatCount = 3, cumulative = true }, "a")
  ca.step(0)
  ca.advance(0.5); T.near(x(l), 50, 1e-9)
  ca.advance(1.5); T.near(x(l), 150, 1e-9)
  ca.advance(2.5); T.near(x(l), 250, 1e-9)
  ca.advance(3); T.near(x(l), 200, 1e-9, "removed: the model")
end, opts)

T.test("SpringAnimation follows the damped oscillator in local seconds", function()
  local l = layerAt(0)
  local s = ca.SpringAnimation{ keyPath = "position.x", fromValue = 0, toValue = 100, duration = 2 }
  T.eq(s.mass, 1); T.eq(s.stiffness, 100); T.eq(s.damping, 10); T.eq(s.initialVelocity, 0)
  -- ω0 = 10, ζ = 0.5: settles within 0.1 % after ln(√(4/3) / 0.001) / 5 s.
  T.near(s.settlingDuration, math.log(math.sqrt(4 / 3) / 0.001) / 5, 1e-9)
  l:addAnimation(s, "spring")
  ca.step(0)
  local wd = 10 * math.sqrt(0.75)
  local function spring(t) return 100 * (1 - math.exp(-5 * t) * (math.cos(wd * t) + 5 / wd * math.sin(wd * t))) end
  for _, t in ipairs{ 0.1, 0.2, pi / wd, 0.5, 1.0, 1.9 } do
    ca.advance(t)
    T.near(x(l), spring(t), 1e-9, "t=" .. t)
  end
  ca.advance(2)
  T.near(x(l), 0, 1e-9, "removed after its duration: the model")
  -- It overshoots: the first peak is 100 (1 + e^(−5π/ωd)) ≈ 116.3.
  T.near(spring(pi / wd), 100 * (1 + math.exp(-5 * pi / wd)), 1e-9)
  T.truthy(spring(pi / wd) > 116)
  T.raises(function() s.mass = 0 end, "mass")
  T.raises(function() s.settlingDuration = 1 end, "read-only")
end, opts)

T.test("paced keyframes: time follows distance; keyTimes and timingFunctions are ignored", function()
  local l = layerAt(0)
  local k = { keyPath = "position.x", values = { 0, 10, 30 }, duration = 3 }
  local linear = ca.KeyframeAnimation(k)
  l:addAnimation(linear, "linear")
  ca.step(0)
  ca.advance(1.5); T.near(x(l), 10, 1e-9, "linear: evenly spaced keyframes")
  ca.reset{ size = { 300, 300 } }
  l = layerAt(0)
  k.calculationMode = "paced"
  k.keyTimes = { 0, 0.9, 1 }
  k.timingFunctions = { "easeIn", "easeIn" }
  l:addAnimation(ca.KeyframeAnimation(k), "paced")
  ca.step(0)
  ca.advance(1); T.near(x(l), 10, 1e-9, "paced: 10 of 30 points after a third")
  ca.advance(2); T.near(x(l), 20, 1e-9)
end, opts)

T.test("paced motion along the book's curve uses arc length (spec: (70.87, 108.40) a quarter in)", function()
  local ship = layerAt(0)
  local path = ca.Path():moveTo(0, 150):curveTo(75, 0, 225, 300, 300, 150)
  ship:addAnimation(ca.KeyframeAnimation{ keyPath = "position", path = path, duration = 4, calculationMode = "paced" }, "p")
  ca.step(0)
  ca.advance(1)
  local p = ship:presentation().position
  T.near(p, { 70.87, 108.40 }, 0.01, "paced")
  ca.advance(2)
  T.near(ship:presentation().position, { 150, 150 }, 1e-6, "the midpoint is the same either way")
  ca.reset{ size = { 300, 300 } }
  ship = layerAt(0)
  ship:addAnimation(ca.KeyframeAnimation{ keyPath = "position", path = path, duration = 4 }, "p")
  ca.step(0)
  ca.advance(1)
  T.near(ship:presentation().position, { 67.96875, 107.8125 }, 1e-9, "linear mode: the curve parameter")
end, opts)

T.test("cubic keyframes pass through every value with Catmull-Rom tangents", function()
  local l = layerAt(0)
  l:addAnimation(ca.KeyframeAnimation{ keyPath = "position.x", values = { 0, 100, 0 }, duration = 1,
                                       calculationMode = "cubic" }, "c")
  ca.step(0)
  ca.advance(0.25); T.near(x(l), 56.25, 1e-9, "Hermite with tangents 50 and 0")
  ca.advance(0.5); T.near(x(l), 100, 1e-9, "through the keyframe")
  ca.advance(0.75); T.near(x(l), 56.25, 1e-9, "symmetric")
  -- Tension 1 flattens every tangent: plain smoothstep between keyframes.
  ca.reset{ size = { 300, 300 } }
  l = layerAt(0)
  l:addAnimation(ca.KeyframeAnimation{ keyPath = "position.x", values = { 0, 100, 0 }, duration = 1,
                                       calculationMode = "cubic", tensionValues = { 1, 1, 1 } }, "c")
  ca.step(0)
  ca.advance(0.125); T.near(x(l), 100 * (3 * 0.25 ^ 2 - 2 * 0.25 ^ 3), 1e-9)
  ca.advance(0.25); T.near(x(l), 50, 1e-9)
end, opts)

T.test("cubicPaced: paced key times, then the cubic curve", function()
  local l = layerAt(0)
  l:addAnimation(ca.KeyframeAnimation{ keyPath = "position.x", values = { 0, 10, 30 }, duration = 3,
                                       calculationMode = "cubicPaced" }, "c")
  ca.step(0)
  ca.advance(1); T.near(x(l), 10, 1e-9, "the second keyframe is reached after a third")
  ca.advance(3); T.near(x(l), 200 - 200, 1e-9, "ended: the model (x = 0)")
end, opts)

T.test("discrete keyframes hold each value; n + 1 keyTimes are accepted", function()
  local l = layerAt(0)
  l:addAnimation(ca.KeyframeAnimation{ keyPath = "position.x", values = { 10, 20, 30 }, duration = 1,
                                       calculationMode = "discrete", keyTimes = { 0, 0.5, 0.75, 1 } }, "d")
  ca.step(0)
  ca.advance(0.4); T.eq(x(l), 10)
  ca.advance(0.6); T.eq(x(l), 20)
  ca.advance(0.8); T.eq(x(l), 30)
end, opts)

T.test("timingFunctions: missing entries are linear, extra entries ignored (documented rule)", function()
  local l = layerAt(0)
  l:addAnimation(ca.KeyframeAnimation{ keyPath = "position.x", values = { 0, 100, 200 }, duration = 1,
                                       timingFunctions = { "easeIn" } }, "k")
  ca.step(0)
  ca.advance(0.25); T.near(x(l), 100 * ca.MediaTimingFunction("easeIn"):evaluate(0.5), 1e-9)
  ca.advance(0.75); T.near(x(l), 150, 1e-9, "the second segment is linear")
  ca.reset{ size = { 300, 300 } }
  l = layerAt(0)
  l:addAnimation(ca.KeyframeAnimation{ keyPath = "position.x", values = { 0, 100 }, duration = 1,
                                       timingFunctions = { "linear", "easeIn", "easeOut" } }, "k")
  ca.step(0)
  ca.advance(0.5); T.near(x(l), 50, 1e-9)
end, opts)

T.test("an animation's own timingFunction eases the whole timeline", function()
  local l = layerAt(0)
  add(l, { fromValue = 0, toValue = 100, timingFunction = { 0.42, 0, 1, 1 } }, "a")
  T.near(l:animationForKey("a").timingFunction, { 0.42, 0, 1, 1 }, 0, "custom control points read back as numbers")
  ca.step(0)
  ca.advance(0.5); T.near(x(l), 31.5357, 1e-4)
  local f = ca.MediaTimingFunction(1, 0, 0.75, 1)
  add(l, { fromValue = 0, toValue = 100, timingFunction = f }, "b")
  T.near(l:animationForKey("b").timingFunction, { 1, 0, 0.75, 1 }, 0)
end, opts)

T.test("value functions turn numbers into transforms", function()
  local l = layerAt(100)
  l:addAnimation(ca.BasicAnimation{ keyPath = "transform", valueFunction = "scale", fromValue = 1, toValue = 3, duration = 1 }, "s")
  l:addAnimation(ca.BasicAnimation{ keyPath = "transform", valueFunction = "translate", fromValue = { 0, 0, 0 },
                                    toValue = { 10, 20, 0 }, duration = 1, additive = true }, "t")
  ca.step(0)
  ca.advance(0.5)
  local t = l:presentation().transform
  T.near(t.m11, 2, 1e-9); T.near(t.m22, 2, 1e-9)
  T.near(t.m41, 5, 1e-9); T.near(t.m42, 10, 1e-9)
  T.raises(function() ca.BasicAnimation{ keyPath = "transform", valueFunction = "wobble" } end, "valueFunction")
  T.raises(function() l:addAnimation(ca.BasicAnimation{ keyPath = "opacity", valueFunction = "rotateZ", toValue = 1 }) end, "transform key path")
end, opts)

T.test("virtual transform key paths read, write and animate", function()
  local l = layerAt(100)
  l:setValueForKeyPath(pi / 2, "transform.rotation.z")
  T.near(l.transform.m11, 0, 1e-12); T.near(l.transform.m12, 1, 1e-12)
  T.near(l:valueForKeyPath("transform.rotation"), pi / 2, 1e-12)
  l:setValueForKeyPath(2, "transform.scale")
  T.near(l:valueForKeyPath("transform.scale.x"), 2, 1e-12)
  T.near(l:valueForKeyPath("transform.rotation.z"), pi / 2, 1e-12, "rotation kept")
  l:setValueForKeyPath({ 5, 6 }, "transform.translation")
  T.near(l:valueForKeyPath("transform.translation"), { 5, 6 }, 1e-12)
  T.raises(function() l:setValueForKeyPath(1, "transform.wobble") end, "key path")
end, opts)

T.test("hit testing the presentation tree finds layers where they are drawn", function()
  local l = ca.Layer{ bounds = { 0, 0, 20, 20 }, position = { 10, 150 }, name = "mover" }
  ca.root:addSublayer(l)
  ca.step(0)
  add(l, { fromValue = 10, toValue = 210 }, "move")
  ca.step(0)
  ca.advance(0.5)
  T.eq(ca.root:hitTest({ 110, 150 }), ca.root, "the model is still at x = 10")
  local hit = ca.root:presentation():hitTest({ 110, 150 })
  T.truthy(hit and hit:isPresentation())
  T.same(hit:modelLayer(), l)
  T.same(l:presentation():modelLayer(), l)
  T.same(l:modelLayer(), l)
end, opts)

T.test("ca.interpolate: numbers, points, colours, transforms by decomposition, discrete values", function()
  T.eq(ca.interpolate(0, 10, 0.25), 2.5)
  T.near(ca.interpolate({ 0, 0 }, { 10, 20 }, 0.5), { 5, 10 }, 1e-12)
  T.near(ca.interpolate("#ff0000", "#0000ff", 0.5), { 0.5, 0, 0.5, 1 }, 1e-12)
  local mid = ca.interpolate(ca.Transform3D.identity, ca.Transform3D.rotation(pi), 0.5)
  T.near(math.abs(mid.m12), 1, 1e-9, "a quarter turn, not a collapsed matrix")
  T.eq(ca.interpolate(true, false, 0.49), true)
  T.eq(ca.interpolate(true, false, 0.5), false)
  T.raises(function() ca.interpolate(1, { 1, 2 }, 0.5) end, "caluna")
end, opts)

T.test("animation objects: class names, copies, tags, read-only attached copies", function()
  local a = ca.BasicAnimation{ keyPath = "opacity", toValue = 0 }
  T.eq(a.className, "BasicAnimation")
  T.eq(a.duration, 0); T.eq(a.speed, 1); T.eq(a.fillMode, "removed"); T.eq(a.removedOnCompletion, true)
  a:setValue({ any = "lua value" }, "tag")
  local b = a:copy()
  T.eq(b:valueForKey("tag").any, "lua value", "copies keep tags")
  T.eq(b:valueForKey("keyPath"), "opacity", "valueForKey reads properties too")
  local l = layerAt(0)
  l:addAnimation(a, "fade")
  local attached = l:animationForKey("fade")
  T.truthy(attached.isAttached)
  T.falsy(rawequal(attached, a))
  T.same(l:animationForKey("fade"), attached, "one Lua object per attached animation")
  T.raises(function() attached.duration = 3 end, "cannot be changed")
  T.raises(function() attached:setValue(1, "x") end, "cannot be changed")
  local editable = attached:copy()
  editable.duration = 3
  T.eq(editable.duration, 3)
  T.raises(function() return a.noSuchKey end, "no property 'noSuchKey'")
  T.raises(function() ca.Transition{ filter = 1 } end, "not supported")
  T.raises(function() ca.BasicAnimation{ keyPath = "opacity", [1] = 2 } end,
           "ca.BasicAnimation{…}: keys must be property names, got a number key")
  T.raises(function() ca.AnimationGroup{ animations = { 1 } } end, "expects an animation")
end, opts)

T.test("groups nest at most 32 deep", function()
  local g = ca.BasicAnimation{ keyPath = "opacity", toValue = 0 }
  for _ = 1, 32 do g = ca.AnimationGroup{ animations = { g } } end
  T.raises(function() ca.AnimationGroup{ animations = { g } } end, "at most 32")
  local l = layerAt(0)
  l:addAnimation(g, "deep")
  ca.step(0.1)
  T.eq(#l:animationKeys(), 1)
end, opts)

T.test("a group's tree holds at most 100000 animations (children are copies)", function()
  -- Each level holds two copies of the one below: 3·2^k − 2 animations at level k. Level 15
  -- holds 98302; level 16 would hold 196606 and is refused, naming the count.
  local g = ca.AnimationGroup{ animations = { ca.BasicAnimation{ keyPath = "opacity", toValue = 0 } } }
  local levels = 0
  for _ = 1, 15 do
    g = ca.AnimationGroup{ animations = { g, g } }
    levels = levels + 1
  end
  T.eq(levels, 15)
  local outer = ca.AnimationGroup{}
  T.raises(function() outer.animations = { g, g } end, "would hold 196606 animations, nested ones included (at most 100000")
  T.eq(#outer.animations, 0, "the refused assignment changed nothing")
  outer.animations = { g }
  T.eq(#outer.animations, 1)
end, opts)

T.test("the harness compares angles modulo 2π", function()
  T.nearAngle(-pi / 2, 3 * pi / 2, 1e-12)
  T.nearAngle(pi, -pi, 1e-12)
  T.raises(function() T.nearAngle(0.1, 0, 1e-3) end, "expected angle 0 (mod 2π)")
end, opts)
