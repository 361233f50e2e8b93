-- Chapter 6, listings 6.8 and 6.9: CAReplicatorLayer — ten squares on a circle with a
-- colour shift, the ReflectionView reflection; defaults, instanceCount 0/1, instanceDelay
-- with position and opacity animations, a 3D ring under perspective, hit testing (only the
-- first instance), preservesDepth, hostile input.
-- Spec: shared/spec/book-ch05-06.md §2.8, §3 listings 6.8/6.9 (T6.8, T6.9), §4 F54–F57,
-- §6 item 7, Appendix A (instance centres [R]).
local ca = require "caluna"
local T = require "caluna.test"

local white, black, red, blue = "#ffffff", "#000000", "#ff0000", "#0000ff"
local pi = math.pi
local G = dofile(T.dir .. "/fixtures/projection.lua")

local function rgb(r, g, b) return {r / 255, g / 255, b / 255} end

---------------------------------------------------------------------------
-- Listing 6.8

-- The book's code: Translate(0, 200) → Rotate(π/5, z) → Translate(0, −200), in code order.
local function listing68Transform()
  return ca.Transform3D.translation(0, 200, 0):rotate(pi / 5, 0, 0, 1):translate(0, -200, 0)
end

local function listing68(count)
  ca.root.backgroundColor = black
  local r = ca.ReplicatorLayer{ frame = {100, 0, 300, 300} }
  r.instanceCount = count or 10
  r.instanceTransform = listing68Transform()
  r.instanceBlueOffset = -0.1
  r.instanceGreenOffset = -0.1
  r:addSublayer(ca.Layer{ frame = {100, 100, 100, 100}, backgroundColor = white })
  ca.root:addSublayer(r)
  return r
end

-- [R] instance centres (replicator coordinates) and colours.
local centres = {
  {150, 150, 255, 255, 255}, {267.6, 188.2, 255, 230, 230}, {340.2, 288.2, 255, 204, 204},
  {340.2, 411.8, 255, 178, 178}, {267.6, 511.8, 255, 153, 153}, {150, 550, 255, 128, 128},
  {32.4, 511.8, 255, 102, 102}, {-40.2, 411.8, 255, 76, 76}, {-40.2, 288.2, 255, 51, 51},
  {32.4, 188.2, 255, 25, 25},
}

T.test("T6.8 ten squares on a circle fading to red (F54–F56)", function()
  local r = listing68()
  T.eq(r.className, "CAReplicatorLayer")
  local img = ca.render()
  for k, c in ipairs(centres) do
    local x, y = math.floor(c[1] + 100), math.floor(c[2])
    T.pixel(img, x, y, rgb(c[3], c[4], c[5]), 2, "instance " .. (k - 1) .. " centre")
  end
  T.pixel(img, 250, 350, black, 0, "the circle's centre is empty")
  T.golden(img, "ch06/replicator_listing6_8")
end, { size = {500, 650} })

T.test("T6.8 instanceTransform^10 is the identity; instance 1 is clockwise (right and down)", function()
  local t = listing68Transform()
  local p = ca.Transform3D.identity
  for _ = 1, 10 do p = p:concat(t) end
  T.near(p, ca.Transform3D.identity, 1e-9)
  T.truthy(centres[2][1] > centres[1][1] and centres[2][2] > centres[1][2])
end)

T.test("T6.8 instanceCount = 1 draws only the original; 0 draws none", function()
  local r = listing68(1)
  local img = ca.render()
  T.pixel(img, 250, 150, white, 0, "instance 0")
  T.pixel(img, 367, 188, black, 0, "no instance 1")
  ca.Transaction.setDisableActions(true)
  r.instanceCount = 0
  T.pixel(ca.render(), 250, 150, black, 0, "no instances at all")
end, { size = {500, 650} })

T.test("defaults (Apple): count 1, identity, delay 0, white, offsets 0, preservesDepth false", function()
  local r = ca.ReplicatorLayer()
  T.eq(r.instanceCount, 1); T.eq(r.instanceTransform, ca.Transform3D.identity); T.eq(r.instanceDelay, 0)
  T.eq(r.instanceColor, {1, 1, 1, 1})
  for _, k in ipairs{"instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"} do
    T.eq(r[k], 0, k)
  end
  T.eq(r.preservesDepth, false)
end)

