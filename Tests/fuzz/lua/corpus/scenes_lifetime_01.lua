local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
-- Layer lifetime across the Lua boundary: proxies keep layers alive while Lua
-- holds them or the engine's tree does; nothing leaks, callbacks survive GC.
local ca = require "caluna"
local T = FUZZ_Tlocal function settle()
  local _ = ca.root          -- the root counts once it has been seen
  ca.step(0)                 -- sweeps the pins of detached layers
  collectgarbage()
  collectgarbage()
  return ca.stats().liveLayers
end

T.test("layers dropped by Lua are freed", function()
  local base = settle()
  for _ = 1, 1000 do ca.Layer{ bounds = {0, 0, 10, 10} } end
  T.eq(settle(), base)
end)

