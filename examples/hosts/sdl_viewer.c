/* A live viewer for Lua scenes with SDL2: a window of the scene's pixel size, the engine
 * stepped by the measured frame time, mouse, keys and window resizes forwarded as caluna
 * input events.
 *
 *   cc -std=c99 sdl_viewer.c $(pkg-config --cflags --libs caluna sdl2) -o sdl_viewer
 *   ./sdl_viewer SCENE.lua [--size WxH] [--scale S] [--events FILE.jsonl]
 *                [--frames N] [--screenshot OUT.png] [--check-window]
 *
 *   --size WxH        the output in points (default 320x480; a scene may resize it)
 *   --scale S         pixels per point (default 1): the window is points × S pixels
 *   --events FILE     also queue the input events of a JSON Lines file
 *   --frames N        quit after N frames (for tests; default: run until closed)
 *   --screenshot OUT  before quitting, render the last frame to OUT.png
 *   --check-window    on the last frame (with --frames), read the window back and count
 *                     the pixels whose colour differs from caluna_render's (for tests: it
 *                     proves the texture format and the copy to the window)
 *
 * Escape or closing the window quits. (libsdl2-dev: scripts/setup --viewer installs it.)
 *
 * Each frame: the SDL events are forwarded as caluna events stamped CALUNA_NOW (they are
 * delivered at the start of the next step), the engine steps by the wall-clock time since
 * the previous frame — capped at 1/15 s, so a stall (a dragged window, a debugger) does not
 * jump the scene ahead — and the frame is drawn into a render target, which redraws only
 * what changed and reports those rectangles: only they are uploaded to the texture.
 * SDL_PIXELFORMAT_BGRA32 is B, G, R, A in memory on any machine (it is ARGB8888 on
 * little-endian ones): CALUNA_BGRA8_PREMULTIPLIED, so transparent areas look black.
 * Mouse positions are window pixels: divided by the scale they are the points caluna wants.
 */
#include <SDL.h>
#include <caluna.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct viewer {
    caluna_engine *e;
    double scale;
    int32_t buttons;     /* CALUNA_BUTTON_* bits held */
    int key_pending;     /* a keydown waiting for the text SDL sends after it */
    char key_name[65];
    uint32_t key_mods;
} viewer;

static int check(caluna_engine *e, caluna_status s, const char *what) {
    if (s == CALUNA_OK) return 0;
    fprintf(stderr, "sdl_viewer: %s: %s: %s\n", what, caluna_status_name(s), caluna_last_error(e));
    return 1;
}

static int sdl_failed(const char *what) {
    fprintf(stderr, "sdl_viewer: %s: %s\n", what, SDL_GetError());
    return 1;
}

static uint32_t modifiers(SDL_Keymod m) {
    uint32_t out = 0;
    if (m & KMOD_SHIFT) out |= CALUNA_MOD_SHIFT;
    if (m & KMOD_CTRL) out |= CALUNA_MOD_CONTROL;
    if (m & KMOD_ALT) out |= CALUNA_MOD_ALT;
    if (m & KMOD_GUI) out |= CALUNA_MOD_META;
    return out;
}

static int32_t button_bit(Uint8 button) {
    switch (button) {
    case SDL_BUTTON_LEFT: return CALUNA_BUTTON_PRIMARY;
    case SDL_BUTTON_RIGHT: return CALUNA_BUTTON_SECONDARY;
    case SDL_BUTTON_MIDDLE: return CALUNA_BUTTON_MIDDLE;
    default: return 0;
    }
}

/* SDL names letter keys "A"; caluna's key names are "a", "Left", "Return" …: a single
 * letter is lowercased, other names are kept. */
static void key_name(SDL_Keycode sym, char out[65]) {
    const char *name = SDL_GetKeyName(sym);
    snprintf(out, 65, "%s", name);
    if (out[0] != '\0' && out[1] == '\0') out[0] = (char)tolower((unsigned char)out[0]);
}

/* Sends the waiting keydown, with the text SDL_TEXTINPUT gave it (or none). */
static int flush_key(viewer *v, const char *text) {
    if (!v->key_pending) return 0;
    v->key_pending = 0;
    return check(v->e, caluna_send_key(v->e, CALUNA_EVENT_KEY_DOWN, v->key_name, text, v->key_mods, CALUNA_NOW),
                 "caluna_send_key(DOWN)");
}

