-- ca.Image.load of a real PNG (../outside.png, made by the runner) outside any granted
-- directory: a read that works leaks the file.
-- expect: not allowed in the sandbox
local ca = require "caluna"
local img = ca.Image.load("../outside.png")
ca.root.contents = img
