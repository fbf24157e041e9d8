/* The glue between Python and the compiled core (spider_cli.analysis._core): what its six
 * files share. They alone include Python.h; the rest of the core knows nothing of Python.
 *
 *   module.c   the entry points, the method table and the module's init;
 *   convert.c  Python values to and from the core's types (positions, piles, actions, lines,
 *              weights, limits, a value model, results);
 *   specs.c    the searches' own arguments (a rollout's policy, the chance search's
 *              candidates, a goal, the first-move orders' tables);
 *   checks.c   what the core's input may hold (the ranges, the card counts): a bad argument
 *              is a ValueError or TypeError, or OverflowError for an integer past C's as
 *              Python's own functions say; never a crash;
 *   module_judge.c  the judge's entry points (judge.c);
 *   run.c      a search's run: stopped by Ctrl-C and the caller's clock, held under its byte
 *              ceiling, its result or its error given back.
 *
 * The searches run with the GIL held (they are short between checks of Ctrl-C and of the
 * caller's clock), but for the rollout, which lets it go.
 *
 * The boundary: the C files trust their input (a card byte indexes arrays of 14 ranks and 4
 * suits, a weight is multiplied by a pile's length). So every entry point converts its
 * position with position_from_py, which calls one checker, check_position: each byte a card
 * or a face-down card, the counts within two decks; its weights with weights_from_py and its
 * numbers with int_in_range. A new entry point does the same and the C behind it may trust
 * what it is given. */
#ifndef SPIDER_GLUE_H
#define SPIDER_GLUE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"
#include "search.h"

#define UNSEEN_CARD 15 /* the blind player's card turned up but not yet seen (blindplayer.UNSEEN) */
#define WEIGHT_MOST 1000000L /* |weight| and |space|: far past any tuning, far from overflow */

/* What a position may hold (check_position's flags). */
enum {
    POS_UNSEEN = 1,        /* a face-up UNSEEN_CARD may stand for a card not yet seen */
    POS_KNOWN = 2,         /* every face-down card and every card of the hand is known */
    POS_ROWS_UNKNOWN = 4,  /* a card of the hand may be 0 (unknown) */
};

/* The search over what turns up: its candidates, their lines, its samples. */
#define MAX_CANDIDATES 64
#define MAX_LINE 1000
#define MAX_TRAJECTORIES 100000000LL

/* ---- checks.c: what the core's input may hold ---- */

int bad(const char *why); /* a ValueError saying why: -1 */
int int_in_range(long v, long lo, long hi, const char *what);
int check_position(const State *s, const uint8_t (*rows)[PILES], int nrows, long hand,
                   long removed, int flags);
int check_unseen(const State *view, const uint8_t *u, Py_ssize_t nunseen, int rows,
                 int removed);

/* ---- convert.c: Python values to and from the core's types ---- */

int state_from_py(PyObject *obj, State *s, Py_ssize_t extra);
int position_from_py(PyObject *obj, State *s, const uint8_t (*rows)[PILES], int nrows,
                     long hand, long removed, int flags);
PyObject *piles_to_py(const State *s);
PyObject *action_to_py(Action a);
PyObject *line_to_py(const Line *line);
int action_from_py(PyObject *obj, const State *s, Action *a);
int weights_from_py(PyObject *obj, Weights *w);
int limit_from_py(PyObject *obj, long long *out);
int known_deal_from_py(PyObject *piles, PyObject *rows_obj, long removed, State *s,
                       uint8_t (**rows)[PILES], int *nrows);
PyObject *node_line(const BlindResult *r, int32_t node);
PyObject *features_to_py(const int *f);
int value_from_py(PyObject *obj, ValueModel *v);
PyObject *weighed_to_py(const ChanceResult *r, int ncand, int stopped);

/* ---- specs.c: the searches' own arguments ---- */

int gamespec_from_py(PyObject *budget_obj, PyObject *searches, int max_moves, int max_turns,
                     GameSpec *g);
int candidates_from_py(PyObject *obj, const State *view, int rows, Line *lines, int *ncand);
int spec_from_py(PyObject *obj, GoalSpec *g);
int table_from_py(PyObject *obj, Orders *o, int ends);

/* ---- run.c: a search's run ---- */

/* The stop of a search run with the GIL held (a Stopper's ctx for py_check). */
typedef struct {
    PyObject *expired; /* a callable, or None */
    unsigned checks;   /* how often the search has asked */
} PyStop;

int py_check(void *ctx);
int py_check_released(void *ctx);
int ceiling_from_py(Py_ssize_t given, size_t *out);
PyObject *no_memory(int hit, size_t ceiling);
PyObject *search_result(int status, Line *line, int hit, size_t ceiling);

/* ---- module_judge.c: the judge's entry points (module.c's table names them) ---- */

PyObject *py_judge_commitments(PyObject *self, PyObject *args);
PyObject *py_judge_search(PyObject *self, PyObject *args);

#endif
