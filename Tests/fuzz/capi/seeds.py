#!/usr/bin/env python3
"""Hand-made seeds for the C ABI target: call sequences the fuzzer did not find by itself.

In 3 million executions of coverage-guided fuzzing, 22 of the 323 functions never returned OK:
each needs a chain of earlier calls (two bodies in a world before a constraint, a collision
handler and a step before an arbiter exists, a group with animations before
caluna_group_animation_at). These seeds spell out such chains in the target's input format
(capi_main.c: a configuration byte, then per op a little-endian u16 that picks the op and the
bytes its arguments read: capi_args.c, ops_*.c); the fuzzer mutates from there.

    Tests/fuzz/capi/seeds.py BINARY DIR   # writes DIR/seed-NAME for each seed

BINARY (a built capi_fuzz) lists the ops in table order (CALUNA_FUZZ_LIST_OPS=1), so the op
numbers follow the tables. `scripts/fuzz seeds` runs it into Tests/fuzz/capi/corpus.
"""
import os
import subprocess
import sys

binary, out_dir = sys.argv[1], sys.argv[2]
listing = subprocess.run([binary, "-runs=0"], env=dict(os.environ, CALUNA_FUZZ_LIST_OPS="1"),
                         capture_output=True, text=True).stdout
ops = [line for line in listing.splitlines() if line.startswith("caluna_")]
if len(ops) < 300:
    sys.exit(f"seeds.py: {binary} listed {len(ops)} ops")

# Argument bytes, named after the readers in capi_args.c / capi_main.c.
E = [0]                      # E(): the main engine
def ID(i): return [i]        # ID(kind): the i-th id made of that kind
def SLOT(i): return [i]      # SLOT(kind): pool slot i
OUT = [0x80]                 # OUT(p) / OUTV(p) / IN(p): not NULL
def NAME(i): return [i]      # NAME(list, n): list[i]
def COUNT(n): return [12, n] # COUNT(cap): n items, an array given
def NUM(n): return [0, n & 0xFF]          # NUM(): the integer n (−128…127)
def SMALL(n): return [n]     # SMALL(): n (0…64)
NUMBER_VALUE = 1             # VALUE(): its type byte (CALUNA_TYPE_NUMBER), then a NUM()

def op(name, *args):
    i = ops.index(name)
    out = [i & 0xFF, i >> 8]
    for a in args:
        out += a
    return out

def body(slot):  # a dynamic body of mass 1 and moment 1 in body slot `slot`
    return op("caluna_body_create", E, [1], [0], [0], SLOT(slot), OUT)

def world(sleeps=False):  # world options: sizeof, no gravity change …, optionally sleeping after 1 s
    options = [0x80, 0, 200, 200, 200] + ([0] + NUM(1) if sleeps else [200]) + [200, 200, 200, 1]
    return op("caluna_world_create", E, options, SLOT(0), OUT)

def circle(body_index, radius=10):
    return op("caluna_body_add_circle", E, ID(body_index), SMALL(radius), NUM(0), NUM(0), SLOT(body_index), OUT)

seeds = {}

# Two bodies in a world, a pivot between them, and its life: get, set, bodies, retain,
# release, added to and removed from the world; a body removed; a body put to sleep.
constraint_keys_max_force = 17
seeds["constraints"] = [0] + body(0) + body(1) + world(sleeps=True) \
    + op("caluna_world_add_body", E, ID(0), ID(0)) + op("caluna_world_add_body", E, ID(0), ID(1)) \
    + op("caluna_body_sleep", E, ID(0)) \
    + op("caluna_constraint_create", E, NAME(2), ID(0), ID(1), COUNT(0), SLOT(0), OUT) \
    + op("caluna_constraint_get", E, ID(0), NAME(constraint_keys_max_force), OUT) \
    + op("caluna_constraint_set", E, ID(0), NAME(constraint_keys_max_force), [NUMBER_VALUE], NUM(5), OUT) \
    + op("caluna_constraint_bodies", E, ID(0), SLOT(2), OUT, SLOT(3), OUT) \
    + op("caluna_constraint_retain", E, ID(0)) + op("caluna_constraint_release", E, ID(0)) \
    + op("caluna_world_add_constraint", E, ID(0), ID(0)) \
    + op("caluna_world_remove_constraint", E, ID(0), ID(0)) \
    + op("caluna_world_remove_body", E, ID(0), ID(1))

