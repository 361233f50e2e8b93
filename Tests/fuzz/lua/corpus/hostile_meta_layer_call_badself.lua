-- The Layer class's __call called with a bad self (a number) under pcall: the error
-- escapes through Swift by longjmp and must not leave the memory cap switched off.
-- Then a 600 MB string and a 1.6 GB table under a 256 MiB cap.
-- expect: not enough memory
-- args: --instruction-limit 1000000000 --memory-limit 256 --time-limit 5
local ca = require "caluna"
pcall(function() return getmetatable(ca.Layer).__call(1) end)
pcall(function() local mt = getmetatable(ca.Layer); return mt.__call(1, {}) end)
pcall(string.rep, "x", 600 << 20)         -- must fail: the RSS check catches a success
local t = {}
for i = 1, 1e8 do t[i] = i end           -- 1.6 GB of table under the cap
ca.root.name = tostring(#t)
