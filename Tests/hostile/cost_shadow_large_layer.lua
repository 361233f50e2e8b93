-- A 2000×2000 layer with shadowRadius = 300: the blur took the silhouette near the frame with
-- a 900-pixel margin all round (here 2801×2801 pixels) at O(σ) per pixel, seconds a frame. Now
-- only the frame's pixels are blurred, from the silhouette within 900 pixels of them, and each
-- pixel costs the same whatever σ.
-- output: rendered 320x480 alpha 255 1$
-- exit: 0
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 4
local ca = require "caluna"
-- The layer covers the frame's top-left corner; its shadow shows around it (taken from the
-- content drawn within the frame: at (319, 479), 219 and 379 px from the corner, alpha 1).
ca.root:addSublayer(ca.Layer{ frame = {-1900, -1900, 2000, 2000}, backgroundColor = "blue",
                              shadowOpacity = 1, shadowRadius = 300, shadowOffset = {0, 0} })
local img = ca.render()
print(("rendered %dx%d alpha %d %d"):format(img.width, img.height, select(4, img:pixel(50, 50)), select(4, img:pixel(319, 479))))
