-- Hostile calls across the Lua/Swift boundary (DESIGN §4, "Two ways Swift can take the host
-- down"). Every caluna function a script can reach — the module table walked recursively, the
-- methods of a live object of each class, the metamethods and registry functions (through the
-- debug library, when the state has one) and the objects only callbacks see (drawing context,
-- pixel buffer, arbiter) — is called under pcall with numbers, nil, booleans, strings, caluna
-- objects of the wrong class and tables whose metamethods all raise. Each call must come back
-- to pcall (a Lua error that longjmps across Swift frames, or a Swift trap, kills the test run)
-- with, when it fails, a string error. Afterwards the Lua heap is sane and a new layer renders.
--
-- Not swept: ca.render, Image:write and Image:writeJPEG get no string arguments (they would
-- write files); __gc metamethods get no live caluna object of their own kind (that would free
-- it, as a collector does); the binding's anchor in the registry is left alone (its __gc ends
-- the module). Whether the memory cap is still enforced afterwards is checked by the host tests.
local ca = require "caluna"
local T = require "caluna.test"
local debug = rawget(_G, "debug")      -- nil in the sandbox: the registry parts are skipped then

local LOCKED = "caluna: locked"
local opts = { size = { 40, 40 } }

---------------------------------------------------------------------------
-- Hostile values

local function raiser(what) return function() error("hostile " .. what .. " ran", 0) end end

-- Every metamethod a binding could trigger raises.
local hostileMeta = {}
for _, m in ipairs { "__index", "__newindex", "__len", "__pairs", "__eq", "__lt", "__le", "__concat",
                     "__call", "__tostring", "__close", "__unm", "__add", "__mul", "__idiv" } do
  hostileMeta[m] = raiser(m)
end
local function hostile(t) return setmetatable(t, hostileMeta) end

-- Userdata a __gc may be given: values, not Swift objects caluna retains (weak keys).
local collectable = setmetatable({}, { __mode = "k" })

-- A userdata whose metatable raises: a caluna Path given another metatable. Its own
-- metatable (with the __gc that releases it) goes back at the end of the file, so the
-- path is freed when the state closes (LeakSanitizer checks that).
local hostileUserdata = debug and ca.Path()
local pathMeta = hostileUserdata and debug.getmetatable(hostileUserdata)
if hostileUserdata then
  debug.setmetatable(hostileUserdata, hostileMeta)
  collectable[hostileUserdata] = true
end

--- The argument values: an array with its count in `n` (nil is one of them), caluna objects
--- of the wrong class for most calls among them; `extra` adds more.
local function hostileValues(extra)
  local v = table.pack(nil, true, false, 0, -1, 0.5, 0 / 0, math.huge, -math.huge, 1e300,
    math.maxinteger, math.mininteger, 2 ^ 63, "", "position", "x\0y", {}, { 1, 2 }, { 1, 2, 3, 4 },
    { x = 0 / 0, y = 1 }, hostile {}, hostile { 1, 2, 3, 4 }, hostile { x = 1, y = 2, width = 3, height = 4 },
    hostile { className = "CAShapeLayer", kind = "pin", type = "custom", name = "probe" },
    coroutine.create(function() end), rawlen, raiser("callback"))
  local function add(x) v.n = v.n + 1 v[v.n] = x end
  for _, x in ipairs { ca.null, ca.Transform3D.identity, ca.AffineTransform.identity } do
    collectable[x] = true
    add(x)
  end
  if hostileUserdata then add(hostileUserdata) end
  for _, x in ipairs { ca.Layer{}, ca.Image.fromPixels(1, 1, "\0\0\0\0"), ca.Path() } do add(x) end
  for _, x in ipairs(extra or {}) do add(x) end
  return v
end

--- The values a __gc may be given.
local function forCollector(values)
  local out = { n = 0 }
  for i = 1, values.n do
    local x = values[i]
    if type(x) ~= "userdata" or collectable[x] then
      out.n = out.n + 1
      out[out.n] = x
    end
  end
  return out
