/* The goal searches of `solve`: goalsearch.astar with Search.expand, met, advance, estimate,
 * canonical and space_macros, step for step.
 *
 * A key is (canonical piles, rows dealt, removal progress). Progress is the step of the goal
 * reached and how many of each suit that step still needs: the same as Python's (step,
 * remaining) tuple, since removing a suit takes its first copy off the tuple. Every position
 * examined is kept (the parents map), as a packed key in the store, with its parent and the
 * step that reached it. Weighted A* pops the least (f, count) from a binary heap; breadth-
 * first keeps a queue; a beam expands a layer at a time and keeps the `width` least (f,
 * count) of the next; all check the goal as positions are generated. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "search.h"

typedef struct {
    int step;
    int8_t need[4]; /* of each suit, how many the current step still needs */
} Progress;

typedef struct {
    int32_t parent; /* -1: the root */
    Step step;
} Link;

typedef struct {
    long long f, count;
    int depth;
    int32_t id;
} HeapItem;

/* ---- the goal ---- */

static int spaces_of(const State *s)
{
    int n = 0;
    for (int i = 0; i < PILES; i++)
        n += !s->len[i];
    return n;
}

static int is_complete_pile(const uint8_t *p, int n)
{
    if (n % 13)
        return 0;
    for (int k = 0; k < n; k += 13)
        if (!completes_suit(p, k + 13))
            return 0;
    return 1;
}

static int step_has(const GoalSpec *g, int step, int suit)
{
    for (int i = 0; i < g->step_len[step]; i++)
        if (g->steps[step][i] == suit)
            return 1;
    return 0;
}

static void progress_at(const GoalSpec *g, int step, Progress *p)
{
    memset(p, 0, sizeof *p);
    p->step = step;
    if (step < g->nsteps)
        for (int i = 0; i < g->step_len[step]; i++)
            p->need[g->steps[step][i]]++;
}

/* Search.advance: 0 when the removal is not allowed. */
static int advance(const GoalSpec *g, Progress *p, int suit)
{
    if (p->step < g->nsteps) {
        if (p->need[suit]) {
            p->need[suit]--;
            if (p->need[0] || p->need[1] || p->need[2] || p->need[3])
                return 1;
            progress_at(g, p->step + 1, p);
            return 1;
        }
        for (int later = p->step + 1; later < g->nsteps; later++)
            if (step_has(g, later, suit))
                return 0; /* out of order */
    }
    return !(g->forbidden >> suit & 1);
}

/* Search.met */
static int met(const GoalSpec *g, const State *s, const Progress *p, int turned, int revealed)
{
    int hit;
    if (g->kind == GOAL_TURN_UP) {
        int target = g->fixed ? 0 : g->pile;
        hit = turned >= 0 && (g->pile < 0 || turned == target);
    } else if (revealed) {
        return 0;
    } else if (g->kind == GOAL_SPACE) {
        int slot = g->fixed ? 0 : g->pile;
        hit = spaces_of(s) > g->root_spaces && (g->pile < 0 || !s->len[slot]);
    } else if (g->kind == GOAL_REMOVE) {
        hit = p->step >= (g->done_at && g->done_at < g->nsteps ? g->done_at : g->nsteps);
    } else if (g->kind == GOAL_FREE) {
        hit = 0;
        for (int i = 0; i < PILES && !hit; i++)
            hit = s->len[i] && s->c[i][s->len[i] - 1] == g->card;
    } else {
        hit = 1;
        for (int i = 0; i < PILES && hit; i++)
            hit = is_complete_pile(s->c[i], s->len[i]);
    }
    return hit && spaces_of(s) >= g->keep_spaces;
}

/* compact.blocks: the same-suit runs of a pile's face-up part */
static int blocks(const uint8_t *p, int n)
{
    if (!n)
        return 0;
    int chaos = 1, down = p[0] >= FACE_DOWN;
    for (int k = 1; k < n; k++) {
        if (p[k - 1] != p[k] + 1)
            chaos++;
        down += p[k] >= FACE_DOWN;
    }
    return chaos - down;
}

