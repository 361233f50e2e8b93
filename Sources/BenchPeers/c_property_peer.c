/* The c-property row: caluna_layer_set of a number through the C ABI, beside
 * a plain call into the same library (caluna_abi_minor_version), each in a
 * C loop so both sides pay the same call overhead. */
#include "bench_peers.h"
#include "caluna.h"

static caluna_engine *engine;
static caluna_layer layer;

int bench_c_property_setup(void) {
    if (caluna_engine_create(NULL, &engine) != CALUNA_OK) return 0;
    return caluna_layer_create(engine, &layer) == CALUNA_OK;
}

int bench_c_property_set(int count) {
    caluna_value v = caluna_number(0);
    for (int i = 0; i < count; i++) {
        v.u.number = (double)(i & 1023) / 1024.0;
        if (caluna_layer_set(engine, layer, "opacity", &v) != CALUNA_OK) return 0;
    }
    return 1;
}

int bench_c_property_plain(int count) {
    int sum = 0;
    for (int i = 0; i < count; i++) sum += caluna_abi_minor_version();
    return sum == count * caluna_abi_minor_version();
}

double bench_c_property_opacity(void) {
    caluna_value out;
    if (caluna_layer_get(engine, layer, "opacity", &out) != CALUNA_OK) return -1;
    return out.u.number;
}
