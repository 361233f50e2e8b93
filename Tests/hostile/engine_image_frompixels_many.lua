-- ca.Image.fromPixels copies a 4 MiB string into engine memory; 300 of them kept
-- (1.2 GB if nothing stops it) under a 16 MiB cap.
-- expect: memory limit
-- args: --instruction-limit 10000000 --memory-limit 16 --time-limit 5
local ca = require "caluna"
local bytes = ("\255\0\0\255"):rep(1024 * 1024)
local keep = {}
for i = 1, 300 do keep[i] = ca.Image.fromPixels(1024, 1024, bytes) end
