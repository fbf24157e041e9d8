/* The search over what turns up: weighing.py, step for step.
 *
 * The player's candidate decisions (a line up to the first card it turns up, or a deal) are
 * weighed on the same samples of the cards it has not seen: sample k deals the unseen cards
 * into the face-down places and the hand, the candidate is played on it, the blind player
 * (rollout.c, which sees only its view) plays on for a few turns, and where it stops is worth
 * CHANCE_WON for a win, 0 for a loss, else the learned value's chance of winning. Sequential
 * halving spends the trajectories: each round gives every candidate still in the same new
 * samples, then keeps the better half. Integers throughout but the logistic, so both paths
 * choose alike. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "search.h"

/* ---- SplitMix64 (core.h) and the shuffle of engine.py ---- */

/* A uniform integer below n, by rejection (engine.SplitMix64.below): outputs at or above
 * 2**64 - 2**64 % n are drawn again. (2**64 % n is (2**64 - n) % n; 0 - rem stands for
 * 2**64 - rem, which wraps to 0 when rem is 0: then every output is taken.) */
static uint64_t splitmix_below(uint64_t *state, uint64_t n)
{
    uint64_t rem = (0 - n) % n, limit = 0 - rem;
    for (;;) {
        uint64_t x = splitmix_next(state);
        if (!rem || x < limit)
            return x % n;
    }
}

/* Sample k's generator: the first output of SplitMix64 seeded with seed + k. */
static uint64_t sample_seed(uint64_t seed, uint64_t k)
{
    uint64_t state = seed + k;
    return splitmix_next(&state);
}

/* ---- the features and the value ---- */

void view_features(const State *s, int removed, int rows_left, int *f)
{
    memset(f, 0, N_FEATURES * sizeof *f);
    f[0] = suits_done(s, removed);
    f[7] = rows_left;
    for (int i = 0; i < PILES; i++) {
        const uint8_t *p = s->c[i];
        int n = s->len[i], down = 0;
        if (!n) {
            f[2]++;
            continue;
        }
        while (down < n && p[down] >= FACE_DOWN)
            down++;
        f[1] += down;
        if (!down)
            f[3]++;
        else if (down <= 2)
            f[8]++;
        if (down && (!f[9] || down < f[9]))
            f[9] = down;
        for (int k = down; k + 1 < n; k++) {
            if (p[k] == p[k + 1] + 1)
                f[4]++;
            else if ((p[k] & 15) == (p[k + 1] & 15) + 1)
                f[5]++;
            else
                f[6]++;
        }
    }
}

long leaf_worth(const State *s, int removed, int rows_left, const GameResult *r,
                const ValueModel *v)
{
    if (r->won)
        return CHANCE_WON;
    if (r->lost)
        return 0;
    int f[N_FEATURES];
    view_features(s, removed, rows_left, f);
    long logit = v->bias;
    for (int i = 0; i < N_FEATURES; i++)
        logit += v->w[i] * f[i];
    double p = 1.0 / (1.0 + exp(-(double)logit / 1000.0));
    return (long)floor(p * CHANCE_WON + 0.5);
}

/* ---- one trajectory: candidate `c` on sample `k` ---- */

