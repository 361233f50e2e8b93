-- Listing 6.13: a CAEmitterLayer fire explosion. Orange sparks burst from the centre in
-- every direction (emissionRange 2π) at 50 ± 25 pt/s, fade by 0.4 per second and, with the
-- additive render mode, brighten toward yellow-white where they overlap (fig. 6.13).
-- The book's Spark.png is replaced by a spark drawn here: a soft white dot, 16×16 pixels.
-- Render: caluna run examples/fire.lua -o fire.png --size 400x400 --at 1.5
local ca = require "caluna"

-- A white dot whose alpha falls off toward its edge (straight RGBA bytes).
local function spark(n)
  local bytes = {}
  for y = 0, n - 1 do
    for x = 0, n - 1 do
      local d = math.sqrt((x + 0.5 - n / 2) ^ 2 + (y + 0.5 - n / 2) ^ 2) / (n / 2)
      local a = math.floor(255 * math.max(0, 1 - d) ^ 1.5 + 0.5)
      bytes[#bytes + 1] = string.char(255, 255, 255, a)
    end
  end
  return ca.Image.fromPixels(n, n, table.concat(bytes))
end

local w, h = ca.size()
ca.root.backgroundColor = "#000000"

-- The container's bounds, the emitter at its centre.
local emitter = ca.EmitterLayer{
  frame = {0, 0, w, h},
  renderMode = "additive",
  emitterPosition = {w / 2, h / 2},
}

local cell = ca.EmitterCell{
  contents = spark(16),
  birthRate = 150,
  lifetime = 5.0,
  color = {1, 0.5, 0.1, 1},
  alphaSpeed = -0.4,
  velocity = 50,
  velocityRange = 50,
  emissionRange = math.pi * 2,
}
emitter.emitterCells = { cell }
ca.root:addSublayer(emitter)