# Two overlapping circles and a default handler with all four callbacks, then a step: each
# callback runs three arbiter ops on the arbiter it was given (begin: shapes, bodies, get;
# preSolve: set friction, contact points, get; postSolve as begin).
def arbiter_ops(first):
    arbiter = [n for n in ops if n.startswith("caluna_arbiter_")]
    def pick(name, *args):  # fz_run_one_prefixed: "mostly the prefix", then which one
        return [0xFF, arbiter.index(name)] + [b for a in args for b in a]
    if first:
        return [3] + pick("caluna_arbiter_shapes", E, ID(0), SLOT(4), OUT, SLOT(5), OUT) \
            + pick("caluna_arbiter_bodies", E, ID(0), SLOT(4), OUT, SLOT(5), OUT) \
            + pick("caluna_arbiter_get", E, ID(0), NAME(1), OUT)
    return [3] + pick("caluna_arbiter_set", E, ID(0), NAME(7), [NUMBER_VALUE], NUM(1), OUT) \
        + pick("caluna_arbiter_contact_points", E, ID(0), COUNT(8), OUT) \
        + pick("caluna_arbiter_get", E, ID(0), NAME(4), OUT)
seeds["arbiters"] = [0] + body(0) + body(1) + world() + circle(0) + circle(1) \
    + op("caluna_world_add_body", E, ID(0), ID(0)) + op("caluna_world_add_body", E, ID(0), ID(1)) \
    + op("caluna_world_set_default_handler", E, ID(0), [0x1F], [0]) \
    + op("caluna_world_step", E, ID(0), [0]) + arbiter_ops(True) + [1] + arbiter_ops(False) + [1] + arbiter_ops(True)

# A borrowed shape retained, then released; an image made from pixels, then measured.
seeds["shape-image"] = [0] + body(0) + circle(0) \
    + op("caluna_shape_retain", E, ID(0)) + op("caluna_shape_release", E, ID(0)) \
    + op("caluna_image_from_pixels", E, [0, 4], [0, 4], [0, 0], [0], [0x80, 100], SLOT(0), OUT) \
    + op("caluna_image_size", E, ID(0), OUT, OUT) \
    + op("caluna_image_read_pixels", E, ID(0), [0], [0], [0], [0x80]) \
    + op("caluna_image_write_png", E, ID(0), [0])

# A draw callback on the root that saves, fills and restores its context (run by a display).
def context_ops():
    context = [n for n in ops if n.startswith("caluna_context_")]
    def pick(name, *args):
        return [0xFF, context.index(name)] + [b for a in args for b in a]
    return [3] + pick("caluna_context_save_gstate", E, ID(0)) \
        + pick("caluna_context_fill_rect", E, ID(0), NUM(0), NUM(0), SMALL(4), SMALL(4)) \
        + pick("caluna_context_restore_gstate", E, ID(0)) + [0]
seeds["drawing"] = [0] + op("caluna_layer_set_draw_callback", E, ID(0), [0], [200], [0]) \
    + op("caluna_layer_display", E, ID(0)) + context_ops()

# Paths in draw callbacks: two displays, each building a path and closing or drawing it
# (each callback runs up to 3 ops, then answers 0).
def path_ops():
    context = [n for n in ops if n.startswith("caluna_context_")]
    def pick(name, *args):
        return [0xFF, context.index(name)] + [b for a in args for b in a]
    first = [3] + pick("caluna_context_move_to", E, ID(0), NUM(1), NUM(1)) \
        + pick("caluna_context_add_line_to", E, ID(0), NUM(5), NUM(1)) \
        + pick("caluna_context_close_path", E, ID(0)) + [0]
    second = [3] + pick("caluna_context_move_to", E, ID(0), NUM(1), NUM(1)) \
        + pick("caluna_context_add_curve_to", E, ID(0), NUM(2), NUM(5), NUM(4), NUM(5), NUM(6), NUM(1)) \
        + pick("caluna_context_draw_path", E, ID(0), NAME(5)) + [0]
    return first, second
first_path, second_path = path_ops()
seeds["drawing-paths"] = [0] + op("caluna_layer_set_draw_callback", E, ID(0), [0], [200], [0]) \
    + op("caluna_layer_display", E, ID(0)) + first_path + op("caluna_layer_display", E, ID(0)) + second_path

