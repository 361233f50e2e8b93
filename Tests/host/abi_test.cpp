// abi_test.cpp — caluna from C++17: RAII ownership of the engine and of layers, the
// listing 1.1 scene, rendering into a std::vector, and a few error paths.
// The last line is "N passed, N failed"; the exit status is 1 on any failure.
#include <caluna.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

int passed = 0, failed = 0;

void check(bool ok, int line, const std::string &what) {
    std::printf("%s line %d: %s\n", ok ? "ok  " : "FAIL", line, what.c_str());
    (ok ? passed : failed)++;
}
#define CHECK(cond, what) check((cond), __LINE__, (what))

struct EngineDeleter {
    void operator()(caluna_engine *e) const noexcept { caluna_engine_destroy(e); }
};
using Engine = std::unique_ptr<caluna_engine, EngineDeleter>;

// Turns a failed status into an exception carrying caluna_last_error.
struct Error : std::runtime_error {
    caluna_status status;
    Error(caluna_status s, const std::string &m) : std::runtime_error(m), status(s) {}
};

void ok(const caluna_engine *e, caluna_status s, const char *call) {
    if (s != CALUNA_OK)
        throw Error(s, std::string(call) + ": " + caluna_status_name(s) + ": " + caluna_last_error(e));
}
#define OK(e, call) ok((e), (call), #call)

Engine make_engine(double w, double h, double scale) {
    caluna_engine_options o = caluna_engine_options_default();
    o.width = w;
    o.height = h;
    o.scale = scale;
    caluna_engine *raw = nullptr;
    OK(nullptr, caluna_engine_create(&o, &raw));
    return Engine(raw);
}

// An owned layer reference: released when the object goes away.
class Layer {
public:
    explicit Layer(caluna_engine *e) : e_(e) { OK(e_, caluna_layer_create(e_, &id_)); }
    ~Layer() { if (id_) caluna_layer_release(e_, id_); }
    Layer(const Layer &) = delete;
    Layer &operator=(const Layer &) = delete;
    caluna_layer id() const { return id_; }
    Layer &set(const char *key, caluna_value v) {
        OK(e_, caluna_layer_set(e_, id_, key, &v));
        return *this;
    }
    caluna_value get(const char *key) const {
        caluna_value v = caluna_nil();
        OK(e_, caluna_layer_get(e_, id_, key, &v));
        return v;
    }
private:
    caluna_engine *e_;
    caluna_layer id_ = 0;
};

struct RGBA { int r, g, b, a; };

RGBA pixel(const std::vector<std::uint8_t> &buf, int stride, int x, int y) {
    const std::uint8_t *p = buf.data() + static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x) * 4;
    return RGBA{p[0], p[1], p[2], p[3]};
}

bool near(RGBA p, int r, int g, int b, int a) {
    return std::abs(p.r - r) <= 2 && std::abs(p.g - g) <= 2 && std::abs(p.b - b) <= 2 && std::abs(p.a - a) <= 2;
}

std::string str(RGBA p) {
    return "(" + std::to_string(p.r) + "," + std::to_string(p.g) + "," + std::to_string(p.b) + "," +
           std::to_string(p.a) + ")";
}

