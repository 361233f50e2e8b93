#!/usr/bin/env bash
# Tests of the caluna CLI: frames, single PNGs, dump, test, help, error
# reporting, scripted input (--events) and --watch. Usage: Tests/cli/cli_test.sh PATH/TO/caluna-cli
# Needs .build/lua/caluna.so (scripts/build-lua-module) to inspect PNGs.
set -uo pipefail
cli=${1:?usage: cli_test.sh path/to/caluna-cli}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok    $1"; }
bad() { failed=$((failed + 1)); echo "  FAIL  $1${2:+: $2}"; }
check() { if eval "$2"; then ok "$1"; else bad "$1" "$3"; fi; }
# Prints "W H" of a PNG through the stock-lua module.
png_size() {
  LUA_CPATH="$repo/.build/lua/?.so" lua5.4 -e "local ca = require 'caluna'; local i = ca.Image.load('$1'); print(i.width .. ' ' .. i.height)"
}
# Prints "R G B A" of the pixel at X Y of a PNG.
png_pixel() {
  LUA_CPATH="$repo/.build/lua/?.so" lua5.4 -e "local ca = require 'caluna'; local i = ca.Image.load('$1'); print(table.concat({i:pixel($2, $3)}, ' '))"
}
# Waits until the shell condition $1 holds, for at most $2 tenths of a second.
wait_for() {
  local i
  for ((i = 0; i < ${2:-300}; i++)); do eval "$1" && return 0; sleep 0.1; done
  return 1
}

cat > "$tmp/scene.lua" <<'LUA'
local ca = require "caluna"
ca.root.backgroundColor = "white"
ca.root:addSublayer(ca.Layer{ frame = {10, 10, 20, 20}, backgroundColor = "blue", name = "box" })
LUA

"$cli" run "$tmp/scene.lua" -o "$tmp/frames/" --frames 3 --fps 30 --size 100x50 --scale 2 -q
check "run writes --frames files" '[ -f "$tmp/frames/frame_0000.png" ] && [ -f "$tmp/frames/frame_0002.png" ] && [ ! -e "$tmp/frames/frame_0003.png" ]'
check "frames are size x scale pixels" '[ "$(png_size "$tmp/frames/frame_0001.png")" = "200 100" ]' "$(png_size "$tmp/frames/frame_0001.png")"

"$cli" run "$tmp/scene.lua" -o "$tmp/one.png" --at 1.5 --size 64x64 2>"$tmp/summary"
check "run -o file.png --at writes one frame" '[ "$(png_size "$tmp/one.png")" = "64 64" ]'
check "a one-line summary when not a terminal" 'grep -q "1 frame of 64×64 px" "$tmp/summary" && [ "$(wc -l < "$tmp/summary")" -eq 1 ]' "$(cat "$tmp/summary")"

"$cli" run "$tmp/scene.lua" -o "$tmp/new/dir/one.png" -q
check "run -o creates the PNG's parent directories" '[ -f "$tmp/new/dir/one.png" ]'
printf 'local ca = require "caluna"\nca.render("/nonexistent-dir/x.png")\n' > "$tmp/badpath.lua"
"$cli" run "$tmp/badpath.lua" -o "$tmp/b/" 2>"$tmp/err"; rc=$?
check "an unwritable PNG path says why" '[ $rc -ne 0 ] && grep -q "badpath.lua:2: caluna: cannot write PNG .*No such file or directory" "$tmp/err"' "$(cat "$tmp/err")"

"$cli" run "$tmp/scene.lua" -o "$tmp/x.png" --frames 2 2>"$tmp/err"; rc=$?
check "-o file.png with --frames 2 is refused" '[ $rc -ne 0 ] && grep -q "directory" "$tmp/err"'
"$cli" run "$tmp/scene.lua" -o "$tmp/y/" --frames 0 2>"$tmp/err"; rc=$?
check "--frames 0 is refused" '[ $rc -ne 0 ]'
"$cli" run "$tmp/scene.lua" -o "$tmp/y/" --size 0x10 2>"$tmp/err"; rc=$?
check "--size 0x10 is refused with a clear message" '[ $rc -ne 0 ] && grep -q "size must be positive" "$tmp/err"' "$(cat "$tmp/err")"
"$cli" run "$tmp/scene.lua" -o "$tmp/y/" --size banana 2>"$tmp/err"; rc=$?
check "--size banana is refused" '[ $rc -ne 0 ] && grep -q "WIDTHxHEIGHT" "$tmp/err"'

