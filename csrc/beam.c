/* Full-information play: beam.beam, one beam search of a given width.
 *
 * Level by level: every kept position is expanded with the pruned moves of
 * beam.beam_moves (and the deal), complete suits are removed at once, the children are
 * ranked by (deals made, chaos, -readiness), ties broken by `ties` (beam.tie: the order
 * they were found in, its reverse, or a shuffle), and the best `width` of each number of
 * deals made are kept. */
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
    if (GROW(ns->v, ns->cap, ns->n + 1, 1024) < 0)
        return -2;
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

/* beam.settle: remove every complete suit, a pass over the piles at a time. */
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

/* beam.tie: where a child found `order`th at a level goes among its equals in the ranking.
 * `level_seed` is the level's SplitMix64 output (beam_keep), used when ties >= 2. */
static uint64_t tie_of(uint64_t order, unsigned long ties, uint64_t level_seed)
{
    if (ties == 0)
        return order;
    if (ties == 1)
        return ORDER_MASK - order;
    uint64_t state = level_seed + order;
    return splitmix_next(&state) & ORDER_MASK;
}

/* A child's place in the ranking as one number: (deals made, chaos, -readiness, tie_of).
 * Chaos and readiness are at most a few hundred (104 cards, 8 suits). Equal numbers (a
 * shuffle's rare collision) go in the order found (the child's index, in Ranked). */
static uint64_t rank_of(const Child *c, unsigned long ties, uint64_t level_seed)
{
    uint64_t chaos = c->chaos < 1023 ? (uint64_t)c->chaos : 1023;
    int64_t ready = -c->negready;
    uint64_t unready = ready >= 1023 ? 0 : (uint64_t)(1023 - ready);
    uint64_t tie = tie_of((uint64_t)c->order, ties, level_seed);
    return (uint64_t)c->dealt << 56 | chaos << 46 | unready << 36 | tie;
}

typedef struct {
    uint64_t rank;
    size_t index; /* the child's, in the order found */
} Ranked;

static int ranked_cmp(const void *x, const void *y)
{
    const Ranked *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
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
    line->v = core_malloc((n ? n : 1) * sizeof *line->v);
    if (!line->v)
        return -1;
    for (int32_t k = node; k >= 0; k = ns->v[k].parent)
        line->v[--n] = ns->v[k].action;
    return 0;
}

/* A beam search under way: what its steps (root, expand a child, keep the best) share. */
typedef struct {
    const uint8_t (*rows)[PILES];
    int nrows;
    long width;
    unsigned long ties;  /* how ties in the ranking are broken (tie_of) */
    int level;           /* the level being kept, from 1 */
    Nodes ns;            /* the lines, as a tree of actions */
    Store seen;          /* every position kept (with its deals made) */
    Store level_seen;    /* the level's children */
    int level_store;     /* level_seen is open */
    Entry *beam, *next;
    size_t nbeam;
    Child *children;
    size_t nchildren, cap_children;
    Ranked *order;       /* the children's ranks (rank_of), sorted */
    long long positions;
    long best;           /* the most progress of a position examined (beam_progress) */
    uint8_t key[PACKED_MAX + 1];
    Line *line;
} BeamRun;

long beam_progress(const State *s, int removed)
{
    long down = 0;
    for (int i = 0; i < PILES; i++)
        for (int q = 0; q < s->len[i]; q++)
            down += (s->c[i][q] & FACE_DOWN) != 0;
    return 13L * removed + (down < MAX_CARDS ? MAX_CARDS - down : 0);
}

/* The root: the start with its complete suits removed, kept and stored. 0, or -1 (memory). */
static int beam_root(BeamRun *b, const State *start, int removed0)
{
    b->beam = core_malloc(sizeof *b->beam);
    if (!b->beam)
        return -1;
    Entry *e = &b->beam[0];
    e->s = *start;
    int8_t rem[8];
    Undo undo[8];
    int nrem = settle(&e->s, rem, undo);
    int32_t root = -1;
    for (int r = 0; r < nrem && r < 8; r++) {
        root = node_add(&b->ns, root, (Action){ACT_REMOVE, rem[r], rem[r], 13});
        if (root < -1)
            return -1;
    }
    all_info(e);
    e->dealt = 0;
    e->removed = removed0 + nrem;
    e->node = root;
    b->best = beam_progress(&e->s, e->removed);
    size_t n = state_pack(&e->s, b->key);
    b->key[n++] = 0;
    int added;
    b->nbeam = 1;
    return store_add(&b->seen, b->key, n, &added) < 0 ? -1 : 0;
}

