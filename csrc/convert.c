/* Python values to and from the core's types: positions and piles, actions and lines,
 * weights, limits of positions, the hand's rows, a value model, and the searches' results.
 * Every position is checked as it is converted (position_from_py calls check_position). */
#include "glue.h"

/* ---- positions, actions and lines ---- */

/* A position: a sequence of ten bytes objects, at most MAX_CARDS cards in all (with `extra`
 * more to come from the hand), every byte below 128. */
int state_from_py(PyObject *obj, State *s, Py_ssize_t extra)
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

/* A position converted and checked: what every entry point that takes piles calls. */
int position_from_py(PyObject *obj, State *s, const uint8_t (*rows)[PILES], int nrows,
                     long hand, long removed, int flags)
{
    if (state_from_py(obj, s, (Py_ssize_t)nrows * PILES) < 0)
        return -1;
    return check_position(s, rows, nrows, hand, removed, flags);
}

PyObject *piles_to_py(const State *s)
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

PyObject *action_to_py(Action a)
{
    return Py_BuildValue("(iiii)", a.kind, a.src, a.dst, a.count);
}

PyObject *line_to_py(const Line *line)
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
int action_from_py(PyObject *obj, const State *s, Action *a)
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

/* ---- weights and limits ---- */

int weights_from_py(PyObject *obj, Weights *w)
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
int limit_from_py(PyObject *obj, long long *out)
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

/* ---- the hand, and a deal every card of which is known ---- */

/* The hand's rows: at most ten, ten known cards each. *rows is PyMem_Malloc'd on success. */
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
int known_deal_from_py(PyObject *piles, PyObject *rows_obj, long removed, State *s,
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

/* ---- the searches' results ---- */

/* The line to a node of the blind player's search (blind_line). */
PyObject *node_line(const BlindResult *r, int32_t node)
{
    Line line;
    if (blind_line(r, node, &line) < 0)
        return PyErr_NoMemory();
    PyObject *list = line_to_py(&line);
    core_free(line.v);
    return list;
}

/* A turn's features (rollouts.features), as a tuple. */
PyObject *features_to_py(const int *f)
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

/* The learned value (rollouts.Value). */
int value_from_py(PyObject *obj, ValueModel *v)
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

/* (chosen, sums, counts, diffs, squares, positions, trajectories, stopped) */
PyObject *weighed_to_py(const ChanceResult *r, int ncand, int stopped)
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
