/* What the searches share: their answers, lines, and how they are stopped. */
#ifndef SPIDER_SEARCH_H
#define SPIDER_SEARCH_H

#include "core.h"

enum {
    SEARCH_NONE = 0,   /* nothing found: every position examined, or none left to keep */
    SEARCH_FOUND = 1,  /* a line was found */
    SEARCH_LIMIT = 2,  /* stopped at the limit of positions */
    SEARCH_STOPPED = 3, /* stopped by the caller (a time the user asked for) */
    SEARCH_ERROR = 4,  /* stopped by an error of the caller's (Ctrl-C: KeyboardInterrupt) */
    SEARCH_NOMEM = 5,  /* memory ran out */
};

typedef struct {
    Action *v;
    size_t n;
} Line;

/* Called between levels (or every few thousand positions): 0 to go on, else a status. */
typedef struct {
    int (*check)(void *ctx);
    void *ctx;
} Stopper;

static inline int stopper_check(Stopper *s)
{
    return s && s->check ? s->check(s->ctx) : 0;
}

int beam_search(const State *start, const uint8_t (*rows)[PILES], int nrows, int removed0,
                long width, long long budget, int max_levels, unsigned long ties, Stopper *stop,
                Line *line, long long *positions_out);
/* beam_search, and the most progress of a position it examined, the start included. */
int beam_search_best(const State *start, const uint8_t (*rows)[PILES], int nrows, int removed0,
                     long width, long long budget, int max_levels, unsigned long ties,
                     Stopper *stop, Line *line, long long *positions_out, long *best_out);
/* A position's progress, for the judge's dense score: 13 a suit removed (`removed` in all)
 * and 1 a card not face down, from MAX_CARDS less the face-down count; 0 to JUDGE_PROGRESS. */
long beam_progress(const State *s, int removed);

/* ---- goal.c, goal_steps.c, goal_search.c: solve's goal searches (goal.h) ---- */

#define MAX_GOAL_STEPS 8 /* "remove A then B then ...": eight suits at most in all */

/* One step of a goal search: a move, a removal or the deal, or one of the manual's uses of
 * a space (two or three moves). */
typedef struct {
    int8_t n;
    Action a[3];
} Step;

/* The goal kinds, in the order of spider_cli.rules.goals.GoalKind. */
enum { GOAL_TURN_UP = 0, GOAL_SPACE = 1, GOAL_REMOVE = 2, GOAL_FREE = 3, GOAL_WIN = 4 };

/* What a goalsearch.Search knows, as plain values: goalsearch.GoalSpec's fields in its order
 * (the steps and rows as counted arrays); specs.c reads them from Python, one format letter
 * a field. tests/analysis/test_core_goal.py checks all three against GoalSpec. */
typedef struct {
    int kind;         /* GOAL_TURN_UP ... GOAL_WIN */
    int pile;         /* the real pile the goal names, or -1 */
    int fixed;        /* pinned piles, kept in the first slots */
    int sorted_mode;  /* the other piles as a sorted multiset */
    int root_spaces, keep_spaces;
    int no_turn_up, no_new_space, no_deal, keep_suits_in_pinned;
    int autoremove;   /* a complete suit comes off before anything else is done */
    int forbidden;    /* suits that may not be removed, as bits */
    int card;         /* the card to free */
    long chaos_weight;
    int done_at;      /* the removal steps that meet the goal (0: all of them) */
    int nsteps;
    int step_len[MAX_GOAL_STEPS];
    int8_t steps[MAX_GOAL_STEPS][8];
    int nrows;
    uint8_t rows[MAX_CARDS / PILES][PILES];
    int row_known[MAX_CARDS / PILES];
} GoalSpec;

typedef struct {
    Step *steps; /* the line found (malloc'd), or NULL */
    size_t nsteps;
    long long positions;
    int exhaustive; /* every reachable position was examined */
    int depth;      /* breadth-first, at the limit: no line of this many steps or fewer */
    size_t bytes;   /* memory the search held at its end */
} GoalResult;

/* goalsearch.astar from `root` (canonical, no deal made, the goal's first step to do): A*
 * or breadth-first, or a beam of `width` (> 0). */
int goal_search(const GoalSpec *g, const State *root, int macros, int into_spaces,
                int ordered, size_t width, long long limit, long weight, Stopper *stop,
                GoalResult *out);

/* ---- blind.c: the blind player's search ---- */

typedef struct {
    int32_t parent;
    Action action;
} BlindNode;

/* A line that ends at the first card it turns up (blindplayer.Reveal). */
typedef struct {
    long score;
    int32_t node; /* its last move */
    long id;      /* the position after it, in the result's store */
    int pile, removed;
} BlindReveal;

typedef struct {
    BlindReveal *v;
    size_t n, cap;
} BlindReveals;

