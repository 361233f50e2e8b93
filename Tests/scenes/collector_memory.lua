-- Memory behind Lua objects that Lua's collector must see (docs/lua.md, "Memory"):
-- an image's pixels and a path's storage count in collectgarbage("count"), so a
-- script that drops them in a loop runs in flat memory without collectgarbage.
local ca = require "caluna"
local T = require "caluna.test"

-- Growth of collectgarbage("count"), in bytes, while `fn` runs with the collector stopped.
local function counted(fn)
  collectgarbage()
  collectgarbage("stop")
  local before = collectgarbage("count")
  local keep = fn()
  local grown = (collectgarbage("count") - before) * 1024
  collectgarbage("restart")
  return grown, keep
end

T.test("an image's pixels count in collectgarbage('count')", function()
  for _, side in ipairs { 16, 300, 1024 } do
    local bytes = side * side * 4
    local grown = counted(function() return ca.Image.fromPixels(side, side, string.rep("\0", bytes)) end)
    -- The pixel string is Lua's own (and counted once it exists): measure the image alone.
    local pixels = string.rep("\1", bytes)
    local alone, img = counted(function() return ca.Image.fromPixels(side, side, pixels) end)
    T.eq(img.byteCount, bytes)
    T.truthy(alone >= bytes and alone < bytes + 1024,
      ("a %dx%d image grew the count by %d bytes, not its %d pixel bytes"):format(side, side, alone, bytes))
    T.truthy(grown >= 2 * bytes, "the pixel string and the image both count")
  end
end)

T.test("a rendered frame counts its pixels", function()
  local grown = counted(function() return ca.render() end)
  T.truthy(grown >= 320 * 480 * 4 and grown < 320 * 480 * 4 + 4096,
    ("ca.render() at 320x480 grew the count by %d bytes"):format(grown))
end)

T.test("ca.render(path) makes no image garbage", function()
  local dir = os.tmpname()
  os.remove(dir)
  local path = dir .. ".png"
  local grown = counted(function() ca.render(path) end)
  os.remove(path)
  T.truthy(grown < 4096, ("ca.render(path) grew the count by %d bytes"):format(grown))
end)

T.test("a path's storage counts as it grows", function()
  local grown = counted(function()
    local p = ca.Path():moveTo(0, 0)
    for i = 1, 20000 do p:lineTo(i % 100, i % 37) end
    return p
  end)
  -- Storage doubles as it grows: at least the 20,001 elements it holds are reported.
  T.truthy(grown >= 20001 * 40, ("a 20,001-element path grew the count by %d bytes"):format(grown))
end)

T.test("renders dropped in a loop are collected without collectgarbage", function()
  local live = setmetatable({}, { __mode = "k" })
  local box = ca.Layer { frame = { 0, 0, 40, 40 }, backgroundColor = "teal" }
  ca.root:addSublayer(box)
  collectgarbage()
  local most = 0
  for i = 1, 200 do
    box.position = { i % 1200 + 40, 360 }
    ca.step(1 / 60)
    live[ca.render()] = true
    local n = 0
    for _ in pairs(live) do n = n + 1 end
    most = math.max(most, n)
  end
  -- Without the pixels counted, all 200 frames (737 MB) stay until a collection.
  T.truthy(most <= 12, ("up to %d dropped 1280x720 frames were alive at once"):format(most))
end, { size = { 1280, 720 } })
