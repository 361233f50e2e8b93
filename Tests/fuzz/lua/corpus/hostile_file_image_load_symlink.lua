-- ca.Image.load through the granted/up symlink, with reading granted.
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted --allow-write granted
local ca = require "caluna"
ca.root.contents = ca.Image.load("granted/up/outside.png")
