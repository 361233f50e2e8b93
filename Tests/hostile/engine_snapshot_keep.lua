-- layer:snapshot(1) of a 2048-point layer (16 MiB each, each one alone fits) kept in a table.
-- expect: memory limit
-- args: --instruction-limit 10000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local l = ca.Layer{ frame = {0, 0, 2048, 2048}, backgroundColor = "red" }
local keep = {}
for i = 1, 40 do keep[i] = l:snapshot(1) end
