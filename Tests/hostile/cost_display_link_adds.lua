-- A display link that adds 500 layers to one parent every frame, for 20 frames (the CLI steps 20 times to render 21): each
-- frame's commit was quadratic in the siblings (84 frames in 30 s). Now each frame costs
-- time linear in the layers, and the 20 frames end in a few seconds.
-- output: frames 20, layers 10000
-- exit: 0
-- args: --instruction-limit 100000000 --memory-limit 512 --time-limit 8 --frames 21
local ca = require "caluna"
local frames = 0
ca.displayLink(function()
  frames = frames + 1
  for i = 1, 500 do ca.root:addSublayer(ca.Layer{ frame = {i % 64, 0, 1, 1}, backgroundColor = "red" }) end
  print(string.format("frames %d, layers %d", frames, #ca.root.sublayers))
end)
