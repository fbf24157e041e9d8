/* What the three files of solve's goal searches share, split as KPatience's patsolve splits a
 * solver: the game's own part (what a position is worth and when it is won) apart from the
 * search that walks the positions.
 *
 *   goal.c         the goal: met, advance, estimate, and the packed key of a position;
 *   goal_steps.c   the steps from a position: moves, removals and the uses of a space;
 *   goal_search.c  the search: the heap, the frontier, expand, commit, and goal_search.
 *
 * Each mirrors goalsearch.py's Search step for step (tests/analysis/test_core_goal.py compares them). */
#ifndef SPIDER_GOAL_H
#define SPIDER_GOAL_H

#include "core.h"
#include "search.h"

/* The goal's removal progress: the step of the goal reached and how many of each suit that
 * step still needs (Python's (step, remaining) tuple). */
typedef struct {
    int step;
    int8_t need[4]; /* of each suit, how many the current step still needs */
} Progress;

/* What the estimate needs of each pile of a position being expanded, so that a child
 * recomputes only the piles its step touched. */
typedef struct {
    PileInfo info[PILES];
    int blocks[PILES];
    int8_t covers[4][PILES][14];
    int have[4]; /* covers[suit] is filled */
} PileCache;

/* The steps from a position, as goal_steps generates them. */
typedef struct {
    Step *v;
    size_t n, cap;
} Steps;

static inline int spaces_of(const State *s)
{
    int n = 0;
    for (int i = 0; i < PILES; i++)
        n += !s->len[i];
    return n;
}

/* ---- goal.c: the goal ---- */

/* The progress at the start of `step` (its suits all still needed). */
void goal_progress(const GoalSpec *g, int step, Progress *p);
/* Search.advance: 0 when the removal of `suit` is not allowed. */
int goal_advance(const GoalSpec *g, Progress *p, int suit);
/* Search.met */
int goal_met(const GoalSpec *g, const State *s, const Progress *p, int turned, int revealed);
void goal_cache_fill(const GoalSpec *g, const State *s, const Progress *p, PileCache *pc);
/* Search.estimate of a child of the cached position: `touched` has a bit for each pile its
 * step changed. */
long goal_estimate(const GoalSpec *g, const State *s, const Progress *p, const PileCache *pc,
                   int touched);
/* Search.canonical, packed with the rows dealt and the progress: the key's length. */
size_t goal_pack_key(const GoalSpec *g, const State *s, int dealt, const Progress *p,
                     uint8_t *out);
void goal_unpack_key(const uint8_t *in, size_t n, State *s, int *dealt, Progress *p);

/* ---- goal_steps.c: the steps from a position ---- */

/* Search.expand's list of steps (before they are played), pushed onto *out: how many are
 * removals that autoremove makes before anything else (then they are the only steps, and no
 * deal follows), or -1 when memory ran out. */
int goal_steps(const GoalSpec *g, const State *s, int macros, int into_spaces, Steps *out);

#endif
