-- ca.render(path) with a relative path that climbs out of the working directory.
-- expect: not allowed in the sandbox
local ca = require "caluna"
ca.root.backgroundColor = "red"
ca.render("../hostile-escape.png")
