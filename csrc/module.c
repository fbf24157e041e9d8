/* spider_cli.analysis._core: the compiled core's Python face. The only file that knows Python:
 * it checks what it is given (a bad argument is a ValueError or TypeError, or OverflowError for
 * an integer past C's as Python's own functions say; never a crash),
 * converts positions and lines, and runs the searches with the GIL held (they are short
 * between checks of Ctrl-C and of the caller's clock).
 *
 * The boundary: the C files trust their input (a card byte indexes arrays of 14 ranks and 4
 * suits, a weight is multiplied by a pile's length). So every entry point converts its
 * position with position_from_py (a lone pile with check_pile), which calls one checker,
 * check_position: each byte a card or a face-down card, the counts within two decks; its
 * weights with weights_from_py and its numbers with int_in_range. A new entry point does the
 * same and the C behind it may trust what it is given. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <unistd.h> /* sysconf: the machine's memory, the default ceiling */

#include "core.h"
#include "search.h"

/* ---- conversions ---- */

/* A position: a sequence of ten bytes objects, at most MAX_CARDS cards in all (with `extra`
 * more to come from the hand), every byte below 128. */
static int state_from_py(PyObject *obj, State *s, Py_ssize_t extra)
{
    PyObject *seq = PySequence_Fast(obj, "a position is a sequence of ten piles (bytes)");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != PILES) {
        PyErr_SetString(PyExc_ValueError, "a position has ten piles");
        Py_DECREF(seq);
        return -1;
    }
    Py_ssize_t total = extra;
    for (int i = 0; i < PILES; i++) {
        PyObject *pile = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyBytes_Check(pile)) {
            PyErr_SetString(PyExc_TypeError, "a pile is bytes");
            Py_DECREF(seq);
            return -1;
        }
        Py_ssize_t n = PyBytes_GET_SIZE(pile);
        const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(pile);
        total += n;
        if (total > MAX_CARDS) {
            PyErr_SetString(PyExc_ValueError, "a position of more than 104 cards");
            Py_DECREF(seq);
            return -1;
        }
        for (Py_ssize_t k = 0; k < n; k++)
            if (p[k] >= 128) {
                PyErr_SetString(PyExc_ValueError, "a card code of 128 or more");
                Py_DECREF(seq);
                return -1;
            }
        s->len[i] = (uint8_t)n;
        memcpy(s->c[i], p, (size_t)n);
    }
    Py_DECREF(seq);
    return 0;
}

/* ---- the checker: what a position may hold ---- */

#define UNSEEN_CARD 15 /* the blind player's card turned up but not yet seen (blindplayer.UNSEEN) */
#define WEIGHT_MOST 1000000L /* |weight| and |space|: far past any tuning, far from overflow */

enum {
    POS_UNSEEN = 1,        /* a face-up UNSEEN_CARD may stand for a card not yet seen */
    POS_KNOWN = 2,         /* every face-down card and every card of the hand is known */
    POS_ROWS_UNKNOWN = 4,  /* a card of the hand may be 0 (unknown) */
};

static int bad(const char *why)
{
    PyErr_SetString(PyExc_ValueError, why);
    return -1;
}

/* A long argument within [lo, hi], else a ValueError naming it. */
static int int_in_range(long v, long lo, long hi, const char *what)
{
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s is %ld to %ld, not %ld", what, lo, hi, v);
        return -1;
    }
    return 0;
}

static int is_card(int c)
{
    return c < FACE_DOWN && (c & 15) >= ACE && (c & 15) <= KING;
}

/* One pile: face-down cards (FACE_DOWN alone, or a card plus FACE_DOWN) under face-up cards,
 * the last card face up or unknown (a move turned it up, what it is not yet given); each card
 * counted in copies[] (by code) when copies is given. */
static int check_pile(const uint8_t *p, int n, int flags, int *copies)
{
    int k = 0;
    for (; k < n && p[k] >= FACE_DOWN; k++) {
        int code = p[k] - FACE_DOWN;
        if (!code && !(flags & POS_KNOWN))
            continue;
        if (!is_card(code))
            return bad(code ? "a face-down byte that is no card" : "a face-down card not known");
        if (copies)
            copies[code]++;
    }
    if (k == n && n && p[n - 1] != FACE_DOWN) /* (an unknown one waits to be turned up) */
        return bad("a pile whose last card lies face down, known");
    for (; k < n; k++) {
        if (p[k] >= FACE_DOWN)
            return bad("a face-down card on a face-up card");
        if (p[k] == UNSEEN_CARD && (flags & POS_UNSEEN))
            continue;
        if (!is_card(p[k]))
            return bad("a byte that is no card (a card is suit * 16 + rank 1..13)");
        if (copies)
            copies[p[k]]++;
    }
    return 0;
}

/* Every position at the boundary: its piles, the hand's rows, `hand` more cards in the hand
 * not given, `removed` suits removed. Every byte a card of four suits and thirteen ranks, no
 * card more than eight times (one suit in two decks), no rank more than eight times
 * counting the suits removed, no more than 104 cards in all. */
static int check_position(const State *s, const uint8_t (*rows)[PILES], int nrows, long hand,
                          long removed, int flags)
{
    int copies[FACE_DOWN] = {0};
    if (int_in_range(removed, 0, 8, "the number of suits removed") < 0 ||
        int_in_range(hand, 0, MAX_CARDS, "the number of cards in the hand") < 0 ||
        int_in_range(nrows, 0, MAX_CARDS / PILES, "the number of rows in the hand") < 0)
        return -1;
    long total = 13 * removed + hand + (long)nrows * PILES;
    for (int i = 0; i < PILES; i++) {
        total += s->len[i];
        if (check_pile(s->c[i], s->len[i], flags, copies) < 0)
            return -1;
    }
    for (int r = 0; r < nrows; r++)
        for (int i = 0; i < PILES; i++) {
            int c = rows[r][i];
            if (!c && (flags & POS_ROWS_UNKNOWN))
                continue;
            if (!is_card(c))
                return bad(c ? "a card of the hand is no card" : "a card of the hand not known");
            copies[c]++;
        }
    if (total > MAX_CARDS)
        return bad("more than 104 cards with the hand and the suits removed");
    for (int rank = ACE; rank <= KING; rank++) {
        long of_rank = removed;
        for (int suit = 0; suit < 4; suit++) {
            if (copies[suit * 16 + rank] > 8)
                return bad("a card more than eight times: two decks have no more");
            of_rank += copies[suit * 16 + rank];
        }
        if (of_rank > 8)
            return bad("a rank more than eight times (with the suits removed)");
    }
    return 0;
}

/* A position converted and checked: what every entry point that takes piles calls. */
static int position_from_py(PyObject *obj, State *s, const uint8_t (*rows)[PILES], int nrows,
                            long hand, long removed, int flags)
{
    if (state_from_py(obj, s, (Py_ssize_t)nrows * PILES) < 0)
        return -1;
    return check_position(s, rows, nrows, hand, removed, flags);
}

