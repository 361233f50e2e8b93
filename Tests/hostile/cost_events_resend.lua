-- Handlers that answer every event with two more, a millisecond later: without a cap one
-- step would loop over ever more instants (more than 30 s). Callbacks may send at most 10,000
-- events during one step; the 10,001st send is an error the handler sees.
-- output: refused: .*at most 10000 events during one step
-- exit: 0
-- args: --instruction-limit 100000000 --memory-limit 256 --time-limit 8
local ca = require "caluna"
local refused
ca.on("ping", function(e)
  for _ = 1, 2 do
    local ok, err = pcall(ca.send, { type = "custom", name = "ping", time = e.time + 0.001 })
    if not ok and not refused then refused = err end
  end
end)
ca.send{ type = "custom", name = "ping", time = 0.001 }
ca.step(100)
print("refused: " .. tostring(refused))
