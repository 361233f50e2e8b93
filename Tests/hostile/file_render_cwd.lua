-- ca.render(path) with a plain file name: the working directory is not a granted directory.
-- expect: not allowed in the sandbox
local ca = require "caluna"
ca.render("hostile-escape.png")
