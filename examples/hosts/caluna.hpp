// caluna.hpp — small C++17 RAII wrappers over caluna.h, for the example hosts.
//
// Not a complete binding: the engine's lifetime, layer references, input and event
// handlers, with every failing status turned into a caluna::Error exception. The C
// calls stay available through Engine::get() for everything else.
//
//   caluna::Engine   owns a caluna_engine (move-only); destroys it in its destructor.
//                    It also owns the std::functions of the handlers registered through
//                    it, so a handler can never outlive the engine that calls it.
//   caluna::Layer    an owned reference to a layer (caluna_layer_retain / _release):
//                    copying retains, destroying releases, moving transfers. A Layer
//                    that outlives its Engine becomes empty instead of touching a
//                    destroyed engine.
//   caluna::Error    a std::runtime_error with the status and caluna_last_error's text.
//
// Compiles cleanly with -std=c++17 -Wall -Wextra -Werror -Wold-style-cast.
#ifndef CALUNA_HPP
#define CALUNA_HPP

#include <caluna.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace caluna {

class Error : public std::runtime_error {
public:
    Error(caluna_status status, const std::string &message) : std::runtime_error(message), status_(status) {}
    caluna_status status() const noexcept { return status_; }

private:
    caluna_status status_;
};

// Throws Error("call: CALUNA_ERR_…: <caluna_last_error>") unless s is CALUNA_OK.
inline void check(const caluna_engine *e, caluna_status s, const char *call) {
    if (s != CALUNA_OK) throw Error(s, std::string(call) + ": " + caluna_status_name(s) + ": " + caluna_last_error(e));
}

class Engine;

// An owned reference to a layer.
class Layer {
public:
    Layer() = default;
    Layer(const Layer &other) : engine_(other.engine_) {
        std::shared_ptr<caluna_engine> e = engine_.lock();
        if (e && other.id_ != 0) {
            check(e.get(), caluna_layer_retain(e.get(), other.id_), "caluna_layer_retain");
            id_ = other.id_;
        }
    }
    Layer(Layer &&other) noexcept : engine_(std::move(other.engine_)), id_(std::exchange(other.id_, 0)) {}
    // Copy-and-swap: copy assignment retains the new layer before the old one is released.
    Layer &operator=(Layer other) noexcept {
        swap(other);
        return *this;
    }
    ~Layer() { reset(); }

    void swap(Layer &other) noexcept {
        engine_.swap(other.engine_);
        std::swap(id_, other.id_);
    }
    // Drops the reference (the layer dies if nothing else holds it).
    void reset() noexcept {
        if (id_ != 0) {
            if (std::shared_ptr<caluna_engine> e = engine_.lock()) caluna_layer_release(e.get(), id_);
        }
        id_ = 0;
        engine_.reset();
    }

    caluna_layer id() const noexcept { return id_; }
    explicit operator bool() const noexcept { return id_ != 0; }

    void set(const char *key_path, const caluna_value &value) const {
        check(engine(), caluna_layer_set(engine(), id_, key_path, &value), "caluna_layer_set");
    }
    // The value; a STRING or PATH in it belongs to the engine until its next call.
    caluna_value get(const char *key_path) const {
        caluna_value v = caluna_nil();
        check(engine(), caluna_layer_get(engine(), id_, key_path, &v), "caluna_layer_get");
        return v;
    }
    // The "name" property, or nothing when it is unset.
    std::optional<std::string> name() const {
        caluna_value v = get("name");
        if (v.type != CALUNA_TYPE_STRING) return std::nullopt;
        return std::string(v.u.string);
    }
    void add_sublayer(const Layer &child) const {
        check(engine(), caluna_layer_add_sublayer(engine(), id_, child.id_), "caluna_layer_add_sublayer");
    }

private:
    friend class Engine;
    // `owned` must be an owned reference: the Layer takes it over.
    Layer(std::weak_ptr<caluna_engine> engine, caluna_layer owned) : engine_(std::move(engine)), id_(owned) {}