static int send_pointer(viewer *v, int32_t type, int x, int y) {
    return check(v->e, caluna_send_pointer(v->e, type, 1, x / v->scale, y / v->scale, v->buttons,
                                           modifiers(SDL_GetModState()), CALUNA_NOW),
                 "caluna_send_pointer");
}

/* Forwards one SDL event. *quit is set on Escape or a close. Returns nonzero on failure. */
static int forward(viewer *v, const SDL_Event *ev, int *quit) {
    switch (ev->type) {
    case SDL_QUIT:
        *quit = 1;
        return 0;
    case SDL_KEYDOWN:
        if (ev->key.keysym.sym == SDLK_ESCAPE) {
            *quit = 1;
            return 0;
        }
        if (flush_key(v, "")) return 1;
        key_name(ev->key.keysym.sym, v->key_name);
        if (v->key_name[0] == '\0') return 0; /* a key SDL has no name for */
        v->key_mods = modifiers((SDL_Keymod)ev->key.keysym.mod);
        v->key_pending = 1;
        return 0;
    case SDL_TEXTINPUT:
        return flush_key(v, ev->text.text); /* text typed without a keydown (an IME) is dropped */
    case SDL_KEYUP: {
        char name[65];
        if (flush_key(v, "")) return 1;
        key_name(ev->key.keysym.sym, name);
        if (name[0] == '\0') return 0;
        return check(v->e, caluna_send_key(v->e, CALUNA_EVENT_KEY_UP, name, "", modifiers((SDL_Keymod)ev->key.keysym.mod),
                                           CALUNA_NOW),
                     "caluna_send_key(UP)");
    }
    case SDL_MOUSEBUTTONDOWN: {
        /* One pointer (id 1): down when the first button goes down, up when the last one is
         * released, a move with the new buttons in between (as pointer events do). */
        int32_t before = v->buttons;
        v->buttons |= button_bit(ev->button.button);
        if (v->buttons == before) return 0;
        return send_pointer(v, before == 0 ? CALUNA_EVENT_POINTER_DOWN : CALUNA_EVENT_POINTER_MOVE, ev->button.x,
                            ev->button.y);
    }
    case SDL_MOUSEBUTTONUP: {
        int32_t before = v->buttons;
        v->buttons &= ~button_bit(ev->button.button);
        if (v->buttons == before) return 0;
        return send_pointer(v, v->buttons == 0 ? CALUNA_EVENT_POINTER_UP : CALUNA_EVENT_POINTER_MOVE, ev->button.x,
                            ev->button.y);
    }
    case SDL_MOUSEMOTION:
        return send_pointer(v, CALUNA_EVENT_POINTER_MOVE, ev->motion.x, ev->motion.y);
    case SDL_WINDOWEVENT:
        if (ev->window.event == SDL_WINDOWEVENT_CLOSE) {
            *quit = 1;
        } else if (ev->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
            double w = 0, h = 0;
            double new_w = ev->window.data1 / v->scale, new_h = ev->window.data2 / v->scale;
            if (check(v->e, caluna_engine_size(v->e, &w, &h, NULL), "caluna_engine_size")) return 1;
            if (new_w > 0 && new_h > 0 && (new_w != w || new_h != h))
                return check(v->e, caluna_send_resize(v->e, new_w, new_h, 0, CALUNA_NOW), "caluna_send_resize");
        }
        return 0;
    default:
        return 0;
    }
}

/* Reads the window's back buffer (before it is presented) and compares its colour bytes
 * with a fresh caluna_render of the same frame. Prints and returns how many pixels differ
 * (-1 on failure). */
static long check_window(viewer *v, SDL_Renderer *renderer, int32_t w, int32_t h) {
    size_t size = (size_t)w * (size_t)h * 4;
    unsigned char *window = malloc(size), *rendered = malloc(size);
    long differ = -1;
    int ow = 0, oh = 0;
    if (window == NULL || rendered == NULL) {
        fprintf(stderr, "sdl_viewer: out of memory\n");
    } else if (SDL_GetRendererOutputSize(renderer, &ow, &oh) != 0) {
        sdl_failed("SDL_GetRendererOutputSize");
    } else if (ow != w || oh != h) {
        fprintf(stderr, "sdl_viewer: the window is %dx%d pixels, the frame %dx%d: no pixel check\n", ow, oh, (int)w, (int)h);
    } else if (SDL_RenderReadPixels(renderer, NULL, SDL_PIXELFORMAT_BGRA32, window, w * 4) != 0) {
        sdl_failed("SDL_RenderReadPixels");
    } else if (!check(v->e, caluna_render(v->e, rendered, size, w, h, w * 4, CALUNA_BGRA8_PREMULTIPLIED), "caluna_render")) {
        differ = 0;
        for (size_t i = 0; i < size; i += 4) /* B, G, R: a window has no alpha to compare */
            if (memcmp(window + i, rendered + i, 3) != 0) differ++;
        printf("sdl_viewer: window check: %ld of %ld pixels differ from caluna_render\n", differ, (long)w * h);
    }
    free(window);
    free(rendered);
    return differ;
}

