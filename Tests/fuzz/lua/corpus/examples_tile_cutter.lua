-- Listings 6.11 and 6.12: the TileCutter tool and a CATiledLayer that shows its tiles.
--   TileCutter (6.11) cuts an image into 256×256 tiles saved as "<name>_CC_RR.png" (column
--   first, then row; the book writes JPEG, PNG keeps the test exact). Cropping is Core
--   Animation's own: a layer shows the tile's part of the image through contentsRect
--   (CGImageCreateWithImageInRect) and is snapshotted at scale 1; edge tiles are cut short.
--   The scene (6.12): a 2048×2048 picture drawn on demand by a CATiledLayer inside a 512×512
--   clipping "scroll view" scrolled to (640, 384): only the visible tiles are drawn, each by
--   drawing the matching cut tile into the tile's clip rect.
-- Cut a file:  TILE_CUTTER_INPUT=Snowman.png caluna run examples/tile_cutter.lua -o /dev/null
-- Render:      caluna run examples/tile_cutter.lua -o tile_cutter.png --size 512x512
-- As a library: local cutter = dofile("examples/tile_cutter.lua"); cutter.cut(image, base)
local ca = require "caluna"

local M = { tileSize = 256 }

--- The region (x, y, w, h) of `image` (pixels, y down) as a new image.
function M.crop(image, x, y, w, h)
  local W, H = image.width, image.height
  local l = ca.Layer{ bounds = {0, 0, w, h}, contents = image, contentsRect = {x / W, y / H, w / W, h / H} }
  return l:snapshot(1)
end

--- Cuts `image` into tiles written as base_CC_RR.png; returns the columns and rows.
function M.cut(image, base)
  local size = M.tileSize
  local cols, rows = math.ceil(image.width / size), math.ceil(image.height / size)
  for y = 0, rows - 1 do
    for x = 0, cols - 1 do
      local w = math.min(size, image.width - x * size)
      local h = math.min(size, image.height - y * size)
      M.crop(image, x * size, y * size, w, h):write(("%s_%02d_%02d.png"):format(base, x, y))
    end
  end
  return cols, rows
end

--- A 2048×2048 stand-in for the book's Snowman.jpg: a snowman on a sky with a grid.
function M.snowman()
  local l = ca.Layer{ bounds = {0, 0, 2048, 2048} }
  l.draw = function(_, ctx)
    ctx:drawLinearGradient{ colors = {"#3b6fb6", "#c9e3f7"}, locations = {0, 1}, start = {0, 0}, ["end"] = {0, 2048} }
    ctx:setFillColor("#ffffff")
    ctx:fillEllipseInRect({624, 1088, 800, 800})
    ctx:fillEllipseInRect({724, 528, 600, 600})
    ctx:fillEllipseInRect({824, 128, 400, 400})
    ctx:setFillColor("#202020")
    ctx:fillEllipseInRect({924, 250, 50, 50}):fillEllipseInRect({1074, 250, 50, 50})
    ctx:setFillColor("#ff8000")
    ctx:fillRect({1004, 320, 40, 40})
    ctx:setStrokeColor("#00000040"):setLineWidth(2)
    for i = 0, 2048, 128 do ctx:strokeRect({i, 0, 128, 2048}):strokeRect({0, i, 2048, 128}) end
  end
  l:display()
  return l.contents
end

local input = os and os.getenv and os.getenv("TILE_CUTTER_INPUT")
if input then
  local cols, rows = M.cut(ca.Image.load(input), (input:gsub("%.[^./]*$", "")))
  print(("%s: %d × %d tiles"):format(input, cols, rows))
end

-- The scene, unless cutting files.
if not input then
  local w, h = ca.size()
  ca.Transaction.setDisableActions(true)
  ca.root.backgroundColor = "#1b1d22"
  local picture = M.snowman()
  local tiles = {}
  local scroll = ca.Layer{ frame = {0, 0, w, h}, masksToBounds = true, bounds = {640, 384, w, h} }
  local tiled = ca.TiledLayer{ frame = {0, 0, 2048, 2048}, fadeDuration = 0 }
  tiled.draw = function(layer, ctx)   -- the book's drawLayer:inContext:
    local clip = ctx:clipBoundingBox()
    local x = math.floor(clip.x / layer.tileSize.width * layer.contentsScale)
    local y = math.floor(clip.y / layer.tileSize.height * layer.contentsScale)
    local key = x .. "_" .. y
    tiles[key] = tiles[key] or M.crop(picture, x * 256, y * 256, 256, 256)
    ctx:drawImage(tiles[key], clip)
  end
  scroll:addSublayer(tiled)
  ca.root:addSublayer(scroll)
end

return M
