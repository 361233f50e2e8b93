-- string.rep of 15 MiB in a loop (each one fits the memory cap and the sandbox's 16 MiB
-- string limit; a 100 MB string is refused by that limit outright).
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 128 --time-limit 5
for i = 1, 1e9 do local s = ("x"):rep(15 << 20) end
