#!/bin/sh
# Differential test of Sources/CalunaLuaShim/calu_pattern.c against stock
# Lua 5.4 (Debian's liblua5.4-dev). Usage: Tests/pattern/run.sh [seed] [count]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cc -std=c99 -O1 -Wall -Wextra -Werror $(pkg-config --cflags lua5.4) \
    -o "$tmp/pattern_diff" "$here/pattern_diff.c" "$root/Sources/CalunaLuaShim/calu_pattern.c" \
    $(pkg-config --libs lua5.4) -lm
"$tmp/pattern_diff" "$@"
