local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
-- What all of chapter 6's specialised layers share: creation by class name (T6.4), one
-- property table per class (a key of another class is an error naming its owner), the
-- generic paths (key paths, ca.properties, dump), group opacity over a kind's own content,
-- and transitions over them. Each class's listings are in ch06_<kind>_layer.lua.
local ca = require "caluna"
local T = FUZZ_Tlocal classes = { "ShapeLayer", "TextLayer", "GradientLayer", "ReplicatorLayer", "ScrollLayer",
                  "TiledLayer", "EmitterLayer", "PixelBufferLayer" }

T.test("drawFrame is a PixelBufferLayer's: on any other class it is an error, not ignored", function()
  T.raises(function() ca.Layer().drawFrame = function() end end, "CALayer has no drawFrame")
  T.raises(function() ca.ShapeLayer{ drawFrame = function() end } end, "belongs to PixelBufferLayer")
  local p = ca.PixelBufferLayer()
  p.drawFrame = function() end
  T.eq(type(p.drawFrame), "function")
end)

