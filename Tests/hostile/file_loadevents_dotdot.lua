-- ca.loadEvents climbing out of the granted directory.
-- expect: not allowed in the sandbox
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted --allow-write granted
local ca = require "caluna"
ca.loadEvents("granted/../../outside.jsonl")
