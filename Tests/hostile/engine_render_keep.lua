-- Renders of a 2048 × 2048 output (16 MiB each) kept in a table: 40 of them would be
-- 640 MiB under a 64 MiB cap (each one alone fits).
-- expect: memory limit
-- args: --instruction-limit 10000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
ca.setup{ size = {2048, 2048}, scale = 1 }
ca.root.backgroundColor = "navy"
local keep = {}
for i = 1, 40 do keep[i] = ca.render() end
