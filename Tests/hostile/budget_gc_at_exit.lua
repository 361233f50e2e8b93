-- A finalizer left for the end: it runs when the host closes the Lua state, after the
-- script finished and outside any budget check of the script itself.
-- expect: __gc.*not allowed in the sandbox
keep = setmetatable({}, { __gc = function() while true do pcall(function() while true do end end) end end })
