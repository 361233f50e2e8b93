local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
-- Random misuse from Lua, deterministic (fixed seed): every property key with
-- values of every shape, every method with random arguments. Nothing may crash
-- the host; errors must be caluna's clear messages; the engine keeps rendering.
local ca = require "caluna"
local T = FUZZ_Tlocal keys = {}
for _, p in ipairs(ca.properties()) do keys[#keys + 1] = p.key end
for _, k in ipairs { "sublayers", "superlayer", "layoutSublayers", "cornerRadius", "contents", "nope", "",
                      "actions", "style", "delegate", "defaultActionForKey" } do
  keys[#keys + 1] = k
end
local methods = { "addSublayer", "insertSublayer", "insertSublayerAbove", "insertSublayerBelow",
  "replaceSublayer", "removeFromSuperlayer", "convertPointFromLayer", "convertPointToLayer",
  "convertRectFromLayer", "convertRectToLayer", "containsPoint", "hitTest", "setNeedsLayout",
  "needsLayout", "layoutIfNeeded", "valueForKeyPath", "setValueForKeyPath", "actionForKey" }
local transactionCalls = { "begin", "commit", "flush", "setAnimationDuration", "setDisableActions",
  "setAnimationTimingFunction", "setCompletionBlock", "valueForKey" }
local keyPaths = { "position.x", "bounds.size.width", "bounds.origin", "frame.size", "position.z",
  "opacity.x", "transform", "backgroundColor", "name", "..", "", "position." }

T.test("fuzz: 20,000 random property writes, method calls and module calls", function()
  math.randomseed(20261122)
  local layers = { ca.root }
  for _ = 1, 8 do layers[#layers + 1] = ca.Layer{ bounds = {0, 0, 20, 20} } end
  local specials = { 0 / 0, math.huge, -math.huge, 1e300, -1e300, 1e9, -1, 0, 2 ^ 53, 0.5 }
  local function value()
    local r = math.random(18)
    if r == 1 then return nil
    elseif r == 2 then return specials[math.random(#specials)]
    elseif r == 3 then return math.random() * 200 - 50
    elseif r == 4 then return ({ "red", "#zzz", "#12345", "", "transparent", "x" })[math.random(6)]
    elseif r == 5 then return math.random(2) == 1
    elseif r == 6 then return { specials[math.random(#specials)], math.random(100) }
    elseif r == 7 then return { math.random(100), math.random(100), math.random(100), math.random(100) }
    elseif r == 8 then return { x = math.random(100), y = "no" }
    elseif r == 9 then return { width = math.random(100), height = math.random(100) }
    elseif r == 10 then return { r = math.random(), g = 2, b = 0 }
    elseif r == 11 then return ca.Transform3D.rotation(math.random() * 7, math.random(), math.random(), math.random())
    elseif r == 12 then return ca.Transform3D.scale(0, 0)
    elseif r == 13 then return layers[math.random(#layers)]
    elseif r == 14 then return { layers[math.random(#layers)], layers[math.random(#layers)] }
    elseif r == 15 then return function() end
    elseif r == 16 then return setmetatable({}, { __index = function() error("metamethods must not run") end })
    elseif r == 17 then return ca.Transform3D{ 1, 0, 0, 0.01, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }
    else return keyPaths[math.random(#keyPaths)] end
  end
  local ok, errors = 0, 0
  for i = 1, 20000 do
    local l = layers[math.random(#layers)]
    local r = math.random(10)
    local fine, err
    if r <= 5 then
      local v = value()
      fine, err = pcall(function() l[keys[math.random(#keys)]] = v end)
    elseif r <= 7 then
      fine, err = pcall(function() return l[keys[math.random(#keys)]] end)
    elseif r <= 9 then
      local m = methods[math.random(#methods)]
      local a, b = value(), value()
      fine, err = pcall(function() return l[m](l, a, b) end)
    else
      local f = ({ "step", "advance", "setup", "render", "color", "Transaction" })[math.random(6)]
      local a = value()
      if f == "setup" then a = { size = value(), scale = value() } end
      -- A string would make ca.render write a PNG into the working directory.
      if f == "render" and type(a) == "string" then a = nil end
      if f == "Transaction" then
        fine, err = pcall(ca.Transaction[transactionCalls[math.random(#transactionCalls)]], a)
      else
        fine, err = pcall(ca[f], a)
      end
    end
    if fine then
      ok = ok + 1
    else
      errors = errors + 1
      local msg = tostring(err)
      -- Scripts' own errors (from a callback or a metamethod) pass through unchanged.
      if not (msg:find("caluna: ", 1, true) or msg:find("layoutSublayers", 1, true)
              or msg:find("metamethods must not run", 1, true)) then
        error(string.format("call %d raised an unclear error: %s", i, msg))
      end
    end
  end
  T.truthy(ok > 1000 and errors > 1000, string.format("both paths exercised (%d ok, %d errors)", ok, errors))
  -- Whatever happened, a clean state renders (set without implicit animations).
  while ca.Transaction.depth() > 0 do ca.Transaction.commit() end
  ca.Transaction.setDisableActions(true)
  ca.setup{ size = {40, 30}, scale = 1 }
  ca.root.sublayers = {}
  ca.root:removeAllAnimations()   -- implicit ones from the random writes too
  ca.root.transform = ca.Transform3D.identity
  ca.root.frame = {0, 0, 40, 30}
  ca.root.hidden = false
  ca.root.opacity = 1
  ca.root.backgroundColor = "blue"
  ca.root.borderWidth = 0
  ca.root.sublayerTransform = ca.Transform3D.identity
  local img = ca.render()
  T.eq(img.width, 40)
  T.pixel(img, 20, 15, "blue")
end)

