/*
 * Differential test of Sources/CalunaLuaShim/calu_pattern.c against the stock
 * Lua 5.4 string library (the judge). Built and run by run.sh:
 *
 *   pattern_diff [seed] [count]
 *
 * Two states: A is stock (luaL_openlibs), B has calu_install_bounded_patterns.
 * (a) hand-written cases, (b) `count` seeded random cases (default 200000),
 * both compared as serialised results / error messages, and (c) budget cases
 * run in B only. Last line: "N passed, M failed"; exit status 1 on failure.
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void calu_install_bounded_patterns(lua_State *L);

/* ---- the host side of the budget ------------------------------------- */

static long long charged;     /* units charged since the last reset */
static long long charge_calls; /* how often calu_charge was called */
static long long budget = -1; /* < 0: only count; else raise beyond it */

void calu_charge(lua_State *L, long long units) {
    charged += units;
    charge_calls++;
    if (budget >= 0 && charged > budget) luaL_error(L, "instruction budget exhausted");
}

static void reset_charges(long long new_budget) {
    charged = 0;
    charge_calls = 0;
    budget = new_budget;
}

/* ---- harness, loaded into both states ---------------------------------- */

/* Serialises pcall results with their types. Uses no pattern function, so
 * both states serialise the same way. */
static const char *HARNESS =
    "local pack, unpack, select, type, tostring = table.pack, table.unpack, select, type, tostring\n"
    "local fmt, concat, mtype, pcall = string.format, table.concat, math.type, pcall\n"
    "local function ser1(v)\n"
    "  local t = type(v)\n"
    "  if t == 'string' then return fmt('%q', v) end\n"
    "  if t == 'number' then return mtype(v) .. ':' .. fmt('%q', v) end\n"
    "  if t == 'nil' or t == 'boolean' then return tostring(v) end\n"
    "  return t\n"
    "end\n"
    "local function ser(ok, ...)\n"
    "  local out = { ok and 'ok' or 'err' }\n"
    "  for i = 1, select('#', ...) do out[#out + 1] = ser1((select(i, ...))) end\n"
    "  return concat(out, ' ')\n"
    "end\n"
    /* every gmatch iteration, serialised */
    "function GM(s, p, init)\n"
    "  local out, it = {}, string.gmatch(s, p, init)\n"
    "  for _ = 1, 1000 do\n"
    "    local r = pack(it())\n"
    "    if r[1] == nil then return concat(out, '; ') end\n"
    "    out[#out + 1] = ser(true, unpack(r, 1, r.n))\n"
    "  end\n"
    "  return concat(out, '; ') .. ' ...'\n"
    "end\n"
    "function RUN(code)\n"
    "  local f, e = load(code, '=case')\n"
    "  if not f then return 'load error: ' .. e end\n"
    "  return ser(pcall(f))\n"
    "end\n"
    /* replacement functions and tables for the random gsub cases */
    "local REPF = {\n"
    "  function(...) local t = pack(...) local r = '' for i = 1, t.n do r = r .. tostring(t[i]) .. '|' end return r end,\n"
    "  function() return nil end,\n"
    "  function() return false end,\n"
    "  function() return 42 end,\n"
    "  function() return {} end,\n"
    "  function(a, b) if b then return b end end,\n"
    "  function() return true end,\n"
    "  function(a) local i = string.find(tostring(a), 'b', 1, true) return i and 'B' end,\n"
    "  function(a) return (string.gsub(tostring(a), '.', '%0%0')) end,\n"
    "}\n"
    "local REPT = {\n"
    "  { a = 'A', b = false, ab = 'AB', ['('] = 1.5, [1] = 'one', [2] = true, [''] = 'E' },\n"
    "  setmetatable({}, { __index = function(_, k) return '<' .. tostring(k) .. '>' end }),\n"
    "  { a = {}, [3] = 'three' },\n"
    "  {},\n"
    "}\n"
    "function T(op, s, p, a, b, rk, rs, ri)\n"
    "  if op == 0 then return ser(pcall(string.find, s, p, a, b)) end\n"
    "  if op == 1 then return ser(pcall(string.match, s, p, a)) end\n"
    "  if op == 2 then return ser(pcall(GM, s, p, a)) end\n"
    "  local r\n"
    "  if rk == 0 then r = rs elseif rk == 1 then r = ri elseif rk == 2 then r = REPF[ri]\n"
    "  elseif rk == 3 then r = REPT[ri] elseif ri == 1 then r = true end\n"
    "  return ser(pcall(string.gsub, s, p, r, a))\n"
    "end\n";

static lua_State *new_state(int bounded) {
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    if (bounded) calu_install_bounded_patterns(L);
    if (luaL_dostring(L, HARNESS) != LUA_OK) {
        fprintf(stderr, "harness: %s\n", lua_tostring(L, -1));
        exit(2);
    }
    return L;
}

static int passed, failed;

/* Prints bytes as a Lua-ish quoted string. */
static void show(const char *s, size_t n) {
    size_t i;
    putchar('"');
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 32 || c > 126) printf("\\%u", c);
        else putchar(c);
    }
    putchar('"');
}

