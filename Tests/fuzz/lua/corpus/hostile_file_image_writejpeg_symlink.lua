-- img:writeJPEG through the granted/up symlink.
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted --allow-write granted
local ca = require "caluna"
local img = ca.render()
img:writeJPEG("granted/up/hostile-escape.jpg")
