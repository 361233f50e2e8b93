-- Misuse raises clear Lua errors (naming the API, the expectation and the
-- given value) and the engine stays usable afterwards (DESIGN §4 "Lua").
local ca = require "caluna"
local T = require "caluna.test"

-- A small scene every test builds first: white root, a blue square at (10,10,20,20).
local function scene()
  ca.root.backgroundColor = "#ffffff"
  local l = ca.Layer{ frame = {10, 10, 20, 20}, backgroundColor = "#0000ff", name = "probe" }
  ca.root:addSublayer(l)
  return l
end

-- The scene is unchanged and still renders correctly.
local function healthy(l)
  T.eq(l.frame, {10, 10, 20, 20}, "the layer's frame survived")
  T.eq(l.backgroundColor, {r = 0, g = 0, b = 1, a = 1}, "the layer's colour survived")
  local img = ca.render()
  T.pixel(img, 20, 20, "#0000ff")
  T.pixel(img, 5, 5, "#ffffff")
  T.pixel(img, 35, 35, "#ffffff")
  local extra = ca.Layer{ frame = {40, 0, 10, 10}, backgroundColor = "#ff0000" }
  ca.root:addSublayer(extra)
  T.pixel(ca.render(), 45, 5, "#ff0000", 3, "a new layer still draws")
  extra:removeFromSuperlayer()
end

local opts = { size = {50, 50} }

T.test("errors: a point expects {x, y}", function()
  local l = scene()
  T.raises(function() l.position = "abc" end, 'Layer.position expects a point {x, y}, got string "abc"')
  T.raises(function() l.position = {1} end, "Layer.position expects a point")
  T.raises(function() l.position = {x = 1, y = "2"} end, "Layer.position expects a point")
  T.raises(function() l.anchorPoint = true end, "Layer.anchorPoint expects a point {x, y}, got true")
  T.raises(function() l:hitTest("x") end, "Layer:hitTest")
  T.raises(function() l:containsPoint(nil) end, "Layer:containsPoint")
  healthy(l)
end, opts)

T.test("errors: a size expects {w, h}", function()
  local l = scene()
  T.raises(function() l:setValueForKeyPath("x", "bounds.size") end, 'bounds.size expects a size {w, h}, got string "x"')
  T.raises(function() ca.setup{ size = "x" } end, "ca.setup size expects a size {w, h}")
  T.raises(function() ca.setup{ size = {100} } end, "ca.setup size expects a size")
  T.eq({ca.size()}, {50, 50}, "the output size is unchanged")
  healthy(l)
end, opts)

T.test("errors: a rect expects {x, y, w, h}", function()
  local l = scene()
  T.raises(function() l.bounds = 5 end, "Layer.bounds expects a rect {x, y, w, h}, got number 5")
  T.raises(function() l.frame = {1, 2, 3} end, "Layer.frame expects a rect")
  T.raises(function() l:convertRectToLayer({0, 0}, nil) end, "Layer:convertRectToLayer")
  healthy(l)
end, opts)

T.test("errors: a colour expects #rrggbb, a CSS name or {r, g, b, a}", function()
  local l = scene()
  T.raises(function() l.backgroundColor = 5 end, "Layer.backgroundColor expects a colour")
  T.raises(function() l.backgroundColor = "nocolour" end, 'unknown colour "nocolour"')
  T.raises(function() l.backgroundColor = "#12345" end, 'unknown colour "#12345"')
  T.raises(function() l.backgroundColor = {2, 0, 0} end, "colour components must be in 0…1 (got {2, 0, 0, 1})")
  T.raises(function() l.backgroundColor = {-0.5, 0, 0, 1} end, "colour components must be in 0…1")
  T.raises(function() ca.color({}) end, "ca.color")
  healthy(l)
  -- DESIGN §4: the error names the API, like every other Layer.<key> error.
  T.raises(function() l.backgroundColor = {2, 0, 0} end, "Layer.backgroundColor")
end, opts)

T.test("errors: a boolean expects true or false", function()
  local l = scene()
  T.raises(function() l.hidden = 1 end, "Layer.hidden expects a boolean, got number 1")
  T.raises(function() l.masksToBounds = "yes" end, 'Layer.masksToBounds expects a boolean, got string "yes"')
  T.raises(function() l.geometryFlipped = {} end, "Layer.geometryFlipped expects a boolean")
  T.eq(l.hidden, false)
  healthy(l)
end, opts)

