-- Chapter 6, listing 6.13: CAEmitterLayer and CAEmitterCell — the fire explosion (T6.13),
-- the layer's multipliers, emitter shapes, nested cells, render modes, determinism and
-- seeking, defaults and hostile input.
-- Spec: shared/spec/book-ch05-06.md §2.11, §2.12, listing 6.13 / T6.13, F70–F75, §6 item 8.
-- The book's Spark.png is replaced by a generated 8×8 white sprite (§6 item 13); every scene
-- uses a fixed seed. Particle facts are read with layer:particles() (the presentation's
-- particles at the current time); tests assert bounds and statistics, never exact positions
-- (the generator is caluna's own, §6 item 8).
local ca = require "caluna"
local T = require "caluna.test"

local S400 = { size = {400, 400} }
local pi = math.pi

local function sprite()
  return ca.Image.fromPixels(8, 8, string.rep("\255\255\255\255", 64))
end

-- Listing 6.13: emitter frame = the container's bounds, emitterPosition = its centre, the
-- book's cell (birthRate 150, lifetime 5, orange, alphaSpeed -0.4, velocity 50 ± 25,
-- emissionRange 2π), additive unless told otherwise.
local function fire(o)
  o = o or {}
  ca.root.backgroundColor = "#000000"
  local e = ca.EmitterLayer{ frame = {0, 0, 400, 400}, emitterPosition = {200, 200},
                             renderMode = o.renderMode or "additive", seed = o.seed or 7 }
  local cell = ca.EmitterCell{ name = "fire", contents = sprite(), birthRate = 150, lifetime = 5,
                               color = {1, 0.5, 0.1, 1}, alphaSpeed = -0.4, velocity = 50,
                               velocityRange = 50, emissionRange = 2 * pi }
  e.emitterCells = { cell }
  ca.root:addSublayer(e)
  return e, cell
end

local function dist(p, cx, cy) return math.sqrt((p.x - (cx or 200)) ^ 2 + (p.y - (cy or 200)) ^ 2) end

-- Every particle's distance lies in [lo·age, hi·age] (a hair of slack for rounding).
local function checkDistances(ps, lo, hi)
  for i, p in ipairs(ps) do
    local d = dist(p)
    T.truthy(d >= lo * p.age - 1e-6 and d <= hi * p.age + 1e-6,
             ("particle %d: distance %.4f not in [%g·%.4f, %g·%.4f]"):format(i, d, lo, p.age, hi, p.age))
  end
end

local function identical(a, b)
  local n, maxd = a:compare(b, 0)
  return n == 0 and maxd == 0
end

