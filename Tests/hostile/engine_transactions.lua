-- Ten million nested explicit transactions.
-- expect: memory limit|not enough memory|transactions are open
-- args: --instruction-limit 100000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
for i = 1, 1e7 do ca.Transaction.begin(); ca.Transaction.setAnimationDuration(i) end
