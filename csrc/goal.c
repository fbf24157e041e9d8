/* The goal searches of `solve`: goalsearch.astar with Search.expand, met, advance, estimate,
 * canonical and space_macros, step for step.
 *
 * A key is (canonical piles, rows dealt, removal progress). Progress is the step of the goal
 * reached and how many of each suit that step still needs: the same as Python's (step,
 * remaining) tuple, since removing a suit takes its first copy off the tuple. Every position
 * examined is kept (the parents map), as a packed key in the store, with its parent and the
 * step that reached it. Weighted A* pops the least (f, count) from a binary heap; breadth-
 * first keeps a queue; both check the goal as positions are generated. */
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
        hit = p->step >= g->nsteps;
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
        pc->have[suit] = g->kind == GOAL_REMOVE && p->need[suit];
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
            if (!p->need[suit])
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
                for (int r = 0; r < 14; r++)
                    if (covers[r] < best[r])
                        best[r] = covers[r];
            }
            long sum = 0;
            for (int r = 0; r < 14; r++)
                sum += best[r];
            total += (sum - 99) * p->need[suit];
        }
        for (int later = p->step + 1; later < g->nsteps; later++)
            total += 100L * g->step_len[later];
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
    if (ss->n == ss->cap) {
        size_t cap = ss->cap ? ss->cap * 2 : 256;
        Step *v = realloc(ss->v, cap * sizeof *v);
        if (!v)
            return -1;
        ss->v = v;
        ss->cap = cap;
    }
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

/* Search.expand's list of steps (before they are played). */
static int gen_steps(const GoalSpec *g, const State *s, int macros, int into_spaces, Steps *out)
{
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
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 1024;
        HeapItem *v = realloc(h->v, cap * sizeof *v);
        if (!v)
            return -1;
        h->v = v;
        h->cap = cap;
    }
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
    out->steps = malloc((total ? total : 1) * sizeof *out->steps);
    if (!out->steps)
        return -1;
    out->nsteps = total;
    if (last)
        out->steps[n] = *last;
    for (int32_t k = id; links[k].parent >= 0; k = links[k].parent)
        out->steps[--n] = links[k].step;
    return 0;
}

