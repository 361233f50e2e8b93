-- img:write(path) (PNG) with a relative path out of the working directory.
-- expect: not allowed in the sandbox
local ca = require "caluna"
local img = ca.render()
img:write("../hostile-escape.png")
