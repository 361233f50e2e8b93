/*
 * Lua 5.4's string.find / match / gmatch / gsub, reimplemented so that every
 * step of matching is charged to the state's instruction budget.
 *
 * Why: the stock matcher is C code the instruction hook cannot interrupt, and
 * it backtracks exponentially ("a?"*30 .. "a"*30), so an untrusted script can
 * hang the host with one call. This matcher has the same semantics, results
 * and error messages (the stock library is the judge, see
 * Tests/pattern/run.sh), but counts its work and hands it to calu_charge(),
 * which raises a Lua error once the budget is spent.
 *
 * Matching is a backtracking recursive descent over the pattern text. Where
 * the matcher recurses (captures, '?', '*', '+', '-') is kept the same as
 * Lua's so that the recursion limit ("pattern too complex", 200 levels) trips
 * on the same patterns; the limit also bounds the C stack used.
 */
#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>

/* Implemented by the host (sandbox.c; Tests/pattern defines its own): raises
 * a Lua error when the budget is spent. Not weak: a build without it must
 * fail to link rather than match for free. */
void calu_charge(lua_State *L, long long units);
void calu_install_bounded_patterns(lua_State *L);

#define MAX_CAPTURES 32   /* LUA_MAXCAPTURES */
#define MAX_DEPTH 200     /* nested matcher calls, as Lua's MAXCCALLS */
#define CHARGE_EVERY 4096 /* steps accumulated between calu_charge calls */
#define CAP_OPEN (-1)     /* capture length while its ')' is not yet matched */
#define CAP_POS (-2)      /* capture length of a position capture "()" */
#define SPECIALS "^$*+?.([%-"

typedef struct {
    const char *src, *src_end; /* subject */
    const char *pat_end;       /* end of the pattern (anchor already skipped) */
    lua_State *L;
    int depth;                 /* nested matcher calls still allowed */
    int ncap;                  /* captures opened so far */
    long long steps;           /* work done but not yet charged */
    struct {
        const char *start;
        ptrdiff_t len;         /* or CAP_OPEN / CAP_POS */
    } cap[MAX_CAPTURES];
} Matcher;

/* ---- budget ---------------------------------------------------------- */

/* Charges the pending steps. May raise (longjmp): callers hold no malloc'd
 * memory, only Lua values and luaL_Buffers, which Lua cleans up. */
static void flush(Matcher *m) {
    long long units = m->steps;
    m->steps = 0;
    if (units > 0) calu_charge(m->L, units);
}

static void tick(Matcher *m, long long n) {
    m->steps += n;
    if (m->steps >= CHARGE_EVERY) flush(m);
}

static void matcher_init(Matcher *m, lua_State *L, const char *s, size_t ls,
                         const char *p, size_t lp) {
    m->src = s;
    m->src_end = s + ls;
    m->pat_end = p + lp;
    m->L = L;
    m->steps = 0;
    m->ncap = 0;
    m->depth = MAX_DEPTH;
}

/* Each match attempt starts with no captures and the full depth allowance
 * (also after an earlier attempt was left by an error). */
static void matcher_reset(Matcher *m) {
    m->ncap = 0;
    m->depth = MAX_DEPTH;
}

/* ---- single characters ----------------------------------------------- */

/* Does c belong to class %cl? An upper-case class letter is the complement;
 * any other character after '%' stands for itself. The classes come from
 * <ctype.h>, so they follow the C locale the way Lua's do. */
static int class_has(int c, int cl) {
    int r;
    switch (tolower(cl)) {
    case 'a': r = isalpha(c); break;
    case 'c': r = iscntrl(c); break;
    case 'd': r = isdigit(c); break;
    case 'g': r = isgraph(c); break;
    case 'l': r = islower(c); break;
    case 'p': r = ispunct(c); break;
    case 's': r = isspace(c); break;
    case 'u': r = isupper(c); break;
    case 'w': r = isalnum(c); break;
    case 'x': r = isxdigit(c); break;
    case 'z': r = c == 0; break; /* deprecated, but 5.4 still has it */
    default: return cl == c;
    }
    r = r != 0;
    return isupper(cl) ? !r : r;
}