/* compact.suit_covers of one pile: for each rank of the suit, the fewest cards on a copy
 * (not counting the run of its own suit below it); 99 when the pile has none. */
static void suit_covers(const uint8_t *p, int n, int suit, int8_t *covers)
{
    for (int r = 0; r < 14; r++)
        covers[r] = 99;
    int end = n - 1;
    for (int i = n - 1; i >= 0; i--) {
        int c = p[i];
        if (i < n - 1 && !(c < FACE_DOWN && c == p[i + 1] + 1))
            end = i;
        int code = c >= FACE_DOWN ? c - FACE_DOWN : c;
        if (code && code >> 4 == suit) {
            int cover = n - 1 - end + (c >= FACE_DOWN);
            if (cover < covers[code & 15])
                covers[code & 15] = (int8_t)cover;
        }
    }
}

/* How many times the goal's steps after the current one remove `suit`. */
static int later_need(const GoalSpec *g, const Progress *p, int suit)
{
    int n = 0;
    for (int later = p->step + 1; later < g->nsteps; later++)
        for (int j = 0; j < g->step_len[later]; j++)
            n += g->steps[later][j] == suit;
    return n;
}

/* What the estimate needs of each pile of a position being expanded, so that a child
 * recomputes only the piles its step touched. */
typedef struct {
    PileInfo info[PILES];
    int blocks[PILES];
    int8_t covers[4][PILES][14];
    int have[4]; /* covers[suit] is filled */
} PileCache;

static void cache_fill(const GoalSpec *g, const State *s, const Progress *p, PileCache *pc)
{
    for (int i = 0; i < PILES; i++) {
        pile_info(s->c[i], s->len[i], &pc->info[i]);
        pc->blocks[i] = blocks(s->c[i], s->len[i]);
    }
    for (int suit = 0; suit < 4; suit++) {
        pc->have[suit] = g->kind == GOAL_REMOVE && (p->need[suit] || later_need(g, p, suit));
        for (int i = 0; pc->have[suit] && i < PILES; i++)
            suit_covers(s->c[i], s->len[i], suit, pc->covers[suit][i]);
    }
}

/* Search.estimate of a child of the cached position: `touched` has a bit for each pile its
 * step changed. */
static long estimate(const GoalSpec *g, const State *s, const Progress *p, const PileCache *pc,
                     int touched)
{
    long total = 0;
    int blk[PILES];
    if (g->kind == GOAL_SPACE || g->kind == GOAL_TURN_UP)
        for (int i = 0; i < PILES; i++)
            blk[i] = touched >> i & 1 ? blocks(s->c[i], s->len[i]) : pc->blocks[i];
    if (g->kind == GOAL_REMOVE) {
        for (int suit = 0; suit < 4; suit++) {
            int need = p->need[suit], later = later_need(g, p, suit);
            if (!need && !later)
                continue;
            int best[14];
            for (int r = 0; r < 14; r++)
                best[r] = 99;
            for (int i = 0; i < PILES; i++) {
                int8_t fresh[14];
                const int8_t *covers = pc->covers[suit][i];
                if (!pc->have[suit] || touched >> i & 1) {
                    suit_covers(s->c[i], s->len[i], suit, fresh);
                    covers = fresh;
                }
                /* A King in a pile no suit may be removed from cannot head the removal. */
                int ranks = g->keep_suits_in_pinned && i < g->fixed ? 13 : 14;
                for (int r = 0; r < ranks; r++)
                    if (covers[r] < best[r])
                        best[r] = covers[r];
            }
            long sum = 0;
            for (int r = 0; r < 14; r++)
                sum += best[r];
            total += (sum - 99) * (need + later) + 100L * later;
        }
    } else if (g->kind == GOAL_SPACE && g->pile >= 0) {
        total = blk[g->fixed ? 0 : g->pile];
    } else if (g->kind == GOAL_SPACE) { /* the least over the piles, 20 when none */
        long least = -1;
        for (int i = 0; i < PILES; i++)
            if (s->len[i] && s->c[i][0] < FACE_DOWN && (least < 0 || blk[i] < least))
                least = blk[i];
        total = least < 0 ? 20 : least;
    } else if (g->kind == GOAL_TURN_UP) {
        long least = -1;
        int last = g->fixed ? 1 : PILES;
        for (int i = 0; i < last; i++)
            if (s->len[i] && s->c[i][0] >= FACE_DOWN && (least < 0 || blk[i] < least))
                least = blk[i];
        total = least < 0 ? 20 : least;
    } else if (g->kind == GOAL_FREE) {
        long least = -1;
        for (int i = 0; i < PILES; i++)
            for (int k = s->len[i] - 1; k >= 0; k--)
                if (s->c[i][k] == g->card) {
                    long covers = s->len[i] - 1 - k;
                    if (least < 0 || covers < least)
                        least = covers;
                    break;
                }
        total = least < 0 ? 20 : least;
    }
    if (g->chaos_weight) {
        PileInfo info[PILES];
        for (int i = 0; i < PILES; i++) {
            if (touched >> i & 1)
                pile_info(s->c[i], s->len[i], &info[i]);
            else
                info[i] = pc->info[i];
        }
        long chaos, negready;
        rank_from_info(info, 0, &chaos, &negready);
        total += g->chaos_weight * chaos;
    }
    return total;
}

