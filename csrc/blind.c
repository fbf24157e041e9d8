/* The blind player's search: blindplayer.search, step for step.
 *
 * Level by level over the moves that rearrange face-up cards (a card turned up is UNSEEN:
 * the worst it could be), each position once, until `budget` positions: breadth-first, or a
 * beam keeping the `width` best-valued of each level (first found first on a tie). Values
 * are kept incrementally: a move changes the value of the piles it touches only. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "search.h"

#define UNSEEN 15

typedef struct {
    long id; /* the position's key in the store */
    int off; /* suits removed */
    long worth;
    int32_t node;
    int turned_up;
} BlindEntry;

typedef struct {
    BlindEntry *v;
    size_t n, cap;
} Entries;

static int entries_push(Entries *es, BlindEntry e)
{
    if (GROW(es->v, es->cap, es->n + 1, 256) < 0)
        return -1;
    es->v[es->n++] = e;
    return 0;
}

static int reveal_push(BlindReveals *rs, BlindReveal r)
{
    if (GROW(rs->v, rs->cap, rs->n + 1, 64) < 0)
        return -1;
    rs->v[rs->n++] = r;
    return 0;
}

static long pv(const State *s, int i, long space, const Weights *w, const int8_t *unseen)
{
    return s->len[i] ? pile_value(s->c[i], s->len[i], w, unseen) : space;
}

long blind_value(const State *s, int removed, long space, const Weights *w)
{
    Unseen unseen;
    unseen_ranks(s, removed, unseen);
    long total = w->removed * removed + tops_value(s, w, unseen);
    for (int i = 0; i < PILES; i++)
        total += pv(s, i, space, w, unseen);
    return total;
}

/* Beam order: higher value first, then the order found. */
typedef struct {
    long score;
    size_t index;
} Ranked;

static int ranked_cmp(const void *x, const void *y)
{
    const Ranked *a = x, *b = y;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->index < b->index ? -1 : (a->index > b->index);
}

/* A blind search under way: what its steps (expand a position, keep a level) share. */
typedef struct {
    long space;
    int hand, parts, cards;
    const Weights *w;
    Unseen unseen; /* the same in every position of the search */
    Store seen;
    Entries level, next;
    BlindNode *nodes;
    size_t nnodes, capnodes;
    Ranked *ranked;
    uint8_t key[PACKED_MAX];
    long long positions, budget;
    int32_t best_node;
    int depth; /* the level being expanded (its children are one move deeper) */
    BlindResult *out;
} BlindRun;

/* The children of `parent` within the budget, each valued and recorded (and, ending at its
 * first card turned up, kept as a reveal). 0, or -1 (memory). */
static int blind_expand(BlindRun *b, BlindEntry parent)
{
    const Weights *w = b->w;
    const int8_t *unseen = b->unseen;
    const long space = b->space;
    const long long budget = b->budget;
    State s;
    size_t kn;
    Action acts[MAX_ACTIONS];
    state_unpack(&s, store_key(&b->seen, (size_t)parent.id, &kn));
    int spaces[1], nspaces = 0;
    int runs[PILES];
    for (int i = 0; i < PILES; i++) {
        runs[i] = run_length(s.c[i], s.len[i]);
        if (!s.len[i] && !nspaces)
            spaces[nspaces++] = i;
    }
    int na = gen_actions_runs(&s, runs, spaces, nspaces, 0, acts);
    const long tops = tops_value(&s, w, unseen);
    for (int j = 0; j < na; j++) {
        Action a = acts[j];
        int now = parent.off;
        if (a.kind == ACT_REMOVE) {
            if (b->hand && b->cards - 13 * (parent.off + 1) < PILES)
                continue; /* a row could never be dealt again */
            now = parent.off + 1;
        } else if (!(b->parts || s.len[a.dst]) && a.count < runs[a.src]) {
            continue; /* into a space goes a whole run */
        }
        if (b->positions == budget)
            break;
        long before = pv(&s, a.src, space, w, unseen) +
                      (a.dst != a.src ? pv(&s, a.dst, space, w, unseen) : 0) + tops;
        Undo u;
        int turned, added;
        int outcome = apply_action(&s, a, &u, &turned);
        if (outcome == OUT_REVEAL)
            s.c[turned][s.len[turned] - 1] = UNSEEN; /* not seen until played */
        else
            turned = -1;
        long score = parent.worth + w->removed * (now - parent.off) - before +
                     pv(&s, a.src, space, w, unseen) +
                     (a.dst != a.src ? pv(&s, a.dst, space, w, unseen) : 0) +
                     tops_value(&s, w, unseen);
        size_t n = state_pack(&s, b->key);
        long id = store_add(&b->seen, b->key, n, &added);
        if (turned >= 0)
            s.c[turned][s.len[turned] - 1] = FACE_DOWN;
        undo_action(&s, &u);
        if (id < 0)
            return -1;
        if (!added)
            continue;
        b->positions++;
        if (GROW(b->nodes, b->capnodes, b->nnodes + 1, 1024) < 0)
            return -1;
        int32_t node = (int32_t)b->nnodes++;
        b->nodes[node] = (BlindNode){parent.node, a};
        BlindResult *out = b->out;
        if (turned >= 0 && !parent.turned_up &&
            out->reveal_moves + b->depth + 1 <= out->most_reveals) {
            if (reveal_push(&out->reveals, (BlindReveal){score, node, id, turned, now}) < 0)
                return -1;
            out->reveal_moves += b->depth + 1;
        }
        if (entries_push(&b->next, (BlindEntry){id, now, score, node,
                                                parent.turned_up || turned >= 0}) < 0)
            return -1;
        if (score > out->best) {
            out->best = score;
            b->best_node = node;
        }
    }
    return 0;
}

