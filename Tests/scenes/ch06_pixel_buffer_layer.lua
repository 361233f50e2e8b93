-- Chapter 6, listings 6.14–6.16: caluna's PixelBufferLayer, the portable CAEAGLLayer
-- (a frame drawn by a callback: here a small software rasteriser in Lua) and AVPlayerLayer
-- (a frame source driven by the engine clock), composited exactly like contents, so
-- gravity (videoGravity), corners, borders, masks and 3D transforms apply (F76, F77).
-- Spec: shared/spec/book-ch05-06.md §2.13–2.14, §3 listings 6.14–6.16 (T6.14–T6.16),
-- §4 F76–F77, §5 rows "custom-drawn pixel-buffer layer" and "player layer".
local ca = require "caluna"
local T = require "caluna.test"

local S300 = { size = {300, 300} }

-- Listing 6.14's triangle in normalised device coordinates (y up), per-vertex colours.
local vertices = {
  { -0.5, -0.5, {0, 0, 1} },   -- blue
  {  0.0,  0.5, {0, 1, 0} },   -- green
  {  0.5, -0.5, {1, 0, 0} },   -- red
}

-- glViewport + glDrawArrays(GL_TRIANGLES) in software: NDC → pixels (y down), then each
-- pixel centre inside the triangle gets the barycentric blend of the vertex colours.
local function drawTriangle(buffer)
  local w, h = buffer.width, buffer.height
  local p = {}
  for i, v in ipairs(vertices) do p[i] = { (v[1] + 1) / 2 * w, (1 - v[2]) / 2 * h, v[3] } end
  local function edge(a, b, x, y) return (b[1] - a[1]) * (y - a[2]) - (b[2] - a[2]) * (x - a[1]) end
  local area = edge(p[1], p[2], p[3][1], p[3][2])
  local x0 = math.max(0, math.floor(math.min(p[1][1], p[2][1], p[3][1])))
  local x1 = math.min(w - 1, math.ceil(math.max(p[1][1], p[2][1], p[3][1])))
  local y0 = math.max(0, math.floor(math.min(p[1][2], p[2][2], p[3][2])))
  local y1 = math.min(h - 1, math.ceil(math.max(p[1][2], p[2][2], p[3][2])))
  for y = y0, y1 do
    for x = x0, x1 do
      local cx, cy = x + 0.5, y + 0.5
      local w1, w2, w3 = edge(p[2], p[3], cx, cy) / area, edge(p[3], p[1], cx, cy) / area, edge(p[1], p[2], cx, cy) / area
      if w1 >= 0 and w2 >= 0 and w3 >= 0 then
        local c1, c2, c3 = p[1][3], p[2][3], p[3][3]
        buffer:set(x, y, w1 * c1[1] + w2 * c2[1] + w3 * c3[1], w1 * c1[2] + w2 * c2[2] + w3 * c3[2],
                   w1 * c1[3] + w2 * c2[3] + w3 * c3[3], 1)
      end
    end
  end
end

-- The book's drawFrame: glClear comes before glClearColor, so the first frame is cleared with
-- GL's default (0, 0, 0, 0) and later ones with black.
local function glView()
  ca.Transaction.setDisableActions(true)
  local layer = ca.PixelBufferLayer{ frame = {0, 0, 300, 300} }
  local clearColour = {0, 0, 0, 0}
  local frames = 0
  layer.drawFrame = function(l, buffer, time)
    frames = frames + 1
    T.same(l, layer)
    buffer:fill(clearColour)
    clearColour = {0, 0, 0, 1}
    drawTriangle(buffer)
  end
  ca.root:addSublayer(layer)
  return layer, function() return frames end
end

