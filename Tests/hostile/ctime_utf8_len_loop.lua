-- utf8.len (and utf8.offset) over 14 MiB, in a loop.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 128 --time-limit 5
local s = ("é"):rep(7 << 20)
for i = 1, 1e9 do local n = utf8.len(s); local ok = utf8.offset(s, -1) end