/* ---- keys ---- */

static int pile_cmp(const uint8_t *a, int na, const uint8_t *b, int nb)
{
    if (na && nb && a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    int m = na < nb ? na : nb;
    int c = memcmp(a, b, (size_t)m);
    if (c)
        return c;
    return na < nb ? -1 : na > nb;
}

/* A pile's first eight bytes as a number that orders as the bytes do (no card byte is 0,
 * so a shorter pile padded with zeros orders first, as Python orders bytes). */
static uint64_t prefix(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v = v << 8 | (k < n ? p[k] : 0);
    return v;
}

/* Search.canonical: the pinned piles first, the others sorted (as Python sorts bytes). */
static size_t pack_key(const GoalSpec *g, const State *s, int dealt, const Progress *p,
                       uint8_t *out)
{
    int order[PILES];
    for (int i = 0; i < PILES; i++)
        order[i] = i;
    if (g->sorted_mode) {
        uint64_t pre[PILES];
        for (int i = g->fixed; i < PILES; i++)
            pre[i] = prefix(s->c[i], s->len[i]);
        for (int i = g->fixed + 1; i < PILES; i++) { /* insertion sort: ten piles */
            int v = order[i], j = i - 1;
            while (j >= g->fixed) {
                int o = order[j];
                int later = pre[o] != pre[v] ? pre[o] > pre[v]
                                             : pile_cmp(s->c[o], s->len[o], s->c[v], s->len[v]) > 0;
                if (!later)
                    break;
                order[j + 1] = o;
                j--;
            }
            order[j + 1] = v;
        }
    }
    size_t n = 0;
    for (int i = 0; i < PILES; i++) {
        int k = order[i];
        out[n++] = s->len[k];
        memcpy(out + n, s->c[k], s->len[k]);
        n += s->len[k];
    }
    out[n++] = (uint8_t)dealt;
    out[n++] = (uint8_t)p->step;
    for (int suit = 0; suit < 4; suit++)
        out[n++] = (uint8_t)p->need[suit];
    return n;
}

static void unpack_key(const uint8_t *in, size_t n, State *s, int *dealt, Progress *p)
{
    state_unpack(s, in);
    *dealt = in[n - 6];
    p->step = in[n - 5];
    for (int suit = 0; suit < 4; suit++)
        p->need[suit] = (int8_t)in[n - 4 + suit];
}

/* ---- the steps from a position ---- */

typedef struct {
    Step *v;
    size_t n, cap;
} Steps;

static int steps_push(Steps *ss, const Action *a, int n)
{
    if (GROW(ss->v, ss->cap, ss->n + 1, 256) < 0)
        return -1;
    Step *st = &ss->v[ss->n++];
    st->n = (int8_t)n;
    for (int i = 0; i < n; i++)
        st->a[i] = a[i];
    return 0;
}

/* compact.onto_cards */
static int onto_cards(const State *s, int src, const int *dsts, int ndst, Action *out)
{
    int n = s->len[src], k = 0;
    if (!n)
        return 0;
    int length = run_length(s->c[src], n);
    int low = s->c[src][n - 1] & 15;
    for (int j = 0; j < ndst; j++) {
        int dst = dsts[j], qn = s->len[dst];
        if (qn) {
            int m = (s->c[dst][qn - 1] & 15) - low;
            if (m > 0 && m <= length)
                out[k++] = (Action){ACT_MOVE, (int8_t)src, (int8_t)dst, (int8_t)m};
        }
    }
    return k;
}

/* goalsearch.space_macros (on a copy of the position, moves made and taken back in place) */
static int space_macros(const State *piles, int space, Steps *out)
{
    State work = *piles;
    for (int x = 0; x < PILES; x++) {
        int n = piles->len[x];
        if (!n || x == space)
            continue;
        int length = run_length(piles->c[x], n);
        int top = length < n - 1 ? length : n - 1;
        for (int m = 1; m <= top; m++) {
            if (piles->c[x][n - m - 1] == FACE_DOWN)
                continue;
            Action park = {ACT_MOVE, (int8_t)x, (int8_t)space, (int8_t)m};
            Undo u;
            int turned;
            apply_action(&work, park, &u, &turned);
            Action uses[PILES * 3];
            int nu = 0, dsts[PILES], nd = 0;
            for (int d = 0; d < PILES; d++)
                if (d != x)
                    dsts[nd++] = d;
            nu += onto_cards(&work, x, dsts, nd, uses + nu);
            int two[2] = {x, space};
            for (int src = 0; src < PILES; src++)
                if (src != x && src != space)
                    nu += onto_cards(&work, src, two, 2, uses + nu);
            for (int j = 0; j < nu; j++) {
                Undo u2;
                int t2;
                if (apply_action(&work, uses[j], &u2, &t2) == OUT_REVEAL) {
                    undo_action(&work, &u2);
                    continue;
                }
                int full = 1, failed = 0;
                for (int i = 0; i < PILES; i++)
                    full &= work.len[i] != 0;
                Action step[3] = {park, uses[j], {0, 0, 0, 0}};
                if (!full) {
                    failed = steps_push(out, step, 2) < 0;
                } else {
                    for (int y = 0; y < PILES && !failed; y++) {
                        int qn = work.len[y];
                        if (run_length(work.c[y], qn) != qn)
                            continue;
                        int need = (work.c[y][0] & 15) + 1;
                        for (int z = 0; z < PILES && !failed; z++) {
                            int tn = work.len[z];
                            if (z != y && tn && (work.c[z][tn - 1] & 15) == need) {
                                step[2] = (Action){ACT_MOVE, (int8_t)y, (int8_t)z, (int8_t)qn};
                                failed = steps_push(out, step, 3) < 0;
                            }
                        }
                    }
                }
                undo_action(&work, &u2);
                if (failed)
                    return -1;
            }
            undo_action(&work, &u);
        }
    }
    return 0;
}

/* Under autoremove, the removals of the complete suits at the piles' bottoms: the only steps
 * from a position that has one (how many were pushed, or -1). */
static int ready_removals(const GoalSpec *g, const State *s, Steps *out)
{
    int n = 0;
    for (int i = 0; g->autoremove && i < PILES; i++) {
        if (completes_suit(s->c[i], s->len[i])) {
            Action a = {ACT_REMOVE, (int8_t)i, (int8_t)i, 13};
            if (steps_push(out, &a, 1) < 0)
                return -1;
            n++;
        }
    }
    return n;
}

/* Search.expand's list of steps (before they are played): how many are removals that autoremove
 * makes before anything else (then they are the only steps, and no deal follows), or -1. */
static int gen_steps(const GoalSpec *g, const State *s, int macros, int into_spaces, Steps *out)
{
    int ready = ready_removals(g, s, out);
    if (ready)
        return ready;
    int spaces[PILES], nspaces = 0;
    for (int i = 0; i < PILES; i++)
        if (!s->len[i])
            spaces[nspaces++] = i;
    int open[PILES], nopen = into_spaces ? nspaces : (nspaces ? nspaces - 1 : 0);
    memcpy(open, spaces, sizeof open);
    int named_space = g->kind == GOAL_SPACE && g->pile >= 0;
    if (g->sorted_mode && named_space) {
        int pinned = -1, other = -1;
        for (int i = 0; i < nopen; i++) {
            if (open[i] < g->fixed && pinned < 0)
                pinned = open[i];
            if (open[i] >= g->fixed && other < 0)
                other = open[i];
        }
        nopen = 0;
        if (pinned >= 0)
            open[nopen++] = pinned;
        if (other >= 0)
            open[nopen++] = other;
    } else if (g->sorted_mode && nopen > 1) {
        nopen = 1;
    }
    int whole = !g->sorted_mode || named_space;
    Action acts[MAX_ACTIONS];
    int na = gen_actions(s, open, nopen, whole, acts);
    for (int j = 0; j < na; j++)
        if (steps_push(out, &acts[j], 1) < 0)
            return -1;
    if (nspaces && !into_spaces && g->kind == GOAL_TURN_UP) {
        na = gen_actions(s, spaces, 1, 0, acts);
        for (int j = 0; j < na; j++) {
            Action a = acts[j];
            int n = s->len[a.src];
            if (a.kind == ACT_MOVE && !s->len[a.dst] && n > a.count &&
                s->c[a.src][n - a.count - 1] >= FACE_DOWN && steps_push(out, &a, 1) < 0)
                return -1;
        }
    }
    if (macros && nspaces && space_macros(s, spaces[0], out) < 0)
        return -1;
    return 0;
}

/* ---- the search ---- */

static int heap_less(const HeapItem *a, const HeapItem *b)
{
    return a->f < b->f || (a->f == b->f && a->count < b->count);
}

typedef struct {
    HeapItem *v;
    size_t n, cap;
} Heap;

static int heap_push(Heap *h, HeapItem item)
{
    if (GROW(h->v, h->cap, h->n + 1, 1024) < 0)
        return -1;
    size_t i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!heap_less(&item, &h->v[parent]))
            break;
        h->v[i] = h->v[parent];
        i = parent;
    }
    h->v[i] = item;
    return 0;
}

