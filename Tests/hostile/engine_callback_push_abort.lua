-- With an 8 MiB cap, a display link fills the Lua heap (keeping it full) just before an
-- animation with a delegate starts: the engine then has to push the delegate call with no
-- memory left (Lua heap and engine memory share the cap, so the frame's own render may be
-- what fails). That must be a script error, not an abort.
-- expect: not enough memory|memory limit
-- args: --instruction-limit 100000000 --memory-limit 8 --time-limit 5 --frames 3
local ca = require "caluna"
local l = ca.Layer{ frame = {0, 0, 10, 10}, backgroundColor = "red" }
ca.root:addSublayer(l)
local hog = {}
local function fill() while true do hog = { hog } end end   -- small allocations to the last byte
ca.displayLink(function()
  pcall(fill)
  pcall(fill)
end)
local delegate = { animationDidStart = function(self, a) hog = nil end,
                   animationDidStop = function(self, a, finished) hog = nil end }
l:addAnimation(ca.BasicAnimation{ keyPath = "opacity", fromValue = 0, toValue = 1, duration = 0.01,
                                  delegate = delegate }, "fade")
ca.on("tick", function(e) hog = nil end)
ca.send{ type = "custom", name = "tick", data = { 1, 2, 3 }, time = 0.02 }
