-- Scripts that try to break the host through ca.physics (issue #6 item 8; DESIGN §4
-- "Physics": Chipmunk aborts the process on a failed assertion, so the wrapper
-- checks every input first). Every input Chipmunk would abort on must be a clear
-- Lua error ("caluna: …" naming what was wrong), and the engine must keep working
-- afterwards — each test ends with a real step that is checked.
-- Cases that could abort the process (or that look at the process's output) run
-- in a separate `caluna run` process started from this very binary, so a crash
-- fails one test instead of the whole file.
-- Tests marked "regression" pin down crashes this suite found; their comments describe
-- each bug as it was before the fix. The fuzz test (fixtures/physics_fuzz.lua) runs
-- 10,000 seeded random calls in a child process.
local ca = require "caluna"
local T = require "caluna.test"
local P = ca.physics

local STEP = 1 / 120
local GRAVITY = 1000
local NAN = 0 / 0
local NASTY = { { "NaN", NAN }, { "∞", math.huge }, { "−∞", -math.huge }, { "1e300", 1e300 }, { "−1e300", -1e300 } }

---------------------------------------------------------------------------
-- Shared helpers

--- A world with gravity (0, −1000) and a floor, stepped by the clock.
local function world()
  local w = P.World{ gravity = { 0, -GRAVITY } }
  w.staticBody:addSegment{ a = { -1000, 0 }, b = { 1000, 0 } }
  return w
end

--- world() with a ball (mass 1, r 5) at (0, 500).
local function worldWithBall()
  local w = world()
  local b = w:addBody{ mass = 1, position = { 0, 500 } }
  b:addCircle{ radius = 5 }
  return w, b
end

--- The world still steps, and a new body in it falls by the free-fall formula
--- y_n = y0 − g·dt²·n(n−1)/2 (two 1/120 s steps per 1/60 s frame).
local function stillSteps(w, what)
  local probe = w:addBody{ mass = 1, position = { -5000, 5000 } }
  probe:addCircle{ radius = 1 }
  local n = w.steps
  ca.step(1 / 60)
  T.eq(w.steps, n + 2, what .. ": the world steps")
  T.near(probe.position.y, 5000 - GRAVITY * STEP ^ 2 * 2 * 1 / 2, 1e-9, what .. ": a new body falls as it should")
  w:remove(probe)
end

--- A fresh world gives the free-fall number after 12 steps (the sanity scene).
local function freeFallStillWorks(what)
  local w = P.World{ gravity = { 0, -GRAVITY } }
  local b = w:addBody{ mass = 2, position = { 0, 100 } }
  b:addCircle{ radius = 3 }
  for _ = 1, 12 do ca.step(STEP) end
  T.near(b.position.y, 100 - GRAVITY * STEP ^ 2 * 12 * 11 / 2, 1e-9, what .. ": free fall")
  T.near(b.velocity.y, -GRAVITY * STEP * 12, 1e-9, what .. ": free-fall speed")
  w:destroy()
end

--- `fn` raises a caluna error that mentions `needle` (plain text); returns it.
local function refused(fn, needle, what)
  local err = T.raises(fn, nil, what)
  T.truthy(err:find("caluna: ", 1, true), what .. ": a caluna error, got: " .. err)
  if needle then T.truthy(err:find(needle, 1, true), what .. ": mentions '" .. needle .. "', got: " .. err) end
  return err
end

--- Setting obj[key] = v is refused with an error naming key; the value stays.
local function refusesValue(obj, key, v, what)
  local before = obj[key]
  refused(function() obj[key] = v end, key, what)
  T.eq(obj[key], before, what .. ": unchanged")
end

--- Every nasty number (NaN, ±∞, ±1e300) for a number property, in x and in y
--- for a point property; `allowInfinity`: +∞ is a meaningful value there.
local function refusesNasty(obj, key, isPoint, label, allowInfinity)
  for _, n in ipairs(NASTY) do
    if not (allowInfinity and n[2] == math.huge) then
      if isPoint then
        refusesValue(obj, key, { n[2], 0 }, label .. "." .. key .. " = {" .. n[1] .. ", 0}")
        refusesValue(obj, key, { 0, n[2] }, label .. "." .. key .. " = {0, " .. n[1] .. "}")
      else
        refusesValue(obj, key, n[2], label .. "." .. key .. " = " .. n[1])
      end
    end
  end
end

--- The options table `base` with key = v.
local function with(base, key, v)
  local t = {}
  for k, x in pairs(base) do t[k] = x end
  t[key] = v
  return t
end

--- Runs Lua source (or a file) in a separate `caluna run` process — this very
--- binary, found through the shell's parent — and returns its stdout and stderr
--- together and its exit status.
local function isolated(source, file)
  local script = file
  if source then
    script = os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write(source)
    f:close()
  end
  local png = os.tmpname()
  local p = assert(io.popen('"/proc/$PPID/exe" run -q -o \'' .. png .. '.png\' \'' .. script .. '\' 2>&1; echo "exit=$?"'))
  local out = p:read("a")
  p:close()
  if source then os.remove(script) end
  os.remove(png)
  os.remove(png .. ".png")
  local status = tonumber(out:match("exit=(%d+)%s*$"))
  return (out:gsub("exit=%d+%s*$", "")), status
end

--- The first lines of a process's output (a crash report is long).
local function head(out, n)
  local lines = {}
  for line in out:gmatch("[^\n]+") do
    if #lines >= (n or 3) then break end
    lines[#lines + 1] = line
  end
  return table.concat(lines, " | ")
end

---------------------------------------------------------------------------
-- NaN, ∞ and 1e300 in every setter and constructor argument

local WORLD_NUMBERS = { "iterations", "damping", "idleSpeedThreshold", "sleepTimeThreshold", "collisionSlop",
                        "collisionBias", "collisionPersistence", "step", "maxStepsPerFrame" }

T.test("hostile: NaN, ±∞ and ±1e300 in every world setting and World{…} option", function()
  local w = world()
  for _, key in ipairs(WORLD_NUMBERS) do
    refusesNasty(w, key, false, "World", key == "sleepTimeThreshold")
  end
  refusesNasty(w, "gravity", true, "World")
  refusesValue(w, "paused", 1, "World.paused = 1")
  refusesValue(w, "time", 5, "World.time is read-only")
  for _, key in ipairs(WORLD_NUMBERS) do
    for _, n in ipairs(NASTY) do
      if not (key == "sleepTimeThreshold" and n[2] == math.huge) then
        refused(function() P.World{ [key] = n[2] } end, key, "World{" .. key .. " = " .. n[1] .. "}")
      end
    end
  end
  refused(function() P.World{ gravity = { NAN, 0 } } end, "gravity", "World{gravity = {NaN, 0}}")
  refused(function() P.World{ gravity = { 0, 1e300 } } end, "gravity", "World{gravity = {0, 1e300}}")
  refused(function() P.World{ bogus = 1 } end, "bogus", "World{bogus = 1}")
  w.sleepTimeThreshold = math.huge
  T.eq(w.sleepTimeThreshold, math.huge, "∞: never sleep")
  stillSteps(w, "after the world settings")
  freeFallStillWorks("after the world settings")
end)

local BODY_NUMBERS = { "mass", "moment", "angle", "angularVelocity", "torque" }
local BODY_POINTS = { "position", "velocity", "force", "centerOfGravity" }

T.test("hostile: NaN, ±∞ and ±1e300 in every body setter, Body{…} and addBody{…}", function()
  local w, b = worldWithBall()
  for _, key in ipairs(BODY_NUMBERS) do refusesNasty(b, key, false, "Body", key == "moment") end
  for _, key in ipairs(BODY_POINTS) do refusesNasty(b, key, true, "Body") end
  local count = #w:bodies()
  for _, key in ipairs(BODY_NUMBERS) do
    for _, n in ipairs(NASTY) do
      if not (key == "moment" and n[2] == math.huge) then
        local opts = with({ mass = 1 }, key, n[2])
        refused(function() P.Body(opts) end, nil, "Body{" .. key .. " = " .. n[1] .. "}")
        refused(function() w:addBody(opts) end, nil, "addBody{" .. key .. " = " .. n[1] .. "}")
      end
    end
  end
  for _, key in ipairs(BODY_POINTS) do
    for _, n in ipairs(NASTY) do
      refused(function() w:addBody(with({ mass = 1 }, key, { n[2], 1 })) end, key, "addBody{" .. key .. " = {" .. n[1] .. ", 1}}")
    end
  end
  T.eq(#w:bodies(), count, "no half-made body joined the world")
  -- +∞ is a meaningful moment: a body that never turns.
  b.moment = math.huge
  T.eq(b.moment, math.huge)
  b.angularVelocity = 0
  T.eq(b.position, { 0, 500 }, "the body kept its position")
  local y = b.position.y
  ca.step(1 / 60)
  T.near(b.position.y, y - GRAVITY * STEP ^ 2 * 2 * 1 / 2, 1e-9, "and falls as before")
  stillSteps(w, "after the body setters")
end)

local SHAPE_NUMBERS = { "friction", "elasticity", "mass", "density", "collisionType" }

T.test("hostile: NaN, ±∞ and ±1e300 in every shape setter and shape constructor argument", function()
  local w = world()
  local b = w:addBody{ mass = 1, position = { 0, 500 } }
  local s = b:addBox{ width = 10, height = 10 }
  for _, key in ipairs(SHAPE_NUMBERS) do refusesNasty(s, key, false, "Shape") end
  refusesNasty(s, "surfaceVelocity", true, "Shape")
  refusesValue(s, "area", 5, "Shape.area is read-only")
  local constructors = {
    { "addCircle", { radius = 5 }, { radius = false, offset = true } },
    { "addBox", { width = 10, height = 10 }, { width = false, height = false, radius = false, center = true } },
    { "addPolygon", { points = { { 0, 0 }, { 10, 0 }, { 0, 10 } } }, { radius = false } },
    { "addSegment", { a = { 0, 0 }, b = { 10, 0 } }, { radius = false, a = true, b = true } },
  }
  for _, c in ipairs(constructors) do
    local method, base, args = c[1], c[2], c[3]
    for key, isPoint in pairs(args) do
      for _, n in ipairs(NASTY) do
        local v = isPoint and { n[2], 0 } or n[2]
        refused(function() b[method](b, with(base, key, v)) end, nil, method .. "{" .. key .. " = " .. n[1] .. "}")
      end
    end
    -- Shape options given to the constructor are checked too, and nothing is left behind.
    for _, key in ipairs(SHAPE_NUMBERS) do
      refused(function() b[method](b, with(base, key, NAN)) end, key, method .. "{" .. key .. " = NaN}")
    end
    refused(function() b[method](b, with(base, "surfaceVelocity", { math.huge, 0 })) end, "surfaceVelocity",
            method .. "{surfaceVelocity = {∞, 0}}")
  end
  for _, n in ipairs(NASTY) do
    refused(function() b:addPolygon{ points = { { n[2], 0 }, { 10, 0 }, { 0, 10 } } } end, nil,
            "addPolygon with a point at " .. n[1])
  end
  T.eq(#b.shapes, 1, "no half-made shape stayed on the body")
  stillSteps(w, "after the shape setters")
end)

--- Each constraint kind with its number and point parameters (creation and properties).
local CONSTRAINTS = {
  { "PinJoint", { anchorA = true, anchorB = true }, { distance = false } },
  { "SlideJoint", { anchorA = true, anchorB = true, min = false, max = false }, { min = false, max = false } },
  { "PivotJoint", { anchorA = true, anchorB = true }, {} },
  { "GrooveJoint", { grooveA = true, grooveB = true, anchorB = true }, { grooveA = true, grooveB = true, anchorB = true } },
  { "DampedSpring", { anchorA = true, anchorB = true, restLength = false, stiffness = false, damping = false },
    { restLength = false, stiffness = false, damping = false } },
  { "DampedRotarySpring", { restAngle = false, stiffness = false, damping = false },
    { restAngle = false, stiffness = false, damping = false } },
  { "RotaryLimitJoint", { min = false, max = false }, { min = false, max = false } },
  { "RatchetJoint", { phase = false, ratchet = false }, { angle = false, phase = false, ratchet = false } },
  { "GearJoint", { phase = false, ratio = false }, { phase = false, ratio = false } },
  { "SimpleMotor", { rate = false }, { rate = false } },
}
local CONSTRAINT_BASE = { GrooveJoint = { grooveA = { 0, 0 }, grooveB = { 100, 0 } }, SlideJoint = { max = 100 },
                          RatchetJoint = { ratchet = 0.5 } }

T.test("hostile: NaN, ±∞ and ±1e300 in every constraint parameter and property", function()
  local w, a = worldWithBall()
  local b = w:addBody{ mass = 1, position = { 50, 500 } }
  b:addCircle{ radius = 5 }
  for _, k in ipairs(CONSTRAINTS) do
    local name, params, props = k[1], k[2], k[3]
    local base = with(CONSTRAINT_BASE[name] or {}, "a", a)
    base.b = b
    for key, isPoint in pairs(params) do
      for _, n in ipairs(NASTY) do
        local v = isPoint and { 0, n[2] } or n[2]
        refused(function() P[name](with(base, key, v)) end, key, name .. "{" .. key .. " = " .. n[1] .. "}")
      end
    end
    local c = P[name](base)
    w:add(c)
    for key, isPoint in pairs(props) do refusesNasty(c, key, isPoint, name) end
    refusesNasty(c, "maxForce", false, name, true)
    refusesNasty(c, "maxBias", false, name, true)
    refusesNasty(c, "errorBias", false, name)
    refusesValue(c, "impulse", 1, name .. ".impulse is read-only")
    c.maxForce = math.huge
    T.eq(c.maxForce, math.huge, name .. ": ∞ is the default maxForce")
  end
  refused(function() P.PivotJoint{ a = a, b = b, pivot = { NAN, 0 } } end, "pivot", "PivotJoint{pivot = {NaN, 0}}")
  refused(function() P.PinJoint{ a = a, b = b, bogus = 1 } end, "bogus", "PinJoint{bogus = 1}")
  T.eq(#w:constraints(), #CONSTRAINTS)
  stillSteps(w, "after the constraint setters")
end)

T.test("hostile: NaN, ±∞ and ±1e300 in body methods, world:step, queries and the moment/area helpers", function()
  local w = world()
  local b = w:addBody{ mass = 1, moment = 1, position = { 0, 500 } }
  b:addCircle{ radius = 5 }
  local square = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } }
  for _, n in ipairs(NASTY) do
    local v, p = n[2], { n[2], 0 }
    local calls = {
      { "applyForce(v)", function() b:applyForce(p) end },
      { "applyForce(f, p)", function() b:applyForce({ 1, 0 }, p) end },
      { "applyImpulse(v)", function() b:applyImpulse(p) end },
      { "applyImpulse(j, p)", function() b:applyImpulse({ 1, 0 }, p) end },
      { "applyForceAtLocalPoint", function() b:applyForceAtLocalPoint({ 1, 0 }, p) end },
      { "applyImpulseAtLocalPoint", function() b:applyImpulseAtLocalPoint(p, { 0, 0 }) end },
      { "localToWorld", function() b:localToWorld(p) end },
      { "worldToLocal", function() b:worldToLocal(p) end },
      { "velocityAtWorldPoint", function() b:velocityAtWorldPoint(p) end },
      { "updateVelocity gravity", function() b:updateVelocity(p, 1, STEP) end },
      { "updateVelocity damping", function() b:updateVelocity({ 0, 0 }, v, STEP) end },
      { "updateVelocity dt", function() b:updateVelocity({ 0, 0 }, 1, v) end },
      { "updatePosition", function() b:updatePosition(v) end },
      { "world:step", function() w:step(v) end },
      { "nearestPoint p", function() w:nearestPoint(p, 1) end },
      { "pointQuery p", function() w:pointQuery(p, 1) end },
      { "segmentQueryFirst a", function() w:segmentQueryFirst(p, { 1, 1 }) end },
      { "segmentQueryFirst b", function() w:segmentQueryFirst({ 1, 1 }, p) end },
      { "segmentQueryFirst radius", function() w:segmentQueryFirst({ 0, 0 }, { 1, 1 }, v) end },
      { "segmentQuery radius", function() w:segmentQuery({ 0, 0 }, { 1, 1 }, v) end },
      { "boundingBoxQuery x", function() w:boundingBoxQuery{ v, 0, 1, 1 } end },
      { "boundingBoxQuery width", function() w:boundingBoxQuery{ 0, 0, v, 1 } end },
      { "momentForBox m", function() P.momentForBox(v, 1, 1) end },
      { "momentForBox w", function() P.momentForBox(1, v, 1) end },
      { "momentForCircle r", function() P.momentForCircle(1, 0, v) end },
      { "momentForCircle offset", function() P.momentForCircle(1, 0, 1, p) end },
      { "momentForPolygon m", function() P.momentForPolygon(v, square) end },
      { "momentForPolygon point", function() P.momentForPolygon(1, { p, { 1, 0 }, { 0, 1 } }) end },
      { "momentForPolygon radius", function() P.momentForPolygon(1, square, nil, v) end },
      { "momentForSegment", function() P.momentForSegment(1, p, { 1, 0 }) end },
      { "areaForCircle", function() P.areaForCircle(0, v) end },
      { "areaForPolygon", function() P.areaForPolygon({ p, { 1, 0 }, { 0, 1 } }) end },
      { "areaForSegment radius", function() P.areaForSegment({ 0, 0 }, { 1, 0 }, v) end },
    }
    if v ~= math.huge then
      calls[#calls + 1] = { "nearestPoint maxDistance", function() w:nearestPoint({ 0, 0 }, v) end }
      calls[#calls + 1] = { "pointQuery maxDistance", function() w:pointQuery({ 0, 0 }, v) end }
    end
    for _, c in ipairs(calls) do refused(c[2], nil, c[1] .. " with " .. n[1]) end
  end
  T.eq(b.velocity, { 0, 0 }, "no impulse got through")
  T.eq(b.force, { 0, 0 }, "no force got through")
  T.eq(b.angularVelocity, 0)
  T.eq(b.position, { 0, 500 })
  T.eq(w.steps, 0, "no manual step ran")
  T.eq(#w:pointQuery({ 0, 0 }, math.huge), 2, "∞ is a meaningful query distance (anywhere)")
  -- Impulses that add up past the bound are undone, with an error.
  b:applyImpulse{ 9e14, 0 }
  refused(function() b:applyImpulse{ 9e14, 0 } end, "reset to 0", "impulses adding up past ±1e15")
  T.eq(b.velocity, { 0, 0 })
  stillSteps(w, "after the method arguments")
end)

---------------------------------------------------------------------------
-- Mass, moment and body types

T.test("hostile: mass ≤ 0 and moment ≤ 0 on dynamic bodies; mass and moment on kinematic and static bodies", function()
  local w, b = worldWithBall()
  for _, m in ipairs{ 0, -1, -1e-300, 1e-12 } do
    refusesValue(b, "mass", m, "mass = " .. m)
    refusesValue(b, "moment", m, "moment = " .. m)
    refused(function() P.Body{ mass = m } end, "mass", "Body{mass = " .. m .. "}")
    refused(function() P.Body{ mass = 1, moment = m } end, "moment", "Body{moment = " .. m .. "}")
  end
  for _, kind in ipairs{ "kinematic", "static" } do
    refused(function() w:addBody{ type = kind, mass = 1 } end, "no mass", kind .. " with a mass")
    refused(function() w:addBody{ type = kind, moment = 1 } end, "no mass or moment", kind .. " with a moment")
    local k = w:addBody{ type = kind, position = { 300, 300 } }
    refusesValue(k, "mass", 1, kind .. ".mass = 1")
    refusesValue(k, "moment", 1, kind .. ".moment = 1")
    refused(function() k:sleep() end, "dynamic", kind .. ":sleep()")
  end
  refused(function() w:addBody{ type = "wobbly" } end, "dynamic", "type = wobbly")
  refusesValue(b, "type", "wobbly", "Body.type = wobbly")
  refusesValue(b, "type", 3, "Body.type = 3")
  refused(function() w.staticBody.type = "dynamic" end, "static", "the world's static body stays static")
  T.eq(w.staticBody.type, "static")
  stillSteps(w, "after the mass checks")
end)

T.test("hostile: a dynamic body with no mass (or no moment) makes ca.step fail until it is fixed", function()
  local w = world()
  local nomass = w:addBody{ position = { 0, 500 } }
  T.eq(nomass.mass, 0)
  local err = refused(function() ca.step(1 / 60) end, "mass 0", "stepping a massless body")
  T.truthy(err:find("give it a mass", 1, true), err)
  refused(function() w:step(1 / 60) end, "mass 0", "world:step with a massless body")
  T.eq(w.steps, 0, "no step ran")
  nomass.mass = 2
  refused(function() ca.step(1 / 60) end, "moment 0", "a mass but no moment and no shape")
  nomass.moment = 10
  local y = nomass.position.y
  ca.step(1 / 60)
  T.eq(w.steps, 2, "fixed: the world steps again")
  T.near(nomass.position.y, y - GRAVITY * STEP ^ 2 * 2 * 1 / 2, 1e-9)
  -- Mass from a zero-area shape's density is no mass either; a real shape fixes it.
  local thin = w:addBody{ position = { 100, 500 } }
  thin:addSegment{ a = { 0, 0 }, b = { 10, 0 }, density = 1 }
  refused(function() ca.step(1 / 60) end, "mass 0", "a zero-area shape gives no mass")
  thin:addBox{ width = 2, height = 2, density = 1 }
  ca.step(1 / 60)
  T.eq(thin.mass, 4)
  stillSteps(w, "after fixing the masses")
end)

---------------------------------------------------------------------------
-- Degenerate shapes

T.test("hostile: degenerate polygons, zero-length segments, zero and negative radii", function()
  local w = world()
  local b = w:addBody{ mass = 1, position = { 0, 500 } }
  local ring = {}
  for i = 1, 300 do ring[i] = { 100 * math.cos(i / 300 * 2 * math.pi), 100 * math.sin(i / 300 * 2 * math.pi) } end
  local max = {}
  for i = 1, 256 do max[i] = ring[i] end
  local cases = {
    { "collinear", { points = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 } } }, "degenerate" },
    { "coincident", { points = { { 5, 5 }, { 5, 5 }, { 5, 5 } } }, "degenerate" },
    { "nearly coincident", { points = { { 5, 5 }, { 5, 5 + 1e-9 }, { 5 + 1e-9, 5 } } }, "degenerate" },
    { "2 points", { points = { { 0, 0 }, { 1, 1 } } }, "3 to 256" },
    { "no points", { points = {} }, "3 to 256" },
    { "300 points", { points = ring }, "at most 256" },
    { "points not a list", { points = 5 }, "points" },
    { "a point that is not a point", { points = { { 0, 0 }, { 1, 0 }, "x" } }, "points[3]" },
    { "negative radius", { points = { { 0, 0 }, { 1, 0 }, { 0, 1 } }, radius = -1 }, "radius" },
  }
  for _, c in ipairs(cases) do refused(function() b:addPolygon(c[2]) end, c[3], "polygon: " .. c[1]) end
  refused(function() b:addSegment{ a = { 1, 1 }, b = { 1, 1 } } end, "ends must differ", "zero-length segment")
  refused(function() b:addSegment{ a = { 1, 1 } } end, "required", "segment without b")
  refused(function() b:addSegment{ a = { 0, 0 }, b = { 1, 0 }, radius = -2 } end, "radius", "segment radius −2")
  refused(function() b:addCircle{ radius = 0 } end, "positive", "zero-radius circle")
  refused(function() b:addCircle{ radius = -1 } end, "radius", "negative radius")
  refused(function() b:addCircle{} end, "radius is required", "circle without radius")
  refused(function() b:addBox{ width = 0, height = 1 } end, "width", "zero-width box")
  refused(function() b:addBox{ width = 1, height = -1 } end, "height", "negative-height box")
  refused(function() b:addBox{ width = 1, height = 1, radius = -1 } end, "radius", "box radius −1")
  refused(function() b:addBox(5) end, "table", "addBox(5)")
  T.eq(#b.shapes, 0, "nothing was added")
  -- The largest polygon and a clockwise one are fine (the hull is taken).
  local big = b:addPolygon{ points = max }
  T.eq(big.type, "polygon")
  local cw = b:addPolygon{ points = { { 0, 0 }, { 0, 10 }, { 10, 10 }, { 10, 0 } } }
  T.eq(cw.area, 100)
  stillSteps(w, "after the degenerate shapes")
end)

---------------------------------------------------------------------------
-- Membership: adding, removing, worlds

T.test("hostile: adding twice, a body of another world, removing what is not there", function()
  local w, b = worldWithBall()
  local other = world()
  refused(function() w:add(b) end, "already in this world", "adding twice")
  refused(function() other:add(b) end, "in another world", "adding a body of another world")
  refused(function() other:remove(b) end, "not in this world", "removing it from the wrong world")
  refused(function() w:add(w.staticBody) end, "static body", "adding the world's static body")
  refused(function() other:add(w.staticBody) end, nil, "adding another world's static body")
  refused(function() w:remove(w.staticBody) end, "not in this world", "removing the static body")
  refused(function() w:add(5) end, "physics Body or constraint", "adding a number")
  refused(function() w:add(ca.Layer{}) end, "physics Body or constraint", "adding a layer")
  refused(function() w:remove(nil) end, "physics Body or constraint", "removing nil")
  local free = P.Body{ mass = 1 }
  refused(function() w:remove(free) end, "not in this world", "removing a body in no world")
  local pin = P.PinJoint{ a = w.staticBody, b = b, anchorA = { 0, 600 } }
  w:add(pin)
  refused(function() w:add(pin) end, "already in this world", "adding a constraint twice")
  w:remove(pin)
  refused(function() w:remove(pin) end, "not in this world", "removing a constraint twice")
  w:remove(b)
  refused(function() w:remove(b) end, "not in this world", "removing a body twice")
  other:add(b)
  T.same(b.world, other, "a removed body can join another world")
  stillSteps(w, "after the membership errors")
  stillSteps(other, "the other world")
end)

T.test("hostile: constraints between the same body, two static bodies, two worlds, a body not in the world", function()
  local w, a = worldWithBall()
  local other = world()
  local s1 = w:addBody{ type = "static", position = { 100, 100 } }
  local s2 = w:addBody{ type = "static", position = { 200, 100 } }
  local o = other:addBody{ mass = 1, moment = 1, position = { 0, 500 } }
  refused(function() P.PinJoint{ a = a, b = a } end, "two different bodies", "a body with itself")
  refused(function() P.GearJoint{ a = a, b = a } end, "two different bodies", "a gear with itself")
  local statics = P.SlideJoint{ a = s1, b = s2, max = 200 }
  refused(function() w:add(statics) end, "at least one dynamic body", "two static bodies")
  refused(function() w:add(P.PivotJoint{ a = w.staticBody, b = s1, pivot = { 0, 0 } }) end, "dynamic", "the static body and a static body")
  refused(function() P.PinJoint{ a = a, b = o } end, "two worlds", "bodies of two worlds")
  local free = P.Body{ mass = 1, moment = 1 }
  local loose = P.SlideJoint{ a = a, b = free, max = 10 }
  refused(function() w:add(loose) end, "not in this world", "a body not in the world")
  refused(function() other:add(P.SlideJoint{ a = a, b = s1, max = 10 }) end, "not in this world", "a constraint of another world's bodies")
  refused(function() P.GearJoint{ a = w.staticBody, b = a, ratio = 0 } end, "ratio", "gear ratio 0")
  refused(function() P.GearJoint{ a = w.staticBody, b = a, ratio = 1e-12 } end, "ratio", "gear ratio 1e-12")
  local gear = P.GearJoint{ a = w.staticBody, b = a, ratio = 2 }
  refusesValue(gear, "ratio", 0, "GearJoint.ratio = 0")
  refused(function() P.RatchetJoint{ a = w.staticBody, b = a, ratchet = 0 } end, "ratchet", "ratchet interval 0")
  refused(function() P.SlideJoint{ a = w.staticBody, b = a, min = 10, max = 5 } end, "above max", "slide min > max")
  refused(function() P.RotaryLimitJoint{ a = w.staticBody, b = a, min = 1, max = -1 } end, "above max", "rotary limit min > max")
  refused(function() P.GrooveJoint{ a = w.staticBody, b = a, grooveA = { 1, 1 }, grooveB = { 1, 1 } } end, "must differ", "a zero-length groove")
  refused(function() P.PinJoint{ a = a } end, "b must be a physics Body", "no b")
  refused(function() P.PinJoint{ a = 5, b = a } end, "a must be a physics Body", "a number as a")
  refused(function() P.PinJoint(5) end, nil, "PinJoint(5)")
  -- Rotary constraints need a body that can turn: an infinite moment cannot.
  local stiff = w:addBody{ mass = 1, moment = math.huge, position = { 300, 500 } }
  for _, kind in ipairs{ "SimpleMotor", "GearJoint", "RatchetJoint", "RotaryLimitJoint", "DampedRotarySpring" } do
    local c = P[kind]{ a = w.staticBody, b = stiff, ratchet = kind == "RatchetJoint" and 0.5 or nil }
    refused(function() w:add(c) end, "finite moment", kind .. " on an infinite-moment body")
  end
  -- A pin to the static body keeps its body dynamic.
  w:add(P.PinJoint{ a = w.staticBody, b = a, anchorA = { 0, 600 } })
  refusesValue(a, "type", "static", "a pinned body becoming static")
  refusesValue(a, "type", "kinematic", "a pinned body becoming kinematic")
  stillSteps(w, "after the constraint misuse")
end)

---------------------------------------------------------------------------
-- Sleeping

T.test("hostile: sleeping without a threshold, a threshold of 0, sleeping outside a world", function()
  local w, b = worldWithBall()
  refused(function() b:sleep() end, "sleepTimeThreshold", "sleep with the default (∞) threshold")
  T.eq(b.sleeping, false)
  refusesValue(w, "sleepTimeThreshold", 0, "sleepTimeThreshold = 0")
  refusesValue(w, "sleepTimeThreshold", -1, "sleepTimeThreshold = −1")
  refused(function() P.World{ sleepTimeThreshold = 0 } end, "sleepTimeThreshold", "World{sleepTimeThreshold = 0}")
  refusesValue(w, "idleSpeedThreshold", -1, "idleSpeedThreshold = −1")
  local free = P.Body{ mass = 1 }
  refused(function() free:sleep() end, "only in a world", "sleeping a body in no world")
  free:activate()   -- harmless outside a world
  -- With a threshold, a kinematic body in the world never sleeps and never aborts.
  w.sleepTimeThreshold = 0.1
  local k = w:addBody{ type = "kinematic", position = { 400, 400 }, velocity = { 0, 0 } }
  k:addBox{ width = 10, height = 10 }
  b:sleep()
  T.eq(b.sleeping, true)
  for _ = 1, 30 do ca.step(1 / 60) end
  T.eq(k.sleeping, false)
  b:activate()
  stillSteps(w, "after the sleep misuse")
end)

---------------------------------------------------------------------------
-- Inside collision callbacks

--- A ball resting on the floor (elasticity 0): preSolve runs every step.
local function restingBall()
  local w = P.World{ gravity = { 0, -GRAVITY } }
  w.staticBody:addSegment{ a = { -100, 0 }, b = { 100, 0 }, collisionType = "floor" }
  local ball = w:addBody{ mass = 1, position = { 0, 5 } }
  local shape = ball:addCircle{ radius = 5, collisionType = "ball" }
  return w, ball, shape
end

T.test("hostile: changing mass, type, sleep or shapes' mass inside a callback is an error, reported after the step", function()
  local w, ball, shape = restingBall()
  w.sleepTimeThreshold = 10
  local attempts = {
    { "mass", function() ball.mass = 2 end, "mass" },
    { "moment", function() ball.moment = 2 end, "moment" },
    { "type", function() ball.type = "kinematic" end, "type" },
    { "sleep", function() ball:sleep() end, "sleep" },
    { "activate", function() ball:activate() end, "waking" },
    { "shape mass", function() shape.mass = 3 end, "mass" },
    { "shape density", function() shape.density = 3 end, "mass" },
    { "centre of gravity", function() ball.centerOfGravity = { 1, 1 } end, "centre of gravity" },
    { "a collision handler", function() w:addCollisionHandler{ typeA = "x", begin = function() end } end, "collision handler" },
  }
  for _, a in ipairs(attempts) do
    local inside
    w:addCollisionHandler{ typeA = "ball", typeB = "floor", preSolve = function()
      local ok, err = pcall(a[2])
      inside = inside or { ok = ok, err = tostring(err) }
      if not ok then error(err, 0) end
    end }
    local err = refused(function() ca.step(1 / 60) end, "while the physics world steps", a[1] .. ": reported by ca.step")
    T.truthy(err:find(a[3], 1, true), a[1] .. ": " .. err)
    T.eq(inside.ok, false, a[1] .. ": refused inside the callback")
  end
  w:addCollisionHandler{ typeA = "ball", typeB = "floor", preSolve = false }
  T.eq(ball.mass, 1)
  T.eq(ball.type, "dynamic")
  T.eq(ball.sleeping, false)
  T.eq(shape.mass, 0)
  -- Outside the callback the same changes are fine.
  ball.mass = 2
  T.eq(ball.mass, 2)
  stillSteps(w, "after the callback changes")
end)

T.test("hostile: ca.step, ca.advance, ca.render, world:step and world:destroy inside a callback are errors", function()
  local w = restingBall()
  local other = world()
  local calls = {
    { "ca.step", function() ca.step(1 / 60) end, "inside a callback" },
    { "ca.advance", function() ca.advance(100) end, "inside a callback" },
    { "ca.render", function() ca.render() end, "inside a callback" },
    { "world:step", function() w:step(1 / 60) end, "while the physics world steps" },
    { "world:destroy", function() w:destroy() end, "while the physics world steps" },
  }
  for _, c in ipairs(calls) do
    local inside
    w:addCollisionHandler{ typeA = "ball", typeB = "floor", preSolve = function()
      local ok, err = pcall(c[2])
      inside = inside or { ok = ok, err = tostring(err) }
    end }
    local t = ca.mediaTime()
    ca.step(1 / 60)
    T.eq(inside.ok, false, c[1] .. " inside a callback")
    T.truthy(inside.err:find(c[3], 1, true), c[1] .. ": " .. inside.err)
    T.near(ca.mediaTime(), t + 1 / 60, 1e-12, c[1] .. ": the clock moved only by the frame")
  end
  T.eq(w.destroyed, false)
  -- Unprotected, the error reaches ca.step with the callback's line.
  local line
  w:addCollisionHandler{ typeA = "ball", typeB = "floor", preSolve = function()
    line = debug.getinfo(1, "l").currentline + 1
    w:step(1 / 60)
  end }
  local err = refused(function() ca.step(1 / 60) end, "World:step", "unprotected world:step in a callback")
  T.truthy(err:find("physics_hostile.lua:" .. line .. ":", 1, true), "file:line in " .. err)
  w:addCollisionHandler{ typeA = "ball", typeB = "floor", preSolve = false }
  stillSteps(w, "after the nested calls")
  stillSteps(other, "another world")
end)

T.test("hostile: an arbiter used after its callback is stale; bad values set on a live one are refused", function()
  local w = restingBall()
  local kept, inside = nil, {}
  w:addCollisionHandler{ typeA = "ball", typeB = "floor", preSolve = function(arb)
    kept = arb
    for _, n in ipairs(NASTY) do
      inside[#inside + 1] = { pcall(function() arb.restitution = n[2] end) }
      inside[#inside + 1] = { pcall(function() arb.friction = n[2] end) }
      inside[#inside + 1] = { pcall(function() arb.surfaceVelocity = { n[2], 0 } end) }
    end
    inside[#inside + 1] = { pcall(function() arb.restitution = -1 end) }
    inside[#inside + 1] = { pcall(function() arb.normal = { 0, 1 } end) }
    inside[#inside + 1] = { pcall(function() return arb.bogus end) }
  end }
  ca.step(1 / 60)
  T.eq(#inside, 3 * #NASTY + 3)
  for i, r in ipairs(inside) do
    T.eq(r[1], false, "refused inside the callback (" .. i .. ")")
    T.truthy(tostring(r[2]):find("caluna: ", 1, true), tostring(r[2]))
  end
  for _, key in ipairs{ "shapeA", "shapeB", "bodyA", "bodyB", "normal", "points", "count", "isFirstContact",
                        "isRemoval", "totalImpulse", "totalKineticEnergy", "restitution", "friction", "surfaceVelocity" } do
    refused(function() return kept[key] end, "valid only inside its collision callback", "stale arbiter ." .. key)
  end
  refused(function() kept.restitution = 0.5 end, "valid only inside", "setting a stale arbiter")
  refused(function() kept.friction = NAN end, nil, "NaN on a stale arbiter")
  stillSteps(w, "after the stale arbiter")
end)

---------------------------------------------------------------------------
-- A destroyed world and its static body

T.test("hostile: a destroyed world and its static body give stale errors; its bodies live on", function()
  local w = world()
  local sb = w.staticBody
  local floor = sb.shapes[1]
  local b = w:addBody{ mass = 1, position = { 0, 500 } }
  local s = b:addCircle{ radius = 5 }
  local pin = w:add(P.PinJoint{ a = sb, b = b, anchorA = { 0, 600 } })
  w:destroy()
  T.eq(w.destroyed, true)
  T.truthy(tostring(w):find("destroyed", 1, true))
  for name, fn in pairs{
    staticBody = function() return w.staticBody end,
    step = function() w:step(1 / 60) end,
    addBody = function() w:addBody{ mass = 1 } end,
    add = function() w:add(P.Body{ mass = 1 }) end,
    remove = function() w:remove(b) end,
    nearestPoint = function() w:nearestPoint({ 0, 0 }) end,
    pointQuery = function() w:pointQuery({ 0, 0 }) end,
    segmentQuery = function() w:segmentQuery({ 0, 0 }, { 1, 1 }) end,
    boundingBoxQuery = function() w:boundingBoxQuery{ 0, 0, 1, 1 } end,
    shapeQuery = function() w:shapeQuery(s) end,
    addCollisionHandler = function() w:addCollisionHandler{ begin = function() end } end,
    gravity = function() w.gravity = { 0, 1 } end,
    paused = function() w.paused = true end,
    iterations = function() w.iterations = 3 end,
  } do
    refused(fn, "destroyed", "destroyed world: " .. name)
  end
  -- The static body and its shapes are gone with the world.
  refused(function() sb.position = { 1, 1 } end, "destroyed", "static body position")
  refused(function() sb:addCircle{ radius = 1 } end, "destroyed", "static body addCircle")
  refused(function() sb:applyImpulse({ 1, 0 }, { 0, 0 }) end, "destroyed", "static body applyImpulse at a point")
  refused(function() floor.friction = 1 end, "removed from its body", "a static shape")
  refused(function() w:add(pin) end, "destroyed", "re-adding its constraint")
  T.eq(pin.world, nil, "the constraint left the world")
  -- The world's own bodies live on outside it.
  b.velocity = { 1, 2 }
  T.eq(b.velocity, { 1, 2 })
  T.same(s.body, b)
  freeFallStillWorks("after destroying a world")
end)

--- A world destroyed at once, and the static body taken from it before.
local function destroyedWorld()
  local w = world()
  local sb = w.staticBody
  w:destroy()
  return w, sb
end

T.test("hostile: after destroy, the world's settings and its static body read as stale errors", function()
  local w, sb = destroyedWorld()
  for _, key in ipairs{ "gravity", "iterations", "damping", "idleSpeedThreshold", "sleepTimeThreshold",
                        "collisionSlop", "collisionBias", "collisionPersistence" } do
    refused(function() return w[key] end, "destroyed", "reading World." .. key .. " after destroy")
  end
  for _, key in ipairs{ "position", "angle", "velocity", "mass", "type" } do
    refused(function() return sb[key] end, "destroyed", "reading the destroyed static body's " .. key)
  end
  refused(function() sb:applyImpulse{ 1, 0 } end, "destroyed", "static body applyImpulse at its centre")
  freeFallStillWorks("after reading a destroyed world")
end)

T.test("hostile (regression): a destroyed world's static body converts points with a stale error", function()
  -- Fixed; as it was:
  -- PhysicsBody.swift localToWorld / worldToLocal / velocity(atWorldPoint:) skip check():
  -- every other use of a destroyed world's static body is a stale error, these answer.
  local _, sb = destroyedWorld()
  refused(function() return sb:localToWorld{ 0, 0 } end, "destroyed", "static body localToWorld")
  refused(function() return sb:worldToLocal{ 0, 0 } end, "destroyed", "static body worldToLocal")
  refused(function() return sb:velocityAtWorldPoint{ 0, 0 } end, "destroyed", "static body velocityAtWorldPoint")
end)

T.test("hostile: bodies of a destroyed world leave it and can join another world", function()
  local w, b = worldWithBall()
  w:destroy()
  T.truthy(b.world == nil, "a body of a destroyed world is in no world, got " .. tostring(b.world))
  local other = world()
  other:add(b)
  T.same(b.world, other)
  stillSteps(other, "the new world")
end)

---------------------------------------------------------------------------
-- Divergence

T.test("hostile: a spring of stiffness 1e15 between 1e-6 bodies diverges: an error, the host survives", function()
  local w = world()
  local a = w:addBody{ mass = 1e-6, moment = 1e-6, position = { 0, 500 } }
  local b = w:addBody{ mass = 1e-6, moment = 1e-6, position = { 50, 500 } }
  local spring = w:add(P.DampedSpring{ a = a, b = b, restLength = 10, stiffness = 1e15, damping = 0 })
  local calm = world()
  local witness = calm:addBody{ mass = 1, position = { 0, 1000 } }
  witness:addCircle{ radius = 1 }
  local errors, first = 0, nil
  for _ = 1, 120 do
    local ok, err = pcall(ca.step, 1 / 60)
    if not ok then errors = errors + 1; first = first or err end
  end
  T.truthy(errors > 0, "it diverged")
  T.truthy(first:find("diverged", 1, true), first)
  T.truthy(first:find("caluna: ", 1, true), first)
  for _, body in ipairs{ a, b } do
    local p, v = body.position, body.velocity
    T.truthy(math.abs(p.x) <= 1e15 and math.abs(p.y) <= 1e15, "stopped within bounds")
    T.truthy(v.x == v.x and v.y == v.y, "no NaN velocity")
  end
  T.eq(calm.steps, 240, "another world kept stepping through it")
  T.near(witness.position.y, 1000 - GRAVITY * STEP ^ 2 * 240 * 239 / 2, 1e-6, "and its body fell normally")
  w:remove(spring)
  for _ = 1, 30 do ca.step(1 / 60) end   -- later steps are fine
  stillSteps(w, "after the divergence")
  freeFallStillWorks("after the divergence")
end)

T.test("hostile: a body given velocity 1e15 steps for 10 s: one divergence error, then normal steps", function()
  local w = world()
  local fast = w:addBody{ mass = 1, moment = 1, position = { 0, 500 }, velocity = { 1e15, 0 } }
  refusesValue(fast, "velocity", { 1.0000001e15, 0 }, "a velocity past 1e15")
  local errors = 0
  for _ = 1, 600 do
    local ok, err = pcall(ca.step, 1 / 60)
    if not ok then
      errors = errors + 1
      T.truthy(err:find("diverged", 1, true), err)
    end
  end
  T.eq(errors, 1, "it left the bounds once (after 1e15/(1e15/120) = 120 steps) and was stopped")
  T.eq(w.steps, 1200)
  T.truthy(fast.position.x <= 1e15, "kept within bounds: " .. fast.position.x)
  T.eq(fast.velocity.x, 0, "stopped")
  stillSteps(w, "after the fast body")
end)

---------------------------------------------------------------------------
-- In a separate process: output and aborts

T.test("hostile: Chipmunk's 'Initializing cpSpace' banner never reaches caluna's output", function()
  local out, status = isolated([[
    local ca = require "caluna"
    local w = ca.physics.World{ gravity = { 0, -1000 } }
    local b = w:addBody{ mass = 1, position = { 0, 10 } }
    b:addCircle{ radius = 1 }
    ca.step(1 / 60)
    ca.physics.World{}:destroy()
    print(string.format("y=%.6f", b.position.y))
  ]])
  T.eq(status, 0, "exit status; output: " .. out)
  T.falsy(out:find("Initializing cpSpace", 1, true), "no banner in: " .. out)
  T.falsy(out:find("Chipmunk", 1, true), "no Chipmunk text in: " .. out)
  T.eq(out, string.format("y=%.6f\n", 10 - GRAVITY * STEP ^ 2 * 2 * 1 / 2), "only the script's own output")
end)

T.test("hostile: a zero-length PinJoint is refused and Chipmunk's warning never reaches the output", function()
  -- cpPinJointNew with coincident anchors prints "Chipmunk warning: You created a 0
  -- length pin joint" on stderr (cpPinJoint.c:110): caluna refuses it first.
  local out, status = isolated([[
    local ca = require "caluna"
    local w = ca.physics.World{}
    local b = w:addBody{ mass = 1, moment = 1 }
    local ok, err = pcall(function() w:add(ca.physics.PinJoint{ a = w.staticBody, b = b }) end)
    print(ok, err)
  ]])
  T.eq(status, 0, "exit status; output: " .. head(out))
  T.falsy(out:find("Chipmunk", 1, true), "no Chipmunk text in: " .. head(out))
  T.truthy(out:find("^false\t.*caluna: .*PinJoint"), "a caluna error naming the API: " .. head(out))
end)

T.test("hostile: moving a body to another world inside a collision callback does not abort", function()
  -- In world A's callback, A:remove(ball) takes it out of A's space at the end of the
  -- step; B:add(ball) at once would make Chipmunk abort ("You have already added this
  -- body to another space", cpSpace.c:443). Run apart, so an abort fails only this test.
  local out, status = isolated([[
    local ca = require "caluna"
    local P = ca.physics
    local A, B = P.World{ gravity = { 0, -1000 } }, P.World{}
    A.staticBody:addSegment{ a = { -100, 0 }, b = { 100, 0 }, collisionType = 1 }
    local ball = A:addBody{ mass = 1, position = { 0, 5 } }
    ball:addCircle{ radius = 5, collisionType = 2 }
    local moved, inside = false, nil
    A:addCollisionHandler{ typeA = 2, typeB = 1, preSolve = function()
      if moved then return end
      moved = true
      A:remove(ball)
      local ok, err = pcall(function() B:add(ball) end)
      inside = ok and "added" or err
    end }
    for _ = 1, 5 do pcall(ca.step, 1 / 60) end
    if ball.world == nil then B:add(ball) end
    ca.step(1 / 60)
    print("alive", ball.world == B, inside)
  ]])
  T.eq(status, 0, "the process survived; output: " .. head(out))
  T.truthy(out:find("alive\ttrue\t", 1, true), "the ball ends in B: " .. head(out))
  T.truthy(out:find("added", 1, true) or out:find("caluna: ", 1, true), "added, or a caluna error: " .. head(out))
end)

T.test("hostile (regression): a body taken out of its world inside a callback is still in Chipmunk's space until the step ends", function()
  -- Fixed; as it was:
  -- PhysicsWorld.swift remove(_ body:) sets body.world = nil at once while the removal
  -- from the space is deferred: changes that check `world` then reach Chipmunk mid-step.
  -- (1) A type change aborts ("cannot be done safely during a call to cpSpaceStep",
  -- cpBody.c:174). (2) removeShape (PhysicsBody.swift) no longer removes the shape from the
  -- space and the deferred leave skips it: the freed shape stays in the index (a crash).
  local failures = {}
  for _, case in ipairs{ { "type", 'ball.type = "static"' }, { "removeShape", "ball:removeShape(shape); shape = nil" } } do
    local out, status = isolated([[
      local ca = require "caluna"
      local P = ca.physics
      local A = P.World{ gravity = { 0, -1000 } }
      A.staticBody:addSegment{ a = { -100, 0 }, b = { 100, 0 }, collisionType = 1 }
      local ball = A:addBody{ mass = 1, position = { 0, 5 } }
      local shape = ball:addCircle{ radius = 5, collisionType = 2 }
      local done = false
      A:addCollisionHandler{ typeA = 2, typeB = 1, preSolve = function()
        if done then return end
        done = true
        A:remove(ball)
        pcall(function() ]] .. case[2] .. [[ end)
      end }
      for _ = 1, 3 do pcall(ca.step, 1 / 60) end
      shape = nil
      collectgarbage() collectgarbage()
      local hits = #A:pointQuery({ 0, 0 }, 100)
      local other = A:addBody{ mass = 1, position = { 0, 30 } }
      other:addCircle{ radius = 5 }
      for _ = 1, 60 do pcall(ca.step, 1 / 60) end
      print("alive", hits, string.format("%.1f", other.position.y))
    ]])
    if status ~= 0 then
      failures[#failures + 1] = case[1] .. ": exit " .. tostring(status) .. " (" .. head(out, 1) .. ")"
    elseif not out:find("alive\t1\t", 1, true) then
      failures[#failures + 1] = case[1] .. ": more than the floor left in the world (" .. head(out, 1) .. ")"
    end
  end
  T.eq(table.concat(failures, "; "), "", "every case survives")
end)

--- Runs each {label, snippet} in its own process ("P" is ca.physics); each must
--- print exactly "alive" (the snippets pcall what should fail).
local function eachSurvives(cases)
  for _, c in ipairs(cases) do
    local out, status = isolated("local ca = require 'caluna'; local P = ca.physics; " .. c[2] .. "; print('alive')")
    T.eq(status, 0, c[1] .. ": the process survived; output: " .. head(out))
    T.eq(out, "alive\n", c[1])
  end
end

T.test("hostile: updateVelocity on a body with no mass or no moment is an error (cpBodyUpdateVelocity asserts)", function()
  eachSurvives{
    { "no moment", "local b = P.Body{ mass = 1 }; assert(not pcall(function() b:updateVelocity({ 0, 0 }, 1, 0.1) end))" },
    { "no mass", "local b = P.Body{}; assert(not pcall(function() b:updateVelocity({ 0, -10 }, 1, 0.1) end))" },
  }
end)

T.test("hostile (regression): an impulse on a body with no mass or no moment must not make NaN", function()
  -- Fixed; as it was:
  -- PhysicsBody.swift applyImpulse/checkAccumulated: with moment 0 (or mass 0) Chipmunk's
  -- inverse is ∞, ∞·0 = NaN slips past the ±1e15 check, and the next sanity check aborts
  -- ("Body's angular velocity is invalid", cpBody.c:123, here from addCircle's mass update).
  -- Expected: a caluna error (or no change), never a NaN state.
  eachSurvives{
    { "impulse, no moment", "local b = P.Body{ mass = 1 }; pcall(function() b:applyImpulse{ 1, 0 } end); b:addCircle{ radius = 1, density = 1 }" },
    { "impulse, no mass", "local b = P.Body{}; pcall(function() b:applyImpulse{ 0, 0 } end); b:addCircle{ radius = 1, density = 1 }" },
  }
end)

T.test("hostile (regression): a wildcard or default handler added after contacts began must not crash their separate", function()
  -- Fixed; as it was:
  -- Chipmunk 7.0.3: until a space first uses wildcards (cpSpaceAddWildcardHandler or
  -- cpSpaceAddDefaultCollisionHandler), arbiters are made with handlerA/handlerB NULL and
  -- point at space->defaultHandler; adding the first wildcard/default handler rewrites that
  -- handler in place to call the wildcards, so the next separate of an older contact calls
  -- through NULL (cpArbiterCallWildcardSeparateA, a segfault). CollisionHandler.swift /
  -- PhysicsWorld.init could switch every space to wildcard mode when it is made.
  local failures = {}
  for _, typeA in ipairs{ "nil", '"ball"', '"unrelated"' } do
    local out, status = isolated([[
      local ca = require "caluna"
      local P = ca.physics
      local w = P.World{ gravity = { 0, -1000 } }
      w.staticBody:addSegment{ a = { -100, 0 }, b = { 100, 0 } }
      local ball = w:addBody{ mass = 1, position = { 0, 5 } }
      ball:addCircle{ radius = 5, collisionType = "ball" }
      for _ = 1, 10 do ca.step(1 / 60) end
      -- Only begin: separate keeps Chipmunk's default, which calls the wildcards.
      w:addCollisionHandler{ typeA = ]] .. typeA .. [[, begin = function() end }
      ball.velocity = { 0, 500 }
      for _ = 1, 10 do ca.step(1 / 60) end
      print("alive", ball.position.y > 20)
    ]])
    if status ~= 0 or not out:find("alive\ttrue", 1, true) then
      failures[#failures + 1] = "typeA = " .. typeA .. ": exit " .. tostring(status) .. " (" .. head(out, 1) .. ")"
    end
  end
  T.eq(table.concat(failures, "; "), "", "the ball leaves the floor and the process lives")
end)

T.test("hostile (regression): ca.step inside a separate callback run by a removal is an error", function()
  -- Fixed; as it was:
  -- world:remove outside a frame runs separate callbacks while Chipmunk holds the space
  -- locked (cpSpaceRemoveShape). world:step is refused there, but ca.step is not: the
  -- engine steps the locked space, and a removal deferred in that nested step then calls
  -- cpSpaceRemoveShape on the locked space — an abort (cpSpace.c:526). Expected: ca.step
  -- (and ca.advance) refused while a world is locked, like inside a frame.
  local out, status = isolated([[
    local ca = require "caluna"
    local P = ca.physics
    local w = P.World{ gravity = { 0, -1000 } }
    w.staticBody:addSegment{ a = { -100, 0 }, b = { 100, 0 }, collisionType = "floor" }
    local ball = w:addBody{ mass = 1, position = { 0, 5 } }
    ball:addCircle{ radius = 5, collisionType = "ball" }
    local armed, nested = false, nil
    local other = w:addBody{ mass = 1, position = { 50, 5 } }
    other:addCircle{ radius = 5, collisionType = "other" }
    w:addCollisionHandler{ typeA = "ball", typeB = "floor", separate = function()
      nested = { pcall(ca.step, 1 / 60) }
    end }
    w:addCollisionHandler{ typeA = "other", typeB = "floor", preSolve = function()
      if armed then armed = false; w:remove(other) end
    end }
    for _ = 1, 10 do ca.step(1 / 60) end
    armed = true
    pcall(function() w:remove(ball) end)
    print("alive", nested and tostring(nested[1]), nested and tostring(nested[2]))
  ]])
  T.eq(status, 0, "the process survived; output: " .. head(out))
  T.truthy(out:find("alive\tfalse\t", 1, true), "the nested ca.step was refused: " .. head(out))
end)

T.test("hostile (regression): momentForPolygon of a degenerate polygon is an error, not NaN", function()
  -- Fixed; as it was:
  -- PhysicsMath.swift momentForPolygon checks the point count only (1…256), so collinear
  -- or single points give NaN; addPolygon refuses the same points as degenerate.
  refused(function() P.momentForPolygon(1, { { 0, 0 }, { 1, 1 }, { 2, 2 } }) end, "degenerate", "collinear points")
  refused(function() P.momentForPolygon(1, { { 0, 0 } }) end, "degenerate", "one point")
end)

T.test("hostile (regression): every physics error names its API (constraint properties, the helpers, the 300-point polygon)", function()
  -- Fixed; as it was:
  -- LuaPhysicsConstraints.swift constraintNewIndex and LuaPhysicsMath report the engine's
  -- message without "PinJoint.distance:" / "ca.physics.momentForBox:"; addPolygon
  -- (LuaPhysicsBody.swift) stops reading at 257 points and reports "got 257".
  local w, b = worldWithBall()
  local pin = P.PinJoint{ a = w.staticBody, b = b, anchorA = { 0, 600 } }
  refused(function() pin.distance = NAN end, "pin.distance", "PinJoint.distance")
  refused(function() pin.maxForce = -1 end, "pin.maxForce", "PinJoint.maxForce")
  refused(function() P.momentForBox(-1, 1, 1) end, "ca.physics.momentForBox", "momentForBox(−1, …)")
  refused(function() P.areaForCircle(-1, 1) end, "ca.physics.areaForCircle", "areaForCircle(−1, …)")
  local ring = {}
  for i = 1, 300 do ring[i] = { math.cos(i / 300 * 2 * math.pi), math.sin(i / 300 * 2 * math.pi) } end
  refused(function() b:addPolygon{ points = ring } end, "got 300", "a 300-point polygon")
end)

T.test("hostile: ten thousand seeded random physics calls; the host lives and free fall still works", function()
  local out, status = isolated(nil, T.dir .. "/fixtures/physics_fuzz.lua")
  T.eq(status, 0, "the fuzz process survived; output: " .. head(out))
  local calls, ok, errors, foreign = out:match("fuzz calls=(%d+) ok=(%d+) errors=(%d+) foreign=(%d+)")
  T.truthy(calls, "the fuzz finished: " .. head(out))
  T.eq(tonumber(calls), 10000)
  T.eq(tonumber(ok) + tonumber(errors), 10000)
  T.truthy(tonumber(ok) > 1000 and tonumber(errors) > 1000, "both successes and errors: " .. ok .. "/" .. errors)
  T.eq(tonumber(foreign), 0, "every error is a caluna error: " .. (out:match("foreign: ([^\n]*)") or ""))
  local y = tonumber(out:match("freefall y=(%S+)"))
  T.near(y, 100 - GRAVITY * STEP ^ 2 * 12 * 11 / 2, 1e-9, "the final sanity scene's free fall")
end)

T.test("hostile: the engine renders after all of it", function()
  freeFallStillWorks("at the end")
  local l = ca.Layer{ frame = { 0, 0, 10, 10 }, backgroundColor = "#00ff00" }
  ca.root:addSublayer(l)
  T.pixel(ca.render(), 5, 5, "#00ff00")
end)
