-- string.gsub with a replacement function that spins, under pcall, in a loop.
-- expect: instruction budget exhausted
-- exit: 3
local s = ("x"):rep(100)
while true do pcall(string.gsub, s, "x", function() while true do end end) end
