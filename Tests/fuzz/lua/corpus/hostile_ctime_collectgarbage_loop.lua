-- A full collection of a 40 MB heap of small tables, in a loop.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 5000000 --memory-limit 64 --time-limit 5
local t = {}
for i = 1, 4e5 do t[i] = { i } end
for i = 1, 1e9 do collectgarbage() end
