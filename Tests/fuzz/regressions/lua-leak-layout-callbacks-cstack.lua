-- Leak (found by the Lua fuzzer, 2026-11-26; fixed). Layers made in layout callbacks nested
-- in layoutIfNeeded, with "C stack overflow" errors caught by pcall on the way, were never
-- freed, not even by caluna_engine_destroy: the collector ran their proxies' finalizers deep
-- in the nested calls, where Lua cannot start a finalizer ("C stack overflow", reported as a
-- warning), and freed the proxies without them, so their retain of the Layer was never
-- given back. The retain now lives in a ledger the state's close drains
-- (RetainedUserdata, Sources/CalunaLua/LuaSupport.swift).
local ca = require "caluna"
local function deep()
  local l = ca.Layer{ frame = {0, 0, 1, 1} }
  l.layoutSublayers = function() deep() end
  pcall(deep)
  l:setNeedsLayout()
  l:layoutIfNeeded()
end
pcall(deep)
