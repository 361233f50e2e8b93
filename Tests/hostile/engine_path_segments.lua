-- A ca.Path doubled with addPath until it has 2^23 elements (hundreds of MB of Swift
-- arrays if nothing stops it), under a 16 MiB cap.
-- expect: memory limit
-- args: --instruction-limit 10000000 --memory-limit 16 --time-limit 5
local ca = require "caluna"
local p = ca.Path():moveTo(0, 0):curveTo(1, 2, 3, 4, 5, 6)
for i = 1, 22 do p:addPath(p) end
local s = ca.ShapeLayer{ path = p }
