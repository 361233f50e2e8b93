-- xpcall whose body and message handler both spin, in a loop.
-- expect: instruction budget exhausted
-- exit: 3
while true do
  xpcall(function() while true do end end, function() while true do end end)
end
