-- A 15 MiB image from a 15 MiB string under a 24 MiB cap: each fits, the Lua string and
-- the image's engine copy together do not.
-- expect: memory limit|not enough memory
-- args: --instruction-limit 10000000 --memory-limit 24 --time-limit 5
local ca = require "caluna"
local bytes = ("\0\0\0\0"):rep(1024 * 3840)
local img = ca.Image.fromPixels(1024, 3840, bytes)
ca.root.contents = img
