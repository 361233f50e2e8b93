-- table.sort of a million elements, in a loop.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 20000000 --memory-limit 64 --time-limit 5
local t = {}
for i = 1, 1e6 do t[i] = (i * 7919) % 1000003 end
for i = 1, 1e9 do table.sort(t, i % 2 == 0 and function(a, b) return a > b end or nil) end
