-- gsub over 8 MB (8 million replacements) in a loop.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 128 --time-limit 5
local s = ("x"):rep(8 << 20)
for i = 1, 1e9 do local r = s:gsub("x", "y") end