static HeapItem heap_pop(Heap *h)
{
    HeapItem top = h->v[0];
    HeapItem last = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const HeapItem *best = &last;
        if (l < h->n && heap_less(&h->v[l], best)) {
            m = l;
            best = &h->v[l];
        }
        if (r < h->n && heap_less(&h->v[r], best))
            m = r;
        if (m == i)
            break;
        h->v[i] = h->v[m];
        i = m;
    }
    if (h->n)
        h->v[i] = last;
    return top;
}

/* The steps from the root to `id` (then `last`, if it has actions), as a Path. */
static int path_to(const Link *links, int32_t id, const Step *last, GoalResult *out)
{
    size_t n = 0;
    for (int32_t k = id; links[k].parent >= 0; k = links[k].parent)
        n++;
    size_t total = n + (last ? 1 : 0);
    out->steps = core_malloc((total ? total : 1) * sizeof *out->steps);
    if (!out->steps)
        return -1;
    out->nsteps = total;
    if (last)
        out->steps[n] = *last;
    for (int32_t k = id; links[k].parent >= 0; k = links[k].parent)
        out->steps[--n] = links[k].step;
    return 0;
}

/* A goal search under way: what its steps (expand, commit, stop) share. */
typedef struct {
    const GoalSpec *g;
    int macros, into_spaces, ordered;
    long weight;
    size_t width;          /* a beam of this width (ordered); 0: A* or breadth-first */
    HeapItem *next;        /* the beam's next layer, as generated */
    size_t nnext, capnext;
    Store parents;         /* every position seen, by id */
    Link *links;           /* each id's parent and step */
    size_t nlinks, caplinks;
    Heap heap;             /* ordered: the frontier by f */
    HeapItem *queue;       /* breadth-first: a FIFO (head..tail) */
    size_t qhead, qtail, qcap;
    Steps steps;
    long long count;       /* children pushed */
    uint8_t key[PACKED_MAX + 8];
    PileCache cache;
    GoalResult *out;
} GoalRun;