    caluna_engine *engine() const {
        std::shared_ptr<caluna_engine> e = engine_.lock();
        if (!e) throw Error(CALUNA_ERR_STALE_HANDLE, "caluna::Layer: empty, or its Engine was destroyed");
        return e.get();
    }

    std::weak_ptr<caluna_engine> engine_;
    caluna_layer id_ = 0;
};

// An engine, and the handlers registered through it.
class Engine {
public:
    // The handler's return value: true consumes the event. The event is valid only
    // during the call. A handler runs inside step()/advance() and may call the engine,
    // except to step, advance, render, load scripts or destroy it (see caluna.h).
    using Handler = std::function<bool(const caluna_event &)>;

    explicit Engine(const caluna_engine_options &options = caluna_engine_options_default())
        : handlers_(std::make_unique<Handlers>()) {
        caluna_engine *e = nullptr;
        check(nullptr, caluna_engine_create(&options, &e), "caluna_engine_create");
        engine_.reset(e, [](caluna_engine *p) { caluna_engine_destroy(p); });
    }
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;
    Engine(Engine &&) noexcept = default;
    // The engine (which may still hold handlers) always goes before the functions its
    // handlers call: here explicitly, in the destructor because engine_ is declared last.
    Engine &operator=(Engine &&other) noexcept {
        engine_ = std::move(other.engine_);
        handlers_ = std::move(other.handlers_);
        return *this;
    }
    ~Engine() = default;

    // The C engine, for the calls this wrapper does not cover.
    caluna_engine *get() const {
        if (!engine_) throw Error(CALUNA_ERR_INVALID_ARGUMENT, "caluna::Engine: moved from");
        return engine_.get();
    }

    void load_file(const std::string &path) {
        check(get(), caluna_engine_load_file(get(), path.c_str()), "caluna_engine_load_file");
    }
    void step(double dt) { frame(caluna_engine_step(get(), dt), "caluna_engine_step"); }
    void advance(double t) { frame(caluna_engine_advance(get(), t), "caluna_engine_advance"); }
    double media_time() const {
        double t = 0;
        check(get(), caluna_engine_media_time(get(), &t), "caluna_engine_media_time");
        return t;
    }
    std::pair<int32_t, int32_t> pixel_size() const {
        int32_t w = 0, h = 0;
        check(get(), caluna_engine_pixel_size(get(), &w, &h), "caluna_engine_pixel_size");
        return {w, h};
    }
    void render(void *buffer, size_t size, int32_t width, int32_t height, int32_t stride,
                caluna_pixel_format format) const {
        check(get(), caluna_render(get(), buffer, size, width, height, stride, format), "caluna_render");
    }
    void render_png(const std::string &path) const {
        check(get(), caluna_render_png(get(), path.c_str()), "caluna_render_png");
    }

    Layer root() const {
        caluna_layer id = 0;
        check(get(), caluna_root_layer(get(), &id), "caluna_root_layer");
        return retained(id);
    }
    Layer create_layer() const {
        caluna_layer id = 0;
        check(get(), caluna_layer_create(get(), &id), "caluna_layer_create");
        return Layer(engine_, id);
    }
    // The first layer named `name` (throws UNKNOWN_KEY when there is none).
    Layer find(const std::string &name) const {
        caluna_layer id = 0;
        check(get(), caluna_layer_find(get(), name.c_str(), &id), "caluna_layer_find");
        return retained(id);
    }
    // A reference to a layer known by a borrowed id (an event's target, a query's result);
    // an empty Layer for 0.
    Layer retained(caluna_layer borrowed) const {
        if (borrowed == 0) return Layer();
        check(get(), caluna_layer_retain(get(), borrowed), "caluna_layer_retain");
        return Layer(engine_, borrowed);
    }
    Layer hit_layer(double x, double y) const {
        caluna_layer id = 0;
        check(get(), caluna_hit_layer(get(), x, y, &id), "caluna_hit_layer");
        return retained(id);
    }

