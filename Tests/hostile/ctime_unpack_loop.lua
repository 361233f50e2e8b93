-- table.unpack of 900,000 values (a 900,000-slot stack each time), in a loop.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 20000000 --memory-limit 64 --time-limit 5
local t = {}
for i = 1, 9e5 do t[i] = i end
for i = 1, 1e9 do local n = select("#", table.unpack(t)) end
