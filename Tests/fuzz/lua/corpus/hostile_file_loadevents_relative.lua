-- ca.loadEvents of a valid JSON Lines file outside any granted directory.
-- expect: not allowed in the sandbox
local ca = require "caluna"
ca.loadEvents("../outside.jsonl")
