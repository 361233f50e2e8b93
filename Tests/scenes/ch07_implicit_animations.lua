-- Chapter 7 (implicit animations): transactions, completion blocks, the action
-- lookup, view-backed layers, custom actions and transitions as actions, and the
-- presentation layer (L7.1–L7.7), with the derived rules D1–D5, D18–D21.
-- Spec: shared/spec/book-ch07-09.md §1.1–§1.4, §2 "Chapter 7", §5 items 3, 4, 7, 9, 11, 17.
--
-- Conventions (spec §2): the clock starts at 0; a scene is built and committed with
-- ca.step(0) (set-up before the first commit never animates), the listing's change
-- happens at t=0, then ca.advance(t) and the presentation layer is read. Implicit
-- animations use the default curve; f(0.5) = 0.802403 is the "mix" below.
local ca = require "caluna"
local T = require "caluna.test"

local blue, red, green, white = {0, 0, 1, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 1, 1}
local EPS = 1e-6
local opts = { size = {300, 300} }
local curve = ca.MediaTimingFunction("default")
local easeInOut = ca.MediaTimingFunction("easeInEaseOut")

local function mix(a, b, f)
  return { a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f, a[3] + (b[3] - a[3]) * f, a[4] + (b[4] - a[4]) * f }
end

-- The book's colorLayer: 100×100, blue, at (50,50) on a white root; committed at t=0.
local function colorScene()
  ca.root.backgroundColor = white
  local L = ca.Layer{ frame = {50, 50, 100, 100}, backgroundColor = blue }
  ca.root:addSublayer(L)
  ca.step(0)
  return L
end

local function pres(L) return L:presentation() end
local function keys(L) return table.concat(L:animationKeys(), ",") end

T.test("the default curve's reference values (spec §1.19)", function()
  T.near(curve:evaluate(0.25), 0.408511, EPS)
  T.near(curve:evaluate(0.5), 0.802403, EPS)
  T.near(curve:evaluate(0.75), 0.960459, EPS)
  T.near(easeInOut:evaluate(0.5), 0.5, EPS)
end)

---------------------------------------------------------------------------
-- L7.1: a standalone layer animates a colour change without being asked

T.test("L7.1 random colour: an implicit 0.25 s animation on the default curve", function()
  local L = colorScene()
  L.backgroundColor = red
  T.near(L.backgroundColor, red, 0, "the model changes at once")
  T.eq(keys(L), "backgroundColor", "the action is attached under the property's name")
  T.near(pres(L).backgroundColor, blue, 0, "the presentation shows the committed value")
  ca.flush()
  local a = L:animationForKey("backgroundColor")
  T.eq(a.className, "BasicAnimation")
  T.eq(a.keyPath, "backgroundColor")
  T.eq(a.duration, 0.25)
  T.eq(a.timingFunction, "default")
  T.near(a.fromValue, blue, 0, "from = what was on screen")
  T.eq(a.toValue, nil, "to = the model (Apple's \"none set\" row)")
  ca.advance(0.125)
  T.near(pres(L).backgroundColor, mix(blue, red, curve:evaluate(0.5)), EPS, "t=0.125")
  T.near(pres(L).backgroundColor, {0.802403, 0, 0.197597, 1}, EPS)
  local img = ca.render()
  T.pixel(img, 100, 100, {205 / 255, 0, 50 / 255, 1}, 2)
  T.golden(img, "ch07/l71_t0125")
  ca.advance(0.25)
  T.near(pres(L).backgroundColor, red, 0, "t=0.25")
  T.eq(keys(L), "", "removed on completion")
  T.pixel(ca.render(), 100, 100, red)
end, opts)

T.test("L7.1 variant: a linear transaction timing function mixes exactly halfway", function()
  local L = colorScene()
  ca.Transaction.begin()
  ca.Transaction.setAnimationTimingFunction("linear")
  L.backgroundColor = red
  ca.Transaction.commit()
  ca.advance(0.125)
  T.near(pres(L).backgroundColor, {0.5, 0, 0.5, 1}, EPS)
end, opts)

T.test("D19 set-up before the first commit never animates; nil colours fade from clear", function()
  ca.root.backgroundColor = white
  local L = ca.Layer{ frame = {50, 50, 100, 100} }
  ca.root:addSublayer(L)
  L.backgroundColor = blue
  L.position = {120, 120}
  T.eq(keys(L), "", "never committed: no actions")
  T.eq(ca.root:animationKeys()[1], nil, "the root's set-up does not animate either")
  ca.step(0)
  T.near(pres(L).backgroundColor, blue, 0)
  local lone = ca.Layer{ backgroundColor = red }
  lone.backgroundColor = blue
  T.eq(keys(lone), "", "a layer outside the tree has no presentation: no actions")
  -- A committed layer without a colour fades in from the new colour made clear.
  local M = ca.Layer{ frame = {0, 0, 10, 10} }
  ca.root:addSublayer(M)
  ca.step(0)
  M.backgroundColor = red
  ca.advance(0.125)
  T.near(pres(M).backgroundColor, {1, 0, 0, curve:evaluate(0.5)}, EPS)
end, opts)

