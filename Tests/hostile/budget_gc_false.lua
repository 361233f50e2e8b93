-- __gc = false marks the table for finalization (Lua checks for a non-nil field); the real
-- finalizer is put in afterwards. A check for a *function* __gc misses it.
-- expect: __gc.*not allowed in the sandbox
local mt = { __gc = false }
keep = setmetatable({}, mt)
mt.__gc = function() while true do pcall(function() while true do end end) end end
local o = setmetatable({}, mt)
o = nil
collectgarbage()
