-- coroutine.wrap / coroutine.resume return the budget error as a value; the loop goes on.
-- expect: instruction budget exhausted
-- exit: 3
while true do
  pcall(coroutine.wrap(function() while true do end end))
  coroutine.resume(coroutine.create(function() while true do end end))
  coroutine.close(coroutine.create(function() end))
end
