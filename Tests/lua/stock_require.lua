-- Run by scripts/test with stock lua5.4 and LUA_CPATH pointing at
-- .build/lua/?.so: `require "caluna"` must give a working default engine.
local passed, failed = 0, 0
local function check(name, cond, detail)
  if cond then
    passed = passed + 1
  else
    failed = failed + 1
    print("FAIL " .. name .. (detail and (": " .. tostring(detail)) or ""))
  end
end

local ca = require "caluna"
check("module loads", type(ca) == "table")
check("same module on second require", require "caluna" == ca)
check("default engine size", select(1, ca.size()) == 320 and select(2, ca.size()) == 480)
check("ca.root exists", ca.root ~= nil and ca.root.frame.width == 320)

ca.setup { size = { 100, 80 }, scale = 2 }
local w, h = ca.pixelSize()
check("setup resizes the output", w == 200 and h == 160, w .. "x" .. h)
check("setup resizes the root", ca.root.bounds.width == 100 and ca.root.bounds.height == 80)

ca.root.backgroundColor = "#aaaaaa"
local blue = ca.Layer { frame = { 10, 10, 20, 20 }, backgroundColor = "blue" }
ca.root:addSublayer(blue)
check("same proxy back", rawequal(ca.root.sublayers[1], blue))

ca.step(1 / 30)
ca.advance(0.5)
check("clock advances", ca.mediaTime() == 0.5, ca.mediaTime())

local path = os.tmpname() .. ".png"
check("render to a file returns nothing", select("#", ca.render(path)) == 0)
local img = ca.render()
check("render size", img.width == 200 and img.height == 160)
local r, g, b, a = img:pixel(40, 40)
check("blue pixel", r == 0 and g == 0 and b == 255 and a == 255, table.concat({ r, g, b, a }, ","))
r, g, b, a = img:pixel(2, 2)
check("background pixel", r == 170 and g == 170 and b == 170 and a == 255, table.concat({ r, g, b, a }, ","))
local back = ca.Image.load(path)
check("PNG written and readable", back.width == 200 and back.height == 160)
os.remove(path)

local ok, err = pcall(function() blue.position = "nowhere" end)
check("misuse raises a located error", not ok and tostring(err):find("Layer.position expects a point", 1, true), err)
check("engine usable after an error", ca.render():pixel(40, 40) ~= nil)

-- Animations, delegates and display links run from stock lua5.4 too.
local stops, ticks = {}, 0
blue:addAnimation(ca.BasicAnimation{ keyPath = "position.x", fromValue = 0, toValue = 100, duration = 1,
  delegate = { animationDidStop = function(_, _, finished) stops[#stops + 1] = { ca.mediaTime(), finished } end } }, "x")
local link = ca.displayLink(function() ticks = ticks + 1 end)
ca.step(0)
ca.advance(1)
check("presentation mid-animation", blue:presentation() ~= nil)
ca.advance(1.5)
check("didStop at exactly 1.5 (committed at 0.5, 1 s long)", #stops == 1 and stops[1][1] == 1.5 and stops[1][2] == true,
  #stops > 0 and stops[1][1] or "none")
check("display link fired on every non-empty step", ticks == 2, ticks)
link:invalidate()

-- Implicit animations, transactions and completion blocks (chapter 7).
local done
blue.backgroundColor = "red"
check("an implicit animation under the property's key", blue:animationKeys()[1] == "backgroundColor")
ca.transaction({ duration = 1, timingFunction = "linear", completion = function() done = ca.mediaTime() end }, function()
  blue.opacity = 0
end)
ca.advance(2)
check("a 1 s linear transaction is half way at 2.0", math.abs(blue:presentation().opacity - 0.5) < 1e-9,
  blue:presentation().opacity)
ca.advance(3)
check("its completion block ran at its end (2.5)", done == 2.5, done)
check("ca.null is distinct from nil", ca.null ~= nil and tostring(ca.null) == "ca.null")

-- Physics from stock Lua: the book's falling crate (listing 11.3 a). Chipmunk's banner
-- must not reach stdout: scripts/test checks this file's output has none.
local world = ca.physics.World{ gravity = {0, -1000}, paused = true }
local crate = world:addBody{ mass = 100, position = {150, 250} }
crate:addBox{ width = 100, height = 100 }
for _ = 1, 60 do world:step(1/60) end
check("a crate falls as Chipmunk integrates", math.abs(crate.position.y + 241.66666666666666) < 1e-9, crate.position.y)

-- Input from stock Lua: a scripted tap, delivered at its own time by a step.
local tapped
blue:on("tap", function(e) tapped = { e.time, e.target == blue }; return true end)
local bx, by = blue.position.x, blue.position.y
ca.send{ type = "tap", x = bx, y = by, time = ca.mediaTime() + 0.25 }
ca.step(1)
check("a tap reaches the layer's handler at its own time", tapped and tapped[1] == 3.25 and tapped[2], tapped and tapped[1])

local T = require "caluna.test"
check("harness loads from the same module file", type(T.test) == "function")

print(passed .. " passed, " .. failed .. " failed")
os.exit(failed == 0 and 0 or 1)
