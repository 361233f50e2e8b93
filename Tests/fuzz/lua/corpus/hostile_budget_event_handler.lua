-- An event handler that catches the budget error forever, and re-sends its event.
-- expect: instruction budget exhausted
-- exit: 3
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --frames 2
local ca = require "caluna"
ca.on("boom", function()
  pcall(ca.send, { type = "custom", name = "boom" })
  while true do pcall(function() while true do end end) end
end)
ca.send{ type = "custom", name = "boom" }