static PyObject *piles_to_py(const State *s)
{
    PyObject *list = PyList_New(PILES);
    if (!list)
        return NULL;
    for (int i = 0; i < PILES; i++) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)s->c[i], s->len[i]);
        if (!b) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, b);
    }
    return list;
}

static PyObject *action_to_py(Action a)
{
    return Py_BuildValue("(iiii)", a.kind, a.src, a.dst, a.count);
}

static PyObject *line_to_py(const Line *line)
{
    PyObject *list = PyList_New((Py_ssize_t)line->n);
    if (!list)
        return NULL;
    for (size_t i = 0; i < line->n; i++) {
        PyObject *t = action_to_py(line->v[i]);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    return list;
}

/* An action (kind, src, dst, count), checked to be one of the position's moves or removals
 * (one of those actions() lists, every space open to it): apply and undo trust the cards they
 * move to form a run, and a removal's thirteen to be a suit. */
static int action_from_py(PyObject *obj, const State *s, Action *a)
{
    int kind, src, dst, count;
    if (!PyTuple_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "an action is a tuple (kind, src, dst, count)");
        return -1;
    }
    if (!PyArg_ParseTuple(obj, "iiii;an action is (kind, src, dst, count)", &kind, &src, &dst,
                          &count))
        return -1;
    if (kind == ACT_REMOVE)
        dst = src, count = 13;
    int spaces[PILES], nspaces = 0;
    for (int i = 0; i < PILES; i++)
        if (!s->len[i])
            spaces[nspaces++] = i;
    Action acts[MAX_ACTIONS];
    int n = gen_actions(s, spaces, nspaces, 1, acts);
    for (int i = 0; i < n; i++)
        if (acts[i].kind == kind && acts[i].src == src && acts[i].dst == dst &&
            acts[i].count == count) {
            *a = acts[i];
            return 0;
        }
    PyErr_SetString(PyExc_ValueError, "not a move or removal the position allows");
    return -1;
}

static int weights_from_py(PyObject *obj, Weights *w)
{
    /* evaluation.Weights.core(): the hidden costs 0..7, then the other weights in the order
     * of evaluation.FEATURES, then the table of pile classes, every one an int */
    long *slots[N_WEIGHTS] = {
        &w->hidden[0], &w->hidden[1],  &w->hidden[2],    &w->hidden[3], &w->hidden[4],
        &w->hidden[5], &w->hidden[6],  &w->hidden[7],    &w->hidden_step, &w->clear,
        &w->suited,    &w->ranked,     &w->removed,      &w->broken,    &w->ace_top,
        &w->king_base, &w->run_square, &w->refill,       &w->unlock,    &w->dup_tops,
        &w->homes};
    const int size = N_WEIGHTS + TABLE_SIZE;
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != size) {
        PyErr_Format(PyExc_ValueError, "weights are a tuple of %d ints", size);
        return -1;
    }
    w->has_table = 0;
    for (int i = 0; i < size; i++) {
        PyObject *item = PyTuple_GET_ITEM(obj, i);
        if (!PyLong_Check(item)) {
            PyErr_Format(PyExc_TypeError, "weights are a tuple of %d ints", size);
            return -1;
        }
        long v = PyLong_AsLong(item);
        if ((v == -1 && PyErr_Occurred()) ||
            int_in_range(v, -WEIGHT_MOST, WEIGHT_MOST, "a weight") < 0)
            return -1;
        if (i < N_WEIGHTS) {
            *slots[i] = v;
        } else {
            w->table[i - N_WEIGHTS] = v;
            w->has_table |= v != 0;
        }
    }
    return 0;
}

/* A count of positions: 1 to 2**62, however large the number given (a larger limit is no
 * limit on a machine's memory anyway). */
static int limit_from_py(PyObject *obj, long long *out)
{
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow < 0 || (!overflow && v < 0)) {
        PyErr_SetString(PyExc_ValueError, "a limit of positions is not negative");
        return -1;
    }
    const long long most = 1LL << 62;
    *out = overflow > 0 || v > most ? most : v;
    return 0;
}

/* ---- stopping: Ctrl-C and the caller's clock ---- */

typedef struct {
    PyObject *expired; /* a callable, or None */
    unsigned checks;   /* how often the search has asked */
} PyStop;

#define LET_THREADS_RUN 4 /* every this many checks, the GIL is let go for a moment */

static int py_check(void *ctx)
{
    PyStop *ps = ctx;
    if (++ps->checks % LET_THREADS_RUN == 0) {
        /* A thread waiting for the GIL (the board's count of seconds) runs now: a search
         * holding it throughout, with no Python called back, would stop every other. */
        Py_BEGIN_ALLOW_THREADS
        Py_END_ALLOW_THREADS
    }
    if (PyErr_CheckSignals() < 0)
        return SEARCH_ERROR;
    if (ps->expired && ps->expired != Py_None) {
        PyObject *r = PyObject_CallNoArgs(ps->expired);
        if (!r)
            return SEARCH_ERROR;
        int truth = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (truth < 0)
            return SEARCH_ERROR;
        if (truth)
            return SEARCH_STOPPED;
    }
    return 0;
}

/* The same for a search run with the GIL released (Ctrl-C only): the GIL taken back for the
 * check. Signals are handled in the main thread; in another the check finds nothing. */
static int py_check_released(void *ctx)
{
    (void)ctx;
    PyGILState_STATE gil = PyGILState_Ensure();
    int stop = PyErr_CheckSignals() < 0 ? SEARCH_ERROR : 0;
    PyGILState_Release(gil);
    return stop;
}

/* ---- the primitives, for the property tests and the Python searches ---- */

static PyObject *py_actions(PyObject *self, PyObject *args)
{
    PyObject *piles, *spaces_obj;
    int whole = 1;
    State s;
    int spaces[PILES];
    (void)self;
    if (!PyArg_ParseTuple(args, "OO|p", &piles, &spaces_obj, &whole))
        return NULL;
    if (position_from_py(piles, &s, NULL, 0, 0, 0, POS_UNSEEN) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(spaces_obj, "spaces are a sequence of piles");
    if (!seq)
        return NULL;
    Py_ssize_t nspaces = PySequence_Fast_GET_SIZE(seq);
    if (nspaces > PILES) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "at most ten spaces");
    }
    for (Py_ssize_t i = 0; i < nspaces; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        if (v < 0 || v >= PILES || s.len[v]) {
            Py_DECREF(seq);
            return PyErr_Format(PyExc_ValueError, "a space is an empty pile, 0 to 9");
        }
        spaces[i] = (int)v;
    }
    Py_DECREF(seq);
    Action acts[MAX_ACTIONS];
    int n = gen_actions(&s, spaces, (int)nspaces, whole, acts);
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = action_to_py(acts[i]);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *py_apply(PyObject *self, PyObject *args)
{
    PyObject *piles, *action;
    State s;
    Action a;
    Undo u;
    int turned;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &piles, &action))
        return NULL;
    if (position_from_py(piles, &s, NULL, 0, 0, 0, POS_UNSEEN) < 0 ||
        action_from_py(action, &s, &a) < 0)
        return NULL;
    int outcome = apply_action(&s, a, &u, &turned);
    PyObject *list = piles_to_py(&s);
    if (!list)
        return NULL;
    return Py_BuildValue("(Nii)", list, turned, outcome);
}