typedef struct {
    long long most_reveals; /* set by the caller: the moves the kept reveals' lines may hold
                               in all, the first found kept (0: none) */
    long long reveal_moves; /* the moves of the reveals kept */
    long best;
    int32_t best_node; /* -1: the empty line */
    long long positions;
    BlindReveals reveals;
    BlindNode *nodes;
    size_t nnodes;
    Store store; /* every position examined (the reveals' positions are read from it) */
} BlindResult;

long blind_value(const State *s, int removed, long space, const Weights *w);
/* SEARCH_FOUND, or SEARCH_NOMEM, or what `stop` said (checked every 64 positions expanded:
 * Ctrl-C), with nothing held then. */
int blind_search(const State *start, int removed, long space, int hand, long long budget,
                 int parts, long width, const Weights *w, Stopper *stop, BlindResult *out);
/* The line to a node (line->v is malloc'd; -1 when memory ran out). */
int blind_line(const BlindResult *r, int32_t node, Line *line);
void blind_free(BlindResult *r);

/* ---- rollout.c: the blind player's whole game on a deal every card of which is known ---- */

typedef struct {
    long long budget;  /* positions each search examines */
    int nsearches;     /* 1 to 3: the searches of a turn, the best line of them played */
    int parts[3];
    long width[3];
    int max_moves;
    int max_turns; /* turns (each ends at a card turned up or a row dealt); 0: no limit */
    Stopper *stop; /* checked between positions as blind_search does (may be NULL) */
} GameSpec;

typedef struct {
    int won, done, removed, down, hand, moves, turns;
    int lost; /* stopped where no line gains and no row can be dealt */
    long long positions;
    long value; /* the blind player's value of the position reached, a space kept */
} GameResult;

/* ---- chance.c: the features of a player's view, and the search over what turns up ---- */

#define N_FEATURES 10 /* rollouts.FEATURES */

typedef struct {
    int (*v)[N_FEATURES];
    size_t n, cap;
} FeatureLog;

int suits_done(const State *s, int removed);
int face_down(const State *s);
/* rollouts.features: what the learned value weighs, from the position's face-down counts
 * and face-up cards only (the face-down cards' codes are never read). */
void view_features(const State *s, int removed, int rows_left, int *f);

/* The game from `start` (every card known) by the blind player, who sees only its view;
 * *end (if not NULL) is where it stopped; each turn's features are added to *log (if not
 * NULL, while it has room). */
int blind_game(const State *start, const uint8_t (*rows)[PILES], int nrows, int removed,
               const GameSpec *g, const Weights *w, GameResult *out, State *end,
               FeatureLog *log);

/* The learned value (rollouts.Value): a logistic model of winning, weights in thousandths. */
typedef struct {
    long bias;
    long w[N_FEATURES];
} ValueModel;

#define CHANCE_WON 10000 /* a leaf's worth when the game is won; a loss is 0 */

long leaf_worth(const State *s, int removed, int rows_left, const GameResult *r,
                const ValueModel *v);

/* A decision to weigh: a line (moves up to and with the first card it turns up), or a deal
 * (one action ACT_DEAL). */
typedef struct {
    const State *view; /* the player's view: face-down cards are FACE_DOWN */
    int removed, rows; /* suits removed, rows left in the hand */
    const uint8_t *unseen;
    int nunseen; /* the cards not seen, in order of their codes */
    const Line *cand;
    int ncand;
    uint64_t seed;
    long long trajectories; /* the budget: sampled games, all candidates together */
    double margin;          /* standard errors another must beat the player's own choice by */
    GameSpec rollout;
    Weights w;
    ValueModel value;
} ChanceSpec;

typedef struct {
    long long *sum;    /* each candidate's worth, summed over its samples (ncand entries) */
    long long *count;  /* the samples each was tried on */
    long long *diff;   /* its worth less the player's own choice's, on the same samples */
    long long *square; /* the squares of those differences */
    int chosen;
    long long positions, trajectories;
} ChanceResult;

/* Sequential halving over the candidates on shared samples of the unseen cards, the
 * player's own choice (the first) played on every sample and kept unless another beats it
 * by `margin` standard errors of the paired differences. */
int chance_search(const ChanceSpec *c, ChanceResult *out, Stopper *stop);

/* Sample k of the deals a view allows (rollouts.sample): the unseen cards shuffled by
 * SplitMix64 seeded from seed + k (in cards, nunseen bytes of room), dealt into the view's
 * face-down places pile by pile from the bottom (into *s), the rest into nrows rows. */
void deal_sample(const State *view, int nrows, const uint8_t *unseen, int nunseen,
                 uint64_t seed, uint64_t k, uint8_t *cards, State *s, uint8_t (*rows)[PILES]);

/* ---- judge.c: commitments judged by the capped full-information search (chance/judge.py) */

enum { JUDGE_REVEAL = 0, JUDGE_DEAL = 1, JUDGE_REMOVE = 2 }; /* the act that ends one */

