-- The script fails with an error object whose __tostring spins (and catches): the host
-- must not run it without a bound while it reports the error.
-- expect: error object|instruction budget exhausted|time limit
-- exit: 1,3
error(setmetatable({}, { __tostring = function()
  while true do pcall(function() while true do end end) end
end, __name = "evil" }))
