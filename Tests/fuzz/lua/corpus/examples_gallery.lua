-- Chapter 6's specialised layers in one picture, each panel one listing:
--   top:    CAShapeLayer's stick figure (6.1) over a three-corner rounded rect (§圆角);
--           CATextLayer with an attributed string — a red underlined word (6.3);
--           CAGradientLayer, three colours squeezed to the top-left by locations (6.7);
--   bottom: CAReplicatorLayer's ring of ten squares shifting from white to red (6.8) and a
--           reflection below a card (6.9); CAEmitterLayer's additive fire at 1 s (6.13);
--           a PixelBufferLayer — caluna's CAEAGLLayer — drawing 6.14's triangle in software.
-- Render: caluna run examples/gallery.lua -o gallery.png --size 720x520 --scale 2 --at 1
local ca = require "caluna"

local root = ca.root
local scale = ca.scale()
root.backgroundColor = "#f4f1ea"
local ink = "#3b3428"

-- A panel: a white card at (x, y) with a caption below; returns the card.
local function panel(x, y, caption)
  local card = ca.Layer{ frame = {x, y, 220, 200}, backgroundColor = "#ffffff", cornerRadius = 10,
                         masksToBounds = true, borderWidth = 1, borderColor = "#d8d0c0" }
  root:addSublayer(card)
  root:addSublayer(ca.TextLayer{ frame = {x, y + 204, 220, 40}, string = caption, font = "DejaVu Sans",
                                 fontSize = 11, foregroundColor = ink, alignmentMode = "center",
                                 wrapped = true, contentsScale = scale })
  return card
end

root:addSublayer(ca.TextLayer{ frame = {0, 8, 720, 24}, string = "Chapter 6's specialised layers, rendered by caluna",
                               font = "DejaVu Sans Bold", fontSize = 15, foregroundColor = ink,
                               alignmentMode = "center", contentsScale = scale })

---------------------------------------------------------------------------
-- 6.1: the stick figure (round caps and joins, an open path of several subpaths).
local shapes = panel(10, 36, "CAShapeLayer: listing 6.1's stick figure, a rounded rect with three round corners")
shapes:addSublayer(ca.ShapeLayer{
  path = ca.Path():addRoundedRect(30, 20, 160, 160, {24, 24}, {"topRight", "bottomRight", "bottomLeft"}),
  fillColor = "#fbe3c8", strokeColor = "#e0a060", lineWidth = 2, lineDashPattern = {6, 4},
})
local figure = ca.Path():moveTo(135, 55):addArc(110, 55, 25, 0, 2 * math.pi, true)
figure:moveTo(110, 80):lineTo(110, 130):lineTo(85, 180)
figure:moveTo(110, 130):lineTo(135, 180)
figure:moveTo(60, 105):lineTo(160, 105)
shapes:addSublayer(ca.ShapeLayer{ path = figure, strokeColor = "red", fillColor = "clear", lineWidth = 5,
                                  lineJoin = "round", lineCap = "round" })

---------------------------------------------------------------------------
-- 6.3: rich text — the whole string black, "ipsum" red and underlined; justified.
local texts = panel(250, 36, "CATextLayer: an attributed string, justified and wrapped (6.3)")
local lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel "
  .. "varius in, facilisis pulvinar leo. Nunc quis nunc at mauris pharetra condimentum ut ac neque."
local text = ca.TextLayer{ frame = {12, 12, 196, 176}, alignmentMode = "justified", wrapped = true,
                           contentsScale = scale }
text:setAttributedString{
  { text = "Lorem ", font = "DejaVu Sans", fontSize = 15, foregroundColor = "black" },
  { text = "ipsum", font = "DejaVu Sans", fontSize = 15, foregroundColor = "red", underline = true },
  { text = lorem:sub(12), font = "DejaVu Sans", fontSize = 15, foregroundColor = "black" },
}
texts:addSublayer(text)

---------------------------------------------------------------------------
-- 6.7: red, yellow, green with locations 0, 0.25, 0.5 along the diagonal.
local gradients = panel(490, 36, "CAGradientLayer: three colours, locations 0, ¼, ½ on the diagonal (6.7)")
gradients:addSublayer(ca.GradientLayer{ frame = {0, 0, 220, 200}, colors = {"red", "yellow", "#00ff00"},
                                        locations = {0, 0.25, 0.5}, startPoint = {0, 0}, endPoint = {1, 1} })

