-- A directory granted for reading only is not writable.
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted
local ca = require "caluna"
local img = ca.render()
img:write("granted/hostile-escape.png")