int goal_search(const GoalSpec *g, const State *root, int macros, int into_spaces,
                int ordered, long long limit, long weight, Stopper *stop, GoalResult *out)
{
    Store parents;
    Link *links = NULL;
    size_t nlinks = 0, caplinks = 0;
    Heap heap = {0};
    HeapItem *queue = NULL; /* breadth-first: a FIFO (head..tail) */
    size_t qhead = 0, qtail = 0, qcap = 0;
    Steps steps = {0};
    uint8_t key[PACKED_MAX + 8];
    int status = SEARCH_NONE;
    long long count = 0;
    Progress root_progress;
    progress_at(g, 0, &root_progress);
    PileCache cache;

    memset(out, 0, sizeof *out);
    if (store_init(&parents) < 0)
        return SEARCH_NOMEM;
    int added;
    size_t n = pack_key(g, root, 0, &root_progress, key);
    if (store_add(&parents, key, n, &added) < 0)
        goto nomem;
    links = malloc(1024 * sizeof *links);
    if (!links)
        goto nomem;
    caplinks = 1024;
    links[nlinks++] = (Link){-1, {0, {{0, 0, 0, 0}}}};
    HeapItem first = {0, 0, 0, 0};
    if (ordered) {
        if (heap_push(&heap, first) < 0)
            goto nomem;
    } else {
        queue = malloc(1024 * sizeof *queue);
        if (!queue)
            goto nomem;
        qcap = 1024;
        queue[qtail++] = first;
    }
    for (;;) {
        HeapItem item;
        if (ordered) {
            if (!heap.n)
                break;
            item = heap_pop(&heap);
        } else {
            if (qhead == qtail)
                break;
            item = queue[qhead++];
        }
        int depth = item.depth + 1;
        State s;
        int dealt;
        Progress progress;
        size_t kn;
        const uint8_t *k = store_key(&parents, (size_t)item.id, &kn);
        unpack_key(k, kn, &s, &dealt, &progress);
        steps.n = 0;
        if (gen_steps(g, &s, macros, into_spaces, &steps) < 0)
            goto nomem;
        int nspaces = spaces_of(&s);
        if (ordered)
            cache_fill(g, &s, &progress, &cache);
        for (size_t j = 0; j <= steps.n; j++) {
            /* The step is played in place on the position and taken back at once. */
            State *cur = &s;
            Undo undo[3];
            int played = 0;
            Progress child_progress = progress;
            int turned = -1, ok = 1, child_dealt = dealt;
            Step step;
            if (j == steps.n) { /* the deal, last */
                if (g->no_deal || dealt >= g->nrows || nspaces || !g->row_known[dealt])
                    break;
                for (int i = 0; i < PILES; i++)
                    cur->c[i][cur->len[i]++] = g->rows[dealt][i];
                child_dealt = dealt + 1;
                step.n = 1;
                step.a[0] = (Action){ACT_DEAL, 0, 0, 0};
            } else {
                step = steps.v[j];
                for (int a = 0; a < step.n; a++) {
                    Action act = step.a[a];
                    int outcome = apply_action(cur, act, &undo[played++], &turned);
                    if (outcome == OUT_REVEAL) {
                        ok = 0;
                        if (!g->no_turn_up && met(g, cur, &child_progress, turned, 1)) {
                            Step shorter = step;
                            shorter.n = (int8_t)(a + 1);
                            if (path_to(links, item.id, &shorter, out) < 0)
                                goto nomem;
                            out->positions = (long long)parents.count;
                            status = SEARCH_FOUND;
                            goto done;
                        }
                        break;
                    }
                    if (turned >= 0 && g->no_turn_up) {
                        ok = 0;
                        break;
                    }
                    if (outcome > 0) {
                        if (!advance(g, &child_progress, outcome - 1) ||
                            (g->keep_suits_in_pinned && act.src < g->fixed)) {
                            ok = 0;
                            break;
                        }
                    }
                    if (g->no_new_space && spaces_of(cur) > g->root_spaces && outcome == 0) {
                        ok = 0;
                        break;
                    }
                }
            }
            /* What the goal asks of the child reads the same in its canonical order: the
             * pinned piles keep their slots, and the rest is counted over all piles. */
            int is_met = 0, skip = !ok;
            long guess = 0;
            if (ok) {
                n = pack_key(g, cur, child_dealt, &child_progress, key);
                is_met = met(g, cur, &child_progress, j == steps.n ? -1 : turned, 0);
                skip = j < steps.n && g->kind == GOAL_SPACE && g->pile >= 0 && !is_met &&
                       spaces_of(cur) > g->root_spaces && cur->len[g->fixed ? 0 : g->pile];
                if (!skip && ordered) {
                    int touched = 0;
                    for (int a = 0; a < step.n; a++)
                        touched |= step.a[a].kind == ACT_DEAL
                                       ? (1 << PILES) - 1
                                       : 1 << step.a[a].src | 1 << step.a[a].dst;
                    guess = estimate(g, cur, &child_progress, &cache, touched);
                }
            }
            if (j == steps.n) {
                for (int i = 0; i < PILES; i++)
                    cur->len[i]--;
            } else {
                while (played > 0)
                    undo_action(cur, &undo[--played]);
            }
            if (skip)
                continue; /* not a step, or the first new space is another pile's */
            long id = store_add(&parents, key, n, &added);
            if (id < 0)
                goto nomem;
            if (!added)
                continue;
            if (nlinks == caplinks) {
                size_t cap = caplinks * 2;
                Link *v = realloc(links, cap * sizeof *v);
                if (!v)
                    goto nomem;
                links = v;
                caplinks = cap;
            }
            links[nlinks++] = (Link){item.id, step};
            if (is_met) {
                if (path_to(links, (int32_t)id, NULL, out) < 0)
                    goto nomem;
                out->positions = (long long)parents.count;
                status = SEARCH_FOUND;
                goto done;
            }
            count++;
            HeapItem child = {0, count, depth, (int32_t)id};
            if (ordered) {
                child.f = depth + weight * guess;
                if (heap_push(&heap, child) < 0)
                    goto nomem;
            } else {
                if (qtail == qcap) {
                    if (qhead > qcap / 2) { /* reuse the consumed front */
                        memmove(queue, queue + qhead, (qtail - qhead) * sizeof *queue);
                        qtail -= qhead;
                        qhead = 0;
                    } else {
                        size_t cap = qcap * 2;
                        HeapItem *v = realloc(queue, cap * sizeof *v);
                        if (!v)
                            goto nomem;
                        queue = v;
                        qcap = cap;
                    }
                }
                queue[qtail++] = child;
            }
        }
        if ((long long)parents.count > limit) {
            out->positions = (long long)parents.count;
            out->depth = ordered ? 0 : depth - 1;
            status = SEARCH_LIMIT;
            goto done;
        }
        if ((count & 63) == 0) {
            int why = stopper_check(stop);
            if (why) {
                out->positions = (long long)parents.count;
                out->depth = ordered ? 0 : depth - 1;
                status = why;
                goto done;
            }
        }
    }
    out->positions = (long long)parents.count;
    out->exhaustive = 1;
    status = SEARCH_NONE;
    goto done;
nomem:
    status = SEARCH_NOMEM;
done:
    out->bytes = store_bytes(&parents) + caplinks * sizeof *links + heap.cap * sizeof *heap.v +
                 qcap * sizeof *queue;
    store_free(&parents);
    free(links);
    free(heap.v);
    free(queue);
    free(steps.v);
    if (status == SEARCH_NOMEM || status == SEARCH_ERROR) {
        free(out->steps);
        out->steps = NULL;
    }
    return status;
}
