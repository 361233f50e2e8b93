-- A finalizer that spins (and catches the budget error), run by collectgarbage.
-- expect: __gc.*not allowed in the sandbox
setmetatable({}, { __gc = function() while true do pcall(function() while true do end end) end end })
collectgarbage()
collectgarbage()
