/* Full-information play: autoplay._beam, one beam search of a given width.
 *
 * Level by level: every kept position is expanded with the pruned moves of
 * autoplay._beam_moves (and the deal), complete suits are removed at once, the children are
 * ranked by (deals made, chaos, -readiness) in the order they were found (or the reverse
 * of it: `reverse`), and the best `width` of each number of deals made are kept. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "search.h"

typedef struct {
    int32_t parent; /* node index, or -1 for the root */
    Action action;
} Node;

typedef struct {
    long key;   /* id of the child's key in the level's store */
    int dealt;
    long chaos, negready;
    int removed;
    int32_t parent;
    Action action;
    int nrem;
    int8_t rem[8];
    size_t order;
} Child;

typedef struct {
    Node *v;
    size_t n, cap;
} Nodes;

static int32_t node_add(Nodes *ns, int32_t parent, Action a)
{
    if (ns->n == ns->cap) {
        size_t cap = ns->cap ? ns->cap * 2 : 1024;
        Node *v = realloc(ns->v, cap * sizeof *v);
        if (!v)
            return -2;
        ns->v = v;
        ns->cap = cap;
    }
    ns->v[ns->n] = (Node){parent, a};
    return (int32_t)ns->n++;
}

static int beam_move_ok(const State *s, const int *runs, Action a, int endgame)
{
    const uint8_t *p = s->c[a.src];
    int n = s->len[a.src];
    int m = a.count;
    int length = runs[a.src];
    int split = m < length;
    int qn = s->len[a.dst];
    if (!qn)
        return !(endgame && split);
    const uint8_t *q = s->c[a.dst];
    if (split && (q[qn - 1] != p[n - m] + 1 || runs[a.dst] + m <= length))
        return 0; /* a split goes only onto its own suit, making the run longer */
    return 1;
}

/* autoplay._settle: remove every complete suit, a pass over the piles at a time. */
static int settle(State *s, int8_t *rem, Undo *undo)
{
    int nrem = 0, again = 1;
    while (again) {
        again = 0;
        for (int i = 0; i < PILES; i++) {
            if (s->len[i] >= 13 && completes_suit(s->c[i], s->len[i])) {
                int turned;
                /* (at most eight suits: 104 cards) */
                apply_action(s, (Action){ACT_REMOVE, (int8_t)i, (int8_t)i, 13}, &undo[nrem], &turned);
                rem[nrem++] = (int8_t)i;
                again = 1;
            }
        }
    }
    return nrem;
}

static void unsettle(State *s, const Undo *undo, int nrem)
{
    while (nrem > 0)
        undo_action(s, &undo[--nrem]);
}

#define ORDER_MASK ((1ULL << 36) - 1)

/* A child's place in the ranking as one number: (deals made, chaos, -readiness, the order
 * it was found in, or its reverse with `reverse`). Chaos and readiness are at most a few
 * hundred (104 cards, 8 suits). */
static uint64_t rank_of(const Child *c, int reverse)
{
    uint64_t chaos = c->chaos < 1023 ? (uint64_t)c->chaos : 1023;
    int64_t ready = -c->negready;
    uint64_t unready = ready >= 1023 ? 0 : (uint64_t)(1023 - ready);
    uint64_t order = reverse ? ORDER_MASK - (uint64_t)c->order : (uint64_t)c->order;
    return (uint64_t)c->dealt << 56 | chaos << 46 | unready << 36 | order;
}

static int u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

typedef struct {
    State s;
    PileInfo info[PILES]; /* each pile's part of the rank (only changed piles are redone) */
    int dealt, removed;
    int32_t node;
} Entry;

static void all_info(Entry *e)
{
    for (int i = 0; i < PILES; i++)
        pile_info(e->s.c[i], e->s.len[i], &e->info[i]);
}

static int32_t chain(Nodes *ns, int32_t parent, Action a, const int8_t *rem, int nrem)
{
    int32_t node = node_add(ns, parent, a);
    for (int r = 0; r < nrem && node >= 0; r++)
        node = node_add(ns, node, (Action){ACT_REMOVE, rem[r], rem[r], 13});
    return node;
}

