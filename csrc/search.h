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
                long width, long long budget, int max_levels, Stopper *stop, Line *line,
                long long *positions_out);

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
    int want_reveals; /* set by the caller: collect the reveals */
    long best;
    int32_t best_node; /* -1: the empty line */
    long long positions;
    BlindReveals reveals;
    BlindNode *nodes;
    size_t nnodes;
    Store store; /* every position examined (the reveals' positions are read from it) */
} BlindResult;

long blind_value(const State *s, int removed, long space, const Weights *w);
int blind_search(const State *start, int removed, long space, int hand, long long budget,
                 int parts, long width, const Weights *w, BlindResult *out);
/* The line to a node (line->v is malloc'd; -1 when memory ran out). */
int blind_line(const BlindResult *r, int32_t node, Line *line);
void blind_free(BlindResult *r);

#endif
