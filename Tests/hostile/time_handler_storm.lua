-- 2,000 tap handlers and 5,000 taps queued for the frames after the script: 10 million Lua
-- calls. Only the time inside Lua counted towards the time limit, not the engine's work of
-- making each call (the event table, the call itself), so the frame ran 12 s (debug) with a
-- 0.3 s limit. A callback's whole call now counts, and once the script is finished its
-- handlers are dropped at their first refused call (the Lua fuzzer's timeout).
-- expect: time limit
-- exit: 3
-- args: --instruction-limit 1000000000 --memory-limit 64 --time-limit 1 --size 64x64 --fps 10 --frames 5
local ca = require "caluna"
for _ = 1, 2000 do ca.on("tap", function() end) end
for i = 1, 5000 do ca.send{ type = "tap", x = 1, y = 1, time = 0.05 + i * 1e-5 } end
print("queued " .. ca.pendingEvents())
