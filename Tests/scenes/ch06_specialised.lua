-- What all of chapter 6's specialised layers share: creation by class name (T6.4), one
-- property table per class (a key of another class is an error naming its owner), the
-- generic paths (key paths, ca.properties, dump), group opacity over a kind's own content,
-- and transitions over them. Each class's listings are in ch06_<kind>_layer.lua.
local ca = require "caluna"
local T = require "caluna.test"

local classes = { "ShapeLayer", "TextLayer", "GradientLayer", "ReplicatorLayer", "ScrollLayer",
                  "TiledLayer", "EmitterLayer", "PixelBufferLayer" }

T.test("every class: made from Lua, named like Core Animation, CALayer's properties plus its own", function()
  local base = #ca.properties()
  for _, name in ipairs(classes) do
    local l = ca[name]{ frame = {0, 0, 10, 10} }
    local expected = name == "PixelBufferLayer" and name or "CA" .. name
    T.eq(l.className, expected)
    local own = ca.properties(name)
    T.truthy(#own > base or name == "ScrollLayer" and #own >= base, name .. " adds its own keys")
    for i = 1, base do T.eq(own[i].key, ca.properties()[i].key, "CALayer's keys first") end
    T.eq(ca.properties(expected)[#own].key, own[#own].key, "the class name works as well")
  end
  T.raises(function() ca.properties("CANoSuchLayer") end, "unknown layer class")
end)

T.test("a key of another class is an error naming the class it belongs to", function()
  local plain = ca.Layer()
  T.raises(function() plain.lineWidth = 2 end, "CALayer has no property 'lineWidth' (it belongs to CAShapeLayer)")
  T.raises(function() return plain.colors end, "belongs to CAGradientLayer")
  local shape = ca.ShapeLayer()
  T.raises(function() shape.fontSize = 12 end, "CAShapeLayer has no property 'fontSize' (it belongs to CATextLayer)")
  T.raises(function() shape:setValueForKeyPath(3, "instanceCount") end, "belongs to CAReplicatorLayer")
  T.raises(function() shape.noSuchKey = 1 end, "has no property 'noSuchKey'")
end)

T.test("specialised properties through key paths, animations and array values", function()
  local g = ca.GradientLayer{ frame = {0, 0, 10, 10} }
  g:setValueForKeyPath({ "red", "blue" }, "colors")
  local c = g:valueForKeyPath("colors")
  T.eq(#c, 2)
  T.near(c[2], {0, 0, 1, 1}, 0)
  T.raises(function() g.colors = { "red", 3 } end, "colors[2]")
  T.raises(function() g.locations = { 0, "x" } end, "locations[2]")
  local s = ca.ShapeLayer{ frame = {0, 0, 10, 10}, lineWidth = 2 }
  T.eq(s:valueForKeyPath("lineWidth"), 2)
  T.raises(function() ca.BasicAnimation{ keyPath = "lineWidth", fromValue = "thick" } end, "expects a number")
  local a = ca.BasicAnimation{ keyPath = "colors", fromValue = { "red", "red" }, toValue = { "blue", "blue" } }
  T.eq(#a.fromValue, 2, "an array key path converts its values")
end)

T.test("group opacity covers a kind's own content: a shape's stroke does not show its fill through", function()
  ca.root.backgroundColor = "white"
  local path = ca.Path():addRect(20, 20, 60, 60)
  ca.root:addSublayer(ca.ShapeLayer{ path = path, fillColor = "blue", strokeColor = "red", lineWidth = 10,
                                     opacity = 0.5 })
  local img = ca.render()
  T.pixel(img, 23, 50, {1, 0.5, 0.5, 1}, 2, "the stroke over the fill, faded as one: red at half over white")
  T.pixel(img, 50, 50, {0.5, 0.5, 1, 1}, 2, "the fill alone at half")
end, { size = {100, 100} })

T.test("a push transition over a gradient layer's colours", function()
  local g = ca.GradientLayer{ frame = {0, 0, 100, 100}, colors = { "red", "red" }, masksToBounds = true }
  ca.root:addSublayer(g)
  ca.step(0)
  g:addAnimation(ca.Transition{ type = "push", subtype = "fromLeft", timingFunction = "linear" })
  ca.transaction({ disableActions = true }, function() g.colors = { "blue", "blue" } end)
  ca.advance(0.125)
  local img = ca.render()
  T.pixel(img, 25, 50, {0, 0, 1, 1}, 2, "the new colours came in from the left")
  T.pixel(img, 75, 50, {1, 0, 0, 1}, 2, "the old ones leave to the right")
end, { size = {100, 100} })

T.test("drawFrame is a PixelBufferLayer's: on any other class it is an error, not ignored", function()
  T.raises(function() ca.Layer().drawFrame = function() end end, "CALayer has no drawFrame")
  T.raises(function() ca.ShapeLayer{ drawFrame = function() end } end, "belongs to PixelBufferLayer")
  local p = ca.PixelBufferLayer()
  p.drawFrame = function() end
  T.eq(type(p.drawFrame), "function")
end)

T.test("a replicator's shadow and offscreen extent cover every instance, not only the first", function()
  ca.root.backgroundColor = "white"
  local r = ca.ReplicatorLayer{ frame = {10, 10, 40, 40}, instanceCount = 3,
                                instanceTransform = ca.Transform3D.translation(50, 0, 0),
                                shadowOpacity = 1, shadowOffset = {0, 10}, shadowRadius = 0 }
  r:addSublayer(ca.Layer{ frame = {0, 0, 40, 40}, backgroundColor = "red" })
  ca.root:addSublayer(r)
  local img = ca.render()
  T.pixel(img, 130, 30, {1, 0, 0, 1}, 0, "the third instance is drawn")
  T.pixel(img, 130, 55, {0, 0, 0, 1}, 0, "and casts its shadow")
  -- Under perspective the replicator is drawn offscreen, sized by the same extent.
  local t = ca.Transform3D.rotation(0.3, 0, 1, 0)
  t.m34 = -1 / 500
  r.transform = t
  T.pixel(ca.render(), 130, 30, {1, 0, 0, 1}, 2, "the third instance under a projective transform")
end, { size = {200, 100} })

T.test("a transition on a pixel buffer layer starts from the frame shown when it was added", function()
  local p = ca.PixelBufferLayer{ frame = {0, 0, 100, 100}, retainedBacking = true }
  local colour = {1, 0, 0, 1}
  p.drawFrame = function(_, b) b:fill(colour) end
  ca.root:addSublayer(p)
  ca.step(0)
  ca.render()
  p:addAnimation(ca.Transition{ timingFunction = "linear" })
  colour = {0, 0, 1, 1}
  p:setNeedsDisplay()
  ca.advance(0.125)
  T.pixel(ca.render(), 50, 50, {0.5, 0, 0.5, 1}, 2, "half the old red frame, half the new blue one")
  ca.advance(0.25)
  T.pixel(ca.render(), 50, 50, {0, 0, 1, 1}, 0)
end, { size = {100, 100} })