/* The actions tried from `e` (beam.beam_moves, then the deal), into acts; how many. */
static int beam_actions(const BeamRun *b, const Entry *e, int *runs, Action *acts)
{
    int endgame = e->dealt >= b->nrows;
    int space = -1, all_filled = 1;
    for (int i = 0; i < PILES; i++)
        if (!e->s.len[i]) {
            all_filled = 0;
            if (space < 0)
                space = i;
        }
    for (int i = 0; i < PILES; i++)
        runs[i] = e->info[i].run;
    int na = gen_actions_runs(&e->s, runs, &space, space >= 0 ? 1 : 0, 0, acts);
    int k = 0;
    for (int j = 0; j < na; j++)
        if (acts[j].kind == ACT_MOVE && beam_move_ok(&e->s, runs, acts[j], endgame))
            acts[k++] = acts[j];
    if (!endgame && all_filled)
        acts[k++] = (Action){ACT_DEAL, 0, 0, 0};
    return k;
}

/* The child of `e` by `act`, made in place and taken back at once: new to the level, it is
 * ranked and recorded among the children. SEARCH_NONE, SEARCH_FOUND (every suit removed: the
 * line is written) or SEARCH_NOMEM. */
static int beam_child(BeamRun *b, Entry *e, Action act)
{
    State *child = &e->s;
    Undo u, undo[8];
    int turned, dealt = e->dealt, deal = act.kind == ACT_DEAL;
    if (deal) {
        for (int i = 0; i < PILES; i++)
            child->c[i][child->len[i]++] = b->rows[dealt][i];
        dealt++;
    } else {
        apply_action(child, act, &u, &turned);
    }
    int8_t rem[8];
    int nrem = settle(child, rem, undo);
    size_t n = state_pack(child, b->key);
    b->key[n++] = (uint8_t)dealt;
    uint64_t h = hash_bytes(b->key, n);
    long id = -2; /* -2: seen before; -1: no memory */
    int added = 0;
    if (store_find_h(&b->seen, b->key, n, h) < 0)
        id = store_add_h(&b->level_seen, b->key, n, h, &added);
    int removed = e->removed + nrem;
    long chaos = 0, negready = 0;
    if (added && removed < 8) {
        PileInfo info[PILES];
        memcpy(info, e->info, sizeof info);
        if (deal) {
            for (int i = 0; i < PILES; i++)
                pile_info(child->c[i], child->len[i], &info[i]);
        } else { /* only the piles the move and the removals changed */
            pile_info(child->c[act.src], child->len[act.src], &info[act.src]);
            pile_info(child->c[act.dst], child->len[act.dst], &info[act.dst]);
            for (int r = 0; r < nrem; r++)
                pile_info(child->c[rem[r]], child->len[rem[r]], &info[rem[r]]);
        }
        rank_from_info(info, removed, &chaos, &negready);
        long progress = beam_progress(child, removed);
        if (progress > b->best)
            b->best = progress;
    }
    unsettle(child, undo, nrem);
    if (deal) {
        for (int i = 0; i < PILES; i++)
            child->len[i]--;
    } else {
        undo_action(child, &u);
    }
    if (id == -1)
        return SEARCH_NOMEM;
    if (!added)
        return SEARCH_NONE;
    if (removed >= 8) {
        int32_t node = chain(&b->ns, e->node, act, rem, nrem);
        if (node < -1 || unwind(&b->ns, node, b->line) < 0)
            return SEARCH_NOMEM;
        b->positions += (long long)b->level_seen.count;
        return SEARCH_FOUND;
    }
    if (GROW(b->children, b->cap_children, b->nchildren + 1, 4096) < 0)
        return SEARCH_NOMEM;
    Child *c = &b->children[b->nchildren];
    *c = (Child){id, dealt, chaos, negready, removed, e->node, act, nrem, {0}, b->nchildren};
    memcpy(c->rem, rem, (size_t)nrem);
    b->nchildren++;
    return SEARCH_NONE;
}

/* The next beam: the level's children ranked, the best `width` of each number of deals made
 * kept and stored as seen. 0, or -1 (memory). */
