/* fixed_rate.c in C++17, through the RAII wrappers of caluna.hpp: the same options, the
 * same log and the same bytes (host-tests compares them). See fixed_rate.c for the ffmpeg
 * pipeline and the frame timing.
 *
 *   c++ -std=c++17 -Wall -Wextra -Wold-style-cast fixed_rate.cpp \
 *       $(pkg-config --cflags --libs caluna) -o fixed_rate_cpp
 *   ./fixed_rate_cpp SCENE.lua [--size WxH] [--scale S] [--fps F] [--frames N]
 *                    [--events FILE.jsonl] [--tap X,Y@T]... [--out DIR | --raw]
 *
 * Errors surface as caluna::Error (the call, the status name and caluna_last_error).
 */
#include "caluna.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Tap {
    double x, y, time;
};

struct Options {
    std::string scene, events, out_dir;
    double width = 320, height = 480, scale = 1, fps = 60;
    long frames = 60;
    bool raw = false;
    std::vector<Tap> taps;
};

int usage(const char *argv0) {
    std::fprintf(stderr,
                 "usage: %s SCENE.lua [--size WxH] [--scale S] [--fps F] [--frames N]\n"
                 "       [--events FILE.jsonl] [--tap X,Y@T]... [--out DIR | --raw]\n"
                 "  (the options of fixed_rate.c)\n",
                 argv0);
    return 2;
}

bool parse_number(const char *s, double &out) {
    char *end = nullptr;
    out = std::strtod(s, &end);
    return end != s && *end == '\0';
}

bool parse_args(int argc, char **argv, Options &o) {
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        double n = 0;
        char extra = 0;
        if (a == "--raw") { o.raw = true; continue; }
        if (a[0] != '-') {
            if (!o.scene.empty()) return false;
            o.scene = a;
            continue;
        }
        if (v == nullptr) return false;
        i++;
        if (a == "--size") {
            if (std::sscanf(v, "%lfx%lf%c", &o.width, &o.height, &extra) != 2) return false;
        } else if (a == "--scale") {
            if (!parse_number(v, o.scale)) return false;
        } else if (a == "--fps") {
            if (!parse_number(v, o.fps) || !(o.fps > 0 && o.fps <= 1000)) return false;
        } else if (a == "--frames") {
            if (!parse_number(v, n) || !(n >= 1 && n <= 1000000) || n != static_cast<double>(static_cast<long>(n)))
                return false;
            o.frames = static_cast<long>(n);
        } else if (a == "--events") {
            o.events = v;
        } else if (a == "--out") {
            o.out_dir = v;
        } else if (a == "--tap") {
            Tap t{};
            if (o.taps.size() == 32 || std::sscanf(v, "%lf,%lf@%lf%c", &t.x, &t.y, &t.time, &extra) != 3 || !(t.time >= 0))
                return false;
            o.taps.push_back(t);
        } else {
            return false;
        }
    }
    return !o.scene.empty() && !(o.raw && !o.out_dir.empty());
}

std::uint64_t fnv1a(const std::vector<unsigned char> &bytes) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
    return h;
}

int run(const Options &o) {
    std::FILE *log = o.raw ? stderr : stdout;
    caluna_engine_options options = caluna_engine_options_default();
    options.width = o.width;
    options.height = o.height;
    options.scale = o.scale;
    caluna::Engine engine(options);

    engine.load_file(o.scene);
    const int32_t count = o.events.empty() ? 0 : engine.load_events(o.events);
    for (const Tap &t : o.taps) {
        engine.send_pointer(CALUNA_EVENT_POINTER_DOWN, 1, t.x, t.y, CALUNA_BUTTON_PRIMARY, 0, t.time);
        engine.send_pointer(CALUNA_EVENT_POINTER_UP, 1, t.x, t.y, 0, 0, t.time + 0.05);
    }
    // The handler is a lambda; the Engine keeps it and calls it through a trampoline.
    // It may throw (a caluna::Error from name()): step() rethrows it after the frame.
    const caluna_handler tap_handler = engine.on("tap", [&](const caluna_event &ev) {
        std::string where = ev.target != 0 ? "(unnamed layer)" : "(no layer)";
        if (caluna::Layer hit = engine.retained(ev.target)) {
            if (std::optional<std::string> name = hit.name()) where = "\"" + *name + "\"";
        }
        std::fprintf(log, "tap t=%.4f at (%.1f, %.1f) on %s\n", ev.time, ev.x, ev.y, where.c_str());
        return false; // not consumed
    });

    auto [w, h] = engine.pixel_size();
    std::fprintf(log, "%s: %dx%d pixels, %ld frames at %g fps, %d scripted events, %d taps\n", o.scene.c_str(),
                 static_cast<int>(w), static_cast<int>(h), o.frames, o.fps, static_cast<int>(count),
                 static_cast<int>(o.taps.size()));

    std::vector<unsigned char> pixels;
    for (long frame = 0; frame < o.frames; frame++) {
        engine.step(frame == 0 ? 0.0 : 1.0 / o.fps);
        const double now = engine.media_time();
        const auto [fw, fh] = engine.pixel_size();
        if (fw != w || fh != h || pixels.empty()) {
            if (o.raw && !pixels.empty())
                throw std::runtime_error("the output was resized: --raw video needs one size");
            w = fw;
            h = fh;
            pixels.assign(static_cast<size_t>(w) * static_cast<size_t>(h) * 4, 0);
        }
        engine.render(pixels.data(), pixels.size(), w, h, w * 4, CALUNA_RGBA8_PREMULTIPLIED);
        std::fprintf(log, "frame %04ld t=%.4f %dx%d fnv1a=%016" PRIx64 "\n", frame, now, static_cast<int>(w),
                     static_cast<int>(h), fnv1a(pixels));
        if (o.raw && std::fwrite(pixels.data(), 1, pixels.size(), stdout) != pixels.size())
            throw std::runtime_error("writing a frame to stdout failed");
        if (!o.out_dir.empty()) {
            char name[32];
            std::snprintf(name, sizeof name, "/frame_%04ld.png", frame);
            engine.render_png(o.out_dir + name);
        }
    }
    if (o.raw && std::fflush(stdout) != 0) throw std::runtime_error("writing to stdout failed");
    engine.off(tap_handler);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    Options o;
    if (!parse_args(argc, argv, o)) return usage(argv[0]);
    if (caluna_abi_version() != CALUNA_ABI_VERSION || caluna_abi_minor_version() < CALUNA_ABI_MINOR_VERSION) {
        std::fprintf(stderr, "fixed_rate_cpp: built for caluna ABI %d.%d, the library is %d.%d\n", CALUNA_ABI_VERSION,
                     CALUNA_ABI_MINOR_VERSION, caluna_abi_version(), caluna_abi_minor_version());
        return 1;
    }
    try {
        return run(o);
    } catch (const std::exception &e) { // caluna::Error: "call: CALUNA_ERR_…: message"
        std::fprintf(stderr, "fixed_rate_cpp: %s\n", e.what());
    }
    return 1;
}
