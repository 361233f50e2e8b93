-- A plain endless loop with an instruction budget too large to matter: the time limit ends it.
-- expect: time limit
-- exit: 3
-- args: --instruction-limit 1000000000000 --memory-limit 64 --time-limit 1
while true do end
