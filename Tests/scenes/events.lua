-- The event model (issue #8), apart from the book's interactions (interactions.lua):
-- bubbling and consuming, hover, pointer capture, the tap/pan slop, handler errors and
-- hostile ca.send / ca.loadEvents input.
local ca = require "caluna"
local T = require "caluna.test"

local function keys(l) return table.concat(l:animationKeys(), ",") end

--- A 200×200 root with parent P (frame 20,20,120,120) holding child C (10,10,50,50)
--- and a sibling S (150,20,40,40); returns them.
local function tree()
  local P = ca.Layer { name = "P", frame = { 20, 20, 120, 120 }, backgroundColor = "gray" }
  local C = ca.Layer { name = "C", frame = { 10, 10, 50, 50 }, backgroundColor = "red" }
  local S = ca.Layer { name = "S", frame = { 150, 20, 40, 40 }, backgroundColor = "blue" }
  P:addSublayer(C)
  ca.root:addSublayer(P)
  ca.root:addSublayer(S)
  ca.step(0)
  return P, C, S
end
local SMALL = { size = { 200, 200 } }

T.test("bubbling: hit layer, then superlayers, then ca.on; a handler returning true stops the rest", function()
  local P, C = tree()
  local log = {}
  local function logger(tag, consume)
    return function(e)
      log[#log + 1] = string.format("%s:%s:%s:%s", tag, e.target and e.target.name or "-",
                                    e.layer and e.layer.name or "-", e.type)
      return consume[1]
    end
  end
  local cConsumes, pConsumes = { false }, { false }
  C:on("tap", logger("C", cConsumes))
  P:on("tap", logger("P", pConsumes))
  ca.on("tap", logger("engine", { false }))
  ca.send { type = "tap", x = 40, y = 40 }        -- in C
  ca.step(0)
  T.eq(table.concat(log, " "), "C:C:C:tap P:C:P:tap engine:C:-:tap", "bubbles C → P → engine")
  log = {}
  cConsumes[1] = true
  ca.send { type = "tap", x = 40, y = 40 }
  ca.step(0)
  T.eq(table.concat(log, " "), "C:C:C:tap", "C returned true: P and ca.on never see it")
  log = {}
  ca.send { type = "tap", x = 120, y = 120 }      -- in P, outside C
  ca.step(0)
  T.eq(table.concat(log, " "), "P:P:P:tap engine:P:-:tap", "a hit on P starts at P")
  log = {}
  pConsumes[1] = true
  ca.send { type = "tap", x = 120, y = 120 }
  ca.step(0)
  T.eq(table.concat(log, " "), "P:P:P:tap", "P returned true: ca.on never sees it")
  log = {}
  ca.send { type = "tap", x = 195, y = 195 }      -- the root: only the engine handler
  ca.step(0)
  T.eq(table.concat(log, " "), "engine:root:-:tap")
end, SMALL)

T.test("hover: pointer moves without a down are hit-tested one by one", function()
  local P, C, S = tree()
  local log = {}
  for _, l in ipairs { P, C, S } do
    l:on("pointermove", function(e) log[#log + 1] = l.name .. "<" .. e.target.name; return true end)
  end
  ca.on("pointermove", function(e) log[#log + 1] = "engine<" .. (e.target and e.target.name or "-") end)
  for i, p in ipairs { { 40, 40 }, { 120, 120 }, { 170, 40 }, { 190, 190 } } do
    ca.send { type = "pointermove", x = p[1], y = p[2], time = i * 0.1 }
  end
  ca.advance(1)
  T.eq(table.concat(log, " "), "C<C P<P S<S engine<root", "each move goes to the layer under it")
end, SMALL)

T.test("capture: a pointer's moves and up go to the layer it went down on, even outside it", function()
  local P, C, S = tree()
  local log = {}
  for _, l in ipairs { C, S } do
    for _, kind in ipairs { "pointerdown", "pointermove", "pointerup", "tap", "pan" } do
      l:on(kind, function(e)
        log[#log + 1] = string.format("%s:%s@%g,%g", l.name, e.state ~= nil and (kind .. "." .. e.state) or kind, e.x, e.y)
        return true
      end)
    end
  end
  -- From C (40, 40) to S (170, 40) and beyond the output, in two moves.
  ca.send { type = "drag", from = { 40, 40 }, to = { 170, 40 }, duration = 0.2, steps = 2 }
  ca.step(0.5)
  T.eq(table.concat(log, " "),
       "C:pointerdown@40,40 C:pointermove@105,40 C:pan.began@105,40 C:pointermove@170,40 C:pan.changed@170,40 " ..
       "C:pointerup@170,40 C:pan.ended@170,40", "S never sees the pointer that went down on C")
  -- A second pointer (id 2) that went down on S is S's, at the same time.
  log = {}
  ca.send { type = "pointerdown", id = 1, x = 40, y = 40 }
  ca.send { type = "pointerdown", id = 2, x = 170, y = 40 }
  ca.send { type = "pointerup", id = 1, x = 170, y = 40 }
  ca.send { type = "pointerup", id = 2, x = 40, y = 40 }
  ca.step(0)
  T.eq(table.concat(log, " "),
       "C:pointerdown@40,40 S:pointerdown@170,40 C:pointerup@170,40 S:pointerup@40,40", "two pointers, two captures")
  T.eq(ca.pendingEvents(), 0)
end, SMALL)

T.test("tap vs pan: a 9 pt move is still a tap; 10 pt too; 11 pt is a pan and no tap", function()
  local P, C = tree()
  local log = {}
  C:on("tap", function() log[#log + 1] = "tap" end)
  C:on("pan", function(e) log[#log + 1] = string.format("pan.%s(%g,%g)", e.state, e.translation.x, e.translation.y) end)
  local function gesture(dx, dy)
    log = {}
    ca.send { type = "pointerdown", x = 30, y = 30 }
    ca.send { type = "pointermove", x = 30 + dx, y = 30 + dy }
    ca.send { type = "pointerup", x = 30, y = 30 }
    ca.step(0)
    return table.concat(log, " ")
  end
  T.eq(gesture(9, 0), "tap", "9 pt away and back: a tap")
  T.eq(gesture(6, 8), "tap", "exactly 10 pt (6, 8): not more than the slop")
  T.eq(gesture(11, 0), "pan.began(11,0) pan.ended(0,0)", "11 pt: a pan, and no tap even though it came back")
  T.eq(gesture(0, -11), "pan.began(0,-11) pan.ended(0,0)")
end, SMALL)

T.test("a handler's error reaches ca.step with file:line; the other handlers still ran and the engine goes on", function()
  local P, C = tree()
  local seen = {}
  local line = debug.getinfo(1, "l").currentline + 1
  C:on("tap", function(e) error(string.format("boom at %g", e.x)) end)
  ca.on("tap", function(e) seen[#seen + 1] = e.time end)
  ca.send { type = "tap", x = 40, y = 40, time = 0.5 }
  local ok, err = pcall(ca.advance, 1)
  T.falsy(ok, "ca.advance raised")
  err = tostring(err)
  T.truthy(err:find("events.lua:" .. line .. ": boom at 40", 1, true), "file:line and the message: " .. err)
  T.eq(ca.mediaTime(), 1, "the frame completed")
  T.eq(#seen, 1, "the engine handler still saw the tap")
  T.eq(seen[1], 0.5)
  -- The engine keeps working: more input, an implicit animation, a render.
  C:off("tap")
  C.backgroundColor = "blue"
  ca.send { type = "tap", x = 40, y = 40 }
  ca.step(0)
  T.eq(#seen, 2, "a later tap is delivered")
  T.eq(keys(C), "backgroundColor")
  ca.step(0.25)
  T.pixel(ca.render(), 40, 40, "blue", 2)
  T.eq(ca.pendingEvents(), 0)
end, SMALL)

T.test("hostile ca.send input: a clear error each, and nothing is queued", function()
  tree()
  local cases = {
    { { type = "tap", x = 0 / 0, y = 1 }, "numbers must be finite (at x)" },
    { { type = "custom", name = "n", data = { list = { 1, 0 / 0 } } }, "numbers must be finite (at data.list[2])" },
    { { type = "tapp", x = 1, y = 1 }, "unknown event type 'tapp'" },
    { { type = "tap", x = 1, y = 1, colour = 3 }, "tap event: unknown field 'colour'" },
    { { type = "tap", y = 1 }, "tap event: 'x' is required" },
    { { type = "pointerdown", x = "1", y = 1 }, "'x' must be a number" },
    { { type = "drag", from = { 0, 0 }, to = { 10, 10 }, steps = 1e9 }, "steps must be a whole number in 1…10000" },
    { { type = "drag", from = { 0, 0 }, to = { 10, 10 }, steps = 2.5 }, "steps must be a whole number" },
    { { type = "drag", from = { 0, 0 } }, "drag event: 'to' is required" },
    { { type = "pointerdown", x = 1, y = 1, modifiers = { "hyper" } }, "'modifiers' must be a list of shift, control, alt, meta" },
    { { type = "pointerdown", x = 1, y = 1, modifiers = { "Shift" } }, "'modifiers' must be a list" },
    { { type = "pointerdown", x = 1, y = 1, modifiers = "shift" }, "'modifiers' must be a list" },
    { { type = "pointerdown", x = 1, y = 1, time = -1 }, "time must be a finite number ≥ 0" },
    { { type = "pointerdown", x = 1, y = 1, time = math.huge }, "must be finite" },
    { { type = "pointerdown", x = 1, y = 1, id = 1.5 }, "'id' must be a whole number" },
    { { type = "pointerdown", x = 1, y = 1, buttons = -1 }, "buttons must be a bit mask" },
    { { type = "tap", x = 1, y = 1, duration = -1 }, "'duration' must be in 0…3600 seconds" },
    { { type = "pan", x = 1, y = 1 }, "a pan is recognised by the engine from pointer events" },
    { { type = "custom", name = "tap" }, "'tap' is a built-in event" },
    { { type = "custom", name = "" }, "a custom event needs a name" },
    { { type = "tilt", x = 1 }, "tilt event: 'y' is required" },
    { { type = "resize", width = -5, height = 10 }, "size must be positive and finite" },
    { { type = "keydown" }, "keydown event: 'key' is required" },
    { { x = 1, y = 1 }, "an event needs a 'type'" },
  }
  for i, c in ipairs(cases) do
    T.raises(function() ca.send(c[1]) end, c[2], "case " .. i)
    T.eq(ca.pendingEvents(), 0, "case " .. i .. ": nothing queued")
  end
  T.raises(function() ca.send("tap") end, "ca.send: argument 1 expects a table, got string")
  T.raises(function() ca.send(42) end, "expects a table")
  T.raises(function() ca.send() end, "expects a table")
  -- Deep and cyclic data: an error, and the Lua stack stays sound (a regression: 28 levels
  -- used to overflow the C function's stack and corrupt memory).
  for _, depth in ipairs { 20, 28, 31, 32, 40, 200 } do
    local d = {}
    local c = d
    for _ = 1, depth do c.a = {}; c = c.a end
    local ok = pcall(ca.send, { type = "custom", name = "deep", data = d })
    T.eq(ok, depth < 31, "depth " .. depth)
    collectgarbage()
  end
  local cyc = {}
  cyc.self = cyc
  T.raises(function() ca.send { type = "custom", name = "cycle", data = cyc } end, "nested more than 32 deep")
  collectgarbage()
  T.eq(ca.pendingEvents(), 2, "the shallow ones (20 and 28 deep) were queued")
  ca.step(0)
  T.eq(ca.pendingEvents(), 0)
  -- Names handlers can never receive.
  T.raises(function() ca.on("Tap", function() end) end, "did you mean 'tap'?")
  T.raises(function() ca.root:on("tilt", function() end) end, "'tilt' never reaches a layer")
  T.raises(function() ca.hitTestTree("modle") end, "\"presentation\" or \"model\"")
  -- A file: all or nothing, the bad line named.
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write('{"time": 1, "type": "tap", "x": 10, "y": 10}\n# a comment\n\n{"time": 2, "type": "tap", "x": 10}\n')
  f:close()
  local err = T.raises(function() ca.loadEvents(path) end, ":4: tap event: 'y' is required")
  T.truthy(err:find(path, 1, true), "the error names the file")
  T.eq(ca.pendingEvents(), 0, "no event of a bad file is queued")
  f = assert(io.open(path, "w"))
  f:write('{"time": 1, "type": "tap", "x": 10, "y": 10}\n{"time": 2, "type": "tap", "x": 10,\n')
  f:close()
  T.raises(function() ca.loadEvents(path) end, ":2: not valid JSON")
  T.eq(ca.pendingEvents(), 0)
  os.remove(path)
  T.raises(function() ca.loadEvents(path) end, path)
  -- The engine is fine: a good event still works.
  local hit = 0
  ca.on("tap", function() hit = hit + 1 end)
  local mods
  ca.on("pointerdown", function(e) mods = e.modifiers end)
  ca.send { type = "tap", x = 10, y = 10, modifiers = { "shift", "alt" } }
  T.eq(ca.pendingEvents(), 2)
  ca.step(0)
  T.eq(hit, 1)
  T.eq(mods.shift, true); T.eq(mods.alt, true); T.eq(mods.control, nil); T.eq(mods.meta, nil)
end, SMALL)
