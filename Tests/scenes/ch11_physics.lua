-- Chapter 11.3–11.5 (physics with Chipmunk): listing 11.3 (one falling crate, a
-- variable step from a display link), listing 11.4 (walls, five crates,
-- accelerometer gravity), listing 11.5 (the fixed 1/120 s step: step counts,
-- determinism, tunnelling, the spiral-of-death guard), then the rest of the
-- ca.physics surface: collision callbacks, constraints, queries, bodies, layer
-- binding, shapes and the moment/area helpers.
-- Spec: shared/spec/book-ch10-15.md §1.2.7 (Physics: Chipmunk), §2 listings 11.3–11.5
-- with their TEST blocks, §4 F22–F30; DESIGN.md §3 (frame order) and §4 (Physics).
-- Conventions: the clock starts at 0; a world made with ca.physics.World is stepped
-- by the engine's clock in fixed steps (1/120 s by default) unless it is paused;
-- world:step(dt) is one manual cpSpaceStep(dt). Worlds are y-up (Chipmunk); on
-- screen they sit in a geometryFlipped container, as in the book.
local ca = require "caluna"
local T = require "caluna.test"
local F = dofile(T.dir .. "/fixtures/images.lua")
local P = ca.physics

local STEP = 1 / 120                   -- the book's SIMULATION_STEP (L1136)
local GRAVITY = 1000                   -- the book's GRAVITY (L1008)
local SIZE = { size = { 300, 300 } }   -- the book's 300×300 container (L981)
local HALF_PI = math.pi / 2

---------------------------------------------------------------------------
-- Shared helpers

--- A 300×300 geometryFlipped container filling the root: y-up like Chipmunk (F23).
local function flippedContainer()
  ca.root.backgroundColor = "#ffffff"
  local c = ca.Layer{ frame = { 0, 0, 300, 300 }, geometryFlipped = true }
  ca.root:addSublayer(c)
  return c
end

local MARKER = { 255, 0, 0 }           -- the crate image's top-left 8×8 marker (bytes)
local CRATE_RGB = { { 160, 110, 50 }, { 60, 120, 200 }, { 60, 170, 80 }, { 200, 170, 40 }, { 150, 70, 160 } }
local function hex(c) return string.format("#%02x%02x%02x", c[1], c[2], c[3]) end
local function crateColor(i) return hex(CRATE_RGB[i]) end

--- A size×size crate image made in code: a plain colour with a red 8×8 marker in
--- its top-left corner (image rows grow downwards), so an upside-down crate shows.
local function crateImage(size, i)
  local c = CRATE_RGB[i or 1]
  return F.make(size, size, function(x, y)
    if x < 8 and y < 8 then return MARKER[1], MARKER[2], MARKER[3] end
    return c[1], c[2], c[3]
  end)
end

--- The four wall segments of listing 11.4 on the world's static body: a hollow
--- 300×300 rectangle (F24), radius 1, collision type 2, friction 0.5, elasticity 0.8.
local function addWalls(world)
  local sb, out = world.staticBody, {}
  for i, s in ipairs{ { { 0, 0 }, { 300, 0 } }, { { 300, 0 }, { 300, 300 } },
                      { { 300, 300 }, { 0, 300 } }, { { 0, 300 }, { 0, 0 } } } do
    out[i] = sb:addSegment{ a = s[1], b = s[2], radius = 1, collisionType = 2, friction = 0.5, elasticity = 0.8 }
  end
  return out   -- floor, right, top, left
end

--- Listing 11.3's Crate: mass 100, moment cpMomentForBox, the book's clockwise
--- corners (0,0),(0,h),(w,h),(w,0) offset by (−w/2, −h/2), friction 0.5,
--- elasticity 0.8; the UIKit frame (300-pt container) becomes the y-up body
--- position (x + w/2, 300 − y − h/2). With a container, a crate layer is bound.
local function addCrate(world, frame, container, i)
  local x, y, w, h = frame[1], frame[2], frame[3], frame[4]
  local body = world:addBody{ mass = 100, moment = P.momentForBox(100, w, h),
                              position = { x + w / 2, 300 - y - h / 2 } }
  body:addPolygon{ points = { { -w / 2, -h / 2 }, { -w / 2, h / 2 }, { w / 2, h / 2 }, { w / 2, -h / 2 } },
                   friction = 0.5, elasticity = 0.8, collisionType = "crate" }
  local layer
  if container then
    layer = ca.Layer{ bounds = { 0, 0, w, h }, contents = crateImage(w, i), contentsGravity = "resizeAspectFill" }
    container:addSublayer(layer)
    body:bind(layer)
  end
  return body, layer
end

-- Listing 11.4's crates, frames in the top-left (UIKit) space of the container.
local FIVE = { { 0, 0, 32, 32 }, { 32, 0, 32, 32 }, { 64, 0, 64, 64 }, { 128, 0, 32, 32 }, { 0, 32, 64, 64 } }

--- Walls and the five crates in a new world (fixed step, clock-driven).
local function fiveCrateWorld(container)
  local world = P.World{ gravity = { 0, -GRAVITY } }
  addWalls(world)
  local crates, layers = {}, {}
  for i, f in ipairs(FIVE) do crates[i], layers[i] = addCrate(world, f, container, i) end
  return world, crates, layers
end

