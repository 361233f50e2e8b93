-- Recursion through caluna: a layout callback that makes a layer and lays it out, whose
-- callback does the same… Every level is a Lua call inside a Swift binding. It must stop
-- with an error (no stack overflow crash), and the error unwinding through the bindings
-- must not leave the memory cap off: a 600 MB string and a 1.6 GB table under 256 MiB must then fail.
-- expect: not enough memory
-- args: --instruction-limit 1000000000 --memory-limit 256 --time-limit 5
local ca = require "caluna"
local function deep()
  local l = ca.Layer{ frame = {0, 0, 1, 1} }
  l.layoutSublayers = function() deep() end
  l:setNeedsLayout()
  l:layoutIfNeeded()
end
for _ = 1, 3 do pcall(deep) end
pcall(string.rep, "x", 600 << 20)         -- must fail: the RSS check catches a success
local t = {}
for i = 1, 1e8 do t[i] = i end           -- 1.6 GB of table under the cap
ca.root.name = tostring(#t)
