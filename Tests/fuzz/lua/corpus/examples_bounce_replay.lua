-- Listing 10.6 with input: tap anywhere to replay the bounce.
--   The book's ball drops from y = 32 to the floor at y = 268 and bounces three times: a
--   keyframe animation of position (duration 1 s) with eight values, uneven keyTimes
--   {0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1} and alternating easeIn/easeOut timing functions.
--   The book runs it once when the view loads and again on every touch; here a tap
--   anywhere (an engine-wide ca.on("tap") handler) replays it from the top: the old
--   animation is removed, the model position is set to the floor with actions disabled
--   (the book's ball is an image view, whose layer does not animate by itself), and the
--   animation is added again, so it starts at the tap's own time.
--   Layers a host can look up by name: "ball", "floor".
-- Render: caluna run examples/bounce_replay.lua --events examples/bounce_replay.jsonl -o out/bounce_replay/ --frames 150 --size 300x320
local ca = require "caluna"

local w, h = ca.size()
local scale = ca.scale()
local x, top, bottom, size = w / 2, 32, 268, 32      -- the book's ball centres: (150, 32) … (150, 268)
ca.root.backgroundColor = "#f2efe8"
ca.root:addSublayer(ca.Layer { name = "floor", frame = { 0, bottom + size / 2, w, math.max(0, h - bottom - size / 2) },
                               backgroundColor = "#d8d0c0" })

local hint = ca.Layer { frame = { 0, h - 24, w, 20 }, contentsScale = scale }
hint.draw = function(_, ctx)
  ctx:setFont("DejaVu Sans", 12):setFillColor("#5c5346")
  ctx:drawText("Listing 10.6: tap anywhere to bounce again", { 0, 0, w, 20 }, "center")
end
hint:display()
ca.root:addSublayer(hint)

local ball = ca.Layer { name = "ball", bounds = { 0, 0, size, size }, position = { x, top }, cornerRadius = size / 2,
                        backgroundColor = "crimson", borderWidth = 2, borderColor = "#7a1026" }
ca.root:addSublayer(ball)

local easeIn, easeOut = ca.MediaTimingFunction("easeIn"), ca.MediaTimingFunction("easeOut")
local function animate()
  local values = {}
  for i, y in ipairs { 32, 268, 140, 268, 220, 268, 250, 268 } do values[i] = { x, y } end
  ball:removeAnimationForKey("bounce")
  -- The model ends on the floor; the change itself must not animate.
  ca.Transaction.begin()
  ca.Transaction.setDisableActions(true)
  ball.position = { x, bottom }
  ca.Transaction.commit()
  ball:addAnimation(ca.KeyframeAnimation {
    keyPath = "position", duration = 1.0, values = values,
    timingFunctions = { easeIn, easeOut, easeIn, easeOut, easeIn, easeOut, easeIn },
    keyTimes = { 0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0 } }, "bounce")
end

animate()
ca.on("tap", function() animate() end)
