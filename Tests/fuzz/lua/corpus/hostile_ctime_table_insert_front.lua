-- table.insert at position 1 of a million-element table, in a loop: O(n) each.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 20000000 --memory-limit 64 --time-limit 5
local t = {}
for i = 1, 1e6 do t[i] = i end
for i = 1, 1e9 do table.insert(t, 1, i) end
