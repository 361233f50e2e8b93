-- A caluna object's own __gc called by hand, twice, then the object used and collected:
-- a double release or a use after free. Then a 600 MB string and a 1.6 GB table under a 256 MiB cap.
-- expect: not enough memory
-- args: --instruction-limit 1000000000 --memory-limit 256 --time-limit 5
local ca = require "caluna"
local layer = ca.Layer{ frame = {0, 0, 10, 10} }
local img = ca.render()
for _, o in ipairs{ layer, img, ca.Path(), ca.Transform3D.identity, ca.BasicAnimation{} } do
  local mt = getmetatable(o)
  if type(mt) == "table" and mt.__gc then
    pcall(mt.__gc, o); pcall(mt.__gc, o)
    pcall(function() return tostring(o), o.width, o.name end)
  end
end
pcall(function() ca.root:addSublayer(layer); ca.root.contents = img; ca.render() end)
layer, img = nil, nil
collectgarbage(); collectgarbage()
pcall(string.rep, "x", 600 << 20)         -- must fail: the RSS check catches a success
local t = {}
for i = 1, 1e8 do t[i] = i end           -- 1.6 GB of table under the cap
ca.root.name = tostring(#t)
