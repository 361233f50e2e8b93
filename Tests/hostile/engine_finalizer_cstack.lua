-- Proxies collected where Lua cannot start their finalizers: 2,000 layers made in layout
-- callbacks nested through pcall and layoutIfNeeded until "C stack overflow", so the
-- collector runs deep in the nested calls and some finalizers fail to start (Lua frees the
-- proxy without them). Their layers are released when the state closes (the sanitizer run
-- of this corpus reports a leak otherwise) and the script ends normally.
-- exit: 0
-- output: ^made 2000 \([0-9]+ nested calls failed\)
-- args: --instruction-limit 100000000 --memory-limit 256 --time-limit 10
local ca = require "caluna"
local made, caught = 0, 0
local function deep()
  if made == 2000 then return end
  made = made + 1
  local l = ca.Layer{ frame = {0, 0, 1, 1} }
  l.layoutSublayers = function() deep() end
  if not pcall(deep) then caught = caught + 1 end
  l:setNeedsLayout()
  l:layoutIfNeeded()
end
pcall(deep)
print("made " .. made .. " (" .. caught .. " nested calls failed)")