printf 'local ca = require "caluna"\nlocal x = = 1\n' > "$tmp/syntax.lua"
"$cli" run "$tmp/syntax.lua" -o "$tmp/s/" 2>"$tmp/err"; rc=$?
check "a syntax error exits non-zero with file:line" '[ $rc -ne 0 ] && grep -q "syntax.lua:2:" "$tmp/err"' "$(cat "$tmp/err")"

printf 'local ca = require "caluna"\n\nca.root.position = "up"\n' > "$tmp/runtime.lua"
"$cli" run "$tmp/runtime.lua" -o "$tmp/r/" 2>"$tmp/err"; rc=$?
check "a misuse error prints file:line: message" '[ $rc -ne 0 ] && grep -q "runtime.lua:3: caluna: Layer.position expects a point" "$tmp/err"' "$(cat "$tmp/err")"
"$cli" run "$tmp/runtime.lua" -o "$tmp/r/" --trace 2>"$tmp/err"
check "--trace adds the traceback" 'grep -q "stack traceback" "$tmp/err"'

printf 'local ca = require "caluna"\nlocal l = ca.Layer{ bounds = {0,0,10,10} }\nca.root:addSublayer(l)\nl.layoutSublayers = function() error("layout broke") end\n' > "$tmp/cb.lua"
"$cli" run "$tmp/cb.lua" -o "$tmp/c/" 2>"$tmp/err"; rc=$?
check "a callback error during a frame exits non-zero with its file:line" '[ $rc -ne 0 ] && grep -q "cb.lua:4: layout broke" "$tmp/err"' "$(cat "$tmp/err")"