T.test("instanceColor multiplies every pixel; offsets add per instance and clamp to 0…1", function()
  ca.root.backgroundColor = black
  local r = ca.ReplicatorLayer{ frame = {0, 0, 200, 40}, instanceCount = 4,
                                instanceTransform = ca.Transform3D.translation(50, 0, 0),
                                instanceColor = {0.5, 1, 1, 1}, instanceRedOffset = 0.3, instanceBlueOffset = -0.6 }
  r:addSublayer(ca.Layer{ frame = {0, 0, 40, 40}, backgroundColor = {1, 0.5, 1, 1} })
  ca.root:addSublayer(r)
  local img = ca.render()
  -- modulation(k) = (0.5 + 0.3k, 1, 1 − 0.6k) clamped → red 0.5, 0.8, 1, 1; blue 1, 0.4, 0, 0
  T.pixel(img, 20, 20, rgb(128, 128, 255), 2, "k0: (0.5, 1, 1)")
  T.pixel(img, 70, 20, rgb(204, 128, 102), 2, "k1: (0.8, 1, 0.4)")
  T.pixel(img, 120, 20, rgb(255, 128, 0), 2, "k2: (1, 1, 0) — red clamped")
  T.pixel(img, 170, 20, rgb(255, 128, 0), 2, "k3: (1, 1, 0) — blue clamped at 0")
end, { size = {200, 40} })

---------------------------------------------------------------------------
-- Listing 6.9

local function reflection()
  ca.root.backgroundColor = black
  local r = ca.ReplicatorLayer{ frame = {0, 0, 100, 100} }
  r.instanceCount = 2
  r.instanceTransform = ca.Transform3D.translation(0, 102, 0):scale(1, -1, 0)
  r.instanceAlphaOffset = -0.6
  local content = ca.Layer{ frame = {0, 0, 100, 100} }
  content:addSublayer(ca.Layer{ frame = {0, 0, 100, 50}, backgroundColor = red })
  content:addSublayer(ca.Layer{ frame = {0, 50, 100, 50}, backgroundColor = blue })
  r:addSublayer(content)
  ca.root:addSublayer(r)
  return r, content
end

T.test("T6.9 reflection: mirrored below with a 2-pt gap at 40% alpha (F57)", function()
  reflection()
  local img = ca.render()
  for _, x in ipairs{0, 50, 99} do
    for y = 0, 209 do
      local e
      if y < 50 then e = rgb(255, 0, 0)
      elseif y < 100 then e = rgb(0, 0, 255)
      elseif y < 102 then e = rgb(0, 0, 0)
      elseif y < 152 then e = rgb(0, 0, 102)
      elseif y < 202 then e = rgb(102, 0, 0)
      else e = rgb(0, 0, 0) end
      T.pixel(img, x, y, e, 2, "row " .. y)
    end
  end
  T.golden(img, "ch06/replicator_listing6_9")
end, { size = {100, 210} })

T.test("hit testing sees only the first instance (Apple)", function()
  local r, content = reflection()
  ca.render()
  T.same(ca.root:hitTest{50, 20}, content.sublayers[1], "instance 0: the red sublayer")
  T.falsy(ca.root:hitTest{50, 180} == content.sublayers[1], "the reflection is not hit")
  T.same(ca.root:hitTest{50, 180}, ca.root, "below the replicator: the root")
end, { size = {100, 210} })

---------------------------------------------------------------------------
-- instanceDelay: instance k sees its animations at t − k·delay.

local function delayScene()
  ca.root.backgroundColor = black
  local r = ca.ReplicatorLayer{ frame = {0, 0, 200, 120}, instanceCount = 3, instanceDelay = 0.25,
                                instanceTransform = ca.Transform3D.translation(0, 40, 0) }
  local dot = ca.Layer{ bounds = {0, 0, 20, 20}, position = {20, 20}, backgroundColor = white }
  r:addSublayer(dot)
  ca.root:addSublayer(r)
  ca.step(0)
  return r, dot
end

-- The delay scene with `anim` on the dot, rendered at t = 0.5.
local function delayedFrame(keyPath, from, to)
  local r, dot = delayScene()
  dot:addAnimation(ca.BasicAnimation{ keyPath = keyPath, fromValue = from, toValue = to, duration = 1 })
  ca.flush()
  ca.advance(0.5)
  return ca.render(), dot
end

T.test("instanceDelay with a position animation: instance k at t equals instance 0 at t − k·delay", function()
  local img, dot = delayedFrame("position.x", 20, 120)
  -- instance 0: x = 70; instance 1: x(0.25) = 45; instance 2: x(0) = 20
  for k, x in ipairs{70, 45, 20} do
    local y = 20 + 40 * (k - 1)
    T.pixel(img, x, y, white, 0, "instance " .. (k - 1) .. " at its delayed x")
    T.pixel(img, x + 12, y, black, 0, "instance " .. (k - 1) .. " right edge")
    T.pixel(img, x - 12, y, black, 0, "instance " .. (k - 1) .. " left edge")
  end
  T.near(dot:presentation().position.x, 70, 1e-9, "the presentation layer is instance 0's")
end, { size = {200, 120} })