void deal_sample(const State *view, int nrows, const uint8_t *unseen, int nunseen,
                 uint64_t seed, uint64_t k, uint8_t *cards, State *s, uint8_t (*rows)[PILES])
{
    uint64_t rng = sample_seed(seed, k);
    memcpy(cards, unseen, (size_t)nunseen);
    for (int i = nunseen - 1; i > 0; i--) {
        int j = (int)splitmix_below(&rng, (uint64_t)i + 1);
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    *s = *view;
    int used = 0;
    for (int i = 0; i < PILES; i++)
        for (int q = 0; q < s->len[i] && s->c[i][q] >= FACE_DOWN; q++)
            s->c[i][q] = (uint8_t)(cards[used++] | FACE_DOWN);
    for (int r = 0; r < nrows; r++)
        for (int i = 0; i < PILES; i++)
            rows[r][i] = cards[used++];
}

static int trajectory(const ChanceSpec *c, int cand, uint64_t k, uint8_t *cards,
                      uint8_t (*rows)[PILES], long *worth, long long *positions)
{
    State s;
    deal_sample(c->view, c->rows, c->unseen, c->nunseen, c->seed, k, cards, &s, rows);
    const Line *line = &c->cand[cand];
    int removed = c->removed, dealt = 0;
    for (size_t q = 0; q < line->n; q++) {
        Action a = line->v[q];
        if (a.kind == ACT_DEAL) {
            for (int i = 0; i < PILES; i++)
                s.c[i][s.len[i]++] = rows[0][i];
            dealt = 1;
        } else {
            Undo u;
            int turned;
            if (apply_action(&s, a, &u, &turned) > 0)
                removed++;
        }
    }
    GameResult r;
    State end;
    if (blind_game(&s, (const uint8_t(*)[PILES])(rows + dealt), c->rows - dealt, removed,
                   &c->rollout, &c->w, &r, &end, NULL) == SEARCH_NOMEM)
        return SEARCH_NOMEM;
    *positions += r.positions;
    *worth = leaf_worth(&end, r.removed, r.hand / PILES, &r, &c->value);
    return 0;
}

/* ---- sequential halving against the player's own choice ---- */

/* The candidates still in, best first: higher sum, then the player's own order (insertion
 * sort: a few dozen at most). */
static void rank(int *alive, int n, const long long *sum)
{
    for (int i = 1; i < n; i++) {
        int x = alive[i], j = i;
        while (j > 0 && (sum[alive[j - 1]] < sum[x] ||
                         (sum[alive[j - 1]] == sum[x] && alive[j - 1] > x))) {
            alive[j] = alive[j - 1];
            j--;
        }
        alive[j] = x;
    }
}

/* Whether the paired differences (sum d, sum of squares q, over n samples) put a
 * candidate ahead of the player's own by more than `margin` standard errors: d > 0 and
 * d^2 (n - 1) > margin^2 (n q - d^2), in doubles in this order (weighing._beats). */
static int beats(long long d, long long q, long long n, double margin)
{
    if (d <= 0 || n < 2)
        return 0;
    double dd = (double)d * (double)d;
    return dd * (double)(n - 1) > margin * margin * ((double)n * (double)q - dd);
}

int chance_search(const ChanceSpec *c, ChanceResult *out, Stopper *stop)
{
    int status = SEARCH_FOUND;
    int *alive = core_malloc((size_t)c->ncand * sizeof *alive);
    uint8_t *cards = core_malloc((size_t)(c->nunseen ? c->nunseen : 1));
    uint8_t(*rows)[PILES] = core_malloc((size_t)(c->rows ? c->rows : 1) * sizeof *rows);
    size_t bytes = (size_t)c->ncand * sizeof(long long);
    out->chosen = 0;
    out->positions = out->trajectories = 0;
    memset(out->sum, 0, bytes);
    memset(out->count, 0, bytes);
    memset(out->diff, 0, bytes);
    memset(out->square, 0, bytes);
    if (!alive || !cards || !rows) {
        status = SEARCH_NOMEM;
        goto done;
    }
    /* The player's own choice (candidate 0) is played on every sample; the others are
     * halved round by round, each compared with it on the same samples. */
    int nalive = c->ncand - 1, rounds = 0;
    for (int m = 1; m < nalive; m *= 2)
        rounds++;
    if (!rounds)
        rounds = 1;
    for (int i = 0; i < nalive; i++)
        alive[i] = i + 1;
    uint64_t used = 0;
    for (int round = 0; round < rounds; round++) {
        long long per = c->trajectories / ((long long)(nalive + 1) * rounds);
        if (per < 1)
            per = 1;
        for (long long k = 0; k < per; k++) {
            long own = 0;
            for (int q = -1; q < nalive; q++) {
                int cand = q < 0 ? 0 : alive[q];
                long worth;
                if (trajectory(c, cand, used + (uint64_t)k, cards, rows, &worth,
                               &out->positions) == SEARCH_NOMEM) {
                    status = SEARCH_NOMEM;
                    goto done;
                }
                out->sum[cand] += worth;
                out->count[cand]++;
                out->trajectories++;
                if (q < 0) {
                    own = worth;
                } else {
                    out->diff[cand] += worth - own;
                    out->square[cand] += (long long)(worth - own) * (worth - own);
                }
                int why = stopper_check(stop);
                if (why) { /* the caller's clock: the player's own choice; Ctrl-C: an error */
                    status = why;
                    goto done;
                }
            }
        }
        used += (uint64_t)per;
        rank(alive, nalive, out->sum);
        if (nalive > 1 && round < rounds - 1)
            nalive = (nalive + 1) / 2;
    }
    if (nalive) {
        int best = alive[0];
        if (beats(out->diff[best], out->square[best], out->count[best], c->margin))
            out->chosen = best;
    }
done:
    core_free(alive);
    core_free(cards);
    core_free(rows);
    return status;
}
