/* A search's run under Python: stopped by Ctrl-C and the caller's clock, held under the byte
 * ceiling of its call (ceiling.c), and its result or its error given back. */
#include "glue.h" /* (first: Python.h comes before the system headers) */

#include <unistd.h> /* sysconf: the machine's memory, the default ceiling */

/* ---- stopping: Ctrl-C and the caller's clock ---- */

#define LET_THREADS_RUN 4 /* every this many checks, the GIL is let go for a moment */

int py_check(void *ctx)
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
int py_check_released(void *ctx)
{
    (void)ctx;
    PyGILState_STATE gil = PyGILState_Ensure();
    int stop = PyErr_CheckSignals() < 0 ? SEARCH_ERROR : 0;
    PyGILState_Release(gil);
    return stop;
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
int ceiling_from_py(Py_ssize_t given, size_t *out)
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
PyObject *no_memory(int hit, size_t ceiling)
{
    if (hit)
        return PyErr_Format(PyExc_MemoryError,
                            "the search reached its memory ceiling of %zu bytes", ceiling);
    return PyErr_NoMemory();
}

PyObject *search_result(int status, Line *line, int hit, size_t ceiling)
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