static PyObject *py_apply_undo(PyObject *self, PyObject *args)
{
    /* apply then undo: the position back, for the tests of undo */
    PyObject *piles, *action;
    State s;
    Action a;
    Undo u;
    int turned;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &piles, &action))
        return NULL;
    if (position_from_py(piles, &s, NULL, 0, 0, 0, POS_UNSEEN) < 0 ||
        action_from_py(action, &s, &a) < 0)
        return NULL;
    apply_action(&s, a, &u, &turned);
    undo_action(&s, &u);
    return piles_to_py(&s);
}

static PyObject *py_rank_key(PyObject *self, PyObject *args)
{
    PyObject *piles;
    int removed;
    State s;
    long chaos, negready;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oi", &piles, &removed))
        return NULL;
    if (position_from_py(piles, &s, NULL, 0, 0, removed, 0) < 0)
        return NULL;
    rank_key(&s, removed, &chaos, &negready);
    return Py_BuildValue("(ll)", chaos, negready);
}

static PyObject *py_blind_value(PyObject *self, PyObject *args)
{
    /* blind_value(piles, removed, space, weights): evaluation.value */
    PyObject *piles, *wobj;
    int removed;
    long space;
    State s;
    Weights w;
    (void)self;
    if (!PyArg_ParseTuple(args, "OilO", &piles, &removed, &space, &wobj))
        return NULL;
    if (int_in_range(space, -WEIGHT_MOST, WEIGHT_MOST, "a space's worth") < 0 ||
        weights_from_py(wobj, &w) < 0 ||
        position_from_py(piles, &s, NULL, 0, 0, removed, POS_UNSEEN) < 0)
        return NULL;
    return PyLong_FromLong(blind_value(&s, removed, space, &w));
}

static PyObject *py_state_key(PyObject *self, PyObject *args)
{
    /* The packed position (each pile's length, then its cards) and its 64-bit hash. */
    PyObject *piles;
    State s;
    uint8_t key[PACKED_MAX];
    (void)self;
    if (!PyArg_ParseTuple(args, "O", &piles))
        return NULL;
    if (position_from_py(piles, &s, NULL, 0, 0, 0, POS_UNSEEN) < 0)
        return NULL;
    size_t n = state_pack(&s, key);
    return Py_BuildValue("(y#K)", (const char *)key, (Py_ssize_t)n,
                         (unsigned long long)hash_bytes(key, n));
}

/* ---- the searches ---- */

static int rows_from_py(PyObject *obj, uint8_t (**rows)[PILES], int *nrows)
{
    PyObject *seq = PySequence_Fast(obj, "the hand is a sequence of rows");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAX_CARDS / PILES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a hand of more than ten rows");
        return -1;
    }
    *rows = PyMem_Malloc((size_t)(n ? n : 1) * sizeof **rows);
    if (!*rows) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t r = 0; r < n; r++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, r), "a row is a sequence");
        if (!row)
            goto fail;
        if (PySequence_Fast_GET_SIZE(row) != PILES) {
            Py_DECREF(row);
            PyErr_SetString(PyExc_ValueError, "a row has ten cards");
            goto fail;
        }
        for (int i = 0; i < PILES; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, i));
            if (v < 1 || v >= FACE_DOWN) {
                Py_DECREF(row);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a card of the hand is not known");
                goto fail;
            }
            (*rows)[r][i] = (uint8_t)v;
        }
        Py_DECREF(row);
    }
    Py_DECREF(seq);
    *nrows = (int)n;
    return 0;
fail:
    Py_DECREF(seq);
    PyMem_Free(*rows);
    *rows = NULL;
    return -1;
}

/* A deal every card of which is known (full-information play, the blind player's game on a
 * sample): the piles, face-down cards as their codes plus FACE_DOWN, and the hand's rows.
 * *rows is PyMem_Malloc'd on success. */
static int known_deal_from_py(PyObject *piles, PyObject *rows_obj, long removed, State *s,
                              uint8_t (**rows)[PILES], int *nrows)
{
    if (rows_from_py(rows_obj, rows, nrows) < 0)
        return -1;
    if (position_from_py(piles, s, (const uint8_t(*)[PILES])*rows, *nrows, 0, removed,
                         POS_KNOWN) < 0)
        goto fail;
    return 0;
fail:
    PyMem_Free(*rows);
    *rows = NULL;
    return -1;
}

/* ---- the byte ceiling of a call (ceiling.c) ---- */

/* A quarter of the machine's memory: the ceiling of a call that names none (memory.ceiling's
 * default), so that no call into the core grows without bound. */
static size_t default_ceiling(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return (size_t)4 << 30;
    return (size_t)pages / 4 * (size_t)size;
}

/* The ceiling an entry point was given as its last, optional argument (-1: not given). */
static int ceiling_from_py(Py_ssize_t given, size_t *out)
{
    if (given == -1) {
        *out = default_ceiling();
        return 0;
    }
    if (given < 1) {
        PyErr_SetString(PyExc_ValueError, "a memory ceiling is a positive number of bytes");
        return -1;
    }
    *out = (size_t)given;
    return 0;
}

/* A search that stopped for memory: at its ceiling (hit), or as the machine ran out. */
static PyObject *no_memory(int hit, size_t ceiling)
{
    if (hit)
        return PyErr_Format(PyExc_MemoryError,
                            "the search reached its memory ceiling of %zu bytes", ceiling);
    return PyErr_NoMemory();
}

static PyObject *search_result(int status, Line *line, int hit, size_t ceiling)
{
    if (status == SEARCH_ERROR) {
        core_free(line->v);
        return NULL; /* the exception is set */
    }
    if (status == SEARCH_NOMEM) {
        core_free(line->v);
        return no_memory(hit, ceiling);
    }
    if (status != SEARCH_FOUND) {
        core_free(line->v);
        Py_RETURN_NONE;
    }
    PyObject *r = line_to_py(line);
    core_free(line->v);
    return r;
}