--- Every number of the bodies' state, for bit-exact comparisons.
local function snapshot(bodies)
  local s = {}
  for _, b in ipairs(bodies) do
    local p, v = b.position, b.velocity
    for _, n in ipairs{ p.x, p.y, b.angle, v.x, v.y, b.angularVelocity } do s[#s + 1] = n end
  end
  return s
end

local function sameNumbers(a, b, what)
  T.eq(#a, #b, what .. ": as many numbers")
  for i = 1, #a do
    if a[i] ~= b[i] then T.eq(a[i], b[i], string.format("%s: number %d differs", what, i)) end
  end
end

--- Steps the clock by dt, n times.
local function run(n, dt) for _ = 1, n do ca.step(dt) end end

--- Distance from an angle to the nearest multiple of π/2.
local function offRightAngle(a)
  local k = math.floor(a / HALF_PI + 0.5)
  return math.abs(a - k * HALF_PI)
end

local CrateBox = dofile(T.dir .. "/fixtures/crate_box.lua")
local len = CrateBox.len
local function dist(p, q) return math.sqrt((p.x - q.x) ^ 2 + (p.y - q.y) ^ 2) end

---------------------------------------------------------------------------
-- Listing 11.3: one crate, a variable step from a display link

--- The listing 11.3 scene: a paused world (the clock does not step it) that a
--- display link steps by hand with the measured frame duration.
local function listing11_3()
  local container = flippedContainer()
  local world = P.World{ gravity = { 0, -GRAVITY }, paused = true }
  local crate, layer = addCrate(world, { 100, 0, 100, 100 }, container)
  local s = { world = world, crate = crate, layer = layer, frames = {}, lastStep = ca.mediaTime() }
  s.link = ca.displayLink(function()
    local now = ca.mediaTime()
    world:step(now - s.lastStep)
    s.lastStep = now
    local p, a = crate.position, crate.angle
    s.frames[#s.frames + 1] = { body = p, angle = a, layer = layer.position,
                                rotation = layer:valueForKeyPath("transform.rotation.z"),
                                transform = layer.transform }
  end)
  return s
end

T.test("11.3(a) 60 steps of 1/60 s: y = 250 − 1000·(1/60)²·60·59/2 = −241.667, v = −1000", function()
  local s = listing11_3()
  T.eq(s.crate.position, { 150, 250 }, "frame (100,0,100,100) → body (150, 250)")
  T.eq(s.crate.mass, 100)
  for n = 1, 60 do
    ca.step(1 / 60)
    -- Chipmunk integrates the position with the previous velocity: y_n = y0 − g·dt²·n(n−1)/2.
    T.near(s.crate.position.y, 250 - GRAVITY * (1 / 60) ^ 2 * n * (n - 1) / 2, 1e-9, "y after " .. n .. " steps")
  end
  T.eq(s.world.steps, 60, "one manual step per frame; a paused world takes none from the clock")
  T.near(s.crate.position.y, -241.6666666667, 1e-9)
  T.near(s.crate.velocity.y, -1000, 1e-9)
  T.eq(s.crate.position.x, 150)
  T.eq(s.crate.angle, 0)
  T.truthy(s.crate.position.y > -258.3333, "not the velocity-first form (−258.333)")
end, SIZE)

T.test("11.3(b) after every frame the bound layer's position is the body's, its rotation the angle", function()
  local s = listing11_3()
  T.eq(s.layer.position, { 150, 250 }, "bound at once")
  -- A spin shows the rotation is synced too (the book's crate falls flat, angle 0).
  s.crate.angularVelocity = 1.5
  for _ = 1, 60 do ca.step(1 / 60) end
  T.eq(#s.frames, 60)
  for k, f in ipairs(s.frames) do
    T.eq(f.layer, f.body, "frame " .. k .. ": layer.position == body.position exactly")
    T.near(f.rotation, f.angle, 1e-12, "frame " .. k .. ": rotation == angle")
    T.near(f.transform, ca.Transform3D.rotation(f.angle, 0, 0, 1), 1e-15, "frame " .. k .. ": a pure rotation")
  end
  T.near(s.frames[60].angle, 1.5, 1e-12, "60 steps of 1/60 s at 1.5 rad/s")
  T.eq(#s.layer:animationKeys(), 0, "the sync makes no implicit animation")
  T.eq(s.layer:presentation().position, s.layer.position)
end, SIZE)

T.test("11.3(c) pixels: at t = 0 the crate covers rows 0..99 of the flipped container, upright", function()
  local s = listing11_3()
  local img = ca.render()
  -- Rows [300 − (y + 50), 300 − (y − 50)) = [0, 100) for y = 250; columns 100..199.
  T.pixel(img, 150, 50, crateColor(1), 3, "the crate's middle")
  T.pixel(img, 150, 99.5, crateColor(1), 3, "row 99 is still crate")
  T.pixel(img, 150, 100.5, "#ffffff", 3, "row 100 is background")
  T.pixel(img, 99.5, 50, "#ffffff", 3, "column 99 is background")
  T.pixel(img, 100.5, 50, crateColor(1), 3, "column 100 is crate")
  -- The marker is in the image's top-left: upright contents under a flipped geometry.
  T.pixel(img, 103, 3, hex(MARKER), 3, "marker at the crate's top-left")
  T.pixel(img, 103, 96, crateColor(1), 3, "not at its bottom-left (an upside-down image)")
  T.pixel(img, 196, 3, crateColor(1), 3, "not at its top-right (a mirrored image)")
  T.golden(img, "ch11/physics_11_3_t0")
  -- A quarter of a second later (15 frames) it has fallen 250 − y_15 points.
  for _ = 1, 15 do ca.step(1 / 60) end
  local y = s.crate.position.y
  T.near(y, 250 - GRAVITY * (1 / 60) ^ 2 * 15 * 14 / 2, 1e-9)
  img = ca.render()
  local top = 300 - (y + 50)
  T.pixel(img, 150, top - 1, "#ffffff", 3, "above the fallen crate")
  T.pixel(img, 150, top + 1, crateColor(1), 3, "the fallen crate's top row")
  T.pixel(img, 103, top + 3, hex(MARKER), 3, "the marker fell with it")
end, SIZE)

---------------------------------------------------------------------------
-- Listing 11.4: walls, crates, accelerometer gravity (fixed step from the clock)

T.test("11.4 single crate in the walls: first floor contact at t ≈ 0.642, the apexes, at rest by t = 5", function()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local walls = addWalls(world)
  local crate = addCrate(world, { 100, 0, 100, 100 })
  local floorHits = {}
  world:addCollisionHandler{ typeA = "crate", typeB = 2, begin = function(arb)
    T.same(arb.bodyA, crate, "shape a has the handler's first type")
    if rawequal(arb.shapeB, walls[1]) then
      floorHits[#floorHits + 1] = { t = world.time, y = crate.position.y, vy = crate.velocity.y, n = arb.normal }
    end
  end }
  local apexes, prevVy, first = {}, 0, nil
  for _ = 1, 300 do
    ca.step(1 / 60)
    local vy = crate.velocity.y
    if prevVy > 0 and vy <= 0 then apexes[#apexes + 1] = { t = ca.mediaTime(), y = crate.position.y } end
    if #floorHits == 1 and not first then first = crate.velocity.y end
    prevVy = vy
  end
  T.truthy(#floorHits >= 5, "it bounces several times (e = 0.8 · 0.8 = 0.64)")
  local hit = floorHits[1]
  -- The bottom (y − 50) reaches the floor's top (y = 1) first in step 77: 200 − g·dt²·77·76/2 < 1.
  T.near(hit.t, 0.642, STEP, "first floor contact t ≈ 0.642 (spec, one step)")
  T.near(hit.t, 77 * STEP, 1e-12, "in the 77th step")
  T.near(hit.y, 46.7, 0.1, "y ≈ 46.7 at the contact")
  T.near(hit.vy, -633.3, 0.5, "vy ≈ −633 before it (g·dt·76 = 633.3 after 76 steps)")
  T.near(hit.n, { 0, -1 }, 1e-12, "normal from the crate down to the floor")
  T.truthy(first and first > 380 and first < 420, "vy ≈ +405 after it (e = 0.64): " .. tostring(first))
  -- Chipmunk reference apexes: 130.8 at 1.050 s, then 82.5, 63.7, 56.2, 53.2.
  T.near(apexes[1].y, 130.8, 0.1, "first apex")
  T.near(apexes[1].t, 1.050, 1 / 60, "first apex time")
  for i, y in ipairs{ 82.5, 63.7, 56.2, 53.2 } do T.near(apexes[i + 1].y, y, 0.1, "apex " .. (i + 1)) end
  -- At rest: 50 + wall radius 1 − a little slop penetration.
  local p, v = crate.position, crate.velocity
  T.near(ca.mediaTime(), 5, 1e-12)
  T.truthy(p.y >= 50.8 and p.y <= 51.05, "y ∈ [50.8, 51.05]: " .. p.y)
  T.truthy(math.abs(crate.angle) < 0.01, "|angle| < 0.01: " .. crate.angle)
  T.truthy(len(v) < 0.01, "|v| < 0.01: " .. len(v))
  T.truthy(p.x >= 148 and p.x <= 153, "x ∈ [148, 153]: " .. p.x)
end, SIZE)

--- The spec's invariants of a settled pile of square crates: at rest, inside the
--- walls, flat, and resting on the floor or on a crate under it.
local function checkSettled(crates, label)
  for i, c in ipairs(crates) do
    local p, half = c.position, FIVE[i][3] / 2
    local what = label .. ", crate #" .. (i - 1)
    T.truthy(len(c.velocity) < 0.05, what .. ": |v| < 0.05 (" .. len(c.velocity) .. ")")
    T.truthy(math.abs(c.angularVelocity) < 0.05, what .. ": |ω| < 0.05")
    T.truthy(p.x - half >= 0.5 and p.x + half <= 299.5 and p.y - half >= 0.5, what .. ": inside the walls")
    T.truthy(offRightAngle(c.angle) < 0.02, what .. ": flat (angle " .. c.angle .. ")")
    local bottom = p.y - half
    local supported = bottom >= 0.8 and bottom <= 1.1
    for j, d in ipairs(crates) do
      local q, dh = d.position, FIVE[j][3] / 2
      if j ~= i and math.abs(q.x - p.x) < half + dh and math.abs(q.y + dh - bottom) <= 0.5 then supported = true end
    end
    T.truthy(supported, what .. ": on the floor or on a crate under it (bottom " .. bottom .. ")")
  end
end

--- Listing 11.4's accelerometer delegate (landscape: x and y swapped, F26).
local function gravityFromAcceleration(ax, ay) return { ay * GRAVITY, -ax * GRAVITY } end

T.test("11.4 accelerometer mapping: (ax, ay) → gravity (ay·1000, −ax·1000)", function()
  T.eq(gravityFromAcceleration(0, -1), { -1000, 0 })
  T.eq(gravityFromAcceleration(0, 1), { 1000, 0 }, "the spec's (x=0, y=1) → (1000, 0)")
  T.eq(gravityFromAcceleration(1, 0), { 0, -1000 })
  T.eq(gravityFromAcceleration(-0.5, 0.25), { 250, 500 })
  local world = P.World{}
  T.eq(world.gravity, { 0, 0 }, "Chipmunk's default gravity")
  world.gravity = gravityFromAcceleration(-0.5, 0.25)
  T.eq(world.gravity, { 250, 500 })
end)

T.test("11.4 five crates: at t = 10 s every crate rests flat inside the walls, on the floor or a crate", function()
  local world, crates = fiveCrateWorld()
  T.eq(crates[1].position, { 16, 284 })
  T.eq(crates[3].position, { 96, 268 })
  T.eq(crates[5].position, { 32, 236 })
  T.eq(crates[1].moment, P.momentForBox(100, 32, 32))
  run(600, 1 / 60)
  T.eq(world.steps, 1200)
  checkSettled(crates, "t = 10 s")
  -- The walls never move (F25): the static body is not affected by gravity.
  T.eq(world.staticBody.position, { 0, 0 })
  T.eq(world.staticBody.type, "static")
  run(60, 1 / 60)
  checkSettled(crates, "t = 11 s")
end, SIZE)

T.test("11.4 gravity (1000, 0) for 20 s: every crate against the right wall or a crate on its right", function()
  local world, crates = fiveCrateWorld()
  run(600, 1 / 60)
  world.gravity = gravityFromAcceleration(0, 1)
  run(1200, 1 / 60)
  local sizes = {}
  for i, f in ipairs(FIVE) do sizes[i] = f[3] end
  CrateBox.checkPushedRight(crates, sizes)
  for i, c in ipairs(crates) do
    T.truthy(offRightAngle(c.angle) < 0.02, "crate #" .. (i - 1) .. " flat")
    T.truthy(c.position.y - FIVE[i][3] / 2 >= 0.5, "crate #" .. (i - 1) .. " above the floor")
  end
end, SIZE)

T.test("11.4 golden: the settled pile in the flipped container, layers bound to the crates", function()
  local container = flippedContainer()
  local world, crates, layers = fiveCrateWorld(container)
  local img0 = ca.render()
  -- Crate #2 (frame (64,0,64,64)) starts at the top: screen rows 0..63, marker top-left.
  T.pixel(img0, 96, 32, crateColor(3))
  T.pixel(img0, 67, 3, hex(MARKER))
  run(600, 1 / 60)
  for i, l in ipairs(layers) do
    T.eq(l.position, crates[i].position, "layer " .. i .. " follows its crate")
    T.eq(#l:animationKeys(), 0)
  end
  local img = ca.render()
  for i, c in ipairs(crates) do
    -- The crate's centre on screen is (x, 300 − y).
    local sx, sy, half = c.position.x, 300 - c.position.y, FIVE[i][3] / 2
    T.pixel(img, sx, sy, crateColor(i), 3, "crate #" .. (i - 1) .. " drawn at its body")
    -- A counter-clockwise angle turns the crate counter-clockwise on screen (spec §1.2.7):
    -- the top-left marker moves to the bottom-left after +π/2, to the top-right after −π/2.
    local k = math.floor(c.angle / HALF_PI + 0.5) % 4
    local corner = ({ { -1, -1 }, { -1, 1 }, { 1, 1 }, { 1, -1 } })[k + 1]
    T.pixel(img, sx + corner[1] * (half - 3), sy + corner[2] * (half - 3), hex(MARKER), 3,
            "crate #" .. (i - 1) .. "'s marker after " .. k .. " quarter turns")
  end
  T.golden(img, "ch11/physics_11_4_settled")
end, SIZE)

---------------------------------------------------------------------------
-- Listing 11.5: the fixed 1/120 s step (drift-free: an integer tick accumulator)

T.test("11.5(a) step counts: 2 per 1/60 s frame, 120 for a 1.0 s hitch, 360 for 3.0 s; ahead by < 1/120", function()
  -- The book's loop catches up however long the frame: no cap (the default is 16 a frame, 11.5(d)).
  local world = P.World{ gravity = { 0, -GRAVITY }, maxStepsPerFrame = 0 }
  T.eq(world.steps, 0)
  local perFrame = {}
  ca.displayLink(function() perFrame[#perFrame + 1] = world.steps end)
  local function frame(dt)
    local before = world.steps
    ca.step(dt)
    local ahead = world.time - ca.mediaTime()
    T.truthy(ahead >= 0 and ahead < STEP, "simulatedTime − mediaTime ∈ [0, 1/120): " .. ahead)
    return world.steps - before
  end
  for k = 1, 60 do T.eq(frame(1 / 60), 2, "1/60 s frame " .. k) end
  T.eq(perFrame[60], 118, "display links run before the frame's physics steps (DESIGN §3)")
  T.eq(world.time, 1.0)
  ca.render()
  T.eq(frame(1.0), 120, "a 1.0 s hitch: 120 steps (the book's += loop takes 121)")
  T.eq(ca.stats().physicsSteps, 120, "ca.stats counts the steps since the last render")
  T.eq(frame(3.0), 360, "3.0 s: 360 steps (the book: 361)")
  T.eq(world.steps, 600)
  T.eq(world.time, 5.0)
  -- Irregular frames: whatever the split, steps = ceil(elapsed / step).
  local frames = { 0.005, 0.031, 0.001, 0.0125, 0.2, 1 / 30, 0.004 }
  for _, dt in ipairs(frames) do frame(dt) end
  local elapsed = ca.mediaTime()
  T.eq(world.steps, math.ceil(elapsed * 120 - 1e-9), "steps = ⌈t / step⌉")
end)

T.test("11.5(a) a world made at T0 = 0.5 or 12.345 takes 2 steps at T0 + 1/60 (the book's loop: 3)", function()
  for _, t0 in ipairs{ 0.5, 12.345 } do
    ca.reset{ size = { 300, 300 } }
    ca.advance(t0)
    local world = P.World{ gravity = { 0, -GRAVITY }, maxStepsPerFrame = 0 }   -- the book's loop
    T.eq(world.time, ca.mediaTime(), "the simulation starts at the clock")
    ca.step(1 / 60)
    T.eq(world.steps, 2, "T0 = " .. t0)
    ca.step(1.0)
    T.eq(world.steps, 122, "T0 = " .. t0 .. ", then a 1 s hitch")
  end
end)

--- The five-crate scene run to t = 3 s with the given frame durations; the body
--- states and the step count (a fresh world each time).
local function fiveCratesAt3s(frames)
  ca.reset{ size = { 300, 300 } }
  local world, crates = fiveCrateWorld()
  local i = 0
  while ca.mediaTime() < 3 do
    i = i + 1
    ca.advance(math.min(ca.mediaTime() + frames[(i - 1) % #frames + 1], 3))
  end
  T.eq(ca.mediaTime(), 3)
  return snapshot(crates), world.steps, i
end

T.test("11.5(b) determinism: 60 Hz frames, irregular 0.005/0.031 frames and a second run agree bit for bit", function()
  local a, stepsA, framesA = fiveCratesAt3s{ 1 / 60 }
  local b, stepsB, framesB = fiveCratesAt3s{ 0.005, 0.031 }
  local c, stepsC = fiveCratesAt3s{ 1 / 60 }
  T.eq(framesA, 180)
  T.truthy(framesB ~= framesA, "a different frame pattern")
  T.eq(stepsA, 360, "360 steps (drift-free; the book's loop takes 361)")
  T.eq(stepsB, 360)
  T.eq(stepsC, 360)
  sameNumbers(b, a, "irregular frames vs 60 Hz")
  sameNumbers(c, a, "a second run of the same scene")
  -- It is not trivially the same: the crates have moved and rotated.
  T.truthy(a[2] < 284 - 100, "crate #0 fell")
end, SIZE)

--- Listing 11.5(c)'s bullet: a static vertical segment x = 100 (y −100..100,
--- radius 1, e 0.8), a circle r 4, m 1, e 0.8 at (50, 0) moving at (1000, 0), no gravity.
local function bulletScene(paused)
  local world = P.World{ paused = paused }
  world.staticBody:addSegment{ a = { 100, -100 }, b = { 100, 100 }, radius = 1, elasticity = 0.8 }
  local bullet = world:addBody{ mass = 1, position = { 50, 0 }, velocity = { 1000, 0 } }
  bullet:addCircle{ radius = 4, elasticity = 0.8 }
  return world, bullet
end

T.test("11.5(c) tunnelling: fixed 1/120 s steps bounce the bullet; two 0.1 s steps pass through the wall (F28)", function()
  local world, bullet = bulletScene(false)
  T.eq(bullet.moment, P.momentForCircle(1, 0, 4), "moment from the circle")
  run(12, 1 / 60)
  T.eq(world.steps, 24, "0.2 s of 1/120 s steps")
  T.truthy(bullet.position.x < 100, "bounced: x = " .. bullet.position.x)
  T.truthy(bullet.velocity.x < 0, "moving back")
  -- It met the wall (x = 95) at t ≈ 0.045 and came back at 0.64 × 1000 (e = 0.8·0.8):
  -- the Chipmunk reference is x = 3.749.
  T.near(bullet.velocity.x, -640, 1e-9, "rebound speed e·1000")
  T.near(bullet.position.x, 3.749, 0.001, "the reference x")
  local manual, b2 = bulletScene(true)
  manual:step(0.1)
  T.near(b2.position.x, 150, 1e-6, "beyond the wall after one long step")
  manual:step(0.1)
  T.near(b2.position.x, 250, 1e-6, "x = 250: passed through")
  T.eq(b2.velocity, { 1000, 0 }, "never touched it")
  T.eq(manual.steps, 2)
end)

T.test("11.5(d) maxStepsPerFrame caps the steps and counts the dropped ones; a paused world does not catch up", function()
  -- The default bounds a long frame (the book's death spiral): 16 steps, the rest dropped.
  local default = P.World{}
  T.eq(default.maxStepsPerFrame, 16, "the default: 16 steps a frame (0, the book's no cap, only when asked for)")
  ca.step(1.0)
  T.eq({ default.steps, default.droppedSteps }, { 16, 104 }, "a 1.0 s hitch: 16 of its 120 steps taken")
  ca.step(1e6)
  T.eq({ default.steps, default.droppedSteps }, { 32, 104 + 1.2e8 - 16 }, "a 10^6 s frame: 16 more steps, not 1.2e8")
  T.eq(default.time, ca.mediaTime(), "the dropped time is skipped, not owed")
  T.raises(function() default:step(10.5) end, "World:step: step: dt must be in (0, 10] seconds (got 10.5)",
           "a manual step is one cpSpaceStep: a longer one is refused, not split")
  default:destroy()
  local world = P.World{ gravity = { 0, -GRAVITY }, maxStepsPerFrame = 4 }
  T.eq(world.maxStepsPerFrame, 4)
  local body = world:addBody{ mass = 1, moment = 1, position = { 0, 0 } }
  ca.step(1 / 60)
  T.eq(world.steps, 2)
  T.eq(world.droppedSteps, 0)
  ca.step(0.1)
  T.eq(world.steps, 6, "12 steps due, 4 taken")
  T.eq(world.droppedSteps, 8)
  T.eq(world.time, ca.mediaTime(), "the dropped time is skipped, not owed")
  -- Only the 6 steps taken count in the fall.
  T.near(body.position.y, -GRAVITY * STEP ^ 2 * 6 * 5 / 2, 1e-9)
  ca.step(1 / 60)
  T.eq(world.steps, 8, "back to 2 steps a frame")
  world.maxStepsPerFrame = 0
  ca.step(0.1)
  T.eq(world.steps, 20, "no cap: all 12")
  T.eq(world.droppedSteps, 8)
  world.paused = true
  T.eq(world.paused, true)
  local y = body.position.y
  run(60, 1 / 60)
  T.eq(world.steps, 20, "no steps while paused")
  T.eq(body.position.y, y)
  world.paused = false
  ca.step(1 / 60)
  T.eq(world.steps, 22, "unpaused: 2 steps, not the paused second's 120")
  world:step(1 / 120)
  T.eq(world.steps, 23, "world:step works too")
end)

T.test("world settings: Chipmunk's defaults (spec §1.2.7), read back; World{step = 1/60} and world.step = …", function()
  local world = P.World{}
  T.eq(world.iterations, 10)
  T.eq(world.gravity, { 0, 0 })
  T.eq(world.damping, 1)
  T.near(world.collisionSlop, 0.1, 1e-8, "0.1 (Chipmunk stores 0.1f)")
  T.near(world.collisionBias, (1 - 0.1) ^ 60, 1e-8, "(1 − 0.1)^60, in single precision")
  T.eq(world.collisionPersistence, 3)
  T.eq(world.idleSpeedThreshold, 0)
  T.eq(world.sleepTimeThreshold, math.huge)
  T.eq(world.paused, false)
  T.eq(world.destroyed, false)
  local tuned = P.World{ gravity = { 1, 2 }, iterations = 20, damping = 0.5, idleSpeedThreshold = 3,
                         sleepTimeThreshold = 4, collisionSlop = 0.5, collisionBias = 0.25, collisionPersistence = 5,
                         maxStepsPerFrame = 6 }
  T.eq({ tuned.gravity.x, tuned.gravity.y, tuned.iterations, tuned.damping, tuned.idleSpeedThreshold,
         tuned.sleepTimeThreshold, tuned.collisionSlop, tuned.collisionBias, tuned.collisionPersistence,
         tuned.maxStepsPerFrame }, { 1, 2, 20, 0.5, 3, 4, 0.5, 0.25, 5, 6 })
  -- Damping: v_n = v0·damping^(n·dt) with no gravity.
  local b = tuned:addBody{ mass = 1, moment = 1, velocity = { 100, 0 } }
  tuned.gravity = { 0, 0 }
  ca.step(1 / 60)
  T.near(b.velocity.x, 100 * 0.5 ^ (2 * STEP), 1e-9, "damping per second")
  -- The fixed step is an option and a writable property (world.step reads the step method).
  local slow = P.World{ step = 1 / 60 }
  ca.step(1 / 60)
  T.eq(slow.steps, 1, "one 1/60 s step per 1/60 s frame")
  slow.step = 1 / 30
  ca.step(1 / 30)
  T.eq(slow.steps, 2)
  T.eq(type(slow.step), "function", "world:step(dt) is the manual step")
end)

---------------------------------------------------------------------------
-- Free fall: Chipmunk's order of integration

T.test("free fall follows y_n = y0 − g·dt²·n(n−1)/2 and v_n = −g·dt·n exactly (1e-9)", function()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local ball = world:addBody{ mass = 2, position = { 10, 500 } }
  ball:addCircle{ radius = 5 }
  local checks = { [1] = true, [2] = true, [3] = true, [10] = true, [60] = true, [120] = true, [241] = true }
  for n = 1, 241 do
    ca.step(STEP)
    if checks[n] then
      T.near(ball.position.y, 500 - GRAVITY * STEP ^ 2 * n * (n - 1) / 2, 1e-9, "y after " .. n .. " steps")
      T.near(ball.velocity.y, -GRAVITY * STEP * n, 1e-9, "v after " .. n .. " steps")
    end
  end
  T.eq(ball.position.x, 10)
  T.eq(world.steps, 241)
end)

---------------------------------------------------------------------------
-- Collision callbacks

--- A floor (static segment y = 0, elasticity 1, type "floor") and a ball
--- (r 10, m 1, elasticity e, type "ball") dropped from y = 30, gravity −1000.
local function ballOnFloor(e, world)
  world = world or P.World{ gravity = { 0, -GRAVITY } }
  local floor = world.staticBody:addSegment{ a = { -100, 0 }, b = { 400, 0 }, elasticity = 1, friction = 0.8,
                                             collisionType = "floor" }
  local ball = world:addBody{ mass = 1, position = { 50, 30 } }
  local shape = ball:addCircle{ radius = 10, elasticity = e, friction = 0.5, collisionType = "ball" }
  return world, ball, shape, floor
end

--- Handlers that log {phase, step} (world.steps counts finished steps, so a
--- callback during step k sees k − 1) and call extra[phase](arb) if given.
local function logPhases(world, log, extra, typeA, typeB)
  extra = extra or {}
  local h = { typeA = typeA or "ball", typeB = typeB or "floor" }
  for _, phase in ipairs{ "begin", "preSolve", "postSolve", "separate" } do
    h[phase] = function(arb)
      log[#log + 1] = { phase = phase, step = world.steps + 1, first = tostring(arb.isFirstContact) }
      if extra[phase] then return extra[phase](arb) end
    end
  end
  world:addCollisionHandler(h)
end

local function phases(log, from, to)
  local out = {}
  for i = from or 1, to or #log do out[#out + 1] = log[i].phase end
  return table.concat(out, " ")
end

T.test("callbacks: a ball dropped on the floor — begin, preSolve, postSolve in the contact step, separate once", function()
  local world, ball, shape, floor = ballOnFloor(0.9)
  local log, seen = {}, {}
  logPhases(world, log, {
    begin = function(arb)
      seen.shapeA, seen.shapeB, seen.bodyA, seen.bodyB = arb.shapeA, arb.shapeB, arb.bodyA, arb.bodyB
      seen.normal, seen.count, seen.points = arb.normal, arb.count, arb.points
      seen.restitution, seen.friction = arb.restitution, arb.friction
      seen.vyIn = ball.velocity.y
    end,
    postSolve = function(arb)
      if not seen.impulse then seen.impulse, seen.energy, seen.vyOut = arb.totalImpulse, arb.totalKineticEnergy, ball.velocity.y end
    end,
  })
  run(30, 1 / 60)   -- the ball falls 20 pt in ≈ 0.2 s and is flying up again by 0.5 s
  T.eq(phases(log, 1, 4), "begin preSolve postSolve separate")
  local s = log[1].step
  T.eq(log[2].step, s, "preSolve in the begin step")
  T.eq(log[3].step, s, "postSolve in the same step")
  T.eq(log[4].step, s + 1, "separate in the next step, once the ball has left")
  T.eq(log[1].first .. " " .. log[2].first .. " " .. log[3].first .. " " .. log[4].first, "true true true false",
       "isFirstContact in the first contact step only")
  local begins, separates = 0, 0
  for _, e in ipairs(log) do
    if e.phase == "begin" then begins = begins + 1 elseif e.phase == "separate" then separates = separates + 1 end
  end
  T.eq(begins, 1, "one begin in the first bounce")
  T.eq(separates, 1, "one separate")
  -- The arbiter: shape a has the handler's typeA.
  T.same(seen.shapeA, shape)
  T.same(seen.shapeB, floor)
  T.same(seen.bodyA, ball)
  T.same(seen.bodyB, world.staticBody)
  T.near(seen.normal, { 0, -1 }, 1e-12, "from a (ball) to b (floor)")
  T.eq(seen.count, 1)
  T.eq(#seen.points, 1)
  T.near(seen.points[1].pointA.x, 50, 1e-9)
  T.truthy(seen.points[1].distance < 0, "the shapes overlap")
  T.near(seen.restitution, 0.9, 1e-12, "e = 0.9 · 1")
  T.near(seen.friction, 0.4, 1e-12, "u = 0.5 · 0.8")
  -- Restitution bounces the incoming normal speed; the impulse also cancels this step's gravity.
  T.near(seen.vyOut, -0.9 * seen.vyIn, 1e-9, "v out = −e · v in")
  T.near(seen.impulse.y, 1 * (seen.vyOut - (seen.vyIn - GRAVITY * STEP)), 1e-9, "totalImpulse = m·Δv in postSolve")
  T.near(seen.impulse.x, 0, 1e-9)
  T.truthy(seen.energy >= 0, "totalKineticEnergy readable")
  T.truthy(ball.velocity.y > 0 or ball.position.y > 11, "bouncing")
end)

T.test("callbacks: a resting contact runs preSolve and postSolve every step; a kick separates it once", function()
  local world, ball = ballOnFloor(0)
  local log = {}
  logPhases(world, log)
  run(60, 1 / 60)
  T.eq(log[1].phase, "begin")
  local s = log[1].step
  local pre, post = 0, 0
  for i = 2, #log do
    local e = log[i]
    T.truthy(e.phase == "preSolve" or e.phase == "postSolve", "only pre/postSolve while resting: " .. e.phase)
    if e.phase == "preSolve" then
      pre = pre + 1
      T.eq(e.step, s + pre - 1, "one preSolve per step")
      T.eq(e.first, tostring(pre == 1), "isFirstContact only in the first step")
    else
      post = post + 1
      T.eq(e.step, s + post - 1, "one postSolve per step")
    end
  end
  T.eq(pre, world.steps - s + 1, "every step since the contact began")
  T.eq(post, pre)
  T.near(ball.position.y, 10, 0.2, "resting on the floor")
  local n = #log
  ball:applyImpulse{ 0, 300 }
  run(30, 1 / 60)
  local separates = 0
  for i = n + 1, #log do if log[i].phase == "separate" then separates = separates + 1 end end
  T.eq(separates, 1, "separate once when it leaves")
end)

T.test("callbacks: begin returning false lets the ball fall through; only an explicit false does", function()
  local world, ball = ballOnFloor(0.9)
  local pre = 0
  world:addCollisionHandler{ typeA = "ball", typeB = "floor", begin = function() return false end,
                             preSolve = function() pre = pre + 1 end }
  run(60, 1 / 60)
  T.eq(pre, 0, "an ignored contact has no preSolve")
  T.truthy(ball.position.y < -100, "fell through: y = " .. ball.position.y)
  -- nil, 0 and "" are not false: the contact happens.
  for _, r in ipairs{ "nil", "zero", "string" } do
    local w2, b2 = ballOnFloor(0)
    w2:addCollisionHandler{ typeA = "ball", typeB = "floor", begin = function()
      if r == "zero" then return 0 elseif r == "string" then return "" end
    end }
    run(60, 1 / 60)
    T.near(b2.position.y, 10, 0.2, "begin returning " .. r .. " keeps the contact")
  end
end)

T.test("callbacks: preSolve setting arb.restitution = 0 stops the bounce", function()
  local world, ball = ballOnFloor(0.9)
  local before
  world:addCollisionHandler{ typeA = "ball", typeB = "floor", preSolve = function(arb)
    before = before or arb.restitution
    arb.restitution = 0
    T.eq(arb.restitution, 0)
  end }
  local maxUp = 0
  for _ = 1, 60 do
    ca.step(1 / 60)
    maxUp = math.max(maxUp, ball.velocity.y)
  end
  T.near(before, 0.9, 1e-12)
  T.truthy(maxUp < 5, "no bounce (largest upward speed " .. maxUp .. ")")
  T.near(ball.position.y, 10, 0.2, "resting on the floor")
end)

T.test("callbacks: wildcard handlers run without a pair handler; a pair handler's unset phases run them", function()
  local world, ball = ballOnFloor(0.9)
  local log = {}
  world:addCollisionHandler{ typeA = "ball", begin = function(arb)
    log[#log + 1] = "wildcard begin"
    T.eq(arb.shapeA.collisionType, "ball", "a wildcard's shape a has its type")
  end, preSolve = function() log[#log + 1] = "wildcard preSolve" end }
  run(20, 1 / 60)
  T.eq(log[1], "wildcard begin")
  T.eq(log[2], "wildcard preSolve")
  -- A pair handler with only begin: Chipmunk runs the wildcard's preSolve for it.
  local w2 = ballOnFloor(0.9)
  local log2 = {}
  w2:addCollisionHandler{ typeA = "ball", preSolve = function() log2[#log2 + 1] = "wildcard preSolve" end,
                          begin = function() log2[#log2 + 1] = "wildcard begin" end }
  w2:addCollisionHandler{ typeA = "floor", typeB = "ball", begin = function(arb)
    log2[#log2 + 1] = "pair begin"
    T.eq(arb.shapeA.collisionType, "floor", "shape a has the handler's typeA, whichever order")
  end }
  run(20, 1 / 60)
  T.eq(log2[1], "pair begin", "the pair handler's begin replaces the wildcard's")
  T.eq(log2[2], "wildcard preSolve")
  T.eq(#log2, 2)
  -- The default handler (no types) sees collisions of untyped shapes.
  local w3 = P.World{ gravity = { 0, -GRAVITY } }
  w3.staticBody:addSegment{ a = { -100, 0 }, b = { 100, 0 } }
  local b3 = w3:addBody{ mass = 1, position = { 0, 30 } }
  b3:addCircle{ radius = 10 }
  local defaults = 0
  w3:addCollisionHandler{ begin = function(arb)
    defaults = defaults + 1
    T.truthy(rawequal(arb.bodyA, b3) or rawequal(arb.bodyB, b3), "the ball is one of the bodies")
  end }
  run(20, 1 / 60)
  T.eq(defaults, 1, "the default handler's begin")
end)

T.test("callbacks: an arbiter kept after its callback is stale", function()
  local world = ballOnFloor(0.9)
  local kept
  world:addCollisionHandler{ typeA = "ball", typeB = "floor", begin = function(arb) kept = arb end }
  run(20, 1 / 60)
  T.truthy(kept, "begin ran")
  for _, key in ipairs{ "normal", "bodyA", "shapeB", "points", "count", "isFirstContact", "totalImpulse", "restitution" } do
    T.raises(function() return kept[key] end, "valid only inside its collision callback", key)
  end
  T.raises(function() kept.restitution = 0 end, "valid only inside its collision callback")
  run(5, 1 / 60)
end)

T.test("callbacks: removing a body inside a callback is deferred to the end of the step and succeeds", function()
  local world, ball, shape = ballOnFloor(0.9)
  local removedInside, separate
  world:addCollisionHandler{ typeA = "ball", typeB = "floor",
    begin = function()
      world:remove(ball)
      removedInside = ball.world
    end,
    separate = function(arb) separate = { removal = arb.isRemoval, step = world.steps } end }
  run(30, 1 / 60)
  T.eq(removedInside, nil, "out of the world at once, for scripts")
  T.eq(ball.world, nil)
  T.eq(#world:bodies(), 0)
  T.truthy(separate, "separate ran for the removed contact")
  T.eq(separate.removal, true, "isRemoval")
  local p = ball.position
  run(10, 1 / 60)
  T.eq(ball.position, p, "it no longer moves")
  T.eq(#world:pointQuery(p, 0), 0, "its shape left the world too")
  T.same(shape.body, ball, "the shape stays on its body")
  -- It can be added again.
  world:add(ball)
  T.same(ball.world, world)
  run(2, 1 / 60)
  T.truthy(ball.position.y ~= p.y, "steps again")
end)

T.test("callbacks: adding a body inside a callback succeeds after the step", function()
  local world, ball = ballOnFloor(0.9)
  local added, insideWorld
  world:addCollisionHandler{ typeA = "ball", typeB = "floor", begin = function()
    if added then return end
    added = world:addBody{ mass = 1, position = { 200, 100 } }
    added:addCircle{ radius = 5 }
    insideWorld = added.world
  end }
  run(30, 1 / 60)
  T.truthy(added, "added")
  T.same(insideWorld, world)
  T.eq(#world:bodies(), 2)
  T.truthy(added.position.y < 100, "the new body falls: " .. added.position.y)
  T.eq(added.position.x, 200)
end)

T.test("callbacks: an error inside a callback reaches ca.step with file:line; the engine keeps working", function()
  local world, ball = ballOnFloor(0.9)
  local line, calls = nil, 0
  world:addCollisionHandler{ typeA = "ball", typeB = "floor", begin = function()
    calls = calls + 1
    if calls > 1 then return end
    line = debug.getinfo(1, "l").currentline + 1
    error("the crate broke")
  end }
  local msg
  for _ = 1, 30 do
    local ok, err = pcall(ca.step, 1 / 60)
    if not ok then msg = err break end
  end
  T.truthy(msg, "ca.step raised")
  T.truthy(msg:find("the crate broke", 1, true), msg)
  T.truthy(msg:find("ch11_physics.lua:" .. line .. ":", 1, true), "file:line in " .. msg)
  T.eq(calls, 1)
  T.eq(world.steps % 2, 0, "the frame finished its steps")
  local t = ca.mediaTime()
  run(30, 1 / 60)
  T.near(ca.mediaTime(), t + 0.5, 1e-12, "later frames run")
  T.truthy(ball.position.y > 5, "the contact was processed (the callback counted as true)")
  local l = ca.Layer{ frame = { 0, 0, 10, 10 }, backgroundColor = "#0000ff" }
  ca.root:addSublayer(l)
  T.pixel(ca.render(), 5, 5, "#0000ff")
end)

---------------------------------------------------------------------------
-- Constraints (Chipmunk 7's joints; anchors are in each body's coordinates)

--- A dynamic bob (circle r 5, mass 1 unless given) at p.
local function bob(world, p, mass)
  local b = world:addBody{ mass = mass or 1, position = p }
  b:addCircle{ radius = 5 }
  return b
end

--- A wheel (mass 1, circle r 10: moment 50) on a pivot at its centre (x, 0).
local function wheel(world, x)
  local b = world:addBody{ mass = 1, position = { x, 0 } }
  b:addCircle{ radius = 10 }
  world:add(P.PivotJoint{ a = world.staticBody, b = b, pivot = { x, 0 } })
  return b
end

--- Steps the clock n × 1/120 s, calling check() after each step.
local function stepChecking(n, check)
  for k = 1, n do ca.step(STEP); check(k) end
end

T.test("constraints: a pin joint keeps a pendulum's length (±0.5 over 2 s); impulse readable; removal frees it", function()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  -- Released 30° from the bottom of a 100-pt rope hung at (150, 200): speeds stay
  -- under ≈ 165 pt/s, where Chipmunk's soft joints (errorBias) keep the error small.
  local b = bob(world, { 150 + 100 * math.sin(math.pi / 6), 200 - 100 * math.cos(math.pi / 6) }, 2)
  local pin = P.PinJoint{ a = world.staticBody, b = b, anchorA = { 150, 200 }, anchorB = { 0, 0 } }
  T.eq(pin.type, "pin")
  T.eq(pin.world, nil, "not in a world until added")
  T.same(world:add(pin), pin)
  T.same(pin.world, world)
  T.same(pin.a, world.staticBody)
  T.same(pin.bodyB, b)
  T.near(pin.distance, 100, 1e-12, "the distance defaults to the anchors' distance")
  T.eq(pin.anchorA, { 150, 200 })
  T.eq(#world:constraints(), 1)
  local lowest, leftmost = 200, 200
  stepChecking(240, function(k)
    T.near(dist(b.position, { x = 150, y = 200 }), 100, 0.5, "length after step " .. k)
    lowest, leftmost = math.min(lowest, b.position.y), math.min(leftmost, b.position.x)
  end)
  T.near(lowest, 100, 0.5, "it swung through the bottom")
  T.truthy(leftmost < 110, "and up the other side: " .. leftmost)
  -- Hanging at rest, the pin carries the weight: impulse per step = m·g·dt.
  local still = P.World{ gravity = { 0, -GRAVITY } }
  local hanging = bob(still, { 150, 100 }, 2)
  local rope = still:add(P.PinJoint{ a = still.staticBody, b = hanging, anchorA = { 150, 200 } })
  run(30, 1 / 60)
  T.near(rope.impulse, 2 * GRAVITY * STEP, 1e-6, "impulse = m·g·dt")
  world:remove(pin)
  T.eq(pin.world, nil)
  T.eq(#world:constraints(), 0)
  run(120, 1 / 60)
  T.truthy(dist(b.position, { x = 150, y = 200 }) > 150, "free after removal")
end)

T.test("constraints: a slide joint keeps the distance in [min, max]", function()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local b = bob(world, { 210, 200 })
  local slide = world:add(P.SlideJoint{ a = world.staticBody, b = b, anchorA = { 150, 200 }, min = 40, max = 80 })
  T.eq({ slide.min, slide.max }, { 40, 80 })
  local longest = 0
  stepChecking(240, function(k)
    local d = dist(b.position, { x = 150, y = 200 })
    -- Like Chipmunk's other limits it acts once passed: up to a step of travel (< 1 pt here).
    T.truthy(d >= 40 - 1 and d <= 80 + 1, "distance in [min, max] after step " .. k .. ": " .. d)
    longest = math.max(longest, d)
  end)
  T.truthy(longest > 79, "it reached max: " .. longest)
  -- Pushed in towards the anchor it stops at min.
  b.velocity = { 0, 0 }
  b.position = { 150, 150 }
  world.gravity = { 0, GRAVITY }
  stepChecking(120, function(k)
    local d = dist(b.position, { x = 150, y = 200 })
    T.truthy(d >= 40 - 1, "not closer than min after step " .. k .. ": " .. d)
  end)
  T.near(dist(b.position, { x = 150, y = 200 }), 40, 0.5, "resting at min")
end)

T.test("constraints: a pivot joint keeps the two anchor points together", function()
  -- A double pendulum in a gentler gravity (300): Chipmunk's soft joints drift with speed².
  local world = P.World{ gravity = { 0, -300 } }
  local arm = world:addBody{ mass = 1, position = { 150, 200 } }
  arm:addBox{ width = 100, height = 10 }
  world:add(P.PivotJoint{ a = world.staticBody, b = arm, pivot = { 100, 200 } })   -- the arm's left end
  local hand = world:addBody{ mass = 1, position = { 230, 200 } }
  hand:addBox{ width = 60, height = 10 }
  local elbow = world:add(P.PivotJoint{ a = arm, b = hand, anchorA = { 50, 0 }, anchorB = { -30, 0 } })
  T.eq(elbow.anchorA, { 50, 0 })
  T.eq(elbow.anchorB, { -30, 0 })
  stepChecking(240, function(k)
    T.near(dist(arm:localToWorld{ 50, 0 }, hand:localToWorld{ -30, 0 }), 0, 0.5, "elbow together after step " .. k)
    T.near(dist(arm:localToWorld{ -50, 0 }, { x = 100, y = 200 }), 0, 0.5, "shoulder on its pivot after step " .. k)
  end)
  T.truthy(math.abs(arm.angle) > 0.5, "the arm swung")
end)

T.test("constraints: a groove joint keeps the anchor on the groove", function()
  local world = P.World{ gravity = { 100, -GRAVITY } }
  local b = bob(world, { 100, 100 })
  local groove = world:add(P.GrooveJoint{ a = world.staticBody, b = b, grooveA = { 50, 100 }, grooveB = { 250, 100 } })
  T.eq(groove.grooveA, { 50, 100 })
  stepChecking(360, function(k)
    local p = b.position
    T.near(p.y, 100, 0.5, "on the groove's line after step " .. k)
    -- The end acts once passed: up to a step of travel (≤ √(2·100·150)/120 ≈ 1.5 pt).
    T.truthy(p.x >= 50 - 1.5 and p.x <= 250 + 1.5, "between its ends after step " .. k .. ": " .. p.x)
  end)
  T.near(b.position.x, 250, 0.5, "pushed to the end by the sideways gravity")
end)

T.test("constraints: a damped spring oscillates around its rest length and settles there", function()
  local world = P.World{}
  local b = bob(world, { 250, 100 })
  local spring = world:add(P.DampedSpring{ a = world.staticBody, b = b, anchorA = { 100, 100 }, restLength = 100,
                                           stiffness = 100, damping = 1 })
  T.eq({ spring.restLength, spring.stiffness, spring.damping }, { 100, 100, 1 })
  local shortest, crossings, above = 150, 0, true
  stepChecking(240, function()
    local d = dist(b.position, { x = 100, y = 100 })
    shortest = math.min(shortest, d)
    if (d > 100) ~= above then crossings = crossings + 1; above = d > 100 end
  end)
  T.truthy(shortest < 60, "overshoots inwards: " .. shortest)
  T.truthy(crossings >= 2, "crosses the rest length both ways: " .. crossings)
  spring.damping = 20
  run(300, 1 / 60)
  T.near(dist(b.position, { x = 100, y = 100 }), 100, 0.5, "settles at the rest length")
end)

T.test("constraints: a rotary limit keeps the angle in [min, max]", function()
  local world = P.World{}
  local w = wheel(world, 100)
  local limit = world:add(P.RotaryLimitJoint{ a = world.staticBody, b = w, min = -0.5, max = 0.5 })
  T.eq({ limit.min, limit.max }, { -0.5, 0.5 })
  for _, spin in ipairs{ 10, -10 } do
    w.angularVelocity = spin
    local reached = 0
    stepChecking(120, function(k)
      -- The limit acts once it is passed: one step of travel (10/120) at most.
      T.truthy(w.angle >= -0.5 - 10 * STEP and w.angle <= 0.5 + 10 * STEP, "in the range after step " .. k .. ": " .. w.angle)
      reached = spin > 0 and math.max(reached, w.angle) or math.min(reached, w.angle)
    end)
    T.truthy(math.abs(reached) >= 0.5, "it met the end (" .. reached .. ") and bounced back in")
    T.truthy(math.abs(w.angularVelocity) < 1, "the spin was stopped: " .. w.angularVelocity)
  end
end)

T.test("constraints: a gear joint keeps a.angle = ratio·b.angle − phase", function()
  local world = P.World{}
  local g1, g2 = wheel(world, 0), wheel(world, 50)
  local gear = world:add(P.GearJoint{ a = g1, b = g2, phase = 0, ratio = 2 })
  T.eq(gear.ratio, 2)
  g1.angularVelocity = 3
  stepChecking(120, function(k)
    -- The first step moves g1 by 3/120 before the joint acts; then the error is corrected.
    T.near(g1.angle, 2 * g2.angle, k < 30 and 3 * STEP or 0.01, "ratio 2 after step " .. k)
  end)
  T.truthy(g1.angle > 1, "they turned: " .. g1.angle)
  gear.phase = 0.3
  run(60, 1 / 60)
  T.near(g1.angle, 2 * g2.angle - 0.3, 0.01, "with phase 0.3")
end)

T.test("constraints: a simple motor turns at its rate (Chipmunk: b.ω − a.ω = −rate)", function()
  local world = P.World{}
  local w = wheel(world, 0)
  local motor = world:add(P.SimpleMotor{ a = world.staticBody, b = w, rate = 2 })
  run(60, 1 / 60)
  T.near(w.angularVelocity, -2, 1e-6)
  T.near(w.angle, -2 * (1 - STEP), 1e-6, "from the first step's velocity on")
  motor.rate = -5
  run(60, 1 / 60)
  T.near(w.angularVelocity, 5, 1e-6)
  -- A weak motor cannot hold a wheel against a torque.
  motor.maxForce = 0
  T.eq(motor.maxForce, 0)
  w.angularVelocity = 0
  run(10, 1 / 60)
  T.eq(w.angularVelocity, 0, "no force: no turning")
end)

T.test("constraints: a ratchet turns only one way", function()
  local world = P.World{}
  local w = wheel(world, 0)
  local ratchet = world:add(P.RatchetJoint{ a = world.staticBody, b = w, phase = 0, ratchet = 0.5 })
  T.eq(ratchet.ratchet, 0.5)
  w.angularVelocity = 3
  run(60, 1 / 60)
  T.near(w.angle, 3, 1e-6, "forwards freely")
  local tooth = ratchet.angle
  T.truthy(tooth > 2 and tooth <= 3, "the ratchet caught up: " .. tooth)
  w.angularVelocity = -3
  stepChecking(120, function(k)
    T.truthy(w.angle >= tooth - 3 * STEP, "never back past the tooth after step " .. k .. ": " .. w.angle)
  end)
  T.near(w.angularVelocity, 0, 1e-6, "stopped")
end)

T.test("constraints: a damped rotary spring returns towards restAngle (Chipmunk: a.angle − b.angle → restAngle)", function()
  local world = P.World{}
  local w = wheel(world, 0)
  -- Moment 50, stiffness 5000: ω0 = 10 rad/s; damping 2·√(k·I) = 1000 is critical.
  local spring = world:add(P.DampedRotarySpring{ a = world.staticBody, b = w, restAngle = 1, stiffness = 5000, damping = 1000 })
  T.eq(spring.restAngle, 1)
  T.eq(w.moment, 50)
  run(120, 1 / 60)
  T.near(w.angle, -1, 0.01, "relative angle at rest")
  spring.restAngle = -0.5
  run(120, 1 / 60)
  T.near(w.angle, 0.5, 0.01, "a new rest angle")
end)

T.test("constraints: every kind reads maxForce, maxBias, errorBias, collideBodies and impulse; removal works", function()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local a, b = wheel(world, 0), wheel(world, 100)
  local made = {
    P.PinJoint{ a = a, b = b }, P.SlideJoint{ a = a, b = b, max = 200 }, P.PivotJoint{ a = a, b = b, pivot = { 50, 0 } },
    P.GrooveJoint{ a = a, b = b, grooveA = { 0, 0 }, grooveB = { 200, 0 } },
    P.DampedSpring{ a = a, b = b, restLength = 100, stiffness = 10 }, P.DampedRotarySpring{ a = a, b = b, stiffness = 10 },
    P.RotaryLimitJoint{ a = a, b = b, min = -1, max = 1 }, P.RatchetJoint{ a = a, b = b, ratchet = 0.1 },
    P.GearJoint{ a = a, b = b, ratio = 1 }, P.SimpleMotor{ a = a, b = b, rate = 1 },
  }
  local kinds = {}
  for i, c in ipairs(made) do
    kinds[i] = c.type
    T.eq(c.maxForce, math.huge, c.type .. " maxForce default ∞")
    T.eq(c.maxBias, math.huge, c.type .. " maxBias default ∞")
    -- Chipmunk's default is cpfpow(1.0f − 0.1f, 60.0f), computed in single precision.
    T.near(c.errorBias, (1 - 0.1) ^ 60, 1e-8, c.type .. " errorBias default (1 − 0.1)^60")
    T.eq(c.collideBodies, true, c.type .. " collideBodies default")
    c.maxForce = 1e6
    c.collideBodies = false
    T.eq(c.maxForce, 1e6)
    T.eq(c.collideBodies, false)
    world:add(c)
  end
  T.eq(table.concat(kinds, " "), "pin slide pivot groove dampedSpring dampedRotarySpring rotaryLimit ratchet gear simpleMotor")
  T.eq(#world:constraints(), 10 + 2, "plus the two wheels' pivots")
  run(10, 1 / 60)
  for _, c in ipairs(made) do
    T.eq(type(c.impulse), "number", c.type .. " impulse")
    T.truthy(c.impulse == c.impulse, c.type .. " impulse is a number")
  end
  for _, c in ipairs(made) do world:remove(c) end
  T.eq(#world:constraints(), 2)
  -- Removing a body removes the constraints that use it.
  world:remove(a)
  T.eq(#world:constraints(), 1)
  run(5, 1 / 60)
end)

---------------------------------------------------------------------------
-- Queries

--- On the static body: a circle (r 10 at (50, 50)), a 20×20 box at (150, 50)
--- and a segment (0, 150)–(100, 150).
local function queryLayout()
  local world = P.World{}
  local sb = world.staticBody
  local circle = sb:addCircle{ radius = 10, offset = { 50, 50 } }
  local box = sb:addBox{ width = 20, height = 20, center = { 150, 50 } }
  local segment = sb:addSegment{ a = { 0, 150 }, b = { 100, 150 } }
  return world, circle, box, segment
end

T.test("queries: nearestPoint and pointQuery give the shape, nearest point, distance and gradient", function()
  local world, circle, box, segment = queryLayout()
  local hit = world:nearestPoint({ 50, 80 }, 100)
  T.same(hit.shape, circle)
  T.near(hit.point, { 50, 60 }, 1e-12, "the top of the circle")
  T.near(hit.distance, 20, 1e-12)
  T.near(hit.gradient, { 0, 1 }, 1e-12)
  T.eq(world:nearestPoint({ 50, 80 }, 10), nil, "nothing within 10")
  T.eq(world:nearestPoint({ 50, 80 }), nil, "maxDistance 0 by default: only shapes containing the point")
  local inside = world:nearestPoint({ 155, 50 }, 0)
  T.same(inside.shape, box)
  T.near(inside.distance, -5, 1e-12, "negative inside: 5 from the right edge")
  T.near(inside.point, { 160, 50 }, 1e-12)
  local all = world:pointQuery({ 50, 100 }, math.huge)
  T.eq(#all, 3)
  T.same(all[1].shape, circle)
  T.same(all[2].shape, segment)
  T.same(all[3].shape, box)
  T.near(all[1].distance, 40, 1e-12, "50 to the centre − r 10")
  T.near(all[2].distance, 50, 1e-12)
  T.near(all[3].distance, math.sqrt(90 ^ 2 + 40 ^ 2), 1e-9, "to the box's corner (140, 60)")
  T.near(all[3].point, { 140, 60 }, 1e-9)
  local within = world:pointQuery({ 50, 100 }, 45)
  T.eq(#within, 1, "only the circle within 45")
  T.eq(#world:pointQuery({ 250, 250 }, 10), 0)
end)

T.test("queries: segmentQueryFirst and segmentQuery give points, normals and alphas along the segment", function()
  local world, circle, box, segment = queryLayout()
  local first = world:segmentQueryFirst({ 0, 50 }, { 200, 50 })
  T.same(first.shape, circle)
  T.near(first.point, { 40, 50 }, 1e-9)
  T.near(first.normal, { -1, 0 }, 1e-12)
  T.near(first.alpha, 0.2, 1e-12, "40 / 200")
  local hits = world:segmentQuery({ 0, 50 }, { 200, 50 })
  T.eq(#hits, 2)
  T.same(hits[1].shape, circle)
  T.same(hits[2].shape, box)
  T.near(hits[2].alpha, 0.7, 1e-12, "the box's left edge at x = 140")
  T.near(hits[2].normal, { -1, 0 }, 1e-12)
  local thick = world:segmentQueryFirst({ 0, 50 }, { 200, 50 }, 5)
  T.near(thick.alpha, 35 / 200, 1e-12, "a radius-5 sweep touches 5 earlier")
  local down = world:segmentQueryFirst({ 50, 200 }, { 50, 100 })
  T.same(down.shape, segment)
  T.near(down.alpha, 0.5, 1e-12)
  T.near(down.point, { 50, 150 }, 1e-12)
  T.near(down.normal, { 0, 1 }, 1e-12)
  T.eq(world:segmentQueryFirst({ 0, 250 }, { 300, 250 }), nil, "a miss")
  T.eq(#world:segmentQuery({ 0, 250 }, { 300, 250 }), 0)
end)

T.test("queries: boundingBoxQuery and shapeQuery", function()
  local world, circle, box, segment = queryLayout()
  local some = world:boundingBoxQuery{ 0, 0, 100, 100 }
  T.eq(#some, 1)
  T.same(some[1], circle)
  local all = world:boundingBoxQuery{ 0, 0, 200, 200 }
  T.eq(#all, 3, "every shape, in the order they were made")
  T.same(all[1], circle)
  T.same(all[2], box)
  T.same(all[3], segment)
  T.eq(circle.boundingBox, { 40, 40, 20, 20 })
  T.eq(#world:boundingBoxQuery{ 200, 200, 50, 50 }, 0)
  -- A probe circle (r 5) on a body in no world, overlapping the box's right edge by 3.
  local probeBody = P.Body{ mass = 1, position = { 162, 50 } }
  local probe = probeBody:addCircle{ radius = 5 }
  local contacts = world:shapeQuery(probe)
  T.eq(#contacts, 1)
  T.same(contacts[1].shape, box)
  T.eq(#contacts[1].points, 1)
  T.near(contacts[1].points[1].distance, -3, 1e-9, "3 pt of overlap")
  T.near(math.abs(contacts[1].normal.x), 1, 1e-12, "a horizontal normal")
  probeBody.position = { 250, 250 }
  T.eq(#world:shapeQuery(probe), 0, "moved away")
end)

T.test("queries: filters — a shared group, categories against the mask", function()
  local world, circle, box, segment = queryLayout()
  circle.filter = { group = 1, categories = 1 }
  box.filter = { categories = 2 }
  T.eq(circle.filter.group, 1)
  T.eq(box.filter.categories, 2)
  T.eq(box.filter.mask, 4294967295, "an absent field keeps the default")
  local hit = world:nearestPoint({ 50, 80 }, 100, { group = 1 })
  T.same(hit.shape, segment, "the circle shares the query's group: the segment (70 away) is next")
  local bb = world:boundingBoxQuery({ 0, 0, 200, 200 }, { mask = 1 })
  T.eq(#bb, 2, "the box's category 2 is not in mask 1")
  T.same(bb[1], circle)
  T.same(bb[2], segment)
  T.eq(#world:segmentQuery({ 0, 50 }, { 200, 50 }, 0, { mask = 2 }), 1, "mask 2: only the box")
  T.same(world:segmentQueryFirst({ 0, 50 }, { 200, 50 }, 0, { mask = 2 }).shape, box)
  -- Collisions use the same filter: a ball in the floor's group falls through it.
  local w2 = P.World{ gravity = { 0, -GRAVITY } }
  local floor = w2.staticBody:addSegment{ a = { -100, 0 }, b = { 100, 0 } }
  local through = w2:addBody{ mass = 1, position = { -50, 20 } }
  through:addCircle{ radius = 5, filter = { group = 7 } }
  local lands = w2:addBody{ mass = 1, position = { 50, 20 } }
  lands:addCircle{ radius = 5, filter = { group = 8 } }
  floor.filter = { group = 7 }
  run(60, 1 / 60)
  T.truthy(through.position.y < -100, "same group: no collision")
  T.near(lands.position.y, 5, 0.2, "another group: it lands")
end)

---------------------------------------------------------------------------
-- Bodies

T.test("bodies: a kinematic body moves by its velocity only (no gravity, no mass)", function()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local k = world:addBody{ type = "kinematic", position = { 0, 100 }, velocity = { 120, 0 }, angularVelocity = 1.2 }
  k:addBox{ width = 50, height = 10 }
  T.eq(k.type, "kinematic")
  T.eq(k.mass, math.huge, "Chipmunk: kinematic bodies have infinite mass")
  for n = 1, 120 do
    ca.step(STEP)
    T.near(k.position.x, n, 1e-9, "120 pt/s for " .. n .. " steps")
  end
  T.eq(k.position.y, 100, "gravity does not move it")
  T.eq(k.velocity, { 120, 0 })
  T.near(k.angle, 1.2, 1e-9)
end)

T.test("bodies: a static body that is moved is re-indexed (queries and collisions see it at once)", function()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local ledge = world:addBody{ type = "static", position = { 0, 0 } }
  ledge:addBox{ width = 40, height = 10 }
  T.eq(#world:pointQuery({ 0, 0 }, 0), 1)
  ledge.position = { 200, 50 }
  T.eq(#world:pointQuery({ 0, 0 }, 0), 0, "not at the old place")
  local found = world:pointQuery({ 200, 50 }, 0)
  T.eq(#found, 1, "at the new place before any step")
  T.same(found[1].shape.body, ledge)
  local ball = world:addBody{ mass = 1, position = { 200, 100 } }
  ball:addCircle{ radius = 5 }
  run(60, 1 / 60)
  T.near(ball.position.y, 60, 0.2, "the ball rests on the moved ledge (top at 55, r 5)")
  T.eq(ledge.position, { 200, 50 }, "it does not fall")
end)

T.test("bodies: sleeping with sleepTimeThreshold; sleep() and activate()", function()
  local world = P.World{ gravity = { 0, -GRAVITY }, sleepTimeThreshold = 0.5 }
  T.eq(world.sleepTimeThreshold, 0.5)
  T.eq(P.World{}.sleepTimeThreshold, math.huge, "no sleeping by default (Chipmunk)")
  world.staticBody:addSegment{ a = { -100, 0 }, b = { 100, 0 } }
  local box = world:addBody{ mass = 1, position = { 0, 30 } }
  box:addBox{ width = 20, height = 20, friction = 1 }
  local sleptAt
  for _ = 1, 240 do
    ca.step(1 / 60)
    if box.sleeping and not sleptAt then sleptAt = ca.mediaTime() end
  end
  T.truthy(sleptAt, "fell asleep")
  T.truthy(sleptAt >= 0.5, "not before it was idle for the threshold: " .. sleptAt)
  local p = box.position
  run(60, 1 / 60)
  T.eq(box.position, p, "a sleeping body does not move")
  box:activate()
  T.eq(box.sleeping, false)
  box.velocity = { 0, 300 }
  run(6, 1 / 60)
  T.truthy(box.position.y > p.y, "awake and moving")
  run(240, 1 / 60)
  T.eq(box.sleeping, true, "asleep again")
  box:activate()
  run(1, 1 / 60)
  box:sleep()
  T.eq(box.sleeping, true, "put to sleep by hand")
  -- Touching it wakes it: a body dropped on it.
  local other = world:addBody{ mass = 1, position = { 0, 80 } }
  other:addBox{ width = 10, height = 10 }
  local woke = false
  for _ = 1, 60 do
    ca.step(1 / 60)
    if not box.sleeping then woke = true end
  end
  T.truthy(woke, "the impact woke it")
  T.near(other.position.y, box.position.y + 10 + 5, 0.3, "the dropped box rests on it")
end)

T.test("bodies: sleep() takes the bodies joined to it by constraints along (Chipmunk sleeps components whole)", function()
  -- A chain a - b - c of pivots, and d pinned to c: putting a to sleep by hand sleeps all
  -- four; the next steps keep them asleep (Chipmunk aborted its step on a sleeping body
  -- joined to an awake one: the C fuzzer's crash), and waking one wakes the chain.
  local world = P.World{ gravity = { 0, 0 }, sleepTimeThreshold = 1 }
  local bodies = {}
  for i = 1, 4 do
    bodies[i] = world:addBody{ mass = 1, moment = 1, position = { 40 * i, 0 } }
    bodies[i]:addCircle{ radius = 5 }
  end
  world:add(P.PivotJoint{ a = bodies[1], b = bodies[2], pivot = { 60, 0 } })
  world:add(P.PivotJoint{ a = bodies[2], b = bodies[3], pivot = { 100, 0 } })
  world:add(P.PinJoint{ a = bodies[3], b = bodies[4] })
  local loose = world:addBody{ mass = 1, moment = 1, position = { 0, 200 } }
  loose:addCircle{ radius = 5 }
  bodies[4].velocity = { 0, 50 }
  bodies[1]:sleep()
  for i = 1, 4 do T.eq(bodies[i].sleeping, true, "joined body " .. i .. " sleeps") end
  T.eq(loose.sleeping, false, "a body not joined stays awake")
  run(3, 1 / 60)
  for i = 1, 4 do T.eq(bodies[i].sleeping, true, "still asleep after steps: " .. i) end
  bodies[3]:activate()
  for i = 1, 4 do T.eq(bodies[i].sleeping, false, "woken with the chain: " .. i) end
  run(1, 1 / 60)
  -- A body asleep in a group of its own, then joined: sleeping the other end takes it along.
  local e = world:addBody{ mass = 1, moment = 1, position = { 300, 0 } }
  e:addCircle{ radius = 5 }
  e:sleep()
  world:add(P.PinJoint{ a = bodies[4], b = e })
  bodies[1]:sleep()
  T.eq(e.sleeping, true)
  run(2, 1 / 60)
  T.eq(e.sleeping, true)
  T.eq(bodies[1].sleeping, true)
end)

T.test("bodies: a velocityUpdate hook gives one body its own gravity; positionUpdate replaces the move", function()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local up = world:addBody{ mass = 1, moment = 1, position = { 0, 0 } }
  local args
  up.velocityUpdate = function(body, gravity, damping, dt)
    args = args or { body = body, gravity = gravity, damping = damping, dt = dt }
    body:updateVelocity({ 0, 500 }, damping, dt)
  end
  T.eq(type(up.velocityUpdate), "function", "readable")
  local normal = world:addBody{ mass = 1, moment = 1, position = { 100, 0 } }
  local frozen = world:addBody{ mass = 1, moment = 1, position = { 200, 0 } }
  local moves = 0
  frozen.positionUpdate = function(body, dt) moves = moves + 1; T.eq(dt, STEP) end
  local halfSpeed = world:addBody{ mass = 1, moment = 1, position = { 300, 0 } }
  halfSpeed.positionUpdate = function(body, dt) body:updatePosition(dt / 2) end
  for n = 1, 60 do
    ca.step(STEP)
    T.near(up.position.y, 500 * STEP ^ 2 * n * (n - 1) / 2, 1e-9, "rises under +500 after " .. n)
    T.near(normal.position.y, -GRAVITY * STEP ^ 2 * n * (n - 1) / 2, 1e-9, "the others keep the world's gravity")
    T.near(halfSpeed.position.y, -GRAVITY * STEP ^ 2 * n * (n - 1) / 4, 1e-9, "half the distance with dt/2")
  end
  T.same(args.body, up)
  T.eq(args.gravity, { 0, -GRAVITY }, "the hook receives the world's gravity")
  T.eq(args.damping, 1)
  T.eq(args.dt, STEP)
  T.eq(frozen.position, { 200, 0 }, "no position update: it stays")
  T.near(frozen.velocity.y, -GRAVITY * STEP * 60, 1e-9, "its velocity still integrates")
  T.eq(moves, 60)
  up.velocityUpdate = nil
  T.eq(up.velocityUpdate, nil)
  local v = up.velocity.y
  ca.step(STEP)
  T.near(up.velocity.y, v - GRAVITY * STEP, 1e-9, "back to the world's gravity")
end)

T.test("bodies: impulses and forces at a point: Δv = j/m, Δω = r×j/I exactly", function()
  local world = P.World{ paused = true }
  -- Powers of two keep the arithmetic exact: m = 4, I = 64.
  local b = world:addBody{ mass = 4, moment = 64, position = { 100, 100 } }
  b:applyImpulse({ 3, 4 }, { 100, 105 })       -- r = (0, 5): r × j = 0·4 − 5·3 = −15
  T.eq(b.velocity, { 3 / 4, 4 / 4 })
  T.eq(b.angularVelocity, -15 / 64)
  b:applyImpulse({ 8, 0 })                     -- at the centre of gravity: no turn
  T.eq(b.velocity, { 3 / 4 + 2, 1 })
  T.eq(b.angularVelocity, -15 / 64)
  b:applyImpulseAtLocalPoint({ 0, 16 }, { 2, 0 })  -- angle 0: local = world offsets; r × j = 2·16 = 32
  T.eq(b.velocity, { 2.75, 1 + 4 })
  T.eq(b.angularVelocity, -15 / 64 + 32 / 64)
  T.eq(b:localToWorld{ 2, 0 }, { 102, 100 })
  T.eq(b:worldToLocal{ 102, 100 }, { 2, 0 })
  -- A force acts for one step: Δv = f/m·dt, Δω = (r×f)/I·dt; then it is cleared.
  b.velocity, b.angularVelocity = { 0, 0 }, 0
  b:applyForce({ 64, 0 }, { 100, 102 })        -- r × f = 0·0 − 2·64 = −128
  T.eq(b.force, { 64, 0 })
  T.eq(b.torque, -128)
  world:step(1 / 64)
  T.eq(b.velocity, { 64 / 4 / 64, 0 })
  T.eq(b.angularVelocity, -128 / 64 / 64)
  T.eq(b.force, { 0, 0 }, "forces are reset after a step")
  T.eq(b.torque, 0)
  b:applyForceAtLocalPoint({ 0, 32 }, { 0, 0 })
  T.eq(b.force, { 0, 32 })
  T.eq(b.torque, 0)
end)

---------------------------------------------------------------------------
-- Layer binding

T.test("binding: a flipY mapping (origin, scale) in an ordinary container; rotates = false; unbind", function()
  ca.root.backgroundColor = "#ffffff"
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local body = world:addBody{ mass = 1, position = { 10, 20 }, angularVelocity = 2 }
  body:addBox{ width = 10, height = 10 }
  local mapped = ca.Layer{ bounds = { 0, 0, 20, 20 }, backgroundColor = "#ff0000" }
  local still = ca.Layer{ bounds = { 0, 0, 20, 20 } }
  ca.root:addSublayer(mapped)
  ca.root:addSublayer(still)
  ca.step(0)
  body:bind(mapped, { origin = { 50, 250 }, scale = 2, flipY = true })
  body:bind(still, { rotates = false })
  T.eq(mapped.position, { 50 + 2 * 10, 250 - 2 * 20 }, "origin + scale·(x, −y), at once")
  local bound = body:boundLayers()
  T.eq(#bound, 2)
  T.same(bound[1], mapped)
  for n = 1, 30 do
    ca.step(1 / 60)
    local p = body.position
    T.eq(mapped.position, { 50 + 2 * p.x, 250 - 2 * p.y }, "frame " .. n)
    T.near(mapped:valueForKeyPath("transform.rotation.z"), -body.angle, 1e-12, "flipY turns the other way")
    T.eq(still.position, p, "the identity mapping")
    T.eq(still.transform, ca.Transform3D.identity, "rotates = false: no rotation")
  end
  T.eq(#mapped:animationKeys(), 0)
  T.eq(#still:animationKeys(), 0)
  local img = ca.render()
  T.pixel(img, mapped.position.x, mapped.position.y, "#ff0000", 3, "drawn where the mapping puts it")
  body:unbind(mapped)
  T.eq(#body:boundLayers(), 1)
  local pos = mapped.position
  run(10, 1 / 60)
  T.eq(mapped.position, pos, "an unbound layer stays")
  T.eq(still.position, body.position)
  body:unbind()
  T.eq(#body:boundLayers(), 0)
  local sp = still.position
  run(10, 1 / 60)
  T.eq(still.position, sp, "unbind() drops every layer")
end)

T.test("binding: a hundred bound bodies; the layers follow and never animate implicitly", function()
  local container = flippedContainer()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  addWalls(world)
  ca.step(0)
  local pairs_ = {}
  for i = 0, 99 do
    local body = world:addBody{ mass = 1, position = { 20 + (i % 10) * 26, 40 + math.floor(i / 10) * 26 } }
    body:addBox{ width = 20, height = 20 }
    local layer = ca.Layer{ bounds = { 0, 0, 20, 20 }, backgroundColor = "#3366cc" }
    container:addSublayer(layer)
    body:bind(layer)
    pairs_[#pairs_ + 1] = { body, layer }
  end
  for frame = 1, 60 do
    ca.step(1 / 60)
    if frame % 15 == 0 then
      for i, pr in ipairs(pairs_) do
        T.eq(pr[2].position, pr[1].position, "layer " .. i .. " at frame " .. frame)
        T.eq(#pr[2]:animationKeys(), 0, "layer " .. i .. " has no implicit animation")
        T.eq(pr[2]:presentation().position, pr[2].position, "the presentation is the model")
      end
    end
  end
  -- An ordinary change to the same layer still animates (actions are off only for the sync).
  pairs_[1][2].opacity = 0.5
  ca.step(0)
  T.eq(#pairs_[1][2]:animationKeys(), 1, "opacity animates implicitly")
end, SIZE)

---------------------------------------------------------------------------
-- Shapes, moments and areas

T.test("shapes: the moment helpers give the spec's moments; the automatic moment matches", function()
  T.near(P.momentForBox(100, 100, 100), 166666.67, 0.005, "100×100 crate")
  T.near(P.momentForBox(100, 32, 32), 17066.67, 0.005, "32×32 crate")
  T.near(P.momentForBox(100, 64, 64), 68266.67, 0.005, "64×64 crate")
  T.near(P.momentForBox(100, 64, 32), 100 * (64 ^ 2 + 32 ^ 2) / 12, 1e-9, "m(w² + h²)/12")
  T.near(P.momentForCircle(2, 0, 10), 2 * 10 ^ 2 / 2, 1e-9, "a disc: m·r²/2")
  T.near(P.momentForCircle(2, 0, 10, { 3, 4 }), 2 * 10 ^ 2 / 2 + 2 * 25, 1e-9, "plus m·d² off-centre")
  T.near(P.momentForSegment(3, { -10, 0 }, { 10, 0 }), 3 * 20 ^ 2 / 12, 1e-9, "a rod: m·l²/12")
  T.near(P.momentForPolygon(100, { { -16, -16 }, { -16, 16 }, { 16, 16 }, { 16, -16 } }), P.momentForBox(100, 32, 32), 1e-6,
         "the book's clockwise square is the box")
  T.near(P.areaForCircle(0, 10), math.pi * 100, 1e-9)
  T.near(P.areaForCircle(5, 10), math.pi * 75, 1e-9, "a ring")
  T.near(P.areaForPolygon{ { 0, 0 }, { 10, 0 }, { 10, 20 }, { 0, 20 } }, 200, 1e-9)
  T.near(P.areaForSegment({ 0, 0 }, { 10, 0 }, 1), 2 * 10 + math.pi, 1e-9, "2·r·length + π·r²")
  -- A body with a mass and a box but no moment: the box's moment (docs of PhysicsBody).
  local body = P.Body{ mass = 100 }
  body:addBox{ width = 32, height = 32 }
  T.near(body.moment, 17066.67, 0.005)
end)

T.test("userData: any Lua value on bodies, shapes and constraints — the book's shape->data = crate", function()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local floor = world.staticBody:addSegment{ a = { -100, 0 }, b = { 100, 0 }, collisionType = "floor" }
  local crateView = { name = "crate view" }
  local body = world:addBody{ mass = 1, position = { 0, 20 }, userData = crateView }
  local shape = body:addBox{ width = 10, height = 10, collisionType = "crate", userData = crateView }
  local pin = P.SlideJoint{ a = world.staticBody, b = body, anchorA = { 0, 100 }, max = 200, userData = 42 }
  T.same(body.userData, crateView)
  T.same(shape.userData, crateView)
  T.eq(pin.userData, 42)
  floor.userData = "floor"
  local seen
  world:addCollisionHandler{ typeA = "crate", typeB = "floor", begin = function(arb)
    seen = { arb.shapeA.userData, arb.bodyA.userData, arb.shapeB.userData }
  end }
  run(30, 1 / 60)
  T.same(seen[1], crateView, "the arbiter's shape leads back to the crate")
  T.same(seen[2], crateView)
  T.eq(seen[3], "floor")
  body.userData = nil
  T.eq(body.userData, nil)
end)

T.test("shapes: density gives mass = density·area; shape mass adds up; collisionType by name and number", function()
  local world = P.World{ gravity = { 0, -GRAVITY } }
  local body = world:addBody{ position = { 0, 100 } }
  local box = body:addBox{ width = 10, height = 20, density = 2 }
  T.eq(box.area, 200)
  T.eq(box.density, 2)
  T.eq(box.mass, 400, "density · area")
  T.eq(body.mass, 400, "the body's mass comes from its shapes")
  T.near(body.moment, P.momentForBox(400, 10, 20), 1e-6)
  local disc = body:addCircle{ radius = 1, mass = 5, offset = { 0, 0 } }
  T.eq(disc.mass, 5)
  T.eq(body.mass, 405)
  run(6, 1 / 60)
  T.near(body.position.y, 100 - GRAVITY * STEP ^ 2 * 12 * 11 / 2, 1e-9, "and it falls")
  -- Collision types: names and numbers, read back as given.
  box.collisionType = "crate"
  T.eq(box.collisionType, "crate")
  disc.collisionType = 7
  T.eq(disc.collisionType, 7)
  T.eq(body:addSegment{ a = { 0, 0 }, b = { 1, 0 } }.collisionType, 0, "the default")
  T.eq(box.type, "box")
  T.eq(disc.type, "circle")
  T.eq(disc.radius, 1)
  -- A handler keyed by number fires for the number, by name for the name.
  local w2 = P.World{ gravity = { 0, -GRAVITY } }
  w2.staticBody:addSegment{ a = { -100, 0 }, b = { 100, 0 }, collisionType = 7 }
  local byName = w2:addBody{ mass = 1, position = { -50, 20 } }
  byName:addCircle{ radius = 5, collisionType = "crate" }
  local seen = {}
  w2:addCollisionHandler{ typeA = "crate", typeB = 7, begin = function(arb)
    seen[#seen + 1] = string.format("%s/%g", arb.shapeA.collisionType, arb.shapeB.collisionType)
  end }
  w2:addCollisionHandler{ typeA = 7, typeB = "other", begin = function() seen[#seen + 1] = "wrong pair" end }
  run(30, 1 / 60)
  T.eq(table.concat(seen, " "), "crate/7")
end)