/* A commitment: its act, played from closure position `node` (its line the nodes' moves,
 * then `last`: the move that turns a card up, the removal, or the deal), and the position
 * after it, as the player sees it (id in the found store; for a deal, the one dealt onto). */
typedef struct {
    int act;
    int32_t node;
    Action last;
    long id;
} JudgeCommitment;

typedef struct {
    JudgeCommitment *v;
    size_t n, cap;
    BlindNode *nodes; /* each closure position's parent and the move to it (by seen id) */
    size_t nnodes, nodes_cap;
    Store seen;  /* the closure's positions */
    Store found; /* each commitment's act byte then the position after it */
    long long positions;
} Commitments;

/* judge.commitments: breadth-first from the view over the moves that turn nothing up (the
 * first space only, no whole pile into a space), at most `most` positions; every act that
 * turns a card up, deals a row (`hand` cards in the hand) or removes a suit, once each by
 * its act and the position after it, in the order found. SEARCH_FOUND or SEARCH_NOMEM. */
int judge_commitments(const State *view, int hand, long long most,
                      Commitments *out);
/* Commitment i's line from the view (line->v malloc'd; -1 when memory ran out). */
int judge_line(const Commitments *c, size_t i, Line *line);
/* The position after commitment i. */
void judge_after(const Commitments *c, size_t i, State *after);
void commitments_free(Commitments *c);

#define JUDGE_MAX_CAPS 8
#define JUDGE_MAX_LINES 64
#define JUDGE_MAX_WIDTHS 8
#define JUDGE_SCALE 1000                  /* a world won scores this */
#define JUDGE_PROGRESS (13 * 8 + MAX_CARDS) /* beam_progress at most */

typedef struct {
    const State *view; /* the player's view: face-down cards are FACE_DOWN */
    int removed, rows;
    const uint8_t *unseen;
    int nunseen;
    const Line *cand; /* the lines judged, the player's own first */
    int ncand;
    uint64_t seed;
    long long samples; /* the budget: worlds judged, all lines together (a round's share) */
    long long caps[JUDGE_MAX_CAPS]; /* positions a world, tried smallest first */
    int ncaps;
    long widths[JUDGE_MAX_WIDTHS]; /* the beam's widths in turn, sharing the cap */
    int nwidths;
    int max_levels;
    long margin; /* hundredths of a standard error another line must beat the own by */
    long dense;  /* a world not won scores dense * progress / JUDGE_PROGRESS (0: nothing) */
} JudgeSpec;

typedef struct {
    long long *wins, *counts; /* each line's worlds won and judged (ncand entries) */
    long long *scores;        /* each line's scores summed (JUDGE_SCALE a world won) */
    int chosen;
    long long positions, cap;
} JudgeResult;

/* judge.halving, step for step: the cap the first of `caps` at which a line wins a world of
 * the first round; then sequential halving, the player's own line judged on every world,
 * another chosen only if it beats it on the same worlds. */
int judge_search(const JudgeSpec *j, JudgeResult *out, Stopper *stop);

/* ---- orders.c: the count before every first move, in every order (firstmoves.py) */

#define RANKS 13
#define ORDERS_MAX_BASE 63 /* a base length fits a key's 6 bits */

/* A pile's base at any moment, as the count sees it (firstmoves._Base). */
typedef struct {
    int8_t ok; /* a base the count allows */
    int16_t need[RANKS];
    int16_t bottom, moved;
} OrdersBase;

/* A pile's base at the end (counting.Option). */
typedef struct {
    int8_t ok;
    int16_t need[RANKS];
    int16_t bottom, moved;
    int32_t mask; /* the goal suit's ranks it gathers */
} OrdersEnd;

typedef struct {
    int len[PILES]; /* cards per pile, at most ORDERS_MAX_BASE */
    uint8_t pile[PILES][ORDERS_MAX_BASE];
    OrdersBase plain[PILES][ORDERS_MAX_BASE + 1]; /* by base length */
    OrdersEnd end[PILES][ORDERS_MAX_BASE + 1];
    int free;        /* the suits that may be removed on the way, as bits */
    int bare;        /* no moved card may lie on a pile's bottom */
    int most;        /* the most piles emptied at any moment (-1: any) */
    int end_spaces;  /* the spaces the end needs */
    int end_most;    /* the most it may have (-1: any) */
    int wanted;      /* the goal suit's ranks the end must gather (0: none) */
} Orders;

/* Does some order of first moves reach an end? SEARCH_FOUND if so, SEARCH_NONE if none
 * does (every state examined), SEARCH_LIMIT past `budget` states, SEARCH_NOMEM, or what
 * `stop` said (asked every 4,096 states). *examined: the states examined. */
int orders_search(const Orders *o, long long budget, Stopper *stop, long long *examined);

#endif
