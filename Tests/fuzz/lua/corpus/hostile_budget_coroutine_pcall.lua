-- Nested pcalls inside coroutines inside a pcall loop: every level catches.
-- expect: instruction budget exhausted
-- exit: 3
while true do
  pcall(function()
    local co = coroutine.create(function()
      while true do pcall(function() while true do end end) end
    end)
    while true do coroutine.resume(co) end
  end)
end
