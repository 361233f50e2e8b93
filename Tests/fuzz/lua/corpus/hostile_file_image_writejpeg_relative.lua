-- img:writeJPEG(path, quality) out of the working directory.
-- expect: not allowed in the sandbox
local ca = require "caluna"
local img = ca.render()
img:writeJPEG("../hostile-escape.jpg", 90)
