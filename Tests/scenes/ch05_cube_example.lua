-- The README picture examples/cube.lua (listings 5.9/5.10 and 6.5's transform-layer
-- cube), loaded from examples/ (found from this file's path), checked at t = 0.6 s.
local ca = require "caluna"
local T = require "caluna.test"

local function grey(v) return {v / 255, v / 255, v / 255, 1} end

T.test("README example examples/cube.lua: lit faces, culled back faces, the turning transform layer", function()
  local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
  dofile(here .. "/../../examples/cube.lua")
  ca.advance(0.6)
  local img = ca.render()
  -- Listing 5.10's shading: top lit (alpha 0), front 0.05279 (≈ 241.5), right 0.5 (≈ 127.5).
  T.pixel(img, 160, 100, grey(255), 2, "face 3, the top")
  T.pixel(img, 90, 165, grey(241.5), 2, "face 1, the front")
  T.pixel(img, 230, 165, grey(127.5), 2, "face 2, the right")
  -- The transform-layer cube at 39° (0.6 s × 90°/s − 15°): faces 1, 3 and 5 show.
  T.pixel(img, 550, 210, "#e06c75", 3, "face 1")
  T.pixel(img, 415, 165, "#56b6c2", 3, "face 5")
  T.pixel(img, 530, 125, "#61afef", 3, "face 3")
  -- Culled back faces (2, 4, 6) never show.
  for y = 0, 339, 2 do
    for x = 320, 639, 2 do
      local r, g, b = img:pixel(x, y)
      for _, c in ipairs { {0x98, 0xc3, 0x79}, {0xe5, 0xc0, 0x7b}, {0xc6, 0x78, 0xdd} } do
        if math.abs(r - c[1]) <= 6 and math.abs(g - c[2]) <= 6 and math.abs(b - c[3]) <= 6 then
          error(string.format("a culled face's colour shows at (%d, %d)", x, y))
        end
      end
    end
  end
  T.golden(img, "ch05/cube_example")
end, { size = {640, 340} })
