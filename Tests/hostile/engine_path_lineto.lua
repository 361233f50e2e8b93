-- Millions of lineTo segments, one call each.
-- expect: memory limit
-- args: --instruction-limit 200000000 --memory-limit 16 --time-limit 5
local ca = require "caluna"
local p = ca.Path():moveTo(0, 0)
for i = 1, 2e7 do p:lineTo(i % 100, i % 77) end
