/* The count before every first move, in every order: firstmoves.py's search over the bases'
 * lengths, step for step (the same states in the same order, so the same count of states).
 * The tables of what the count needs for each base come from Python (firstmoves._Orders);
 * specs.c checks them at the boundary. */
#include <stdlib.h>
#include <string.h>

#include "search.h"

/* A state's key: each pile's base length in 6 bits (ORDERS_MAX_BASE is 63). */
static uint64_t key_of(const int *bases)
{
    uint64_t key = 0;
    for (int i = 0; i < PILES; i++)
        key |= (uint64_t)bases[i] << (6 * i);
    return key;
}

/* ---- a set of keys: open addressing; a slot holds key + 1 (0 is empty) */

typedef struct {
    uint64_t *slot;
    size_t cap, used;
} KeySet;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static int set_has(const KeySet *s, uint64_t key)
{
    size_t mask = s->cap - 1;
    for (size_t h = mix(key) & mask;; h = (h + 1) & mask) {
        if (s->slot[h] == 0)
            return 0;
        if (s->slot[h] == key + 1)
            return 1;
    }
}

static int set_add(KeySet *s, uint64_t key);

static int set_grow(KeySet *s)
{
    KeySet bigger = {core_calloc(s->cap * 2, sizeof(uint64_t)), s->cap * 2, 0};
    if (!bigger.slot)
        return -1;
    for (size_t h = 0; h < s->cap; h++)
        if (s->slot[h])
            set_add(&bigger, s->slot[h] - 1);
    core_free(s->slot);
    *s = bigger;
    return 0;
}

static int set_add(KeySet *s, uint64_t key)
{
    if (2 * (s->used + 1) > s->cap && set_grow(s) < 0)
        return -1;
    size_t mask = s->cap - 1;
    size_t h = mix(key) & mask;
    while (s->slot[h] && s->slot[h] != key + 1)
        h = (h + 1) & mask;
    if (!s->slot[h]) {
        s->slot[h] = key + 1;
        s->used++;
    }
    return 0;
}

/* ---- the count */

/* counting.bottoms_suffice */
static int bottoms_suffice(const int *need, int emptied, int moved, int bare, int spaces, int most)
{
    int shortage = 0;
    for (int r = 0; r < RANKS; r++)
        if (need[r] > 0)
            shortage += need[r];
    int top = bare ? 0 : (moved < emptied ? moved : emptied);
    for (int on_bottoms = shortage; on_bottoms <= top; on_bottoms++) {
        int left = emptied - on_bottoms;
        if (left >= spaces && (most < 0 || left <= most))
            return 1;
    }
    return 0;
}

static int links(uint8_t lower, uint8_t upper)
{
    return lower < FACE_DOWN && upper < FACE_DOWN && lower >> 4 == upper >> 4 &&
           (lower & 15) == (upper & 15) + 1;
}

/* _Orders.at_an_end: the count at the end with these bases, given the sums of their bases
 * at any moment. */
static int at_an_end(const Orders *o, const int *special, int nspecial, const int *bases,
                     const int *need, int emptied, int moved)
{
    if (o->wanted) {
        int ranks = 0;
        for (int i = 0; i < PILES; i++)
            if (o->end[i][bases[i]].ok)
                ranks |= o->end[i][bases[i]].mask;
        if ((ranks & o->wanted) != o->wanted)
            return 0;
    }
    int total[RANKS];
    memcpy(total, need, sizeof total);
    for (int k = 0; k < nspecial; k++) {
        int i = special[k];
        const OrdersEnd *end = &o->end[i][bases[i]];
        if (!end->ok)
            return 0;
        const OrdersBase *plain = &o->plain[i][bases[i]];
        for (int r = 0; r < RANKS; r++)
            total[r] += end->need[r] - (plain->ok ? plain->need[r] : 0);
        emptied += end->bottom - (plain->ok ? plain->bottom : 0);
        moved += end->moved - (plain->ok ? plain->moved : 0);
    }
    return bottoms_suffice(total, emptied, moved, o->bare, o->end_spaces, o->end_most);
}

