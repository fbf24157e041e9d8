/* The full-information search as the judge of sampled worlds: chance/judge.py, step for step.
 *
 * A commitment is a position from which the next act is irreversible for a player who cannot
 * see the face-down cards: it turns a card up, deals a row or removes a suit. The closure of
 * the moves that turn nothing up is searched breadth-first from the view (the positions
 * deduplicated, a bound on their count), and every act found is one commitment, keyed by the
 * position after it (the first line found, the shortest, kept).
 *
 * The lines are judged on the same worlds (deal_sample: the unseen cards dealt into the
 * face-down places and the hand): the line played, then the full-information beam (beam.c,
 * its widths in turn sharing a cap of positions); a world won within the cap scores 1. A
 * sequential halving spends a count of samples, the player's own line judged on every world
 * and kept unless another beats it on the same worlds. Integers throughout, seeded by the
 * view: the same view gets the same choice on any machine, and the Python path's. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "search.h"

/* ---- the commitments ---- */

/* A commitment found: added once by its act and the position after it. 0, or -1 (memory). */
static int found_add(Commitments *c, int act, int32_t node, Action last, const State *after)
{
    uint8_t key[PACKED_MAX + 1];
    key[0] = (uint8_t)act;
    size_t n = state_pack(after, key + 1) + 1;
    int added;
    long id = store_add(&c->found, key, n, &added);
    if (id < 0)
        return -1;
    if (!added)
        return 0;
    if (GROW(c->v, c->cap, c->n + 1, 64) < 0)
        return -1;
    c->v[c->n++] = (JudgeCommitment){act, node, last, id};
    return 0;
}

/* A position of the closure seen for the first time (within the bound): its node, and its
 * id onto the next level. 0, or -1 (memory). */
static int closure_add(Commitments *c, const State *child, int32_t parent, Action a,
                       long long most, int32_t **next, size_t *nnext, size_t *next_cap)
{
    uint8_t key[PACKED_MAX];
    size_t n = state_pack(child, key);
    if (store_find(&c->seen, key, n) >= 0 || c->positions >= most)
        return 0;
    int added;
    long id = store_add(&c->seen, key, n, &added);
    if (id < 0 || GROW(c->nodes, c->nodes_cap, (size_t)id + 1, 256) < 0 ||
        GROW(*next, *next_cap, *nnext + 1, 256) < 0)
        return -1;
    c->nodes[id] = (BlindNode){parent, a};
    c->nnodes = (size_t)id + 1;
    (*next)[(*nnext)++] = (int32_t)id;
    c->positions++;
    return 0;
}

/* One position of the closure: its deal, then each of its moves and removals in order. */
static int closure_expand(Commitments *c, int32_t node, int hand, int keep_suits,
                          long long most, int32_t **next, size_t *nnext, size_t *next_cap)
{
    size_t n;
    State s;
    state_unpack(&s, store_key(&c->seen, (size_t)node, &n));
    int spaces[1], nspaces = 0, full = 1;
    for (int i = 0; i < PILES; i++)
        if (!s.len[i]) {
            full = 0;
            if (!nspaces)
                spaces[nspaces++] = i;
        }
    if (hand && full && found_add(c, JUDGE_DEAL, node, (Action){ACT_DEAL, 0, 0, 0}, &s) < 0)
        return -1;
    Action acts[MAX_ACTIONS];
    int k = gen_actions(&s, spaces, nspaces, 0, acts);
    for (int q = 0; q < k; q++) {
        Action a = acts[q];
        if (a.kind == ACT_REMOVE && keep_suits)
            continue;
        State t = s;
        Undo u;
        int turned;
        int outcome = apply_action(&t, a, &u, &turned);
        int status = 0;
        if (a.kind == ACT_REMOVE)
            status = found_add(c, JUDGE_REMOVE, node, a, &t);
        else if (outcome == OUT_REVEAL)
            status = found_add(c, JUDGE_REVEAL, node, a, &t);
        else
            status = closure_add(c, &t, node, a, most, next, nnext, next_cap);
        if (status < 0)
            return -1;
    }
    return 0;
}

int judge_commitments(const State *view, int hand, long long most,
                      Commitments *out)
{
    memset(out, 0, sizeof *out);
    int32_t *level = NULL, *next = NULL;
    size_t nlevel = 0, level_cap = 0, nnext = 0, next_cap = 0;
    int status = SEARCH_NOMEM;
    if (store_init(&out->seen) < 0 || store_init(&out->found) < 0)
        goto done;
    int cards = 0;
    for (int i = 0; i < PILES; i++)
        cards += view->len[i];
    /* (cards + 13 removed) - 13 (removed + 1): a suit off would leave too few for a row */
    int keep_suits = hand && cards - 13 < PILES;
    uint8_t key[PACKED_MAX];
    int added;
    if (store_add(&out->seen, key, state_pack(view, key), &added) < 0 ||
        GROW(out->nodes, out->nodes_cap, 1, 256) < 0 || GROW(level, level_cap, 1, 256) < 0)
        goto done;
    out->nodes[0] = (BlindNode){-1, {0, 0, 0, 0}};
    out->nnodes = 1;
    out->positions = 1;
    level[nlevel++] = 0;
    while (nlevel) {
        nnext = 0;
        for (size_t e = 0; e < nlevel; e++)
            if (closure_expand(out, level[e], hand, keep_suits, most, &next, &nnext,
                               &next_cap) < 0)
                goto done;
        int32_t *t = level;
        size_t tc = level_cap;
        level = next, level_cap = next_cap, nlevel = nnext;
        next = t, next_cap = tc;
    }
    status = SEARCH_FOUND;
done:
    core_free(level);
    core_free(next);
    if (status != SEARCH_FOUND)
        commitments_free(out);
    return status;
}

