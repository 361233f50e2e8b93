#!/usr/bin/env bash
# Runs every hostile scene of Tests/hostile/ (or the ones named) through the CLI's sandbox
# and checks that the defence held. See Tests/hostile/README.md.
#
#   Tests/hostile/run.sh CLI [NAME.lua ...]
#
# Per case: `timeout -s KILL 20 CLI run CASE -o out/ -q --sandbox ARGS` in a fresh temporary
# directory, then: not killed by the timeout, no signal (exit code < 128), the expected exit
# code, stderr matches `expect`, stdout (and stderr) match `output` when given, stdout at most
# 2 MiB, at most 10 s, max RSS at most the memory limit + 200 MiB, no file written or changed
# outside the files the case declares (`creates`) and the CLI's own frames.
#
# Environment:
#   HOSTILE_DROP_UNKNOWN=1  drop --time-limit, --output-limit, --allow-read, --allow-write when
#                           the CLI does not know them (to try the corpus on an older CLI)
#   HOSTILE_TIMEOUT=20      seconds before the KILL
#   HOSTILE_KEEP=1          keep the temporary directories (their paths are printed)
#   HOSTILE_TIME_SCALE=1    multiplies the 10 s bound, the default KILL timeout and each case's
#                           --time-limit (for a slower instrumented CLI; scripts/sanitize uses 3)
#   HOSTILE_SANITIZER=1     the CLI is built with AddressSanitizer (scripts/sanitize): no `ulimit -v`
#                           (ASan reserves terabytes of address space for its shadow memory) and
#                           the RSS bound is the memory limit + 200 MiB doubled plus ASan's
#                           quarantine (256 MiB): shadow, redzones and freed-but-held blocks
set -u

if [ $# -lt 1 ]; then
  echo "usage: $0 CLI [NAME.lua ...]" >&2
  exit 2
fi
cli="$1"; shift
case "$cli" in /*) ;; *) cli="$PWD/$cli" ;; esac
if [ ! -x "$cli" ]; then echo "$0: $cli is not an executable" >&2; exit 2; fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
time_scale="${HOSTILE_TIME_SCALE:-1}"
[[ "$time_scale" =~ ^[1-9][0-9]*$ ]] || { echo "$0: HOSTILE_TIME_SCALE must be a positive integer" >&2; exit 2; }
timeout_s="${HOSTILE_TIMEOUT:-$((20 * time_scale))}"
max_seconds=$((10 * time_scale))
sanitizer="${HOSTILE_SANITIZER:-0}"
max_stdout=$((2 << 20))
default_args="--instruction-limit 1000000 --memory-limit 64 --time-limit 5"

cases=()
if [ $# -gt 0 ]; then
  for n in "$@"; do
    n="${n#"$here"/}"; n="${n%.lua}.lua"   # NAME or pending/NAME
    [ -f "$here/$n" ] || { echo "$0: no case $n" >&2; exit 2; }
    cases+=("$here/$n")
  done
else
  for f in "$here"/*.lua; do [ -e "$f" ] && cases+=("$f"); done
fi

time_bin=""
if [ -x /usr/bin/time ]; then time_bin=/usr/bin/time
else echo "note: /usr/bin/time is absent: the RSS check is skipped"; fi

help_text="$("$cli" run --help 2>&1 || true)"

base="$(mktemp -d "${TMPDIR:-/tmp}/caluna-hostile.XXXXXX")"
cleanup() { if [ "${HOSTILE_KEEP:-0}" != 1 ]; then rm -rf "$base"; else echo "kept $base"; fi; }
trap cleanup EXIT

# Fixtures: a real PNG (what a leaking Image.load would read) and a valid events file.
cat > "$base/fixture.lua" <<'LUA'
local ca = require "caluna"
ca.root.backgroundColor = "teal"
LUA
if ! (cd "$base" && "$cli" run fixture.lua --size 16x16 -o fixture.png -q) >/dev/null 2>&1 || [ ! -s "$base/fixture.png" ]; then
  echo "$0: cannot make the fixture PNG with $cli" >&2
  exit 2
fi
printf '{"time": 0, "type": "tap", "x": 1, "y": 1}\n' > "$base/fixture.jsonl"

# header FILE KEY: the text after "-- KEY:" in the file's leading comment lines.
header() {
  awk -v key="$2" '
    !/^--/ { exit }
    { line = $0; sub(/^--[ \t]*/, "", line)
      if (index(line, key ":") == 1) { v = substr(line, length(key) + 2); sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v); print v; exit } }' "$1"
}

