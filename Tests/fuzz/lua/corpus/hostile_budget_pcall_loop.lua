-- pcall catches the budget error and loops forever.
-- expect: instruction budget exhausted
-- exit: 3
while true do pcall(function() while true do end end) end
