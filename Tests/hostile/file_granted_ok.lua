-- Inside a granted directory every file call works (render, write, writeJPEG, load,
-- loadEvents); the escape at the end is still refused.
-- expect: not allowed in the sandbox
-- output: granted ok
-- creates: granted/ok.png granted/ok2.png granted/ok3.png granted/ok.jpg
-- args: --instruction-limit 1000000 --memory-limit 64 --time-limit 5 --allow-read granted --allow-write granted
local ca = require "caluna"
ca.root.backgroundColor = "orange"
ca.render("granted/ok.png")
ca.render{ path = "granted/ok2.png" }
local img = ca.render()
img:write("granted/ok3.png")
img:writeJPEG("granted/ok.jpg", 80)
local back = ca.Image.load("granted/ok3.png")
local fixture = ca.Image.load("granted/in.png")
local events = ca.loadEvents("granted/events.jsonl")
if back.width == img.width and fixture.width == 16 and events >= 1 then print("granted ok") end
img:write("granted/../hostile-escape.png")
