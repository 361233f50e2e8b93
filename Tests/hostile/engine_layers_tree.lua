-- Layers added to the tree and dropped by Lua: the tree holds them, Lua holds nothing.
-- expect: memory limit|not enough memory
-- args: --instruction-limit 100000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
for i = 1, 1e6 do
  ca.root:addSublayer(ca.Layer{ frame = {i % 300, i % 400, 5, 5}, backgroundColor = "red", name = "layer" })
  if i % 1000 == 0 then collectgarbage("step") end
end