printf 'local f = io.open("/etc/passwd")\n' > "$tmp/io.lua"
"$cli" run "$tmp/io.lua" -o "$tmp/io/" --sandbox 2>"$tmp/err"; rc=$?
check "--sandbox has no io library" '[ $rc -ne 0 ] && grep -q "io.lua:1: attempt to index a nil value (global .io.)" "$tmp/err"' "$(cat "$tmp/err")"
"$cli" run "$tmp/io.lua" -o "$tmp/io/" -q; rc=$?
check "without --sandbox the same script runs" '[ $rc -eq 0 ]'
printf 'local ca = require "caluna"\nlocal img = ca.Image.load("/etc/passwd")\n' > "$tmp/img.lua"
"$cli" run "$tmp/img.lua" -o "$tmp/img/" --sandbox 2>"$tmp/err"; rc=$?
check "--sandbox reads no files through ca.Image.load" '[ $rc -ne 0 ] && grep -q "is not allowed in the sandbox" "$tmp/err"' "$(cat "$tmp/err")"
printf 'local ca = require "caluna"\nca.Image.fromPixels(1, 1, "abcd"):write("/tmp/caluna-sandbox-escape.png")\n' > "$tmp/imgw.lua"
"$cli" run "$tmp/imgw.lua" -o "$tmp/imgw/" --sandbox 2>"$tmp/err"; rc=$?
check "--sandbox writes no files through Image:write" '[ $rc -ne 0 ] && grep -q "is not allowed in the sandbox" "$tmp/err"' "$(cat "$tmp/err")"
printf 'local ca = require "caluna"\nwhile true do end\n' > "$tmp/spin.lua"
"$cli" run "$tmp/spin.lua" -o "$tmp/spin/" --sandbox --instruction-limit 100000 2>"$tmp/err"; rc=$?
check "--sandbox stops an endless loop" '[ $rc -ne 0 ] && grep -q "instruction budget exhausted" "$tmp/err"' "$(cat "$tmp/err")"
check "a spent budget exits 3 (the sandbox stopped the script)" '[ $rc -eq 3 ]' "rc=$rc"
printf 'while true do end\n' > "$tmp/slow.lua"
start=$(date +%s)
"$cli" run "$tmp/slow.lua" -o "$tmp/slow/" --sandbox --instruction-limit 1000000000000 --time-limit 1 2>"$tmp/err"; rc=$?
check "--time-limit stops a spin with a huge budget within seconds" '[ $rc -eq 3 ] && grep -q "time limit exhausted" "$tmp/err" && [ $(( $(date +%s) - start )) -le 5 ]' "rc=$rc $(cat "$tmp/err")"
printf 'local s = ("x"):rep(1000)\nfor i = 1, 100 do print(s) end\n' > "$tmp/chatty.lua"
"$cli" run "$tmp/chatty.lua" -o "$tmp/chatty/" -q --sandbox --output-limit 10 >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--output-limit caps print at its bytes and says so once" '[ $rc -eq 0 ] && [ $(wc -c < "$tmp/out") -eq 10240 ] && [ $(grep -c "output limit" "$tmp/err") -eq 1 ]' "rc=$rc bytes=$(wc -c < "$tmp/out")"
mkdir -p "$tmp/granted"
printf 'local ca = require "caluna"\nca.render("%s/granted/ok.png")\nassert(ca.Image.load("%s/granted/ok.png").width == 320)\nca.render("%s/granted/../escape.png")\n' "$tmp" "$tmp" "$tmp" > "$tmp/grant.lua"
"$cli" run "$tmp/grant.lua" -o "$tmp/grant/" -q --sandbox --allow-write "$tmp/granted" 2>"$tmp/err"; rc=$?
check "--allow-write grants a directory; .. out of it is refused" '[ $rc -eq 1 ] && [ -f "$tmp/granted/ok.png" ] && [ ! -e "$tmp/escape.png" ] && grep -q "grant.lua:4: caluna: ca.render: writing .* is not allowed in the sandbox" "$tmp/err"' "$(cat "$tmp/err")"
"$cli" run "$tmp/grant.lua" -o "$tmp/grant/" -q --allow-write "$tmp/granted" 2>"$tmp/err"; rc=$?
check "--allow-write without --sandbox is a usage error" '[ $rc -ne 0 ] && grep -q "go with --sandbox" "$tmp/err"' "$(cat "$tmp/err")"
# Every C call that takes a path is refused by the sandbox in Tests/host/sandbox_test.c
# (caluna_engine_load_file, the host naming its own script, is exempt): a new one fails here
# until it is tested there.
untested=""
for f in $(grep -oE '^caluna_status caluna_[a-z0-9_]+\([^)]*const char \*(path|file)' "$repo/include/caluna.h" | sed -E 's/^caluna_status (caluna_[a-z0-9_]+).*/\1/'); do
  [ "$f" = caluna_engine_load_file ] && continue
  grep -q "REFUSED(e, $f(" "$repo/Tests/host/sandbox_test.c" || untested="$untested $f"
done
check "every path-taking C call has a sandbox refusal test" '[ -z "$untested" ]' "untested:$untested"
mkfifo "$tmp/fifo.lua"
timeout 10 "$cli" run "$tmp/fifo.lua" -o "$tmp/fifo/" 2>"$tmp/err"; rc=$?
check "a FIFO as the scene is refused at once, not waited on" '[ $rc -eq 1 ] && grep -q "not a regular file" "$tmp/err"' "rc=$rc $(cat "$tmp/err")"
printf 'local t = {}\nfor i = 1, 1e9 do t[i] = {} end\n' > "$tmp/bomb.lua"
"$cli" run "$tmp/bomb.lua" -o "$tmp/bomb/" --sandbox --memory-limit 16 2>"$tmp/err"; rc=$?
check "--sandbox stops a memory bomb" '[ $rc -ne 0 ] && grep -q "not enough memory" "$tmp/err"' "$(cat "$tmp/err")"
"$cli" run "$tmp/scene.lua" -o "$tmp/sb/" --sandbox -q; rc=$?
check "--sandbox runs a well-behaved scene" '[ $rc -eq 0 ] && [ -f "$tmp/sb/frame_0000.png" ]'