---------------------------------------------------------------------------
-- Defaults (Apple's, spec §2.11–2.12).

T.test("CAEmitterLayer defaults", function()
  local e = ca.EmitterLayer()
  T.eq(e.className, "CAEmitterLayer")
  T.eq(e.emitterPosition, {0, 0}); T.eq(e.emitterZPosition, 0)
  T.eq(e.emitterSize, {0, 0}); T.eq(e.emitterDepth, 0)
  T.eq(e.emitterShape, "point"); T.eq(e.emitterMode, "volume"); T.eq(e.renderMode, "unordered")
  for _, k in ipairs { "birthRate", "lifetime", "velocity", "scale", "spin" } do T.eq(e[k], 1, k) end
  T.eq(e.seed, 0); T.eq(e.preservesDepth, false)
  T.eq(#e.emitterCells, 0)
  T.eq(e:particleCount(), 0)
  local animatable = {}
  for _, p in ipairs(ca.properties("EmitterLayer")) do animatable[p.key] = p.animatable end
  for _, k in ipairs { "emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth",
                       "birthRate", "lifetime", "velocity", "scale", "spin" } do
    T.eq(animatable[k], true, k .. " animatable")
  end
  for _, k in ipairs { "emitterShape", "emitterMode", "renderMode", "seed", "preservesDepth" } do
    T.eq(animatable[k], false, k .. " not animatable")
  end
end)

T.test("CAEmitterCell defaults", function()
  local c = ca.EmitterCell()
  T.eq(c.className, "CAEmitterCell")
  T.eq(c.name, nil); T.eq(c.enabled, true); T.eq(c.contents, nil)
  T.eq(c.contentsRect, {0, 0, 1, 1}); T.eq(c.contentsScale, 1)
  T.eq(c.minificationFilter, "linear"); T.eq(c.magnificationFilter, "linear")
  T.eq(c.birthRate, 0); T.eq(c.scale, 1)
  for _, k in ipairs { "lifetime", "lifetimeRange", "velocity", "velocityRange", "xAcceleration",
                       "yAcceleration", "zAcceleration", "emissionLatitude", "emissionLongitude",
                       "emissionRange", "scaleRange", "scaleSpeed", "spin", "spinRange", "redRange",
                       "greenRange", "blueRange", "alphaRange", "redSpeed", "greenSpeed", "blueSpeed",
                       "alphaSpeed", "beginTime", "duration", "minificationFilterBias" } do
    T.eq(c[k], 0, k)
  end
  T.eq(c.color, {1, 1, 1, 1})
  T.eq(#c.emitterCells, 0)
  -- A cell with birthRate 0 emits nothing.
  local e = ca.EmitterLayer{ frame = {0, 0, 100, 100} }
  e.emitterCells = { c }
  ca.root:addSublayer(e)
  ca.advance(1)
  T.eq(e:particleCount(), 0)
end, S400)

---------------------------------------------------------------------------
-- T6.13: the fire.

T.test("T6.13 at t = 1 s: 150 particles, alpha 1 - 0.4·age, distance in [25a, 75a] (F71, F72)", function()
  local e = fire()
  for _ = 1, 60 do ca.step(1 / 60) end
  local ps = e:particles()
  T.truthy(math.abs(#ps - 150) <= 1, "count " .. #ps .. " is 150 ± 1")
  T.eq(e:particleCount(), #ps)
  local minAngle, maxAngle, left, right = math.huge, -math.huge, 0, 0
  for i, p in ipairs(ps) do
    T.near(p.alpha, 1 - 0.4 * p.age, 0.01, "alpha of particle " .. i)
    T.truthy(p.alpha >= 0.6 - 1e-9 and p.alpha <= 1, "alpha in [0.6, 1]")
    T.truthy(dist(p) <= 75 + 1e-9, "within 75 pt")
    T.truthy(p.age >= 0 and p.age <= 1 + 1e-9, "age in [0, 1]")
    T.near(p.color.r, 1, 1e-9); T.near(p.color.g, 0.5, 1e-9); T.near(p.color.b, 0.1, 1e-9)
    T.eq(p.cell, "fire"); T.eq(p.level, 0)
    if p.age > 0.1 then if p.x < 200 then left = left + 1 else right = right + 1 end end
  end
  checkDistances(ps, 25, 75)
  -- emissionRange 2π: every direction (F71) — both halves get particles.
  T.truthy(left > 40 and right > 40, ("both sides emit (%d left, %d right)"):format(left, right))
end, S400)

T.test("T6.13 at t = 10 s: 750 particles, no lit pixel beyond 75·2.5 + 6 pt", function()
  local e = fire()
  ca.advance(10)
  local n = e:particleCount()
  T.truthy(math.abs(n - 750) <= 2, "count " .. n .. " is 750 ± 2")
  local visible = 0
  for _, p in ipairs(e:particles()) do if p.alpha > 0 then visible = visible + 1 end end
  T.truthy(math.abs(visible - 375) <= 2, "visible " .. visible .. " is 375 ± 2 (alpha reaches 0 at 2.5 s)")
  local img = ca.render()
  T.eq(ca.stats().particlesDrawn, visible, "stats.particlesDrawn")
  local far, lit = 0, 0
  for y = 0, 399 do
    for x = 0, 399 do
      local r, g, b = img:pixel(x, y)
      if r + g + b > 0 then
        lit = lit + 1
        local d = math.sqrt((x + 0.5 - 200) ^ 2 + (y + 0.5 - 200) ^ 2)
        if d > far then far = d end
      end
    end
  end
  T.truthy(lit > 1000, "the fire is drawn (" .. lit .. " lit pixels)")
  T.truthy(far <= 193.5, ("farthest lit pixel %.2f pt from the centre (≤ 193.5)"):format(far))
end, S400)

T.test("T6.13 additive vs unordered at t = 0.5 s (F75)", function()
  local function maxG(img, x0, y0, x1, y1)
    local best, atR = 0, 0
    for y = y0, y1 do
      for x = x0, x1 do
        local r, g = img:pixel(x, y)
        if g > best then best, atR = g, r end
      end
    end
    return best, atR
  end
  fire{ renderMode = "unordered" }
  ca.advance(0.5)
  local g = maxG(ca.render(), 0, 0, 399, 399)
  T.truthy(g <= 128, "unordered: max G " .. g .. " ≤ 128 (source-over never exceeds the sprite colour)")
  T.truthy(g >= 120, "unordered: the sprites are drawn (max G " .. g .. ")")
  ca.reset{ size = {400, 400} }
  fire{ renderMode = "additive" }
  ca.advance(0.5)
  local ga, ra = maxG(ca.render(), 190, 190, 210, 210)
  T.truthy(ga > 128, "additive: G " .. ga .. " > 128 near the centre")
  T.eq(ra, 255, "additive: R saturates at that pixel")
end, S400)

T.test("golden: the 6.13 fire at t = 1 s (fig. 6.13)", function()
  fire()
  ca.advance(1)
  T.golden(ca.render(), "ch06/emitter_fire_1s")
end, S400)

---------------------------------------------------------------------------
-- The layer's multipliers (F73) and timing.

T.test("multipliers: birthRate 2 doubles the count, velocity 2 the distances, lifetime, scale, spin", function()
  local e = fire()
  e.birthRate = 2
  ca.advance(1)
  local n = e:particleCount()
  T.truthy(math.abs(n - 300) <= 1, "birthRate 2: count " .. n .. " is 300 ± 1")
  ca.reset{ size = {400, 400} }
  e = fire()
  e.velocity = 2
  ca.advance(1)
  local ps = e:particles()
  checkDistances(ps, 50, 150)
  local beyond = 0
  for _, p in ipairs(ps) do if dist(p) > 75 * p.age + 1e-6 then beyond = beyond + 1 end end
  T.truthy(beyond > 30, "velocity 2: particles beyond the old 75a bound (" .. beyond .. ")")
  ca.reset{ size = {400, 400} }
  local c
  e, c = fire()
  e.lifetime = 0.5; e.scale = 2; e.spin = 3
  c.spin = 1
  ca.advance(10)
  n = e:particleCount()
  T.truthy(math.abs(n - 375) <= 2, "lifetime 0.5 × 5 s: count " .. n .. " is 375 ± 2")
  for _, p in ipairs(e:particles()) do
    T.near(p.lifetime, 2.5, 1e-9); T.near(p.scale, 2, 1e-9); T.near(p.angle, 3 * p.age, 1e-9)
  end
end, S400)

T.test("the emitter runs on its layer's time: speed 2 doubles, beginTime delays", function()
  local e = fire()
  e.speed = 2
  ca.advance(1)
  T.truthy(math.abs(e:particleCount() - 300) <= 1, "speed 2: 300 ± 1 at 1 s")
  ca.reset{ size = {400, 400} }
  e = fire()
  e.beginTime = 0.5
  ca.advance(1)
  T.truthy(math.abs(e:particleCount() - 75) <= 1, "beginTime 0.5: 75 ± 1 at 1 s")
end, S400)

T.test("cell beginTime and duration bound its emission", function()
  local e, c = fire()
  c.beginTime = 0.2; c.duration = 0.5
  ca.advance(2)
  T.truthy(math.abs(e:particleCount() - 75) <= 1, "0.5 s of emission: 75 ± 1")
  for _, p in ipairs(e:particles()) do T.truthy(p.birthTime >= 0.2 and p.birthTime <= 0.7 + 1e-9, "born in [0.2, 0.7]") end
end, S400)

---------------------------------------------------------------------------
-- Determinism and seeking.

T.test("same seed: byte-identical frames; any stepping to t gives the same frame; another seed differs", function()
  local function frameAt(steps, seed)
    ca.reset{ size = {400, 400} }
    fire{ seed = seed }
    if steps == 0 then ca.advance(1.5) else for _ = 1, steps do ca.step(1.5 / steps) end end
    return ca.render()
  end
  local big = frameAt(0, 7)
  T.truthy(identical(big, frameAt(0, 7)), "same seed, same frame")
  T.truthy(identical(big, frameAt(90, 7)), "90 steps of 1/60 s = one step")
  T.truthy(identical(big, frameAt(45, 7)), "45 steps of 1/30 s = one step")
  T.falsy(identical(big, frameAt(0, 8)), "seed 8 gives another frame")
end, S400)

T.test("a change applies to particles born after it; particles already born keep their values", function()
  local e, c = fire()
  ca.advance(1)
  local before = e:particles()
  c.velocity = 0; c.velocityRange = 0
  ca.Transaction.setDisableActions(true)   -- no implicit animation of emitterPosition
  e.emitterPosition = {100, 100}
  ca.advance(1.5)
  local moved, atNew, old = 0, 0, 0
  for _, p in ipairs(e:particles()) do
    if p.birthTime <= 1 then
      old = old + 1
      checkDistances({ p }, 25, 75)
    else
      T.near(p.x, 100, 1e-9); T.near(p.y, 100, 1e-9)
      atNew = atNew + 1
    end
  end
  T.eq(old, #before, "the first second's particles are all alive")
  T.truthy(math.abs(atNew - 75) <= 1, "75 ± 1 new particles at the new position")
  c.birthRate = 0
  local n = e:particleCount()
  ca.advance(2)
  T.eq(e:particleCount(), n, "birthRate 0: no more births, the live ones stay")
  c.enabled = false
  ca.advance(2.5)
  T.eq(e:particleCount(), n, "disabled: still no births")
end, S400)

T.test("an animated emitterPosition: particles are born along the animation's path", function()
  local e = ca.EmitterLayer{ frame = {0, 0, 400, 400}, emitterPosition = {100, 200} }
  e.emitterCells = { ca.EmitterCell{ birthRate = 60, lifetime = 10 } }
  ca.root:addSublayer(e)
  e:addAnimation(ca.BasicAnimation{ keyPath = "emitterPosition", fromValue = {100, 200}, toValue = {300, 200},
                                    duration = 1 }, "move")
  for _ = 1, 60 do ca.step(1 / 60) end
  local ps = e:particles()
  T.truthy(math.abs(#ps - 60) <= 1, "60 ± 1 particles")
  local xmin, xmax = math.huge, -math.huge
  for _, p in ipairs(ps) do
    T.eq(p.y, 200)
    T.truthy(p.x >= 100 - 1e-9 and p.x <= 300 + 1e-9, "born on the path")
    -- Each particle stays where the emitter was when it was born (within one frame's move).
    T.truthy(math.abs(p.x - (100 + 200 * p.birthTime)) <= 200 / 60 + 1e-9, "born where the emitter was")
    xmin, xmax = math.min(xmin, p.x), math.max(xmax, p.x)
  end
  T.truthy(xmin < 110 and xmax > 290, ("spread along the path (%.1f … %.1f)"):format(xmin, xmax))
end, S400)

---------------------------------------------------------------------------
-- Emitter shapes and modes: particles are born inside their shape.

T.test("emitter shapes place particles on and inside their shape", function()
  local function born(shape, mode, size, depth)
    ca.reset{ size = {400, 400} }
    local e = ca.EmitterLayer{ frame = {0, 0, 400, 400}, emitterPosition = {200, 200}, emitterShape = shape,
                               emitterMode = mode, emitterSize = size, emitterDepth = depth or 0, seed = 3 }
    e.emitterCells = { ca.EmitterCell{ birthRate = 200, lifetime = 10 } }
    ca.root:addSublayer(e)
    ca.advance(1)
    local ps = e:particles()
    T.truthy(#ps >= 199, shape .. "/" .. mode .. ": 200 particles")
    return ps
  end
  local eps = 1e-9
  for _, p in ipairs(born("point", "volume", {50, 50})) do T.eq({p.x, p.y, p.z}, {200, 200, 0}) end
  local ends = 0
  for _, p in ipairs(born("line", "points", {100, 0})) do
    T.eq(p.y, 200); T.truthy(p.x == 150 or p.x == 250, "line points: an end"); ends = ends + 1
  end
  local xmin, xmax = 400, 0
  for _, p in ipairs(born("line", "volume", {100, 0})) do
    T.eq(p.y, 200); T.truthy(p.x >= 150 and p.x <= 250); xmin = math.min(xmin, p.x); xmax = math.max(xmax, p.x)
  end
  T.truthy(xmin < 160 and xmax > 240, "the line is covered")
  for _, p in ipairs(born("rectangle", "surface", {100, 60})) do
    T.truthy(p.x >= 150 and p.x <= 250 and p.y >= 170 and p.y <= 230, "inside the rectangle")
  end
  for _, p in ipairs(born("rectangle", "outline", {100, 60})) do
    local onX = math.abs(p.x - 150) < eps or math.abs(p.x - 250) < eps
    local onY = math.abs(p.y - 170) < eps or math.abs(p.y - 230) < eps
    T.truthy((onX and p.y >= 170 - eps and p.y <= 230 + eps) or (onY and p.x >= 150 - eps and p.x <= 250 + eps), "on the outline")
  end
  for _, p in ipairs(born("rectangle", "points", {100, 60})) do
    T.truthy((p.x == 150 or p.x == 250) and (p.y == 170 or p.y == 230), "a corner")
  end
  for _, p in ipairs(born("circle", "outline", {100, 0})) do T.near(dist(p), 50, 1e-9, "on the circle (radius = width/2)") end
  local inner = 0
  for _, p in ipairs(born("circle", "surface", {100, 0})) do
    T.truthy(dist(p) <= 50 + eps); if dist(p) < 35 then inner = inner + 1 end
  end
  T.truthy(inner > 60, "the disc is filled (" .. inner .. " within 35 pt)")
  for _, p in ipairs(born("cuboid", "volume", {100, 60}, 40)) do
    T.truthy(math.abs(p.x - 200) <= 50 and math.abs(p.y - 200) <= 30 and math.abs(p.z) <= 20, "inside the cuboid")
  end
  for _, p in ipairs(born("sphere", "surface", {100, 0})) do
    T.near(math.sqrt((p.x - 200) ^ 2 + (p.y - 200) ^ 2 + p.z ^ 2), 50, 1e-9, "on the sphere")
  end
  for _, p in ipairs(born("sphere", "volume", {100, 0})) do
    T.truthy(math.sqrt((p.x - 200) ^ 2 + (p.y - 200) ^ 2 + p.z ^ 2) <= 50 + eps, "inside the ball")
  end
end, S400)

---------------------------------------------------------------------------
-- Nested cells: each particle emits the sub-cells from where it is.

T.test("nested cells: every particle emits its sub-cells, which outlive it", function()
  local e = ca.EmitterLayer{ frame = {0, 0, 400, 400}, emitterPosition = {200, 200} }
  local spark = ca.EmitterCell{ name = "spark", birthRate = 10, lifetime = 10, velocity = 20, emissionRange = 2 * pi }
  local rocket = ca.EmitterCell{ name = "rocket", birthRate = 2, lifetime = 0.35, velocity = 100,
                                 emissionLongitude = -pi / 2, emitterCells = { spark } }
  T.same(rocket.emitterCells[1], spark)
  e.emitterCells = { rocket }
  ca.root:addSublayer(e)
  ca.advance(1.25)
  -- Rockets born at 0.5 (dead at 0.85) and 1.0 (age 0.25); each emits 10 sparks/s while alive.
  local levels, names = { [0] = 0, [1] = 0 }, {}
  for _, p in ipairs(e:particles()) do
    levels[p.level] = levels[p.level] + 1
    names[p.cell] = (names[p.cell] or 0) + 1
    if p.level == 1 then
      -- A spark starts on its rocket's path (straight up from the emitter) and moves 20 pt/s.
      local born = p.birthTime - (p.birthTime >= 1 and 1 or 0.5)
      local ox, oy = 200, 200 - 100 * born
      T.near(math.sqrt((p.x - ox) ^ 2 + (p.y - oy) ^ 2), 20 * p.age, 1e-6, "spark distance from its birth point")
    end
  end
  T.eq(levels[0], 1, "one rocket alive")
  T.eq(levels[1], 5, "3 sparks of the dead rocket + 2 of the live one")
  T.eq(names.rocket, 1); T.eq(names.spark, 5)
end, S400)

---------------------------------------------------------------------------
-- Render modes and drawing.

T.test("render order: oldestFirst draws the newest on top, oldestLast the oldest; backToFront sorts by z", function()
  local function centre(mode)
    ca.reset{ size = {100, 100} }
    local e = ca.EmitterLayer{ frame = {0, 0, 100, 100}, emitterPosition = {50, 50}, renderMode = mode }
    -- Blue when born, turning red over one second; all at the same spot.
    e.emitterCells = { ca.EmitterCell{ contents = sprite(), birthRate = 10, lifetime = 1, color = {0, 0, 1, 1},
                                       redSpeed = 1, blueSpeed = -1 } }
    ca.root:addSublayer(e)
    ca.advance(0.95)
    return T.px(ca.render(), 50, 50)
  end
  local r1, _, b1 = centre("oldestFirst")
  T.truthy(b1 > 200 and r1 < 50, "oldestFirst: the youngest (blue) on top")
  local r2, _, b2 = centre("oldestLast")
  T.truthy(r2 > 200 and b2 < 50, "oldestLast: the oldest (red) on top")
  ca.reset{ size = {100, 100} }
  local e = ca.EmitterLayer{ frame = {0, 0, 100, 100}, emitterShape = "cuboid", emitterSize = {50, 50},
                             emitterDepth = 100, renderMode = "backToFront" }
  e.emitterCells = { ca.EmitterCell{ birthRate = 50, lifetime = 5 } }
  ca.root:addSublayer(e)
  ca.advance(1)
  local ps, last = e:particles(), -math.huge
  T.truthy(#ps >= 49)
  for _, p in ipairs(ps) do T.truthy(p.z >= last, "z ascending"); last = p.z end
end)

T.test("particles draw above the background, below sublayers; a cell without contents draws nothing", function()
  ca.root.backgroundColor = "#000000"
  local e = ca.EmitterLayer{ frame = {0, 0, 100, 100}, emitterPosition = {50, 50}, backgroundColor = "#0000ff" }
  local cell = ca.EmitterCell{ birthRate = 10, lifetime = 10 }
  e.emitterCells = { cell }
  ca.root:addSublayer(e)
  ca.advance(1)
  T.eq(e:particleCount(), 10)
  local img = ca.render()
  T.pixel(img, 50, 50, "#0000ff", 0, "no contents: nothing drawn, the background shows")
  T.eq(ca.stats().particlesDrawn, 0)
  cell.contents = sprite()
  cell.color = {0, 1, 0, 1}
  e:addSublayer(ca.Layer{ frame = {50, 0, 50, 100}, backgroundColor = "#ff0000" })
  ca.advance(1.5)
  img = ca.render()
  T.pixel(img, 48, 50, "#00ff00", 0, "the sprite, tinted green, over the background")
  T.pixel(img, 52, 50, "#ff0000", 0, "the sublayer over the particles")
  T.pixel(img, 10, 10, "#0000ff", 0)
  -- A particle keeps the cell values it was born with: the 10 born before contents was set
  -- still draw nothing; the 5 born since draw.
  T.eq(e:particleCount(), 15)
  T.eq(ca.stats().particlesDrawn, 5)
end)

---------------------------------------------------------------------------
-- Hostile input: clear errors, no crash, no hang.

T.test("hostile input", function()
  local e = ca.EmitterLayer{ frame = {0, 0, 100, 100} }
  local c = ca.EmitterCell()
  T.raises(function() e.birthRate = 0 / 0 end, "finite")
  T.raises(function() e.birthRate = -1 end, "must not be negative")
  T.raises(function() e.lifetime = -1 end, "must not be negative")
  T.raises(function() e.emitterSize = {-1, 5} end, "must not be negative")
  T.raises(function() e.emitterPosition = {1e9, 0} end, "beyond the supported range")
  -- Range errors name the right unit (the layer's rates multiply the cells').
  T.raises(function() e.birthRate = 1e30 end, "±100000000 times the cells' values")
  T.raises(function() e.emitterDepth = 1e30 end, "±100000000 points")
  T.raises(function() c.velocity = 1e30 end, "±100000000 points per second")
  T.raises(function() c.lifetime = 1e30 end, "±100000000 seconds")
  T.raises(function() c.spin = 1e30 end, "±100000000 radians per second")
  T.raises(function() e.seed = -1 end, "whole number in 0…4294967295")
  T.raises(function() e.seed = 1.5 end, "whole number")
  T.raises(function() e.emitterShape = "blob" end, '"point", "line", "rectangle", "circle", "cuboid", "sphere"')
  T.raises(function() e.renderMode = "add" end, "must be one of")
  T.raises(function() e.preservesDepth = true end, "not supported")
  T.raises(function() e.emitterCells = { 1 } end, "Layer.emitterCells[1] expects an EmitterCell, got number 1")
  T.raises(function() e.emitterCells = 5 end, "expects an array of EmitterCells")
  T.raises(function() ca.Layer().emitterCells = { c } end, "no property 'emitterCells'")
  T.raises(function() ca.Layer():particles() end, "not an emitter layer")
  T.raises(function() ca.Layer().birthRate = 1 end, "it belongs to CAEmitterLayer")
  T.raises(function() c.birthRate = 0 / 0 end, "finite")
  T.raises(function() c.birthRate = -5 end, "must not be negative")
  T.raises(function() c.birthRate = 2e9 end, "more than 1000000000 particles per second")
  T.raises(function() c.emissionRange = -1 end, "must not be negative")
  T.raises(function() c.velocity = "fast" end, "expects a number")
  T.raises(function() c.color = "nocolour" end, "unknown colour")
  T.raises(function() c.contentsScale = 0 end, "(0, 64]")
  T.raises(function() c.bogus = 1 end, "EmitterCell has no property 'bogus'")
  T.raises(function() return c.bogus end, "EmitterCell has no property 'bogus'")
  T.raises(function() c.speed = 2 end, "not supported")
  T.raises(function() c.emitterCells = { c } end, "cannot contain itself")
  local inner = ca.EmitterCell()
  c.emitterCells = { inner }
  T.raises(function() inner.emitterCells = { c } end, "cannot contain itself")
  local deep = ca.EmitterCell()
  for _ = 1, 7 do deep = ca.EmitterCell{ emitterCells = { deep } } end
  T.raises(function() ca.EmitterCell{ emitterCells = { deep } } end, "nesting deeper than 8")
  T.raises(function() ca.EmitterCell{ birthRate = "x" } end, "expects a number")
  T.raises(function() ca.EmitterCell(5) end, "expects a table")
  -- A huge birth rate is capped: no hang, at most 10000 live particles.
  c.emitterCells = {}
  c.birthRate = 1e9; c.lifetime = 5; c.contents = sprite()
  e.emitterCells = { c }
  ca.root:addSublayer(e)
  ca.advance(3)
  T.eq(e:particleCount(), 10000)
  ca.render()
  T.eq(ca.stats().particlesDrawn, 10000)
  -- The engine stays usable and the cells read back.
  T.same(e.emitterCells[1], c)
  -- Removing the cells stops the births; the live particles finish their lives.
  e.emitterCells = nil
  T.eq(#e.emitterCells, 0)
  ca.advance(3.5)
  T.eq(e:particleCount(), 10000)
  ca.advance(8.5)
  T.eq(e:particleCount(), 0, "all dead 5 s after the last birth")
end)

T.test("one render draws at most 100000 particles over all its emitter layers and replicated copies", function()
  -- Twelve emitters of 10000 live particles each (the most one layer draws): the first ten
  -- spend the render's budget, the last two draw none, in tree order. Each layer's own count
  -- is not the render's business.
  ca.root.backgroundColor = "#000000"
  local layers = {}
  for i = 1, 12 do
    local x = i <= 10 and 0 or 100
    local e = ca.EmitterLayer{ frame = {x, 0, 50, 50}, emitterPosition = {25, 25} }
    e.emitterCells = { ca.EmitterCell{ birthRate = 1e9, lifetime = 5, contents = sprite(), color = {0, 1, 0, 1} } }
    ca.root:addSublayer(e)
    layers[i] = e
  end
  ca.advance(3)
  local img = ca.render()
  T.eq(ca.stats().particlesDrawn, 100000)
  T.pixel(img, 25, 25, "#00ff00", 0, "the first ten emitters draw")
  T.pixel(img, 125, 25, "#000000", 0, "the budget is spent: the last two draw nothing")
  T.eq(layers[12]:particleCount(), 10000)
  T.eq(ca.render():pixel(125, 25), 0, "the same render again gives the same picture")
  -- Drop the first five: the last two draw again (the budget is per render, in tree order).
  for i = 1, 5 do layers[i]:removeFromSuperlayer() end
  img = ca.render()
  T.eq(ca.stats().particlesDrawn, 70000)
  T.pixel(img, 125, 25, "#00ff00", 0)
  -- A replicator's copies count: 20 copies of one emitter draw 10 copies' worth.
  for i = 6, 12 do layers[i]:removeFromSuperlayer() end
  local r = ca.ReplicatorLayer{ frame = {0, 0, 50, 50}, instanceCount = 20 }
  r:addSublayer(layers[1])
  ca.root:addSublayer(r)
  ca.render()
  T.eq(ca.stats().particlesDrawn, 100000)
end)
