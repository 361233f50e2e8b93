-- One string.find call whose backtracking is exponential (2^30 paths): one C call.
-- expect: instruction budget exhausted|time limit
-- exit: 3
local s = ("a"):rep(30)
local found = s:find(("a?"):rep(30) .. ("a"):rep(30))
