-- ca.render{path = …}: the table form of the same call.
-- expect: not allowed in the sandbox
local ca = require "caluna"
ca.render{ path = "../hostile-escape.png" }
