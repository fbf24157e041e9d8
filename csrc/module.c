/* spider_cli.analysis._core: the compiled core's Python face. Its entry points, the method
 * table and the module's init; each entry point converts and checks its arguments (convert.c,
 * specs.c, checks.c, as glue.h describes) and runs its search (run.c). */
#include "glue.h"

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

/* beam and beam_best: the same search, the second also returning the most progress. */
static PyObject *beam_of(PyObject *args, int with_best)
{
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
    long best = 0;
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
    int status = beam_search_best(&s, (const uint8_t(*)[PILES])rows, nrows, removed, width,
                                  budget, max_levels, (unsigned long)ties, &stop, &line,
                                  &positions, &best);
    int hit = ceiling_leave(outer);
    PyMem_Free(rows);
    PyObject *found = search_result(status, &line, hit, ceiling);
    if (!found)
        return NULL;
    if (with_best)
        return Py_BuildValue("(NLl)", found, positions, best);
    return Py_BuildValue("(NL)", found, positions);
}

static PyObject *py_beam(PyObject *self, PyObject *args)
{
    /* beam(piles, rows, removed, width, budget, max_levels, expired[, ties, ceiling])
     *   -> (line or None, positions): beam.beam; ceiling: the bytes it may hold */
    (void)self;
    return beam_of(args, 0);
}

static PyObject *py_beam_best(PyObject *self, PyObject *args)
{
    /* beam_best(the same) -> (line or None, positions, progress): beam.beam_best */
    (void)self;
    return beam_of(args, 1);
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
    {"beam_best", py_beam_best, METH_VARARGS,
     "beam_best(piles, rows, removed, width, budget, max_levels, expired[, ties, ceiling]) "
     "-> (line or None, positions, progress): beam.beam_best"},
    {"beam", py_beam, METH_VARARGS,
     "beam(piles, rows, removed, width, budget, max_levels, expired[, ties, ceiling]): "
     "beam.beam"},
    {"judge_commitments", py_judge_commitments, METH_VARARGS,
     "judge_commitments(piles, removed, hand, most[, ceiling]): judge.commitments"},
    {"judge_search", py_judge_search, METH_VARARGS,
     "judge_search(piles, removed, rows, unseen, lines, seed, samples, caps, widths, "
     "max_levels, margin, expired[, ceiling]): judge.halving"},
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