/* The next level: every child, or (a beam) the `width` best, first found first on a tie (a
 * stable sort). 0, or -1 (memory). */
static int blind_keep(BlindRun *b, long width)
{
    if (!width) {
        Entries t = b->level;
        b->level = b->next;
        b->next = t;
        return 0;
    }
    core_free(b->ranked);
    b->ranked = core_malloc((b->next.n ? b->next.n : 1) * sizeof *b->ranked);
    if (!b->ranked)
        return -1;
    for (size_t i = 0; i < b->next.n; i++)
        b->ranked[i] = (Ranked){b->next.v[i].worth, i};
    qsort(b->ranked, b->next.n, sizeof *b->ranked, ranked_cmp);
    size_t keep = b->next.n < (size_t)width ? b->next.n : (size_t)width;
    b->level.n = 0;
    for (size_t i = 0; i < keep; i++)
        if (entries_push(&b->level, b->next.v[b->ranked[i].index]) < 0)
            return -1;
    return 0;
}

int blind_search(const State *start, int removed, long space, int hand, long long budget,
                 int parts, long width, const Weights *w, Stopper *stop, BlindResult *out)
{
    BlindRun b = {0};
    b.space = space;
    b.hand = hand;
    b.parts = parts;
    b.w = w;
    b.budget = budget;
    b.best_node = -1;
    b.out = out;
    b.cards = 13 * removed;
    unseen_ranks(start, removed, b.unseen);
    for (int i = 0; i < PILES; i++)
        b.cards += start->len[i];
    long long most_reveals = out->most_reveals;
    int status = SEARCH_NOMEM, added;
    memset(out, 0, sizeof *out);
    out->most_reveals = most_reveals;
    out->best = blind_value(start, removed, space, w);
    if (store_init(&b.seen) < 0)
        return SEARCH_NOMEM;
    size_t n = state_pack(start, b.key);
    long root = store_add(&b.seen, b.key, n, &added);
    if (root < 0 || entries_push(&b.level, (BlindEntry){root, removed, out->best, -1, 0}) < 0)
        goto fail;
    while (b.level.n && b.positions < budget) {
        b.next.n = 0;
        for (size_t e = 0; e < b.level.n && b.positions < budget; e++) {
            if ((e & 63) == 0 && (status = stopper_check(stop)) != 0)
                goto fail;
            status = SEARCH_NOMEM;
            if (blind_expand(&b, b.level.v[e]) < 0)
                goto fail;
        }
        if (blind_keep(&b, width) < 0)
            goto fail;
        b.depth++;
    }
    out->positions = b.positions;
    /* The best line and each reveal's line are read back from the nodes. */
    out->nodes = b.nodes;
    out->nnodes = b.nnodes;
    out->best_node = b.best_node;
    out->store = b.seen;
    core_free(b.level.v);
    core_free(b.next.v);
    core_free(b.ranked);
    return SEARCH_FOUND;
fail:
    store_free(&b.seen);
    core_free(b.level.v);
    core_free(b.next.v);
    core_free(b.ranked);
    core_free(b.nodes);
    core_free(out->reveals.v);
    out->reveals.v = NULL;
    return status;
}

int blind_line(const BlindResult *r, int32_t node, Line *line)
{
    size_t n = 0;
    for (int32_t k = node; k >= 0; k = r->nodes[k].parent)
        n++;
    line->n = n;
    line->v = core_malloc((n ? n : 1) * sizeof *line->v);
    if (!line->v)
        return -1;
    for (int32_t k = node; k >= 0; k = r->nodes[k].parent)
        line->v[--n] = r->nodes[k].action;
    return 0;
}

void blind_free(BlindResult *r)
{
    store_free(&r->store);
    core_free(r->nodes);
    core_free(r->reveals.v);
    memset(r, 0, sizeof *r);
}