---------------------------------------------------------------------------
-- L7.2: a transaction with its own duration; disableActions

T.test("L7.2 setAnimationDuration(1.0): the change takes a second", function()
  local L = colorScene()
  ca.Transaction.begin()
  ca.Transaction.setAnimationDuration(1.0)
  T.eq(ca.Transaction.animationDuration(), 1.0)
  L.backgroundColor = red
  ca.Transaction.commit()
  T.eq(ca.Transaction.animationDuration(), 0.25, "restored after commit")
  T.eq(L:animationForKey("backgroundColor").duration, 1.0)
  ca.advance(0.25)
  T.near(pres(L).backgroundColor, mix(blue, red, 0.408511), EPS, "t=0.25")
  ca.advance(0.5)
  T.near(pres(L).backgroundColor, mix(blue, red, 0.802403), EPS, "t=0.5")
  ca.advance(1.0)
  T.near(pres(L).backgroundColor, red, 0)
  T.eq(keys(L), "")
end, opts)

T.test("L7.2 variant: setDisableActions(true) jumps", function()
  local L = colorScene()
  ca.Transaction.begin()
  ca.Transaction.setDisableActions(true)
  T.eq(ca.Transaction.disableActions(), true)
  L.backgroundColor = red
  ca.Transaction.commit()
  T.eq(ca.Transaction.disableActions(), false)
  T.eq(keys(L), "", "no animation attached")
  ca.step(0)
  T.near(pres(L).backgroundColor, red, 0, "at once, at t=0")
  T.pixel(ca.render(), 100, 100, red)
end, opts)

T.test("D21 position in a 2 s transaction: 80.2403 at t=1 (default curve), 50 with linear", function()
  for _, timing in ipairs{ "default", "linear" } do
    ca.reset{ size = {300, 300} }
    local L = ca.Layer{ bounds = {0, 0, 10, 10}, position = {0, 50} }
    ca.root:addSublayer(L)
    ca.step(0)
    ca.Transaction.begin()
    ca.Transaction.setAnimationDuration(2)
    if timing == "linear" then ca.Transaction.setAnimationTimingFunction("linear") end
    L.position = {100, 50}
    ca.Transaction.commit()
    T.eq(L.position, {100, 50}, "the model reads 100 from t=0")
    ca.advance(1)
    T.near(pres(L).position.x, timing == "linear" and 50 or 80.2403, 1e-4, timing)
    ca.advance(2)
    T.eq(pres(L).position.x, 100)
    T.eq(keys(L), "")
  end
end)

---------------------------------------------------------------------------
-- L7.3: the completion block runs after the transaction was committed and popped

T.test("L7.3 completion block at exactly t=1.0 spins the layer in the default 0.25 s", function()
  local L = colorScene()
  local calls, at = 0, nil
  ca.Transaction.begin()
  ca.Transaction.setAnimationDuration(1.0)
  ca.Transaction.setCompletionBlock(function()
    calls = calls + 1
    at = ca.mediaTime()
    L.affineTransform = ca.AffineTransform.rotation(math.pi / 2)
  end)
  L.backgroundColor = red
  ca.Transaction.commit()
  for i = 1, 9 do ca.step(0.1) end
  ca.advance(0.999)
  T.eq(calls, 0, "not before the colour change ends")
  ca.advance(1.1)
  T.eq(calls, 1)
  T.eq(at, 1.0, "the clock is stopped at the end of the colour animation")
  T.near(pres(L).backgroundColor, red, 0)
  local spin = L:animationForKey("transform")
  T.truthy(spin, "affineTransform is a view of transform: the action key is \"transform\"")
  T.eq(spin.duration, 0.25, "the block's changes use the default transaction, not 1.0")
  T.eq(spin.beginTime, 1.0, "and begin when the block ran")
  ca.advance(1.125)
  T.near(pres(L):valueForKeyPath("transform.rotation.z"), math.pi / 2 * curve:evaluate(0.5), EPS)
  T.near(pres(L):valueForKeyPath("transform.rotation.z"), 1.260412, 1e-6)
  ca.advance(1.25)
  T.near(pres(L):valueForKeyPath("transform.rotation.z"), math.pi / 2, EPS)
  T.eq(keys(L), "")
  ca.advance(3)
  T.eq(calls, 1, "exactly once")
end, opts)

T.test("D3 completion: none added → next step without time passing; 1 s and 3 s actions → once, at 3", function()
  local L = colorScene()
  local calls, at = 0, nil
  ca.Transaction.begin()
  ca.Transaction.setDisableActions(true)
  ca.Transaction.setCompletionBlock(function() calls = calls + 1; at = ca.mediaTime() end)
  L.backgroundColor = red
  ca.Transaction.commit()
  T.eq(calls, 0, "not inside commit")
  ca.step(0)
  T.eq(calls, 1, "at the next step")
  T.eq(at, 0)
  ca.step(1)
  T.eq(calls, 1)

  L.actions = { position = ca.BasicAnimation{ duration = 1 }, opacity = ca.BasicAnimation{ duration = 3 } }
  calls = 0
  ca.transaction({ completion = function() calls = calls + 1; at = ca.mediaTime() end }, function()
    L.position = {120, 120}
    L.opacity = 0.5
  end)
  ca.advance(2.5)
  T.eq(calls, 0, "waits for the longest")
  ca.advance(10)
  T.eq(calls, 1)
  T.eq(at, 4.0, "the 3 s animation began at t=1")
end, opts)

