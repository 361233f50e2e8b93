-- 60 replicators of 2 instances nested in one another: 2^61 − 2 layers to draw. The render
-- counts what its replicators would draw before drawing any and refuses past 1,000,000.
-- expect: one render would draw 2305843009213693950 replicated layers \(at most 1000000 per render
-- exit: 1
local ca = require "caluna"
local parent = ca.root
for _ = 1, 60 do
  local r = ca.ReplicatorLayer{ frame = {0, 0, 10, 10}, instanceCount = 2,
                                instanceTransform = ca.Transform3D.translation(1, 0, 0) }
  parent:addSublayer(r)
  parent = r
end
parent:addSublayer(ca.Layer{ frame = {0, 0, 1, 1}, backgroundColor = "red" })
ca.render()
