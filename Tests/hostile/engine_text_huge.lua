-- Text layers of 8192 × 8192 points with 64 KiB strings: each backing store is 256 MiB.
-- expect: memory limit
-- args: --instruction-limit 10000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local text = ("caluna hostile text "):rep(3276)
for i = 1, 3 do
  local t = ca.TextLayer{ frame = {0, 0, 8192, 8192}, string = text, fontSize = 12, wrapped = true }
  ca.root:addSublayer(t)
end
ca.render()