int judge_line(const Commitments *c, size_t i, Line *line)
{
    const JudgeCommitment *j = &c->v[i];
    size_t n = 1;
    for (int32_t k = j->node; k > 0; k = c->nodes[k].parent)
        n++;
    line->n = n;
    line->v = core_malloc(n * sizeof *line->v);
    if (!line->v)
        return -1;
    line->v[n - 1] = j->last;
    size_t q = n - 1;
    for (int32_t k = j->node; k > 0; k = c->nodes[k].parent)
        line->v[--q] = c->nodes[k].action;
    return 0;
}

void judge_after(const Commitments *c, size_t i, State *after)
{
    size_t n;
    state_unpack(after, store_key(&c->found, (size_t)c->v[i].id, &n) + 1);
}

void commitments_free(Commitments *c)
{
    core_free(c->v);
    core_free(c->nodes);
    store_free(&c->seen);
    store_free(&c->found);
    memset(c, 0, sizeof *c);
}

/* ---- the judge and the bandit ---- */

/* A judge's run: its spec and stop, room to deal a world, and each line's scores on the
 * worlds judged so far (won[i][k]: JUDGE_SCALE if line i won world k, else its dense score). */
typedef struct {
    const JudgeSpec *j;
    Stopper *stop;
    uint8_t *cards;
    uint8_t (*rows)[PILES];
    uint16_t **won;
    size_t *cap;
    long long *n, *positions;
} JudgeRun;

/* Line `cand` on world k, then the beam's widths in turn within `cap` positions: *won
 * (JUDGE_SCALE for a win within the cap, else dense * the most progress any width reached /
 * JUDGE_PROGRESS) and the positions added to *r->positions. SEARCH_FOUND, or why the
 * search stopped (memory, Ctrl-C). */
static int verdict(JudgeRun *r, int cand, uint64_t k, long long cap, int *won)
{
    const JudgeSpec *j = r->j;
    State s;
    deal_sample(j->view, j->rows, j->unseen, j->nunseen, j->seed, k, r->cards, &s, r->rows);
    const Line *line = &j->cand[cand];
    int removed = j->removed, dealt = 0;
    for (size_t q = 0; q < line->n; q++) {
        Action a = line->v[q];
        if (a.kind == ACT_DEAL) {
            for (int i = 0; i < PILES; i++)
                s.c[i][s.len[i]++] = r->rows[dealt][i];
            dealt++;
            continue;
        }
        Undo u;
        int turned;
        if (apply_action(&s, a, &u, &turned) > 0)
            removed++;
    }
    long long used = 0;
    long best = beam_progress(&s, removed);
    int status = SEARCH_FOUND;
    *won = 0;
    for (int w = 0; w < j->nwidths && used < cap; w++) {
        Line found;
        long long count = 0;
        long reached = 0;
        int why = beam_search_best(&s, (const uint8_t(*)[PILES])(r->rows + dealt),
                                   j->rows - dealt, removed, j->widths[w], cap - used,
                                   j->max_levels, 0, r->stop, &found, &count, &reached);
        core_free(found.v);
        used += count;
        if (reached > best)
            best = reached;
        if (why == SEARCH_FOUND) {
            *won = JUDGE_SCALE;
            break;
        }
        if (why != SEARCH_NONE && why != SEARCH_LIMIT) {
            status = why;
            break;
        }
    }
    if (!*won)
        *won = (int)(j->dense * best / JUDGE_PROGRESS);
    *r->positions += used;
    return status;
}

/* judge.halving's run(i, target, cap): line i judged on its next worlds up to `target`. */
static int judge_upto(JudgeRun *r, int i, long long target, long long cap)
{
    if (GROW(r->won[i], r->cap[i], (size_t)target, 64) < 0)
        return SEARCH_NOMEM;
    for (long long k = r->n[i]; k < target; k++) {
        int won, status = verdict(r, i, (uint64_t)k, cap, &won);
        if (status != SEARCH_FOUND)
            return status;
        r->won[i][k] = (uint16_t)won;
        r->n[i] = k + 1;
    }
    return SEARCH_FOUND;
}

/* Line i's scores summed (`whole`: its worlds won, each JUDGE_SCALE, only). */
static long long wins_of(const JudgeRun *r, int i, int whole)
{
    long long w = 0;
    for (long long k = 0; k < r->n[i]; k++)
        w += whole ? r->won[i][k] == JUDGE_SCALE : r->won[i][k];
    return w;
}

