-- ca.loadEvents of /etc/passwd: a parse error quoting the first line would leak it.
-- expect: not allowed in the sandbox
local ca = require "caluna"
ca.loadEvents("/etc/passwd")