/* firstmoves._room_left */
static int room_left(const int *need, int first, int place, int room, int needs)
{
    if (place >= 0 && place == first) {
        int v = need[place];
        return (v + 2 > 0 ? v + 2 : 0) - (v > 0 ? v : 0) <= room;
    }
    return needs + (place >= 0 && need[place] >= 0) <= room;
}

typedef struct {
    uint64_t key, codes;
    int need[RANKS];
    int emptied, moved;
} Entry;

/* What the search reads of each pile, worked out once: from base b, the first base x a
 * first move may leave (first), the cards from each base up (bits), and the piles whose
 * bases an end judges apart from the plain ones (special). */
typedef struct {
    int first[PILES][ORDERS_MAX_BASE + 1];
    uint64_t bits[PILES][ORDERS_MAX_BASE + 2];
    int special[PILES], nspecial;
} Steps;

/* The steps of every pile; 0 when some pile has no base the goal allows at the end (then no
 * order reaches one). */
static int orders_steps(const Orders *o, Steps *t)
{
    t->nspecial = 0;
    for (int i = 0; i < PILES; i++) {
        int len = o->len[i];
        for (int j = 0; j < len; j++)
            t->first[i][j] =
                j > 0 && links(o->pile[i][j - 1], o->pile[i][j]) ? t->first[i][j - 1] : j;
        t->bits[i][len] = 0;
        for (int u = len - 1; u >= 0; u--) {
            uint8_t c = o->pile[i][u];
            uint64_t bit = c == FACE_DOWN ? 0 : 1ULL << (c >= FACE_DOWN ? c - FACE_DOWN : c);
            t->bits[i][u] = t->bits[i][u + 1] | bit;
        }
        int differs = 0, any_end = 0;
        for (int u = 0; u <= len; u++) {
            const OrdersBase *p = &o->plain[i][u];
            const OrdersEnd *e = &o->end[i][u];
            any_end |= e->ok;
            if (p->ok != e->ok)
                differs = 1;
            else if (p->ok && (p->bottom != e->bottom || p->moved != e->moved ||
                               memcmp(p->need, e->need, sizeof p->need)))
                differs = 1;
        }
        if (!any_end)
            return 0;
        if (differs)
            t->special[t->nspecial++] = i;
    }
    return 1;
}

/* The first entry: every pile at its whole length; 0 when that is no base (firstmoves.py
 * fails there alike: the start is always one). */
static int orders_start(const Orders *o, Entry *top)
{
    int bases[PILES];
    memset(top, 0, sizeof *top);
    for (int i = 0; i < PILES; i++) {
        bases[i] = o->len[i];
        const OrdersBase *p = &o->plain[i][bases[i]];
        if (!p->ok)
            return 0;
        for (int r = 0; r < RANKS; r++)
            top->need[r] += p->need[r];
        top->emptied += p->bottom;
        top->moved += p->moved;
    }
    top->key = key_of(bases);
    return 1;
}

/* _Orders.unused_places: the places a first move from pile i at base b leaves unused (ranks
 * less two; -1 for none), given the cards already turned to (codes); their count. */
static int unused_places(const Orders *o, int i, int b, uint64_t codes, int *unused)
{
    int nunused = 0;
    uint8_t last = o->pile[i][b - 1];
    int code = last >= FACE_DOWN ? last - FACE_DOWN : last;
    for (int rank = code & 15;; rank--, code--) {
        unused[nunused++] = rank > 1 ? rank - 2 : -1;
        if (rank == 1 || !(codes >> (code - 1) & 1))
            break;
    }
    return nunused;
}