static PyObject *py_beam(PyObject *self, PyObject *args)
{
    /* beam(piles, rows, removed, width, budget, max_levels, expired[, ties, ceiling])
     *   -> (line or None, positions): beam.beam; ceiling: the bytes it may hold */
    PyObject *piles, *rows_obj, *budget_obj, *expired;
    int removed, max_levels;
    long long ties = 0;
    long width;
    long long budget, positions = 0;
    Py_ssize_t given = -1;
    size_t ceiling;
    uint8_t(*rows)[PILES] = NULL;
    int nrows = 0;
    State s;
    Line line = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "OOilOiO|Ln", &piles, &rows_obj, &removed, &width, &budget_obj,
                          &max_levels, &expired, &ties, &given) ||
        ceiling_from_py(given, &ceiling) < 0)
        return NULL;
    if (ties < 0 || ties > 0xFFFFFFFFLL)
        return PyErr_Format(PyExc_ValueError, "ties are broken by a number from 0 to 2**32-1");
    if (width < 1 || width > 1000000)
        return PyErr_Format(PyExc_ValueError, "a beam width is 1 to 1,000,000");
    if (int_in_range(max_levels, 0, INT_MAX, "a number of levels") < 0 ||
        limit_from_py(budget_obj, &budget) < 0)
        return NULL;
    if (known_deal_from_py(piles, rows_obj, removed, &s, &rows, &nrows) < 0)
        return NULL;
    PyStop ps = {expired, 0};
    Stopper stop = {py_check, &ps};
    Ceiling outer = ceiling_enter(ceiling);
    int status = beam_search(&s, (const uint8_t(*)[PILES])rows, nrows, removed, width, budget,
                             max_levels, (unsigned long)ties, &stop, &line, &positions);
    int hit = ceiling_leave(outer);
    PyMem_Free(rows);
    PyObject *found = search_result(status, &line, hit, ceiling);
    if (!found)
        return NULL;
    return Py_BuildValue("(NL)", found, positions);
}

static PyObject *node_line(const BlindResult *r, int32_t node)
{
    Line line;
    if (blind_line(r, node, &line) < 0)
        return PyErr_NoMemory();
    PyObject *list = line_to_py(&line);
    core_free(line.v);
    return list;
}

static PyObject *py_blind_search(PyObject *self, PyObject *args)
{
    /* blind_search(piles, removed, space, hand, budget, parts, width, weights, reveals
     *               [, ceiling])
     *   -> (best, line, positions, reveals or None): blindplayer.search; reveals: the moves
     *   the kept reveals' lines may hold in all, the first found kept (0: none, and None
     *   for them), each (score, line, piles, pile, removed); ceiling: the bytes it may hold */
    PyObject *piles, *budget_obj, *wobj;
    int removed, hand, parts;
    long long want;
    long space, width;
    long long budget;
    State s;
    Weights w;
    BlindResult r;
    Py_ssize_t given = -1;
    size_t ceiling;
    (void)self;
    if (!PyArg_ParseTuple(args, "OiliOplOL|n", &piles, &removed, &space, &hand, &budget_obj,
                          &parts, &width, &wobj, &want, &given) ||
        ceiling_from_py(given, &ceiling) < 0)
        return NULL;
    if (want < 0)
        return PyErr_Format(PyExc_ValueError, "the reveals' moves to keep are 0 or more");
    if (width < 0 || width > 1000000)
        return PyErr_Format(PyExc_ValueError, "a beam width is 0 (none) to 1,000,000");
    if (int_in_range(space, -WEIGHT_MOST, WEIGHT_MOST, "a space's worth") < 0 ||
        limit_from_py(budget_obj, &budget) < 0 || weights_from_py(wobj, &w) < 0 ||
        position_from_py(piles, &s, NULL, 0, hand, removed, POS_UNSEEN) < 0)
        return NULL;
    r.most_reveals = want;
    PyStop ps = {NULL, 0};
    Stopper stop = {py_check, &ps};
    Ceiling outer = ceiling_enter(ceiling);
    int status = blind_search(&s, removed, space, hand, budget, parts, width, &w, &stop, &r);
    int hit = ceiling_leave(outer);
    if (status == SEARCH_ERROR)
        return NULL; /* the exception (KeyboardInterrupt) is set */
    if (status == SEARCH_NOMEM)
        return no_memory(hit, ceiling);
    PyObject *line = node_line(&r, r.best_node);
    PyObject *reveals = want ? PyList_New((Py_ssize_t)r.reveals.n) : Py_NewRef(Py_None);
    if (!line || !reveals)
        goto fail;
    for (size_t i = 0; want && i < r.reveals.n; i++) {
        BlindReveal *v = &r.reveals.v[i];
        State after;
        size_t n;
        state_unpack(&after, store_key(&r.store, (size_t)v->id, &n));
        PyObject *piles_after = piles_to_py(&after);
        PyObject *tuple = piles_after ? PyList_AsTuple(piles_after) : NULL;
        Py_XDECREF(piles_after);
        PyObject *rline = tuple ? node_line(&r, v->node) : NULL;
        PyObject *item = rline ? Py_BuildValue("(lOOii)", v->score, rline, tuple, v->pile,
                                               v->removed)
                               : NULL;
        Py_XDECREF(rline);
        Py_XDECREF(tuple);
        if (!item)
            goto fail;
        PyList_SET_ITEM(reveals, (Py_ssize_t)i, item);
    }
    PyObject *result = Py_BuildValue("(lOLO)", r.best, line, r.positions, reveals);
    Py_DECREF(line);
    Py_DECREF(reveals);
    blind_free(&r);
    return result;
fail:
    Py_XDECREF(line);
    Py_XDECREF(reveals);
    blind_free(&r);
    return NULL;
}

/* A rollout's policy: positions a search, one to three (parts, width) searches, the moves
 * and the turns after which it stops (0 turns: none). */
static int gamespec_from_py(PyObject *budget_obj, PyObject *searches, int max_moves,
                            int max_turns, GameSpec *g)
{
    memset(g, 0, sizeof *g);
    if (max_moves < 0 || max_turns < 0) {
        PyErr_SetString(PyExc_ValueError, "a number of moves or turns is not negative");
        return -1;
    }
    if (limit_from_py(budget_obj, &g->budget) < 0)
        return -1;
    PyObject *seq = PySequence_Fast(searches, "searches are a sequence of (parts, width)");
    if (!seq)
        return -1;
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(seq);
    if (ns < 1 || ns > 3) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one to three searches a turn");
        return -1;
    }
    for (Py_ssize_t k = 0; k < ns; k++) {
        int parts;
        long width;
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        if (!PyTuple_Check(item)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_TypeError, "a search is a tuple (parts, width)");
            return -1;
        }
        if (!PyArg_ParseTuple(item, "pl;a search is (parts, width)", &parts, &width)) {
            Py_DECREF(seq);
            return -1;
        }
        if (width < 0 || width > 1000000) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a beam width is 0 (none) to 1,000,000");
            return -1;
        }
        g->parts[k] = parts;
        g->width[k] = width;
    }
    Py_DECREF(seq);
    g->nsearches = (int)ns;
    g->max_moves = max_moves;
    g->max_turns = max_turns;
    return 0;
}