T.test("defaults and properties: pixelWidth/pixelHeight 0 (bounds × contentsScale), retainedBacking false", function()
  local l = ca.PixelBufferLayer()
  T.eq(l.className, "PixelBufferLayer")
  T.eq(l.pixelWidth, 0)
  T.eq(l.pixelHeight, 0)
  T.eq(l.retainedBacking, false)
  T.eq(l.contentsGravity, "resize", "videoGravity is contentsGravity (CALayer's default)")
  T.raises(function() l.pixelWidth = -1 end, "pixelWidth must be a whole number of pixels in 0…16384")
  T.raises(function() l.pixelHeight = 1.5 end, "pixelHeight must be a whole number")
  T.raises(function() l.pixelWidth = 1e9 end, "0…16384")
  T.raises(function() l.retainedBacking = 1 end, "retainedBacking")
  T.raises(function() l.drawFrame = 3 end, "Layer.drawFrame expects a function or nil")
  T.raises(function() ca.Layer().retainedBacking = true end, "belongs to PixelBufferLayer")
end)

T.test("T6.14 the triangle: (75,225) blue, (150,75) green, (225,225) red, centroid grey, (10,10) the clear colour", function()
  local layer, frames = glView()
  local img = ca.render()
  T.eq(frames(), 1)
  T.pixel(img, 76, 224, "blue", 12)
  T.pixel(img, 150, 76, "lime", 12)
  T.pixel(img, 223, 224, "red", 12)
  T.pixel(img, 150, 175, "#555555", 2)
  T.pixel(img, 10, 10, {0, 0, 0, 0}, 0)         -- first frame: glClear with the default colour
  T.pixel(img, 150, 240, {0, 0, 0, 0}, 0)
  -- retainedBacking false: every render asks for a new frame (now cleared to black).
  ca.step(1 / 60)
  local img2 = ca.render()
  T.eq(frames(), 2)
  T.pixel(img2, 10, 10, "black", 0)
  T.pixel(img2, 150, 175, "#555555", 2)
  ca.render()
  T.eq(frames(), 3, "one frame per render")
  T.golden(img2, "ch06/pixel_l614_triangle")
end, S300)

T.test("retainedBacking true: one frame until setNeedsDisplay or a new buffer size", function()
  local layer, frames = glView()
  layer.retainedBacking = true
  ca.render(); ca.step(0.1); ca.render(); ca.render()
  T.eq(frames(), 1)
  layer:setNeedsDisplay()
  ca.render()
  T.eq(frames(), 2)
  ca.render()
  T.eq(frames(), 2)
  layer.pixelWidth, layer.pixelHeight = 150, 150
  local img = ca.render()
  T.eq(frames(), 3, "a new size draws a new frame")
  T.pixel(img, 150, 175, "#555555", 4)   -- stretched to the bounds (gravity resize)
  T.eq(ca.stats().drawCallbacks, 1)
end, S300)

T.test("the buffer: width, height, get, set, fill; an Image returned instead; the buffer dies with the call", function()
  ca.Transaction.setDisableActions(true)
  local layer = ca.PixelBufferLayer{ frame = {0, 0, 40, 20}, contentsScale = 2 }
  local kept, sizes = nil, nil
  layer.drawFrame = function(l, b, time)
    sizes = { b.width, b.height }
    b:fill("#ff000080")
    local r, g, bl, a = b:get(0, 0)
    T.near(r, 1, 0.01); T.near(a, 128 / 255, 0.01)
    b:set(79, 39, 0, 0, 1)
    T.raises(function() b:set(80, 0, 1, 1, 1) end, "pixel (80, 0) is outside the 80×40 buffer")
    T.raises(function() b:set(0, 0, 2, 0, 0) end, "r must be in 0…1")
    T.raises(function() b:set(0.5, 0, 1, 0, 0) end, "whole numbers")
    T.raises(function() b:fill("nope") end, "colour")
    T.raises(function() b.nothing() end, "PixelBuffer has no field or method 'nothing'")
    kept = b
  end
  ca.root:addSublayer(layer)
  local img = ca.render()
  T.eq(sizes, {80, 40}, "bounds × contentsScale")
  T.pixel(img, 10, 10, "#ff000080", 1)
  T.pixel(img, 39.5, 19.5, "blue", 0)
  T.falsy(kept.valid)
  T.raises(function() kept:set(0, 0, 1, 1, 1) end, "only valid inside the callback")
  -- A returned Image is the frame (any size; gravity places it).
  local picture = ca.Image.fromPixels(1, 1, "\0\255\0\255")
  layer.drawFrame = function() return picture end
  T.pixel(ca.render(), 20, 10, "lime", 0)
  layer.drawFrame = function() return 42 end
  T.raises(function() ca.render() end, "Layer.drawFrame must return nothing or an Image")
  layer.drawFrame = function() error("no GPU") end
  T.raises(function() ca.render() end, "no GPU")
  layer.drawFrame = function() ca.step(1) end
  T.raises(function() ca.render() end, "cannot be called from inside a callback")
  layer.drawFrame = nil
  T.pixel(ca.render(), 20, 10, "lime", 0, "the last frame stays")
end, { size = {40, 20}, scale = 2 })