/* Runs snippet `code` in both states; fails unless the results agree (and,
 * when expect is set, the stock result contains it: the case tests what it
 * claims). */
static void hand_case(lua_State *A, lua_State *B, const char *code, const char *expect) {
    const char *ra, *rb;
    lua_getglobal(A, "RUN");
    lua_pushstring(A, code);
    lua_call(A, 1, 1);
    lua_getglobal(B, "RUN");
    lua_pushstring(B, code);
    lua_call(B, 1, 1);
    ra = lua_tostring(A, -1);
    rb = lua_tostring(B, -1);
    if (strcmp(ra, rb) == 0 && (!expect || strstr(ra, expect))) {
        passed++;
    } else {
        failed++;
        printf("FAIL hand case: %s\n  stock:   %.400s\n  bounded: %.400s\n", code, ra, rb);
        if (expect) printf("  expected stock result to contain: %s\n", expect);
    }
    lua_pop(A, 1);
    lua_pop(B, 1);
}

/* {snippet, substring the stock result must contain or NULL}; NULL ends. */
static const char *HAND[][2] = {
    /* find: plain, init handling, anchors */
    {"return ('hello world'):find('o w')", "ok integer:5 integer:7"}, /* plain: no specials */
    {"return ('hello'):find('l')", NULL},
    {"return ('hello'):find('l', 1, true)", NULL},
    {"return ('hello'):find('')", NULL},
    {"return ('hello'):find('', 6)", "integer:6"},
    {"return ('hello'):find('', 7)", "ok nil"},
    {"return ('hello'):find('l', 10)", "ok nil"},
    {"return ('hello'):find('%a', 7)", "ok nil"},
    {"return ('hello'):find('l', -2)", NULL},
    {"return ('hello'):find('h', -100)", NULL},
    {"return ('hello'):find('h', 0)", NULL},
    {"return ('hello'):find('o', math.mininteger)", NULL},
    {"return ('hello'):find('o', math.maxinteger)", "ok nil"},
    {"return ('hello'):find('', math.maxinteger)", "ok nil"},
    {"return ('hello'):find('l', '3')", NULL},
    {"return ('hello'):find('l', 3.0)", NULL},
    {"return ('hello'):find('l', 1.5)", "number has no integer representation"},
    {"return ('hello'):find('l', 'x')", "bad argument #2 to 'find'"},
    {"return ('hello'):find()", "bad argument #1 to 'find'"},
    {"return string.find(nil, 'a')", "bad argument #1 to 'find'"},
    {"return string.find('a', {})", "bad argument #2 to 'find'"},
    {"return pcall(string.find, 'a', 'a', {})", "bad argument #3 to 'string.find'"},
    {"return string.find(12345, '3')", NULL},
    {"return string.find(12345, 3)", NULL},
    {"return string.find('a.b', '.', 1, true)", "integer:2"},
    {"return string.find('a.b', '%.')", NULL},
    {"return string.find('a+b', '+', 1, 1)", NULL},
    {"return string.find('a+b', 'a+', 1, false)", NULL},
    {"return string.find('abc', 'b', nil, true)", NULL},
    {"return string.find('a\\0b', '\\0')", NULL},
    {"return string.find('a\\0b', '\\0', 1, true)", NULL},
    {"return string.find('a\\0b', '%z')", NULL},
    {"return string.find('az', '%z')", NULL},
    {"return string.find('a\\0b', '[\\0]')", NULL},
    {"return string.find('a\\0b.', '\\0b.')", NULL},
    {"return string.find('abc', '[^\\0]+')", NULL},
    {"return string.find(('ab'):rep(10000), 'ba', 15000)", NULL},
    {"return string.find(('ab'):rep(100) .. 'c', ('ab'):rep(50) .. 'c', 1, true)", NULL},
    {"return string.find(('ab'):rep(100), ('ab'):rep(50) .. 'c', 1, true)", "ok nil"},
    {"return string.find('abc', 'abcd', 1, true)", "ok nil"},
    {"return ('hello world'):find('(o)(r)')", NULL},
    {"return ('hello'):find('()ll()')", NULL},
    {"return ('hello'):find('^h')", NULL},
    {"return ('hello'):find('^e')", "ok nil"},
    {"return ('hello'):find('^l', 3)", NULL},
    {"return ('hello'):find('^l', -2)", NULL},
    {"return ('hello'):find('o$')", NULL},
    {"return ('hello'):find('l$')", "ok nil"},
    {"return ('a$b'):find('$b')", NULL},
    {"return ('a$b'):find('a$b')", NULL},
    {"return ('a$'):find('$$')", NULL},
    {"return ('x^a'):find('^a')", "ok nil"},
    {"return ('^a'):find('^^a')", NULL},
    {"return ('a^'):find('a^')", NULL},
    {"return (''):find('^$')", NULL},
    {"return (''):find('$')", NULL},
    {"return ('abc'):find('^')", NULL},
    /* match */
    {"return ('hello world'):match('%w+')", NULL},
    {"return ('key = value'):match('(%w+)%s*=%s*(%w+)')", NULL},
    {"return ('  trim me  '):match('^%s*(.-)%s*$')", NULL},
    {"return ('hello'):match('()')", NULL},
    {"return ('hello'):match('.-()l')", NULL},
    {"return ('hello'):match('x')", "ok nil"},
    {"return ('hello'):match('l', 4)", NULL},
    {"return ('hello'):match('l', 5)", "ok nil"},
    {"return ('hello'):match('', 6)", NULL},
    {"return ('hello'):match('', 7)", "ok nil"},
    {"return ('hello'):match('()', -1)", NULL},
    {"return ('hello'):match('^(h)(e)')", NULL},
    {"return ('date: 2024-01-31'):match('(%d+)-(%d+)-(%d+)')", NULL},
    /* every class and set form over all 256 bytes */
    {"local out = {} for _, cl in ipairs{'%a','%c','%d','%g','%l','%p','%s','%u','%w','%x',"
     "'%A','%C','%D','%G','%L','%P','%S','%U','%W','%X','.','%z','%Z','%Q','%%','%.','%(','%]',"
     "'[%a_]','[^%d]','[a-f]','[^a-f%s]','[]]','[^]]','[a-]','[-a]','[%]]','[%a-z]','[z-a]',"
     "'[%-]','[a%-z]','[\\0-\\31]','[\\128-\\255]','[a-%d]','[%%-/]','[^%S]','[%W]','[]-a]',"
     "'%f[%w]','%f[^%w]','[%z]','[^]'} do\n"
     "  local t = {}\n"
     "  for c = 0, 255 do t[#t+1] = (pcall(string.find, string.char(c), cl)) and (string.char(c):find(cl) and '1' or '0') or 'E' end\n"
     "  out[#out+1] = cl .. '=' .. table.concat(t)\n"
     "end return table.concat(out, '\\n')",
     NULL},
    /* quantifiers */
    {"return ('aaab'):match('a*')", NULL},
    {"return ('aaab'):match('a+b')", NULL},
    {"return ('aaab'):match('a-b')", NULL},
    {"return ('aaab'):match('a-')", NULL},
    {"return ('aaab'):match('a?a?b')", NULL},
    {"return ('ab'):match('a?a?b')", NULL},
    {"return ('b'):match('a+')", "ok nil"},
    {"return ('<a><b>'):match('<(.-)>')", NULL},
    {"return ('<a><b>'):match('<(.*)>')", NULL},
    {"return ('*a'):find('*a')", NULL},
    {"return ('a+'):find('a+', 1)", NULL},
    {"return ('-'):find('-')", NULL},
    {"return ('a'):find('?')", NULL},
    {"return ('?\?'):find('?\?')", NULL}, /* '?\?' avoids a trigraph */
    {"return ('x'):find('x**')", NULL},
    {"return ('[[['):find('[[]+')", NULL},
    {"return ('a.b'):match('[%w.]+')", NULL},
    {"return ('abc'):match('.-$')", NULL},
    {"return ('abc'):match('.-b')", NULL},
    {"return ('aaa'):match('(a*)(a)')", NULL},
    {"return ('aaa'):match('(a-)(a+)')", NULL},
    /* captures and back-references */
    {"return ('hello'):match('(h)(e)(l)(l)(o)')", NULL},
    {"return ('hello'):match('((h)(e))')", NULL},
    {"return ('abab'):match('(ab)%1')", NULL},
    {"return ('abba'):match('(a)(b)%2%1')", NULL},
    {"return ('xx'):match('()x()')", NULL},
    {"return ('aa'):find('()%1')", "ok nil"},
    {"return ('aa'):match('()a%1')", "ok nil"},
    {"return ('say \"hi\" or \\'yo\\''):match('([\"\\'])(.-)%1')", NULL},
    {"return ('a'):find('%0')", "invalid capture index %0"},
    {"return ('a'):find('(a)%2')", "invalid capture index %2"},
    {"return ('a'):find('(a)%9')", "invalid capture index %9"},
    {"return ('aa'):find('(a%1)')", "invalid capture index %1"},
    {"return ('b'):find('a%1')", "ok nil"},
    {"return ('a)'):find('a)')", NULL}, /* ')' is not special: a plain search */
    {"return ('a'):match('a)')", "invalid pattern capture"},
    {"return ('a'):match(')')", "invalid pattern capture"},
    {"return ('a'):find('(a))')", "invalid pattern capture"},
    {"return ('a'):find('(a')", "unfinished capture"},
    {"return ('a'):match('(a')", "unfinished capture"},
    {"return ('a'):match('((a)')", "unfinished capture"},
    {"return ('a'):find('(')", "unfinished capture"},
    {"return ('b'):find('(a')", "ok nil"},
    {"return ('a'):find('(()')", "unfinished capture"},
    {"return ('a'):find(('('):rep(33) .. 'a' .. (')'):rep(33))", "too many captures"},
    {"return ('a'):find(('()'):rep(33))", "too many captures"},
    {"return select('#', ('a'):find(('('):rep(32) .. 'a' .. (')'):rep(32)))", "integer:34"},
    {"return ('abc'):match(('()'):rep(32))", NULL},
    /* malformed patterns, raised only where the matcher gets to */
    {"return ('a'):find('%')", "malformed pattern (ends with '%')"},
    {"return ('a'):find('a%')", "malformed pattern (ends with '%')"},
    {"return ('b'):find('a%')", "ok nil"},
    {"return ('a'):find('[a')", "malformed pattern (missing ']')"},
    {"return ('a'):find('[')", "malformed pattern (missing ']')"},
    {"return ('a'):find('[]')", "malformed pattern (missing ']')"},
    {"return ('a'):find('[^]')", "malformed pattern (missing ']')"},
    {"return ('a'):find('[a%]')", "malformed pattern (missing ']')"},
    {"return ('a'):find('[%')", "malformed pattern (missing ']')"},
    {"return ('a'):find('[^')", "malformed pattern (missing ']')"},
    {"return ('b'):find('a[')", "ok nil"},
    {"return (']'):find('[]]')", NULL},
    {"return (']'):find('[^]]')", "ok nil"},
    {"return ('a'):find('%f')", "missing '[' after '%f' in pattern"},
    {"return ('a'):find('%fa')", "missing '[' after '%f' in pattern"},
    {"return ('a'):find('%f[a')", "malformed pattern (missing ']')"},
    {"return ('a'):find('%b')", "malformed pattern (missing arguments to '%b')"},
    {"return ('a'):find('%ba')", "malformed pattern (missing arguments to '%b')"},
    {"return (''):find('%b')", "missing arguments"},
    {"return ('a'):find('%bab')", "ok nil"},
    /* recursion limit: exactly where stock Lua draws it */
    {"return (('a'):rep(300)):find(('a?'):rep(198))", NULL},
    {"return (('a'):rep(300)):find(('a?'):rep(199))", NULL},
    {"return (('a'):rep(300)):find(('a?'):rep(200))", NULL},
    {"return (('a'):rep(300)):find(('a?'):rep(201))", "pattern too complex"},
    {"return (('a'):rep(300)):find(('a?'):rep(300))", "pattern too complex"},
    {"return (('a'):rep(300)):find(('.-'):rep(199))", NULL},
    {"return (('a'):rep(300)):find(('.-'):rep(200))", "pattern too complex"},
    {"return (('a'):rep(300)):find(('a*'):rep(199))", NULL},
    {"return (('a'):rep(300)):find(('a*'):rep(200))", NULL},
    {"return (('ab'):rep(300)):find(('a*b*'):rep(120))", NULL},
    {"return (('a'):rep(300)):gsub(('a?'):rep(250), '')", "pattern too complex"},
    {"return GM(('a'):rep(300), ('a?'):rep(250))", "pattern too complex"},
    {"return (('a'):rep(300)):find('(a?)' .. ('a?'):rep(198))", NULL},
    {"return (('a'):rep(300)):find('(a?)' .. ('a?'):rep(199))", NULL},
    /* %b and %f */
    {"return ('f(a(b)c) d'):match('%b()')", NULL},
    {"return ('((('):find('%b()')", "ok nil"},
    {"return ('(()'):find('%b()')", NULL},
    {"return ('x then y end end'):match('%bxy')", NULL},
    {"return ('[[x]] [y]'):gsub('%b[]', 'B')", NULL},
    {"return ('aaa'):find('%baa')", NULL},
    {"return ('(a)(b)'):find('%b()*')", NULL},
    {"return ('(a)'):find('%b()$')", NULL},
    {"return ('THE (quick) fox'):gsub('%f[%a]%a+', 'W')", NULL},
    {"return ('hello'):find('%f[\\0]')", NULL},
    {"return ('hello'):find('%f[%l]')", NULL},
    {"return ('aXb'):find('%f[%u]')", NULL},
    {"return ('abc'):find('%f[^%l]')", NULL},
    {"return (''):find('%f[^a]')", NULL},
    {"return (''):find('%f[a]')", "ok nil"},
    {"return ('the cat'):gsub('%f[%w]%w+%f[%W]', '<%0>')", NULL},
    /* gmatch */
    {"return GM('hello world from lua', '%a+')", NULL},
    {"return GM('k1=v1, k2=v2', '(%w+)=(%w+)')", NULL},
    {"return GM('abc', '')", NULL},
    {"return GM('abc', '()')", NULL},
    {"return GM('abc', 'x*')", NULL},
    {"return GM('a,b,,c', '([^,]*)')", NULL},
    {"return GM('hello', 'l', 4)", NULL},
    {"return GM('hello', '.', -2)", NULL},
    {"return GM('hello', '.', 10)", NULL},
    {"return GM('hello', '.', 0)", NULL},
    {"return GM('hello', '.', math.mininteger)", NULL},
    {"return GM('hello', '', 6)", NULL},
    {"return GM('hello', '', 7)", NULL},
    {"return GM('hello', '', math.maxinteger)", NULL},
    {"return GM('^a^a', '^a')", NULL},
    {"return GM('aaa', '^a')", NULL},
    {"return GM('abc', '%')", "malformed pattern (ends with '%')"},
    {"return GM(123, '%d')", NULL},
    {"return GM('x1', 1)", NULL},
    {"return string.gmatch()", "bad argument #1 to 'gmatch'"},
    {"return string.gmatch('a', 'a', 'x')", "bad argument #3 to 'gmatch'"},
    {"return GM('a', '(a')", "unfinished capture"},
    {"return GM('ab', '()(.)()')", NULL},
    {"local co = coroutine.wrap(function() for w in ('a b c'):gmatch('%a') do coroutine.yield(w) end end)"
     " return co(), co(), co()",
     NULL},
    {"local it = ('ab'):gmatch('.') return it(), it(), it(), it()", NULL},
    {"local it = ('ab'):gmatch('b*') return it(), it(), it(), it()", NULL},
    /* gsub: string replacements */
    {"return ('hello world'):gsub('o', '0')", NULL},
    {"return ('hello world'):gsub('o', '0', 1)", NULL},
    {"return ('hello world'):gsub('o', '0', 0)", NULL},
    {"return ('hello world'):gsub('o', '0', -1)", NULL},
    {"return ('hello world'):gsub('o', '0', '1')", NULL},
    {"return ('hello'):gsub('', '-')", NULL},
    {"return ('abc'):gsub('%w', '%0%0')", NULL},
    {"return ('abc'):gsub('%w', '%1')", NULL},
    {"return ('abc'):gsub('(%w)', '%2')", "invalid capture index %2"},
    {"return ('abc'):gsub('%w', '%2')", "invalid capture index %2"},
    {"return ('abc'):gsub('%w', '%%')", NULL},
    {"return ('abc'):gsub('%w', '%')", "invalid use of '%' in replacement string"},
    {"return ('abc'):gsub('%w', 'x%')", "invalid use of '%' in replacement string"},
    {"return ('abc'):gsub('%w', '%x')", "invalid use of '%' in replacement string"},
    {"return ('abc'):gsub('%w', '%\\0')", "invalid use of '%' in replacement string"},
    {"return ('abc'):gsub('x', '%x')", NULL},
    {"return ('abc'):gsub('%w', 5)", NULL},
    {"return ('abc'):gsub('%w', 1.5)", NULL},
    {"return ('abc'):gsub('%w', '\\0')", NULL},
    {"return ('abc'):gsub('()', '%1')", NULL},
    {"return ('abc'):gsub('()b', '[%1]')", NULL},
    {"return ('abc'):gsub('(b)()', '%2%1%0')", NULL},
    {"return ('hello world'):gsub('(%w+) (%w+)', '%2 %1')", NULL},
    {"return ('abc'):gsub('^%w', 'X')", NULL},
    {"return ('abc'):gsub('^', '>')", NULL},
    {"return ('abc'):gsub('$', '<')", NULL},
    {"return ('abc'):gsub('^x', 'X')", NULL},
    {"return ('abc'):gsub('^.*$', '%0%0')", NULL},
    {"return ('a,b,,c'):gsub('[^,]*', '[%0]')", NULL},
    {"return ('abc'):gsub('b*', '-')", NULL},
    {"return ('abc'):gsub('', '%1')", NULL},
    {"return ('a'):gsub('(a', 'x')", NULL},
    {"return ('a'):gsub('(a', '%1')", "unfinished capture"},
    {"return ('x'):gsub('x', '%0', math.maxinteger)", NULL},
    {"return ('x'):gsub('x', '%0', math.mininteger)", NULL},
    {"return string.gsub(123, '2', 'x')", NULL},
    {"return string.gsub(123, 'x', 'y')", NULL},
    {"return string.gsub('abc', '', '')", NULL},
    /* gsub: tables and functions */
    {"return ('$name is $age'):gsub('%$(%w+)', {name='Bob', age=42})", NULL},
    {"return ('$name is $age'):gsub('%$(%w+)', {name=false})", NULL},
    {"return ('$name is $age'):gsub('%$(%w+)', {name={}})", "invalid replacement value (a table)"},
    {"return ('a'):gsub('(a', {})", "unfinished capture"},
    {"return ('abc'):gsub('.', {a=1, b=2.5})", NULL},
    {"return ('abc'):gsub('()', {[1]='one', [3]='three'})", NULL},
    {"return ('abc'):gsub('.', setmetatable({}, {__index=function(t, k) return k:upper() end}))", NULL},
    {"return ('abc'):gsub('%w', function(c) return c:upper() .. '.' end)", NULL},
    {"return ('abc'):gsub('%w', function() end)", NULL},
    {"return ('abc'):gsub('%w', function() return false end)", NULL},
    {"return ('abc'):gsub('%w', function() return true end)", "invalid replacement value (a boolean)"},
    {"return ('abc'):gsub('%w', function() return {} end)", "invalid replacement value (a table)"},
    {"return ('abc'):gsub('%w', function() return print end)", "invalid replacement value (a function)"},
    {"return ('abc'):gsub('()(%w)', function(a, b) return tostring(a) .. tostring(b) end)", NULL},
    {"return ('abc'):gsub('%w', function(...) return select('#', ...) end)", NULL},
    {"return ('abc'):gsub('.', function(c) error('boom ' .. c) end)", "boom a"},
    {"return ('a b'):gsub('%a', function(w) return (('<' .. w .. '>'):gsub('%a', '%0%0')) end)", NULL},
    {"local co = coroutine.wrap(function() return ('ab'):gsub('.', function(c) coroutine.yield(c) end) end)"
     " return co()",
     "attempt to yield across a C-call boundary"},
    /* gsub: argument errors (arg 4 is checked before arg 3, as stock does) */
    {"return ('abc'):gsub('%w')", "string/function/table expected, got no value"},
    {"return ('abc'):gsub('%w', true)", "string/function/table expected, got boolean"},
    {"return ('abc'):gsub('%w', nil, 'x')", "number expected, got string"},
    {"return string.gsub('abc', '%w', 'x', 1.5)", "number has no integer representation"},
    {"return string.gsub()", "bad argument #1 to 'gsub'"},
    {"return string.gsub('x')", "bad argument #2 to 'gsub'"},
    /* method calls see the same functions */
    {"return ('').find == string.find, ('').gsub == string.gsub, ('').gmatch == string.gmatch", NULL},
    {NULL, NULL},
};

