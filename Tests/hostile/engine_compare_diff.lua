-- img:compare returns a diff image (engine memory) each time; 100 of them kept.
-- expect: memory limit
-- args: --instruction-limit 10000000 --memory-limit 16 --time-limit 5
local ca = require "caluna"
ca.setup{ size = {1024, 1024} }
local a = ca.render()
local keep = {}
for i = 1, 100 do local _, _, diff = a:compare(a); keep[i] = diff end
