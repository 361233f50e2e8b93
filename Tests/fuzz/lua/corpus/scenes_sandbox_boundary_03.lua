local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
local ca = require 'caluna'
local T = FUZZ_T
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

