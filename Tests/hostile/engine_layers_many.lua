-- A million layers held by Lua (the Swift side of each is engine memory).
-- expect: memory limit|not enough memory
-- args: --instruction-limit 100000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local keep = {}
for i = 1, 1e6 do keep[i] = ca.Layer() end
