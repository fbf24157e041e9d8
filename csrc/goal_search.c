/* The search of solve's goal searches: goalsearch.astar, step for step.
 *
 * Every position examined is kept (the parents map), as a packed key (goal.c) in the store,
 * with its parent and the step that reached it. Weighted A* pops the least (f, count) from a
 * binary heap; breadth-first keeps a queue; a beam expands a layer at a time and keeps the
 * `width` least (f, count) of the next; all check the goal as positions are generated. */
#include <stdlib.h>
#include <string.h>

#include "goal.h"

typedef struct {
    int32_t parent; /* -1: the root */
    Step step;
} Link;

typedef struct {
    long long f, count;
    int depth;
    int32_t id;
} HeapItem;
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
            if (!g->no_turn_up && goal_met(g, s, &child, turned, 1)) {
                Step shorter = *step;
                shorter.n = (int8_t)(a + 1);
                while (played > 0)
                    undo_action(s, &undo[--played]);
                return found(r, from, &shorter);
            }
            break;
        }
        if ((turned >= 0 && g->no_turn_up) ||
            (outcome > 0 && (!goal_advance(g, &child, outcome - 1) ||
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
        c->n = goal_pack_key(g, s, child_dealt, &child, r->key);
        c->met = goal_met(g, s, &child, deal ? -1 : turned, 0);
        skip = !deal && g->kind == GOAL_SPACE && g->pile >= 0 && !c->met &&
               spaces_of(s) > g->root_spaces && s->len[g->fixed ? 0 : g->pile];
        if (!skip && r->ordered) {
            int touched = 0;
            for (int a = 0; a < step->n; a++)
                touched |= step->a[a].kind == ACT_DEAL ? (1 << PILES) - 1
                                                      : 1 << step->a[a].src | 1 << step->a[a].dst;
            c->guess = goal_estimate(g, s, &child, &r->cache, touched);
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
    goal_unpack_key(k, kn, &s, &dealt, &progress);
    r->steps.n = 0;
    int ready = goal_steps(g, &s, r->macros, r->into_spaces, &r->steps);
    if (ready < 0)
        return SEARCH_NOMEM;
    int deal = !ready && !g->no_deal && dealt < g->nrows && !spaces_of(&s) && g->row_known[dealt];
    if (r->ordered)
        goal_cache_fill(g, &s, &progress, &r->cache);
    Step deal_step = {1, {{ACT_DEAL, 0, 0, 0}}};
    for (size_t j = 0; j < r->steps.n + (size_t)deal; j++) {
        const Step *step = j < r->steps.n ? &r->steps.v[j] : &deal_step;
        Child c = {0};
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
    goal_progress(g, 0, &root_progress);
    size_t n = goal_pack_key(g, root, 0, &root_progress, r.key);
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