T.test("a too large buffer is an error, an empty one draws nothing", function()
  ca.Transaction.setDisableActions(true)
  local layer = ca.PixelBufferLayer{ frame = {0, 0, 10, 10}, pixelWidth = 16384, pixelHeight = 16384 }
  layer.drawFrame = function(l, b) b:fill("red") end
  ca.root:addSublayer(layer)
  T.raises(function() ca.render() end, "PixelBufferLayer: size 16384×16384 pixels is too large")
  layer.pixelWidth, layer.pixelHeight = 0, 0
  layer.bounds = {0, 0, 0, 0}
  ca.render()
  layer.bounds = {0, 0, 10, 10}
  T.pixel(ca.render(), 5, 5, "red")
end, { size = {20, 20} })

-- Listing 6.15's player: a synthetic frame source, frame n a solid colour, 30 frames per
-- second of the layer's time.
local palette = { "#ff0000", "#00ff00", "#0000ff", "#ffff00" }
local function player(props)
  ca.Transaction.setDisableActions(true)
  local layer = ca.PixelBufferLayer{ pixelWidth = 160, pixelHeight = 120 }
  for k, v in pairs(props) do layer[k] = v end
  layer.drawFrame = function(l, buffer, time)
    local n = math.floor(time * 30 + 1e-6)
    buffer:fill(palette[n % #palette + 1])
  end
  ca.root:addSublayer(layer)
  return layer
end

T.test("T6.15 a frame source on the engine clock: colour 0 at t = 0, colour 1 after 1/30 s", function()
  local layer = player{ frame = {0, 0, 160, 120} }
  T.pixel(ca.render(), 80, 60, palette[1], 0)
  ca.step(1 / 30)
  T.pixel(ca.render(), 80, 60, palette[2], 0)
  ca.advance(3 / 30)
  T.pixel(ca.render(), 80, 60, palette[4], 0)
  -- The layer's time drives it: speed 0 pauses, timeOffset seeks (AVPlayer's rate and seek).
  layer.speed = 0
  layer.timeOffset = 2 / 30
  ca.step(1)
  T.pixel(ca.render(), 80, 60, palette[3], 0)
end, { size = {160, 120} })

T.test("T6.15 videoGravity resizeAspect letterboxes a 4:3 frame in a 2:1 layer", function()
  local layer = player{ frame = {0, 0, 200, 100}, contentsGravity = "resizeAspect" }
  local img = ca.render()
  -- 160×120 fits as 133.3×100, centred: x from 33.3 to 166.7.
  T.pixel(img, 20, 50, {0, 0, 0, 0}, 0)
  T.pixel(img, 180, 50, {0, 0, 0, 0}, 0)
  T.pixel(img, 35, 50, palette[1], 0)
  T.pixel(img, 165, 50, palette[1], 0)
  T.pixel(img, 100, 0, palette[1], 0)
  T.pixel(img, 100, 99, palette[1], 0)
  ca.Transaction.setDisableActions(true)
  layer.contentsGravity = "resizeAspectFill"
  T.pixel(ca.render(), 1, 1, palette[1], 0)
end, { size = {200, 100} })

-- Listing 6.16: the player layer with a 3D transform, rounded corners and a red border.
local function videoWithEffects(t)
  ca.Transaction.setDisableActions(true)
  ca.root.backgroundColor = "white"
  local layer = player{ frame = {50, 75, 200, 150}, masksToBounds = true, cornerRadius = 20,
                        borderColor = "red", borderWidth = 5, contentsGravity = "resizeAspect" }
  layer.drawFrame = function(l, buffer, time)
    buffer:fill("#3050d0")
    for y = 10, 19 do for x = 0, buffer.width - 1 do buffer:set(x, y, 1, 0.8, 0) end end
  end
  if t then layer.transform = t end
  return layer
end

T.test("T6.16 effects on a player layer: rounded, masked corner, red border, the frame inside (F77)", function()
  videoWithEffects()
  local img = ca.render()
  T.pixel(img, 51, 76, "white", 0, "corner (1,1) is cut away by the rounded mask")
  T.pixel(img, 52, 150, "red", 0, "(2,75) is the border")
  T.pixel(img, 150, 150, "#3050d0", 1, "(100,75) is the frame")
  T.pixel(img, 150, 95, "#ffcc00", 1, "the frame's stripe")
end, S300)

T.test("T6.16 with m34 = −1/500 and a π/4 turn about (1, 1, 0) the outline is not axis-aligned", function()
  local t = ca.Transform3D.identity
  t.m34 = -1 / 500
  t = t:rotate(math.pi / 4, 1, 1, 0)
  videoWithEffects(t)
  local img = ca.render()
  -- The topmost non-white pixel of a column moves along the columns: a slanted top edge
  -- (an axis-aligned rectangle would have the same top everywhere).
  local function topmost(x)
    for y = 0, 299 do
      local r, g, b = img:pixel(x, y)
      if r < 250 or g < 250 or b < 250 then return y end
    end
  end
  local a, b = topmost(80), topmost(200)
  T.truthy(a and b and b - a > 20, "the top edge is slanted (" .. tostring(a) .. " vs " .. tostring(b) .. ")")
  local r, g, bl = img:pixel(150, topmost(150) + 1)
  T.truthy(r > 200 and g < 80 and bl < 80, "the red border follows the transformed edge")
  T.pixel(img, 150, 150, "#3050d0", 2, "the centre still shows the frame")
  T.golden(img, "ch06/pixel_l616_video_3d")
end, S300)

T.test("the frame is drawn as contents: contentsRect, a mask, opacity; identical frames give identical bytes", function()
  ca.Transaction.setDisableActions(true)
  local layer = ca.PixelBufferLayer{ frame = {0, 0, 100, 50}, pixelWidth = 2, pixelHeight = 1,
                                     magnificationFilter = "nearest" }
  layer.drawFrame = function(l, b) b:set(0, 0, 1, 0, 0); b:set(1, 0, 0, 0, 1) end
  ca.root:addSublayer(layer)
  local img = ca.render()
  T.pixel(img, 25, 25, "red", 0)
  T.pixel(img, 75, 25, "blue", 0)
  T.eq(img:compare(ca.render()), 0, "deterministic")
  ca.Transaction.setDisableActions(true)
  layer.contentsRect = {0.5, 0, 0.5, 1}
  T.pixel(ca.render(), 25, 25, "blue", 0, "contentsRect picks the frame's right half")
  ca.Transaction.setDisableActions(true)
  layer.contentsRect = {0, 0, 1, 1}
  layer.mask = ca.Layer{ frame = {0, 0, 50, 50}, backgroundColor = "black" }
  local masked = ca.render()
  T.pixel(masked, 25, 25, "red", 0)
  T.pixel(masked, 75, 25, {0, 0, 0, 0}, 0, "the mask hides the right half")
  ca.Transaction.setDisableActions(true)
  layer.mask = nil
  layer.opacity = 0.5
  T.pixel(ca.render(), 75, 25, "#0000ff80", 1)
end, { size = {100, 50} })
