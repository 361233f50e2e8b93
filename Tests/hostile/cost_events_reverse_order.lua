-- 50,000 events sent in reverse time order, each at its own instant, then one step over all
-- of them: a sorted array cost O(n) per send and per delivery (4.4 s in release). Now a heap:
-- O(n log n). The step visits 10,000 instants exactly and delivers the rest at its end.
-- output: delivered 50000 in order, pending 0
-- exit: 0
-- args: --instruction-limit 100000000 --memory-limit 256 --time-limit 8
local ca = require "caluna"
local N = 50000
local got, last, ordered = 0, -1, true
ca.on("n", function(e)
  got = got + 1
  if e.time < last then ordered = false end
  last = e.time
end)
for i = N, 1, -1 do ca.send{ type = "custom", name = "n", time = i / 1000 } end
ca.step(N / 1000 + 1)
print(string.format("delivered %d%s, pending %d", got, ordered and " in order" or " OUT OF ORDER", ca.pendingEvents()))
