-- A plain find is O(n·m): 15 MiB of "a" searched for 64 KiB of "a" and a "b".
-- expect: instruction budget exhausted|time limit
-- exit: 3
local s = ("a"):rep(15 << 20)
local p = ("a"):rep(64 << 10) .. "b"
local found = s:find(p, 1, true)
