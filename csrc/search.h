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

#endif
