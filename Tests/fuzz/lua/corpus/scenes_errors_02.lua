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

T.test("errors: a size expects {w, h}", function()
  local l = scene()
  T.raises(function() l:setValueForKeyPath("x", "bounds.size") end, 'bounds.size expects a size {w, h}, got string "x"')
  T.raises(function() ca.setup{ size = "x" } end, "ca.setup size expects a size {w, h}")
  T.raises(function() ca.setup{ size = {100} } end, "ca.setup size expects a size")
  T.eq({ca.size()}, {50, 50}, "the output size is unchanged")
  healthy(l)
end, opts)

