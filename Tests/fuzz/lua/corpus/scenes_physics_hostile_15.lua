local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
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
local T = FUZZ_Tlocal P = ca.physics

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

