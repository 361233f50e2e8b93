-- A sandboxed script lifting its world's caps: raising one (or turning off maxStepsPerFrame,
-- the book's unbounded catch-up) would leave the CLI's frame after the script unbounded.
-- In a sandbox the caps can only be lowered.
-- expect: World.maxStepsPerFrame: maxStepsPerFrame must be from 1 to 16 in a sandbox \(got 0\)
-- output: maxContactPairs must be from 0 to 20000 in a sandbox \(got 1000000\)
-- exit: 1
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 2 --at 10000000
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, 100} }
world:addBody{ mass = 1, position = {0, 0} }:addCircle{ radius = 5 }
for _, key in ipairs{ "maxBodies", "maxShapes", "maxConstraints", "maxContactPairs" } do
  print(select(2, pcall(function() world[key] = 1e6 end)))
end
world.maxContactPairs = 100   -- lowering is fine
world.maxStepsPerFrame = 0
