/* Grammar-aware mutations for the Lua target. Byte flips mostly make syntax errors, which
 * stop at Lua's parser; these keep a chunk mostly parseable by working on lines (about one
 * statement each) and tokens:
 *   delete, duplicate or swap lines; insert a snippet of caluna API use; wrap a line in a
 *   loop, a pcall or a coroutine; replace a number with an interesting value (0, -1, 1e308,
 *   0/0, 2^31, huge counts); replace an identifier by another of the same chunk;
 *   crossover: splice a run of lines of another corpus input.
 * Half the time libFuzzer's own mutations run instead (they use lua.dict). Deterministic for
 * a given seed, as libFuzzer requires. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static uint64_t mut_rng;
static unsigned below(unsigned n) {
    mut_rng ^= mut_rng << 13; mut_rng ^= mut_rng >> 7; mut_rng ^= mut_rng << 17;
    return n ? (unsigned)(mut_rng % n) : 0;
}

static const char *const numbers[] = {
    "0", "-1", "1", "0.5", "1e308", "-1e308", "(0/0)", "(1/0)", "(-1/0)", "math.huge", "2^31", "2^31-1",
    "-2^31", "2^53", "2^63", "math.maxinteger", "math.mininteger", "1e9", "1e15", "1e16", "10000",
    "100000", "1e6", "16384", "16385", "1024", "65536", "-0.0", "1e-9", "5e-324", "3",
};

/* Statements that reach the engine in many ways; a chunk's own names are mixed in by the
 * identifier swap. */
static const char *const snippets[] = {
    "local l = ca.Layer{frame={0,0,32,32}, backgroundColor=\"red\"}; ca.root:addSublayer(l)",
    "local r = ca.ReplicatorLayer{instanceCount=100, instanceTransform=ca.Transform3D.translation(1,0,0)}; ca.root:addSublayer(r)",
    "local s = ca.ShapeLayer{path=ca.Path():addArc(8,8,8,0,6,true), lineDashPattern={1,2}}; ca.root:addSublayer(s)",
    "local t = ca.TextLayer{string=string.rep(\"w \", 50), wrapped=true, frame={0,0,64,64}}; ca.root:addSublayer(t)",
    "local g = ca.GradientLayer{colors={\"red\",\"blue\"}, type=\"conic\", frame={0,0,64,64}}; ca.root:addSublayer(g)",
    "local em = ca.EmitterLayer{emitterCells={ca.EmitterCell{birthRate=100, lifetime=2}}}; ca.root:addSublayer(em)",
    "ca.root.shadowOpacity = 1; ca.root.shadowRadius = 1000",
    "ca.root.mask = ca.Layer{frame={0,0,8,8}}",
    "ca.root.shouldRasterize = true",
    "ca.root.sublayerTransform = ca.Transform3D.rotation(1, 0, 1, 0)",
    "local a = ca.BasicAnimation{keyPath=\"opacity\", fromValue=0, toValue=1, duration=1}; ca.root:addAnimation(a, \"k\")",
    "local w = ca.physics.World{gravity={0,-100}}; local b = w:addBody{mass=1}; b:addCircle{radius=4}",
    "ca.displayLink(function() ca.root.opacity = math.random() end)",
    "ca.render()",
    "ca.step(1)",
    "ca.Transaction.begin(); ca.Transaction.setDisableActions(true); ca.Transaction.commit()",
    "ca.on(\"tap\", function(ev) return true end); ca.send{type=\"tap\", x=1, y=1}",
    "collectgarbage()",
    "pcall(error, setmetatable({}, {__tostring=function() error(\"x\") end}))",
    "coroutine.wrap(function() coroutine.yield() end)()",
    "local tt = {} for i = 1, 1000 do tt[i] = ca.Layer{} end",
    "string.rep(\"x\", 1 << 20)",
    "ca.Image.fromPixels(4, 4, string.rep(\"\\255\", 64))",
};

typedef struct { size_t start, len; } line;

/* Splits into lines (each with its newline, if any); returns the count (at most cap). */
static size_t split_lines(const uint8_t *d, size_t n, line *out, size_t cap) {
    size_t count = 0, start = 0;
    for (size_t i = 0; i < n && count < cap; i++) {
        if (d[i] == '\n' || i + 1 == n) { out[count].start = start; out[count].len = i + 1 - start; count++; start = i + 1; }
    }
    return count;
}

/* An output buffer that refuses to grow past its cap. */
typedef struct { uint8_t *d; size_t n, cap; int full; } outbuf;
static void put(outbuf *o, const void *p, size_t n) {
    if (o->full || o->n + n > o->cap) { o->full = 1; return; }
    memcpy(o->d + o->n, p, n);
    o->n += n;
}
static void puts_(outbuf *o, const char *s) { put(o, s, strlen(s)); }

static int is_ident(uint8_t c, int first) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

