-- granted/tmp is a symlink (made by the runner) to /tmp.
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted --allow-write granted
local ca = require "caluna"
ca.render{ path = "granted/tmp/caluna-hostile-escape.png" }