# The tree and layer kinds: a sublayer replaced; an emitter's particle count; a pixel buffer
# layer's frame count; a world's iterations set.
seeds["tree-kinds-world"] = [0] \
    + op("caluna_layer_create", E, SLOT(1), OUT) + op("caluna_layer_add_sublayer", E, ID(0), ID(1)) \
    + op("caluna_layer_create", E, SLOT(2), OUT) \
    + op("caluna_layer_replace_sublayer", E, ID(0), ID(1), ID(2)) \
    + op("caluna_layer_create_class", E, NAME(8), SLOT(3), OUT) \
    + op("caluna_emitter_layer_particle_count", E, ID(3), OUT) \
    + op("caluna_layer_create_class", E, NAME(9), SLOT(4), OUT) \
    + op("caluna_pixel_buffer_layer_frames_drawn", E, ID(4), OUT) \
    + world() + op("caluna_world_set", E, ID(0), NAME(1), [4], OUT)

# A pointer down on the root (delivered by a step), captured, moved 35 points (a pan), its
# pan translation set.
def pointer(kind, x, y):
    return op("caluna_send_pointer", E, [0, kind], [0, 0], [0, x], [0, y], [0, 1], [0, 0], [0])
seeds["pointer-pan"] = [0] + pointer(1, 5, 5) + op("caluna_engine_step", E, [0]) \
    + op("caluna_pointer_capture", E, [0, 0], ID(0)) + pointer(2, 40, 40) + op("caluna_engine_step", E, [0]) \
    + op("caluna_pan_set_translation", E, [0, 0], NUM(0), NUM(0))

# A text layer with one run, read back; a group of one animation, read back; an emitter
# layer given a cell, whose birth rate is set.
run = [0] + [0] + [0, 12] + [0, 0] * 4 + [0, 0, 0] + [0] + [0, 0]
seeds["text-group-emitter"] = [0] \
    + op("caluna_layer_create_class", E, NAME(3), SLOT(1), OUT) \
    + op("caluna_text_layer_set_attributed_string", E, ID(1), COUNT(1), run) \
    + op("caluna_text_layer_get_run", E, ID(1), [0, 0], OUT) \
    + op("caluna_animation_create", E, NAME(3), SLOT(0), OUT) \
    + op("caluna_animation_create", E, NAME(0), SLOT(1), OUT) \
    + op("caluna_group_add_animation", E, ID(0), ID(1)) \
    + op("caluna_group_animation_at", E, ID(0), [0, 0], SLOT(2), OUT) \
    + op("caluna_layer_create_class", E, NAME(8), SLOT(2), OUT) \
    + op("caluna_emitter_cell_create", E, SLOT(0), OUT) \
    + op("caluna_emitter_layer_set_cells", E, ID(2), COUNT(1), ID(0)) \
    + op("caluna_emitter_cell_set", E, ID(0), [0, 0], [NUMBER_VALUE], NUM(5), OUT)

# The root's opacity set, read, committed and read from the presentation (LAYER_KEY: the
# fixed list).
layer_key_opacity = [0, 5]
seeds["layer-keys"] = [0] \
    + op("caluna_layer_set", E, ID(0), layer_key_opacity, [NUMBER_VALUE], [0x80, 0], OUT) \
    + op("caluna_layer_get", E, ID(0), layer_key_opacity, OUT) + op("caluna_engine_flush", E) \
    + op("caluna_layer_get_presentation", E, ID(0), layer_key_opacity, OUT)

# A render target of the engine's size in the engine's own buffer: drawn whole, the root's
# opacity changed, drawn again (the damage), its pixels read, destroyed, drawn when stale.
target_create = op("caluna_render_target_create", E, [0], [0], [0], SLOT(0), [200], [0], [0, 0], [0], OUT)
target_draw = op("caluna_render_target_draw", E, ID(0), [200], [100, 4], [200], OUT)
seeds["render-target"] = [0] + target_create + target_draw \
    + op("caluna_layer_set", E, ID(0), layer_key_opacity, [NUMBER_VALUE], [0x80, 0], OUT) + target_draw \
    + op("caluna_render_target_pixels", E, ID(0), OUT, OUT) \
    + op("caluna_render_target_destroy", E, ID(0)) + target_draw

os.makedirs(out_dir, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out_dir, f"seed-{name}"), "wb") as f:
        f.write(bytes(data))
print(f"seeds.py: {len(seeds)} seeds in {out_dir}")
