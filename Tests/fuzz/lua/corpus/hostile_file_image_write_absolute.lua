-- img:write(path) with an absolute path; the image comes from fromPixels, not from render.
-- expect: not allowed in the sandbox
local ca = require "caluna"
local img = ca.Image.fromPixels(2, 2, ("\255\0\0\255"):rep(4))
img:write("/tmp/caluna-hostile-escape.png")
