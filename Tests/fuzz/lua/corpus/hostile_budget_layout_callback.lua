-- A layoutSublayers callback that catches the budget error forever, run by the CLI's render.
-- expect: instruction budget exhausted
-- exit: 3
local ca = require "caluna"
local l = ca.Layer{ frame = {0, 0, 10, 10} }
ca.root:addSublayer(l)
l.layoutSublayers = function() while true do pcall(function() while true do end end) end end
l:setNeedsLayout()
