-- The physics caps (caluna issue #20; docs/physics.md "Caps"): Chipmunk allocates a record
-- for every pair of shapes whose bounding boxes overlap, inside cpSpaceAddShape and
-- cpSpaceStep, and crashes when memory runs out. A world refuses what would pass one of its
-- caps before Chipmunk allocates: bodies, shapes and constraints when added, pairs of shapes
-- that may touch when shapes join (an addition, a static body moved, a type change), before
-- each step and after a positionUpdate. maxStepsPerFrame bounds one frame's catch-up.
-- Each refusal is an exact error, and the world keeps working afterwards.
local ca = require "caluna"
local T = require "caluna.test"
local P = ca.physics

local STEP = 1 / 120

--- A dynamic circle of radius r at p, in no world.
local function ball(p, r)
  local b = P.Body{ mass = 1, position = p }
  b:addCircle{ radius = r or 5 }
  return b
end

--- n balls of radius 5 added to w, 30 apart on a row from (0, 0).
local function row(w, n)
  local list = {}
  for i = 1, n do list[i] = w:add(ball({ (i - 1) * 30, 0 })) end
  return list
end

T.test("defaults: 20000 bodies, 40000 shapes, 40000 constraints, 100000 contact pairs, 16 steps a frame", function()
  local w = P.World{}
  T.eq({ w.maxBodies, w.maxShapes, w.maxConstraints, w.maxContactPairs, w.maxStepsPerFrame },
       { 20000, 40000, 40000, 100000, 16 })
  local tuned = P.World{ maxBodies = 1, maxShapes = 2, maxConstraints = 3, maxContactPairs = 4, maxStepsPerFrame = 0 }
  T.eq({ tuned.maxBodies, tuned.maxShapes, tuned.maxConstraints, tuned.maxContactPairs, tuned.maxStepsPerFrame },
       { 1, 2, 3, 4, 0 })
  for _, key in ipairs{ "maxBodies", "maxShapes", "maxConstraints", "maxContactPairs", "maxStepsPerFrame" } do
    T.raises(function() w[key] = -1 end, "World." .. key .. ": " .. key .. " must be from 0")
    T.raises(function() w[key] = 1e9 + 1 end, "must be a whole number")
    T.raises(function() w[key] = 2.5 end, "must be a whole number")
    w[key] = 1e9
    T.eq(w[key], 1e9)
  end
end)

T.test("maxBodies: the body past the cap is refused and stays out; removing one makes room", function()
  local w = P.World{ maxBodies = 3 }
  local bodies = row(w, 3)
  local extra = ball({ 500, 0 })
  T.raises(function() w:add(extra) end,
           "World:add: the physics world holds 3 bodies, its maxBodies; body #")
  T.eq(#w:bodies(), 3)
  T.eq(extra.world, nil)
  T.raises(function() w:addBody{ mass = 1 } end, "World:addBody: the physics world holds 3 bodies, its maxBodies")
  w:remove(bodies[1])
  w:add(extra)
  T.eq(#w:bodies(), 3)
  ca.step(1 / 60)
  T.eq(w.steps, 2, "the world steps")
end)

T.test("maxShapes counts every shape of the world, the static body's too, and a body's shapes added with it", function()
  local w = P.World{ maxShapes = 4 }
  w.staticBody:addSegment{ a = { -100, -10 }, b = { 100, -10 } }
  local b = w:addBody{ mass = 1 }
  b:addCircle{ radius = 1 }
  b:addCircle{ radius = 1, offset = { 10, 0 } }
  T.eq(#b.shapes, 2)
  local two = P.Body{ mass = 1, position = { 50, 50 } }
  two:addCircle{ radius = 1 }
  two:addCircle{ radius = 1, offset = { 5, 0 } }
  T.raises(function() w:add(two) end,
           "World:add: the physics world holds 3 shapes and its maxShapes is 4: 2 more shapes were not added")
  T.eq(two.world, nil)
  b:addCircle{ radius = 1, offset = { 20, 0 } }
  T.raises(function() b:addCircle{ radius = 1, offset = { 30, 0 } } end,
           "Body:addCircle: the physics world holds 4 shapes and its maxShapes is 4: the shape was not added")
  T.raises(function() w.staticBody:addSegment{ a = { 0, 0 }, b = { 1, 0 } } end, "its maxShapes is 4")
  T.eq(#b.shapes, 3, "the refused shape is not on the body")
  b:removeShape(b.shapes[1])
  b:addBox{ width = 2, height = 2, center = { 40, 0 } }
  T.eq(#b.shapes, 3)
  w:remove(b)
  T.eq(#b.shapes, 3, "a body keeps its shapes outside the world")
  w:add(two)
  ca.step(1 / 60)
  T.eq(w.steps, 2)
end)

T.test("maxConstraints: the constraint past the cap is refused; removing a body frees its constraints' places", function()
  local w = P.World{ maxConstraints = 2 }
  local a, b, c = table.unpack(row(w, 3))
  w:add(P.PivotJoint{ a = a, b = b, pivot = { 15, 0 } })
  w:add(P.PivotJoint{ a = b, b = c, pivot = { 45, 0 } })
  local third = P.SimpleMotor{ a = a, b = c, rate = 1 }
  T.raises(function() w:add(third) end,
           "World:add: the physics world holds 2 constraints, its maxConstraints; the constraint was not added")
  T.eq(#w:constraints(), 2)
  T.eq(third.world, nil)
  w:remove(a)
  w:add(P.PivotJoint{ a = b, b = c, pivot = { 30, 0 } })
  T.eq(#w:constraints(), 2)
end)

T.test("maxContactPairs: coincident shapes are refused when they join (n(n − 1)/2 pairs), not when they are few", function()
  local w = P.World{ maxContactPairs = 30 }
  local pile = {}
  for i = 1, 8 do pile[i] = w:add(ball({ 0, 0 })) end   -- 28 pairs: below the cap, nothing is counted
  local ninth = ball({ 0, 0 })
  T.raises(function() w:add(ninth) end, "World:add: the shapes were not added: Chipmunk would make 8 more pairs "
           .. "of shapes whose bounding boxes overlap, passing the world's maxContactPairs (30; shapes piled in one place?)")
  T.eq(#w:bodies(), 8)
  T.eq(ninth.world, nil)
  local onBody = w:addBody{ mass = 1, position = { 0, 0 } }
  T.raises(function() onBody:addCircle{ radius = 5 } end, "Body:addCircle: the shape was not added: Chipmunk would make 8 more pairs")
  T.eq(#onBody.shapes, 0, "the refused shape is not on the body")
  -- Away from the pile a shape fits: its box meets none of theirs.
  onBody.position = { 500, 0 }
  onBody:addCircle{ radius = 5 }
  -- Spread out, the pile makes room again (the count is taken afresh once over the cap).
  for i, b in ipairs(pile) do b.position = { i * 30, 100 } end
  w:add(ninth)
  T.eq(#w:bodies(), 10)
  ca.step(1 / 60)
  T.eq(w.steps, 2, "the world steps")
end)

T.test("maxContactPairs: a step that could pair too many shapes is not run, and runs once they part", function()
  local w = P.World{ maxContactPairs = 30 }
  local bodies = row(w, 20)   -- 20 balls 30 apart: no pair
  ca.step(1 / 60)
  T.eq(w.steps, 2)
  local before = {}
  for i, b in ipairs(bodies) do before[i] = b.position; b.position = { 0, 0 } end
  T.raises(function() w:step() end, "World:step: the physics world was not stepped: more than 30 pairs of shapes "
           .. "could touch in the next step (its maxContactPairs; shapes piled in one place, or moving fast?)")
  T.eq(w.steps, 2, "no step ran")
  T.raises(function() ca.step(1 / 60) end, "the physics world was not stepped: more than 30 pairs")
  T.eq(w.steps, 2, "the clock's steps are refused too")
  T.eq(w.droppedSteps, 0, "their time stays owed")
  for i, b in ipairs(bodies) do b.position = before[i] end
  ca.step(1 / 60)
  T.eq(w.steps, 6, "the owed steps and this frame's: 4")
  T.eq(w.time, ca.mediaTime())
end)

T.test("maxContactPairs: shapes about to meet at speed count before the step (their boxes grow by the motion)", function()
  local w = P.World{ maxContactPairs = 30 }
  local bodies = {}
  for i = 1, 20 do
    local a = 2 * math.pi * i / 20
    bodies[i] = w:add(ball({ 100 * math.cos(a), 100 * math.sin(a) }))
  end
  ca.step(1 / 60)
  T.eq(w.steps, 2, "a ring of 20 balls 31 apart: no pair")
  -- At 12000 units/s each ball reaches the centre in the next 1/120 s step.
  for i, b in ipairs(bodies) do
    local a = 2 * math.pi * i / 20
    b.velocity = { -12000 * math.cos(a), -12000 * math.sin(a) }
  end
  T.raises(function() ca.step(1 / 60) end, "the physics world was not stepped: more than 30 pairs")
  T.eq(w.steps, 2)
end)

T.test("maxContactPairs: a positionUpdate that moves its body into a pile is undone and reported after the step", function()
  local w = P.World{ maxContactPairs = 30 }
  local bodies = row(w, 20)
  for _, b in ipairs(bodies) do b.positionUpdate = function(body) body.position = { 0, 0 } end end
  local ninth = tostring(bodies[9]):match("#%d+")
  T.raises(function() w:step(STEP) end, "World:step: body " .. ninth .. " (dynamic)'s positionUpdate moved it among "
           .. "too many shapes (more than the world's maxContactPairs, 30, pairs could touch): the move was undone")
  -- Ball k's move adds the k − 1 balls already at (0, 0): 28 pairs with 8 there; the 9th would
  -- make 36, so its move and the later ones are undone (Chipmunk's own update keeps them home).
  for i = 9, 20 do T.eq(bodies[i].position, { (i - 1) * 30, 0 }, "ball " .. i .. " stays") end
  for i = 2, 8 do T.truthy(math.abs(bodies[i].position.x) < 10, "ball " .. i .. " moved to the pile") end
  T.raises(function() w:step(STEP) end, "'s positionUpdate moved it among too many shapes", "and again")
  for _, b in ipairs(bodies) do b.positionUpdate = nil end
  for i, b in ipairs(bodies) do b.position = { (i - 1) * 30, 0 }; b.velocity = { 0, 0 } end
  w:step(STEP)
  T.eq(w.steps, 3, "two steps with errors, then a clean one")
end)

T.test("maxContactPairs: a static body moved onto a pile, or a body turned static in one, is refused and stays", function()
  local w = P.World{ maxContactPairs = 30 }
  for i = 1, 7 do w:add(ball({ 0, 0 })) end      -- 21 pairs
  local wall = w:addBody{ type = "static", position = { 500, 0 } }
  for i = 1, 2 do wall:addCircle{ radius = 5 } end   -- 1 pair of its own, none with the pile
  T.raises(function() wall.position = { 0, 0 } end, "Body.position: the static body was not moved: Chipmunk would make 14 more pairs")
  T.eq(wall.position, { 500, 0 })
  T.eq(wall.shapes[1].boundingBox, { 495, -5, 10, 10 }, "its shapes are where the body is")
  wall.position = { 250, 0 }
  T.eq(wall.position, { 250, 0 })
  local crate = w:addBody{ mass = 1, position = { 0, 0 } }   -- no shape yet
  crate.type = "static"
  crate:addBox{ width = 10, height = 10 }                      -- 7 pairs with the pile: 28
  T.raises(function() crate:addBox{ width = 10, height = 10 } end, "the shape was not added")
  local spare = w:addBody{ type = "static", position = { 0, 0 } }
  T.raises(function() spare:addCircle{ radius = 5 } end, "Body:addCircle: the shape was not added")
  ca.step(1 / 60)
  T.eq(w.steps, 2)
end)

T.test("maxStepsPerFrame 0 (no cap) catches up every step; a paused world drops nothing", function()
  local w = P.World{ maxStepsPerFrame = 0 }
  ca.step(2.0)
  T.eq({ w.steps, w.droppedSteps }, { 240, 0 })
  w.maxStepsPerFrame = 3
  ca.step(0.1)
  T.eq({ w.steps, w.droppedSteps }, { 243, 9 })
  w.paused = true
  ca.step(10)
  T.eq({ w.steps, w.droppedSteps }, { 243, 9 }, "paused: nothing taken, nothing dropped")
end)
