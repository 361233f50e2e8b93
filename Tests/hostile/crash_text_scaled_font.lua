-- Text whose font size × scale² reaches FreeType's 65,536 pixels per em: cairo kept the
-- failed font for the life of the process (a leak the C fuzzer's LeakSanitizer found) and
-- pango warned on stderr. A draw callback's scale and a text layer's contentsScale are
-- both refused with a clear error before pango sees the font.
-- output: callback refused: .*too large to draw.*text layer refused: .*too large to draw
-- exit: 0
local ca = require "caluna"
local result
local layer = ca.Layer{ frame = {0, 0, 20, 20} }
ca.root:addSublayer(layer)
layer.draw = function(_, ctx)
  ctx:scale(80, 80)
  local ok, err = pcall(ctx.showText, ctx, "Hi", 0, 0)
  result = "callback " .. (ok and "drew" or "refused: " .. tostring(err))
end
layer:setNeedsDisplay()
ca.render()
local t = ca.TextLayer{ frame = {0, 0, 40, 40}, string = "Hi", fontSize = 300, contentsScale = 16 }
ca.root:addSublayer(t)
local ok, err = pcall(ca.render)
print(result .. "; text layer " .. (ok and "drew" or "refused: " .. tostring(err)))
t:removeFromSuperlayer()
