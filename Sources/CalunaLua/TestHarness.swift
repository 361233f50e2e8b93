/// `require "caluna.test"`: the harness for Lua test scenes (docs/testing.md).
/// Written in Lua because it is mostly Lua-side bookkeeping; pixel work is
/// done by ca.render / Image:compare in Swift.
let testHarnessSource = #"""
local ca = require "caluna"
local T = { goldenDir = "goldens", failureDir = "failures", tolerance = 2 }
local tests = {}

--- Registers a test. opts: size = {w, h} (points, default 320x480), scale (default 1).
function T.test(name, fn, opts)
  assert(type(name) == "string", "test(name, fn): name must be a string")
  assert(type(fn) == "function", "test(name, fn): fn must be a function")
  tests[#tests + 1] = { name = name, fn = fn, opts = opts or {} }
end

local function fail(msg, level) error(msg, (level or 1) + 2) end

local fieldOrders = {
  { "x", "y", "width", "height" }, { "x", "y" }, { "width", "height" }, { "r", "g", "b", "a" },
}

-- The numbers of a value: a number, a positional table, a named table or a Transform3D.
local function numbersOf(v)
  if type(v) == "number" then return { v } end
  if type(v) == "userdata" then
    local ok, elements = pcall(function() return v.elements end)
    if ok and elements then return v:elements() end
    return nil
  end
  if type(v) ~= "table" then return nil end
  if v[1] ~= nil then
    local out = {}
    for i = 1, #v do if type(v[i]) ~= "number" then return nil end out[i] = v[i] end
    return out
  end
  for _, order in ipairs(fieldOrders) do
    local out, ok = {}, true
    for i, k in ipairs(order) do
      if type(v[k]) ~= "number" then ok = false break end
      out[i] = v[k]
    end
    local extra = 0
    for _ in pairs(v) do extra = extra + 1 end
    if ok and extra == #order then return out end
  end
  return nil
end

local function show(v)
  local n = numbersOf(v)
  if n and type(v) ~= "number" then
    local parts = {}
    for i, x in ipairs(n) do parts[i] = string.format("%.10g", x) end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  if type(v) == "string" then return string.format("%q", v) end
  return tostring(v)
end
T.show = show

--- Exact equality (numbers, strings, booleans, nil, layers) or element-wise for shapes.
function T.eq(actual, expected, msg)
  if actual == expected then return end
  local a, e = numbersOf(actual), numbersOf(expected)
  if a and e and #a == #e then
    local same = true
    for i = 1, #a do if a[i] ~= e[i] then same = false end end
    if same then return end
  end
  fail((msg and msg .. ": " or "") .. "expected " .. show(expected) .. ", got " .. show(actual))
end

--- Equality within tol (default 1e-9) for numbers, points, sizes, rects, colours, transforms.
function T.near(actual, expected, tol, msg)
  tol = tol or 1e-9
  local a, e = numbersOf(actual), numbersOf(expected)
  if not a or not e or #a ~= #e then
    fail((msg and msg .. ": " or "") .. "cannot compare " .. show(actual) .. " with " .. show(expected))
  end
  for i = 1, #a do
    if not (math.abs(a[i] - e[i]) <= tol) then
      fail((msg and msg .. ": " or "") .. "expected " .. show(expected) .. " ±" .. tol .. ", got " .. show(actual))
    end
  end
end

--- Angles in radians, equal modulo 2π within tol (default 1e-9): rotations
--- read back in (−π, π], so 3π/2 is compared with −π/2.
function T.nearAngle(actual, expected, tol, msg)
  tol = tol or 1e-9
  local d = math.fmod(actual - expected, 2 * math.pi)
  if d > math.pi then d = d - 2 * math.pi elseif d <= -math.pi then d = d + 2 * math.pi end
  if not (math.abs(d) <= tol) then
    fail((msg and msg .. ": " or "") .. string.format("expected angle %.9g (mod 2π) ±%g, got %.9g", expected, tol, actual))
  end
end

--- Identity (rawequal): the same Lua object.
function T.same(actual, expected, msg)
  if not rawequal(actual, expected) then
    fail((msg and msg .. ": " or "") .. "expected the same object as " .. tostring(expected) .. ", got " .. tostring(actual))
  end
end

function T.truthy(v, msg) if not v then fail(msg or ("expected a true value, got " .. show(v))) end end
function T.falsy(v, msg) if v then fail(msg or ("expected a false value, got " .. show(v))) end end

--- fn must raise an error whose message contains `pattern` (plain text); returns the message.
function T.raises(fn, pattern, msg)
  local ok, err = pcall(fn)
  if ok then fail((msg and msg .. ": " or "") .. "expected an error" .. (pattern and (" matching '" .. pattern .. "'") or "")) end
  err = tostring(err)
  if pattern and not err:find(pattern, 1, true) then
    fail((msg and msg .. ": " or "") .. "expected an error containing '" .. pattern .. "', got: " .. err)
  end
  return err
end

--- The pixel covering point (x, y) at the engine's scale: r, g, b, a (0…255, straight).
function T.px(img, x, y)
  local s = ca.scale()
  return img:pixel(math.floor(x * s), math.floor(y * s))
end

--- The pixel at point (x, y) must be `expected` (any colour form) within tol (default 3).
function T.pixel(img, x, y, expected, tol, msg)
  tol = tol or 3
  local r, g, b, a = T.px(img, x, y)
  local er, eg, eb, ea = ca.color(expected)
  if math.abs(r - er) > tol or math.abs(g - eg) > tol or math.abs(b - eb) > tol or math.abs(a - ea) > tol then
    fail(string.format("%spixel at (%g, %g): expected (%d, %d, %d, %d) ±%d, got (%d, %d, %d, %d)",
      msg and msg .. ": " or "", x, y, er, eg, eb, ea, tol, r, g, b, a))
  end
end

local function fileExists(path)
  local f = io.open(path, "rb")
  if f then f:close() return true end
  return false
end

--- Compares img with goldens/<name>.png (±tol per channel, default 2). With
--- CALUNA_RECORD_GOLDENS=1 it (re)writes the golden instead. On a mismatch it
--- writes failures/<name>.actual.png and failures/<name>.diff.png.
function T.golden(img, name, tol)
  tol = tol or T.tolerance
  local path = T.goldenDir .. "/" .. name .. ".png"
  if os.getenv("CALUNA_RECORD_GOLDENS") == "1" then
    local dir = path:match("^(.*)/[^/]*$")
    if dir then os.execute("mkdir -p '" .. dir .. "'") end
    img:write(path)
    return
  end
  if not fileExists(path) then
    fail("golden " .. path .. " does not exist (record it with CALUNA_RECORD_GOLDENS=1)")
  end
  local golden = ca.Image.load(path)
  if golden.width ~= img.width or golden.height ~= img.height then
    fail(string.format("golden %s is %dx%d, the render is %dx%d", path, golden.width, golden.height, img.width, img.height))
  end
  local bad, maxDiff, diff = img:compare(golden, tol)
  if bad > 0 then
    os.execute("mkdir -p '" .. T.failureDir .. "'")
    local base = T.failureDir .. "/" .. name:gsub("/", "_")
    img:write(base .. ".actual.png")
    diff:write(base .. ".diff.png")
    fail(string.format("%d pixels differ from %s by more than %d (largest difference %d); see %s.diff.png",
      bad, path, tol, maxDiff, base))
  end
end

--- Runs the registered tests; prints one line each; returns passed, failed.
function T.run(label)
  local passed, failed = 0, 0
  for _, t in ipairs(tests) do
    ca.reset { size = t.opts.size or { 320, 480 }, scale = t.opts.scale or 1 }
    local ok, err = xpcall(t.fn, function(e)
      local msg = tostring(e)
      if os.getenv("CALUNA_TEST_TRACE") == "1" then msg = debug.traceback(msg, 2) end
      return msg
    end)
    if ok then
      passed = passed + 1
      print("  ok    " .. (label and label .. " > " or "") .. t.name)
    else
      failed = failed + 1
      print("  FAIL  " .. (label and label .. " > " or "") .. t.name .. "\n        " .. tostring(err):gsub("\n", "\n        "))
    end
  end
  tests = {}
  return passed, failed
end

return T
"""#