int orders_search(const Orders *o, long long budget, Stopper *stop, long long *examined)
{
    int n = PILES;
    Steps t;
    Entry top;
    *examined = 0;
    if (!orders_steps(o, &t) || !orders_start(o, &top))
        return 0;
    int bases[PILES];
    KeySet seen = {core_calloc(1024, sizeof(uint64_t)), 1024, 0};
    Entry *stack = NULL;
    size_t cap = 0, depth = 0;
    int status = SEARCH_NONE, reached = 0;
    if (!seen.slot || set_add(&seen, top.key) < 0 || GROW(stack, cap, 1, 1024) < 0) {
        status = SEARCH_NOMEM;
        goto done;
    }
    stack[depth++] = top;
    while (depth && !reached) {
        Entry e = stack[--depth];
        ++*examined;
        if (*examined > budget) {
            status = SEARCH_LIMIT;
            goto done;
        }
        if ((*examined & 4095) == 0) {
            int stopped = stopper_check(stop);
            if (stopped) {
                status = stopped;
                goto done;
            }
        }
        for (int i = 0; i < n; i++)
            bases[i] = (int)(e.key >> (6 * i) & 63);
        if (at_an_end(o, t.special, t.nspecial, bases, e.need, e.emptied, e.moved)) {
            reached = 1;
            break;
        }
        int shortage = 0;
        for (int r = 0; r < RANKS; r++)
            if (e.need[r] > 0)
                shortage += e.need[r];
        int rooms[2];
        if (o->bare) {
            if (shortage || (o->most >= 0 && e.emptied > o->most))
                continue;
            rooms[0] = rooms[1] = 0;
        } else {
            rooms[0] = e.moved < e.emptied ? e.moved : e.emptied;
            rooms[1] = e.moved + 1 < e.emptied ? e.moved + 1 : e.emptied;
            if (shortage > rooms[1])
                continue;
        }
        for (int i = 0; i < n && !reached; i++) {
            int b = bases[i];
            if (b == 0 || !o->plain[i][b].ok || o->pile[i][b - 1] == FACE_DOWN)
                continue;
            int unused[RANKS + 1];
            int nunused = unused_places(o, i, b, e.codes, unused);
            for (int x = t.first[i][b - 1]; x < b; x++) {
                if (!o->plain[i][x].ok && !o->end[i][x].ok)
                    continue;
                uint8_t c = o->pile[i][x];
                int card = c >= FACE_DOWN ? c - FACE_DOWN : c;
                int removal = (card & 15) == KING && (o->free >> (card >> 4) & 1);
                int rank = removal ? 0 : card & 15;
                int after[PILES];
                memcpy(after, bases, sizeof after);
                after[i] = x;
                uint64_t key = key_of(after);
                if (set_has(&seen, key))
                    continue;
                int room = rooms[rank ? 1 : 0];
                if (!o->bare && o->most >= 0 && e.emptied - room > o->most)
                    continue;
                int first_place = rank ? rank - 1 : -1;
                int needs = rank > 0 && e.need[first_place] >= 0;
                int fits = 0;
                for (int k = 0; k < nunused && !fits; k++)
                    fits = room_left(e.need, first_place, unused[k], room - shortage, needs);
                if (!fits)
                    continue;
                if (set_add(&seen, key) < 0) {
                    status = SEARCH_NOMEM;
                    goto done;
                }
                const OrdersBase *old = &o->plain[i][b], *base = &o->plain[i][x];
                Entry next;
                for (int r = 0; r < RANKS; r++)
                    next.need[r] = e.need[r] - old->need[r] + (base->ok ? base->need[r] : 0);
                next.emptied = e.emptied - old->bottom + (base->ok ? base->bottom : 0);
                next.moved = e.moved - old->moved + (base->ok ? base->moved : 0);
                if (!base->ok) { /* an end's base only: the line stops there */
                    if (at_an_end(o, t.special, t.nspecial, after, next.need, next.emptied,
                                  next.moved))
                        reached = 1;
                    if (reached)
                        break;
                    continue;
                }
                next.key = key;
                next.codes = e.codes | t.bits[i][x];
                if (GROW(stack, cap, depth + 1, 1024) < 0) {
                    status = SEARCH_NOMEM;
                    goto done;
                }
                stack[depth++] = next;
            }
        }
    }
    status = reached ? SEARCH_FOUND : SEARCH_NONE;
done:
    core_free(seen.slot);
    core_free(stack);
    return status;
}