/* ---- random cases ------------------------------------------------------ */

typedef struct {
    uint64_t s;
} Rng;

static uint64_t rnd(Rng *r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int below(Rng *r, int n) { return (int)(rnd(r) % (uint64_t)n); }
static char pick(Rng *r, const char *from) { return from[below(r, (int)strlen(from))]; }

static const char ALPHA[] = "ab(%-.[]^$";
static const char CLASSES[] = "acdglpsuwxACDGLPSUWXzZq.%()[]-^$";

/* A set "[...]", sometimes unterminated or with raw specials inside. */
static size_t gen_set(Rng *r, char *o) {
    size_t n = 0;
    int i, k = 1 + below(r, 3);
    o[n++] = '[';
    if (below(r, 3) == 0) o[n++] = '^';
    for (i = 0; i < k; i++) {
        switch (below(r, 6)) {
        case 0: o[n++] = pick(r, ALPHA); break;
        case 1: o[n++] = pick(r, "a(%"); o[n++] = '-'; o[n++] = pick(r, "b.]1"); break;
        case 2: o[n++] = '%'; o[n++] = pick(r, CLASSES); break;
        case 3: o[n++] = ']'; break;
        default: o[n++] = pick(r, "abc1 "); break;
        }
    }
    if (below(r, 12) != 0) o[n++] = ']';
    return n;
}

/* A pattern from the grammar. At most 3 quantifiers and a subject of at most
 * 10 bytes keep stock Lua's backtracking small. */
static size_t gen_pattern(Rng *r, char *o) {
    size_t n = 0;
    int i, quant = 3, open = 0, items = below(r, 8);
    if (below(r, 5) == 0) o[n++] = '^';
    for (i = 0; i < items; i++) {
        int k = below(r, 20);
        if (k < 3) { /* a raw character, special or not */
            char c = pick(r, ALPHA);
            if (c == '-' && quant-- <= 0) c = 'a';
            o[n++] = c;
            continue;
        }
        if (k < 5) { o[n++] = '('; open++; continue; }
        if (k < 7) {
            if (open > 0 || below(r, 4) == 0) { o[n++] = ')'; open--; }
            continue;
        }
        if (k == 7) { o[n++] = '('; o[n++] = ')'; continue; }
        if (k == 8) {
            o[n++] = '%';
            o[n++] = below(r, 10) == 0 ? pick(r, "09") : (char)('1' + below(r, 3));
            continue;
        }
        if (k == 9) { o[n++] = '%'; o[n++] = 'b'; o[n++] = pick(r, "ab()"); o[n++] = pick(r, "ab()"); continue; }
        if (k == 10) { o[n++] = '%'; o[n++] = 'f'; n += gen_set(r, o + n); continue; }
        /* a single-character item, perhaps quantified */
        if (k < 14) o[n++] = pick(r, "abc");
        else if (k < 15) o[n++] = '.';
        else if (k < 17) { o[n++] = '%'; o[n++] = pick(r, CLASSES); }
        else n += gen_set(r, o + n);
        if (quant > 0 && below(r, 3) == 0) { o[n++] = pick(r, "*+-?"); quant--; }
    }
    while (open > 0 && below(r, 5) != 0) { o[n++] = ')'; open--; }
    if (below(r, 5) == 0) o[n++] = '$';
    if (below(r, 40) == 0) o[n++] = '%';
    if (below(r, 100) == 0) o[n++] = '\0';
    return n;
}

static size_t gen_subject(Rng *r, char *o) {
    size_t i, n = (size_t)below(r, 11);
    for (i = 0; i < n; i++) o[i] = below(r, 60) == 0 ? '\0' : pick(r, "ab(%-.[]^$ aabbc1A)");
    return n;
}

typedef struct {
    int op;               /* 0 find, 1 match, 2 gmatch, 3 gsub */
    char s[16], p[128], rs[32];
    size_t ls, lp, lrs;
    int has_a, b;         /* init or max n (a) present?; plain flag: 0 nil, 1 true, 2 false */
    long long a;
    int rk, ri;           /* gsub replacement kind / index */
} Case;

static void gen_case(Rng *r, Case *c) {
    c->op = below(r, 4);
    c->ls = gen_subject(r, c->s);
    c->lp = gen_pattern(r, c->p);
    c->has_a = below(r, 10) >= 4;
    if (c->op == 3) {
        c->a = below(r, 6) - 1; /* max n */
    } else if (below(r, 10) < 9) {
        c->a = below(r, 26) - 12;
    } else {
        const long long ext[] = {0, LLONG_MAX, LLONG_MIN, (long long)c->ls + 1, (long long)c->ls + 2,
                                 -(long long)c->ls, -(long long)c->ls - 1};
        c->a = ext[below(r, 7)];
    }
    c->b = below(r, 10) < 7 ? 0 : below(r, 3) == 0 ? 2 : 1;
    c->rk = below(r, 20);
    c->rk = c->rk < 10 ? 0 : c->rk < 11 ? 1 : c->rk < 15 ? 2 : c->rk < 19 ? 3 : 4;
    c->lrs = 0;
    if (c->rk == 0) {
        static const char *pieces[] = {"x", "%0", "%1", "%2", "%3", "%%", "%", "%a", "a", "-", "%9"};
        int i, k = below(r, 5);
        for (i = 0; i < k; i++) {
            const char *pc = pieces[below(r, 11)];
            memcpy(c->rs + c->lrs, pc, strlen(pc));
            c->lrs += strlen(pc);
        }
    }
    c->ri = c->rk == 1 ? below(r, 100) - 5 : c->rk == 2 ? 1 + below(r, 9) : c->rk == 3 ? 1 + below(r, 4) : below(r, 2);
}

/* Calls T(...) for case c in state L; leaves the serialised result on top. */
static const char *run_case(lua_State *L, const Case *c, size_t *len) {
    lua_getglobal(L, "T");
    lua_pushinteger(L, c->op);
    lua_pushlstring(L, c->s, c->ls);
    lua_pushlstring(L, c->p, c->lp);
    if (c->has_a) lua_pushinteger(L, c->a);
    else lua_pushnil(L);
    if (c->b == 0) lua_pushnil(L);
    else lua_pushboolean(L, c->b == 1);
    lua_pushinteger(L, c->rk);
    lua_pushlstring(L, c->rs, c->lrs);
    lua_pushinteger(L, c->ri);
    if (lua_pcall(L, 8, 1, 0) != LUA_OK) lua_pushfstring(L, "harness error: %s", lua_tostring(L, -1));
    return lua_tolstring(L, -1, len);
}

static void random_cases(lua_State *A, lua_State *B, uint64_t seed, long count) {
    static const char *ops[] = {"find", "match", "gmatch", "gsub"};
    long i, shown = 0, bad = 0, errors = 0, misses = 0;
    for (i = 0; i < count; i++) {
        Case c;
        Rng r;
        size_t la, lb;
        const char *ra, *rb;
        r.s = seed * 0x100000001B3ull ^ (uint64_t)i * 0x9E3779B97F4A7C15ull;
        gen_case(&r, &c);
        ra = run_case(A, &c, &la);
        rb = run_case(B, &c, &lb);
        errors += strncmp(ra, "err", 3) == 0;
        misses += strcmp(ra, "ok nil") == 0 || strcmp(ra, "ok ") == 0 || strcmp(ra, "ok \"\"") == 0;
        if (la == lb && memcmp(ra, rb, la) == 0) {
            passed++;
        } else {
            failed++;
            bad++;
            if (shown++ < 25) {
                printf("FAIL random seed=%llu case=%ld: %s s=", (unsigned long long)seed, i, ops[c.op]);
                show(c.s, c.ls);
                printf(" p=");
                show(c.p, c.lp);
                if (c.has_a) printf(" %s=%lld", c.op == 3 ? "n" : "init", c.a);
                if (c.op == 0 && c.b) printf(" plain=%s", c.b == 1 ? "true" : "false");
                if (c.op == 3) {
                    printf(" repl(kind %d)=", c.rk);
                    if (c.rk == 0) show(c.rs, c.lrs);
                    else printf("%d", c.ri);
                }
                printf("\n  stock:   %.300s\n  bounded: %.300s\n", ra, rb);
            }
        }
        lua_pop(A, 1);
        lua_pop(B, 1);
    }
    printf("random: %ld cases (stock: %ld errors, %ld no match), seed %llu, %ld failed\n", count, errors,
           misses, (unsigned long long)seed, bad);
}

/* ---- budget cases (bounded state only) ----------------------------------- */

static void check(int ok, const char *what, const char *detail) {
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s: %s\n", what, detail);
    }
}

