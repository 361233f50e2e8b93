-- Chapter 7's colour layers, side by side, "tapped" by a timer every 1.5 s (pointer
-- events arrive with the interaction issue):
--   left:   listing 7.1, a standalone layer: setting backgroundColor animates by itself
--           (an implicit animation, 0.25 s on the default curve);
--   middle: listing 7.3, the change in a 1 s transaction whose completion block turns
--           the layer 90° — in the default 0.25 s, since the block runs after the
--           transaction was committed;
--   right:  listing 7.6, a push transition as the layer's backgroundColor action: the
--           new colour slides in from the left.
-- Render: caluna run examples/colors.lua -o out/colors/ --frames 90 --size 480x240
local ca = require "caluna"

local w, h = ca.size()
ca.root.backgroundColor = "#f2efe8"
local colours = { "#3060c0", "crimson", "#2e8b57", "goldenrod", "#7a4fb0" }

local function square(x, name, width)
  local l = ca.Layer { name = name, bounds = { 0, 0, width or 100, 100 }, position = { x, h / 2 },
                       backgroundColor = colours[1] }
  ca.root:addSublayer(l)
  return l
end
local implicit = square(w / 6, "7.1 implicit")
local completion = square(w / 2, "7.3 completion block", 60)   -- narrow, so its turns show
local pushed = square(w * 5 / 6, "7.6 push transition")
pushed.masksToBounds = true
pushed.actions = { backgroundColor = ca.Transition { type = "push", subtype = "fromLeft" } }

local n = 1
local function tap()
  n = n % #colours + 1
  implicit.backgroundColor = colours[n]
  ca.transaction({ duration = 1.0, completion = function()
    completion.affineTransform = completion.affineTransform:rotate(math.pi / 2)
  end }, function()
    completion.backgroundColor = colours[n]
  end)
  pushed.backgroundColor = colours[n]
end

-- The scene above is set up before the first commit, so it does not animate;
-- the taps come after it.
ca.after(0.25, tap)
ca.every(1.5, tap)
