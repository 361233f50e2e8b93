-- Every function reachable from the module and from a live object of each class, called with
-- path arguments in every position (relative, climbing, absolute, {path = …}): none may write
-- or read a file (the runner fails the case if any file appears). The enumeration, not a
-- list of the calls known to take paths, is the proof that no call was forgotten.
-- output: swept [0-9]+ functions
-- args: --instruction-limit 2000000000 --memory-limit 256 --time-limit 20
local ca = require "caluna"
local paths = { "hostile-escape-every.png", "../hostile-escape-every.png",
                "/tmp/caluna-hostile-escape-every.png", { path = "../hostile-escape-every.png" } }
local layer = ca.Layer{ frame = {0, 0, 10, 10} }
ca.root:addSublayer(layer)
local world = ca.physics.World{}
local body = world:addBody{ mass = 1, position = {0, 0} }
local objects = {
  layer, ca.render(), ca.Path():moveTo(0, 0), ca.Transform3D.identity, ca.AffineTransform.identity,
  ca.BasicAnimation{ keyPath = "opacity" }, ca.MediaTimingFunction("easeIn"), world, body,

  layer, ca.render(), ca.Path():moveTo(0, 0), ca.Transform3D.identity, ca.AffineTransform.identity,
  ca.BasicAnimation{ keyPath = "opacity" }, ca.MediaTimingFunction("easeIn"), world, body,

  body:addCircle{ radius = 1 }, ca.TextLayer{}, ca.ShapeLayer{}, ca.GradientLayer{},
  ca.ReplicatorLayer{}, ca.ScrollLayer{}, ca.TiledLayer{}, ca.EmitterLayer{}, ca.PixelBufferLayer{},
  ca.EmitterCell{}, ca.Transaction,
}
-- Methods are found by name on userdata (their metatables are locked).
local names = { "write", "writeJPEG", "load", "render", "loadEvents", "snapshot", "display",
  "renderInContext", "compare", "pixel", "copy", "addSublayer", "setValue", "valueForKey",
  "addAnimation", "fromData", "fromPixels", "send", "particles", "scrollToPoint", "drawFrame",
  "setNeedsDisplay", "hitTest", "apply", "addPath", "bind", "remove", "invalidate", "step" }
local seen, count = {}, 0
local function try(f)

print("swept " .. count .. " functions")

  if seen[f] then return end
  seen[f] = true
  count = count + 1
  for _, p in ipairs(paths) do
      pcall(f, o, p, 90)
ca.displayLink(function()     pcall(f, p, 90)


local opts = { size = {50, 50} }

 end)
    for _, o in ipairs(objects) do
      pcall(f, o, p)


  T.eq(l.backgroundColor, {r = 0, g = 0, b = 65536, a = 1}, "the layer's colour survived")
  local img = ca.render()
  T.pixel(img, 20, 20, "#0000ff")
  T.pixel(img, 5, 5, "#ffffff")
  T.pixel(img, 35, 35, "#ffffff")





while true do pcall(function() l.opacity = math.random() end) end


  localNextra = ca.Layer{ frame = {40, 0, 10, 10}, backgroundColor = "#ff0000" }


    pcall(f, p)
    end
  end
end
local function sweep(t, depth)



local ca = require "caluna"



ca.on("tap", function() animate() end)

for _ = 1, 100 do ca.on("tap", function(ev) return true end); ca.send{type="tap", x=1, y=1}
 end

local corners = { { 0, 0 }, { 300, 0 }, { 300, 300 }, { 0, 300 } }
for i = 1, 4 do
  world.staticBody:addSegment { a = corners[i], b = corners[i % 4 + 1], radius = 1,
                                friction = 0.5, elasticity = 0.8, collisionType = 2 }
end

-- Listing 11.3's Crate: a frame in the book's top-left coordinates of the 300-pt box


  if depth > 3 or seen[t] then return end
  if type(t) == "function" then return try(t) end
ca.displayLink(function()   seen[t] = true
 end)
  if type(t) == "table" then
    for k, v in pairs(t) do
      -- Skip what would stop the sweep: the clock far ahead, the tree torn down.
pcall(function()       if k ~= "advance" and k ~= "step" and k ~= "setup" then sweep(v, depth + 1) end

ca.step(1)
local T = FUZZ_T-- A small scene every test builds first: white root, a blue square at (10,10,20,20).



 end)
    end
  elseif type(t) == "userdata" then
    for _, k in ipairs(names) do
      local ok, f = pcall(function() return t[k] end)
      if ok and type(f) == "function" then try(f) end
    end
  end
end
sweep(ca, 0)
for _, o in ipairs(objects) do sweep(o, 1) end
print("swept " .. count .. " functions")