/* Finds the n-th token (n chosen at random) that is a number or an identifier. */
static int pick_token(const uint8_t *d, size_t size, int want_number, size_t *at, size_t *len) {
    size_t found = 0, seen = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t target = pass ? below((unsigned)found) : 0;
        seen = 0;
        for (size_t i = 0; i < size;) {
            int num = d[i] >= '0' && d[i] <= '9' && (i == 0 || !is_ident(d[i - 1], 0));
            int id = is_ident(d[i], 1) && (i == 0 || !is_ident(d[i - 1], 0));
            size_t j = i + 1;
            if (num) while (j < size && (is_ident(d[j], 0) || d[j] == '.')) j++;
            else if (id) while (j < size && is_ident(d[j], 0)) j++;
            if ((want_number && num) || (!want_number && id)) {
                if (pass && seen == target) { *at = i; *len = j - i; return 1; }
                seen++;
            }
            i = j;
        }
        found = seen;
        if (!found) return 0;
    }
    return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
    enum { MAX_LINES = 4096 };
    static line lines[MAX_LINES];
    static uint8_t scratch[1 << 20];
    mut_rng = 0x9E3779B97F4A7C15ull ^ seed;
    below(1);
    if (size == 0 || below(2) == 0 || max_size > sizeof scratch) return LLVMFuzzerMutate(data, size, max_size);
    size_t n = split_lines(data, size, lines, MAX_LINES);
    outbuf o = { scratch, 0, max_size, 0 };
    size_t a = below((unsigned)n), b = below((unsigned)n), at = 0, len = 0;
    switch (below(7)) {
    case 0: /* delete a line */
        for (size_t i = 0; i < n; i++) if (i != a) put(&o, data + lines[i].start, lines[i].len);
        break;
    case 1: /* duplicate a line */
        for (size_t i = 0; i < n; i++) {
            put(&o, data + lines[i].start, lines[i].len);
            if (i == b) { put(&o, "\n", 1); put(&o, data + lines[a].start, lines[a].len); }
        }
        break;
    case 2: /* swap two lines */
        for (size_t i = 0; i < n; i++) {
            size_t k = i == a ? b : i == b ? a : i;
            put(&o, data + lines[k].start, lines[k].len);
            if (lines[k].len && data[lines[k].start + lines[k].len - 1] != '\n') put(&o, "\n", 1);
        }
        break;
    case 3: /* insert a snippet */
        for (size_t i = 0; i < n; i++) {
            put(&o, data + lines[i].start, lines[i].len);
            if (i == a) { put(&o, "\n", 1); puts_(&o, snippets[below(sizeof snippets / sizeof *snippets)]); put(&o, "\n", 1); }
        }
        break;
    case 4: { /* wrap a line */
        static const char *const open[] = { "for _ = 1, 100 do ", "pcall(function() ", "coroutine.wrap(function() ",
                                             "ca.displayLink(function() ", "ca.after(0.01, function() " };
        static const char *const close[] = { " end", " end)", " end)()", " end)", " end)" };
        unsigned k = below(sizeof open / sizeof *open);
        for (size_t i = 0; i < n; i++) {
            if (i == a) { puts_(&o, open[k]); put(&o, data + lines[i].start, lines[i].len); puts_(&o, close[k]); put(&o, "\n", 1); }
            else put(&o, data + lines[i].start, lines[i].len);
        }
        break;
    }
    case 5: /* replace a number by an interesting one */
        if (!pick_token(data, size, 1, &at, &len)) return LLVMFuzzerMutate(data, size, max_size);
        put(&o, data, at);
        puts_(&o, numbers[below(sizeof numbers / sizeof *numbers)]);
        put(&o, data + at + len, size - at - len);
        break;
    default: { /* replace an identifier by another of the chunk */
        size_t at2 = 0, len2 = 0;
        if (!pick_token(data, size, 0, &at, &len) || !pick_token(data, size, 0, &at2, &len2))
            return LLVMFuzzerMutate(data, size, max_size);
        put(&o, data, at);
        put(&o, data + at2, len2);
        put(&o, data + at + len, size - at - len);
        break;
    }
    }
    if (o.full || o.n == 0) return LLVMFuzzerMutate(data, size, max_size);
    memcpy(data, scratch, o.n);
    return o.n;
}

/* Splices lines a1..a2 of the second input after line k of the first. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed) {
    enum { MAX_LINES = 4096 };
    static line l1[MAX_LINES], l2[MAX_LINES];
    mut_rng = 0xD1B54A32D192ED03ull ^ seed;
    below(1);
    size_t n1 = split_lines(d1, s1, l1, MAX_LINES), n2 = split_lines(d2, s2, l2, MAX_LINES);
    if (n1 == 0 || n2 == 0) return 0;
    size_t k = below((unsigned)n1), a = below((unsigned)n2), run = 1 + below(8);
    outbuf o = { out, 0, max_out, 0 };
    for (size_t i = 0; i < n1; i++) {
        put(&o, d1 + l1[i].start, l1[i].len);
        if (i == k) {
            put(&o, "\n", 1);
            for (size_t j = a; j < n2 && j < a + run; j++) put(&o, d2 + l2[j].start, l2[j].len);
            put(&o, "\n", 1);
        }
    }
    return o.full ? 0 : o.n;
}
