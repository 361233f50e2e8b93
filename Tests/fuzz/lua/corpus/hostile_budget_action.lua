-- A layer action (run inside a property assignment, i.e. inside a Swift binding) that
-- catches the budget error forever.
-- expect: instruction budget exhausted
-- exit: 3
local ca = require "caluna"
local l = ca.Layer{ frame = {0, 0, 10, 10} }
ca.root:addSublayer(l)
ca.flush()
l.actions = { opacity = function() while true do pcall(function() while true do end end) end end }
while true do pcall(function() l.opacity = math.random() end) end