    void send_pointer(caluna_event_type type, int64_t pointer, double x, double y, int32_t buttons,
                      uint32_t modifiers = 0, double time = CALUNA_NOW) {
        check(get(), caluna_send_pointer(get(), type, pointer, x, y, buttons, modifiers, time), "caluna_send_pointer");
    }
    void send_key(caluna_event_type type, const std::string &key, const std::string &text = "",
                  uint32_t modifiers = 0, double time = CALUNA_NOW) {
        check(get(), caluna_send_key(get(), type, key.c_str(), text.c_str(), modifiers, time), "caluna_send_key");
    }
    void send_resize(double width, double height, double scale = 0, double time = CALUNA_NOW) {
        check(get(), caluna_send_resize(get(), width, height, scale, time), "caluna_send_resize");
    }
    void send_json(const std::string &json) { check(get(), caluna_send_json(get(), json.c_str()), "caluna_send_json"); }
    // Queues a JSON Lines file of events; returns how many.
    int32_t load_events(const std::string &path) {
        int32_t n = 0;
        check(get(), caluna_load_events(get(), path.c_str(), &n), "caluna_load_events");
        return n;
    }

    // A handler on the engine for events named `name`. The Engine keeps the function
    // until off(id) or its own destruction.
    caluna_handler on(const std::string &name, Handler handler) {
        return add(std::move(handler), [&](void *user, caluna_handler *id) {
            return caluna_on(get(), name.c_str(), &Engine::trampoline, user, id);
        }, "caluna_on");
    }
    // A handler on a layer. It stops when the layer dies; its function is kept until
    // off(id) or the Engine's destruction.
    caluna_handler on(const Layer &layer, const std::string &name, Handler handler) {
        return add(std::move(handler), [&](void *user, caluna_handler *id) {
            return caluna_layer_on(get(), layer.id(), name.c_str(), &Engine::trampoline, user, id);
        }, "caluna_layer_on");
    }
    // Removes a handler and frees its function (throws STALE_HANDLE, after freeing it,
    // when the engine had already dropped it with its layer).
    void off(caluna_handler id) {
        caluna_status s = caluna_off(get(), id);
        handlers_->slots.erase(id);
        check(get(), s, "caluna_off");
    }

private:
    struct Slot {
        Handler handler;
        std::exception_ptr *error;
    };
    // On the heap, so that the Slots' `error` pointers survive moving the Engine.
    struct Handlers {
        std::map<caluna_handler, std::unique_ptr<Slot>> slots;
        std::exception_ptr error; // the first exception a handler threw in this step
    };

    // C calls the handlers through this. Exceptions must not cross the C library: the
    // first one is kept and rethrown by step()/advance() once the frame is complete;
    // until then the other C++ handlers are skipped (they report the event consumed).
    static int32_t trampoline(caluna_engine *, const caluna_event *event, void *user) noexcept {
        Slot *slot = static_cast<Slot *>(user);
        if (*slot->error) return 1;
        try {
            return slot->handler(*event) ? 1 : 0;
        } catch (...) {
            *slot->error = std::current_exception();
            return 1;
        }
    }

    template <typename Register>
    caluna_handler add(Handler handler, Register register_it, const char *call) {
        auto slot = std::make_unique<Slot>(Slot{std::move(handler), &handlers_->error});
        caluna_handler id = 0;
        check(get(), register_it(slot.get(), &id), call);
        try {
            handlers_->slots.emplace(id, std::move(slot));
        } catch (...) {
            caluna_off(get(), id); // never leave the engine holding a freed function
            throw;
        }
        return id;
    }

    void frame(caluna_status s, const char *call) {
        if (handlers_->error) std::rethrow_exception(std::exchange(handlers_->error, nullptr));
        check(get(), s, call);
    }

    std::unique_ptr<Handlers> handlers_;
    std::shared_ptr<caluna_engine> engine_; // the only strong reference; Layers hold weak ones
};

} // namespace caluna

#endif