end

---------------------------------------------------------------------------
-- Sweeping

--- Argument lists put before each hostile value: for functions, nothing or plausible first
--- arguments; for methods, each object as self (the first one also with plausible arguments).
local functionPrefixes = { {}, { 1 }, { 1, 1 }, { "position" } }
local function methodPrefixes(selves)
  local out = { {} }
  for i, s in ipairs(selves) do
    out[#out + 1] = { s }
    if i == 1 then
      for _, p in ipairs { { s, 1 }, { s, 1, 1 }, { s, "position" } } do out[#out + 1] = p end
    end
  end
  return out
end

--- Calls f with each prefix followed by each hostile value h as (h), (h, h) and
--- (h, "position"). Functions that write files get no strings.
local function sweep(what, f, prefixes, H, writesFiles)
  local function try(args)
    if writesFiles then
      for i = 1, args.n do if type(args[i]) == "string" then args[i] = nil end end
    end
    local ok, err = pcall(f, table.unpack(args, 1, args.n))
    if not ok and type(err) ~= "string" then
      error(what .. ": an error that is a " .. type(err) .. ", not a string", 0)
    end
  end
  try { n = 0 }
  for i = 1, H.n do
    local h = H[i]
    for _, p in ipairs(prefixes) do
      for _, tail in ipairs { { n = 1, h }, { n = 2, h, h }, { n = 2, h, "position" } } do
        local args = { n = #p + tail.n }
        for k = 1, #p do args[k] = p[k] end
        for k = 1, tail.n do args[#p + k] = tail[k] end
        try(args)
      end
    end
  end
end

local fileWriters = { render = true, write = true, writeJPEG = true }

--- Ends every transaction a sweep left open (commits may run failing completion blocks).
local function closeTransactions()
  for _ = 1, 100000 do
    if ca.Transaction.depth() == 0 then return end
    pcall(ca.Transaction.commit)
  end
end

--- The heap is sane and a new layer still renders.
local function healthy(what)
  closeTransactions()
  local kb = collectgarbage("count")
  T.truthy(type(kb) == "number" and kb == kb and kb < math.huge and kb > 0, what .. ": collectgarbage('count') is finite")
  local probe = ca.Layer{ frame = { 0, 0, 10, 10 }, backgroundColor = "red" }
  T.eq(probe.frame, { 0, 0, 10, 10 }, what .. ": a new layer works")
  ca.reset{ size = { 20, 20 } }
  ca.Transaction.setDisableActions(true)
  ca.root:addSublayer(ca.Layer{ frame = { 0, 0, 10, 10 }, backgroundColor = "red" })
  local img = ca.render()
  T.pixel(img, 5, 5, "red", 3, what .. ": a new layer renders")
end

---------------------------------------------------------------------------
-- Live objects, one factory per class (keyed by the metatable's registry name)

local function layerKinds()
  local kinds = {}
  for k, v in next, ca do
    if type(k) == "string" and type(v) == "table" and k:sub(-5) == "Layer" then kinds[#kinds + 1] = k end
  end
  table.sort(kinds)
  return kinds
end

--- A world with a body, a shape and a joint: fresh each time.
local function physicsObjects()
  local P = ca.physics
  local w = P.World{ gravity = { 0, -10 } }
  local b = w:addBody{ mass = 1, position = { 0, 5 } }
  local s = b:addCircle{ radius = 1 }
  local c = P.PinJoint{ a = b, b = w.staticBody }
  w:add(c)
  return w, b, s, c
end

-- Objects only callbacks hand out, kept after their callback returned (ended).
local captured = {}

local function captureCallbackObjects()
  ca.Transaction.setDisableActions(true)
  local l = ca.Layer{ frame = { 0, 0, 4, 4 } }
  l.draw = function(_, ctx) captured.ctx = ctx end
  l:display()
  local pb = ca.PixelBufferLayer{ frame = { 0, 0, 4, 4 } }
  pb.drawFrame = function(_, buffer) captured.buffer = buffer end
  ca.root:addSublayer(pb)
  ca.render()
  ca.on("probe", function(e) captured.event = e end)
  ca.send{ type = "custom", name = "probe" }
  ca.step(0)
  local w = ca.physics.World{ gravity = { 0, 0 } }
  for _, x in ipairs { 0, 0.5 } do w:addBody{ mass = 1, position = { x, 0 } }:addCircle{ radius = 1 } end
  w:addCollisionHandler{ begin = function(arb) captured.arbiter = arb end }
  ca.step(1 / 60)
  T.truthy(captured.ctx and captured.buffer and captured.event and captured.arbiter, "every callback object was captured")
end

local factories = {
  ["caluna.Layer"] = function()
    local out = {}
    for _, k in ipairs(layerKinds()) do
      local l = ca[k]{ bounds = { 0, 0, 8, 8 }, position = { 4, 4 } }
      ca.root:addSublayer(l)
      out[#out + 1] = l
    end
    return out
  end,
  ["caluna.Animation"] = function()
    local l = ca.Layer{}
    l:addAnimation(ca.BasicAnimation{ keyPath = "opacity", duration = 1 }, "fade")
    return { ca.BasicAnimation{ keyPath = "position" }, ca.KeyframeAnimation{ keyPath = "position" },
             ca.SpringAnimation{ keyPath = "position.x" }, ca.AnimationGroup{}, ca.Transition{},
             l:animationForKey("fade") }
  end,
  ["caluna.Transform3D"] = function() return { ca.Transform3D.rotation(0.5) } end,
  ["caluna.AffineTransform"] = function() return { ca.AffineTransform.rotation(0.5) } end,
  ["caluna.Image"] = function() return { ca.Image.fromPixels(2, 2, string.rep("\255", 16)) } end,
  ["caluna.Path"] = function() return { ca.Path():moveTo(0, 0):lineTo(4, 4) } end,
  ["caluna.MediaTimingFunction"] = function() return { ca.MediaTimingFunction("easeIn") } end,
  ["caluna.EmitterCell"] = function() return { ca.EmitterCell{ name = "cell" } } end,
  ["caluna.EventHandler"] = function()
    local l = ca.Layer{}
    return { ca.on("probe", function() end), l:on("tap", function() end) }
  end,
  ["caluna.DisplayLink"] = function() return { ca.displayLink(function() end) } end,
  ["caluna.Timer"] = function() return { ca.after(100, function() end) } end,
  ["caluna.physics.World"] = function() return { (physicsObjects()) } end,
  ["caluna.physics.Body"] = function() local w, b = physicsObjects() return { b, w.staticBody } end,
  ["caluna.physics.Shape"] = function() local _, _, s = physicsObjects() return { s } end,
  ["caluna.physics.Constraint"] = function() local _, _, _, c = physicsObjects() return { c } end,
  ["caluna.DrawingContext"] = function() return { captured.ctx } end,
  ["caluna.PixelBuffer"] = function() return { captured.buffer } end,
  ["caluna.Event"] = function() return { captured.event } end,
  ["caluna.physics.Arbiter"] = function() return { captured.arbiter } end,
}

local function sortedClasses()
  local classes = {}
  for class in pairs(factories) do classes[#classes + 1] = class end
  table.sort(classes)
  return classes
end

--- The class a registry name belongs to ("caluna.Layer.methods" → "caluna.Layer").
local function classOf(name)
  if factories[name] then return name end
  local base = name:match("^(.*)%.methods$")
  if base and factories[base] then return base end
  return nil
end

-- Methods an object answers through a __index function (not in a table the registry holds).
local dispatchedNames = {
  "pixel", "write", "writeJPEG", "compare", "set", "get", "fill", "remove", "invalidate",
  "setFillColor", "setStrokeColor", "setLineWidth", "setLineCap", "setLineJoin", "setMiterLimit",
  "setLineDash", "setAlpha", "setShouldAntialias", "saveGState", "restoreGState", "translate", "scale",
  "rotate", "concat", "currentTransform", "beginPath", "moveTo", "addLineTo", "addCurveTo",
  "addQuadCurveTo", "addArc", "addRect", "addEllipseInRect", "addRoundedRect", "addPath", "closePath",
  "fillPath", "eoFillPath", "strokePath", "drawPath", "fillRect", "strokeRect", "clearRect",
  "fillEllipseInRect", "strokeEllipseInRect", "clip", "eoClip", "clipToRect", "clipBoundingBox",
  "drawLinearGradient", "drawRadialGradient", "drawImage", "setFont", "showText", "drawText", "textSize",
}

--- Every method name `object` answers with a function: the names of its class's method
--- tables (through debug) and the dispatched names.
local function methodsOf(object, tables)
  local found, names = {}, {}
  local function consider(name)
    if type(name) ~= "string" or found[name] then return end
    local ok, f = pcall(function() return object[name] end)
    if ok and type(f) == "function" then
      found[name] = f
      names[#names + 1] = name
    end
  end
  for _, t in ipairs(tables) do
    for k in next, t do consider(k) end
  end
  for _, name in ipairs(dispatchedNames) do consider(name) end
  table.sort(names)
  return names, found
end

--- The registry's caluna tables by class: { [class] = {table, …} } (empty without debug).
local function registryTables()
  local byClass = {}
  if not debug then return byClass end
  for k, v in next, debug.getregistry() do
    if type(k) == "string" and type(v) == "table" and k:sub(1, 7) == "caluna." then
      local class = classOf(k)
      if class then
        byClass[class] = byClass[class] or {}
        table.insert(byClass[class], v)
        if type(rawget(v, "__index")) == "table" then table.insert(byClass[class], rawget(v, "__index")) end
      end
    end
  end
  return byClass
end

--- Sweeps every method `object` answers (see methodsOf), on fresh `selves()` each time;
--- returns how many.
local function sweepMethods(what, object, tables, selves)
  local names, found = methodsOf(object, tables)
  for _, name in ipairs(names) do
    sweep(what .. ":" .. name, found[name], methodPrefixes(selves()), hostileValues(), fileWriters[name])
  end
  return #names
end

--- Reads and writes fields of `object` (the given keys and hostile ones) with hostile values.
local function pokeFields(object, keys)
  local H = hostileValues()
  for i = 1, H.n do
    local h = H[i]
    for _, key in ipairs(keys) do
      pcall(function() return object[key] end)
      pcall(function() object[key] = h end)
    end
    pcall(function() return object[h] end)
    pcall(function() object[h] = 1 end)
  end
end

---------------------------------------------------------------------------
-- Tests

T.test("sandbox: every metatable caluna makes is locked", function()
  captureCallbackObjects()
  local objects = { ca, ca.Layer, ca.ShapeLayer, ca.BasicAnimation, ca.Transform3D, ca.AffineTransform,
                    ca.MediaTimingFunction, ca.physics.PinJoint, ca.null }
  for _, class in ipairs(sortedClasses()) do
    local made = factories[class]()
    T.truthy(#made > 0, class .. " has a live object")
    for _, o in ipairs(made) do objects[#objects + 1] = o end
  end
  for i, o in ipairs(objects) do
    T.eq(getmetatable(o), LOCKED, "getmetatable of object " .. i .. " (a " .. type(o) .. ")")
    if type(o) == "table" then T.raises(function() setmetatable(o, {}) end, "protected metatable") end
  end
  -- The attack that found this: a class's __call given a wrong self raised across Swift.
  T.raises(function() getmetatable(ca.Layer).__call(1) end)
  if debug then
    local call = debug.getmetatable(ca.Layer).__call
    for _, self in ipairs { 1, "x", true, hostile {}, ca.null } do
      local ok, err = pcall(call, self)
      T.falsy(ok, "__call with a " .. type(self) .. " self fails")
      T.truthy(type(err) == "string" and err:find("caluna: ca.Layer", 1, true), "a clear error: " .. tostring(err))
    end
    T.eq(call(ca.Layer).className, "CALayer", "the real call still works")
  end
  -- A nil or NaN key written into the module (its __newindex) is a caluna error.
  T.raises(function() ca[0 / 0] = 1 end, "caluna: ")
  T.raises(function() ca[nil] = 1 end, "caluna: ")
  ca.scratch = 1
  T.eq(rawget(ca, "scratch"), 1, "ordinary keys are still set")
  ca.scratch = nil
  healthy("locked metatables")
end, opts)

T.test("sandbox: every function of the module table, walked recursively", function()
  captureCallbackObjects()
  local H = hostileValues { captured.ctx }
  local seen, swept = {}, 0
  local function walk(t, path)
    if seen[t] then return end
    seen[t] = true
    local keys = {}
    for k in next, t do if type(k) == "string" then keys[#keys + 1] = k end end
    table.sort(keys)
    for _, k in ipairs(keys) do
      local v = rawget(t, k)
      local name = path .. "." .. k
      if type(v) == "function" then
        -- Functions of a class table are also tried as its methods (ca.Layer:defaultActionForKey).
        local prefixes = { table.unpack(functionPrefixes) }
        if t ~= ca then prefixes[#prefixes + 1] = { t } end
        sweep(name, v, prefixes, H, fileWriters[k])
        swept = swept + 1
      elseif type(v) == "table" then
        sweep(name .. "{…}", v, methodPrefixes { v }, H)   -- class tables are callable
        swept = swept + 1
        walk(v, name)
      end
    end
  end
  walk(ca, "ca")
  T.truthy(swept > 120, "the walk reached " .. swept .. " functions and classes")
  healthy("module functions")
end, opts)

T.test("sandbox: every method of a live object of each class", function()
  captureCallbackObjects()
  local tables = registryTables()
  local swept = 0
  for _, class in ipairs(sortedClasses()) do
    swept = swept + sweepMethods(class, factories[class]()[1], tables[class] or {}, factories[class])
    for _, o in ipairs(factories[class]()) do
      pokeFields(o, { "position", "name", "bounds", "delegate", "draw", "userData", "paused" })
    end
  end
  T.truthy(swept > 150, "reached " .. swept .. " methods")
  healthy("methods")
end, opts)

T.test("sandbox: every metamethod and registry function, through the debug library", function()
  if not debug then return end
  captureCallbackObjects()
  local registry = debug.getregistry()
  local keys = {}
  for k in next, registry do
    if type(k) == "string" and k:sub(1, 7) == "caluna." and k ~= "caluna.binding" then keys[#keys + 1] = k end
  end
  table.sort(keys)
  local swept = 0
  local function run(name, f, class, isGC)
    local H = hostileValues()
    if isGC then
      sweep(name, f, functionPrefixes, forCollector(H))
    else
      sweep(name, f, class and methodPrefixes(factories[class]()) or functionPrefixes, H)
    end
    swept = swept + 1
  end
  for _, k in ipairs(keys) do
    local v = registry[k]
    if type(v) == "function" then
      run(k, v)
    elseif type(v) == "table" then
      -- Metamethods only: the method tables were swept through live objects above.
      local names = {}
      for name, f in next, v do
        if type(name) == "string" and name:sub(1, 2) == "__" and type(f) == "function" then names[#names + 1] = name end
      end
      table.sort(names)
      for _, name in ipairs(names) do run(k .. "." .. name, v[name], classOf(k), name == "__gc") end
    end
  end
  -- The metatables of the module, its class tables and ca.null (not in the registry).
  local function metatableOf(x, name, self)
    local mt = debug.getmetatable(x)
    for _, m in ipairs { "__call", "__index", "__newindex", "__tostring", "__gc" } do
      local f = type(mt) == "table" and rawget(mt, m)
      if type(f) == "function" then
        local H = forCollector(hostileValues())
        sweep(name .. "." .. m, f, m == "__gc" and functionPrefixes or methodPrefixes { self }, H)
        swept = swept + 1
      end
    end
  end
  metatableOf(ca, "ca", {})    -- a scratch self: the module must not collect junk keys
  metatableOf(ca.null, "ca.null", ca.null)
  for _, k in ipairs { "Layer", "ShapeLayer", "BasicAnimation", "Transform3D", "AffineTransform", "MediaTimingFunction" } do
    metatableOf(ca[k], "ca." .. k, ca[k])
  end
  metatableOf(ca.physics.PinJoint, "ca.physics.PinJoint", ca.physics.PinJoint)
  T.truthy(swept > 60, "reached " .. swept .. " metamethods and registry functions")
  healthy("metamethods")
end, opts)

T.test("sandbox: the drawing context, pixel buffer and arbiter inside their callbacks", function()
  local swept = 0
  local function sweepObject(o, what)
    swept = swept + sweepMethods(what, o, {}, function() return { o } end) + 1
    pokeFields(o, { "shapeA", "bodyB", "normal", "points", "restitution", "friction", "surfaceVelocity",
                    "width", "valid", "contentsScale" })
  end
  ca.Transaction.setDisableActions(true)
  local l = ca.Layer{ frame = { 0, 0, 8, 8 } }
  l.draw = function(_, ctx) sweepObject(ctx, "DrawingContext") end
  l:display()
  local pb = ca.PixelBufferLayer{ frame = { 0, 0, 4, 4 } }
  pb.drawFrame = function(_, buffer) sweepObject(buffer, "PixelBuffer") end
  ca.root:addSublayer(pb)
  ca.render()
  local w = ca.physics.World{ gravity = { 0, 0 } }
  for _, x in ipairs { 0, 0.5 } do w:addBody{ mass = 1, position = { x, 0 } }:addCircle{ radius = 1 } end
  local arbiters = 0
  w:addCollisionHandler{ begin = function(arb) arbiters = arbiters + 1 sweepObject(arb, "Arbiter") end }
  pcall(ca.step, 1 / 60)
  T.eq(arbiters, 1, "the begin callback ran")
  T.truthy(swept > 45, "reached " .. swept .. " methods of callback objects")
  healthy("callback objects")
end, opts)

T.test("sandbox: strings with a hostile metatable, a hostile _G", function()
  local layer = ca.Layer{}
  ca.root:addSublayer(layer)
  local H = table.pack(nil, "", "position", "x\0y", "red", "#ff0000", 1, layer)
  local targets = {}
  for k, v in next, ca do
    if type(v) == "function" and not fileWriters[k] then targets[#targets + 1] = { "ca." .. k, v, functionPrefixes } end
  end
  for _, name in ipairs { "addSublayer", "setValueForKeyPath", "valueForKeyPath", "actionForKey", "on", "hitTest" } do
    targets[#targets + 1] = { "Layer:" .. name, layer[name], methodPrefixes { layer } }
  end
  table.sort(targets, function(a, b) return a[1] < b[1] end)
  local setmeta, getmeta, pcall_, sweep_, ipairs_ = setmetatable, getmetatable, pcall, sweep, ipairs
  local stringMeta = getmeta("")
  local savedIndex = stringMeta.__index
  -- From here to the restore no string method and no missing global may be used.
  stringMeta.__index = raiser("string __index")
  setmeta(_G, { __index = raiser("_G __index"), __newindex = raiser("_G __newindex") })
  local ok, err = pcall_(function()
    for _, t in ipairs_(targets) do sweep_(t[1], t[2], t[3], H) end
    layer.name = "x"
  end)
  setmeta(_G, nil)
  stringMeta.__index = savedIndex
  T.truthy(ok, "the sweep ran to its end: " .. tostring(err))
  T.truthy(#targets > 30, "module functions and layer methods were called")
  T.eq(("abc"):upper(), "ABC", "the string metatable is back")
  healthy("hostile strings and globals")
end, opts)

if hostileUserdata then debug.setmetatable(hostileUserdata, pathMeta) end