/* Returns the end of the single-character class starting at p ('.', 'x',
 * '%x' or a set "[...]"). Errors are raised only when the matcher actually
 * reaches a malformed item, as Lua does. */
static const char *item_end(Matcher *m, const char *p) {
    const char *pe = m->pat_end;
    char c = *p++;
    if (c == '%') {
        if (p == pe) luaL_error(m->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (c != '[') return p;
    if (p < pe && *p == '^') p++;
    /* The first member is taken before looking for ']', so "[]]" and "[^]]"
     * are sets holding ']'; "%x" inside a set skips the escaped character. */
    do {
        if (p == pe) luaL_error(m->L, "malformed pattern (missing ']')");
        if (*p++ == '%' && p < pe) p++;
    } while (p == pe || *p != ']');
    return p + 1;
}

/* Is c in the set that opens at p ('[') and closes at close (']')? */
static int set_has(int c, const char *p, const char *close) {
    int inside = 1;
    p++;
    if (*p == '^') {
        inside = 0;
        p++;
    }
    for (; p < close; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch == '%') {
            p++;
            if (class_has(c, (unsigned char)*p)) return inside;
        } else if (p + 2 < close && p[1] == '-') { /* range; a trailing '-' is literal */
            if (ch <= c && c <= (unsigned char)p[2]) return inside;
            p += 2;
        } else if (ch == c) {
            return inside;
        }
    }
    return !inside;
}

/* Does the item p..ep match the subject character at s? */
static int item_matches(Matcher *m, const char *s, const char *p, const char *ep) {
    int c;
    if (s >= m->src_end) return 0;
    tick(m, 1);
    c = (unsigned char)*s;
    switch (*p) {
    case '.': return 1;
    case '%': return class_has(c, (unsigned char)p[1]);
    case '[': return set_has(c, p, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

/* ---- the matcher ----------------------------------------------------- */

static const char *do_match(Matcher *m, const char *s, const char *p);

/* "x*" (and "x+" after its first x): take as many as possible, then give
 * them back one by one until the rest of the pattern matches. */
static const char *greedy(Matcher *m, const char *s, const char *p, const char *ep) {
    ptrdiff_t n = 0;
    while (item_matches(m, s + n, p, ep)) n++;
    for (; n >= 0; n--) {
        const char *r = do_match(m, s + n, ep + 1);
        if (r) return r;
    }
    return NULL;
}

/* "x-": take as few as possible. */
static const char *lazy(Matcher *m, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *r = do_match(m, s, ep + 1);
        if (r) return r;
        if (!item_matches(m, s, p, ep)) return NULL;
        s++;
    }
}

static const char *open_capture(Matcher *m, const char *s, const char *p, ptrdiff_t kind) {
    const char *r;
    if (m->ncap >= MAX_CAPTURES) luaL_error(m->L, "too many captures");
    m->cap[m->ncap].start = s;
    m->cap[m->ncap].len = kind;
    m->ncap++;
    r = do_match(m, s, p);
    if (!r) m->ncap--;
    return r;
}

/* ')' closes the innermost capture still open. */
static const char *close_capture(Matcher *m, const char *s, const char *p) {
    const char *r;
    int i = m->ncap - 1;
    while (i >= 0 && m->cap[i].len != CAP_OPEN) i--;
    if (i < 0) luaL_error(m->L, "invalid pattern capture");
    m->cap[i].len = s - m->cap[i].start;
    r = do_match(m, s, p);
    if (!r) m->cap[i].len = CAP_OPEN;
    return r;
}

/* "%1".."%9": the text of a closed capture again. A position capture has no
 * text and never matches (Lua compares its negative length as a size). */
static const char *backref(Matcher *m, const char *s, int digit) {
    int i = digit - '1';
    ptrdiff_t len;
    if (i < 0 || i >= m->ncap || m->cap[i].len == CAP_OPEN)
        luaL_error(m->L, "invalid capture index %%%d", i + 1);
    len = m->cap[i].len;
    if (len == CAP_POS || m->src_end - s < len) return NULL;
    tick(m, len);
    return memcmp(m->cap[i].start, s, (size_t)len) == 0 ? s + len : NULL;
}

/* "%bxy": p points at x. */
static const char *balance(Matcher *m, const char *s, const char *p) {
    char open, close;
    int level = 1;
    if (p + 1 >= m->pat_end)
        luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= m->src_end || *s != *p) return NULL;
    open = p[0];
    close = p[1];
    while (++s < m->src_end) {
        tick(m, 1);
        if (*s == close) {
            if (--level == 0) return s + 1;
        } else if (*s == open) {
            level++;
        }
    }
    return NULL;
}

/* Matches pattern p at subject position s; returns the end of the match or
 * NULL. Simple items loop here; only alternatives recurse. */
static const char *do_match(Matcher *m, const char *s, const char *p) {
    const char *pe = m->pat_end;
    if (--m->depth < 0) luaL_error(m->L, "pattern too complex");
    tick(m, 1);
    while (p != pe && s != NULL) {
        const char *ep;
        char q;
        switch (*p) {
        case '(':
            if (p + 1 < pe && p[1] == ')') s = open_capture(m, s, p + 2, CAP_POS);
            else s = open_capture(m, s, p + 1, CAP_OPEN);
            goto done;
        case ')':
            s = close_capture(m, s, p + 1);
            goto done;
        case '$':
            if (p + 1 != pe) break; /* '$' not at the end is a plain character */
            if (s != m->src_end) s = NULL;
            goto done;
        case '%':
            if (p + 1 == pe) break; /* item_end reports it */
            if (p[1] == 'b') { s = balance(m, s, p + 2); p += 4; continue; }
            if (p[1] == 'f') { /* frontier: prev char not in set, current one is */
                int prev, cur;
                p += 2;
                if (p == pe || *p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
                ep = item_end(m, p);
                prev = s == m->src ? 0 : (unsigned char)s[-1];
                cur = s < m->src_end ? (unsigned char)*s : 0;
                tick(m, 1);
                if (set_has(prev, p, ep - 1) || !set_has(cur, p, ep - 1)) s = NULL;
                p = ep;
                continue;
            }
            if (isdigit((unsigned char)p[1])) { s = backref(m, s, p[1]); p += 2; continue; }
            break;
        default:
            break;
        }
        /* A single-character item, perhaps followed by a quantifier. */
        ep = item_end(m, p);
        q = ep < pe ? *ep : '\0';
        if (!item_matches(m, s, p, ep)) {
            if (q == '*' || q == '?' || q == '-') { p = ep + 1; continue; } /* zero will do */
            s = NULL;
            goto done;
        }
        switch (q) {
        case '?': { /* with the character, else without */
            const char *r = do_match(m, s + 1, ep + 1);
            if (r) { s = r; goto done; }
            p = ep + 1;
            continue;
        }
        case '+': s = greedy(m, s + 1, p, ep); goto done;
        case '*': s = greedy(m, s, p, ep); goto done;
        case '-': s = lazy(m, s, p, ep); goto done;
        default: s++; p = ep; continue;
        }
    }
done:
    m->depth++;
    return s;
}

/* ---- results ------------------------------------------------------------ */

/* Capture i of a match s..e: sets *text and returns its length, or returns
 * CAP_POS for a position capture. With no captures, "capture 1" is the whole
 * match. */
static ptrdiff_t capture(Matcher *m, int i, const char *s, const char *e, const char **text) {
    if (i >= m->ncap) {
        if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
        *text = s;
        return e - s;
    }
    if (m->cap[i].len == CAP_OPEN) luaL_error(m->L, "unfinished capture");
    *text = m->cap[i].start;
    return m->cap[i].len;
}

static void push_capture(Matcher *m, int i, const char *s, const char *e) {
    const char *text;
    ptrdiff_t len = capture(m, i, s, e, &text);
    if (len == CAP_POS) lua_pushinteger(m->L, (text - m->src) + 1);
    else lua_pushlstring(m->L, text, (size_t)len);
}

/* Pushes every capture; the whole match when there are none and s != NULL. */
static int push_captures(Matcher *m, const char *s, const char *e) {
    int i, n = (m->ncap == 0 && s != NULL) ? 1 : m->ncap;
    luaL_checkstack(m->L, n, "too many captures");
    for (i = 0; i < n; i++) push_capture(m, i, s, e);
    return n;
}

/* Lua 5.4's relative start position: negative counts from the end, 0 and
 * anything before the start mean 1. Returns a 0-based offset (may exceed ls). */
static size_t start_offset(lua_State *L, int arg, size_t ls) {
    lua_Integer pos = luaL_optinteger(L, arg, 1);
    if (pos > 0) return (size_t)pos - 1;
    if (pos == 0 || pos < -(lua_Integer)ls) return 0;
    return ls - (size_t)(-pos); /* pos is in -ls..-1 */
}

/* ---- find / match ---------------------------------------------------- */

/* First occurrence of p in s, one step per byte scanned or compared. */
static const char *plain_find(Matcher *m, const char *s, size_t ls, const char *p, size_t lp) {
    const char *last;
    if (lp == 0) return s;
    if (lp > ls) return NULL;
    last = s + (ls - lp); /* last possible start */
    while (s <= last) {
        size_t k = 1;
        const char *hit = (const char *)memchr(s, p[0], (size_t)(last - s) + 1);
        tick(m, (hit ? hit : last) - s + 1);
        if (!hit) return NULL;
        while (k < lp && hit[k] == p[k]) k++;
        tick(m, (long long)k);
        if (k == lp) return hit;
        s = hit + 1;
    }
    return NULL;
}

static int has_specials(const char *p, size_t lp) {
    size_t i;
    for (i = 0; i < lp; i++)
        if (p[i] != '\0' && strchr(SPECIALS, p[i])) return 1;
    return 0;
}

static int find_or_match(lua_State *L, int find) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_offset(L, 3, ls);
    Matcher m;
    if (init > ls) { /* starts after the end: nothing to find */
        lua_pushnil(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
        const char *hit;
        matcher_init(&m, L, s, ls, p, lp);
        hit = plain_find(&m, s + init, ls - init, p, lp);
        flush(&m);
        if (hit) {
            lua_pushinteger(L, (hit - s) + 1);
            lua_pushinteger(L, (lua_Integer)((size_t)(hit - s) + lp));
            return 2;
        }
    } else {
        int anchor = lp > 0 && *p == '^';
        const char *at = s + init;
        if (anchor) p++, lp--;
        matcher_init(&m, L, s, ls, p, lp);
        for (;;) {
            const char *e;
            matcher_reset(&m);
            e = do_match(&m, at, p);
            if (e) {
                flush(&m);
                if (!find) return push_captures(&m, at, e);
                lua_pushinteger(L, (at - s) + 1);
                lua_pushinteger(L, e - s);
                return push_captures(&m, NULL, NULL) + 2;
            }
            if (anchor || at >= m.src_end) break;
            at++;
        }
        flush(&m);
    }
    lua_pushnil(L);
    return 1;
}

static int l_find(lua_State *L) { return find_or_match(L, 1); }
static int l_match(lua_State *L) { return find_or_match(L, 0); }

/* ---- gmatch ---------------------------------------------------------- */

typedef struct {
    Matcher m;
    const char *next;     /* where the next search starts */
    const char *pat;
    const char *last;     /* end of the previous match: no empty match there */
} GMatch;

/* Upvalues: subject, pattern (kept alive for the pointers), GMatch. */
static int gmatch_next(lua_State *L) {
    GMatch *g = (GMatch *)lua_touserdata(L, lua_upvalueindex(3));
    const char *at;
    g->m.L = L; /* the loop may run in another coroutine */
    for (at = g->next; at <= g->m.src_end; at++) {
        const char *e;
        matcher_reset(&g->m);
        e = do_match(&g->m, at, g->pat);
        if (e && e != g->last) {
            g->next = g->last = e;
            flush(&g->m);
            return push_captures(&g->m, at, e);
        }
    }
    g->next = at;
    flush(&g->m);
    return 0;
}

/* In 5.4 gmatch has no anchor: a leading '^' is an ordinary character. */
static int l_gmatch(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_offset(L, 3, ls);
    GMatch *g;
    lua_settop(L, 2);
    g = (GMatch *)lua_newuserdatauv(L, sizeof(GMatch), 0);
    if (init > ls) init = ls + 1; /* nothing left; keeps the pointer in range */
    matcher_init(&g->m, L, s, ls, p, lp);
    g->next = s + init;
    g->pat = p;
    g->last = NULL;
    lua_pushcclosure(L, gmatch_next, 3);
    return 1;
}

/* ---- gsub ------------------------------------------------------------ */

/* Appends the replacement string (argument 3) with %0-%9 and %% expanded. */
static void add_template(Matcher *m, luaL_Buffer *b, const char *s, const char *e) {
    size_t l;
    const char *r = lua_tolstring(m->L, 3, &l), *end = r + l;
    tick(m, (long long)l);
    while (r < end) {
        const char *text, *pct = (const char *)memchr(r, '%', (size_t)(end - r));
        char d;
        ptrdiff_t len;
        if (!pct) {
            luaL_addlstring(b, r, (size_t)(end - r));
            return;
        }
        luaL_addlstring(b, r, (size_t)(pct - r));
        d = pct + 1 < end ? pct[1] : '\0';
        r = pct + 2;
        if (d == '%') {
            luaL_addchar(b, '%');
            continue;
        }
        if (!isdigit((unsigned char)d))
            luaL_error(m->L, "invalid use of '%c' in replacement string", '%');
        if (d == '0') {
            text = s;
            len = e - s;
        } else {
            len = capture(m, d - '1', s, e, &text);
        }
        if (len == CAP_POS) {
            lua_pushinteger(m->L, (text - m->src) + 1);
            luaL_addvalue(b);
        } else {
            tick(m, len);
            luaL_addlstring(b, text, (size_t)len);
        }
    }
}

/* Appends the replacement for match s..e; returns 0 when the match is kept
 * as it was (a table or function gave nil or false). */
static int add_replacement(Matcher *m, luaL_Buffer *b, const char *s, const char *e, int kind) {
    lua_State *L = m->L;
    if (kind == LUA_TFUNCTION) {
        int n;
        lua_pushvalue(L, 3);
        n = push_captures(m, s, e);
        lua_call(L, n, 1);
    } else if (kind == LUA_TTABLE) {
        push_capture(m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_template(m, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1))
        luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

static int l_gsub(lua_State *L) {
    size_t ls, lp;
    const char *src = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int kind = lua_type(L, 3);
    lua_Integer max_n = luaL_optinteger(L, 4, (lua_Integer)ls + 1); /* checked before arg 3, as Lua */
    int anchor = lp > 0 && *p == '^', changed = 0;
    const char *last = NULL;
    lua_Integer n = 0;
    Matcher m;
    luaL_Buffer b;
    luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION ||
                            kind == LUA_TTABLE,
                     3, "string/function/table");
    luaL_buffinit(L, &b);
    if (anchor) p++, lp--;
    matcher_init(&m, L, src, ls, p, lp);
    while (n < max_n) {
        const char *e;
        matcher_reset(&m);
        e = do_match(&m, src, p);
        if (e && e != last) { /* no empty match right after the previous one */
            n++;
            changed |= add_replacement(&m, &b, src, e, kind);
            src = last = e;
        } else if (src < m.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor) break;
    }
    if (!changed) {
        lua_pushvalue(L, 1); /* the subject itself, already a string */
    } else {
        tick(&m, m.src_end - src);
        luaL_addlstring(&b, src, (size_t)(m.src_end - src));
        luaL_pushresult(&b);
    }
    flush(&m);
    lua_pushinteger(L, n);
    return 2;
}

/* ---- installation ---------------------------------------------------- */

/* Replaces find/match/gmatch/gsub in the global string table of L. The
 * string metatable's __index is that same table, so s:find() uses them too. */
void calu_install_bounded_patterns(lua_State *L) {
    static const luaL_Reg fns[] = {
        {"find", l_find}, {"match", l_match}, {"gmatch", l_gmatch}, {"gsub", l_gsub}, {NULL, NULL}};
    const luaL_Reg *f;
    if (lua_getglobal(L, "string") == LUA_TTABLE) {
        for (f = fns; f->name; f++) {
            lua_pushstring(L, f->name);
            lua_pushcfunction(L, f->func);
            lua_rawset(L, -3);
        }
    }
    lua_pop(L, 1);
}
