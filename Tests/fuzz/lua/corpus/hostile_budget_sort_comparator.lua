-- table.sort with a comparator that spins, under pcall, in a loop.
-- expect: instruction budget exhausted
-- exit: 3
local t = {}
for i = 1, 100 do t[i] = 101 - i end
while true do pcall(table.sort, t, function() while true do end end) end
