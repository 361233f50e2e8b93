-- print in a loop past a 16 KiB output cap; then the loop runs out of budget.
-- expect: instruction budget exhausted|time limit
-- exit: 3
-- output: output limit
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --output-limit 16
local line = ("y"):rep(1000)
for i = 1, 1e9 do pcall(print, line, i) end
