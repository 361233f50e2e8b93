-- table.concat of 15 MiB in a loop.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 128 --time-limit 5
local t = {}
local piece = ("x"):rep(4096)
for i = 1, 3840 do t[i] = piece end
for i = 1, 1e9 do local s = table.concat(t) end