/* A child a step reached: its packed key, whether it meets the goal, its estimate. */
typedef struct {
    size_t n;
    int met;
    long guess;
} Child;

static int frontier_push(GoalRun *r, HeapItem item)
{
    if (r->width) {
        if (GROW(r->next, r->capnext, r->nnext + 1, 1024) < 0)
            return -1;
        r->next[r->nnext++] = item;
        return 0;
    }
    if (r->ordered)
        return heap_push(&r->heap, item);
    if (r->qtail == r->qcap && r->qhead > r->qcap / 2) { /* reuse the consumed front */
        memmove(r->queue, r->queue + r->qhead, (r->qtail - r->qhead) * sizeof *r->queue);
        r->qtail -= r->qhead;
        r->qhead = 0;
    } else if (GROW(r->queue, r->qcap, r->qtail + 1, 1024) < 0) {
        return -1;
    }
    r->queue[r->qtail++] = item;
    return 0;
}

static int item_order(const void *a, const void *b)
{
    return heap_less(a, b) ? -1 : heap_less(b, a);
}

/* A beam's layer is done: the least `width` of the next become the queue. -1: no memory. */
static int next_layer(GoalRun *r)
{
    size_t keep = r->nnext < r->width ? r->nnext : r->width;
    qsort(r->next, r->nnext, sizeof *r->next, item_order);
    if (GROW(r->queue, r->qcap, keep, 1024) < 0)
        return -1;
    memcpy(r->queue, r->next, keep * sizeof *r->queue);
    r->qhead = 0;
    r->qtail = keep;
    r->nnext = 0;
    return 0;
}