T.test("completion: removed animations count as done; blocks run after didStop, in commit order", function()
  local L = colorScene()
  local order = {}
  local anim = ca.BasicAnimation{ keyPath = "position", toValue = {200, 200}, duration = 1 }
  anim.delegate = { animationDidStop = function() order[#order + 1] = "didStop" end }
  ca.transaction({ completion = function() order[#order + 1] = "first" end }, function()
    L:addAnimation(anim, "move")
  end)
  ca.transaction({ completion = function() order[#order + 1] = "second" end }, function()
    L.opacity = 0.5                          -- 0.25 s: ends long before
  end)
  ca.step(0.5)
  T.eq(table.concat(order, ","), "second", "the opacity block first")
  L:removeAnimationForKey("move")
  ca.step(0)
  T.eq(table.concat(order, ","), "second,didStop,first", "the delegate hears the removal before the block")
end, opts)

T.test("completion: setting another block seals the first; the getter returns the function", function()
  local L = colorScene()
  local log = {}
  local function first() log[#log + 1] = string.format("first@%g", ca.mediaTime()) end
  ca.Transaction.begin()
  ca.Transaction.setAnimationDuration(1)
  ca.Transaction.setCompletionBlock(first)
  T.same(ca.Transaction.completionBlock(), first)
  L.backgroundColor = red                   -- counted for the first block only
  ca.Transaction.setCompletionBlock(function() log[#log + 1] = string.format("second@%g", ca.mediaTime()) end)
  ca.Transaction.commit()
  T.eq(ca.Transaction.completionBlock(), nil)
  ca.advance(2)
  T.eq(table.concat(log, ","), "second@0,first@1", "the second waited for nothing")
end, opts)

---------------------------------------------------------------------------
-- D1, D2: nested transactions

T.test("D1 nested transactions inherit and restore; all begin at the outer commit", function()
  ca.root.backgroundColor = white
  local layers = {}
  for i, name in ipairs{ "A", "B", "C", "D" } do
    layers[name] = ca.Layer{ bounds = {0, 0, 10, 10}, position = {0, i * 20} }
    ca.root:addSublayer(layers[name])
  end
  ca.step(1)
  ca.Transaction.begin()
  ca.Transaction.setAnimationDuration(2)
  ca.Transaction.setValue("outer", "note")
  layers.A.position = {100, 20}
  ca.Transaction.begin()
  T.eq(ca.Transaction.depth(), 2)
  T.eq(ca.Transaction.animationDuration(), 2, "inherited")
  T.eq(ca.Transaction.valueForKey("note"), "outer", "arbitrary keys inherit too")
  layers.B.position = {100, 40}
  ca.Transaction.commit()
  ca.Transaction.begin()
  ca.Transaction.setAnimationDuration(0.5)
  ca.Transaction.setValue("inner", "note")
  layers.C.position = {100, 60}
  ca.Transaction.commit()
  T.eq(ca.Transaction.animationDuration(), 2, "restored")
  T.eq(ca.Transaction.valueForKey("note"), "outer")
  layers.D.position = {100, 80}
  ca.Transaction.commit()
  T.eq(ca.Transaction.depth(), 0)
  T.eq(ca.Transaction.valueForKey("note"), nil)
  ca.flush()
  for name, d in pairs{ A = 2, B = 2, C = 0.5, D = 2 } do
    local a = layers[name]:animationForKey("position")
    T.eq(a.duration, d, name .. " duration")
    T.eq(a.beginTime, 1, name .. " begins at the outer commit")
  end
end, opts)

T.test("D1 an outer disableActions holds inside unless the inner transaction turns it back", function()
  local L = colorScene()
  ca.Transaction.begin()
  ca.Transaction.setDisableActions(true)
  ca.Transaction.begin()
  L.backgroundColor = red
  ca.Transaction.commit()
  ca.Transaction.begin()
  ca.Transaction.setDisableActions(false)
  L.position = {120, 120}
  ca.Transaction.commit()
  ca.Transaction.commit()
  T.eq(keys(L), "position")
end, opts)

T.test("D2 commit without begin is an error; the engine stays usable", function()
  local L = colorScene()
  T.raises(function() ca.Transaction.commit() end, "no open transaction")
  ca.Transaction.begin()
  ca.Transaction.commit()
  T.raises(function() ca.Transaction.commit() end, "commit without begin")
  L.backgroundColor = red
  T.eq(keys(L), "backgroundColor")
  ca.advance(1)
  T.near(pres(L).backgroundColor, red, 0)
end, opts)

T.test("an open explicit transaction defers the commit until the outermost commits", function()
  local L = colorScene()
  ca.Transaction.begin()
  ca.Transaction.setDisableActions(true)
  L.position = {200, 200}
  ca.step(0.5)
  T.eq(pres(L).position, {100, 100}, "not committed while the transaction is open")
  ca.Transaction.commit()
  ca.step(0)
  T.eq(pres(L).position, {200, 200})
end, opts)

T.test("transaction values: type checks, arbitrary keys, lock/unlock", function()
  T.raises(function() ca.Transaction.setAnimationDuration(-1) end, "animationDuration")
  T.raises(function() ca.Transaction.setAnimationDuration(0 / 0) end, "animationDuration")
  T.raises(function() ca.Transaction.setDisableActions(1) end, "boolean")
  T.raises(function() ca.Transaction.setAnimationTimingFunction("wobbly") end, "timing function")
  T.raises(function() ca.Transaction.setCompletionBlock(3) end, "function")
  ca.Transaction.lock(); ca.Transaction.unlock()
  ca.Transaction.begin()
  local t = {}
  ca.Transaction.setValue(t, "any table")
  T.same(ca.Transaction.valueForKey("any table"), t)
  ca.Transaction.setAnimationTimingFunction({0.1, 0.2, 0.3, 0.4})
  T.eq(ca.Transaction.animationTimingFunction(), {0.1, 0.2, 0.3, 0.4})
  ca.Transaction.setValue(0.7, "animationDuration")
  T.eq(ca.Transaction.animationDuration(), 0.7, "setValue with a CA key is the typed setter")
  ca.Transaction.commit()
  T.eq(ca.Transaction.valueForKey("any table"), nil)
  T.eq(ca.Transaction.animationTimingFunction(), nil)
end)

---------------------------------------------------------------------------
-- ca.transaction and ca.animate (UIView-style blocks)

T.test("ca.transaction: options, commit even when the body fails", function()
  local L = colorScene()
  local done = 0
  ca.transaction({ duration = 1, timingFunction = "linear", completion = function() done = done + 1 end }, function()
    L.backgroundColor = red
  end)
  T.eq(ca.Transaction.depth(), 0)
  ca.advance(0.5)
  T.near(pres(L).backgroundColor, {0.5, 0, 0.5, 1}, EPS)
  ca.advance(1)
  T.eq(done, 1)
  T.raises(function() ca.transaction({ duration = 1 }, function() error("boom") end) end, "boom")
  T.eq(ca.Transaction.depth(), 0, "committed on the way out")
  T.raises(function() ca.transaction({ speed = 2 }, function() end) end, "unknown option 'speed'")
  T.raises(function() ca.transaction({ duration = -1 }, function() end) end, "animationDuration")
  T.eq(ca.Transaction.depth(), 0)
  ca.transaction({ disableActions = true }, function() L.backgroundColor = blue end)
  T.eq(keys(L), "")
end, opts)

T.test("ca.animate: easeInEaseOut over the duration, completion(finished = true)", function()
  local L = colorScene()
  local finished, at
  ca.animate(1, function() L.position = {200, 100} end, function(f) finished, at = f, ca.mediaTime() end)
  local a = L:animationForKey("position")
  T.eq(a.duration, 1)
  T.eq(a.timingFunction, "easeInEaseOut")
  ca.advance(0.25)
  T.near(pres(L).position.x, 100 + 100 * easeInOut:evaluate(0.25), EPS)
  ca.advance(0.5)
  T.near(pres(L).position.x, 150, EPS, "easeInEaseOut is symmetric: halfway at half time")
  ca.advance(2)
  T.eq(finished, true)
  T.eq(at, 1)
  T.raises(function() ca.animate("1", function() end) end, "duration")
end, opts)

---------------------------------------------------------------------------
-- L7.4, L7.5: a view's backing layer (ca.ViewDelegate)

T.test("L7.4 a view-backed layer changes at once, even in a transaction", function()
  local L = colorScene()
  L.delegate = ca.ViewDelegate
  local done = 0
  ca.Transaction.begin()
  ca.Transaction.setAnimationDuration(1.0)
  ca.Transaction.setCompletionBlock(function() done = done + 1 end)
  L.backgroundColor = red
  ca.Transaction.commit()
  T.eq(keys(L), "", "no animation attached")
  ca.step(0)
  T.near(pres(L).backgroundColor, red, 0, "red at t=0")
  T.eq(done, 1, "the completion block did not wait: nothing was added")
end, opts)

T.test("L7.5 actionForLayer outside and inside an animation block", function()
  local L = colorScene()
  L.delegate = ca.ViewDelegate
  local outside = ca.ViewDelegate:actionForLayer(L, "backgroundColor")
  T.same(outside, ca.null, "Outside: <null> (NSNull, not nil)")
  T.eq(tostring(outside), "ca.null")
  T.eq(L:actionForKey("backgroundColor"), nil, "the lookup turns NSNull into no action")
  local inside
  ca.animate(0.5, function()
    inside = ca.ViewDelegate:actionForLayer(L, "backgroundColor")
    L.backgroundColor = red
  end)
  T.eq(inside.className, "BasicAnimation", "Inside: <CABasicAnimation>")
  T.eq(keys(L), "backgroundColor", "the view animates inside the block")
  ca.advance(0.25)
  T.near(pres(L).backgroundColor, mix(blue, red, 0.5), EPS, "easeInEaseOut at half time")
end, opts)

---------------------------------------------------------------------------
-- D4: the lookup order, case by case

T.test("D4 delegate → actions → style.actions → style.style.actions → default", function()
  local L = colorScene()
  local A = ca.BasicAnimation{ duration = 1 }
  local B = ca.BasicAnimation{ duration = 2 }
  local C = ca.BasicAnimation{ duration = 3 }
  local calls, answer = 0, nil
  L.delegate = { actionForLayer = function(self, layer, key)
    calls = calls + 1
    T.same(layer, L); T.eq(key, "opacity")
    return answer
  end }
  L.actions = { opacity = B }
  answer = A
  T.same(L:actionForKey("opacity"), A, "the delegate's action wins")
  answer = nil
  T.same(L:actionForKey("opacity"), B, "delegate nil → the actions dictionary")
  answer = ca.null
  T.eq(L:actionForKey("opacity"), nil, "delegate ca.null → no action")
  answer = false
  T.eq(L:actionForKey("opacity"), nil, "false is ca.null")
  L.delegate = nil
  L.actions = { opacity = ca.null }
  L.style = { actions = { opacity = C } }
  T.eq(L:actionForKey("opacity"), nil, "actions ca.null stops before the style")
  L.actions = nil
  T.same(L:actionForKey("opacity"), C, "style.actions")
  L.style = { style = { style = { actions = { opacity = C } } } }
  T.same(L:actionForKey("opacity"), C, "nested style.style…actions")
  L.style = nil
  local d = L:actionForKey("opacity")
  T.eq(d.className, "BasicAnimation", "nothing set → the default action")
  T.eq(d.keyPath, "opacity"); T.eq(d.duration, 0.25); T.eq(d.timingFunction, "default")
  L.defaultActionForKey = function(layer, key) return key == "opacity" and B or ca.Layer.defaultActionForKey(key) end
  T.same(L:actionForKey("opacity"), B, "a defaultActionForKey override is used")
  T.eq(L:actionForKey("position").keyPath, "position", "and may defer to ca.Layer.defaultActionForKey")
  L.defaultActionForKey = nil
  T.eq(L:actionForKey("name"), nil, "non-animatable properties have no default action")
  T.eq(ca.Layer.defaultActionForKey("contents").className, "Transition")
  T.eq(ca.Layer.defaultActionForKey("contents").type, "fade", "contents cross-fades (book l.1088)")
  T.eq(ca.Layer.defaultActionForKey("onOrderIn"), nil)
  T.eq(calls, 4)
end, opts)

T.test("D4 actions found are run: copied, keyPath and fromValue filled, their own duration kept", function()
  local L = colorScene()
  local B = ca.BasicAnimation{ duration = 2 }
  L.actions = { opacity = B }
  L.opacity = 0
  local a = L:animationForKey("opacity")
  T.falsy(rawequal(a, B), "a copy is attached")
  T.eq(B.keyPath, nil, "the dictionary's animation is untouched")
  T.eq(a.keyPath, "opacity"); T.eq(a.fromValue, 1); T.eq(a.duration, 2)
  T.eq(a.timingFunction, nil, "an action's own animation is linear unless the transaction says")
  ca.advance(1)
  T.near(pres(L).opacity, 0.5, EPS)
end, opts)

T.test("D4 with disableActions the delegate is not even asked", function()
  local L = colorScene()
  local calls = 0
  L.delegate = { actionForLayer = function() calls = calls + 1 end }
  ca.transaction({ disableActions = true }, function() L.opacity = 0.5 end)
  T.eq(calls, 0)
  L.opacity = 0.25
  T.eq(calls, 1, "asked when actions are on")
  T.eq(keys(L), "opacity", "nil answer → the default action")
end, opts)

T.test("custom actions: functions and objects with run(key, layer, args)", function()
  local L = colorScene()
  local seen = {}
  L.actions = {
    backgroundColor = function(key, layer, args) seen[#seen + 1] = { key = key, layer = layer, args = args } end,
    opacity = { run = function(self, key, layer) seen[#seen + 1] = { key = key, layer = layer, obj = self } end },
  }
  L.backgroundColor = red
  L.opacity = 0.5
  T.eq(#seen, 2)
  T.eq(seen[1].key, "backgroundColor"); T.same(seen[1].layer, L); T.eq(seen[1].args, nil)
  T.eq(seen[2].key, "opacity"); T.same(seen[2].obj, L.actions.opacity)
  T.eq(keys(L), "", "a custom action adds nothing by itself")
  T.eq(type(L.actions.backgroundColor), "function", "layer.actions reads back")
  -- A class instance (metatable) may inherit run.
  local Flash = {}
  Flash.__index = Flash
  function Flash:run(key, layer) layer:addAnimation(ca.BasicAnimation{ keyPath = "opacity", fromValue = 0 }, "flash") end
  L.actions = { position = setmetatable({}, Flash) }
  L.position = {110, 110}
  T.eq(keys(L), "flash")
end, opts)

T.test("actions and style: bad values are clear errors", function()
  local L = colorScene()
  T.raises(function() L.actions = 3 end, "expects a table")
  T.raises(function() L.actions = { opacity = 3 } end, "Layer.actions.opacity expects an animation")
  T.raises(function() L.actions = { opacity = true } end, "expects an animation")
  T.raises(function() L.actions = { opacity = {} } end, "run(key, layer, args)")
  T.raises(function() L.actions = { [1] = ca.null } end, "keys must be")
  T.raises(function() L.style = { opacity = 1 } end, "not supported")
  local loop = {}
  loop.style = loop
  T.raises(function() L.style = loop end, "nest more than 32")
  T.raises(function() L.delegate = 5 end, "Layer.delegate expects an object")
  T.raises(function() pres(L).actions = {} end, "presentation layer")
  T.eq(L.actions, nil, "nothing was set")
end, opts)

T.test("an action that fails: the setter raises, the model keeps its value, the engine goes on", function()
  local L = colorScene()
  L.actions = { opacity = function() error("action exploded") end }
  T.raises(function() L.opacity = 0.5 end, "action exploded")
  T.eq(L.opacity, 0.5)
  L.actions = { opacity = function(key, layer) layer.opacity = 0.25 end }
  T.raises(function() L.opacity = 0.5 end, "nested more than 16 deep")
  L.actions = nil
  L.opacity = 1
  ca.advance(1)
  T.eq(pres(L).opacity, 1)
  -- A delegate that fails inside a transaction it opened leaves none open.
  L.delegate = { actionForLayer = function() ca.Transaction.begin(); error("late") end }
  T.raises(function() L.opacity = 0.5 end, "late")
  T.eq(ca.Transaction.depth(), 0)
end, opts)

---------------------------------------------------------------------------
-- D5, D18, D20

T.test("D5 a change during an animation retargets from where the layer is", function()
  local L = ca.Layer{ bounds = {0, 0, 10, 10}, position = {0, 50} }
  ca.root:addSublayer(L)
  ca.step(0)
  local stopped = {}
  local move = ca.BasicAnimation{ delegate = { animationDidStop = function(_, a, f) stopped[#stopped + 1] = f end } }
  local function go(x)
    ca.transaction({ duration = 1, timingFunction = "linear" }, function()
      L.actions = { position = move }
      L.position = {x, 50}
    end)
  end
  go(100)
  ca.advance(0.5)
  T.near(pres(L).position.x, 50, EPS)
  go(200)
  T.near(pres(L).position.x, 50, EPS, "no jump")
  ca.step(0)
  T.near(pres(L).position.x, 50, EPS, "no jump after the commit")
  T.eq(stopped[1], false, "the replaced animation did not finish")
  ca.advance(1.0)
  T.near(pres(L).position.x, 125, EPS)
  ca.advance(1.5)
  T.near(pres(L).position.x, 200, EPS)
end, opts)

T.test("D5 inside a transaction left open across steps, the replaced animation shows until the commit", function()
  local L = ca.Layer{ bounds = {0, 0, 10, 10}, position = {0, 50} }
  ca.root:addSublayer(L)
  ca.step(0)
  local stops = {}
  local move = ca.BasicAnimation{ delegate = { animationDidStop = function(_, _, f) stops[#stops + 1] = { ca.mediaTime(), f } end } }
  L.actions = { position = move }
  ca.transaction({ duration = 1, timingFunction = "linear" }, function() L.position = {100, 50} end)
  ca.advance(0.5)
  ca.Transaction.begin()
  ca.Transaction.setAnimationDuration(1)
  ca.Transaction.setAnimationTimingFunction("linear")
  L.position = {200, 50}
  T.eq(keys(L), "position", "listed once: the replacement")
  ca.step(0.1)
  T.near(pres(L).position.x, 60, EPS, "the old animation still shows, not the model value")
  T.eq(#stops, 0)
  ca.Transaction.commit()
  ca.step(0)
  T.eq(stops[1][2], false, "replaced at the commit")
  T.eq(stops[1][1], 0.6)
  T.near(pres(L).position.x, 50, EPS, "the new one starts from the value seen when the change was made")
  ca.advance(1.1)
  T.near(pres(L).position.x, 125, EPS)
end, opts)

T.test("D18 frame is not animatable: position and bounds are", function()
  local L = colorScene()
  ca.transaction({ duration = 1 }, function() L.frame = {0, 0, 50, 60} end)
  local k = L:animationKeys()
  table.sort(k)
  T.eq(table.concat(k, ","), "bounds,position")
  T.eq(L:actionForKey("frame"), nil)
end, opts)

T.test("D20 an explicit animation with duration 0 takes the transaction's duration", function()
  local L = colorScene()
  ca.transaction({ duration = 2 }, function()
    L:addAnimation(ca.BasicAnimation{ keyPath = "opacity", fromValue = 0, toValue = 1 }, "fade")
  end)
  ca.advance(1)
  T.near(pres(L).opacity, 0.5, EPS, "linear: its own timing function (nil) stays linear")
  ca.advance(2)
  T.eq(keys(L), "")
end, opts)

---------------------------------------------------------------------------
-- L7.6 and transitions as actions

local function transitionScene(kind, subtype, masks)
  local L = colorScene()
  ca.transaction({ disableActions = true }, function() L.masksToBounds = masks or false end)
  ca.step(0)
  L.actions = { backgroundColor = ca.Transition{ type = kind, subtype = subtype } }
  L.backgroundColor = red
  return L
end

T.test("L7.6 a push transition as the backgroundColor action slides red in from the left", function()
  local L = transitionScene("push", "fromLeft")
  T.near(L.backgroundColor, red, 0)
  T.eq(keys(L), "transition", "a transition action is added under \"transition\"")
  ca.advance(0.125)
  local img = ca.render()
  T.pixel(img, 70, 100, red, 2, "the new colour came in from the left")
  T.pixel(img, 130, 100, blue, 2, "the old colour is leaving to the right")
  T.pixel(img, 20, 100, red, 2, "not clipped: masksToBounds is off (spec §5-13)")
  T.pixel(img, 170, 100, blue, 2)
  T.golden(img, "ch07/l76_push_t0125")
  ca.advance(0.25)
  img = ca.render()
  T.pixel(img, 60, 100, red); T.pixel(img, 140, 100, red); T.pixel(img, 170, 100, white)
  T.eq(keys(L), "")
end, opts)

T.test("L7.6 variants: clipped push, fade, moveIn, reveal, directions", function()
  local L = transitionScene("push", "fromLeft", true)
  ca.advance(0.125)
  local img = ca.render()
  T.pixel(img, 20, 100, white, 2, "masksToBounds clips the slide")
  T.pixel(img, 70, 100, red, 2)
  T.pixel(img, 130, 100, blue, 2)
  for _, case in ipairs{
    { "fade", nil, { 70, 100, mix(blue, red, 0.5) }, { 130, 100, mix(blue, red, 0.5) } },
    { "moveIn", "fromLeft", { 70, 100, red }, { 130, 100, blue } },
    { "reveal", "fromLeft", { 70, 100, red }, { 130, 100, blue } },
    { "push", "fromRight", { 70, 100, blue }, { 130, 100, red } },
    { "push", "fromTop", { 100, 70, red }, { 100, 130, blue } },
    { "push", "fromBottom", { 100, 70, blue }, { 100, 130, red } },
  } do
    ca.reset(opts)
    transitionScene(case[1], case[2], true)
    ca.advance(0.125)
    img = ca.render()
    for i = 3, 4 do
      T.pixel(img, case[i][1], case[i][2], case[i][3], 2, case[1] .. " " .. tostring(case[2]))
    end
  end
  -- moveIn leaves the old content still; reveal leaves the new content still.
  ca.reset(opts)
  transitionScene("moveIn", "fromLeft")
  ca.advance(0.125)
  T.pixel(ca.render(), 170, 100, white, 2, "moveIn: the old content does not move")
  ca.reset(opts)
  transitionScene("reveal", "fromLeft")
  ca.advance(0.125)
  T.pixel(ca.render(), 170, 100, blue, 2, "reveal: the old content slides away")
end, opts)

T.test("L7.6 variant: actions = { backgroundColor = ca.null } (or false) changes instantly", function()
  for _, stop in ipairs{ ca.null, false } do
    ca.reset(opts)
    local L = colorScene()
    L.actions = { backgroundColor = stop }
    L.backgroundColor = red
    T.eq(keys(L), "")
    ca.step(0)
    T.near(pres(L).backgroundColor, red, 0)
  end
end, opts)

T.test("Transition properties and errors", function()
  local t = ca.Transition()
  T.eq(t.type, "fade"); T.eq(t.subtype, nil); T.eq(t.startProgress, 0); T.eq(t.endProgress, 1)
  T.raises(function() t.type = "cube" end, "must be one of")
  T.raises(function() t.subtype = "sideways" end, "must be nil or one of")
  T.raises(function() t.startProgress = 2 end, "within 0…1")
  T.raises(function() t.filter = "CIFilter" end, "not supported")
  local L = colorScene()
  L:addAnimation(ca.Transition{ startProgress = 0.5, timingFunction = "linear" }, "transition")
  ca.transaction({ disableActions = true }, function() L.backgroundColor = red end)
  ca.step(0)
  T.pixel(ca.render(), 100, 100, {0.5, 0, 0.5, 1}, 2, "a fade starting at half way")
end, opts)

---------------------------------------------------------------------------
-- Special keys: onOrderIn, onOrderOut, sublayers, hidden

T.test("onOrderIn: a layer fades in when it joins the tree", function()
  colorScene()
  local N = ca.Layer{ frame = {200, 200, 50, 50}, backgroundColor = red }
  N.actions = { onOrderIn = ca.BasicAnimation{ keyPath = "opacity", fromValue = 0, toValue = 1 } }
  ca.root:addSublayer(N)
  T.eq(keys(N), "onOrderIn")
  ca.step(0)
  T.eq(pres(N).opacity, 0)
  ca.advance(0.125)
  T.near(pres(N).opacity, 0.5, EPS, "linear: the action's own timing")
  ca.advance(0.25)
  T.eq(pres(N).opacity, 1)
end, opts)

T.test("onOrderIn / onOrderOut: joining, leaving, hiding; moves within the tree send neither", function()
  local L = colorScene()
  local events = {}
  local function log(key, layer) events[#events + 1] = key end
  local P = ca.Layer{ frame = {0, 0, 20, 20} }
  P.actions = { onOrderIn = log, onOrderOut = log }
  ca.root:addSublayer(P)
  L:addSublayer(P)                            -- a move: still shown
  P.hidden = true
  P.hidden = false
  P:removeFromSuperlayer()
  ca.root:addSublayer(P)
  ca.root.sublayers = { L }
  T.eq(table.concat(events, ","), "onOrderIn,onOrderOut,onOrderIn,onOrderOut,onOrderIn,onOrderOut")
  ca.transaction({ disableActions = true }, function() ca.root:addSublayer(P) end)
  T.eq(#events, 6, "disableActions covers events too")
end, opts)

T.test("sublayers action: a fade transition on the container when a sublayer is added", function()
  local C = colorScene()
  C.actions = { sublayers = ca.Transition{ type = "fade" } }
  C:addSublayer(ca.Layer{ frame = {0, 0, 100, 100}, backgroundColor = red })
  T.eq(keys(C), "transition")
  ca.advance(0.125)
  T.pixel(ca.render(), 100, 100, mix(blue, red, 0.5), 2, "the new sublayer fades in")
  ca.advance(0.25)
  T.pixel(ca.render(), 100, 100, red)
end, opts)

T.test("hidden is animatable as a discrete value: it switches at eased progress one half", function()
  local L = colorScene()
  L.hidden = true
  T.eq(keys(L), "hidden")
  ca.advance(0.02)                          -- eased progress curve(0.08) < 0.5
  T.truthy(curve:evaluate(0.08) < 0.5)
  T.falsy(pres(L).hidden)
  T.pixel(ca.render(), 100, 100, blue)
  ca.advance(0.2)                           -- curve(0.8) > 0.5
  T.truthy(pres(L).hidden)
  T.pixel(ca.render(), 100, 100, white)
end, opts)

---------------------------------------------------------------------------
-- L7.7: hit testing the presentation layer

T.test("L7.7 hitTest on the presentation layer finds the layer where it is seen", function()
  ca.root.backgroundColor = white
  local L = ca.Layer{ bounds = {0, 0, 100, 100}, position = {100, 150}, backgroundColor = red }
  ca.root:addSublayer(L)
  ca.step(0)
  ca.transaction({ duration = 4 }, function() L.position = {300, 150} end)
  ca.advance(2)
  T.near(pres(L).position.x, 100 + 200 * curve:evaluate(0.5), 1e-9)
  T.near(pres(L).position.x, 260.4806, 1e-4)
  T.truthy(pres(L):hitTest({230, 150}), "where the user sees it")
  T.eq(L:hitTest({230, 150}), nil, "the model is already at its destination")
  T.truthy(L:hitTest({340, 150}))
  T.eq(pres(L):hitTest({340, 150}), nil)
  T.same(ca.root:presentation():hitTest({230, 150}):modelLayer(), L, "through the presentation tree")
  -- The "tap on the layer" branch: a colour change does not disturb the move.
  L.backgroundColor = blue
  ca.advance(2.125)
  T.near(pres(L).backgroundColor, mix(red, blue, curve:evaluate(0.5)), EPS)
  T.near(pres(L).position.x, 100 + 200 * curve:evaluate(2.125 / 4), 1e-9)
  T.near(pres(L).position.x, 266.347, 1e-3)
  ca.advance(4)
  T.eq(pres(L).position, {300, 150})
end, { size = {400, 300} })

T.test("ca.reset clears open transactions", function()
  ca.Transaction.begin()
  ca.Transaction.begin()
  ca.reset(opts)
  T.eq(ca.Transaction.depth(), 0)
end)

---------------------------------------------------------------------------
-- The README example, loaded from examples/ (found from this file's path)

T.test("README example examples/colors.lua: frame 49 (t = 49/30 s) mid-fade, turned, mid-push", function()
  local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
  dofile(here .. "/../../examples/colors.lua")
  for i = 0, 49 do ca.advance(i / 30) end
  local implicit, completion, pushed = ca.root.sublayers[1], ca.root.sublayers[2], ca.root.sublayers[3]
  local t = 49 / 30 - 1.5                       -- the second tap was at 1.5 s
  local crimson, seagreen = {220 / 255, 20 / 255, 60 / 255, 1}, {46 / 255, 139 / 255, 87 / 255, 1}
  T.near(pres(implicit).backgroundColor, mix(crimson, seagreen, curve:evaluate(t / 0.25)), EPS)
  T.near(pres(completion):valueForKeyPath("transform.rotation.z"), math.pi / 2, EPS, "turned once, at 1.25 s")
  T.near(pres(completion).backgroundColor, mix(crimson, seagreen, curve:evaluate(t / 1.0)), EPS)
  T.eq(keys(pushed), "transition")
  local img = ca.render()
  T.pixel(img, 360, 120, seagreen, 2, "the new colour is half way in")
  T.pixel(img, 440, 120, crimson, 2, "the old one half way out")
  T.golden(img, "ch07/colors_example_f49")
end, { size = {480, 240} })
