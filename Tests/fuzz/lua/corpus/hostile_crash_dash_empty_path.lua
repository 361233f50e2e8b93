-- A draw callback that strokes an empty path with a dash pattern: cairo gives no path data
-- for it (NULL), which a force-unwrap trapped on (SIGILL), sandboxed or not.
-- output: survived
-- exit: 0
local ca = require "caluna"
local layer = ca.Layer{ frame = {0, 0, 20, 20} }
ca.root:addSublayer(layer)
layer.draw = function(_, ctx)
  ctx:setLineDash(0, {2, 2})
  ctx:strokePath()
  ctx:beginPath()
  ctx:setLineDash(1, {3, 1})
  ctx:strokePath()
end
layer:setNeedsDisplay()
ca.render()
print("survived")
