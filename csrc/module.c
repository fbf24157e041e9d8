/* spider_cli.analysis._core: the compiled core's Python face. The only file that knows Python:
 * it checks what it is given (a bad argument is a ValueError or TypeError, never a crash),
 * converts positions and lines, and runs the searches with the GIL held (they are short
 * between checks of Ctrl-C and of the caller's clock). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

/* An action (kind, src, dst, count), checked to be one that apply can make on the position. */
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
    if (src < 0 || src >= PILES || dst < 0 || dst >= PILES) {
        PyErr_SetString(PyExc_ValueError, "a pile is 0 to 9");
        return -1;
    }
    if (kind == ACT_MOVE) {
        if (src == dst || count < 1 || count > s->len[src]) {
            PyErr_SetString(PyExc_ValueError, "not a move of cards the pile has");
            return -1;
        }
    } else if (kind == ACT_REMOVE) {
        if (s->len[src] < 13) {
            PyErr_SetString(PyExc_ValueError, "a removal from a pile of fewer than 13 cards");
            return -1;
        }
        dst = src;
        count = 13;
    } else {
        PyErr_SetString(PyExc_ValueError, "an action is a move (0) or a removal (1)");
        return -1;
    }
    *a = (Action){(int8_t)kind, (int8_t)src, (int8_t)dst, (int8_t)count};
    return 0;
}

static int weights_from_py(PyObject *obj, Weights *w)
{
    /* (hidden costs 0..7, the cost of each more, clear, suited, ranked, removed) */
    PyObject *hidden;
    if (!PyTuple_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "weights are a tuple");
        return -1;
    }
    if (!PyArg_ParseTuple(obj, "Olllll;weights are (hidden, step, clear, suited, ranked, removed)",
                          &hidden, &w->hidden_step, &w->clear, &w->suited, &w->ranked,
                          &w->removed))
        return -1;
    PyObject *seq = PySequence_Fast(hidden, "hidden costs are a sequence");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != N_HIDDEN) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "eight hidden costs");
        return -1;
    }
    for (int i = 0; i < N_HIDDEN; i++) {
        w->hidden[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (w->hidden[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
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
} PyStop;

static int py_check(void *ctx)
{
    PyStop *ps = ctx;
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
    if (state_from_py(piles, &s, 0) < 0)
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
    if (state_from_py(piles, &s, 0) < 0 || action_from_py(action, &s, &a) < 0)
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
    if (state_from_py(piles, &s, 0) < 0 || action_from_py(action, &s, &a) < 0)
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
    if (state_from_py(piles, &s, 0) < 0)
        return NULL;
    rank_key(&s, removed, &chaos, &negready);
    return Py_BuildValue("(ll)", chaos, negready);
}

static PyObject *py_pile_value(PyObject *self, PyObject *args)
{
    Py_buffer pile;
    PyObject *wobj;
    Weights w;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*O", &pile, &wobj))
        return NULL;
    if (pile.len > MAX_CARDS || weights_from_py(wobj, &w) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a pile of more than 104 cards");
        PyBuffer_Release(&pile);
        return NULL;
    }
    long v = pile_value(pile.buf, (int)pile.len, &w);
    PyBuffer_Release(&pile);
    return PyLong_FromLong(v);
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
    if (state_from_py(piles, &s, 0) < 0)
        return NULL;
    size_t n = state_pack(&s, key);
    return Py_BuildValue("(y#K)", (const char *)key, (Py_ssize_t)n,
                         (unsigned long long)hash_bytes(key, n));
}

/* ---- the searches ---- */

static int rows_from_py(PyObject *obj, uint8_t (**rows)[PILES], int *nrows, Py_ssize_t *cards)
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
    *cards = n * PILES;
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
static int known_deal_from_py(PyObject *piles, PyObject *rows_obj, State *s,
                              uint8_t (**rows)[PILES], int *nrows)
{
    Py_ssize_t hand = 0;
    if (rows_from_py(rows_obj, rows, nrows, &hand) < 0)
        return -1;
    if (state_from_py(piles, s, hand) < 0)
        goto fail;
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < s->len[i]; k++)
            if ((s->c[i][k] & 15) < ACE || (s->c[i][k] & 15) > KING) {
                PyErr_SetString(PyExc_ValueError, "full-information play needs every card known");
                goto fail;
            }
    for (int r = 0; r < *nrows; r++)
        for (int i = 0; i < PILES; i++)
            if (((*rows)[r][i] & 15) < ACE || ((*rows)[r][i] & 15) > KING) {
                PyErr_SetString(PyExc_ValueError, "a card of the hand is not a card");
                goto fail;
            }
    return 0;
fail:
    PyMem_Free(*rows);
    *rows = NULL;
    return -1;
}

static PyObject *search_result(int status, Line *line)
{
    if (status == SEARCH_ERROR) {
        free(line->v);
        return NULL; /* the exception is set */
    }
    if (status == SEARCH_NOMEM) {
        free(line->v);
        return PyErr_NoMemory();
    }
    if (status != SEARCH_FOUND) {
        free(line->v);
        Py_RETURN_NONE;
    }
    PyObject *r = line_to_py(line);
    free(line->v);
    return r;
}

static PyObject *py_beam(PyObject *self, PyObject *args)
{
    /* beam(piles, rows, removed, width, budget, max_levels, expired)
     *   -> (line or None, positions): autoplay._beam */
    PyObject *piles, *rows_obj, *budget_obj, *expired;
    int removed, max_levels;
    long width;
    long long budget, positions = 0;
    uint8_t(*rows)[PILES] = NULL;
    int nrows = 0;
    State s;
    Line line = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "OOilOiO", &piles, &rows_obj, &removed, &width, &budget_obj,
                          &max_levels, &expired))
        return NULL;
    if (width < 1 || width > 1000000)
        return PyErr_Format(PyExc_ValueError, "a beam width is 1 to 1,000,000");
    if (removed < 0 || removed > 8)
        return PyErr_Format(PyExc_ValueError, "0 to 8 suits removed");
    if (limit_from_py(budget_obj, &budget) < 0)
        return NULL;
    if (known_deal_from_py(piles, rows_obj, &s, &rows, &nrows) < 0)
        return NULL;
    PyStop ps = {expired};
    Stopper stop = {py_check, &ps};
    int status = beam_search(&s, (const uint8_t(*)[PILES])rows, nrows, removed, width, budget,
                             max_levels, &stop, &line, &positions);
    PyMem_Free(rows);
    PyObject *found = search_result(status, &line);
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
    free(line.v);
    return list;
}

