-- Custom events carrying a 50,000-entry table, queued 300 times: each queued event holds a
-- copy of the payload in engine memory.
-- expect: memory limit|not enough memory
-- args: --instruction-limit 20000000 --memory-limit 16 --time-limit 5
local ca = require "caluna"
local data = {}
for i = 1, 5e4 do data[i] = i end
for i = 1, 300 do ca.send{ type = "custom", name = "payload", data = data, time = 1000 } end