/* The next position to expand; 0 when none is left, -1 out of memory. */
static int frontier_pop(GoalRun *r, HeapItem *item)
{
    if (r->width && r->qhead == r->qtail && r->nnext && next_layer(r) < 0)
        return -1;
    if (r->ordered && !r->width) {
        if (!r->heap.n)
            return 0;
        *item = heap_pop(&r->heap);
        return 1;
    }
    if (r->qhead == r->qtail)
        return 0;
    *item = r->queue[r->qhead++];
    return 1;
}

/* The line found: to `id`, then `last` (a move that turns up a card the goal wants). */
static int found(GoalRun *r, int32_t id, const Step *last)
{
    if (path_to(r->links, id, last, r->out) < 0)
        return SEARCH_NOMEM;
    r->out->positions = (long long)r->parents.count;
    return SEARCH_FOUND;
}

enum { STEP_CHILD = -1 }; /* (beside the SEARCH_ outcomes) */

/* Play `step` (or, a deal, the next row) on `s` in place and judge the child into *c, then
 * take it back. STEP_CHILD: a child to commit; SEARCH_NONE: none (the step breaks a rule, or
 * the first new space is another pile's); SEARCH_FOUND (written) when a move turns up a card
 * the goal wants; SEARCH_NOMEM. */
static int try_step(GoalRun *r, State *s, const Step *step, const Progress *progress, int dealt,
                    int32_t from, Child *c)
{
    const GoalSpec *g = r->g;
    Undo undo[3];
    int played = 0, turned = -1, ok = 1, child_dealt = dealt;
    int deal = step->a[0].kind == ACT_DEAL;
    Progress child = *progress;
    if (deal) {
        for (int i = 0; i < PILES; i++)
            s->c[i][s->len[i]++] = g->rows[dealt][i];
        child_dealt = dealt + 1;
    }
    for (int a = 0; !deal && a < step->n; a++) {
        Action act = step->a[a];
        int outcome = apply_action(s, act, &undo[played++], &turned);
        if (outcome == OUT_REVEAL) {
            ok = 0;
            if (!g->no_turn_up && met(g, s, &child, turned, 1)) {
                Step shorter = *step;
                shorter.n = (int8_t)(a + 1);
                while (played > 0)
                    undo_action(s, &undo[--played]);
                return found(r, from, &shorter);
            }
            break;
        }
        if ((turned >= 0 && g->no_turn_up) ||
            (outcome > 0 && (!advance(g, &child, outcome - 1) ||
                             (g->keep_suits_in_pinned && act.src < g->fixed))) ||
            (g->no_new_space && spaces_of(s) > g->root_spaces && outcome == 0) ||
            (g->autoremove && a < step->n - 1 && act.kind == ACT_MOVE &&
             completes_suit(s->c[act.dst], s->len[act.dst]))) {
            ok = 0; /* (under autoremove a macro cannot go on past a suit that comes off) */
            break;
        }
    }
    /* What the goal asks of the child reads the same in its canonical order: the pinned
     * piles keep their slots, and the rest is counted over all piles. */
    int skip = !ok;
    c->met = 0;
    c->guess = 0;
    if (ok) {
        c->n = pack_key(g, s, child_dealt, &child, r->key);
        c->met = met(g, s, &child, deal ? -1 : turned, 0);
        skip = !deal && g->kind == GOAL_SPACE && g->pile >= 0 && !c->met &&
               spaces_of(s) > g->root_spaces && s->len[g->fixed ? 0 : g->pile];
        if (!skip && r->ordered) {
            int touched = 0;
            for (int a = 0; a < step->n; a++)
                touched |= step->a[a].kind == ACT_DEAL ? (1 << PILES) - 1
                                                      : 1 << step->a[a].src | 1 << step->a[a].dst;
            c->guess = estimate(g, s, &child, &r->cache, touched);
        }
    }
    if (deal) {
        for (int i = 0; i < PILES; i++)
            s->len[i]--;
    }
    while (played > 0)
        undo_action(s, &undo[--played]);
    return skip ? SEARCH_NONE : STEP_CHILD;
}

