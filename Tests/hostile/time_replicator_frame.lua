-- The same tree, left for the CLI to render as its frame after the script ended: the
-- render counts what its replicators would draw (10^8 layers) and refuses it before drawing.
-- expect: one render would draw 100010000 replicated layers
-- exit: 1
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 2
local ca = require "caluna"
local outer = ca.ReplicatorLayer{ frame = {0, 0, 100, 100}, instanceCount = 10000 }
local inner = ca.ReplicatorLayer{ frame = {0, 0, 100, 100}, instanceCount = 10000 }
inner:addSublayer(ca.Layer{ frame = {0, 0, 1, 1}, backgroundColor = "red" })
outer:addSublayer(inner)
ca.root:addSublayer(outer)
