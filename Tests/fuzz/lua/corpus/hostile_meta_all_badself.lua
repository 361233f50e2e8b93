-- Every function reachable from the module, from its class tables' metatables and from the
-- objects' metatables and methods, called under pcall with wrong selfs and arguments (numbers,
-- strings, tables whose __index raises, userdata of another type). No call may crash, hang
-- or leave the memory cap off: a 600 MB string and a 1.6 GB table under a 256 MiB cap must still fail.
-- expect: not enough memory
-- args: --instruction-limit 1000000000 --memory-limit 256 --time-limit 8
local ca = require "caluna"
local evil = setmetatable({}, { __index = function() error("raised inside a binding") end,
                                __newindex = function() error("raised inside a binding") end,
                                __len = function() error("raised inside a binding") end })
local layer = ca.Layer{ frame = {0, 0, 10, 10} }
ca.root:addSublayer(layer)
local world = ca.physics.World{}
local body = world:addBody{ mass = 1, position = {0, 0} }
local objects = {
  layer, ca.render(), ca.Path():moveTo(0, 0), ca.Transform3D.identity, ca.AffineTransform.identity,
  ca.BasicAnimation{ keyPath = "opacity" }, ca.MediaTimingFunction("easeIn"), world, body,
  body:addCircle{ radius = 1 }, ca.on("tick", function() end), ca.TextLayer{}, ca.ShapeLayer{},
  ca.after(10, function() end), ca.displayLink(function() end), ca.Transaction, ca.null,
}
local wrong = { 1, "x", true, evil, {}, function() end }
for _, o in ipairs(objects) do wrong[#wrong + 1] = o end
local seen = {}
local function try(f)
  if seen[f] then return end
  seen[f] = true
  for _, a in ipairs(wrong) do
    pcall(f, a)
    pcall(f, a, a)
    pcall(f, a, "x", evil)
    pcall(f, a, evil, 1)
  end
end
local names = { "addSublayer", "removeFromSuperlayer", "snapshot", "display", "pixel", "write", "lineTo",
  "addPath", "translate", "concat", "invert", "evaluate", "addBody", "addCircle", "remove", "invalidate",
  "setValue", "valueForKey", "copy", "apply", "bind", "hitTest", "renderInContext", "addAnimation",
  "compare", "applyTransform", "begin", "commit", "setCompletionBlock", "on", "off" }
local function sweep(t, depth)
  if depth > 2 then return end
  if type(t) == "function" then return try(t) end
  local mt = getmetatable(t)
  if type(mt) == "table" then
    for k, v in pairs(mt) do
      if type(v) == "function" and k ~= "__gc" then try(v) end
    end
    if type(mt.__index) == "table" then sweep(mt.__index, depth + 1) end
  end
  if type(t) == "table" then
    for _, v in pairs(t) do sweep(v, depth + 1) end
  elseif type(t) == "userdata" then
    for _, k in ipairs(names) do
      local ok, f = pcall(function() return t[k] end)
      if ok and type(f) == "function" then try(f) end
    end
  end
end
sweep(ca, 0)
for _, o in ipairs(objects) do sweep(o, 1) end
pcall(string.rep, "x", 600 << 20)         -- must fail: the RSS check catches a success
local t = {}
for i = 1, 1e8 do t[i] = i end           -- 1.6 GB of table under the cap
ca.root.name = tostring(#t)
