local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
-- Misuse raises clear Lua errors (naming the API, the expectation and the
-- given value) and the engine stays usable afterwards (DESIGN §4 "Lua").
local ca = require "caluna"
local T = FUZZ_T-- A small scene every test builds first: white root, a blue square at (10,10,20,20).
local function scene()
  ca.root.backgroundColor = "#ffffff"
  local l = ca.Layer{ frame = {10, 10, 20, 20}, backgroundColor = "#0000ff", name = "probe" }
  ca.root:addSublayer(l)
  return l
end

-- The scene is unchanged and still renders correctly.
local function healthy(l)
  T.eq(l.frame, {10, 10, 20, 20}, "the layer's frame survived")
  T.eq(l.backgroundColor, {r = 0, g = 0, b = 1, a = 1}, "the layer's colour survived")
  local img = ca.render()
  T.pixel(img, 20, 20, "#0000ff")
  T.pixel(img, 5, 5, "#ffffff")
  T.pixel(img, 35, 35, "#ffffff")
  local extra = ca.Layer{ frame = {40, 0, 10, 10}, backgroundColor = "#ff0000" }
  ca.root:addSublayer(extra)
  T.pixel(ca.render(), 45, 5, "#ff0000", 3, "a new layer still draws")
  extra:removeFromSuperlayer()
end

local opts = { size = {50, 50} }

T.test("errors: a failing layoutSublayers makes render raise with its file:line", function()
  local l = scene()
  local line
  local P = ca.Layer{ frame = {0, 0, 50, 50} }
  ca.root:insertSublayer(P, 1)
  ca.render()
  P.layoutSublayers = function(self) line = debug.getinfo(1, "l").currentline; error("layout went wrong") end
  P:setNeedsLayout()
  local msg = T.raises(function() ca.render() end, "layout went wrong")
  T.truthy(line, "the callback ran")
  T.truthy(msg:find("errors.lua:" .. line .. ": layout went wrong", 1, true), "file:line expected, got: " .. msg)
  healthy(l)                          -- the failed pass is over: later renders work
  -- ca.step and layoutIfNeeded report it the same way.
  P:setNeedsLayout()
  T.raises(function() ca.step(0) end, "errors.lua:" .. line .. ": layout went wrong")
  P:setNeedsLayout()
  T.raises(function() P:layoutIfNeeded() end, "layout went wrong")
  -- A non-string error object is reported too.
  P.layoutSublayers = function() error({}) end
  P:setNeedsLayout()
  T.raises(function() ca.render() end, "table")
  -- A fixed callback runs normally.
  local calls = 0
  P.layoutSublayers = function() calls = calls + 1 end
  P:setNeedsLayout()
  healthy(l)
  T.eq(calls, 1)
end, opts)