static PyObject *features_to_py(const int *f)
{
    PyObject *t = PyTuple_New(N_FEATURES);
    for (int i = 0; t && i < N_FEATURES; i++) {
        PyObject *v = PyLong_FromLong(f[i]);
        if (!v) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *py_blind_game(PyObject *self, PyObject *args)
{
    /* blind_game(piles, rows, removed, budget, searches, weights, max_moves, max_turns=0,
     *            record=False, ceiling=a quarter of the machine's memory)
     *   -> (won, done, removed, down, hand, moves, positions, value, turns, lost, end, log):
     *   rollouts.rollout, on a deal every card of which is known; searches: one to
     *   three (parts, width) pairs; end: the piles where it stopped; log: each turn's
     *   features (rollouts.features) when record, else None */
    PyObject *piles, *rows_obj, *budget_obj, *searches, *wobj;
    int removed, max_moves, max_turns = 0, record = 0;
    uint8_t(*rows)[PILES] = NULL;
    int nrows = 0;
    State s, end;
    Weights w;
    GameSpec g;
    GameResult r;
    FeatureLog log = {NULL, 0, 0};
    Py_ssize_t given = -1;
    size_t ceiling;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiOOOi|ipn", &piles, &rows_obj, &removed, &budget_obj,
                          &searches, &wobj, &max_moves, &max_turns, &record, &given) ||
        ceiling_from_py(given, &ceiling) < 0)
        return NULL;
    if (gamespec_from_py(budget_obj, searches, max_moves, max_turns, &g) < 0 ||
        weights_from_py(wobj, &w) < 0)
        return NULL;
    if (known_deal_from_py(piles, rows_obj, removed, &s, &rows, &nrows) < 0)
        return NULL;
    if (record) {
        /* a turn ends at a card turned up or a row dealt: at most one a card, and the start */
        log.cap = MAX_CARDS + 1;
        log.v = PyMem_Malloc(log.cap * sizeof *log.v);
        if (!log.v) {
            PyMem_Free(rows);
            return PyErr_NoMemory();
        }
    }
    int status;
    Stopper stop = {py_check_released, NULL};
    g.stop = &stop;
    int hit;
    Py_BEGIN_ALLOW_THREADS
    Ceiling outer = ceiling_enter(ceiling); /* (this thread's, the GIL let go or not) */
    status = blind_game(&s, (const uint8_t(*)[PILES])rows, nrows, removed, &g, &w, &r, &end,
                        record ? &log : NULL);
    hit = ceiling_leave(outer);
    Py_END_ALLOW_THREADS
    PyMem_Free(rows);
    if (status == SEARCH_ERROR || status == SEARCH_NOMEM) {
        PyMem_Free(log.v);
        if (status == SEARCH_ERROR)
            return NULL; /* the exception (KeyboardInterrupt) is set */
        return no_memory(hit, ceiling);
    }
    PyObject *turns = record ? PyList_New((Py_ssize_t)log.n) : Py_NewRef(Py_None);
    for (size_t i = 0; turns && record && i < log.n; i++) {
        PyObject *t = features_to_py(log.v[i]);
        if (!t)
            Py_CLEAR(turns);
        else
            PyList_SET_ITEM(turns, (Py_ssize_t)i, t);
    }
    PyMem_Free(log.v);
    PyObject *endpy = turns ? piles_to_py(&end) : NULL;
    PyObject *endt = endpy ? PyList_AsTuple(endpy) : NULL;
    Py_XDECREF(endpy);
    if (!endt) {
        Py_XDECREF(turns);
        return NULL;
    }
    return Py_BuildValue("(iiiiiiLliiNN)", r.won, r.done, r.removed, r.down, r.hand, r.moves,
                         r.positions, r.value, r.turns, r.lost, endt, turns);
}

/* ---- the search over what turns up ---- */

#define MAX_CANDIDATES 64
#define MAX_LINE 1000
#define MAX_TRAJECTORIES 100000000LL

/* A candidate: a line of moves and removals that ends at the first card it turns up (if it
 * turns one up), checked move by move on a copy of the view; or the deal alone. */
static int candidate_from_py(PyObject *obj, const State *view, int rows, Line *line)
{
    PyObject *seq = PySequence_Fast(obj, "a candidate is a sequence of actions");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > MAX_LINE) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a candidate has 1 to 1,000 actions");
        return -1;
    }
    line->v = core_malloc((size_t)n * sizeof *line->v);
    line->n = 0;
    if (!line->v) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    State s = *view;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        int kind, src, dst, count;
        if (!PyTuple_Check(item) ||
            !PyArg_ParseTuple(item, "iiii;an action is (kind, src, dst, count)", &kind, &src,
                              &dst, &count)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "an action is a tuple (kind, src, dst, count)");
            goto fail;
        }
        if (kind == ACT_DEAL) {
            int spaces = 0;
            for (int i = 0; i < PILES; i++)
                spaces += !s.len[i];
            if (n != 1 || !rows || spaces) {
                PyErr_SetString(PyExc_ValueError,
                                "a deal is a candidate alone, with a row in hand and no space");
                goto fail;
            }
            line->v[line->n++] = (Action){ACT_DEAL, 0, 0, 0};
            break;
        }
        Action a;
        if (action_from_py(item, &s, &a) < 0)
            goto fail;
        const uint8_t *p = s.c[a.src];
        int len = s.len[a.src];
        if (a.kind == ACT_MOVE) {
            int run = run_length(p, len);
            const uint8_t *q = s.c[a.dst];
            int qlen = s.len[a.dst];
            if (a.count > run ||
                (qlen && (q[qlen - 1] >= FACE_DOWN ||
                          (q[qlen - 1] & 15) != (p[len - a.count] & 15) + 1))) {
                PyErr_SetString(PyExc_ValueError, "a candidate's move breaks the rules");
                goto fail;
            }
        } else if (!completes_suit(p, len)) {
            PyErr_SetString(PyExc_ValueError, "a candidate removes no complete suit");
            goto fail;
        }
        Undo u;
        int turned;
        int outcome = apply_action(&s, a, &u, &turned);
        line->v[line->n++] = a;
        if (outcome == OUT_REVEAL && k < n - 1) {
            PyErr_SetString(PyExc_ValueError, "a candidate goes on past the card it turns up");
            goto fail;
        }
    }
    Py_DECREF(seq);
    return 0;
fail:
    Py_DECREF(seq);
    core_free(line->v);
    line->v = NULL;
    return -1;
}

