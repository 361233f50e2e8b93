-- The Layer class's __call with a self whose __index raises: the error is raised inside
-- the Swift binding (lua_getfield on self). Then a 600 MB string and a 1.6 GB table under a 256 MiB cap.
-- expect: not enough memory
-- args: --instruction-limit 1000000000 --memory-limit 256 --time-limit 5
local ca = require "caluna"
local evil = setmetatable({}, { __index = function() error("raised inside the binding") end })
for _ = 1, 3 do
  pcall(function() return getmetatable(ca.Layer).__call(evil) end)
  pcall(function() return getmetatable(ca.TextLayer).__call(evil, {}) end)
end
pcall(string.rep, "x", 600 << 20)         -- must fail: the RSS check catches a success
local t = {}
for i = 1, 1e8 do t[i] = i end           -- 1.6 GB of table under the cap
ca.root.name = tostring(#t)