static int unwind(const Nodes *ns, int32_t node, Line *line)
{
    size_t n = 0;
    for (int32_t k = node; k >= 0; k = ns->v[k].parent)
        n++;
    line->n = n;
    line->v = malloc((n ? n : 1) * sizeof *line->v);
    if (!line->v)
        return -1;
    for (int32_t k = node; k >= 0; k = ns->v[k].parent)
        line->v[--n] = ns->v[k].action;
    return 0;
}

int beam_search(const State *start, const uint8_t (*rows)[PILES], int nrows, int removed0,
                long width, long long budget, int max_levels, int reverse, Stopper *stop,
                Line *line, long long *positions_out)
{
    int status = SEARCH_NONE;
    Nodes ns = {0};
    Store seen, level_seen;
    Entry *beam = NULL, *next = NULL;
    Child *children = NULL;
    uint64_t *order = NULL; /* the children's ranks (rank_of), sorted */
    size_t nchildren = 0, cap_children = 0;
    size_t nbeam = 0;
    long long positions = 1;
    int level_store = 0;
    uint8_t key[PACKED_MAX + 1];
    Action acts[MAX_ACTIONS];

    line->v = NULL;
    line->n = 0;
    if (store_init(&seen) < 0)
        return SEARCH_NOMEM;
    beam = malloc(sizeof *beam);
    if (!beam)
        goto nomem;
    beam[0].s = *start;
    {
        int8_t rem[8];
        Undo undo[8];
        int nrem = settle(&beam[0].s, rem, undo);
        int32_t root = -1;
        for (int r = 0; r < nrem && r < 8; r++) {
            root = node_add(&ns, root, (Action){ACT_REMOVE, rem[r], rem[r], 13});
            if (root < -1)
                goto nomem;
        }
        all_info(&beam[0]);
        beam[0].dealt = 0;
        beam[0].removed = removed0 + nrem;
        beam[0].node = root;
        size_t n = state_pack(&beam[0].s, key);
        key[n++] = 0;
        int added;
        if (store_add(&seen, key, n, &added) < 0)
            goto nomem;
    }
    nbeam = 1;
    for (int level = 0; nbeam && level < max_levels; level++) {
        if (store_init(&level_seen) < 0)
            goto nomem;
        level_store = 1;
        nchildren = 0;
        for (size_t b = 0; b < nbeam; b++) {
            Entry *e = &beam[b];
            int endgame = e->dealt >= nrows;
            int space = -1;
            int all_filled = 1;
            for (int i = 0; i < PILES; i++)
                if (!e->s.len[i]) {
                    all_filled = 0;
                    if (space < 0)
                        space = i;
                }
            int runs[PILES];
            for (int i = 0; i < PILES; i++)
                runs[i] = e->info[i].run;
            int na = gen_actions_runs(&e->s, runs, &space, space >= 0 ? 1 : 0, 0, acts);
            int k = 0;
            for (int j = 0; j < na; j++)
                if (acts[j].kind == ACT_MOVE && beam_move_ok(&e->s, runs, acts[j], endgame))
                    acts[k++] = acts[j];
            if (!endgame && all_filled)
                acts[k++] = (Action){ACT_DEAL, 0, 0, 0};
            for (int j = 0; j < k; j++) {
                /* The child is made in place on the parent and taken back at once. */
                State *child = &e->s;
                Undo u, undo[8];
                int turned;
                int dealt = e->dealt;
                if (acts[j].kind == ACT_DEAL) {
                    for (int i = 0; i < PILES; i++)
                        child->c[i][child->len[i]++] = rows[dealt][i];
                    dealt++;
                } else {
                    apply_action(child, acts[j], &u, &turned);
                }
                int8_t rem[8];
                int nrem = settle(child, rem, undo);
                size_t n = state_pack(child, key);
                key[n++] = (uint8_t)dealt;
                uint64_t h = hash_bytes(key, n);
                long id = -2; /* -2: seen before; -1: no memory */
                int added = 0;
                if (store_find_h(&seen, key, n, h) < 0)
                    id = store_add_h(&level_seen, key, n, h, &added);
                int removed = e->removed + nrem;
                long chaos = 0, negready = 0;
                if (added && removed < 8) {
                    PileInfo info[PILES];
                    memcpy(info, e->info, sizeof info);
                    if (acts[j].kind == ACT_DEAL) {
                        for (int i = 0; i < PILES; i++)
                            pile_info(child->c[i], child->len[i], &info[i]);
                    } else {
                        pile_info(child->c[acts[j].src], child->len[acts[j].src], &info[acts[j].src]);
                        pile_info(child->c[acts[j].dst], child->len[acts[j].dst], &info[acts[j].dst]);
                        for (int r = 0; r < nrem; r++)
                            pile_info(child->c[rem[r]], child->len[rem[r]], &info[rem[r]]);
                    }
                    rank_from_info(info, removed, &chaos, &negready);
                }
                unsettle(child, undo, nrem);
                if (acts[j].kind == ACT_DEAL) {
                    for (int i = 0; i < PILES; i++)
                        child->len[i]--;
                } else {
                    undo_action(child, &u);
                }
                if (id == -1)
                    goto nomem;
                if (!added)
                    continue;
                if (removed >= 8) {
                    int32_t node = chain(&ns, e->node, acts[j], rem, nrem);
                    if (node < -1 || unwind(&ns, node, line) < 0)
                        goto nomem;
                    positions += (long long)level_seen.count;
                    status = SEARCH_FOUND;
                    goto done;
                }
                if (nchildren == cap_children) {
                    size_t cap = cap_children ? cap_children * 2 : 4096;
                    Child *v = realloc(children, cap * sizeof *v);
                    if (!v)
                        goto nomem;
                    children = v;
                    cap_children = cap;
                }
                Child *c = &children[nchildren];
                c->key = id;
                c->dealt = dealt;
                c->chaos = chaos;
                c->negready = negready;
                c->removed = removed;
                c->parent = e->node;
                c->action = acts[j];
                c->nrem = nrem;
                memcpy(c->rem, rem, (size_t)nrem);
                c->order = nchildren++;
            }
        }
        positions += (long long)level_seen.count;
        if (positions > budget) {
            status = SEARCH_LIMIT;
            goto done;
        }
        int why = stopper_check(stop);
        if (why) {
            status = why;
            goto done;
        }
        free(order);
        order = malloc((nchildren ? nchildren : 1) * sizeof *order);
        if (!order)
            goto nomem;
        for (size_t i = 0; i < nchildren; i++)
            order[i] = rank_of(&children[i], reverse);
        qsort(order, nchildren, sizeof *order, u64_cmp);
        size_t most = (size_t)width * (size_t)(nrows + 1); /* kept: width per deals made */
        free(next);
        next = malloc((nchildren < most ? (nchildren ? nchildren : 1) : most) * sizeof *next);
        if (!next)
            goto nomem;
        size_t kept_all = 0;
        long kept = 0;
        int current = -1;
        for (size_t i = 0; i < nchildren; i++) {
            uint64_t found = order[i] & ORDER_MASK;
            Child *c = &children[reverse ? ORDER_MASK - found : found];
            if (c->dealt != current) {
                current = c->dealt;
                kept = 0;
            }
            if (kept >= width)
                continue;
            kept++;
            Entry *e = &next[kept_all++];
            size_t n;
            const uint8_t *k = store_key(&level_seen, (size_t)c->key, &n);
            state_unpack(&e->s, k);
            all_info(e);
            e->dealt = c->dealt;
            e->removed = c->removed;
            e->node = chain(&ns, c->parent, c->action, c->rem, c->nrem);
            if (e->node < -1)
                goto nomem;
            int added;
            if (store_add_h(&seen, k, n, level_seen.hashes[c->key], &added) < 0)
                goto nomem;
        }
        store_free(&level_seen);
        level_store = 0;
        Entry *t = beam;
        beam = next;
        next = t;
        nbeam = kept_all;
    }
    status = SEARCH_NONE;
    goto done;
nomem:
    status = SEARCH_NOMEM;
done:
    if (level_store)
        store_free(&level_seen);
    store_free(&seen);
    free(beam);
    free(next);
    free(children);
    free(order);
    free(ns.v);
    *positions_out = positions;
    return status;
}