static int beam_keep(BeamRun *b)
{
    core_free(b->order);
    b->order = core_malloc((b->nchildren ? b->nchildren : 1) * sizeof *b->order);
    if (!b->order)
        return -1;
    uint64_t level_state = (uint64_t)b->ties << 16 | (uint64_t)b->level;
    uint64_t level_seed = splitmix_next(&level_state);
    for (size_t i = 0; i < b->nchildren; i++)
        b->order[i] = (Ranked){rank_of(&b->children[i], b->ties, level_seed), i};
    qsort(b->order, b->nchildren, sizeof *b->order, ranked_cmp);
    size_t most = (size_t)b->width * (size_t)(b->nrows + 1); /* kept: width per deals made */
    size_t room = b->nchildren < most ? (b->nchildren ? b->nchildren : 1) : most;
    core_free(b->next);
    b->next = core_malloc(room * sizeof *b->next);
    if (!b->next)
        return -1;
    size_t kept_all = 0;
    long kept = 0;
    int current = -1;
    for (size_t i = 0; i < b->nchildren; i++) {
        Child *c = &b->children[b->order[i].index];
        if (c->dealt != current) {
            current = c->dealt;
            kept = 0;
        }
        if (kept >= b->width)
            continue;
        kept++;
        Entry *e = &b->next[kept_all++];
        size_t n;
        const uint8_t *k = store_key(&b->level_seen, (size_t)c->key, &n);
        state_unpack(&e->s, k);
        all_info(e);
        e->dealt = c->dealt;
        e->removed = c->removed;
        e->node = chain(&b->ns, c->parent, c->action, c->rem, c->nrem);
        int added;
        if (e->node < -1 ||
            store_add_h(&b->seen, k, n, b->level_seen.hashes[c->key], &added) < 0)
            return -1;
    }
    Entry *t = b->beam;
    b->beam = b->next;
    b->next = t;
    b->nbeam = kept_all;
    return 0;
}

int beam_search(const State *start, const uint8_t (*rows)[PILES], int nrows, int removed0,
                long width, long long budget, int max_levels, unsigned long ties, Stopper *stop,
                Line *line, long long *positions_out)
{
    long best;
    return beam_search_best(start, rows, nrows, removed0, width, budget, max_levels, ties, stop,
                            line, positions_out, &best);
}

int beam_search_best(const State *start, const uint8_t (*rows)[PILES], int nrows, int removed0,
                     long width, long long budget, int max_levels, unsigned long ties,
                     Stopper *stop, Line *line, long long *positions_out, long *best_out)
{
    BeamRun b = {0};
    b.rows = rows;
    b.nrows = nrows;
    b.width = width;
    b.ties = ties;
    b.positions = 1;
    b.line = line;
    line->v = NULL;
    line->n = 0;
    if (store_init(&b.seen) < 0)
        return SEARCH_NOMEM;
    int status = SEARCH_NOMEM;
    if (beam_root(&b, start, removed0) < 0)
        goto done;
    for (b.level = 1; b.nbeam && b.level <= max_levels; b.level++) {
        if (store_init(&b.level_seen) < 0)
            goto nomem;
        b.level_store = 1;
        b.nchildren = 0;
        for (size_t e = 0; e < b.nbeam; e++) {
            int runs[PILES];
            Action acts[MAX_ACTIONS];
            int k = beam_actions(&b, &b.beam[e], runs, acts);
            for (int j = 0; j < k; j++) {
                status = beam_child(&b, &b.beam[e], acts[j]);
                if (status != SEARCH_NONE)
                    goto done;
            }
        }
        b.positions += (long long)b.level_seen.count;
        status = b.positions > budget ? SEARCH_LIMIT : stopper_check(stop);
        if (status != SEARCH_NONE)
            goto done;
        if (beam_keep(&b) < 0)
            goto nomem;
        store_free(&b.level_seen);
        b.level_store = 0;
    }
    status = SEARCH_NONE;
    goto done;
nomem:
    status = SEARCH_NOMEM;
done:
    if (b.level_store)
        store_free(&b.level_seen);
    store_free(&b.seen);
    core_free(b.beam);
    core_free(b.next);
    core_free(b.children);
    core_free(b.order);
    core_free(b.ns.v);
    *positions_out = b.positions;
    *best_out = b.best;
    return status;
}
