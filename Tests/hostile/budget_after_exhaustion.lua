-- After the budget is spent, everything fails at once: the error handler, a new coroutine,
-- a caluna call. The loop catches each failure and tries again.
-- expect: instruction budget exhausted
-- exit: 3
local ca = require "caluna"
pcall(function() while true do end end)
while true do
  pcall(ca.render)
  xpcall(error, function() while true do end end)
  pcall(coroutine.wrap(function() while true do end end))
  pcall(ca.step, 1 / 60)
end