void scene_test() {
    Engine engine = make_engine(300, 300, 1);
    caluna_engine *e = engine.get();
    caluna_layer root = 0;
    OK(e, caluna_root_layer(e, &root));
    caluna_value grey = caluna_color_rgb(0xaaaaaa, 1);
    OK(e, caluna_layer_set(e, root, "backgroundColor", &grey));

    Layer white(e), blue(e);
    white.set("frame", caluna_rect(50, 50, 200, 200)).set("backgroundColor", caluna_color(1, 1, 1, 1));
    blue.set("frame", caluna_rect(50, 50, 100, 100)).set("backgroundColor", caluna_color(0, 0, 1, 1));
    OK(e, caluna_layer_add_sublayer(e, root, white.id()));
    OK(e, caluna_layer_add_sublayer(e, white.id(), blue.id()));

    caluna_value pos = blue.get("position");
    CHECK(pos.type == CALUNA_TYPE_POINT && pos.u.point.x == 100 && pos.u.point.y == 100, "B.position == (100,100)");

    std::int32_t w = 0, h = 0;
    OK(e, caluna_engine_pixel_size(e, &w, &h));
    CHECK(w == 300 && h == 300, "pixel size 300x300");
    const int stride = w * 4 + 32;
    std::vector<std::uint8_t> buf(static_cast<std::size_t>(stride) * h);
    OK(e, caluna_engine_step(e, 1.0 / 30));
    OK(e, caluna_render(e, buf.data(), buf.size(), w, h, stride, CALUNA_RGBA8_STRAIGHT));
    RGBA p = pixel(buf, stride, 150, 150);
    CHECK(near(p, 0, 0, 255, 255), "(150,150) is blue: " + str(p));
    p = pixel(buf, stride, 75, 75);
    CHECK(near(p, 255, 255, 255, 255), "(75,75) is white: " + str(p));
    p = pixel(buf, stride, 20, 20);
    CHECK(near(p, 0xaa, 0xaa, 0xaa, 255), "(20,20) is #aaaaaa: " + str(p));

    caluna_layer hit = 0;
    OK(e, caluna_layer_hit_test(e, white.id(), 160, 160, &hit));
    CHECK(hit == blue.id(), "L.hitTest((160,160)) == B");
    double x = 0, y = 0;
    OK(e, caluna_layer_convert_point(e, blue.id(), 0, 0, 0, &x, &y));
    CHECK(x == 100 && y == 100, "B (0,0) in the canvas is (100,100)");

    // Errors come back as statuses (turned into exceptions by OK here).
    try {
        blue.set("filters", caluna_number(8));
        CHECK(false, "filters should not be supported yet");
    } catch (const Error &err) {
        CHECK(err.status == CALUNA_ERR_NOT_SUPPORTED, std::string("filters: ") + err.what());
    }
    try {
        blue.set("opacity", caluna_string("half"));
        CHECK(false, "a string for opacity should be refused");
    } catch (const Error &err) {
        CHECK(err.status == CALUNA_ERR_TYPE_MISMATCH, std::string("opacity = \"half\": ") + err.what());
    }
    try {
        blue.set("position", caluna_point(NAN, 0));
        CHECK(false, "NaN should be refused");
    } catch (const Error &err) {
        CHECK(err.status == CALUNA_ERR_INVALID_ARGUMENT, std::string("position = (NaN, 0): ") + err.what());
    }
    CHECK(caluna_render(e, buf.data(), buf.size() - 1, w, h, stride, CALUNA_RGBA8_STRAIGHT) ==
              CALUNA_ERR_INVALID_ARGUMENT,
          "a buffer one byte short is refused");
    CHECK(caluna_render(e, nullptr, buf.size(), w, h, stride, CALUNA_RGBA8_STRAIGHT) == CALUNA_ERR_INVALID_ARGUMENT,
          "a NULL buffer is refused");
    // The layers (owned references) are released before the engine is destroyed, by
    // declaration order; the unique_ptr destroys the engine last.
}

void ownership_test() {
    caluna_layer kept = 0;
    caluna_engine *raw = nullptr;
    {
        Engine engine = make_engine(64, 64, 2);
        raw = engine.get();
        {
            Layer l(raw);
            kept = l.id();
            l.set("name", caluna_string("temporary"));
            caluna_value v = l.get("name");
            CHECK(v.type == CALUNA_TYPE_STRING && std::strcmp(v.u.string, "temporary") == 0, "name round-trips");
        }
        // The only owned reference is gone and the layer was never in a tree: stale now.
        caluna_value v = caluna_nil();
        CHECK(caluna_layer_get(raw, kept, "name", &v) == CALUNA_ERR_STALE_HANDLE, "a released layer's id is stale");
        CHECK(v.type == CALUNA_TYPE_NIL, "the failed get left NIL");
    }
    // The engine was destroyed by its unique_ptr; the dangling pointer is detected.
    CHECK(caluna_engine_step(raw, 0.1) == CALUNA_ERR_STALE_HANDLE, "a destroyed engine is detected");
    CHECK(std::strlen(caluna_last_error(nullptr)) > 0, std::string("message: ") + caluna_last_error(nullptr));
    CHECK(caluna_engine_step(nullptr, 0.1) == CALUNA_ERR_INVALID_ARGUMENT, "a NULL engine is refused");
    caluna_engine *none = nullptr;
    caluna_engine_options o = caluna_engine_options_default();
    o.width = -1;
    CHECK(caluna_engine_create(&o, &none) == CALUNA_ERR_INVALID_ARGUMENT && none == nullptr,
          std::string("negative width is refused: ") + caluna_last_error(nullptr));
}

}  // namespace

int main() {
    std::printf("caluna %s, ABI %d (header %d)\n", caluna_version(), caluna_abi_version(), CALUNA_ABI_VERSION);
    CHECK(caluna_abi_version() == CALUNA_ABI_VERSION, "ABI version matches the header");
    try {
        scene_test();
        ownership_test();
    } catch (const std::exception &ex) {
        check(false, __LINE__, std::string("unexpected failure: ") + ex.what());
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