static int value_from_py(PyObject *obj, ValueModel *v)
{
    /* (bias, (w0, ..., w9)), thousandths of a logit, each within a million */
    PyObject *ws;
    if (!PyTuple_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a value model is a tuple (bias, weights)");
        return -1;
    }
    if (!PyArg_ParseTuple(obj, "lO;a value model is (bias, weights)", &v->bias, &ws))
        return -1;
    PyObject *seq = PySequence_Fast(ws, "a value model's weights are a sequence");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != N_FEATURES) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "a value model has %d weights", N_FEATURES);
        return -1;
    }
    for (int i = 0; i < N_FEATURES; i++) {
        v->w[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v->w[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    for (int i = -1; i < N_FEATURES; i++)
        if (labs(i < 0 ? v->bias : v->w[i]) > 1000000) {
            PyErr_SetString(PyExc_ValueError, "a value model's weight is within a million");
            return -1;
        }
    return 0;
}

/* A player's view: every face-down card unknown; the unseen cards fill its face-down places
 * and the hand, and with the face-up cards and the suits removed make no card or rank more
 * than two decks hold. */
static int check_unseen(const State *view, const uint8_t *u, Py_ssize_t nunseen, int rows,
                        int removed)
{
    int down = 0, copies[FACE_DOWN] = {0};
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < view->len[i]; k++) {
            uint8_t b = view->c[i][k];
            if (b > FACE_DOWN)
                return bad("a player's view has no known face-down card");
            if (b == FACE_DOWN)
                down++;
            else
                copies[b]++;
        }
    if (nunseen != down + (Py_ssize_t)rows * PILES)
        return bad("the unseen cards fill the face-down places and the hand");
    for (Py_ssize_t k = 0; k < nunseen; k++) {
        if (!is_card(u[k]))
            return bad("an unseen card is not a card");
        copies[u[k]]++;
    }
    for (int rank = ACE; rank <= KING; rank++) {
        int of_rank = removed;
        for (int suit = 0; suit < 4; suit++)
            of_rank += copies[suit * 16 + rank];
        if (of_rank > 8)
            return bad("the unseen cards and the view hold a rank more than eight times");
    }
    return 0;
}

/* The candidate lines, each checked against the view (candidate_from_py); *ncand counts
 * those converted (to be freed), also on an error. */
static int candidates_from_py(PyObject *obj, const State *view, int rows, Line *lines,
                              int *ncand)
{
    PyObject *seq = PySequence_Fast(obj, "candidates are a sequence of lines");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int status = 0;
    if (n < 1 || n > MAX_CANDIDATES)
        status = bad("1 to 64 candidates");
    while (!status && *ncand < n) {
        if (candidate_from_py(PySequence_Fast_GET_ITEM(seq, *ncand), view, rows,
                              &lines[*ncand]) < 0)
            status = -1;
        else
            ++*ncand;
    }
    Py_DECREF(seq);
    return status;
}

/* (chosen, sums, counts, diffs, squares, positions, trajectories, stopped) */
static PyObject *weighed_to_py(const ChanceResult *r, int ncand, int stopped)
{
    PyObject *lists[4] = {NULL, NULL, NULL, NULL}, *result = NULL;
    long long *arrays[4] = {r->sum, r->count, r->diff, r->square};
    for (int j = 0; j < 4; j++) {
        lists[j] = PyList_New(ncand);
        for (int i = 0; lists[j] && i < ncand; i++) {
            PyObject *v = PyLong_FromLongLong(arrays[j][i]);
            if (!v)
                Py_CLEAR(lists[j]);
            else
                PyList_SET_ITEM(lists[j], i, v);
        }
    }
    if (lists[0] && lists[1] && lists[2] && lists[3])
        result = Py_BuildValue("(iOOOOLLO)", r->chosen, lists[0], lists[1], lists[2], lists[3],
                               r->positions, r->trajectories, stopped ? Py_True : Py_False);
    for (int j = 0; j < 4; j++)
        Py_XDECREF(lists[j]);
    return result;
}

static PyObject *py_chance_search(PyObject *self, PyObject *args)
{
    /* chance_search(piles, removed, rows, unseen, candidates, seed, trajectories, budget,
     *               searches, weights, turns, max_moves, value, margin, expired[, ceiling])
     *   -> (chosen, sums, counts, diffs, squares, positions, trajectories, stopped):
     *   weighing.search; margin: in hundredths of a standard error; ceiling: the bytes it
     *   may hold */
    PyObject *piles, *cands_obj, *seed_obj, *traj_obj, *budget_obj, *searches, *wobj, *vobj,
        *expired;
    Py_buffer unseen;
    int removed, rows, turns, max_moves, margin;
    ChanceSpec c;
    State view;
    Line lines[MAX_CANDIDATES];
    int ncand = 0;
    long long sum[MAX_CANDIDATES], count[MAX_CANDIDATES], diff[MAX_CANDIDATES],
        square[MAX_CANDIDATES];
    PyObject *result = NULL;
    Py_ssize_t given = -1;
    size_t ceiling;
    (void)self;
    memset(&c, 0, sizeof c);
    if (!PyArg_ParseTuple(args, "Oiiy*OOOOOOiiOiO|n", &piles, &removed, &rows, &unseen,
                          &cands_obj, &seed_obj, &traj_obj, &budget_obj, &searches, &wobj, &turns,
                          &max_moves, &vobj, &margin, &expired, &given))
        return NULL;
    if (ceiling_from_py(given, &ceiling) < 0 ||
        int_in_range(margin, 0, 10000, "a margin in hundredths of a standard error") < 0)
        goto out;
    if (int_in_range(rows, 0, MAX_CARDS / PILES, "the number of rows in the hand") < 0 ||
        position_from_py(piles, &view, NULL, 0, (long)rows * PILES, removed, 0) < 0 ||
        gamespec_from_py(budget_obj, searches, max_moves, turns, &c.rollout) < 0 ||
        weights_from_py(wobj, &c.w) < 0 || value_from_py(vobj, &c.value) < 0)
        goto out;
    const uint8_t *u = unseen.buf;
    if (check_unseen(&view, u, unseen.len, rows, removed) < 0)
        goto out;
    int overflow;
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (seed == (unsigned long long)-1 && PyErr_Occurred())
        goto out;
    long long trajectories = PyLong_AsLongLongAndOverflow(traj_obj, &overflow);
    if (trajectories == -1 && PyErr_Occurred())
        goto out;
    if (overflow || trajectories < 1 || trajectories > MAX_TRAJECTORIES) {
        PyErr_SetString(PyExc_ValueError, "1 to 100,000,000 trajectories");
        goto out;
    }
    if (candidates_from_py(cands_obj, &view, rows, lines, &ncand) < 0)
        goto out;
    c.view = &view;
    c.removed = removed;
    c.rows = rows;
    c.unseen = u;
    c.nunseen = (int)unseen.len;
    c.cand = lines;
    c.ncand = ncand;
    c.seed = seed;
    c.trajectories = trajectories;
    c.margin = margin / 100.0;
    ChanceResult r = {sum, count, diff, square, 0, 0, 0};
    PyStop ps = {expired, 0};
    Stopper stop = {py_check, &ps};
    Ceiling outer = ceiling_enter(ceiling);
    int status = chance_search(&c, &r, &stop);
    int hit = ceiling_leave(outer);
    if (status == SEARCH_NOMEM) {
        no_memory(hit, ceiling);
        goto out;
    }
    if (status != SEARCH_ERROR)
        result = weighed_to_py(&r, ncand, status == SEARCH_STOPPED);
out:
    for (int i = 0; i < ncand; i++)
        core_free(lines[i].v);
    PyBuffer_Release(&unseen);
    return result;
}

static int spec_from_py(PyObject *obj, GoalSpec *g)
{
    PyObject *steps_obj, *rows_obj;
    memset(g, 0, sizeof *g);
    if (!PyTuple_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a goal is a tuple");
        return -1;
    }
    if (!PyArg_ParseTuple(obj, "iiipiipppppiiliOO;a goal's fields", &g->kind, &g->pile, &g->fixed,
                          &g->sorted_mode, &g->root_spaces, &g->keep_spaces, &g->no_turn_up,
                          &g->no_new_space, &g->no_deal, &g->keep_suits_in_pinned,
                          &g->autoremove, &g->forbidden, &g->card, &g->chaos_weight, &g->done_at, &steps_obj,
                          &rows_obj))
        return -1;
    if (g->kind < GOAL_TURN_UP || g->kind > GOAL_WIN || g->pile < -1 || g->pile >= PILES || g->fixed < 0 ||
        g->fixed > PILES || g->root_spaces < 0 || g->keep_spaces < 0 || g->forbidden < 0 ||
        g->forbidden > 15 || g->card < 0 || g->card > 255 || g->chaos_weight < 0 ||
        g->chaos_weight > 1000000 || g->done_at < 0 || g->done_at > MAX_GOAL_STEPS) {
        PyErr_SetString(PyExc_ValueError, "a goal's field out of range");
        return -1;
    }
    PyObject *seq = PySequence_Fast(steps_obj, "a goal's steps are a sequence");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int total = 0;
    if (n > MAX_GOAL_STEPS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "at most eight steps");
        return -1;
    }
    g->nsteps = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *step = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), "a step is suits");
        if (!step) {
            Py_DECREF(seq);
            return -1;
        }
        Py_ssize_t k = PySequence_Fast_GET_SIZE(step);
        total += (int)k;
        if (k < 1 || total > 8) {
            Py_DECREF(step);
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "one to eight suits to remove");
            return -1;
        }
        g->step_len[i] = (int)k;
        for (Py_ssize_t j = 0; j < k; j++) {
            long suit = PyLong_AsLong(PySequence_Fast_GET_ITEM(step, j));
            if (suit < 0 || suit > 3) {
                Py_DECREF(step);
                Py_DECREF(seq);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a suit is 0 to 3");
                return -1;
            }
            g->steps[i][j] = (int8_t)suit;
        }
        Py_DECREF(step);
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(rows_obj, "the hand is a sequence of rows");
    if (!seq)
        return -1;
    n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAX_CARDS / PILES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a hand of more than ten rows");
        return -1;
    }
    g->nrows = (int)n;
    for (Py_ssize_t r = 0; r < n; r++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, r), "a row is a sequence");
        if (!row) {
            Py_DECREF(seq);
            return -1;
        }
        if (PySequence_Fast_GET_SIZE(row) != PILES) {
            Py_DECREF(row);
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a row has ten cards");
            return -1;
        }
        g->row_known[r] = 1;
        for (int i = 0; i < PILES; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, i));
            if (v < 0 || v >= FACE_DOWN) {
                Py_DECREF(row);
                Py_DECREF(seq);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a card of the hand is 0 (unknown) to 63");
                return -1;
            }
            g->rows[r][i] = (uint8_t)v;
            if (!v)
                g->row_known[r] = 0;
        }
        Py_DECREF(row);
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *py_goal_search(PyObject *self, PyObject *args)
{
    /* goal_search(goal, root, macros, into_spaces, ordered, width, limit, weight, expired
     *             [, ceiling])
     *   -> (steps or None, positions, exhaustive, depth, bytes): goalsearch.astar (a beam
     *   when width > 0); ceiling: the bytes it may hold */
    PyObject *spec, *root_obj, *limit_obj, *expired;
    int macros, into_spaces, ordered;
    long weight, width;
    long long limit;
    GoalSpec g;
    State root;
    GoalResult r;
    Py_ssize_t given = -1;
    size_t ceiling;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOppplOlO|n", &spec, &root_obj, &macros, &into_spaces,
                          &ordered, &width, &limit_obj, &weight, &expired, &given) ||
        ceiling_from_py(given, &ceiling) < 0)
        return NULL;
    if (weight < 0 || weight > 1000)
        return PyErr_Format(PyExc_ValueError, "a weight is 0 to 1000");
    if (width < 0 || width > 100000000L)
        return PyErr_Format(PyExc_ValueError, "a beam's width is 0 to 100000000");
    if (spec_from_py(spec, &g) < 0 || limit_from_py(limit_obj, &limit) < 0 ||
        position_from_py(root_obj, &root, (const uint8_t(*)[PILES])g.rows, g.nrows, 0, 0,
                         POS_ROWS_UNKNOWN) < 0)
        return NULL;
    PyStop ps = {expired, 0};
    Stopper stop = {py_check, &ps};
    Ceiling outer = ceiling_enter(ceiling);
    int status = goal_search(&g, &root, macros, into_spaces, ordered, (size_t)width, limit,
                             weight, &stop, &r);
    int hit = ceiling_leave(outer);
    if (status == SEARCH_ERROR)
        return NULL;
    if (status == SEARCH_NOMEM)
        return no_memory(hit, ceiling);
    PyObject *steps;
    if (status == SEARCH_FOUND) {
        steps = PyList_New((Py_ssize_t)r.nsteps);
        for (size_t i = 0; steps && i < r.nsteps; i++) {
            Line line = {r.steps[i].a, (size_t)r.steps[i].n};
            PyObject *actions = line_to_py(&line);
            PyObject *tuple = actions ? PyList_AsTuple(actions) : NULL;
            Py_XDECREF(actions);
            if (!tuple) {
                Py_CLEAR(steps);
                break;
            }
            PyList_SET_ITEM(steps, (Py_ssize_t)i, tuple);
        }
        core_free(r.steps);
        if (!steps)
            return NULL;
    } else {
        steps = Py_NewRef(Py_None);
    }
    return Py_BuildValue("(NLiin)", steps, r.positions, r.exhaustive, r.depth,
                         (Py_ssize_t)r.bytes);
}

