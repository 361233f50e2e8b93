-- A keyframe animation with 100,000 values, attached 300 times (each attachment is a copy
-- in engine memory).
-- expect: memory limit|not enough memory
-- args: --instruction-limit 20000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local l = ca.Layer{ frame = {0, 0, 10, 10} }
ca.root:addSublayer(l)
local values = {}
for i = 1, 1e5 do values[i] = i % 2 end
local a = ca.KeyframeAnimation{ keyPath = "opacity", values = values, duration = 100 }
for i = 1, 300 do l:addAnimation(a, "k" .. i) end
