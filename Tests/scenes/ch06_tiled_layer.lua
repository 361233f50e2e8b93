-- Chapter 6, listing 6.12: CATiledLayer — tiles drawn on demand through the layer's draw
-- path, once each, with a clip of one tile in layer points; tileSize in pixels (F65, F68);
-- the fade-in on the engine clock (F66); levels of detail; invalidation; bad input.
-- Spec: shared/spec/book-ch05-06.md §2.10, §3 listing 6.12 (T6.12), §4 F64–F69, §6 item 9.
-- T6.11 (TileCutter) runs examples/tile_cutter.lua, which also shows listing 6.12.
local ca = require "caluna"
local T = require "caluna.test"

local S512 = { size = {512, 512} }

-- Listing 6.12's scene: a 1024×1024 tiled layer in a 512×512 clipping parent (the scroll
-- view). The delegate records each clip rect and fills the tile with a colour from its
-- index (the book loads Snowman_XX_YY.jpg there).
local function colourOf(col, row) return { (col * 60 % 256) / 255, (row * 60 % 256) / 255, 0.5, 1 } end

local function tiledScene(props)
  ca.Transaction.setDisableActions(true)
  local parent = ca.Layer{ frame = {0, 0, 512, 512}, masksToBounds = true }
  local tiled = ca.TiledLayer{ frame = {0, 0, 1024, 1024}, fadeDuration = 0 }
  for k, v in pairs(props or {}) do tiled[k] = v end
  local calls = {}
  tiled.draw = function(layer, ctx)
    local clip = ctx:clipBoundingBox()
    calls[#calls + 1] = clip
    local scale = layer.contentsScale
    local col = math.floor(clip.x / layer.tileSize.width * scale)
    local row = math.floor(clip.y / layer.tileSize.height * scale)
    ctx:setFillColor(colourOf(col, row))
    ctx:fillRect(clip)
  end
  parent:addSublayer(tiled)
  ca.root:addSublayer(parent)
  return parent, tiled, calls
end

local function rects(calls)
  local out = {}
  for i, c in ipairs(calls) do out[i] = { c.x, c.y, c.width, c.height } end
  table.sort(out, function(a, b) return a[2] < b[2] or (a[2] == b[2] and a[1] < b[1]) end)
  for i, r in ipairs(out) do out[i] = ("%g,%g,%g,%g"):format(r[1], r[2], r[3], r[4]) end
  return table.concat(out, " ")
end

-- The same list written out: "x,y,w,h x,y,w,h …" in row order.
local function list(t)
  local out = {}
  for i, r in ipairs(t) do out[i] = table.concat(r, ",") end
  return table.concat(out, " ")
end

T.test("T6.12 defaults: tileSize 256×256 pixels, levelsOfDetail 1, bias 0, fadeDuration 0.25 (F65, F66)", function()
  local t = ca.TiledLayer()
  T.eq(t.className, "CATiledLayer")
  T.eq(t.tileSize, {256, 256})
  T.eq(t.levelsOfDetail, 1)
  T.eq(t.levelsOfDetailBias, 0)
  T.eq(t.fadeDuration, 0.25)
  local names = {}
  for _, p in ipairs(ca.properties("TiledLayer")) do names[p.key or p.name or p[1]] = true end
  T.truthy(names.tileSize and names.fadeDuration, "tileSize and fadeDuration are TiledLayer properties")
  T.raises(function() ca.Layer().tileSize = {128, 128} end, "belongs to CATiledLayer")
end)

T.test("T6.12 on demand: exactly the 4 visible tiles, with their clip rects; each drawn once", function()
  local parent, tiled, calls = tiledScene()
  local img = ca.render()
  T.eq(#calls, 4, "4 callbacks for the visible 512×512 of 16 tiles")
  T.eq(rects(calls), list({ {0, 0, 256, 256}, {256, 0, 256, 256}, {0, 256, 256, 256}, {256, 256, 256, 256} }))
  T.eq(calls[1].width, 256, "a clip rect's width is the tile's 256 points at scale 1")
  T.eq(ca.stats().tilesDrawn, 4)
  T.eq(ca.stats().drawCallbacks, 4)
  -- Each tile shows the colour of its index.
  T.pixel(img, 10, 10, colourOf(0, 0), 1)
  T.pixel(img, 300, 10, colourOf(1, 0), 1)
  T.pixel(img, 10, 300, colourOf(0, 1), 1)
  T.pixel(img, 511, 511, colourOf(1, 1), 1)
  -- Cached: later frames draw nothing new.
  ca.step(1 / 60)
  local again = ca.render()
  T.eq(#calls, 4, "no callback for tiles already drawn")
  T.eq(ca.stats().tilesDrawn, 0)
  local n = again:compare(img)
  T.eq(n, 0, "the cached tiles show the same pixels")
end, S512)

T.test("T6.12 scrolling: parent bounds.origin (512, 512) draws the tiles at x, y ∈ {512, 768}", function()
  local parent, tiled, calls = tiledScene()
  ca.render()
  T.eq(#calls, 4)
  ca.Transaction.setDisableActions(true)
  parent.bounds = {512, 512, 512, 512}
  local img = ca.render()
  T.eq(#calls, 8, "4 new callbacks")
  local new = {}
  for i = 5, 8 do new[#new + 1] = calls[i] end
  T.eq(rects(new), list({ {512, 512, 256, 256}, {768, 512, 256, 256}, {512, 768, 256, 256}, {768, 768, 256, 256} }))
  T.pixel(img, 10, 10, colourOf(2, 2), 1)
  T.pixel(img, 500, 500, colourOf(3, 3), 1)
  -- Scrolling back reuses the first four.
  ca.Transaction.setDisableActions(true)
  parent.bounds = {0, 0, 512, 512}
  ca.render()
  T.eq(#calls, 8, "tiles drawn before are cached")
end, S512)

T.test("T6.12 Retina: contentsScale 2 at render scale 2 gives 128-point tiles, 16 callbacks, indices 0…3 (F68, F69)", function()
  local parent, tiled, calls = tiledScene({ contentsScale = 2 })
  local img = ca.render()
  T.eq(#calls, 16, "16 callbacks for the visible 512×512 points")
  local cols, rows = {}, {}
  for _, c in ipairs(calls) do
    T.eq({c.width, c.height}, {128, 128}, "a tile is 128×128 points (256 pixels)")
    cols[math.floor(c.x / tiled.tileSize.width * 2)] = true
    rows[math.floor(c.y / tiled.tileSize.height * 2)] = true
  end
  for i = 0, 3 do T.truthy(cols[i] and rows[i], "index " .. i .. " from floor(origin / tileSize · scale)") end
  T.falsy(cols[4] or rows[4], "no index beyond 3")
  -- The tile at index (3, 2) covers points 384…512 × 256…384: 768…1024 × 512…768 pixels.
  T.pixel(img, 400, 300, colourOf(3, 2), 1)
  T.pixel(img, 383, 255, colourOf(2, 1), 1)
end, { size = {512, 512}, scale = 2 })

T.test("T6.12 tileSize 128×128 at scale 1 gives 16 callbacks of 128 points", function()
  local parent, tiled, calls = tiledScene({ tileSize = {128, 128} })
  ca.render()
  T.eq(#calls, 16)
  for _, c in ipairs(calls) do T.eq({c.width, c.height}, {128, 128}) end
end, S512)

T.test("the draw context: the tile's clip, its pixel scale, and the Lua delegate's drawLayer", function()
  ca.Transaction.setDisableActions(true)
  local tiled = ca.TiledLayer{ frame = {0, 0, 300, 200}, fadeDuration = 0, contentsScale = 2, tileSize = {200, 200} }
  local seen = {}
  tiled.delegate = { drawLayer = function(self, layer, ctx)
    seen[#seen + 1] = { clip = ctx:clipBoundingBox(), scale = ctx.contentsScale, layer = layer }
    ctx:setFillColor("red")
    ctx:fillRect(ctx:clipBoundingBox())
  end }
  ca.root:addSublayer(tiled)
  local img = ca.render()
  -- 100-point tiles; the bottom row is cut by the bounds (height 200 = 2 rows exactly).
  T.eq(#seen, 6)
  for _, s in ipairs(seen) do
    T.eq(s.scale, 2, "the context has the tile's scale (contentsScale · 2^level)")
    T.same(s.layer, tiled)
  end
  T.pixel(img, 299, 199, "red")
  T.pixel(img, 301, 100, {0, 0, 0, 0})
end, { size = {400, 300}, scale = 2 })

T.test("edge tiles are clipped to the bounds", function()
  ca.Transaction.setDisableActions(true)
  local tiled = ca.TiledLayer{ frame = {0, 0, 600, 300}, fadeDuration = 0 }
  local calls = {}
  tiled.draw = function(layer, ctx) calls[#calls + 1] = ctx:clipBoundingBox() end
  ca.root:addSublayer(tiled)
  ca.render()
  T.eq(rects(calls), list({ {0, 0, 256, 256}, {256, 0, 256, 256}, {512, 0, 88, 256},
                       {0, 256, 256, 44}, {256, 256, 256, 44}, {512, 256, 88, 44} }))
end, { size = {600, 300} })

T.test("no callback for tiles off screen; a hidden or transparent tiled layer draws none", function()
  ca.Transaction.setDisableActions(true)
  local tiled = ca.TiledLayer{ frame = {-1000, -1000, 4096, 4096}, fadeDuration = 0 }
  local calls = {}
  tiled.draw = function(layer, ctx) calls[#calls + 1] = ctx:clipBoundingBox() end
  ca.root:addSublayer(tiled)
  ca.render()
  -- The 100×100 canvas shows layer points 1000…1100: tiles 3 and 4 in each direction.
  T.eq(rects(calls), list({ {768, 768, 256, 256}, {1024, 768, 256, 256}, {768, 1024, 256, 256}, {1024, 1024, 256, 256} }))
  ca.Transaction.setDisableActions(true)
  tiled.hidden = true
  tiled:setNeedsDisplay()
  ca.render()
  ca.Transaction.setDisableActions(true)
  tiled.hidden = false
  tiled.opacity = 0
  ca.render()
  T.eq(#calls, 4, "nothing drawn while hidden or transparent")
end, { size = {100, 100} })

T.test("setNeedsDisplay drops every tile; setNeedsDisplayInRect only the tiles it meets", function()
  local parent, tiled, calls = tiledScene()
  ca.render()
  tiled:setNeedsDisplayInRect({300, 10, 10, 10})
  ca.render()
  T.eq(#calls, 5, "one tile redrawn")
  T.eq({calls[5].x, calls[5].y}, {256, 0})
  tiled:setNeedsDisplayInRect({250, 250, 10, 10})
  ca.render()
  T.eq(#calls, 9, "a rect across four tiles redraws four")
  tiled:setNeedsDisplay()
  ca.render()
  T.eq(#calls, 13, "all visible tiles redrawn")
  T.falsy(tiled:needsDisplay())
  tiled:display()
  ca.render()
  T.eq(#calls, 17, "display() redraws the tiles at the next render, not into contents")
  T.eq(tiled.contents, nil)
end, S512)

T.test("a tiled layer scrolling its own bounds keeps its whole tiles; a changed edge tile is redrawn", function()
  ca.Transaction.setDisableActions(true)
  local tiled = ca.TiledLayer{ frame = {0, 0, 300, 300}, fadeDuration = 0 }
  local calls = {}
  tiled.draw = function(layer, ctx) calls[#calls + 1] = ctx:clipBoundingBox() end
  ca.root:addSublayer(tiled)
  ca.render()
  T.eq(rects(calls), list({ {0, 0, 256, 256}, {256, 0, 44, 256}, {0, 256, 256, 44}, {256, 256, 44, 44} }))
  ca.Transaction.setDisableActions(true)
  tiled.bounds = {100, 0, 300, 300}        -- scrolled right by 100 (CAScrollLayer style)
  ca.render()
  local new = {}
  for i = 5, #calls do new[#new + 1] = calls[i] end
  -- (0, 0) and (0, 256) stay whole-or-cut the same; the cut tiles at x = 256 grow to 144.
  T.eq(rects(new), list({ {100, 0, 156, 256}, {256, 0, 144, 256}, {100, 256, 156, 44}, {256, 256, 144, 44} }))
end, { size = {300, 300} })

T.test("identical scenes give identical bytes", function()
  local parent, tiled, calls = tiledScene({ contentsScale = 2 })
  local a = ca.render()
  tiled:setNeedsDisplay()
  local b = ca.render()
  T.eq(#calls, 12, "6 tiles of 128 points (level 2×), drawn twice")
  T.eq(a:compare(b), 0)
end, { size = {300, 200}, scale = 1.5 })

T.test("levels of detail: the level follows the render scale within levelsOfDetail and the bias", function()
  ca.Transaction.setDisableActions(true)
  local tiled = ca.TiledLayer{ frame = {0, 0, 512, 512}, fadeDuration = 0, levelsOfDetail = 3, levelsOfDetailBias = 1 }
  local scales = {}
  tiled.draw = function(layer, ctx) scales[#scales + 1] = ctx.contentsScale end
  ca.root:addSublayer(tiled)
  ca.render()
  T.eq(#scales, 4, "1×: four 256-point tiles")
  T.eq(scales[1], 1)
  ca.Transaction.setDisableActions(true)
  tiled.transform = ca.Transform3D.scale(0.25, 0.25, 1)
  ca.render()
  T.eq(scales[#scales], 0.25, "at ¼ size the ¼× level: one 1024-point tile")
  T.eq(#scales, 5)
  ca.Transaction.setDisableActions(true)
  tiled.transform = ca.Transform3D.scale(0.1, 0.1, 1)
  ca.render()
  T.eq(scales[#scales], 0.25, "the lowest level is ¼× (levelsOfDetail 3)")
  T.eq(#scales, 5, "the ¼× tile is cached")
  ca.Transaction.setDisableActions(true)
  tiled.transform = ca.Transform3D.scale(4, 4, 1)
  ca.render()
  T.eq(scales[#scales], 2, "magnified: the 2× level is the highest (bias 1)")
end, S512)

T.test("T6.12 fade: a new tile is ≈50 % in at 0.125 s and fully in at 0.25 s (F66)", function()
  ca.Transaction.setDisableActions(true)
  ca.root.backgroundColor = "black"
  local tiled = ca.TiledLayer{ frame = {0, 0, 256, 256} }
  T.eq(tiled.fadeDuration, 0.25)
  tiled.draw = function(layer, ctx) ctx:setFillColor("white"); ctx:fillRect(ctx:clipBoundingBox()) end
  ca.root:addSublayer(tiled)
  local r0 = ca.render()
  T.pixel(r0, 100, 100, "black", 1)          -- drawn at t = 0: not faded in yet
  ca.advance(0.125)
  T.pixel(ca.render(), 100, 100, {0.5, 0.5, 0.5, 1}, 2)
  ca.advance(0.25)
  T.pixel(ca.render(), 100, 100, "white", 0)
  ca.advance(1)
  T.pixel(ca.render(), 100, 100, "white", 0)
  -- A redrawn tile fades in again from its new draw time.
  tiled:setNeedsDisplay()
  T.pixel(ca.render(), 100, 100, "black", 1)
  ca.advance(1.0625)
  T.pixel(ca.render(), 100, 100, {0.25, 0.25, 0.25, 1}, 2)
  tiled.fadeDuration = 0
  T.pixel(ca.render(), 100, 100, "white", 0)
end, { size = {256, 256} })

T.test("bad input: tileSize, levels, fadeDuration; too many tiles; errors in the callback", function()
  local t = ca.TiledLayer()
  T.raises(function() t.tileSize = {0, 256} end, "tileSize must be 1…4096 pixels")
  T.raises(function() t.tileSize = {256, 1e9} end, "tileSize must be 1…4096 pixels")
  T.raises(function() t.tileSize = {0 / 0, 256} end, "tileSize")
  T.raises(function() t.levelsOfDetail = 0 end, "levelsOfDetail must be a whole number in 1…16")
  T.raises(function() t.levelsOfDetail = 1.5 end, "levelsOfDetail must be a whole number")
  T.raises(function() t.levelsOfDetailBias = -1 end, "levelsOfDetailBias must be a whole number in 0…16")
  T.raises(function() t.fadeDuration = -1 end, "fadeDuration must be 0…3600")
  T.raises(function() t.fadeDuration = 1 / 0 end, "fadeDuration")
  T.raises(function() t.tileSize = "big" end, "tileSize")
  T.eq(t.tileSize, {256, 256}, "unchanged after the errors")
  ca.Transaction.setDisableActions(true)
  t.frame = {0, 0, 64, 64}
  t.bounds = {0, 0, 4000, 4000}
  t.transform = ca.Transform3D.scale(0.016, 0.016, 1)   -- 4000 points in 64 pixels at level 1×
  t.tileSize = {4, 4}
  t.fadeDuration = 0
  t.draw = function() end
  ca.root:addSublayer(t)
  T.raises(function() ca.render() end, "one render would draw 1000000 tiles (at most 16384)")
  ca.Transaction.setDisableActions(true)
  t.transform = ca.Transform3D.identity
  t.tileSize = {256, 256}
  t.draw = function(layer, ctx) error("tile failed") end
  T.raises(function() ca.render() end, "tile failed")
  t.draw = function(layer, ctx) ca.render() end
  T.raises(function() ca.render() end, "cannot be called from inside a callback")
  t.draw = function(layer, ctx) ctx:fillRect(ctx:clipBoundingBox()) end
  local img = ca.render()
  T.pixel(img, 5, 5, "black")
end, { size = {64, 64} })

-- Listing 6.11: the TileCutter of examples/tile_cutter.lua (also listing 6.12's scene).
local cutterPath = T.dir .. "/../../examples/tile_cutter.lua"

-- Whether tile `tile` equals the region of `image` at (x0, y0), pixel for pixel.
local function sameRegion(tile, image, x0, y0)
  for y = 0, tile.height - 1 do
    for x = 0, tile.width - 1 do
      local r, g, b, a = tile:pixel(x, y)
      local R, G, B, A = image:pixel(x0 + x, y0 + y)
      if r ~= R or g ~= G or b ~= B or a ~= A then return false, ("(%d, %d)"):format(x, y) end
    end
  end
  return true
end

T.test("T6.11 TileCutter: a 2048×2048 image gives 64 tiles; _03_05 is the region (768, 1280, 256, 256) (F64)", function()
  local cutter = dofile(cutterPath)
  local image = cutter.snowman()
  T.eq({image.width, image.height}, {2048, 2048})
  local base = os.tmpname()
  local cols, rows = cutter.cut(image, base .. "_snowman")
  T.eq({cols, rows}, {8, 8})
  local files = 0
  for x = 0, 8 do
    for y = 0, 8 do
      local name = ("%s_snowman_%02d_%02d.png"):format(base, x, y)
      local f = io.open(name, "rb")
      if f then f:close(); files = files + 1 end
      if x == 8 or y == 8 then T.falsy(f, name .. " must not exist") end
    end
  end
  T.eq(files, 64, "Snowman_00_00 … Snowman_07_07")
  local tile = ca.Image.load(("%s_snowman_%02d_%02d.png"):format(base, 3, 5))
  T.eq({tile.width, tile.height}, {256, 256})
  T.truthy(sameRegion(tile, image, 768, 1280), "tile _03_05 is the image's region (768, 1280, 256, 256)")
  T.falsy(sameRegion(tile, image, 1280, 768), "column first, then row")
  for x = 0, 7 do for y = 0, 7 do os.remove(("%s_snowman_%02d_%02d.png"):format(base, x, y)) end end
  os.remove(base)
  -- 600×300: 3 columns × 2 rows, the edge tiles cut to 88 and 44 pixels.
  local small = cutter.crop(image, 700, 900, 600, 300)
  local base2 = os.tmpname()
  T.eq({cutter.cut(small, base2)}, {3, 2})
  local sizes = {}
  for y = 0, 1 do
    for x = 0, 2 do
      local t = ca.Image.load(("%s_%02d_%02d.png"):format(base2, x, y))
      sizes[#sizes + 1] = t.width .. "×" .. t.height
      os.remove(("%s_%02d_%02d.png"):format(base2, x, y))
    end
  end
  os.remove(base2)
  T.eq(table.concat(sizes, " "), "256×256 256×256 88×256 256×44 256×44 88×44")
  T.truthy(sameRegion(cutter.crop(small, 512, 256, 88, 44), image, 1212, 1156), "the corner tile is the right region")
end)

T.test("listing 6.12's scene (examples/tile_cutter.lua): the scrolled view draws only its 9 tiles", function()
  dofile(cutterPath)
  local img = ca.render()
  T.eq(ca.stats().tilesDrawn, 9, "columns 2…4 × rows 1…3 are visible at (640, 384)")
  -- The view's (0, 0) is the picture's (640, 384): the snowman's middle ball (centre
  -- (1024, 828)) is at (384, 444): white beside the grid line there.
  T.pixel(img, 400, 430, "white", 0)
  T.golden(img, "ch06/tiled_l612_scene")
end, S512)
