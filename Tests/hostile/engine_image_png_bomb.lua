-- A decompression bomb made in Lua: a 1.7 MB PNG (one fixed-Huffman deflate block of
-- 258-byte runs) that decodes to 8192 × 8192 RGBA pixels, 256 MiB of engine memory, under
-- a 64 MiB cap. ca.Image.fromData must refuse it before or while it allocates.
-- expect: memory limit
-- args: --instruction-limit 200000000 --memory-limit 64 --time-limit 5
local ca = require "caluna"
local W, H = 8192, 8192
local N = H * (1 + W * 4)                      -- filter byte 0 and four zero bytes a pixel

-- Deflate, bits least significant first; Huffman codes are stored reversed.
local out, acc, nacc = {}, 0, 0
local function put(v, n)
  acc = acc | (v << nacc); nacc = nacc + n
  while nacc >= 8 do out[#out + 1] = string.char(acc & 255); acc = acc >> 8; nacc = nacc - 8 end
end
local function rev(v, n) local r = 0 for _ = 1, n do r = (r << 1) | (v & 1); v = v >> 1 end return r end
local LIT0, MATCH258, DIST1, EOB = rev(0x30, 8), rev(0xC5, 8), 0, 0
local function match() put(MATCH258, 8); put(DIST1, 5) end
put(1, 1); put(1, 2)                          -- BFINAL, fixed Huffman
put(LIT0, 8)                                  -- the first zero
local matches = (N - 1) // 258
local literals = (N - 1) % 258
for _ = 1, 8 do match() end                   -- after this the state repeats every 8 matches
local mark = #out
for _ = 1, 8 do match() end
local period = table.concat(out, "", mark + 1)  -- 13 bytes: 8 matches in the steady state
local groups = (matches - 16) // 8
local rest = (matches - 16) % 8
local head = table.concat(out)
out = {}
for _ = 1, rest do match() end
for _ = 1, literals do put(LIT0, 8) end
put(EOB, 7)
if nacc > 0 then put(0, 8 - nacc) end
local deflate = head .. period:rep(groups) .. table.concat(out)
local adler = ((N % 65521) << 16) | 1
local zlib = "\x78\x01" .. deflate .. string.pack(">I4", adler)

local crcTable = {}
for i = 0, 255 do
  local c = i
  for _ = 1, 8 do c = (c & 1 == 1) and (0xEDB88320 ~ (c >> 1)) or (c >> 1) end
  crcTable[i] = c
end
local function crc(s)
  local c = 0xFFFFFFFF
  local n = #s
  local i = 1
  while i + 7 <= n do
    local a, b, d, e, f, g, h, k = s:byte(i, i + 7)
    c = crcTable[(c ~ a) & 255] ~ (c >> 8); c = crcTable[(c ~ b) & 255] ~ (c >> 8)
    c = crcTable[(c ~ d) & 255] ~ (c >> 8); c = crcTable[(c ~ e) & 255] ~ (c >> 8)
    c = crcTable[(c ~ f) & 255] ~ (c >> 8); c = crcTable[(c ~ g) & 255] ~ (c >> 8)
    c = crcTable[(c ~ h) & 255] ~ (c >> 8); c = crcTable[(c ~ k) & 255] ~ (c >> 8)
    i = i + 8
  end
  for j = i, n do c = crcTable[(c ~ s:byte(j)) & 255] ~ (c >> 8) end
  return c ~ 0xFFFFFFFF
end
local function chunk(kind, data) return string.pack(">I4", #data) .. kind .. data .. string.pack(">I4", crc(kind .. data)) end
local png = "\137PNG\r\n\26\n" .. chunk("IHDR", string.pack(">I4I4BBBBB", W, H, 8, 6, 0, 0, 0))
  .. chunk("IDAT", zlib) .. chunk("IEND", "")

local bombs = {}
for i = 1, 2 do bombs[i] = ca.Image.fromData(png) end   -- 512 MiB if nothing stops it
ca.root.contents = bombs[1]
print(#png, bombs[1].width, bombs[1].height)
