local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
local ca = require 'caluna'
local T = FUZZ_T
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

