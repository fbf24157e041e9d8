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
    if (es->n == es->cap) {
        size_t cap = es->cap ? es->cap * 2 : 256;
        BlindEntry *v = realloc(es->v, cap * sizeof *v);
        if (!v)
            return -1;
        es->v = v;
        es->cap = cap;
    }
    es->v[es->n++] = e;
    return 0;
}

static int reveal_push(BlindReveals *rs, BlindReveal r)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 64;
        BlindReveal *v = realloc(rs->v, cap * sizeof *v);
        if (!v)
            return -1;
        rs->v = v;
        rs->cap = cap;
    }
    rs->v[rs->n++] = r;
    return 0;
}

static long pv(const State *s, int i, long space, const Weights *w)
{
    return s->len[i] ? pile_value(s->c[i], s->len[i], w) : space;
}

long blind_value(const State *s, int removed, long space, const Weights *w)
{
    long total = w->removed * removed;
    for (int i = 0; i < PILES; i++)
        total += pv(s, i, space, w);
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

int blind_search(const State *start, int removed, long space, int hand, long long budget,
                 int parts, long width, const Weights *w, Stopper *stop, BlindResult *out)
{
    Store seen;
    Entries level = {0}, next = {0};
    BlindNode *nodes = NULL;
    size_t nnodes = 0, capnodes = 0;
    Ranked *ranked = NULL;
    uint8_t key[PACKED_MAX];
    Action acts[MAX_ACTIONS];
    int status = SEARCH_NONE;
    int cards = 13 * removed;
    for (int i = 0; i < PILES; i++)
        cards += start->len[i];

    int want_reveals = out->want_reveals;
    memset(out, 0, sizeof *out);
    out->want_reveals = want_reveals;
    out->best = blind_value(start, removed, space, w);
    int32_t best_node = -1;
    if (store_init(&seen) < 0)
        return SEARCH_NOMEM;
    int added;
    size_t n = state_pack(start, key);
    long root = store_add(&seen, key, n, &added);
    if (root < 0 || entries_push(&level, (BlindEntry){root, removed, out->best, -1, 0}) < 0)
        goto nomem;
    long long positions = 0;
    while (level.n && positions < budget) {
        next.n = 0;
        for (size_t e = 0; e < level.n && positions < budget; e++) {
            if ((e & 63) == 0 && (status = stopper_check(stop)) != 0)
                goto fail;
            BlindEntry parent = level.v[e];
            State s;
            size_t kn;
            state_unpack(&s, store_key(&seen, (size_t)parent.id, &kn));
            int spaces[1], nspaces = 0;
            int runs[PILES];
            for (int i = 0; i < PILES; i++) {
                runs[i] = run_length(s.c[i], s.len[i]);
                if (!s.len[i] && !nspaces)
                    spaces[nspaces++] = i;
            }
            int na = gen_actions_runs(&s, runs, spaces, nspaces, 0, acts);
            for (int j = 0; j < na; j++) {
                Action a = acts[j];
                int now = parent.off;
                if (a.kind == ACT_REMOVE) {
                    if (hand && cards - 13 * (parent.off + 1) < PILES)
                        continue; /* a row could never be dealt again */
                    now = parent.off + 1;
                } else if (!(parts || s.len[a.dst]) && a.count < runs[a.src]) {
                    continue; /* into a space goes a whole run */
                }
                if (positions == budget)
                    break;
                long before = pv(&s, a.src, space, w) + (a.dst != a.src ? pv(&s, a.dst, space, w) : 0);
                Undo u;
                int turned;
                int outcome = apply_action(&s, a, &u, &turned);
                if (outcome == OUT_REVEAL)
                    s.c[turned][s.len[turned] - 1] = UNSEEN; /* not seen until played */
                else
                    turned = -1;
                long score = parent.worth + w->removed * (now - parent.off) - before +
                             pv(&s, a.src, space, w) + (a.dst != a.src ? pv(&s, a.dst, space, w) : 0);
                n = state_pack(&s, key);
                long id = store_add(&seen, key, n, &added);
                if (turned >= 0)
                    s.c[turned][s.len[turned] - 1] = FACE_DOWN;
                undo_action(&s, &u);
                if (id < 0)
                    goto nomem;
                if (!added)
                    continue;
                positions++;
                if (nnodes == capnodes) {
                    size_t cap = capnodes ? capnodes * 2 : 1024;
                    BlindNode *v = realloc(nodes, cap * sizeof *v);
                    if (!v)
                        goto nomem;
                    nodes = v;
                    capnodes = cap;
                }
                int32_t node = (int32_t)nnodes++;
                nodes[node] = (BlindNode){parent.node, a};
                if (turned >= 0 && !parent.turned_up && out->want_reveals &&
                    reveal_push(&out->reveals, (BlindReveal){score, node, id, turned, now}) < 0)
                    goto nomem;
                if (entries_push(&next, (BlindEntry){id, now, score, node,
                                                     parent.turned_up || turned >= 0}) < 0)
                    goto nomem;
                if (score > out->best) {
                    out->best = score;
                    best_node = node;
                }
            }
        }
        if (width) { /* the `width` best, first found first on a tie (a stable sort) */
            free(ranked);
            ranked = malloc((next.n ? next.n : 1) * sizeof *ranked);
            if (!ranked)
                goto nomem;
            for (size_t i = 0; i < next.n; i++)
                ranked[i] = (Ranked){next.v[i].worth, i};
            qsort(ranked, next.n, sizeof *ranked, ranked_cmp);
            size_t keep = next.n < (size_t)width ? next.n : (size_t)width;
            level.n = 0;
            for (size_t i = 0; i < keep; i++)
                if (entries_push(&level, next.v[ranked[i].index]) < 0)
                    goto nomem;
        } else {
            Entries t = level;
            level = next;
            next = t;
        }
    }
    out->positions = positions;
    status = SEARCH_FOUND;
    /* The best line and each reveal's line are read back from the nodes. */
    out->nodes = nodes;
    out->nnodes = nnodes;
    out->best_node = best_node;
    out->store = seen;
    nodes = NULL;
    free(level.v);
    free(next.v);
    free(ranked);
    return status;
nomem:
    status = SEARCH_NOMEM;
fail:
    store_free(&seen);
    free(level.v);
    free(next.v);
    free(ranked);
    free(nodes);
    free(out->reveals.v);
    out->reveals.v = NULL;
    return status;
}

int blind_line(const BlindResult *r, int32_t node, Line *line)
{
    size_t n = 0;
    for (int32_t k = node; k >= 0; k = r->nodes[k].parent)
        n++;
    line->n = n;
    line->v = malloc((n ? n : 1) * sizeof *line->v);
    if (!line->v)
        return -1;
    for (int32_t k = node; k >= 0; k = r->nodes[k].parent)
        line->v[--n] = r->nodes[k].action;
    return 0;
}

void blind_free(BlindResult *r)
{
    store_free(&r->store);
    free(r->nodes);
    free(r->reveals.v);
    memset(r, 0, sizeof *r);
}