static int usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s SCENE.lua [--size WxH] [--scale S] [--events FILE.jsonl] [--frames N]\n"
            "       [--screenshot OUT.png] [--check-window]\n",
            argv0);
    return 2;
}

int main(int argc, char **argv) {
    const char *scene = NULL, *events = NULL, *screenshot = NULL;
    long max_frames = -1;
    int check_pixels = 0;
    caluna_engine_options opts = caluna_engine_options_default();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        char extra;
        if (strcmp(a, "--check-window") == 0) {
            check_pixels = 1;
            continue;
        }
        if (a[0] != '-') {
            if (scene) return usage(argv[0]);
            scene = a;
            continue;
        }
        if (val == NULL) return usage(argv[0]);
        i++;
        if (strcmp(a, "--size") == 0) {
            if (sscanf(val, "%lfx%lf%c", &opts.width, &opts.height, &extra) != 2) return usage(argv[0]);
        } else if (strcmp(a, "--scale") == 0) {
            if (sscanf(val, "%lf%c", &opts.scale, &extra) != 1) return usage(argv[0]);
        } else if (strcmp(a, "--frames") == 0) {
            if (sscanf(val, "%ld%c", &max_frames, &extra) != 1 || max_frames < 1) return usage(argv[0]);
        } else if (strcmp(a, "--events") == 0) {
            events = val;
        } else if (strcmp(a, "--screenshot") == 0) {
            screenshot = val;
        } else {
            return usage(argv[0]);
        }
    }
    if (scene == NULL) return usage(argv[0]);
    if (caluna_abi_version() != CALUNA_ABI_VERSION || caluna_abi_minor_version() < CALUNA_ABI_MINOR_VERSION) {
        fprintf(stderr, "sdl_viewer: built for caluna ABI %d.%d, the library is %d.%d\n", CALUNA_ABI_VERSION,
                CALUNA_ABI_MINOR_VERSION, caluna_abi_version(), caluna_abi_minor_version());
        return 1;
    }

    viewer v;
    memset(&v, 0, sizeof v);
    if (check(NULL, caluna_engine_create(&opts, &v.e), "caluna_engine_create")) return 1;
    int32_t w = 0, h = 0, count = 0;
    int failed = check(v.e, caluna_engine_load_file(v.e, scene), "caluna_engine_load_file")
              || (events && check(v.e, caluna_load_events(v.e, events, &count), "caluna_load_events"))
              || check(v.e, caluna_engine_size(v.e, NULL, NULL, &v.scale), "caluna_engine_size")
              || check(v.e, caluna_engine_step(v.e, 0), "caluna_engine_step")  /* commit what the scene built */
              || check(v.e, caluna_engine_pixel_size(v.e, &w, &h), "caluna_engine_pixel_size");
    if (failed) {
        caluna_engine_destroy(v.e);
        return 1;
    }

    SDL_Window *window = NULL;
    SDL_Renderer *renderer = NULL;
    SDL_Texture *texture = NULL;
    char title[300];
    snprintf(title, sizeof title, "caluna: %s", scene);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        failed = sdl_failed("SDL_Init");
    } else if ((window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                                          SDL_WINDOW_RESIZABLE)) == NULL) {
        failed = sdl_failed("SDL_CreateWindow");
    } else if ((renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC)) == NULL) {
        failed = sdl_failed("SDL_CreateRenderer");
    }
    if (!failed) {
        printf("sdl_viewer: %s: %dx%d pixels at scale %g; %d scripted events\n", scene, (int)w, (int)h, v.scale,
               (int)count);
        SDL_StartTextInput();
    }

    int32_t tex_w = 0, tex_h = 0;
    caluna_render_target target = 0;
    long frames = 0;
    int quit = 0;
    const Uint64 ticks_per_second = SDL_GetPerformanceFrequency();
    Uint64 previous = SDL_GetPerformanceCounter();
    while (!failed && !quit) {
        SDL_Event ev;
        while (!failed && SDL_PollEvent(&ev)) failed = forward(&v, &ev, &quit);
        failed = failed || flush_key(&v, "");
        if (failed || quit) break;

        /* The measured frame time, capped (the first frame steps 0: the scene as built). */
        Uint64 now = SDL_GetPerformanceCounter();
        double dt = frames == 0 ? 0 : (double)(now - previous) / (double)ticks_per_second;
        previous = now;
        if (dt > 1.0 / 15) dt = 1.0 / 15;
        caluna_status s = caluna_engine_step(v.e, dt);
        if (s == CALUNA_ERR_SCRIPT) {
            check(v.e, s, "caluna_engine_step (a scene handler raised; the viewer goes on)");
        } else if (check(v.e, s, "caluna_engine_step")) {
            failed = 1;
            break;
        }

        /* A delivered resize event changed the pixel size: a new texture and render target. */
        if (check(v.e, caluna_engine_pixel_size(v.e, &w, &h), "caluna_engine_pixel_size")) {
            failed = 1;
            break;
        }
        if (texture == NULL || w != tex_w || h != tex_h) {
            if (texture) SDL_DestroyTexture(texture);
            if (target) caluna_render_target_destroy(v.e, target);
            target = 0;
            texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_BGRA32, SDL_TEXTUREACCESS_STREAMING, w, h);
            if (texture == NULL) {
                failed = sdl_failed("SDL_CreateTexture");
                break;
            }
            /* The engine keeps the frame; each draw redraws and reports only what changed. */
            if (check(v.e, caluna_render_target_create(v.e, NULL, 0, w, h, 0, CALUNA_BGRA8_PREMULTIPLIED, &target),
                      "caluna_render_target_create")) {
                failed = 1;
                break;
            }
            tex_w = w;
            tex_h = h;
        }
        caluna_pixel_rect damage[CALUNA_MAX_DAMAGE_RECTS];
        int32_t damaged = 0, stride = 0;
        void *frame = NULL;
        if (check(v.e, caluna_render_target_draw(v.e, target, 0, damage, CALUNA_MAX_DAMAGE_RECTS, &damaged),
                  "caluna_render_target_draw")
            || check(v.e, caluna_render_target_pixels(v.e, target, &frame, &stride), "caluna_render_target_pixels")) {
            failed = 1;
            break;
        }
        /* Upload only the damaged rectangles (none when nothing changed). */
        for (int32_t i = 0; i < damaged; i++) {
            SDL_Rect r = { damage[i].x, damage[i].y, damage[i].width, damage[i].height };
            const unsigned char *src = (const unsigned char *)frame + (size_t)r.y * (size_t)stride + (size_t)r.x * 4;
            if (SDL_UpdateTexture(texture, &r, src, stride) != 0) {
                failed = sdl_failed("SDL_UpdateTexture");
                break;
            }
        }
        if (failed) break;
        if (SDL_RenderClear(renderer) != 0 || SDL_RenderCopy(renderer, texture, NULL, NULL) != 0) {
            failed = sdl_failed("SDL_RenderCopy");
            break;
        }
        frames++;
        if (max_frames > 0 && frames >= max_frames) {
            quit = 1;
            if (check_pixels && check_window(&v, renderer, w, h) != 0) failed = 1;
        }
        SDL_RenderPresent(renderer);

        /* Without vsync (software renderers, Xvfb) do not spin faster than 60 frames a second. */
        double spent = (double)(SDL_GetPerformanceCounter() - now) / (double)ticks_per_second;
        if (spent < 1.0 / 60) SDL_Delay((Uint32)((1.0 / 60 - spent) * 1000));
    }

    if (!failed && screenshot) {
        double t = 0;
        failed = check(v.e, caluna_engine_media_time(v.e, &t), "caluna_engine_media_time")
              || check(v.e, caluna_render_png(v.e, screenshot), "caluna_render_png");
        if (!failed) printf("sdl_viewer: %ld frames; t = %.3f s; screenshot %s (%dx%d)\n", frames, t, screenshot, (int)w, (int)h);
    }
    if (texture) SDL_DestroyTexture(texture);
    if (renderer) SDL_DestroyRenderer(renderer);
    if (window) SDL_DestroyWindow(window);
    SDL_Quit();
    if (check(NULL, caluna_engine_destroy(v.e), "caluna_engine_destroy")) failed = 1;
    return failed ? 1 : 0;
}