/* judge.beats: on the same worlds, the other's lead in score over the own is at least two
 * worlds won and at least margin (in hundredths) times the square root of the sum of the
 * squared differences (with scores 0 or 1: of the worlds only one of them won), in integers. */
static int judge_beats(const JudgeRun *r, int other, long margin)
{
    long long lead = 0, squares = 0;
    for (long long k = 0; k < r->n[other] && k < r->n[0]; k++) {
        long long d = (long long)r->won[other][k] - r->won[0][k];
        lead += d;
        squares += d * d;
    }
    return lead >= 2 * JUDGE_SCALE &&
           10000 * lead * lead >= (long long)margin * margin * squares;
}

/* The lines still in but the own (alive[1..]), best first by wins then by order, cut to the
 * better half (at least one) and put back in order: judge.halving's `others`. Returns how
 * many others there were. */
static int judge_cut(const JudgeRun *r, int *alive, int *nalive)
{
    int others = *nalive - 1;
    long long w[JUDGE_MAX_LINES];
    for (int q = 1; q < *nalive; q++)
        w[alive[q]] = wins_of(r, alive[q], 0);
    for (int q = 2; q < *nalive; q++) { /* insertion sort: more wins, then earlier */
        int x = alive[q], p = q;
        while (p > 1 && (w[alive[p - 1]] < w[x] || (w[alive[p - 1]] == w[x] && alive[p - 1] > x))) {
            alive[p] = alive[p - 1];
            p--;
        }
        alive[p] = x;
    }
    int keep = others / 2 > 1 ? others / 2 : 1;
    if (keep > others)
        keep = others;
    *nalive = 1 + keep;
    for (int q = 2; q < *nalive; q++) { /* back in order */
        int x = alive[q], p = q;
        while (p > 1 && alive[p - 1] > x) {
            alive[p] = alive[p - 1];
            p--;
        }
        alive[p] = x;
    }
    return others;
}

static int any_won(const JudgeRun *r)
{
    for (int i = 0; i < r->j->ncand; i++)
        if (wins_of(r, i, 0))
            return 1;
    return 0;
}

/* The halving once the cap is set: judge.halving's loop, then its choice. */
static int judge_halve(JudgeRun *r, long long rounds, long long cap, JudgeResult *out)
{
    const JudgeSpec *j = r->j;
    int alive[JUDGE_MAX_LINES], nalive = j->ncand;
    for (int i = 0; i < nalive; i++)
        alive[i] = i;
    while (any_won(r)) {
        int others = judge_cut(r, alive, &nalive);
        if (others <= 1)
            break;
        long long share = j->samples / (rounds * nalive);
        long long target = r->n[0] + (share > 1 ? share : 1);
        for (int q = 0; q < nalive; q++) {
            int status = judge_upto(r, alive[q], target, cap);
            if (status != SEARCH_FOUND)
                return status;
        }
    }
    int best = nalive > 1 ? alive[1] : 0;
    out->chosen = best && judge_beats(r, best, j->margin) ? best : 0;
    return SEARCH_FOUND;
}

int judge_search(const JudgeSpec *j, JudgeResult *out, Stopper *stop)
{
    int n = j->ncand, status = SEARCH_NOMEM;
    long long rounds = 0;
    for (long long m = n - 1; m > 0; m >>= 1)
        rounds++; /* (n - 1).bit_length() */
    if (!rounds)
        rounds = 1;
    JudgeRun r = {j, stop, NULL, NULL, NULL, NULL, NULL, &out->positions};
    out->chosen = 0;
    out->positions = 0;
    out->cap = j->ncaps ? j->caps[j->ncaps - 1] : 0;
    r.cards = core_malloc((size_t)(j->nunseen ? j->nunseen : 1));
    r.rows = core_malloc((size_t)(j->rows ? j->rows : 1) * sizeof *r.rows);
    r.won = core_calloc((size_t)n, sizeof *r.won);
    r.cap = core_calloc((size_t)n, sizeof *r.cap);
    r.n = core_calloc((size_t)n, sizeof *r.n);
    if (!r.cards || !r.rows || !r.won || !r.cap || !r.n)
        goto done;
    long long share = j->samples / (rounds * n), each = share > 1 ? share : 1;
    for (int c = 0; c < j->ncaps; c++) {
        out->cap = j->caps[c];
        memset(r.n, 0, (size_t)n * sizeof *r.n);
        for (int i = 0; i < n; i++)
            if ((status = judge_upto(&r, i, each, out->cap)) != SEARCH_FOUND)
                goto done;
        if (any_won(&r))
            break;
    }
    status = judge_halve(&r, rounds, out->cap, out);
done:
    for (int i = 0; status == SEARCH_FOUND && i < n; i++) {
        out->wins[i] = wins_of(&r, i, 1);
        out->scores[i] = wins_of(&r, i, 0);
        out->counts[i] = r.n[i];
    }
    for (int i = 0; r.won && i < n; i++)
        core_free(r.won[i]);
    core_free(r.won);
    core_free(r.cap);
    core_free(r.n);
    core_free(r.cards);
    core_free(r.rows);
    return status;
}
