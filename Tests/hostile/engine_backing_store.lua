-- Draw callbacks on layers whose backing store is 8192 × 8192 pixels (contentsScale 32):
-- 256 MiB each, made by display().
-- expect: memory limit
-- args: --instruction-limit 10000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local keep = {}
for i = 1, 4 do
  local l = ca.Layer{ frame = {0, 0, 256, 256}, contentsScale = 32 }
  l.draw = function(layer, ctx) end
  l:display()
  keep[i] = l
end
