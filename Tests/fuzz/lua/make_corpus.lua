-- Builds the Lua target's seed corpus (scripts/fuzz corpus runs it with lua5.4):
--   lua5.4 make_corpus.lua OUTDIR MAXBYTES FILE...
-- A test scene (Tests/scenes, `T.test(...)` blocks) becomes one seed per test: the scene's
-- set-up code (what comes before its first test) and that one test, with the test library
-- replaced by a stub that runs each test in a pcall and does nothing for checks — the
-- sandbox has no `require "caluna.test"`. Other files (examples, hostile cases) are seeds
-- as they are. Seeds larger than MAXBYTES (libFuzzer's -max_len) drop the set-up code, or
-- are skipped.
local outdir, maxbytes = arg[1], tonumber(arg[2])
assert(outdir and maxbytes and #arg >= 3, "usage: lua5.4 make_corpus.lua OUTDIR MAXBYTES FILE...")

local stub = [[
local FUZZ_T = setmetatable({}, { __index = function() return function() end end })
FUZZ_T.test = function(_, f) pcall(f) end
FUZZ_T.raises = function(f) local _, e = pcall(f); return tostring(e) end
]]

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local written = 0
local function write(name, text)
  if #text > maxbytes then return false end
  local f = assert(io.open(outdir .. "/" .. name, "wb"))
  f:write(text)
  f:close()
  written = written + 1
  return true
end

for i = 3, #arg do
  local path = arg[i]
  local base = path:match("([^/]+)%.lua$")
  local dir = path:match("([^/]+)/[^/]+$")
  local text = read(path)
  if not text:find("\nT%.test%(") then
    if #text <= maxbytes then write(dir .. "_" .. base .. ".lua", text) end
  else
    text = text:gsub("require%s*%(?%s*[\"']caluna%.test[\"']%s*%)?", "FUZZ_T")
    local first = text:find("\nT%.test%(")
    local header = stub .. text:sub(1, first)
    local rest = text:sub(first + 1) .. "\n"
    local n = 0
    -- Each test runs from its "T.test(" line to the next one (or the end).
    local pos = 1
    while pos <= #rest do
      local nxt = rest:find("\nT%.test%(", pos + 1)
      local block = rest:sub(pos, nxt or #rest)
      pos = nxt and nxt + 1 or #rest + 1
      n = n + 1
      local name = string.format("%s_%s_%02d.lua", dir, base, n)
      if not write(name, header .. block) then write(name, stub .. "local ca = require 'caluna'\nlocal T = FUZZ_T\n" .. block) end
    end
  end
end
io.write(written, " seeds\n")
