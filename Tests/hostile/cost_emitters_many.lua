-- 300 emitter layers, each at its cap of 10,000 live particles: one frame drew 3 million
-- particles (4.4 s for 200 such layers in debug; two renders here). A render draws at most
-- 100,000 particles over all its emitters; the script renders once, the CLI renders its
-- frame after the script.
-- output: drawn 100000
-- exit: 0
-- args: --instruction-limit 10000000 --memory-limit 64 --time-limit 5 --size 64x64 --at 3
local ca = require "caluna"
local sprite = ca.Image.fromPixels(4, 4, string.rep("\255", 64))
local cell = ca.EmitterCell{ birthRate = 1e9, lifetime = 100, contents = sprite, velocity = 5, emissionRange = 6.28 }
for _ = 1, 300 do
  ca.root:addSublayer(ca.EmitterLayer{ frame = {0, 0, 64, 64}, emitterPosition = {32, 32}, emitterCells = { cell } })
end
ca.advance(3)
ca.render()
print("drawn " .. ca.stats().particlesDrawn)