static PyObject *py_blind_search(PyObject *self, PyObject *args)
{
    /* blind_search(piles, removed, space, hand, budget, parts, width, weights, reveals)
     *   -> (best, line, positions, reveals or None): blindplayer._search, each reveal
     *   (score, line, piles, pile, removed) */
    PyObject *piles, *budget_obj, *wobj;
    int removed, hand, parts, want;
    long space, width;
    long long budget;
    State s;
    Weights w;
    BlindResult r;
    (void)self;
    if (!PyArg_ParseTuple(args, "OiliOplOp", &piles, &removed, &space, &hand, &budget_obj,
                          &parts, &width, &wobj, &want))
        return NULL;
    if (removed < 0 || removed > 8)
        return PyErr_Format(PyExc_ValueError, "0 to 8 suits removed");
    if (hand < 0 || hand > MAX_CARDS)
        return PyErr_Format(PyExc_ValueError, "a hand of 0 to 104 cards");
    if (width < 0 || width > 1000000)
        return PyErr_Format(PyExc_ValueError, "a beam width is 0 (none) to 1,000,000");
    if (limit_from_py(budget_obj, &budget) < 0 || weights_from_py(wobj, &w) < 0 ||
        state_from_py(piles, &s, 0) < 0)
        return NULL;
    r.want_reveals = want;
    int status = blind_search(&s, removed, space, hand, budget, parts, width, &w, &r);
    if (status == SEARCH_NOMEM)
        return PyErr_NoMemory();
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
     *            record=False)
     *   -> (won, done, removed, down, hand, moves, positions, value, turns, lost, end, log):
     *   sampler.rollout_python, on a deal every card of which is known; searches: one to
     *   three (parts, width) pairs; end: the piles where it stopped; log: each turn's
     *   features (chance.features) when record, else None */
    PyObject *piles, *rows_obj, *budget_obj, *searches, *wobj;
    int removed, max_moves, max_turns = 0, record = 0;
    uint8_t(*rows)[PILES] = NULL;
    int nrows = 0;
    State s, end;
    Weights w;
    GameSpec g;
    GameResult r;
    FeatureLog log = {NULL, 0, 0};
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiOOOi|ip", &piles, &rows_obj, &removed, &budget_obj,
                          &searches, &wobj, &max_moves, &max_turns, &record))
        return NULL;
    if (removed < 0 || removed > 8)
        return PyErr_Format(PyExc_ValueError, "0 to 8 suits removed");
    if (gamespec_from_py(budget_obj, searches, max_moves, max_turns, &g) < 0 ||
        weights_from_py(wobj, &w) < 0)
        return NULL;
    if (known_deal_from_py(piles, rows_obj, &s, &rows, &nrows) < 0)
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
    Py_BEGIN_ALLOW_THREADS
    status = blind_game(&s, (const uint8_t(*)[PILES])rows, nrows, removed, &g, &w, &r, &end,
                        record ? &log : NULL);
    Py_END_ALLOW_THREADS
    PyMem_Free(rows);
    PyObject *turns = record ? PyList_New((Py_ssize_t)log.n) : Py_NewRef(Py_None);
    for (size_t i = 0; turns && record && i < log.n; i++) {
        PyObject *t = features_to_py(log.v[i]);
        if (!t)
            Py_CLEAR(turns);
        else
            PyList_SET_ITEM(turns, (Py_ssize_t)i, t);
    }
    PyMem_Free(log.v);
    if (status == SEARCH_NOMEM) {
        Py_XDECREF(turns);
        return PyErr_NoMemory();
    }
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
    line->v = malloc((size_t)n * sizeof *line->v);
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
    free(line->v);
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

