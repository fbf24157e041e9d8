/* The judge's entry points (judge.c): its commitments and its bandit, their arguments
 * checked as every entry point's are (glue.h), their results given back. */
#include "glue.h"

#include <string.h>

#define JUDGE_MOST_CLOSURE 10000000LL  /* positions a closure may visit */
#define JUDGE_MOST_SAMPLES 20000LL     /* worlds a turn (judge_beats' squares fit 64 bits) */

/* ---- the commitments ---- */

static PyObject *commitment_to_py(const Commitments *c, size_t i)
{
    Line line;
    if (judge_line(c, i, &line) < 0)
        return PyErr_NoMemory();
    PyObject *actions = line_to_py(&line);
    core_free(line.v);
    State after;
    judge_after(c, i, &after);
    PyObject *piles = actions ? piles_to_py(&after) : NULL;
    PyObject *tuple = piles ? PyList_AsTuple(piles) : NULL;
    PyObject *lt = tuple ? PyList_AsTuple(actions) : NULL;
    Py_XDECREF(actions);
    Py_XDECREF(piles);
    if (!lt) {
        Py_XDECREF(tuple);
        return NULL;
    }
    return Py_BuildValue("(iNN)", c->v[i].act, lt, tuple);
}

PyObject *py_judge_commitments(PyObject *self, PyObject *args)
{
    /* judge_commitments(piles, removed, hand, most[, ceiling])
     *   -> ([(act, line, after), ...], positions): judge.commitments; act 0 a card turned
     *   up, 1 a deal, 2 a removal; ceiling: the bytes it may hold */
    PyObject *piles;
    int removed, hand;
    long long most;
    Py_ssize_t given = -1;
    size_t ceiling;
    State view;
    (void)self;
    if (!PyArg_ParseTuple(args, "OiiL|n", &piles, &removed, &hand, &most, &given) ||
        ceiling_from_py(given, &ceiling) < 0)
        return NULL;
    if (int_in_range(removed, 0, 8, "the suits removed") < 0 ||
        int_in_range(hand, 0, MAX_CARDS, "the cards in the hand") < 0 ||
        (most < 1 || most > JUDGE_MOST_CLOSURE ? bad("a closure of 1 to 10,000,000 positions")
                                               : 0) < 0 ||
        position_from_py(piles, &view, NULL, 0, hand, removed, 0) < 0)
        return NULL;
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < view.len[i]; k++)
            if (view.c[i][k] > FACE_DOWN)
                return PyErr_Format(PyExc_ValueError, "a player's view has no known face-down card");
    Commitments c;
    Ceiling outer = ceiling_enter(ceiling);
    int status = judge_commitments(&view, hand, most, &c);
    int hit = ceiling_leave(outer);
    if (status != SEARCH_FOUND)
        return no_memory(hit, ceiling);
    PyObject *list = PyList_New((Py_ssize_t)c.n);
    for (size_t i = 0; list && i < c.n; i++) {
        PyObject *item = commitment_to_py(&c, i);
        if (!item)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    long long positions = c.positions;
    commitments_free(&c);
    return list ? Py_BuildValue("(NL)", list, positions) : NULL;
}

/* ---- the judge's lines, caps and widths ---- */

/* One line: moves and removals the view allows, each checked on a copy of it, none after a
 * card turned up; a deal only last, with a row in the hand and no space. */
static int judge_line_from_py(PyObject *obj, const State *view, int rows, Line *line)
{
    PyObject *seq = PySequence_Fast(obj, "a line is a sequence of actions");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    line->n = 0;
    line->v = n >= 1 && n <= MAX_LINE ? core_malloc((size_t)n * sizeof *line->v) : NULL;
    int status = n < 1 || n > MAX_LINE ? bad("a line has 1 to 1,000 actions")
                 : !line->v             ? (PyErr_NoMemory(), -1)
                                        : 0;
    State s = *view;
    int revealed = 0;
    for (Py_ssize_t k = 0; !status && k < n; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        int kind, src, dst, count;
        if (!PyTuple_Check(item) || !PyArg_ParseTuple(item, "iiii;an action is (kind, src, dst, count)",
                                                      &kind, &src, &dst, &count)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "an action is a tuple (kind, src, dst, count)");
            status = -1;
        } else if (revealed) {
            status = bad("a line goes on past the card it turns up");
        } else if (kind == ACT_DEAL) {
            int spaces = 0;
            for (int i = 0; i < PILES; i++)
                spaces += !s.len[i];
            status = k != n - 1 || !rows || spaces
                         ? bad("a deal ends a line, with a row in hand and no space")
                         : 0;
            line->v[line->n++] = (Action){ACT_DEAL, 0, 0, 0};
        } else if (action_from_py(item, &s, &line->v[line->n]) < 0) {
            status = -1;
        } else {
            Undo u;
            int turned;
            revealed = apply_action(&s, line->v[line->n++], &u, &turned) == OUT_REVEAL;
        }
    }
    Py_DECREF(seq);
    if (status < 0) {
        core_free(line->v);
        line->v = NULL;
    }
    return status;
}

/* A tuple of 1 to `most` numbers from lo to hi, into out[]; their count in *n. */
static int numbers_from_py(PyObject *obj, long long lo, long long hi, int most, long long *out,
                           int *n, const char *what)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    int status = k < 1 || k > most ? bad(what) : 0;
    for (Py_ssize_t i = 0; !status && i < k; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred())
            status = -1;
        else if (v < lo || v > hi)
            status = bad(what);
        else
            out[i] = v;
    }
    *n = (int)k;
    Py_DECREF(seq);
    return status;
}