# snapshot DIR: every path under DIR with its size and mtime, the CLI's frames left out.
snapshot() {
  find "$1" \( -path "$1/work/out/frame_*.png" -o -path "$1/work/out/.frame_*" \) -prune -o -printf '%p %y %s %T@\n' | sort
}

escape_glob=(/tmp/caluna-hostile-escape*)
passed=0
failed=0
n=0
for case_file in "${cases[@]}"; do
  n=$((n + 1))
  name="$(basename "$case_file" .lua)"
  expect="$(header "$case_file" expect)"
  output_re="$(header "$case_file" output)"
  exit_want="$(header "$case_file" exit)"; exit_want="${exit_want:-1}"
  creates="$(header "$case_file" creates)"
  if grep -q '^-- args:' "$case_file"; then args="$(header "$case_file" args)"; else args="$default_args"; fi
  read -r -a argv <<< "$args"

  # Drop the options this CLI does not know (only on request).
  notes=""
  if [ "${HOSTILE_DROP_UNKNOWN:-0}" = 1 ]; then
    kept=()
    i=0
    while [ $i -lt ${#argv[@]} ]; do
      a="${argv[$i]}"
      case "$a" in
        --time-limit|--output-limit|--allow-read|--allow-write)
          if ! grep -q -- "$a" <<< "$help_text"; then notes="$notes dropped $a ${argv[$((i + 1))]};"; i=$((i + 2)); continue; fi ;;
      esac
      kept+=("$a"); i=$((i + 1))
    done
    argv=("${kept[@]}")
  fi

  # A slower (instrumented) CLI gets proportionally more script time as well, so a case still
  # ends on the bound it tests (its memory cap, say) and not on the time limit.
  if [ "$time_scale" != 1 ]; then
    for ((i = 0; i + 1 < ${#argv[@]}; i++)); do
      [ "${argv[$i]}" = --time-limit ] && argv[i + 1]="$(awk -v t="${argv[$((i + 1))]}" -v s="$time_scale" 'BEGIN { print t * s }')"
    done
  fi

  mem_mib=256
  for ((i = 0; i < ${#argv[@]}; i++)); do
    [ "${argv[$i]}" = --memory-limit ] && mem_mib="${argv[$((i + 1))]}"
  done

  # A fresh directory: root/work is the working directory; root/work/granted is what cases
  # grant; root/outside.* must stay unreadable; root/work/granted/up and .../tmp are symlinks
  # out of the granted directory; root/work/granted-evil shares the granted name's prefix.
  root="$base/$n-$name"
  work="$root/work"
  mkdir -p "$work/out" "$work/granted" "$work/granted-evil"
  cp "$base/fixture.png" "$root/outside.png"
  cp "$base/fixture.jsonl" "$root/outside.jsonl"
  cp "$base/fixture.png" "$work/granted/in.png"
  cp "$base/fixture.jsonl" "$work/granted/events.jsonl"
  ln -s "$root" "$work/granted/up"
  ln -s /tmp "$work/granted/tmp"
  rm -f "${escape_glob[@]}" /tmp/caluna-hostile-escape* 2>/dev/null
  before="$(snapshot "$root")"

  # The memory cap of the whole process: a safety net for the machine while a defence is
  # missing (a defended run stays far below it; the RSS check below is the real check).
  vlimit_kb=$(( (mem_mib + 3072) * 1024 ))
  start=$(date +%s.%N)
  (
    cd "$work" || exit 99
    [ "$sanitizer" = 1 ] || ulimit -v "$vlimit_kb" 2>/dev/null
    if [ -n "$time_bin" ]; then
      exec "$time_bin" -q -f %M -o "$root/rss" timeout -s KILL "$timeout_s" \
        "$cli" run "$case_file" -o out/ -q --sandbox "${argv[@]}" >"$root/stdout" 2>"$root/stderr"
    else
      exec timeout -s KILL "$timeout_s" "$cli" run "$case_file" -o out/ -q --sandbox "${argv[@]}" >"$root/stdout" 2>"$root/stderr"
    fi
  )
  rc=$?
  end=$(date +%s.%N)
  elapsed="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"

  why=()
  killed=$(awk -v e="$elapsed" -v t="$timeout_s" 'BEGIN { print (e >= t - 0.5) ? 1 : 0 }')
  if [ "$rc" -ge 128 ] && [ "$killed" = 1 ]; then
    why+=("killed by the ${timeout_s} s timeout")
  elif [ "$rc" -ge 128 ]; then
    why+=("killed by signal $((rc - 128)) (exit $rc)")
  else
    ok_rc=0
    IFS=',' read -r -a wants <<< "${exit_want//|/,}"
    for w in "${wants[@]}"; do [ "$rc" = "$w" ] && ok_rc=1; done
    [ "$ok_rc" = 1 ] || why+=("exit code $rc, expected $exit_want")
  fi
  if [ -n "$expect" ] && ! grep -E -q -- "$expect" "$root/stderr"; then
    why+=("stderr does not match /$expect/: $(head -c 300 "$root/stderr" | tr '\n' ' ')")
  fi
  if [ -n "$output_re" ] && ! cat "$root/stdout" "$root/stderr" | grep -a -E -q -- "$output_re"; then
    why+=("output does not match /$output_re/")
  fi
  out_size=$(stat -c %s "$root/stdout")
  [ "$out_size" -le "$max_stdout" ] || why+=("stdout is $out_size bytes (> $max_stdout)")
  awk -v e="$elapsed" -v m="$max_seconds" 'BEGIN { exit !(e > m) }' && why+=("took $elapsed s (> $max_seconds s)")
  rss_note=""
  if [ -n "$time_bin" ] && [ -s "$root/rss" ] && [ "$killed" != 1 ]; then
    rss_kb="$(tail -n 1 "$root/rss")"
    if [[ "$rss_kb" =~ ^[0-9]+$ ]]; then
      rss_mib=$((rss_kb / 1024))
      rss_note=", ${rss_mib} MiB"
      rss_max=$((mem_mib + 200)); rss_bound="${mem_mib} + 200 MiB"
      [ "$sanitizer" = 1 ] && { rss_max=$((2 * rss_max + 256)); rss_bound="2 × (${mem_mib} + 200) + 256 MiB under ASan"; }
      [ "$rss_mib" -le "$rss_max" ] || why+=("max RSS ${rss_mib} MiB (> $rss_bound)")
    fi
  fi

  # Files: only the declared ones may appear; nothing else under root may change.
  for c in $creates; do
    [ -e "$work/$c" ] || why+=("$c was not created")
  done
  after="$(snapshot "$root")"
  changed="$(diff <(echo "$before") <(echo "$after") | grep '^>' | sed 's/^> //' | awk '{ print $1 }')"
  escaped=()
  while IFS= read -r p; do
    [ -n "$p" ] || continue
    rel="${p#"$work"/}"
    skip=0
    case "$p" in "$root/stdout"|"$root/stderr"|"$root/rss"|"$work/out") skip=1 ;; esac
    for c in $creates; do [ "$rel" = "$c" ] && skip=1; done
    # A directory whose listing changed because a declared file appeared in it is fine.
    [ -d "$p" ] && [ ! -L "$p" ] && skip=1
    [ "$skip" = 1 ] || escaped+=("$p")
  done <<< "$changed"
  for p in /tmp/caluna-hostile-escape*; do [ -e "$p" ] && escaped+=("$p"); done
  [ ${#escaped[@]} -eq 0 ] || why+=("files written outside the sandbox: ${escaped[*]}")
  rm -f /tmp/caluna-hostile-escape* 2>/dev/null

  if [ ${#why[@]} -eq 0 ]; then
    passed=$((passed + 1))
    echo "ok $name ($elapsed s$rss_note)${notes:+ [$notes ]}"
  else
    failed=$((failed + 1))
    msg="${why[0]}"
    for w in "${why[@]:1}"; do msg="$msg; $w"; done
    echo "FAIL $name: $msg ($elapsed s$rss_note)${notes:+ [$notes ]}"
  fi
  [ "${HOSTILE_KEEP:-0}" = 1 ] || rm -rf "$root"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