"$cli" dump "$tmp/scene.lua" --size 100x50 >"$tmp/dump.json"
check "dump prints the tree as JSON" 'grep -q "\"name\": \"box\"" "$tmp/dump.json" && grep -q "\"backgroundColor\": \"#0000ffff\"" "$tmp/dump.json"'
check "dump JSON parses" 'LUA_CPATH="" lua5.4 -e "local s = io.read(\"a\"); assert(s:sub(1,1) == \"{\" and s:match(\"}%s*$\"))" < "$tmp/dump.json"'
cat > "$tmp/moving.lua" <<'LUA'
local ca = require "caluna"
local box = ca.Layer{ name = "mover", bounds = {0, 0, 10, 10}, position = {0, 0} }
ca.root:addSublayer(box)
box:addAnimation(ca.BasicAnimation{ keyPath = "position.x", fromValue = 0, toValue = 100, duration = 2 }, "x")
LUA
cat >"$tmp/shape.lua" <<'LUA'
local ca = require "caluna"
ca.root:addSublayer(ca.ShapeLayer{ name = "stroke", lineWidth = 3, path = ca.Path():moveTo(0, 0):lineTo(10, 0) })
LUA
"$cli" dump "$tmp/shape.lua" --size 100x50 >"$tmp/shape.json"
check "dump lists a specialised layer's own properties" 'grep -q "\"lineWidth\": 3" "$tmp/shape.json" && grep -q "\"strokeEnd\": 1" "$tmp/shape.json" && ! grep -q "\"fontSize\"" "$tmp/shape.json"'

# 1023 layers below the root, each the only sublayer of the one above: the dump built a string
# per subtree with indentation growing with depth (cubic; over a minute and gigabytes). It is
# written as the tree is walked, indented at most 128 spaces, and braces balance.
cat >"$tmp/deep.lua" <<'LUA'
local ca = require "caluna"
local parent = ca.root
for i = 1, 1023 do local l = ca.Layer{ name = "level" .. i }; parent:addSublayer(l); parent = l end
LUA
timeout 20 "$cli" dump "$tmp/deep.lua" --sandbox --model >"$tmp/deep.json"; rc=$?
check "dump of a tree 1024 layers deep is linear: under 20 s and 16 MB, indentation capped, balanced" \
  '[ $rc -eq 0 ] && [ "$(stat -c %s "$tmp/deep.json")" -lt 16000000 ] && grep -q "\"name\": \"level1023\"" "$tmp/deep.json" \
   && [ "$(grep -c "\"sublayers\": " "$tmp/deep.json")" -eq 1024 ] \
   && [ "$(awk "{ match(\$0, /^ */); if (RLENGTH > m) m = RLENGTH } END { print m }" "$tmp/deep.json")" -eq 128 ] \
   && [ "$(tr -cd "{" < "$tmp/deep.json" | wc -c)" -eq "$(tr -cd "}" < "$tmp/deep.json" | wc -c)" ]' \
  "rc=$rc size=$(stat -c %s "$tmp/deep.json" 2>/dev/null)"

"$cli" dump "$tmp/moving.lua" --at 0.5 >"$tmp/moving.json"
"$cli" dump "$tmp/moving.lua" --at 0.5 --model >"$tmp/moving-model.json"
check "dump --at shows the animated presentation; --model the model" 'grep -q "\"x\": 25, \"y\": 0" "$tmp/moving.json" && grep -q "\"x\": 0, \"y\": 0" "$tmp/moving-model.json" && ! grep -q "\"x\": 25" "$tmp/moving-model.json"' "$(grep position "$tmp/moving.json" | head -3)"

