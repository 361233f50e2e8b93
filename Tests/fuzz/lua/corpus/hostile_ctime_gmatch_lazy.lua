-- string.gmatch and string.match with the same kind of pattern.
-- expect: instruction budget exhausted|time limit
-- exit: 3
local s = ("a"):rep(5000)
for _ in s:gmatch("a-a-a-a-b") do end
local m = s:match("(.-)(.-)(.-)b")