T.test("errors: a number expects a number", function()
  local l = scene()
  T.raises(function() l.opacity = "0.5" end, 'Layer.opacity expects a number, got string "0.5"')
  T.raises(function() l.zPosition = {} end, "Layer.zPosition expects a number")
  T.raises(function() l.anchorPointZ = false end, "Layer.anchorPointZ expects a number, got false")
  T.raises(function() l:insertSublayer(ca.Layer(), "1") end, "Layer:insertSublayer")
  T.raises(function() l.name = 5 end, "Layer.name expects a string, got number 5")
  T.eq(l.opacity, 1)
  healthy(l)
end, opts)

T.test("errors: a transform expects a Transform3D", function()
  local l = scene()
  T.raises(function() l.transform = {1, 0, 0, 1} end, "Layer.transform expects a Transform3D")
  T.raises(function() l.affineTransform = 3 end, "Layer.affineTransform expects a Transform3D, got number 3")
  T.raises(function() return ca.Transform3D.identity:concat(5) end, "Transform3D:concat")
  T.raises(function() return ca.Transform3D.identity * 2 end, "Transform3D")
  T.raises(function() ca.Transform3D.identity.m11 = "2" end, "Transform3D.m11 expects a finite number")
  T.raises(function() ca.Transform3D.identity.x = 2 end, "Transform3D has no field 'x'")
  T.truthy(l.transform:isIdentity())
  healthy(l)
end, opts)

T.test("errors: NaN and math.huge are refused", function()
  local l = scene()
  local nan, inf = 0 / 0, math.huge
  T.raises(function() l.position = {nan, 1} end, "Layer.position must be finite")
  T.raises(function() l.position = {1, inf} end, "Layer.position must be finite")
  T.raises(function() l.bounds = {0, 0, -inf, 1} end, "Layer.bounds must be finite")
  T.raises(function() l.opacity = nan end, "Layer.opacity must be finite")
  T.raises(function() l.zPosition = -inf end, "Layer.zPosition must be finite")
  T.raises(function() l.backgroundColor = {nan, 0, 0, 1} end, "(got {nan, 0, 0, 1})")
  T.raises(function() return ca.Transform3D.translation(nan, 1) end, "Transform3D.translation: argument 1 must be finite")
  T.raises(function() return ca.AffineTransform.rotation(inf) end, "must be finite")
  T.raises(function() l:hitTest({nan, 0}) end, "must be finite")
  T.raises(function() ca.step(nan) end, "ca.step: argument 1 must be finite")
  T.raises(function() ca.setup{ scale = inf } end, "scale must be in (0, 16]")
  healthy(l)
end, opts)

T.test("errors: an unknown property is an error, reading or writing", function()
  local l = scene()
  T.raises(function() l.foo = 5 end, "Layer has no property 'foo'")
  T.raises(function() return l.foo end, "Layer has no property 'foo'")
  T.raises(function() return l:valueForKeyPath("position.z") end, "'position.z' is not a key path of Layer")
  T.raises(function() l:setValueForKeyPath(1, "nope.x") end, "Layer has no property 'nope'")
  T.raises(function() ca.Layer{ colour = "red" } end, "Layer has no property 'colour'")
  T.raises(function() l.superlayer = ca.root end, "Layer.superlayer is read-only")
  T.raises(function() ca.root = l end, "ca.root is read-only")
  healthy(l)
end, opts)

T.test("errors: a not-yet-supported property says so", function()
  local l = scene()
  T.raises(function() l.contentsFormat = "RGBA8Uint" end, "Layer property 'contentsFormat' is not supported yet")
  T.raises(function() l.contentsFormat = "RGBA8Uint" end, "not supported")
  T.raises(function() ca.Layer{ cornerCurve = "continuous" } end, "not supported")
  healthy(l)
end, opts)

T.test("errors: negative sizes and 1e9 coordinates", function()
  local l = scene()
  T.raises(function() l.bounds = {0, 0, -1, 5} end, "bounds: width and height must not be negative")
  T.raises(function() l.frame = {0, 0, 5, -5} end, "frame: width and height must not be negative")
  T.raises(function() l.position = {1e9, 1} end, "position: 1000000000")
  T.raises(function() l.position = {1e9, 1} end, "beyond the supported range")
  T.raises(function() l.bounds = {0, -1e9, 1, 1} end, "beyond the supported range")
  T.raises(function() l.zPosition = 1e9 end, "beyond the supported range")
  T.raises(function() l.anchorPoint = {-1e9, 0} end, "beyond the supported range")
  healthy(l)
end, opts)

