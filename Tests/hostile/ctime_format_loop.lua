-- string.format('%s') and '%q' of a 7 MiB string, in a loop.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 128 --time-limit 5
local big = ("x"):rep(7 << 20)
for i = 1, 1e9 do local a = string.format("%s", big); local b = string.format("%q", big) end