/* A pathological call must end with the budget error, having charged little
 * more than the budget (one charging interval, or one back-reference length,
 * which is charged before it is compared), and return promptly. */
static void budget_case(lua_State *B, const char *code) {
    const long long limit = 2000000;
    char detail[512];
    const char *res;
    clock_t t0 = clock();
    double secs;
    reset_charges(limit);
    lua_getglobal(B, "RUN");
    lua_pushstring(B, code);
    lua_call(B, 1, 1);
    secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    res = lua_tostring(B, -1);
    snprintf(detail, sizeof detail, "%s -> %.200s (charged %lld, %.3f s)", code, res, charged, secs);
    check(strncmp(res, "err ", 4) == 0 && strstr(res, "instruction budget exhausted") != NULL &&
              charged <= limit + limit / 10 && secs < 2.0,
          "budget case", detail);
    printf("budget: %-75.75s charged %lld units in %.3f s\n", code, charged, secs);
    lua_pop(B, 1);
    reset_charges(-1);
}

/* A linear pattern over a ~1 MB subject: same result as stock, at most 20
 * units per subject byte, charged in coarse chunks (every 4096 units, plus
 * once at the end of each of the `calls` calls of a pattern function). */
static void linear_case(lua_State *A, lua_State *B, const char *body, long long calls) {
    char code[512], detail[1024];
    const char *ra, *rb;
    const long long len = 7 * 150000;
    double per_byte;
    snprintf(code, sizeof code, "local s = ('abc d1 '):rep(150000) %s", body);
    lua_getglobal(A, "RUN");
    lua_pushstring(A, code);
    lua_call(A, 1, 1);
    reset_charges(-1);
    lua_getglobal(B, "RUN");
    lua_pushstring(B, code);
    lua_call(B, 1, 1);
    ra = lua_tostring(A, -1);
    rb = lua_tostring(B, -1);
    per_byte = (double)charged / (double)len;
    snprintf(detail, sizeof detail, "%s -> stock %.100s, bounded %.100s, %lld units (%.2f/byte) in %lld calls",
             body, ra, rb, charged, per_byte, charge_calls);
    check(strcmp(ra, rb) == 0 && charged >= len / 2 && per_byte <= 20.0 &&
              charge_calls <= charged / 4096 + calls + 1,
          "linear case", detail);
    printf("linear: %-60.60s %.2f units/byte, %lld calls\n", body, per_byte, charge_calls);
    lua_pop(A, 1);
    lua_pop(B, 1);
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    long count = argc > 2 ? strtol(argv[2], NULL, 10) : 200000;
    lua_State *A = new_state(0), *B = new_state(1);
    int i, hand_failed;
    char detail[128];

    /* The install took effect (else the comparison would be vacuous). */
    lua_getglobal(A, "string");
    lua_getglobal(B, "string");
    for (i = 0; i < 4; i++) {
        static const char *names[] = {"find", "match", "gmatch", "gsub"};
        lua_getfield(A, -1, names[i]);
        lua_getfield(B, -1, names[i]);
        snprintf(detail, sizeof detail, "string.%s was not replaced", names[i]);
        check(lua_tocfunction(B, -1) != NULL && lua_tocfunction(A, -1) != lua_tocfunction(B, -1),
              "install", detail);
        lua_pop(A, 1);
        lua_pop(B, 1);
    }
    lua_pop(A, 1);
    lua_pop(B, 1);

    /* (a) hand-written cases */
    hand_failed = failed;
    reset_charges(-1);
    for (i = 0; HAND[i][0]; i++) hand_case(A, B, HAND[i][0], HAND[i][1]);
    printf("hand: %d cases, %d failed, %lld units charged\n", i, failed - hand_failed, charged);
    check(charged > 0, "charging", "the hand cases charged nothing");

    /* A small budget does not disturb ordinary calls. */
    reset_charges(100000);
    hand_case(A, B, "return ('hello world'):find('(o)(r)'), ('a,b'):gsub(',', ';'), GM('a b', '%a')", NULL);
    reset_charges(-1);

    /* (b) random differential cases */
    random_cases(A, B, seed, count);

    /* (c) budget cases */
    budget_case(B, "return (('a'):rep(30)):find(('a?'):rep(30) .. ('a'):rep(30))");
    budget_case(B, "return string.rep('a', 20000):find('.-.-.-.-b')");
    budget_case(B, "return (('a'):rep(30)):match(('a*'):rep(10) .. 'b')");
    budget_case(B, "return (('a'):rep(28)):gsub(('a?'):rep(28) .. ('a'):rep(28), 'x')");
    budget_case(B, "for _ in (('a'):rep(28)):gmatch(('a?'):rep(28) .. ('a'):rep(28)) do end");
    budget_case(B, "return ('a'):rep(1000000):find(('a'):rep(5000) .. 'b', 1, true)");
    budget_case(B, "return ('x'):rep(100000):find(('x'):rep(50000) .. 'y')");
    budget_case(B, "return ('('):rep(200000):find('%b()')");
    budget_case(B, "return ('a'):rep(100000):find('(a+)%1b')");
    budget_case(B, "return ('a'):rep(100000):gsub('a-b', '', 1)");
    linear_case(A, B, "return s:find('[xyz]')", 1);
    linear_case(A, B, "local r, n = s:gsub('%a+', '<%0>') return #r, n", 1);
    linear_case(A, B, "local n = 0 for w in s:gmatch('%S+') do n = n + 1 end return n", 300001);
    linear_case(A, B, "return #s:match('^(.-)$')", 1);
    linear_case(A, B, "return s:find('d1 q', 1, true)", 1);
    linear_case(A, B, "return s:find('%f[%d]%d+x')", 1);
    linear_case(A, B, "local r, n = s:gsub('%s', '') return #r, n", 1);
    linear_case(A, B, "local r, n = s:gsub('(%w+)', {abc = 'X'}) return #r, n", 1);

    lua_close(A);
    lua_close(B);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