static PyObject *py_chance_search(PyObject *self, PyObject *args)
{
    /* chance_search(piles, removed, rows, unseen, candidates, seed, trajectories, budget,
     *               searches, weights, turns, max_moves, value, margin, expired)
     *   -> (chosen, sums, counts, diffs, squares, positions, trajectories, stopped):
     *   chancesearch.search_python; margin: in hundredths of a standard error */
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
    (void)self;
    memset(&c, 0, sizeof c);
    if (!PyArg_ParseTuple(args, "Oiiy*OOOOOOiiOiO", &piles, &removed, &rows, &unseen,
                          &cands_obj, &seed_obj, &traj_obj, &budget_obj, &searches, &wobj, &turns,
                          &max_moves, &vobj, &margin, &expired))
        return NULL;
    if (margin < 0 || margin > 10000) {
        PyErr_SetString(PyExc_ValueError, "a margin is 0 to 100 standard errors");
        goto out;
    }
    if (removed < 0 || removed > 8 || rows < 0 || rows > MAX_CARDS / PILES) {
        PyErr_SetString(PyExc_ValueError, "0 to 8 suits removed and 0 to 10 rows in hand");
        goto out;
    }
    if (state_from_py(piles, &view, (Py_ssize_t)rows * PILES) < 0 ||
        gamespec_from_py(budget_obj, searches, max_moves, turns, &c.rollout) < 0 ||
        weights_from_py(wobj, &c.w) < 0 || value_from_py(vobj, &c.value) < 0)
        goto out;
    int down = 0;
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < view.len[i]; k++) {
            uint8_t b = view.c[i][k];
            int face_down = b >= FACE_DOWN;
            if ((face_down && b != FACE_DOWN) || (!face_down && ((b & 15) < ACE ||
                                                                 (b & 15) > KING)) ||
                (face_down && k && view.c[i][k - 1] < FACE_DOWN)) {
                PyErr_SetString(PyExc_ValueError,
                                "a player's view: unknown face-down cards under face-up cards");
                goto out;
            }
            down += face_down;
        }
    const uint8_t *u = unseen.buf;
    if (unseen.len != down + (Py_ssize_t)rows * PILES) {
        PyErr_SetString(PyExc_ValueError, "the unseen cards fill the face-down places and the hand");
        goto out;
    }
    for (Py_ssize_t k = 0; k < unseen.len; k++)
        if ((u[k] & 15) < ACE || (u[k] & 15) > KING || u[k] >= FACE_DOWN) {
            PyErr_SetString(PyExc_ValueError, "an unseen card is not a card");
            goto out;
        }
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
    PyObject *seq = PySequence_Fast(cands_obj, "candidates are a sequence of lines");
    if (!seq)
        goto out;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > MAX_CANDIDATES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "1 to 64 candidates");
        goto out;
    }
    for (; ncand < n; ncand++)
        if (candidate_from_py(PySequence_Fast_GET_ITEM(seq, ncand), &view, rows,
                              &lines[ncand]) < 0) {
            Py_DECREF(seq);
            goto out;
        }
    Py_DECREF(seq);
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
    PyStop ps = {expired};
    Stopper stop = {py_check, &ps};
    int status = chance_search(&c, &r, &stop);
    if (status == SEARCH_NOMEM) {
        PyErr_NoMemory();
        goto out;
    }
    if (status == SEARCH_ERROR)
        goto out;
    PyObject *lists[4] = {NULL, NULL, NULL, NULL};
    long long *arrays[4] = {sum, count, diff, square};
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
        result = Py_BuildValue("(iOOOOLLO)", r.chosen, lists[0], lists[1], lists[2], lists[3],
                               r.positions, r.trajectories,
                               status == SEARCH_STOPPED ? Py_True : Py_False);
    for (int j = 0; j < 4; j++)
        Py_XDECREF(lists[j]);
