-- 5,000 circles in one spot: every pair collides (12.5 million arbiters a step, in
-- Chipmunk's own memory) when the CLI steps to its second frame.
-- expect: memory limit|time limit|instruction budget exhausted
-- exit: 1,3
-- args: --instruction-limit 10000000 --memory-limit 64 --time-limit 2 --frames 2
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, 100} }
for i = 1, 5000 do world:addBody{ mass = 1, position = {0, 0} }:addCircle{ radius = 50 } end