static PyObject *judged_to_py(const JudgeResult *r, int n, int stopped)
{
    PyObject *wins = PyList_New(n), *counts = PyList_New(n), *scores = PyList_New(n);
    for (int i = 0; wins && counts && scores && i < n; i++) {
        PyList_SET_ITEM(wins, i, PyLong_FromLongLong(r->wins[i]));
        PyList_SET_ITEM(counts, i, PyLong_FromLongLong(r->counts[i]));
        PyList_SET_ITEM(scores, i, PyLong_FromLongLong(r->scores[i]));
    }
    if (!wins || !counts || !scores || PyErr_Occurred()) {
        Py_XDECREF(wins);
        Py_XDECREF(counts);
        Py_XDECREF(scores);
        return NULL;
    }
    return Py_BuildValue("(iNNLLON)", r->chosen, wins, counts, r->positions, r->cap,
                         stopped ? Py_True : Py_False, scores);
}

/* The judge's spec past the lines: seed, samples, caps, widths, levels, margin. */
static int judge_spec_from_py(PyObject *seed_obj, long long samples, PyObject *caps,
                              PyObject *widths, int max_levels, int margin, JudgeSpec *j)
{
    long long w[JUDGE_MAX_WIDTHS];
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (seed == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (samples < 1 || samples > JUDGE_MOST_SAMPLES)
        return bad("1 to 20,000 samples");
    if (int_in_range(max_levels, 1, 100000, "a beam's levels") < 0 ||
        int_in_range(margin, 0, 10000, "a margin in hundredths of a standard error") < 0 ||
        numbers_from_py(caps, 1, 1LL << 40, JUDGE_MAX_CAPS, j->caps, &j->ncaps,
                        "1 to 8 caps of 1 to 2**40 positions") < 0 ||
        numbers_from_py(widths, 1, 1000000, JUDGE_MAX_WIDTHS, w, &j->nwidths,
                        "1 to 8 beam widths of 1 to 1,000,000") < 0)
        return -1;
    for (int i = 0; i < j->nwidths; i++)
        j->widths[i] = (long)w[i];
    j->seed = seed;
    j->samples = samples;
    j->max_levels = max_levels;
    j->margin = margin;
    return 0;
}

PyObject *py_judge_search(PyObject *self, PyObject *args)
{
    /* judge_search(piles, removed, rows, unseen, lines, seed, samples, caps, widths,
     *              max_levels, margin, expired[, ceiling, dense])
     *   -> (chosen, wins, counts, positions, cap, stopped, scores): judge.halving; margin in
     *   hundredths; ceiling: the bytes it may hold; dense: a world not won scores dense *
     *   progress / JUDGE_PROGRESS, of JUDGE_SCALE a world won (0 to JUDGE_SCALE) */
    PyObject *piles, *lines_obj, *seed_obj, *caps, *widths, *expired, *result = NULL;
    Py_buffer unseen;
    int removed, rows, max_levels, margin, ncand = 0;
    long long samples;
    Py_ssize_t given = -1;
    size_t ceiling;
    State view;
    JudgeSpec j;
    Line lines[JUDGE_MAX_LINES];
    long long wins[JUDGE_MAX_LINES], counts[JUDGE_MAX_LINES], scores[JUDGE_MAX_LINES];
    long dense = 0;
    (void)self;
    memset(&j, 0, sizeof j);
    if (!PyArg_ParseTuple(args, "Oiiy*OOLOOiiO|nl", &piles, &removed, &rows, &unseen, &lines_obj,
                          &seed_obj, &samples, &caps, &widths, &max_levels, &margin, &expired,
                          &given, &dense))
        return NULL;
    if (dense < 0 || dense > JUDGE_SCALE) {
        PyBuffer_Release(&unseen);
        bad("a dense score of 0 to 1,000 thousandths");
        return NULL;
    }
    PyObject *seq = NULL;
    if (ceiling_from_py(given, &ceiling) < 0 ||
        int_in_range(rows, 0, MAX_CARDS / PILES, "the number of rows in the hand") < 0 ||
        position_from_py(piles, &view, NULL, 0, (long)rows * PILES, removed, 0) < 0 ||
        check_unseen(&view, unseen.buf, unseen.len, rows, removed) < 0 ||
        judge_spec_from_py(seed_obj, samples, caps, widths, max_levels, margin, &j) < 0 ||
        !(seq = PySequence_Fast(lines_obj, "the lines are a sequence")))
        goto out;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > JUDGE_MAX_LINES) {
        bad("1 to 64 lines");
        goto out;
    }
    for (; ncand < n; ncand++)
        if (judge_line_from_py(PySequence_Fast_GET_ITEM(seq, ncand), &view, rows,
                               &lines[ncand]) < 0)
            goto out;
    j.view = &view;
    j.removed = removed;
    j.rows = rows;
    j.unseen = unseen.buf;
    j.nunseen = (int)unseen.len;
    j.cand = lines;
    j.ncand = ncand;
    j.dense = dense;
    JudgeResult r = {wins, counts, scores, 0, 0, 0};
    PyStop ps = {expired, 0};
    Stopper stop = {py_check, &ps};
    Ceiling outer = ceiling_enter(ceiling);
    int status = judge_search(&j, &r, &stop);
    int hit = ceiling_leave(outer);
    if (status == SEARCH_NOMEM)
        no_memory(hit, ceiling);
    else if (status == SEARCH_FOUND || status == SEARCH_STOPPED)
        result = status == SEARCH_FOUND ? judged_to_py(&r, ncand, 0)
                                        : Py_BuildValue("(iOOLLOO)", 0, Py_None, Py_None,
                                                        r.positions, r.cap, Py_True, Py_None);
out:
    Py_XDECREF(seq);
    for (int i = 0; i < ncand; i++)
        core_free(lines[i].v);
    PyBuffer_Release(&unseen);
    return result;
}
