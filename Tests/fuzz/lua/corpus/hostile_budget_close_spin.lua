-- A to-be-closed variable whose __close spins (and catches) while the budget error unwinds.
-- expect: instruction budget exhausted
-- exit: 3
local spin = setmetatable({}, { __close = function()
  while true do pcall(function() while true do end end) end
end })
while true do
  pcall(function()
    local x <close> = spin
    while true do end
  end)
end