T.test("errors: huge transforms render without harm", function()
  local l = scene()
  local far = ca.Layer{ frame = {0, 0, 10, 10}, backgroundColor = "#ff0000" }
  ca.root:addSublayer(far)
  far.transform = ca.Transform3D.translation(1e300, 0)
  T.pixel(ca.render(), 5, 5, "#ffffff", 3, "translated out of sight")
  far.transform = ca.Transform3D.scale(1e300, 1e300)
  ca.render()
  far.transform = ca.Transform3D.scale(0, 0)
  T.pixel(ca.render(), 5, 5, "#ffffff", 3, "a singular transform draws nothing")
  T.raises(function() return ca.root:convertPointToLayer({1, 1}, far) end, "convert")
  far:removeFromSuperlayer()
  healthy(l)
end, opts)

T.test("errors: cycles in the tree are refused", function()
  local l = scene()
  local a, b = ca.Layer(), ca.Layer()
  a:addSublayer(b)
  T.raises(function() a:addSublayer(a) end, "cannot become a sublayer of itself")
  T.raises(function() b:addSublayer(a) end, "of its own descendant")
  T.raises(function() l:addSublayer(ca.root) end, "addSublayer")
  T.raises(function() b:insertSublayer(a, 1) end, "own descendant")
  T.raises(function() b.sublayers = {a} end, "own descendant")
  T.raises(function() l.sublayers = {a, a} end, "the same layer appears twice")
  T.same(b.superlayer, a)
  T.eq(a.superlayer, nil)
  T.eq(#l.sublayers, 0)
  healthy(l)
end, opts)

T.test("errors: other tree misuse", function()
  local l = scene()
  T.raises(function() l:replaceSublayer(ca.Layer(), ca.Layer()) end, "replaceSublayer: the layer to replace is not a sublayer")
  T.raises(function() l:insertSublayerAbove(ca.Layer(), ca.Layer()) end, "the sibling is not a sublayer")
  T.raises(function() l:addSublayer(nil) end, "Layer:addSublayer: argument 2 expects a Layer")
  T.raises(function() l:addSublayer({}) end, "expects a Layer")
  T.raises(function() l.sublayers = 5 end, "Layer.sublayers expects an array of Layers, got number 5")
  T.raises(function() l.sublayers = {ca.Layer(), 5} end, "Layer.sublayers[2] expects a Layer")
  T.raises(function() l:convertPointToLayer({0, 0}, 5) end, "argument 3 expects a Layer")
  T.raises(function() l:convertPointToLayer({0, 0}, ca.Layer()) end, "not in the same layer tree")
  healthy(l)
end, opts)

T.test("errors: insertSublayer index out of range names the index given", function()
  local l = scene()
  l:addSublayer(ca.Layer())
  -- Valid indices are 1…#sublayers + 1 = 1…2.
  T.raises(function() l:insertSublayer(ca.Layer(), 1.5) end, "the index must be a whole number (got 1.5)")
  local e5 = T.raises(function() l:insertSublayer(ca.Layer(), 5) end, "out of range")
  local e0 = T.raises(function() l:insertSublayer(ca.Layer(), 0) end, "out of range")
  T.eq(#l.sublayers, 1)
  healthy(l)
  -- DESIGN §4: the message names the value given (Lua indices are 1-based).
  T.truthy(e5:find("index 5", 1, true), "the message should name the index given (5): " .. e5)
  T.truthy(e5:find("1…2", 1, true), "the message should give the 1-based range 1…2: " .. e5)
  T.truthy(e0:find("index 0", 1, true), "the message should name the index given (0): " .. e0)
end, opts)

T.test("errors: time never goes backwards", function()
  local l = scene()
  T.raises(function() ca.step(-1) end, "step: time must not be negative (got -1")
  T.eq(ca.mediaTime(), 0)
  ca.advance(5)
  T.raises(function() ca.advance(2) end, "advance: time cannot go backwards (now 5.0 s, asked 2.0 s)")
  T.eq(ca.mediaTime(), 5)
  T.raises(function() ca.step(1e12) end, "beyond the clock's range")
  T.raises(function() ca.step("1") end, "ca.step: argument 1 expects a number")
  ca.step(0.5)
  T.eq(ca.mediaTime(), 5.5)
  healthy(l)
end, opts)

T.test("errors: ca.setup refuses absurd outputs", function()
  local l = scene()
  T.raises(function() ca.setup{ size = {1e9, 1e9} } end, "too large (at most 16384 per side)")
  T.raises(function() ca.setup{ size = {0, 10} } end, "size must be positive and finite")
  T.raises(function() ca.setup{ size = {-5, 10} } end, "size must be positive and finite")
  T.raises(function() ca.setup{ scale = 0 } end, "scale must be in (0, 16]")
  T.raises(function() ca.setup{ scale = 100 } end, "scale must be in (0, 16]")
  T.raises(function() ca.setup{ size = {10000, 10000}, scale = 2 } end, "too large")
  T.raises(function() ca.setup(5) end, "ca.setup: argument 1 expects a table")
  T.eq({ca.size()}, {50, 50})
  T.eq(ca.scale(), 1)
  healthy(l)
  ca.setup{ size = {60, 40}, scale = 2 }
  T.eq({ca.pixelSize()}, {120, 80})
  T.eq(ca.root.frame, {0, 0, 60, 40})
  T.pixel(ca.render(), 20, 20, "#0000ff", 3, "after a valid setup")
end, opts)

T.test("errors: ca.Layer keys must be property names", function()
  local l = scene()
  T.raises(function() ca.Layer{ [1] = 2 } end, "ca.Layer{…}: keys must be property names, got a number key")
  T.raises(function() ca.Layer{ {0, 0} } end, "keys must be property names")
  T.raises(function() ca.Layer(5) end, "ca.Layer: argument 2 expects a table")
  T.raises(function() ca.Layer{ layoutSublayers = 5 } end, "Layer.layoutSublayers expects a function or nil, got number 5")
  T.eq(#ca.root.sublayers, 1, "no stray layer joined the tree")
  healthy(l)
end, opts)

T.test("errors: a failing layoutSublayers makes render raise with its file:line", function()
  local l = scene()
  local line
  local P = ca.Layer{ frame = {0, 0, 50, 50} }
  ca.root:insertSublayer(P, 1)
  ca.render()
  P.layoutSublayers = function(self) line = debug.getinfo(1, "l").currentline; error("layout went wrong") end
  P:setNeedsLayout()
  local msg = T.raises(function() ca.render() end, "layout went wrong")
  T.truthy(line, "the callback ran")
  T.truthy(msg:find("errors.lua:" .. line .. ": layout went wrong", 1, true), "file:line expected, got: " .. msg)
  healthy(l)                          -- the failed pass is over: later renders work
  -- ca.step and layoutIfNeeded report it the same way.
  P:setNeedsLayout()
  T.raises(function() ca.step(0) end, "errors.lua:" .. line .. ": layout went wrong")
  P:setNeedsLayout()
  T.raises(function() P:layoutIfNeeded() end, "layout went wrong")
  -- A non-string error object is reported too.
  P.layoutSublayers = function() error({}) end
  P:setNeedsLayout()
  T.raises(function() ca.render() end, "table")
  -- A fixed callback runs normally.
  local calls = 0
  P.layoutSublayers = function() calls = calls + 1 end
  P:setNeedsLayout()
  healthy(l)
  T.eq(calls, 1)
end, opts)

T.test("errors: a layer tree deeper than 1024 levels is refused, not a crash", function()
  local l = scene()
  local top = ca.Layer{ frame = {0, 0, 10, 10} }
  local chain, depth = top, 1
  -- The root is level 1 and top will be level 2: 1022 more levels fit.
  for _ = 1, 1022 do
    local child = ca.Layer{ frame = {0, 0, 10, 10} }
    chain:addSublayer(child)
    chain, depth = child, depth + 1
  end
  ca.root:addSublayer(top)
  local extra = ca.Layer{ frame = {0, 0, 10, 10} }
  T.raises(function() chain:addSublayer(extra) end, "more than 1024 levels deep")
  top:removeFromSuperlayer()
  chain:addSublayer(extra)             -- detached, the chain may grow …
  T.raises(function() ca.root:addSublayer(top) end, "more than 1024 levels deep")   -- … but not join
  healthy(l)
end, opts)

T.test("a Lua string with a NUL inside is kept whole, not cut at the NUL", function()
  local l = ca.Layer{ name = "a\0b" }
  T.eq(#l.name, 3)
  T.eq(l.name, "a\0b")
  -- Text layers refuse it (pango lays out C strings): an error, not a silent cut.
  T.raises(function() ca.TextLayer{ string = "x\0y" } end, "NUL")
end)

T.test("a constructor table of more than 1024 keys is refused while it is walked (hostile)", function()
  local t = {}
  for i = 1, 200000 do t["k" .. i] = i end
  T.raises(function() ca.Layer(t) end, "ca.Layer{…}: more than 1024 keys")
  T.raises(function() ca.BasicAnimation(t) end, "more than 1024 keys")
  -- 1024 keys are still walked and the first unknown one named.
  local few = {}
  for i = 1, 1024 do few["k" .. i] = i end
  T.raises(function() ca.Layer(few) end, "k")
end)
