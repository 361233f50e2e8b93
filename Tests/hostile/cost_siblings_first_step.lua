-- 20,000 sublayers under one parent, then the first step commits them: that commit compared
-- every old presentation sublayer with every new one (O(n²), 25,000 siblings took over a
-- minute). Now linear; the script must finish and report. (Debug CLI: about 2 s; before, about a minute.)
-- output: siblings 20000, presentation 20000
-- exit: 0
-- args: --instruction-limit 100000000 --memory-limit 512 --time-limit 8
local ca = require "caluna"
local N = 20000
for i = 1, N do ca.root:addSublayer(ca.Layer{ frame = {0, 0, 1, 1} }) end
ca.step(1 / 60)
-- setSublayers with the same many layers reversed: duplicate check and removal are linear too.
local all = ca.root.sublayers
local reversed = {}
for i = #all, 1, -1 do reversed[#reversed + 1] = all[i] end
ca.root.sublayers = reversed
ca.step(1 / 60)
print(string.format("siblings %d, presentation %d", #ca.root.sublayers, #ca.root:presentationLayer().sublayers))
