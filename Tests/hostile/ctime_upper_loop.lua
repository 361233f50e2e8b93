-- string.upper / reverse over 15 MiB, in a loop.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 128 --time-limit 5
local s = ("x"):rep(15 << 20)
for i = 1, 1e9 do local a = s:upper(); local b = s:reverse() end