/* ---- the count before every first move, in every order (firstmoves.py) ---- */

/* One base of a table: None, or (need of 13, bottom, moved[, mask]) with `mask` for an end. */
static int base_from_py(PyObject *obj, int with_mask, int8_t *ok, int16_t *need, int16_t *bottom,
                        int16_t *moved, int32_t *mask)
{
    *ok = 0;
    if (obj == Py_None)
        return 0;
    PyObject *need_obj, *a, *b, *c = NULL;
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 3 + with_mask)
        return bad("a base is None or a tuple (need, bottom, moved), with the mask at the end");
    need_obj = PyTuple_GET_ITEM(obj, 0);
    a = PyTuple_GET_ITEM(obj, 1);
    b = PyTuple_GET_ITEM(obj, 2);
    if (with_mask) {
        c = b;
        b = PyTuple_GET_ITEM(obj, 3);
    }
    PyObject *seq = PySequence_Fast(need_obj, "a base's need is a sequence of 13 numbers");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != RANKS) {
        Py_DECREF(seq);
        return bad("a base's need has 13 numbers");
    }
    for (int r = 0; r < RANKS; r++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, r));
        if ((v == -1 && PyErr_Occurred()) || int_in_range(v, -MAX_CARDS, MAX_CARDS, "a need") < 0) {
            Py_DECREF(seq);
            return -1;
        }
        need[r] = (int16_t)v;
    }
    Py_DECREF(seq);
    long vb = PyLong_AsLong(a), vm = PyLong_AsLong(b), vk = c ? PyLong_AsLong(c) : 0;
    if (PyErr_Occurred() || int_in_range(vb, 0, 1, "a base's bottom") < 0 ||
        int_in_range(vm, 0, MAX_CARDS, "a base's moved cards") < 0 ||
        int_in_range(vk, 0, (1L << (RANKS + 1)) - 1, "a base's ranks gathered") < 0)
        return -1;
    *bottom = (int16_t)vb;
    *moved = (int16_t)vm;
    if (mask)
        *mask = (int32_t)vk;
    *ok = 1;
    return 0;
}

