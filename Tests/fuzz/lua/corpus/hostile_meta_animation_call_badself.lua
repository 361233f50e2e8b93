-- The animation classes' __call with a bad self: today the binding reads a field of a
-- number as if it were a table (a crash). Then a 600 MB string and a 1.6 GB table under a 256 MiB cap.
-- expect: not enough memory
-- args: --instruction-limit 1000000000 --memory-limit 256 --time-limit 5
local ca = require "caluna"
for _, class in ipairs{ "BasicAnimation", "KeyframeAnimation", "SpringAnimation", "AnimationGroup", "Transition" } do
  pcall(function() return getmetatable(ca[class]).__call(5) end)
  pcall(function() return getmetatable(ca[class]).__call("x", {}) end)
end
pcall(string.rep, "x", 600 << 20)         -- must fail: the RSS check catches a success
local t = {}
for i = 1, 1e8 do t[i] = i end           -- 1.6 GB of table under the cap
ca.root.name = tostring(#t)
