/* The searches' own arguments from Python: a rollout's policy, the chance search's candidate
 * lines (each checked move by move against the view), a goal (goalsearch.GoalSpec), and the
 * tables of the count before every first move (firstmoves.py). */
#include "glue.h"

/* ---- a rollout's policy ---- */

/* A rollout's policy: positions a search, one to three (parts, width) searches, the moves
 * and the turns after which it stops (0 turns: none). */
int gamespec_from_py(PyObject *budget_obj, PyObject *searches, int max_moves,
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

/* ---- the search over what turns up: its candidates ---- */

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

/* The candidate lines, each checked against the view (candidate_from_py); *ncand counts
 * those converted (to be freed), also on an error. */
int candidates_from_py(PyObject *obj, const State *view, int rows, Line *lines,
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

/* ---- a goal search ---- */

/* A goal: goalsearch.GoalSpec's fields in its order, one format letter a field (the steps
 * and rows as counted arrays; tests/analysis/test_core_goal.py checks the letters against GoalSpec). */
int spec_from_py(PyObject *obj, GoalSpec *g)
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
int table_from_py(PyObject *obj, Orders *o, int ends)
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
