/* A growable array, positions packed as bytes, their hash, and the exact store of distinct
 * positions. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int grow(void *array, size_t *cap, size_t need, size_t size, size_t first)
{
    size_t n = *cap ? *cap : first;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return -1;
        n *= 2;
    }
    if (n > SIZE_MAX / size)
        return -1;
    void *old; /* the caller's pointer, copied as bytes: any object pointer type */
    memcpy(&old, array, sizeof old);
    void *v = core_realloc(old, n * size);
    if (!v)
        return -1;
    memcpy(array, &v, sizeof v);
    *cap = n;
    return 0;
}

size_t state_pack(const State *s, uint8_t *out)
{
    size_t n = 0;
    for (int i = 0; i < PILES; i++) {
        size_t len = s->len[i];
        out[n++] = (uint8_t)len;
        memcpy(out + n, s->c[i], len);
        n += len;
    }
    return n;
}

void state_unpack(State *s, const uint8_t *in)
{
    size_t n = 0;
    for (int i = 0; i < PILES; i++) {
        s->len[i] = in[n++];
        memcpy(s->c[i], in + n, s->len[i]);
        n += s->len[i];
    }
}

static inline uint64_t rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    /* Eight bytes a step (a multiply and a rotation), then a final mix so that the low bits
     * (the slot) depend on every byte. */
    const uint64_t k1 = 0x9E3779B97F4A7C15ULL, k2 = 0xC2B2AE3D27D4EB4FULL;
    uint64_t h = k2 ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = rotl(h ^ (w * k1), 31) * k2;
    }
    uint64_t w = 0;
    for (size_t j = 0; i < n; i++, j += 8)
        w |= (uint64_t)p[i] << j;
    h = rotl(h ^ (w * k1), 31) * k2;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

int store_init(Store *st)
{
    memset(st, 0, sizeof *st);
    st->arena_size = 1 << 16;
    st->capacity = 1024;
    st->slot_count = 2048;
    st->arena = core_malloc(st->arena_size);
    st->offset = core_malloc(st->capacity * sizeof *st->offset);
    st->hashes = core_malloc(st->capacity * sizeof *st->hashes);
    st->slots = core_calloc(st->slot_count, sizeof *st->slots);
    if (!st->arena || !st->offset || !st->hashes || !st->slots) {
        store_free(st);
        return -1;
    }
    return 0;
}

void store_free(Store *st)
{
    core_free(st->arena);
    core_free(st->offset);
    core_free(st->hashes);
    core_free(st->slots);
    memset(st, 0, sizeof *st);
}

const uint8_t *store_key(const Store *st, size_t id, size_t *n)
{
    size_t at = st->offset[id];
    size_t end = id + 1 < st->count ? st->offset[id + 1] : st->arena_used;
    *n = end - at;
    return st->arena + at;
}

size_t store_bytes(const Store *st)
{
    return st->arena_size + st->capacity * (sizeof *st->offset + sizeof *st->hashes) +
           st->slot_count * sizeof *st->slots;
}

static long lookup(const Store *st, const uint8_t *key, size_t n, uint64_t h, size_t *slot)
{
    size_t mask = st->slot_count - 1;
    size_t i = (size_t)h & mask;
    for (;;) {
        uint32_t v = st->slots[i];
        if (!v) {
            *slot = i;
            return -1;
        }
        size_t id = v - 1;
        if (st->hashes[id] == h) {
            size_t m;
            const uint8_t *other = store_key(st, id, &m);
            if (m == n && memcmp(other, key, n) == 0)
                return (long)id;
        }
        i = (i + 1) & mask;
    }
}

long store_find(const Store *st, const uint8_t *key, size_t n)
{
    return store_find_h(st, key, n, hash_bytes(key, n));
}

long store_find_h(const Store *st, const uint8_t *key, size_t n, uint64_t h)
{
    size_t slot;
    return lookup(st, key, n, h, &slot);
}

static int grow_slots(Store *st)
{
    size_t count = st->slot_count * 2;
    uint32_t *slots = core_calloc(count, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t id = 0; id < st->count; id++) {
        size_t i = (size_t)st->hashes[id] & (count - 1);
        while (slots[i])
            i = (i + 1) & (count - 1);
        slots[i] = (uint32_t)(id + 1);
    }
    core_free(st->slots);
    st->slots = slots;
    st->slot_count = count;
    return 0;
}

long store_add(Store *st, const uint8_t *key, size_t n, int *added)
{
    return store_add_h(st, key, n, hash_bytes(key, n), added);
}

long store_add_h(Store *st, const uint8_t *key, size_t n, uint64_t h, int *added)
{
    size_t slot;
    *added = 0;
    if ((st->count + 1) * 2 > st->slot_count && grow_slots(st) < 0)
        return -1; /* (the table is never more than half full) */
    long found = lookup(st, key, n, h, &slot);
    if (found >= 0)
        return found;
    if (st->count >= UINT32_MAX - 1)
        return -1;
    if (GROW(st->arena, st->arena_size, st->arena_used + n, 1 << 16) < 0)
        return -1;
    if (st->count == st->capacity) { /* the offsets and the hashes grow together */
        size_t cap = st->capacity, same = st->capacity;
        if (GROW(st->offset, cap, st->count + 1, 1024) < 0 ||
            GROW(st->hashes, same, st->count + 1, 1024) < 0)
            return -1;
        st->capacity = cap;
    }
    size_t id = st->count++;
    st->offset[id] = st->arena_used;
    st->hashes[id] = h;
    memcpy(st->arena + st->arena_used, key, n);
    st->arena_used += n;
    st->slots[slot] = (uint32_t)(id + 1);
    *added = 1;
    return (long)id;
}
