-- One string.find call with nested lazy repetitions that never match: O(n^4) in one C call.
-- expect: instruction budget exhausted|time limit
-- exit: 3
local found = ("a"):rep(20000):find(".-.-.-.-b")
