-- ca.render(path) with an absolute path.
-- expect: not allowed in the sandbox
local ca = require "caluna"
ca.render("/tmp/caluna-hostile-escape.png")
