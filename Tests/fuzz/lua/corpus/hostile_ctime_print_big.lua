-- print of a 15 MiB string eight times (120 MB), then more prints: the output stops at the
-- cap (1 MiB by default) with a line that says so; the runner checks stdout stays under 2 MiB.
-- exit: 0
-- output: output limit
-- args: --instruction-limit 1000000000 --memory-limit 128 --time-limit 5
local s = ("x"):rep(15 << 20)
for i = 1, 8 do pcall(print, s) end
for i = 1, 100 do pcall(print, "more", i) end