out:
    for (int i = 0; i < ncand; i++)
        free(lines[i].v);
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
    if (!PyArg_ParseTuple(obj, "iiipiippppiilOO;a goal's fields", &g->kind, &g->pile, &g->fixed,
                          &g->sorted_mode, &g->root_spaces, &g->keep_spaces, &g->no_turn_up,
                          &g->no_new_space, &g->no_deal, &g->keep_suits_in_pinned,
                          &g->forbidden, &g->card, &g->chaos_weight, &steps_obj, &rows_obj))
        return -1;
    if (g->kind < 0 || g->kind > 4 || g->pile < -1 || g->pile >= PILES || g->fixed < 0 ||
        g->fixed > PILES || g->root_spaces < 0 || g->keep_spaces < 0 || g->forbidden < 0 ||
        g->forbidden > 15 || g->card < 0 || g->card > 255 || g->chaos_weight < 0 ||
        g->chaos_weight > 1000000) {
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
    /* goal_search(goal, root, macros, into_spaces, ordered, limit, weight, expired)
     *   -> (steps or None, positions, exhaustive, depth, bytes): solver.astar */
    PyObject *spec, *root_obj, *limit_obj, *expired;
    int macros, into_spaces, ordered;
    long weight;
    long long limit;
    GoalSpec g;
    State root;
    GoalResult r;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOpppOlO", &spec, &root_obj, &macros, &into_spaces, &ordered,
                          &limit_obj, &weight, &expired))
        return NULL;
    if (weight < 0 || weight > 1000)
        return PyErr_Format(PyExc_ValueError, "a weight is 0 to 1000");
    if (spec_from_py(spec, &g) < 0 || limit_from_py(limit_obj, &limit) < 0 ||
        state_from_py(root_obj, &root, (Py_ssize_t)g.nrows * PILES) < 0)
        return NULL;
    PyStop ps = {expired};
    Stopper stop = {py_check, &ps};
    int status = goal_search(&g, &root, macros, into_spaces, ordered, limit, weight, &stop, &r);
    if (status == SEARCH_ERROR)
        return NULL;
    if (status == SEARCH_NOMEM)
        return PyErr_NoMemory();
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
        free(r.steps);
        if (!steps)
            return NULL;
    } else {
        steps = Py_NewRef(Py_None);
    }
    return Py_BuildValue("(NLiin)", steps, r.positions, r.exhaustive, r.depth,
                         (Py_ssize_t)r.bytes);
}

static PyMethodDef methods[] = {
    {"actions", py_actions, METH_VARARGS,
     "actions(piles, spaces, whole_into_space=True): compact.actions as (kind, src, dst, count)"},
    {"apply", py_apply, METH_VARARGS, "apply(piles, action): compact.apply"},
    {"apply_undo", py_apply_undo, METH_VARARGS, "apply(piles, action) then undo it"},
    {"rank_key", py_rank_key, METH_VARARGS, "rank_key(piles, removed): compact.rank_key"},
    {"pile_value", py_pile_value, METH_VARARGS,
     "pile_value(pile, weights): blindplayer.pile_value"},
    {"state_key", py_state_key, METH_VARARGS, "state_key(piles): (packed bytes, 64-bit hash)"},
    {"blind_game", py_blind_game, METH_VARARGS,
     "blind_game(piles, rows, removed, budget, searches, weights, max_moves, max_turns=0, "
     "record=False): sampler.rollout_python"},
    {"chance_search", py_chance_search, METH_VARARGS,
     "chance_search(piles, removed, rows, unseen, candidates, seed, trajectories, budget, "
     "searches, weights, turns, max_moves, value, margin, expired): "
     "chancesearch.search_python"},
    {"blind_search", py_blind_search, METH_VARARGS,
     "blind_search(piles, removed, space, hand, budget, parts, width, weights, reveals): "
     "blindplayer._search"},
    {"goal_search", py_goal_search, METH_VARARGS,
     "goal_search(goal, root, macros, into_spaces, ordered, limit, weight, expired): "
     "solver.astar"},
    {"beam", py_beam, METH_VARARGS,
     "beam(piles, rows, removed, width, budget, max_levels, expired): autoplay._beam"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled search core (see csrc/core.h); spider_cli.analysis.native loads it.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    return PyModule_Create(&module);
}
