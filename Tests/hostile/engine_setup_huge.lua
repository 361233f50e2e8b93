-- The script sizes the output to 16384 × 8192 pixels (512 MiB a frame) under a 64 MiB cap
-- and leaves the rendering to the CLI.
-- expect: memory limit
local ca = require "caluna"
ca.setup{ size = {16384, 8192}, scale = 1 }
ca.root.backgroundColor = "red"