---------------------------------------------------------------------------
-- 6.8 and 6.9: ten squares about a point below the centre, blue and green fading out;
-- a card and its reflection (flip, move down h + 2, alpha − 0.6).
local replicas = panel(10, 280, "CAReplicatorLayer: ten instances on a circle (6.8) and a reflection (6.9)")
local ring = ca.ReplicatorLayer{ frame = {40, 12, 60, 60}, instanceCount = 10,
                                 instanceBlueOffset = -0.1, instanceGreenOffset = -0.1 }
ring.instanceTransform = ca.Transform3D.translation(0, 40, 0):rotate(math.pi / 5, 0, 0, 1):translate(0, -40, 0)
ring:addSublayer(ca.Layer{ frame = {20, 20, 20, 20}, backgroundColor = "#ffffff", borderWidth = 1,
                           borderColor = "#888888" })
replicas:addSublayer(ca.Layer{ frame = {0, 0, 140, 200}, backgroundColor = "#222222" })
replicas:addSublayer(ring)
local mirror = ca.ReplicatorLayer{ frame = {150, 24, 60, 70}, instanceCount = 2, instanceAlphaOffset = -0.6 }
mirror.instanceTransform = ca.Transform3D.translation(0, 72, 0):scale(1, -1, 0)
mirror:addSublayer(ca.Layer{ frame = {0, 0, 60, 35}, backgroundColor = "#2f4b7c" })
mirror:addSublayer(ca.Layer{ frame = {0, 35, 60, 35}, backgroundColor = "#e4572e" })
replicas:addSublayer(mirror)

---------------------------------------------------------------------------
-- 6.13: the fire — an 8-pixel spark, 150 per second, additive.
local fire = panel(250, 280, "CAEmitterLayer: listing 6.13's additive sparks at t = 1 s (seed 7)")
local sparkBytes = {}
for y = 0, 15 do
  for x = 0, 15 do
    local d = math.sqrt((x - 7.5) ^ 2 + (y - 7.5) ^ 2) / 8
    sparkBytes[#sparkBytes + 1] = string.char(255, 255, 255, math.floor(255 * math.max(0, 1 - d) ^ 1.5 + 0.5))
  end
end
fire:addSublayer(ca.Layer{ frame = {0, 0, 220, 200}, backgroundColor = "#000000" })
local emitter = ca.EmitterLayer{ frame = {0, 0, 220, 200}, renderMode = "additive", emitterPosition = {110, 100},
                                 seed = 7 }
emitter.emitterCells = { ca.EmitterCell{ contents = ca.Image.fromPixels(16, 16, table.concat(sparkBytes)),
                                         birthRate = 150, lifetime = 5, color = {1, 0.5, 0.1, 1},
                                         alphaSpeed = -0.4, velocity = 50, velocityRange = 50,
                                         emissionRange = 2 * math.pi } }
fire:addSublayer(emitter)

---------------------------------------------------------------------------
-- 6.14: a triangle with per-vertex colours, rasterised by the frame callback.
local gl = panel(490, 280, "PixelBufferLayer: 6.14's triangle from a frame callback (caluna's CAEAGLLayer)")
local pixelLayer = ca.PixelBufferLayer{ frame = {0, 0, 220, 200} }
pixelLayer.drawFrame = function(_, buffer)
  local w, h = buffer.width, buffer.height
  local v = { {0.25 * w, 0.75 * h, 0, 0, 1}, {0.5 * w, 0.25 * h, 0, 1, 0}, {0.75 * w, 0.75 * h, 1, 0, 0} }
  local function edge(a, b, x, y) return (b[1] - a[1]) * (y - a[2]) - (b[2] - a[2]) * (x - a[1]) end
  local area = edge(v[1], v[2], v[3][1], v[3][2])
  buffer:fill{0, 0, 0, 1}
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      local px, py = x + 0.5, y + 0.5
      local w1, w2, w3 = edge(v[2], v[3], px, py) / area, edge(v[3], v[1], px, py) / area, edge(v[1], v[2], px, py) / area
      if w1 >= 0 and w2 >= 0 and w3 >= 0 then
        buffer:set(x, y, w1 * v[1][3] + w2 * v[2][3] + w3 * v[3][3], w1 * v[1][4] + w2 * v[2][4] + w3 * v[3][4],
                   w1 * v[1][5] + w2 * v[2][5] + w3 * v[3][5], 1)
      end
    end
  end
end
gl:addSublayer(pixelLayer)