# Scripted input: a tap at 0.5 s turns the box red and starts a slide.
cat > "$tmp/tap.lua" <<'LUA'
local ca = require "caluna"
ca.root.backgroundColor = "white"
local box = ca.Layer{ frame = {0, 0, 40, 40}, backgroundColor = "blue" }
local slider = ca.Layer{ frame = {0, 40, 10, 10}, backgroundColor = "black" }
ca.root:addSublayer(box)
ca.root:addSublayer(slider)
box:on("tap", function(e)
  ca.Transaction.setDisableActions(true)
  box.backgroundColor = "red"
  slider:addAnimation(ca.BasicAnimation{ keyPath = "position.x", fromValue = 5, toValue = 95, duration = 1 }, "slide")
end)
LUA
printf '# one tap on the box\n\n{"time": 0.5, "type": "tap", "x": 20, "y": 20}\n' > "$tmp/tap.jsonl"
"$cli" run "$tmp/tap.lua" --events "$tmp/tap.jsonl" -o "$tmp/ev10/" --frames 11 --fps 10 --size 100x50 -q; rc=$?
check "run --events: frames before the tap show the old colour, frames after it red" '[ $rc -eq 0 ] && [ "$(png_pixel "$tmp/ev10/frame_0004.png" 10 10)" = "0 0 255 255" ] && [ "$(png_pixel "$tmp/ev10/frame_0006.png" 10 10)" = "255 0 0 255" ] && [ "$(png_pixel "$tmp/ev10/frame_0010.png" 10 10)" = "255 0 0 255" ]' "rc=$rc $(png_pixel "$tmp/ev10/frame_0004.png" 10 10) / $(png_pixel "$tmp/ev10/frame_0006.png" 10 10)"
"$cli" run "$tmp/tap.lua" --events "$tmp/tap.jsonl" -o "$tmp/ev30/" --frames 19 --fps 30 --size 100x50 -q
"$cli" run "$tmp/tap.lua" --events "$tmp/tap.jsonl" -o "$tmp/ev60/" --frames 37 --fps 60 --size 100x50 -q
check "run --events: the frame at 0.6 s is the same at --fps 30 and --fps 60 (mid-animation)" 'cmp -s "$tmp/ev30/frame_0018.png" "$tmp/ev60/frame_0036.png" && ! cmp -s "$tmp/ev30/frame_0018.png" "$tmp/ev10/frame_0010.png"'
"$cli" dump "$tmp/tap.lua" --events "$tmp/tap.jsonl" --at 0.25 --size 100x50 >"$tmp/before.json"
"$cli" dump "$tmp/tap.lua" --events "$tmp/tap.jsonl" --at 1 --size 100x50 >"$tmp/after.json"
check "dump --events delivers the events up to --at" 'grep -q "#0000ffff" "$tmp/before.json" && ! grep -q "#ff0000ff" "$tmp/before.json" && grep -q "#ff0000ff" "$tmp/after.json"'
printf '{"time": 0.5, "type": "tap", "x": 20, "y": 20}\n{"time": 1, "type": "tap", "x": }\n' > "$tmp/bad.jsonl"
"$cli" run "$tmp/tap.lua" --events "$tmp/bad.jsonl" -o "$tmp/evbad/" 2>"$tmp/err"; rc=$?
check "run --events: a malformed line fails with file:line and no backtrace" '[ $rc -eq 1 ] && grep -q "bad.jsonl:2: not valid JSON" "$tmp/err" && ! grep -qi "fatal\\|backtrac" "$tmp/err" && [ ! -e "$tmp/evbad/frame_0000.png" ]' "$(cat "$tmp/err")"
printf '{"time": 1, "type": "tapp", "x": 1, "y": 1}\n' > "$tmp/bad2.jsonl"
"$cli" dump "$tmp/tap.lua" --events "$tmp/bad2.jsonl" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "dump --events: an unknown event type fails with file:line" '[ $rc -eq 1 ] && grep -q "bad2.jsonl:1: unknown event type .tapp." "$tmp/err" && [ ! -s "$tmp/out" ]' "$(cat "$tmp/err")"
"$cli" run "$tmp/tap.lua" --events "$tmp/nope.jsonl" -o "$tmp/evbad/" 2>"$tmp/err"; rc=$?
check "run --events: a missing file says so" '[ $rc -eq 1 ] && grep -q "cannot read events .*nope.jsonl.: no such file" "$tmp/err"' "$(cat "$tmp/err")"

