-- Chapter 14 (image IO) and the memory accounting of chapter 13: what images
-- and backing stores cost (G10), decode counting (G13/G15), PNG/JPEG round
-- trips through files and strings, and bad images as errors, not crashes.
-- Spec: shared/spec/book-ch10-15.md §1.4/§1.5, G10, G13, G15, F47/F48;
-- book-ch01-04.md §1.5 (backing store = bounds × contentsScale pixels).
local ca = require "caluna"
local T = require "caluna.test"
local F = dofile(T.dir .. "/fixtures/images.lua")

local red, green, blue, yellow = "#ff0000", "#00ff00", "#0000ff", "#ffff00"

local function readAll(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end
local function writeAll(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end
-- A temporary path, removed by the returned function.
local function tmp(suffix)
  local p = os.tmpname()
  os.remove(p)
  p = p .. (suffix or "")
  return p, function() os.remove(p) end
end

---------------------------------------------------------------------------
-- G10: byte accounting

T.test("G10/F48 a 1024×768 drawn layer at contentsScale 2 holds 2048×1536×4 = 12,582,912 bytes", function()
  local L = ca.Layer{ frame = {0, 0, 1024, 768}, contentsScale = 2 }
  L.draw = function(layer, ctx) ctx:setFillColor(red):fillRect{0, 0, 10, 10} end
  L:setNeedsDisplay()
  ca.root:addSublayer(L)
  ca.render()
  T.eq({L.contents.width, L.contents.height}, {2048, 1536})
  T.eq(L.contents.byteCount, 12582912)
  local s = ca.stats()
  T.eq(s.backingStoreBytes, 12582912)
  T.eq(s.imageBytes, 0, "a backing store is not an image")
  T.eq(s.drawCallbacks, 1)
  T.eq(s.dirtyPixels, 2048 * 1536)
  -- a gauge: it stays while the layer holds its store, and goes with it
  ca.render()
  T.eq(ca.stats().backingStoreBytes, 12582912)
  L:removeFromSuperlayer()
  ca.render()
  T.eq(ca.stats().backingStoreBytes, 0, "a layer outside the tree costs the tree nothing")
end, { size = {100, 100} })

T.test("G10/F47 ten layers sharing one 100×100 image count 40,000 bytes once", function()
  local img = F.solid(100, 100, 0, 0, 255)
  T.eq(img.byteCount, 40000)
  for i = 1, 10 do
    local L = ca.Layer{ frame = {(i - 1) * 20, 0, 20, 20} }
    L.contents = img
    ca.root:addSublayer(L)
  end
  local out = ca.render()
  local s = ca.stats()
  T.eq(s.imageBytes, 40000)
  T.eq(s.backingStoreBytes, 0)
  T.pixel(out, 195, 10, blue)
  -- contrast: ten distinct images of the same size cost ten times as much
  ca.Transaction.setDisableActions(true)
  for _, L in ipairs(ca.root.sublayers) do
    L.contents = F.solid(100, 100, 0, 0, 255)
  end
  ca.render()
  T.eq(ca.stats().imageBytes, 400000)
end, { size = {200, 20} })

T.test("G10/F50 solid-colour layers have no backing store", function()
  ca.root.backgroundColor = "#808080"
  for i = 1, 20 do
    local L = ca.Layer{ frame = {i * 5, i * 3, 50, 50}, backgroundColor = i % 2 == 0 and red or green,
                        cornerRadius = i % 3, opacity = 0.8 }
    ca.root:addSublayer(L)
  end
  ca.render()
  local s = ca.stats()
  T.eq(s.backingStoreBytes, 0)
  T.eq(s.imageBytes, 0)
  T.eq(s.drawCallbacks, 0)
  for _, L in ipairs(ca.root.sublayers) do T.eq(L.contents, nil) end
end, { size = {200, 200} })

T.test("G10 a backing store and an image: each counted in its own gauge", function()
  local q = F.Q()
  local A = ca.Layer{ frame = {0, 0, 50, 40} }
  A.draw = function(layer, ctx) ctx:setFillColor(red):fillRect(layer.bounds) end
  A:display()
  local B = ca.Layer{ frame = {50, 0, 50, 40} }
  B.contents = q
  local C = ca.Layer{ frame = {0, 40, 50, 40} }
  C.contents = A.contents                               -- sharing a drawn store counts it once
  ca.root:addSublayer(A); ca.root:addSublayer(B); ca.root:addSublayer(C)
  ca.render()
  local s = ca.stats()
  T.eq(s.backingStoreBytes, 50 * 40 * 4)
  T.eq(s.imageBytes, 200 * 200 * 4)
end, { size = {100, 80} })

---------------------------------------------------------------------------
-- G13/G15: decode counting

T.test("G13/G15 imagesDecoded counts a load once; repeat frames decode nothing", function()
  local path, done = tmp(".png")
  F.Q():write(path)
  ca.render()
  T.eq(ca.stats().imagesDecoded, 0, "nothing loaded yet")
  local img = ca.Image.load(path)
  local L = ca.Layer{ frame = {0, 0, 100, 100} }
  L.contents = img
  ca.root:addSublayer(L)
  ca.render()
  T.eq(ca.stats().imagesDecoded, 1, "one PNG decoded for this frame")
  ca.render()
  T.eq(ca.stats().imagesDecoded, 0, "the decoded image is reused")
  ca.Image.fromData(readAll(path))
  ca.render()
  T.eq(ca.stats().imagesDecoded, 1, "fromData decodes too")
  F.solid(4, 4, 1, 2, 3)
  ca.render()
  T.eq(ca.stats().imagesDecoded, 0, "raw pixels are not decoded")
  done()
end, { size = {100, 100} })

---------------------------------------------------------------------------
-- Round trips

T.test("PNG round trip through a file and through fromData is exact (straight alpha kept)", function()
  local path, done = tmp(".png")
  for _, img in ipairs{ F.Q(), F.CIRCLE(), F.CHALK(), F.TWO() } do
    img:write(path)
    local back = ca.Image.load(path)
    T.eq({back.width, back.height}, {img.width, img.height})
    local bad, maxDiff = back:compare(img)
    T.eq(bad, 0, "file: " .. tostring(img) .. " differs (largest " .. maxDiff .. ")")
    local data = readAll(path)
    T.eq(data:sub(1, 8), "\137PNG\r\n\26\n", "a PNG signature")
    local fromData = ca.Image.fromData(data)
    T.eq(fromData:compare(img), 0, "fromData: " .. tostring(img))
  end
  local c = ca.Image.load((function() F.CIRCLE():write(path); return path end)())
  T.eq(select(4, c:pixel(0, 0)), 0, "a transparent corner (its colour is undefined)")
  T.eq({c:pixel(50, 50)}, {255, 0, 255, 255})
  -- a render written and read back is the render
  ca.root.backgroundColor = "#336699"
  ca.root:addSublayer(ca.Layer{ frame = {10, 10, 30, 30}, backgroundColor = yellow, opacity = 0.5 })
  T.eq(select("#", ca.render(path)), 0, "ca.render(path) returns nothing")
  local out = ca.render()
  T.eq(ca.Image.load(path):compare(out), 0)
  done()
end, { size = {64, 48} })

T.test("JPEG round trip: same size, colours close, alpha dropped", function()
  local path, done = tmp(".jpg")
  local q = F.Q()
  q:writeJPEG(path, 95)
  local data = readAll(path)
  T.eq(data:sub(1, 3), "\255\216\255", "a JPEG SOI marker")
  for _, back in ipairs{ ca.Image.load(path), ca.Image.fromData(data) } do
    T.eq({back.width, back.height}, {200, 200})
    local bad, maxDiff = back:compare(q, 12)
    T.eq(bad, 0, "pixels off by more than 12 (largest " .. maxDiff .. ")")
    for _, p in ipairs{ {50, 50, 255, 0, 0}, {150, 50, 0, 255, 0}, {50, 150, 0, 0, 255}, {150, 150, 255, 255, 0} } do
      local r, g, b, a = back:pixel(p[1], p[2])
      T.near({r, g, b, a}, {p[3], p[4], p[5], 255}, 4, "quadrant centre " .. p[1] .. "," .. p[2])
    end
  end
  -- quality matters: a low quality file is smaller
  local small, doneSmall = tmp(".jpg")
  q:writeJPEG(small, 10)
  T.truthy(#readAll(small) < #data, "quality 10 is smaller than quality 95")
  doneSmall()
  -- transparency is dropped: every pixel is opaque
  F.CIRCLE():writeJPEG(path)
  local c = ca.Image.load(path)
  local _, _, _, a0 = c:pixel(0, 0)
  local _, _, _, a1 = c:pixel(50, 50)
  T.eq(a0, 255); T.eq(a1, 255)
  T.raises(function() q:writeJPEG(path, 0) end, "quality")
  T.raises(function() q:writeJPEG(path, 101) end, "quality")
  done()
end)

---------------------------------------------------------------------------
-- Bad images: errors, not crashes

T.test("bad files: missing, a directory, text, a truncated PNG, an empty file", function()
  T.raises(function() ca.Image.load("/nonexistent/dir/snowman.png") end, "Image.load")
  T.raises(function() ca.Image.load(T.dir) end, "Image.load")
  local path, done = tmp(".png")
  writeAll(path, "This is a text file, not an image.\n")
  T.raises(function() ca.Image.load(path) end, "Image.load")
  F.Q():write(path)
  local png = readAll(path)
  writeAll(path, png:sub(1, #png // 2))
  T.raises(function() ca.Image.load(path) end, "Image.load", "a truncated PNG")
  writeAll(path, png:sub(1, 40))
  T.raises(function() ca.Image.load(path) end, "Image.load", "only the header")
  writeAll(path, "")
  T.raises(function() ca.Image.load(path) end, "Image.load", "an empty file")
  -- a PNG whose pixel data was overwritten
  writeAll(path, png:sub(1, 60) .. string.rep("\0", 200) .. png:sub(261))
  T.raises(function() ca.Image.load(path) end, "Image.load", "corrupt data")
  F.Q():writeJPEG(path)
  local jpg = readAll(path)
  writeAll(path, jpg:sub(1, 200))
  local ok, err = pcall(ca.Image.load, path)
  T.truthy(ok or tostring(err):find("Image.load", 1, true), "a truncated JPEG: an image or a clean error, got " .. tostring(err))
  done()
  T.raises(function() ca.Image.load(42) end, "Image.load")
  T.raises(function() ca.Image.load() end, "Image.load")
  -- the engine is still usable
  ca.root.backgroundColor = red
  T.pixel(ca.render(), 5, 5, red)
end, { size = {10, 10} })

T.test("bad data strings: empty, text, truncated PNG, not a string", function()
  T.raises(function() ca.Image.fromData("") end, "Image.fromData")
  T.raises(function() ca.Image.fromData("GIF89a...") end, "Image.fromData")
  local path, done = tmp(".png")
  F.CIRCLE():write(path)
  local png = readAll(path)
  done()
  T.raises(function() ca.Image.fromData(png:sub(1, #png // 2)) end, "Image.fromData")
  T.raises(function() ca.Image.fromData(png:sub(1, 8)) end, "Image.fromData", "the signature alone")
  T.raises(function() ca.Image.fromData(nil) end, "Image.fromData")
  T.raises(function() ca.Image.fromData({}) end, "Image.fromData")
  T.eq(ca.Image.fromData(png).width, 100, "the whole file still decodes")
end)

T.test("fromPixels refuses absurd sizes, NaN, negatives and a wrong byte count", function()
  T.raises(function() ca.Image.fromPixels(100000, 100000, "") end, "too large")
  T.raises(function() ca.Image.fromPixels(1e15, 1, "") end, "Image.fromPixels")
  T.raises(function() ca.Image.fromPixels(-1, 10, "") end, "Image.fromPixels")
  T.raises(function() ca.Image.fromPixels(10, -5, "") end, "Image.fromPixels")
  T.raises(function() ca.Image.fromPixels(0, 0, "") end, "Image.fromPixels")
  T.raises(function() ca.Image.fromPixels(0 / 0, 10, "") end, "Image.fromPixels")
  T.raises(function() ca.Image.fromPixels(10, 0 / 0, "") end, "Image.fromPixels")
  T.raises(function() ca.Image.fromPixels(math.huge, 1, "") end, "Image.fromPixels")
  T.raises(function() ca.Image.fromPixels(2.5, 2, string.rep("\0", 20)) end, "whole number")
  T.raises(function() ca.Image.fromPixels(2, 2, "abc") end, "16 bytes")
  T.raises(function() ca.Image.fromPixels(2, 2, string.rep("\0", 17)) end, "16 bytes")
  T.raises(function() ca.Image.fromPixels(2, 2, string.rep("\0", 16), "argb") end, "format")
  T.raises(function() ca.Image.fromPixels(2, 2, 42) end, "Image.fromPixels")
  T.raises(function() ca.Image.fromPixels("2", "2") end, "Image.fromPixels")
  -- the good case, with each format
  local px = string.char(255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 128)
  local img = ca.Image.fromPixels(2, 2, px)
  T.eq({img.width, img.height, img.byteCount}, {2, 2, 16})
  T.eq({img:pixel(0, 0)}, {255, 0, 0, 255})
  T.eq({img:pixel(1, 0)}, {0, 255, 0, 255})
  local bgra = ca.Image.fromPixels(2, 2, px, "bgra")
  T.eq({bgra:pixel(0, 0)}, {0, 0, 255, 255}, "bgra: the first byte is blue")
  local pm = ca.Image.fromPixels(1, 1, string.char(64, 0, 0, 128), "rgbaPremultiplied")
  local r, g, b, a = pm:pixel(0, 0)
  T.eq(a, 128); T.near(r, 128, 1, "premultiplied 64 at alpha 128 is straight 128")
  T.raises(function() img:pixel(2, 0) end, "outside")
  T.raises(function() img:pixel(-1, 0) end, "outside")
  -- a large but legal image works
  local big = ca.Image.fromPixels(1024, 1024, string.rep("\255\0\0\255", 1024 * 1024))
  T.eq(big.byteCount, 4 * 1024 * 1024)
end)
