-- Two nested replicators of 10,000 instances: one ca.render would draw 10^8 layers; the render
-- counts them before drawing any and refuses past 1,000,000.
-- expect: one render would draw 100010000 replicated layers
-- exit: 1
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 2
local ca = require "caluna"
local outer = ca.ReplicatorLayer{ frame = {0, 0, 100, 100}, instanceCount = 10000 }
local inner = ca.ReplicatorLayer{ frame = {0, 0, 100, 100}, instanceCount = 10000 }
inner:addSublayer(ca.Layer{ frame = {0, 0, 1, 1}, backgroundColor = "red" })
outer:addSublayer(inner)
ca.root:addSublayer(outer)
ca.render()