# --watch: a render per change of the scene, errors printed, the watch going on.
cat > "$tmp/watched.lua" <<'LUA'
local ca = require "caluna"
ca.root.backgroundColor = "blue"
LUA
timeout 60 "$cli" run "$tmp/watched.lua" -o "$tmp/w/" --frames 2 --size 20x20 --watch --watch-runs 4 -q 2>"$tmp/werr" & wpid=$!
watching() { [ "$(grep -c "caluna: watching watched.lua (Ctrl-C to stop)" "$tmp/werr")" -ge "$1" ]; }
wait_for 'watching 1 && [ -f "$tmp/w/frame_0001.png" ]'
check "watch renders, then says it is watching" '[ "$(png_pixel "$tmp/w/frame_0001.png" 5 5)" = "0 0 255 255" ]' "$(cat "$tmp/werr")"
sed 's/"blue"/"green"/' "$tmp/watched.lua" > "$tmp/watched.new" && mv "$tmp/watched.new" "$tmp/watched.lua"
wait_for 'watching 2'
check "watch renders again when the scene changes" '[ "$(png_pixel "$tmp/w/frame_0001.png" 5 5)" = "0 128 0 255" ]' "$(png_pixel "$tmp/w/frame_0001.png" 5 5) $(cat "$tmp/werr")"
printf 'local x = = 1\n' >> "$tmp/watched.lua"
wait_for 'watching 3'
check "a script error during watch is printed with file:line and the watch goes on" 'grep -q "watched.lua:3: unexpected symbol" "$tmp/werr" && kill -0 $wpid 2>/dev/null && [ "$(png_pixel "$tmp/w/frame_0001.png" 5 5)" = "0 128 0 255" ]' "$(cat "$tmp/werr")"
printf 'local ca = require "caluna"\nca.root.backgroundColor = "red"\n' > "$tmp/watched.new" && mv "$tmp/watched.new" "$tmp/watched.lua"
timeout 60 tail --pid=$wpid -f /dev/null; wait $wpid; rc=$?
check "a fix renders again; --watch-runs ends the watch with the last run's status" '[ $rc -eq 0 ] && [ "$(png_pixel "$tmp/w/frame_0000.png" 5 5)" = "255 0 0 255" ] && [ "$(grep -c "unexpected symbol" "$tmp/werr")" -eq 1 ]' "rc=$rc $(cat "$tmp/werr")"
check "watch leaves no temporary files" '[ "$(ls -A "$tmp/w" | tr "\n" " ")" = "frame_0000.png frame_0001.png " ]' "$(ls -A "$tmp/w")"

# A run that writes fewer frames removes the frames of this watch's earlier
# run beyond them, and nothing it did not write.
mkdir -p "$tmp/ws"
touch "$tmp/ws/frame_0009.png" "$tmp/ws/keep.txt"
printf 'local ca = require "caluna"\nca.root.backgroundColor = "blue"\n' > "$tmp/shrink.lua"
timeout 60 "$cli" run "$tmp/shrink.lua" -o "$tmp/ws/" --frames 6 --fps 10 --size 20x20 --watch --watch-runs 2 -q 2>"$tmp/werr" & wpid=$!
wait_for '[ -f "$tmp/ws/frame_0005.png" ] && grep -q watching "$tmp/werr"'
printf 'local ca = require "caluna"\nca.root.backgroundColor = "green"\nca.after(0.25, function() error("late failure") end)\n' > "$tmp/shrink.new" && mv "$tmp/shrink.new" "$tmp/shrink.lua"
wait $wpid; rc=$?
check "watch removes its stale frames beyond a shorter run, and only those" '[ $rc -eq 1 ] && grep -q "shrink.lua:3: late failure" "$tmp/werr" && [ "$(ls -A "$tmp/ws" | tr "\n" " ")" = "frame_0000.png frame_0001.png frame_0002.png frame_0009.png keep.txt " ] && [ "$(png_pixel "$tmp/ws/frame_0002.png" 5 5)" = "0 128 0 255" ]' "rc=$rc $(ls -A "$tmp/ws" | tr "\n" " ") $(cat "$tmp/werr")"

# The events file is watched too; Ctrl-C ends the watch with status 0.
timeout 60 "$cli" run "$tmp/tap.lua" --events "$tmp/tap.jsonl" -o "$tmp/we.png" --at 0.6 --size 100x50 --watch 2>"$tmp/werr" & wpid=$!
wait_for 'grep -q "watching tap.lua, tap.jsonl" "$tmp/werr"'
check "watch with --events renders the events" '[ "$(png_pixel "$tmp/we.png" 10 10)" = "255 0 0 255" ]' "$(cat "$tmp/werr")"
printf '{"time": 0.7, "type": "tap", "x": 20, "y": 20}\n' > "$tmp/tap.jsonl"
wait_for '[ "$(grep -c watching "$tmp/werr")" -ge 2 ]'
check "watch renders again when the events file changes" '[ "$(png_pixel "$tmp/we.png" 10 10)" = "0 0 255 255" ]' "$(png_pixel "$tmp/we.png" 10 10) $(cat "$tmp/werr")"
kill -INT $wpid; timeout 30 tail --pid=$wpid -f /dev/null; wait $wpid; rc=$?
check "Ctrl-C stops the watch with status 0" '[ $rc -eq 0 ] && tail -n 1 "$tmp/werr" | grep -qx "caluna: stopped watching"' "rc=$rc $(cat "$tmp/werr")"
"$cli" run "$tmp/tap.lua" --watch-runs 2 2>"$tmp/err"; rc=$?
check "--watch-runs without --watch is refused" '[ $rc -ne 0 ] && grep -q "goes with --watch" "$tmp/err"'