T.test("instanceDelay with an opacity animation: 0.5, 0.75, 1 at t = 0.5", function()
  local img = delayedFrame("opacity", 1, 0)
  T.pixel(img, 20, 20, rgb(128, 128, 128), 2, "k0 opacity 0.5")
  T.pixel(img, 20, 60, rgb(191, 191, 191), 2, "k1 opacity 0.75 (t = 0.25)")
  T.pixel(img, 20, 100, white, 2, "k2 opacity 1 (t = 0)")
end, { size = {200, 120} })

---------------------------------------------------------------------------
-- 3D: a ring of three cards about y under the replicator's perspective.

T.test("3D instanceTransform: a ring rotated about y, depth-sorted, in perspective", function()
  ca.root.backgroundColor = black
  local r = ca.ReplicatorLayer{ frame = {0, 0, 200, 200}, instanceCount = 3,
                                instanceTransform = ca.Transform3D.rotation(2 * pi / 3, 0, 1, 0),
                                instanceGreenOffset = -0.5, instanceBlueOffset = -0.5,
                                sublayerTransform = G.P(500) }
  r:addSublayer(ca.Layer{ bounds = {0, 0, 40, 40}, position = {100, 100}, zPosition = 60, backgroundColor = white })
  ca.root:addSublayer(r)
  local img = ca.render()
  -- front card (k0) at z = 60: w = 1 − 60/500, half-width 20/0.88 = 22.7
  T.pixel(img, 100, 100, white, 0, "the front card hides the others")
  T.pixel(img, 121, 100, white, 2, "front card, inside its enlarged half-width 22.7")
  T.pixel(img, 79, 100, white, 2)
  -- k1 centre: (60 sin 120°, z = 60 cos 120°) = (51.96, −30) → x = 51.96 / 1.06 = 49.02
  local x1 = 100 + 60 * math.sin(2 * pi / 3) / (1 + 30 / 500)
  T.pixel(img, math.floor(x1 + 4), 100, rgb(255, 128, 128), 2, "k1 (behind, right): (1, 0.5, 0.5)")
  T.pixel(img, math.floor(200 - x1 - 4), 100, rgb(255, 0, 0), 2, "k2 (behind, left): (1, 0, 0)")
  T.pixel(img, 100, 130, black, 0, "below the front card")
end, { size = {200, 200} })

T.test("preservesDepth = true: flat content draws as with false; 3D content is not supported", function()
  local r = listing68()
  r.preservesDepth = true
  T.pixel(ca.render(), 367, 188, rgb(255, 230, 230), 2, "flat: the same picture")
  ca.Transaction.setDisableActions(true)
  r.instanceTransform = ca.Transform3D.rotation(0.3, 0, 1, 0)
  T.raises(function() ca.render() end, "preservesDepth = true with 3D content")
  r.preservesDepth = false
  ca.render()
end, { size = {500, 650} })

---------------------------------------------------------------------------
-- Hostile input

T.test("bad replicator values raise clear errors; the engine stays usable", function()
  local r = listing68()
  T.raises(function() r.instanceCount = -1 end, "instanceCount must be in 0…10000")
  T.raises(function() r.instanceCount = 1e12 end, "instanceCount must be in 0…10000")
  T.raises(function() r.instanceCount = 0 / 0 end, "finite")
  T.raises(function() r.instanceDelay = 1 / 0 end, "finite")
  T.raises(function() r.instanceDelay = 1e12 end, "instanceDelay")
  T.raises(function() r.instanceRedOffset = 1e9 end, "instanceRedOffset")
  T.raises(function() r.instanceTransform = 5 end, "instanceTransform")
  T.raises(function() r.instanceColor = "not a colour" end, "instanceColor")
  T.raises(function() r.preservesDepth = "yes" end, "preservesDepth")
  T.raises(function() ca.Layer().instanceCount = 2 end, "CAReplicatorLayer")
  r.instanceCount = 10000
  r.instanceColor = nil
  T.eq(r.instanceColor, nil)
  local img = ca.render()
  T.pixel(img, 250, 150, red, 2, "10000 instances: the last drawn there is k = 9990, its colour clamped to red")
  T.pixel(img, 367, 188, red, 2, "k = 9991")
  ca.Transaction.setDisableActions(true)
  r.instanceCount = 2.7
  T.pixel(ca.render(), 367, 188, rgb(255, 230, 230), 2, "fractional count: rounded down")
end, { size = {500, 650} })
