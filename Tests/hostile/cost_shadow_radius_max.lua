-- shadowRadius = 1000 (the largest allowed) on a 10×10 layer: the blur took a 6010×6010
-- buffer (its 3σ margin) at O(σ) per pixel, 136 s for a 64×64 frame. Now only the frame's
-- pixels are blurred, at a cost per pixel that does not depend on σ: well under a second.
-- The script renders once and the CLI renders its frame after it.
-- output: rendered 64x64 alpha 0
-- exit: 0
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 2 --size 64x64
local ca = require "caluna"
ca.root:addSublayer(ca.Layer{ frame = {27, 27, 10, 10}, backgroundColor = "red",
                              shadowOpacity = 1, shadowRadius = 1000 })
local img = ca.render()
-- 100 pixels spread over a Gaussian of σ 1000 are far below one level.
print(("rendered %dx%d alpha %d"):format(img.width, img.height, select(4, img:pixel(0, 0))))
