local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
local ca = require 'caluna'
local T = FUZZ_T
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