/* A new child into the store and the frontier: SEARCH_NONE, SEARCH_FOUND when it meets the
 * goal, or SEARCH_NOMEM. */
static int commit(GoalRun *r, const Child *c, const Step *step, HeapItem from, int depth)
{
    int added;
    long id = store_add(&r->parents, r->key, c->n, &added);
    if (id < 0)
        return SEARCH_NOMEM;
    if (!added)
        return SEARCH_NONE;
    if (GROW(r->links, r->caplinks, r->nlinks + 1, 1024) < 0)
        return SEARCH_NOMEM;
    r->links[r->nlinks++] = (Link){from.id, *step};
    if (c->met)
        return found(r, (int32_t)id, NULL);
    r->count++;
    HeapItem child = {r->ordered ? depth + r->weight * c->guess : 0, r->count, depth, (int32_t)id};
    return frontier_push(r, child) < 0 ? SEARCH_NOMEM : SEARCH_NONE;
}

/* Every step from the position `item`, the deal last: SEARCH_NONE, SEARCH_FOUND or
 * SEARCH_NOMEM. */
static int expand(GoalRun *r, HeapItem item)
{
    const GoalSpec *g = r->g;
    State s;
    int dealt;
    Progress progress;
    size_t kn;
    const uint8_t *k = store_key(&r->parents, (size_t)item.id, &kn);
    unpack_key(k, kn, &s, &dealt, &progress);
    r->steps.n = 0;
    int ready = gen_steps(g, &s, r->macros, r->into_spaces, &r->steps);
    if (ready < 0)
        return SEARCH_NOMEM;
    int deal = !ready && !g->no_deal && dealt < g->nrows && !spaces_of(&s) && g->row_known[dealt];
    if (r->ordered)
        cache_fill(g, &s, &progress, &r->cache);
    Step deal_step = {1, {{ACT_DEAL, 0, 0, 0}}};
    for (size_t j = 0; j < r->steps.n + (size_t)deal; j++) {
        const Step *step = j < r->steps.n ? &r->steps.v[j] : &deal_step;
        Child c;
        int status = try_step(r, &s, step, &progress, dealt, item.id, &c);
        if (status == STEP_CHILD)
            status = commit(r, &c, step, item, item.depth + 1);
        if (status == SEARCH_FOUND || status == SEARCH_NOMEM)
            return status;
    }
    return SEARCH_NONE;
}