/* A table: for each pile, one base (or None) for each length 0..len. */
static int table_from_py(PyObject *obj, Orders *o, int ends)
{
    PyObject *seq = PySequence_Fast(obj, "a table is a sequence of ten piles' bases");
    if (!seq)
        return -1;
    int status = 0;
    if (PySequence_Fast_GET_SIZE(seq) != PILES)
        status = bad("a table has ten piles");
    for (int i = 0; i < PILES && !status; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), "a pile's bases");
        if (!row) {
            status = -1;
            break;
        }
        if (PySequence_Fast_GET_SIZE(row) != o->len[i] + 1)
            status = bad("a pile has a base for each length from 0 to its cards");
        for (int u = 0; u <= o->len[i] && !status; u++) {
            PyObject *item = PySequence_Fast_GET_ITEM(row, u);
            if (ends) {
                OrdersEnd *e = &o->end[i][u];
                status = base_from_py(item, 1, &e->ok, e->need, &e->bottom, &e->moved, &e->mask);
            } else {
                OrdersBase *p = &o->plain[i][u];
                status = base_from_py(item, 0, &p->ok, p->need, &p->bottom, &p->moved, NULL);
            }
        }
        Py_DECREF(row);
    }
    Py_DECREF(seq);
    return status;
}

static PyObject *py_orders(PyObject *self, PyObject *args)
{
    /* orders(piles, plain, end, free, bare, most, end_spaces, end_most, wanted, budget,
     *   expired[, ceiling]) -> (found: True, False, or None past the budget or the time,
     *   states): firstmoves._Orders.reaches_an_end; ceiling: the bytes it may hold */
    PyObject *piles, *plain, *end, *budget_obj, *expired;
    int free_suits, bare, most, end_spaces, end_most, wanted;
    long long budget, examined = 0;
    State s;
    Py_ssize_t given = -1;
    size_t ceiling;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOipiiiiOO|n", &piles, &plain, &end, &free_suits, &bare,
                          &most, &end_spaces, &end_most, &wanted, &budget_obj, &expired, &given) ||
        ceiling_from_py(given, &ceiling) < 0)
        return NULL;
    if (int_in_range(free_suits, 0, 15, "the suits that may be removed, as bits") < 0 ||
        int_in_range(most, -1, PILES, "the most spaces") < 0 ||
        int_in_range(end_spaces, 0, PILES, "the spaces the end needs") < 0 ||
        int_in_range(end_most, -1, PILES, "the most spaces at the end") < 0 ||
        int_in_range(wanted, 0, (1L << (RANKS + 1)) - 1, "the ranks the end gathers") < 0 ||
        limit_from_py(budget_obj, &budget) < 0)
        return NULL;
    if (state_from_py(piles, &s, 0) < 0 || check_position(&s, NULL, 0, 0, 0, 0) < 0)
        return NULL;
    Orders *o = PyMem_Calloc(1, sizeof *o);
    if (!o)
        return PyErr_NoMemory();
    for (int i = 0; i < PILES; i++) {
        if (s.len[i] > ORDERS_MAX_BASE) {
            PyMem_Free(o);
            return PyErr_Format(PyExc_ValueError, "a pile of more than %d cards",
                                ORDERS_MAX_BASE);
        }
        o->len[i] = s.len[i];
        memcpy(o->pile[i], s.c[i], s.len[i]);
    }
    o->free = free_suits;
    o->bare = bare;
    o->most = most;
    o->end_spaces = end_spaces;
    o->end_most = end_most;
    o->wanted = wanted;
    if (table_from_py(plain, o, 0) < 0 || table_from_py(end, o, 1) < 0) {
        PyMem_Free(o);
        return NULL;
    }
    PyStop ps = {expired, 0};
    Stopper stop = {py_check, &ps};
    Ceiling outer = ceiling_enter(ceiling);
    int status = orders_search(o, budget, &stop, &examined);
    int hit = ceiling_leave(outer);
    PyMem_Free(o);
    if (status == SEARCH_ERROR)
        return NULL;
    if (status == SEARCH_NOMEM)
        return no_memory(hit, ceiling);
    PyObject *found = status == SEARCH_FOUND   ? Py_True
                      : status == SEARCH_NONE ? Py_False
                                              : Py_None;
    return Py_BuildValue("(OL)", found, examined);
}

static PyMethodDef methods[] = {
    {"actions", py_actions, METH_VARARGS,
     "actions(piles, spaces, whole_into_space=True): compact.actions as (kind, src, dst, count)"},
    {"apply", py_apply, METH_VARARGS, "apply(piles, action): compact.apply"},
    {"apply_undo", py_apply_undo, METH_VARARGS, "apply(piles, action) then undo it"},
    {"rank_key", py_rank_key, METH_VARARGS, "rank_key(piles, removed): compact.rank_key"},
    {"blind_value", py_blind_value, METH_VARARGS,
     "blind_value(piles, removed, space, weights): evaluation.value"},
    {"state_key", py_state_key, METH_VARARGS, "state_key(piles): (packed bytes, 64-bit hash)"},
    {"blind_game", py_blind_game, METH_VARARGS,
     "blind_game(piles, rows, removed, budget, searches, weights, max_moves, max_turns=0, "
     "record=False, ceiling=None): rollouts.rollout within ceiling bytes"},
    {"chance_search", py_chance_search, METH_VARARGS,
     "chance_search(piles, removed, rows, unseen, candidates, seed, trajectories, budget, "
     "searches, weights, turns, max_moves, value, margin, expired[, ceiling]): "
     "weighing.search"},
    {"blind_search", py_blind_search, METH_VARARGS,
     "blind_search(piles, removed, space, hand, budget, parts, width, weights, reveal_moves"
     "[, ceiling]): "
     "blindplayer.search"},
    {"goal_search", py_goal_search, METH_VARARGS,
     "goal_search(goal, root, macros, into_spaces, ordered, width, limit, weight, expired"
     "[, ceiling]): "
     "goalsearch.astar (a beam when width > 0)"},
    {"orders", py_orders, METH_VARARGS,
     "orders(piles, plain, end, free, bare, most, end_spaces, end_most, wanted, budget, "
     "expired[, ceiling]): firstmoves._Orders.reaches_an_end"},
    {"beam", py_beam, METH_VARARGS,
     "beam(piles, rows, removed, width, budget, max_levels, expired[, ties, ceiling]): "
     "beam.beam"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled search core (see csrc/core.h); spider_cli.analysis.native loads it.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m = PyModule_Create(&module);
    /* the most cards a position may hold: spider_cli.analysis.native reads its bound here */
    if (m && PyModule_AddIntConstant(m, "MAX_CARDS", MAX_CARDS) < 0)
        Py_CLEAR(m);
    return m;
}
