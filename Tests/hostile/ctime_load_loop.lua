-- load (compile) of an 8 MB chunk, in a loop.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 128 --time-limit 5
local chunk = ("a=1\n"):rep(2 << 20)
for i = 1, 1e9 do local f = load(chunk) end
