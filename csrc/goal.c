/* The goal of solve's goal searches: goalsearch.Search's met, advance, estimate and
 * canonical, step for step (goal.h says how the goal searches are split).
 *
 * A key is (canonical piles, rows dealt, removal progress). Progress is the step of the goal
 * reached and how many of each suit that step still needs: the same as Python's (step,
 * remaining) tuple, since removing a suit takes its first copy off the tuple. */
#include <limits.h>
#include <string.h>

#include "goal.h"

/* ---- the goal ---- */

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

void goal_progress(const GoalSpec *g, int step, Progress *p)
{
    memset(p, 0, sizeof *p);
    p->step = step;
    if (step < g->nsteps)
        for (int i = 0; i < g->step_len[step]; i++)
            p->need[g->steps[step][i]]++;
}

/* Search.advance: 0 when the removal is not allowed. */
int goal_advance(const GoalSpec *g, Progress *p, int suit)
{
    if (p->step < g->nsteps) {
        if (p->need[suit]) {
            p->need[suit]--;
            if (p->need[0] || p->need[1] || p->need[2] || p->need[3])
                return 1;
            goal_progress(g, p->step + 1, p);
            return 1;
        }
        for (int later = p->step + 1; later < g->nsteps; later++)
            if (step_has(g, later, suit))
                return 0; /* out of order */
    }
    return !(g->forbidden >> suit & 1);
}

/* Search.met */
int goal_met(const GoalSpec *g, const State *s, const Progress *p, int turned, int revealed)
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

void goal_cache_fill(const GoalSpec *g, const State *s, const Progress *p, PileCache *pc)
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

/* The estimate's "no pile counts" before its least is taken: no pile's count can be it. A pile's
 * blocks can be below 0 (compact.blocks counts two face-down cards of one suit, the upper a
 * rank higher, as one run, and then takes off each face-down card), so -1 cannot be it. */
#define NO_LEAST LONG_MAX

/* Search.estimate of a child of the cached position: `touched` has a bit for each pile its
 * step changed. */
long goal_estimate(const GoalSpec *g, const State *s, const Progress *p, const PileCache *pc,
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
        long least = NO_LEAST;
        for (int i = 0; i < PILES; i++)
            if (s->len[i] && s->c[i][0] < FACE_DOWN && blk[i] < least)
                least = blk[i];
        total = least == NO_LEAST ? 20 : least;
    } else if (g->kind == GOAL_TURN_UP) {
        long least = NO_LEAST;
        int last = g->fixed ? 1 : PILES;
        for (int i = 0; i < last; i++)
            if (s->len[i] && s->c[i][0] >= FACE_DOWN && blk[i] < least)
                least = blk[i];
        total = least == NO_LEAST ? 20 : least;
    } else if (g->kind == GOAL_FREE) {
        long least = NO_LEAST;
        for (int i = 0; i < PILES; i++)
            for (int k = s->len[i] - 1; k >= 0; k--)
                if (s->c[i][k] == g->card) {
                    long covers = s->len[i] - 1 - k;
                    if (covers < least)
                        least = covers;
                    break;
                }
        total = least == NO_LEAST ? 20 : least;
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
size_t goal_pack_key(const GoalSpec *g, const State *s, int dealt, const Progress *p,
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

void goal_unpack_key(const uint8_t *in, size_t n, State *s, int *dealt, Progress *p)
{
    state_unpack(s, in);
    *dealt = in[n - 6];
    p->step = in[n - 5];
    for (int suit = 0; suit < 4; suit++)
        p->need[suit] = (int8_t)in[n - 4 + suit];
}