/* Past the limit, or told to stop (asked every 64 children): why, else SEARCH_NONE. */
static int stop_at(GoalRun *r, long long limit, Stopper *stop, int depth)
{
    int why = SEARCH_NONE;
    if ((long long)r->parents.count > limit)
        why = SEARCH_LIMIT;
    else if ((r->count & 63) == 0)
        why = stopper_check(stop);
    if (why) {
        r->out->positions = (long long)r->parents.count;
        r->out->depth = r->ordered ? 0 : depth - 1;
    }
    return why;
}

int goal_search(const GoalSpec *g, const State *root, int macros, int into_spaces,
                int ordered, size_t width, long long limit, long weight, Stopper *stop,
                GoalResult *out)
{
    GoalRun r = {0};
    r.g = g;
    r.macros = macros;
    r.into_spaces = into_spaces;
    r.ordered = ordered || width;
    r.width = width;
    r.weight = weight;
    r.out = out;
    memset(out, 0, sizeof *out);
    if (store_init(&r.parents) < 0)
        return SEARCH_NOMEM;
    int status = SEARCH_NOMEM, added;
    Progress root_progress;
    progress_at(g, 0, &root_progress);
    size_t n = pack_key(g, root, 0, &root_progress, r.key);
    if (store_add(&r.parents, r.key, n, &added) < 0 ||
        GROW(r.links, r.caplinks, 1, 1024) < 0)
        goto done;
    r.links[r.nlinks++] = (Link){-1, {0, {{0, 0, 0, 0}}}};
    HeapItem item = {0, 0, 0, 0};
    if (frontier_push(&r, item) < 0)
        goto done;
    int more;
    while ((more = frontier_pop(&r, &item)) > 0) {
        status = expand(&r, item);
        if (status == SEARCH_NONE)
            status = stop_at(&r, limit, stop, item.depth + 1);
        if (status != SEARCH_NONE)
            goto done;
    }
    if (more < 0) {
        status = SEARCH_NOMEM;
        goto done;
    }
    out->positions = (long long)r.parents.count;
    out->exhaustive = !width; /* a beam that runs dry has dropped positions */
    status = SEARCH_NONE;
done:
    out->bytes = store_bytes(&r.parents) + r.caplinks * sizeof *r.links +
                 r.heap.cap * sizeof *r.heap.v + r.qcap * sizeof *r.queue +
                 r.capnext * sizeof *r.next;
    store_free(&r.parents);
    core_free(r.links);
    core_free(r.heap.v);
    core_free(r.queue);
    core_free(r.next);
    core_free(r.steps.v);
    if (status == SEARCH_NOMEM || status == SEARCH_ERROR) {
        core_free(out->steps);
        out->steps = NULL;
    }
    return status;
}
