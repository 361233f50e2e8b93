-- Interaction and the host loop (issue #8): the five interactive examples, each loaded
-- from examples/ (found from this file's path) with its JSON Lines events file, checked
-- against the spec's numbers, and stepped at different rates to the same frames (the
-- event model's other rules are in events.lua).
--   examples/tap_colors     listing 7.1 (spec book-ch07-09.md L7.1)
--   examples/tap_moving     listing 7.7 (L7.7)
--   examples/door_scrub     listing 9.4 (L9.4)
--   examples/bounce_replay  listing 10.6 (book-ch10-15.md, listing 10.6)
--   examples/crates         listing 11.4 (book-ch10-15.md, listing 11.4)
-- Tolerances: positions ±0.05 pt, colours ±2/255, rotations 1e-4 (spec §2 conventions).
local ca = require "caluna"
local T = require "caluna.test"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local EXAMPLES = here .. "/../../examples/"

local POS, COLOUR, ROT = 0.05, 2 / 255, 1e-4
local pi = math.pi
local blue, red, green = { 0, 0, 1, 1 }, { 1, 0, 0, 1 }, { 0, 1, 0, 1 }
local curve = ca.MediaTimingFunction("default")

local function mix(a, b, f)
  return { a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f, a[3] + (b[3] - a[3]) * f, a[4] + (b[4] - a[4]) * f }
end

--- Runs examples/NAME.lua (it reads ca.size()), then queues examples/NAME.jsonl unless
--- withEvents is false. Returns what the scene returned and the number of events queued.
local function example(name, withEvents)
  local result = dofile(EXAMPLES .. name .. ".lua")
  local n = 0
  if withEvents ~= false then n = ca.loadEvents(EXAMPLES .. name .. ".jsonl") end
  return result, n
end

--- caluna_layer_find's search: the first layer with that name, depth-first, pre-order,
--- sublayers in array order, the root included.
local function find(name, layer)
  layer = layer or ca.root
  if layer.name == name then return layer end
  for _, s in ipairs(layer.sublayers) do
    local f = find(name, s)
    if f then return f end
  end
  return nil
end

local function named(name)
  local l = find(name)
  T.truthy(l, "the scene has a layer named '" .. name .. "'")
  return l
end

local function pres(l) return l:presentation() end
local function keys(l) return table.concat(l:animationKeys(), ",") end

--- Moves the clock to t by whole frames of 1/fps s (t must be on a frame).
local function framesOf(fps)
  local k = 0
  return function(t)
    local target = math.floor(t * fps + 0.5)
    assert(math.abs(target / fps - t) < 1e-9, "t = " .. t .. " is not on a 1/" .. fps .. " s frame")
    while k < target do ca.step(1 / fps); k = k + 1 end
  end
end
local function bigAdvance(t) ca.advance(t) end

--- Runs a fresh engine three ways — 1/30 s frames, 1/60 s frames, one ca.advance per
--- sample — and requires bit-identical probe() values at every sample time.
local function sameForEveryStep(size, setup, times, probe)
  local runs = {}
  for i, mover in ipairs { framesOf(30), framesOf(60), bigAdvance } do
    ca.reset { size = size }
    setup()
    local values = {}
    for _, t in ipairs(times) do
      mover(t)
      T.eq(ca.mediaTime(), t, "the clock reached t = " .. t)
      values[#values + 1] = probe()
    end
    runs[i] = values
  end
  local labels = { "1/30 s frames", "1/60 s frames", "one advance" }
  for r = 2, 3 do
    for s, t in ipairs(times) do
      local a, b = runs[1][s], runs[r][s]
      T.eq(#b, #a)
      for j = 1, #a do
        if a[j] ~= b[j] then
          T.eq(b[j], a[j], string.format("t = %g, value %d: %s vs 1/30 s frames", t, j, labels[r]))
        end
      end
    end
  end
  return runs[1]
end

---------------------------------------------------------------------------------------------
-- examples/tap_colors: listing 7.1, a tap sets the next colour; the change animates.
---------------------------------------------------------------------------------------------

local TAP_COLORS = { size = { 300, 300 } }

T.test("tap_colors: a tap on colorLayer animates to red implicitly (0.25 s, default curve); a tap beside it does nothing", function()
  local _, n = example("tap_colors")
  T.eq(n, 8, "four taps: a down and an up each")
  local colorLayer, layerView = named("colorLayer"), named("layerView")
  T.same(colorLayer.superlayer, layerView)
  ca.step(0)
  T.near(pres(colorLayer).backgroundColor, blue, 0, "t=0: the book's blue")
  T.eq(keys(colorLayer), "", "set up before the first commit: nothing animates")
  T.same(ca.hitLayer { 150, 150 }, colorLayer)
  T.same(ca.hitLayer { 70, 230 }, layerView)

  ca.advance(0.5)    -- the tap at 0.5 s is delivered at 0.5 s and committed then
  T.near(colorLayer.backgroundColor, red, 0, "the model is red at once")
  T.eq(keys(colorLayer), "backgroundColor", "an implicit animation, under the property's name")
  local a = colorLayer:animationForKey("backgroundColor")
  T.eq(a.className, "BasicAnimation")
  T.eq(a.duration, 0.25, "the transaction's default duration")
  T.eq(a.timingFunction, "default")
  T.near(pres(colorLayer).backgroundColor, blue, COLOUR, "t=0.5: the animation has just begun")
  ca.advance(0.625)
  T.near(pres(colorLayer).backgroundColor, mix(blue, red, 0.802403), COLOUR, "t=0.625: mix 0.802403")
  T.near(pres(colorLayer).backgroundColor, { 0.8024, 0, 0.1976, 1 }, COLOUR)
  T.pixel(ca.render(), 150, 150, { 205 / 255, 0, 50 / 255 }, 2, "t=0.625")
  ca.advance(0.75)
  T.near(pres(colorLayer).backgroundColor, red, 0, "t=0.75: red")
  T.eq(keys(colorLayer), "", "the animation is gone")
  T.pixel(ca.render(), 150, 150, "#ff0000", 2, "t=0.75")

  ca.advance(1.5)    -- the tap at (70, 230) hits layerView, which has no handler
  T.near(colorLayer.backgroundColor, red, 0, "t=1.5: a tap beside the layer changes nothing")
  T.eq(keys(colorLayer), "")
  T.eq(ca.pendingEvents(), 4, "two taps left")
end, TAP_COLORS)

T.test("tap_colors: red → green at 2 s, → blue when the 0.1 s tap ends at 3 s (golden mid-animation)", function()
  example("tap_colors")
  local colorLayer = named("colorLayer")
  ca.advance(2)
  T.near(colorLayer.backgroundColor, green, 0, "the second colour of the cycle")
  ca.advance(2.125)
  T.near(pres(colorLayer).backgroundColor, mix(red, green, 0.802403), COLOUR, "t=2.125")
  local img = ca.render()
  T.pixel(img, 150, 150, { 50 / 255, 205 / 255, 0 }, 2)
  T.pixel(img, 70, 230, "#ffffff", 2, "layerView")
  T.golden(img, "interactions/tap_colors")
  ca.advance(2.95)   -- the last tap is down (since 2.9) but not up: not a tap yet
  T.near(colorLayer.backgroundColor, green, 0, "t=2.95: still green")
  T.eq(keys(colorLayer), "")
  ca.advance(3)
  T.near(colorLayer.backgroundColor, blue, 0, "t=3: the tap ended: blue")
  ca.advance(3.125)
  T.near(pres(colorLayer).backgroundColor, mix(green, blue, 0.802403), COLOUR, "t=3.125")
  ca.advance(3.25)
  T.near(pres(colorLayer).backgroundColor, blue, 0, "t=3.25")
  T.eq(ca.pendingEvents(), 0)
end, TAP_COLORS)

---------------------------------------------------------------------------------------------
-- examples/tap_moving: listing 7.7, hit-testing the presentation layer.
---------------------------------------------------------------------------------------------

local TAP_MOVING = { size = { 400, 300 } }
local X2 = 100 + 200 * 0.802403                -- pres x at t=2: 260.4806
local X2125 = 100 + 200 * 0.831735             -- pres x at t=2.125: f(2.125/4) = 0.831735 → 266.347

T.test("tap_moving: the tap at 230 hits the presentation at t=2 (blue), the move is unaffected (golden)", function()
  local _, n = example("tap_moving")
  T.eq(n, 8)
  local colorLayer = named("colorLayer")
  T.eq(colorLayer.position, { 100, 150 }, "the book's layer at (100, 150) in a 400×300 view")
  T.eq(colorLayer.bounds, { 0, 0, 100, 100 })
  ca.step(0)         -- the tap at t=0 (300, 150) misses the layer: it sets off for there
  T.eq(colorLayer.position, { 300, 150 }, "the model moved at once")
  T.eq(keys(colorLayer), "position")
  T.eq(colorLayer:animationForKey("position").duration, 4, "the 4 s transaction")
  T.eq(colorLayer:animationForKey("position").timingFunction, "default")
  T.near(pres(colorLayer).position, { 100, 150 }, POS, "t=0")
  T.near(colorLayer.backgroundColor, red, 0, "a miss does not change the colour")

  ca.advance(2)      -- the tap at (230, 150): where the layer is drawn, not where it is going
  T.near(pres(colorLayer).position.x, X2, POS, "t=2: pres x = 260.48")
  T.near(pres(colorLayer).position.x, 260.48, POS)
  T.near(colorLayer.backgroundColor, blue, 0, "the tap hit: the first colour of the cycle")
  T.eq(colorLayer.position, { 300, 150 }, "a hit does not move the layer")
  T.eq(keys(colorLayer), "position,backgroundColor", "the move goes on beside the new colour animation")
  T.same(ca.hitLayer { 230, 150 }, colorLayer, "the presentation covers 210.48 … 310.48")
  T.same(ca.hitLayer { 340, 150 }, ca.root, "the model's place (250 … 350) beyond the drawn layer is empty")
  T.truthy(pres(colorLayer):hitTest { 230, 150 }, "presentationLayer hitTest (230, 150)")
  T.eq(colorLayer:hitTest { 230, 150 }, nil, "model hitTest (230, 150)")
  T.truthy(colorLayer:hitTest { 340, 150 }, "model hitTest (340, 150)")
  T.eq(pres(colorLayer):hitTest { 340, 150 }, nil, "presentationLayer hitTest (340, 150)")

  ca.advance(2.125)
  T.near(pres(colorLayer).position, { X2125, 150 }, POS, "t=2.125: the position animation is unaffected")
  T.near(pres(colorLayer).position.x, 266.35, POS)
  T.near(pres(colorLayer).backgroundColor, mix(red, blue, 0.802403), COLOUR, "t=2.125: colour mix 0.802403")
  local img = ca.render()
  T.pixel(img, 266, 150, { 50 / 255, 0, 205 / 255 }, 2, "the layer's centre")
  T.pixel(img, 330, 150, "#ffffff", 2, "where the model is, nothing is drawn")
  T.golden(img, "interactions/tap_moving")
  ca.advance(4)
  T.near(pres(colorLayer).position, { 300, 150 }, POS, "t=4: arrived")
  T.eq(keys(colorLayer), "")
  ca.advance(5)      -- a tap on the arrived layer: green
  T.near(colorLayer.backgroundColor, green, 0)
  T.eq(colorLayer.position, { 300, 150 })
  ca.advance(6)      -- a tap at (80, 220), off the layer: it moves there
  T.eq(colorLayer.position, { 80, 220 })
  T.near(colorLayer.backgroundColor, green, 0)
  ca.advance(10)
  T.near(pres(colorLayer).position, { 80, 220 }, POS, "t=10")
end, TAP_MOVING)

T.test("tap_moving: a tap at (340, 150) at t=2, where the model is, misses: the layer is sent there instead", function()
  example("tap_moving", false)
  local colorLayer = named("colorLayer")
  ca.send { type = "tap", time = 0, x = 300, y = 150 }
  ca.send { type = "tap", time = 2, x = 340, y = 150 }
  local where
  ca.on("tap", function(e) where = { e.target, e:locationIn(colorLayer) } end)
  ca.advance(2)
  T.same(where[1], ca.root, "the tap's target")
  T.near(where[2], { 340 - (X2 - 50), 50 }, POS, "locationIn: in the layer as drawn (before it was sent on)")
  T.near(colorLayer.backgroundColor, red, 0, "not hit: still red")
  T.eq(colorLayer.position, { 340, 150 }, "a miss: moved to the tap")
  T.eq(keys(colorLayer), "position", "one position animation, the new one")
  T.near(pres(colorLayer).position.x, X2, POS, "t=2: it sets off from where it was drawn (no jump)")
  ca.advance(4)
  T.near(pres(colorLayer).position.x, X2 + (340 - X2) * curve:evaluate(0.5), POS, "t=4: half-way in time")
  ca.advance(6)
  T.near(pres(colorLayer).position, { 340, 150 }, POS, "t=6")
end, TAP_MOVING)

T.test("tap_moving with ca.hitTestTree(\"model\"): the tap at 340 hits, the tap at 230 misses", function()
  example("tap_moving", false)
  local colorLayer = named("colorLayer")
  ca.hitTestTree("model")
  ca.send { type = "tap", time = 0, x = 300, y = 150 }
  ca.send { type = "tap", time = 2, x = 340, y = 150 }
  ca.advance(2)
  T.same(ca.hitLayer { 340, 150 }, colorLayer, "the model covers 250 … 350")
  T.same(ca.hitLayer { 230, 150 }, ca.root)
  T.near(colorLayer.backgroundColor, blue, 0, "hit where the model is")
  T.eq(colorLayer.position, { 300, 150 })
  ca.advance(2.125)
  T.near(pres(colorLayer).position.x, X2125, POS, "the move is unaffected")
  T.near(pres(colorLayer).backgroundColor, mix(red, blue, 0.802403), COLOUR)

  ca.reset { size = { 400, 300 } }
  example("tap_moving", false)
  colorLayer = named("colorLayer")
  ca.hitTestTree("model")
  ca.send { type = "tap", time = 0, x = 300, y = 150 }
  ca.send { type = "tap", time = 2, x = 230, y = 150 }
  ca.advance(2)
  T.near(colorLayer.backgroundColor, red, 0, "the tap on what is drawn misses the model")
  T.eq(colorLayer.position, { 230, 150 }, "so it moves the layer")
  T.near(pres(colorLayer).position.x, X2, POS, "from where it was drawn")
end, TAP_MOVING)

---------------------------------------------------------------------------------------------
-- examples/door_scrub: listing 9.4, a pan scrubs the paused door.
---------------------------------------------------------------------------------------------

local DOOR = { size = { 300, 380 } }
local function rotY(l) return pres(l):valueForKeyPath("transform.rotation.y") end

T.test("door_scrub: a 100 pt drag to the left opens the door to timeOffset 0.5 = −π/4, pan by pan (golden)", function()
  local _, n = example("door_scrub")
  T.eq(n, 4 * 2 + 20 + 10 + 28 + 27, "each drag: a down, its moves, an up")
  local door = named("door")
  T.truthy(named("container").sublayerTransform.m34 == -1 / 500, "the perspective m34 = −1/500")
  T.eq(door.anchorPoint, { 0, 0.5 }); T.eq(door.position, { 86, 150 }); T.eq(door.bounds, { 0, 0, 128, 256 })
  local pans = {}
  ca.on("pan", function(e) pans[#pans + 1] = { time = e.time, state = e.state, dx = e.translation.x } end)
  ca.step(0)
  T.eq(door.speed, 0, "paused")
  T.eq(door.timeOffset, 0)
  T.near(rotY(door), 0, ROT, "t=0: closed")
  T.eq(keys(door), "door", "the paused animation, attached")
  T.eq(door:animationForKey("door").keyPath, "transform.rotation.y")
  ca.advance(0.6)    -- 0.55: 5 pt, 0.6: 10 pt from the down point — within the tap slop
  T.eq(#pans, 0, "no pan before the pointer is more than 10 pt from where it went down")
  T.eq(door.timeOffset, 0)
  ca.advance(0.65)   -- 15 pt: the pan begins, its translation measured from the down point
  T.eq(#pans, 1)
  T.eq(pans[1].state, "began"); T.eq(pans[1].dx, -15); T.near(pans[1].time, 0.65, 1e-12)
  T.near(door.timeOffset, 0.075, 1e-12, "15/200")
  T.near(rotY(door), -pi / 2 * 0.075, ROT)
  ca.advance(1)      -- 50 pt
  T.near(door.timeOffset, 0.25, 1e-12, "half-way through the drag")
  T.near(rotY(door), -pi / 8, ROT)
  ca.advance(1.5)
  T.near(door.timeOffset, 0.5, 1e-12, "the spec: dx = −100 from 0 → timeOffset 0.5")
  T.near(rotY(door), -0.785398, ROT, "−π/4")
  local sum = 0
  for i, p in ipairs(pans) do
    sum = sum + p.dx
    if i > 1 and i < #pans then T.eq(p.state, "changed") T.eq(p.dx, -5, "each move after setTranslation{0, 0}") end
  end
  T.eq(pans[#pans].state, "ended"); T.eq(pans[#pans].dx, 0, "the up is where the last move was")
  T.eq(#pans, 1 + 17 + 1, "began (3rd move), 17 changes, ended")
  T.eq(sum, -100, "the translations add up to the drag")
  local img = ca.render()
  T.golden(img, "interactions/door_scrub")
  ca.advance(1.9)
  T.near(rotY(door), -pi / 4, ROT, "it stays where it was left")
end, DOOR)

T.test("door_scrub: back 50 pt → 0.25 (−π/8); far left → clamped 0.999 (−1.569225); far right → 0", function()
  example("door_scrub")
  local door = named("door")
  ca.advance(2.5)
  T.near(door.timeOffset, 0.25, 1e-12)
  T.near(rotY(door), -pi / 8, ROT, "0.25 → −π/8")
  T.near(rotY(door), -0.392699, ROT)
  ca.advance(4)
  T.eq(door.timeOffset, 0.999, "clamped")
  T.near(rotY(door), -1.569225, ROT, "0.999 → −1.569225")
  T.eq(keys(door), "door", "still attached: the clamp keeps it from completing")
  ca.advance(5.5)
  T.eq(door.timeOffset, 0)
  T.near(rotY(door), 0, ROT, "closed")
  ca.advance(100)
  T.eq(keys(door), "door", "paused forever")
  T.eq(door.transform, ca.Transform3D.identity, "the model door never moved")
end, DOOR)

---------------------------------------------------------------------------------------------
-- examples/bounce_replay: listing 10.6, a tap replays the bounce from its own time.
---------------------------------------------------------------------------------------------

local BOUNCE = { size = { 300, 320 } }
-- The spec's table: presentation y at t seconds into the animation (x = 150 throughout).
local BOUNCE_Y = {
  { 0, 32 }, { 0.1, 68.855 }, { 0.15, 106.424 }, { 0.2, 152.750 }, { 0.3, 268 }, { 0.4, 180.366 },
  { 0.5, 140 }, { 0.6, 180.366 }, { 0.7, 268 }, { 0.75, 235.137 }, { 0.8, 220 }, { 0.85, 235.137 },
  { 0.9, 268 }, { 0.925, 255.676 }, { 0.95, 250 }, { 0.975, 255.676 }, { 1.0, 268 },
}

local function checkBounce(ball, start, label)
  for _, e in ipairs(BOUNCE_Y) do
    ca.advance(start + e[1])
    T.near(pres(ball).position, { 150, e[2] }, POS, string.format("%s: t = %g + %g", label, start, e[1]))
  end
end

T.test("bounce_replay: the bounce at load, and the spec's table again from the tap at 1.5 s", function()
  local _, n = example("bounce_replay")
  T.eq(n, 6)
  local ball = named("ball")
  ca.step(0)
  T.eq(ball.position, { 150, 268 }, "the model is on the floor")
  T.eq(keys(ball), "bounce", "setting the model with actions disabled added no animation")
  checkBounce(ball, 0, "at load")
  ca.advance(1.25)
  T.eq(keys(ball), "", "done")
  T.near(pres(ball).position, { 150, 268 }, POS)
  checkBounce(ball, 1.5, "tap at 1.5")
  ca.advance(2.5)
  T.eq(keys(ball), "")
end, BOUNCE)

T.test("bounce_replay: a tap at 3 s restarts it (y(3.1) = 68.855 …); a tap at 3.6 s mid-bounce starts over (golden)", function()
  example("bounce_replay")
  local ball = named("ball")
  ca.advance(3)
  T.eq(keys(ball), "bounce")
  T.near(pres(ball).position.y, 32, POS, "t=3: from the top")
  for _, e in ipairs { { 3.1, 68.855 }, { 3.2, 152.750 }, { 3.5, 140 } } do
    ca.advance(e[1])
    T.near(pres(ball).position, { 150, e[2] }, POS, "t=" .. e[1])
  end
  ca.advance(3.6)    -- the third tap, 0.6 s into this bounce (y would be 180.366)
  T.near(pres(ball).position, { 150, 32 }, POS, "t=3.6: started over from the top")
  T.eq(keys(ball), "bounce", "one animation: the old one was removed")
  T.eq(ball.position, { 150, 268 })
  ca.advance(3.7)
  T.near(pres(ball).position.y, 68.855, POS, "t=3.7 = 3.6 + 0.1")
  local img = ca.render()
  T.pixel(img, 150, 68.855, "crimson", 2, "the ball")
  T.pixel(img, 150, 180, "#f2efe8", 2, "where the old bounce would be")
  T.golden(img, "interactions/bounce_replay")
  ca.advance(3.6 + 0.75)
  T.near(pres(ball).position.y, 235.137, POS, "t=4.35 = 3.6 + 0.75")
  ca.advance(4.6)
  T.near(pres(ball).position.y, 268, POS, "t=4.6: on the floor")
  T.eq(keys(ball), "")
end, BOUNCE)

---------------------------------------------------------------------------------------------
-- examples/crates: listing 11.4, the accelerometer maps to gravity.
---------------------------------------------------------------------------------------------

local CRATES = { size = { 340, 360 } }
local SIZES = { 32, 32, 64, 32, 64, 48, 40, 56 }   -- listing 11.4's crates in the book's order, then three more

local CrateBox = dofile(T.dir .. "/fixtures/crate_box.lua")

T.test("crates: the tilt at 2.5 s sets gravity (y·1000, −x·1000) exactly, at its own time; layers follow the crates", function()
  local scene, n = example("crates")
  T.eq(n, 3)
  local world, crates = scene.world, scene.crates
  T.eq(#crates, 8)
  ca.step(0)
  T.eq(world.gravity, { 0, -1000 })
  for i = 1, 5 do
    local l = named("crate" .. (i - 1))
    T.same(l.superlayer, named("box"))
    T.eq(l.bounds, { 0, 0, SIZES[i], SIZES[i] })
  end
  ca.advance(2.49)
  T.eq(world.gravity, { 0, -1000 }, "t=2.49: not yet")
  ca.advance(2.5)
  T.eq(world.gravity, { 0.92 * 1000, -0.4 * 1000 }, "t=2.5: the mapping of (0.4, 0.92)")
  T.eq(world.gravity, { 920, -400 })
  ca.advance(3.5)
  for i, c in ipairs(crates) do
    T.eq(named("crate" .. (i - 1)).position, c.position, "crate" .. (i - 1) .. "'s layer follows its body")
  end
  local img = ca.render()
  T.golden(img, "interactions/crates")
  ca.advance(5)
  T.eq(world.gravity, { 1000, 0 }, "t=5: (0, 1) → (1000, 0)")
  ca.advance(7)
  T.eq(world.gravity, { -0.6 * 1000, -0.8 * 1000 }, "t=7: (0.8, −0.6) → (−600, −800)")
  -- Any reading: the handler's mapping, exactly.
  ca.send { type = "tilt", x = -0.37, y = 0.61, z = -0.7 }
  ca.step(0)
  T.eq(world.gravity, { 0.61 * 1000, 0.37 * 1000 })
end, CRATES)

T.test("crates: tilt (x=0, y=1) → gravity (1000, 0); 20 s later every crate rests against the right wall or a crate", function()
  local scene = example("crates", false)
  ca.send { type = "tilt", time = 3, x = 0, y = 1 }
  ca.advance(3)
  T.eq(scene.world.gravity, { 1000, 0 })
  for _ = 1, 20 * 30 do ca.step(1 / 30) end
  T.eq(ca.mediaTime(), 23)
  CrateBox.checkPushedRight(scene.crates, SIZES)
end, CRATES)

---------------------------------------------------------------------------------------------
-- Step-size independence: input is handled at its own time, whatever the frames.
---------------------------------------------------------------------------------------------

T.test("step size: tap_moving's events give identical presentation values at 1/30, 1/60 and one advance", function()
  local out = sameForEveryStep({ 400, 300 }, function() example("tap_moving") end, { 1, 2, 2.1, 3, 5.5, 6.5, 10 },
    function()
      local p = pres(named("colorLayer"))
      local c = p.backgroundColor
      return { p.position.x, p.position.y, c[1] or c.r, c[2] or c.g, c[3] or c.b }
    end)
  T.near(out[2][1], X2, POS, "t=2")
end, TAP_MOVING)

T.test("step size: door_scrub's pan events (every 0.05 s, between frames) give identical door angles", function()
  local out = sameForEveryStep({ 300, 380 }, function() example("door_scrub") end, { 0.6, 1, 1.5, 2.2, 2.5, 3.5, 4, 5, 5.5 },
    function()
      local door = named("door")
      return { door.timeOffset, rotY(door) }
    end)
  T.near(out[3][2], -pi / 4, ROT, "t=1.5")
  T.eq(out[7][1], 0.999, "t=4")
end, DOOR)

T.test("step size: a tap between frames (t = 0.37 s) replays bounce_replay identically", function()
  local times = { 0.4, 0.5, 0.7, 1, 1.5, 1.6, 3.1, 3.7 }
  local out = sameForEveryStep({ 300, 320 }, function()
    example("bounce_replay")
    ca.send { type = "tap", time = 0.37, x = 10, y = 10 }
  end, times, function() local p = pres(named("ball")).position return { p.x, p.y } end)
  -- 0.03 s into the replay: early in the first drop (easeIn from 32), not at a frame's time.
  local easeIn = ca.MediaTimingFunction("easeIn")
  T.near(out[1][2], 32 + 236 * easeIn:evaluate(0.03 / 0.3), POS, "t=0.4 = 0.37 + 0.03")
  T.near(out[5][2], 32, POS, "t=1.5: the jsonl's tap starts it over")
  T.near(out[6][2], 68.855, POS, "t=1.6: 0.1 s after the jsonl's tap at 1.5")
end, BOUNCE)

T.test("step size: crates's tilts give bit-identical crates at 1/30, 1/60 and one advance, also off the physics step", function()
  local times = { 2.5, 3, 4.5, 6, 9 }
  local function probe()
    local s = {}
    for i = 1, 5 do
      local l = named("crate" .. (i - 1))
      s[#s + 1] = l.position.x; s[#s + 1] = l.position.y
      s[#s + 1] = l:valueForKeyPath("transform.rotation.z")
    end
    return s
  end
  sameForEveryStep({ 340, 360 }, function() example("crates") end, times, probe)
  -- A tilt at 2.51 s: between frames and between the 1/120 s physics steps.
  sameForEveryStep({ 340, 360 }, function()
    example("crates", false)
    ca.send { type = "tilt", time = 2.51, x = 0.4, y = 0.92 }
  end, times, probe)
end, CRATES)