cat > "$tmp/failing_test.lua" <<'LUA'
local T = require "caluna.test"
T.test("passes", function() T.eq(1, 1) end)
T.test("fails", function() T.eq(1, 2) end)
LUA
"$cli" test "$tmp/failing_test.lua" >"$tmp/out"; rc=$?
check "test exits 1 on a failure" '[ $rc -eq 1 ]'
check "test prints per-test lines and the closing line" 'grep -q "ok    failing_test.lua > passes" "$tmp/out" && grep -q "FAIL  failing_test.lua > fails" "$tmp/out" && tail -n 1 "$tmp/out" | grep -qx "1 passed, 1 failed"' "$(cat "$tmp/out")"

"$cli" --help >"$tmp/help"
check "--help lists the subcommands" 'grep -q "run" "$tmp/help" && grep -q "test" "$tmp/help" && grep -q "dump" "$tmp/help"'
"$cli" run --help >"$tmp/help"
check "run --help explains every flag" 'for f in --output --frames --fps --at --size --scale --trace --quiet --events --watch; do grep -q -- "$f" "$tmp/help" || exit 1; done && ! grep -q -- --watch-runs "$tmp/help"'
"$cli" --version >"$tmp/version"
check "--version names the libraries" 'grep -q "cairo" "$tmp/version" && grep -q "chipmunk" "$tmp/version"'

cat > "$tmp/crate.lua" <<'LUA'
local ca = require "caluna"
local world = ca.physics.World{ gravity = {0, -1000}, maxStepsPerFrame = 0 }  -- all of --at's steps in one frame
local crate = world:addBody{ mass = 100, position = {150, 250} }
crate:addBox{ width = 100, height = 100 }
local l = ca.Layer{ bounds = {0, 0, 100, 100}, backgroundColor = "red" }
ca.root:addSublayer(l)
crate:bind(l)
LUA
"$cli" run "$tmp/crate.lua" -o "$tmp/crate.png" --at 0.5 --stats >"$tmp/out" 2>"$tmp/err"; rc=$?
check "a physics scene renders; Chipmunk's banner never reaches stdout or stderr" '[ $rc -eq 0 ] && ! grep -q "cpSpace" "$tmp/out" "$tmp/err"' "$(cat "$tmp/out" "$tmp/err")"
check "--stats counts physics steps (0.5 s = 60 steps of 1/120 s)" 'grep -q "physicsSteps=60 " "$tmp/out" "$tmp/err"' "$(cat "$tmp/out" "$tmp/err")"

# --threads: the same bytes on 1 and 3 threads; --stats says how many drew; 0 is refused.
"$cli" run "$repo/examples/gallery.lua" -o "$tmp/t1.png" --threads 1 --stats >/dev/null 2>"$tmp/err1"; rc1=$?
"$cli" run "$repo/examples/gallery.lua" -o "$tmp/t3.png" --threads 3 --stats >/dev/null 2>"$tmp/err3"; rc3=$?
check "--threads 1 and --threads 3 write the same PNG" '[ $rc1 -eq 0 ] && [ $rc3 -eq 0 ] && cmp -s "$tmp/t1.png" "$tmp/t3.png"' "$(cat "$tmp/err1" "$tmp/err3")"
check "--stats reports renderThreads" 'grep -q "renderThreads=1 " "$tmp/err1" && grep -q "renderThreads=3 " "$tmp/err3"' "$(cat "$tmp/err1" "$tmp/err3")"
"$cli" run "$repo/examples/gallery.lua" -o "$tmp/t0.png" --threads 0 >/dev/null 2>"$tmp/err"; rc=$?
check "--threads 0 is refused" '[ $rc -ne 0 ] && grep -q "threads must be in" "$tmp/err"' "$(cat "$tmp/err")"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
