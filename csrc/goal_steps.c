/* The steps from a position in solve's goal searches: goalsearch.Search.expand's list of
 * moves, removals and the deal's turn, and space_macros (the manual's uses of a space, two or
 * three moves as one step), step for step. */
#include <string.h>

#include "goal.h"

static int steps_push(Steps *ss, const Action *a, int n)
{
    if (GROW(ss->v, ss->cap, ss->n + 1, 256) < 0)
        return -1;
    Step *st = &ss->v[ss->n++];
    st->n = (int8_t)n;
    for (int i = 0; i < n; i++)
        st->a[i] = a[i];
    return 0;
}

/* compact.onto_cards */
static int onto_cards(const State *s, int src, const int *dsts, int ndst, Action *out)
{
    int n = s->len[src], k = 0;
    if (!n)
        return 0;
    int length = run_length(s->c[src], n);
    int low = s->c[src][n - 1] & 15;
    for (int j = 0; j < ndst; j++) {
        int dst = dsts[j], qn = s->len[dst];
        if (qn) {
            int m = (s->c[dst][qn - 1] & 15) - low;
            if (m > 0 && m <= length)
                out[k++] = (Action){ACT_MOVE, (int8_t)src, (int8_t)dst, (int8_t)m};
        }
    }
    return k;
}

/* goalsearch.space_macros (on a copy of the position, moves made and taken back in place) */
static int space_macros(const State *piles, int space, Steps *out)
{
    State work = *piles;
    for (int x = 0; x < PILES; x++) {
        int n = piles->len[x];
        if (!n || x == space)
            continue;
        int length = run_length(piles->c[x], n);
        int top = length < n - 1 ? length : n - 1;
        for (int m = 1; m <= top; m++) {
            if (piles->c[x][n - m - 1] == FACE_DOWN)
                continue;
            Action park = {ACT_MOVE, (int8_t)x, (int8_t)space, (int8_t)m};
            Undo u;
            int turned;
            apply_action(&work, park, &u, &turned);
            Action uses[PILES * 3];
            int nu = 0, dsts[PILES], nd = 0;
            for (int d = 0; d < PILES; d++)
                if (d != x)
                    dsts[nd++] = d;
            nu += onto_cards(&work, x, dsts, nd, uses + nu);
            int two[2] = {x, space};
            for (int src = 0; src < PILES; src++)
                if (src != x && src != space)
                    nu += onto_cards(&work, src, two, 2, uses + nu);
            for (int j = 0; j < nu; j++) {
                Undo u2;
                int t2;
                if (apply_action(&work, uses[j], &u2, &t2) == OUT_REVEAL) {
                    undo_action(&work, &u2);
                    continue;
                }
                int full = 1, failed = 0;
                for (int i = 0; i < PILES; i++)
                    full &= work.len[i] != 0;
                Action step[3] = {park, uses[j], {0, 0, 0, 0}};
                if (!full) {
                    failed = steps_push(out, step, 2) < 0;
                } else {
                    for (int y = 0; y < PILES && !failed; y++) {
                        int qn = work.len[y];
                        if (run_length(work.c[y], qn) != qn)
                            continue;
                        int need = (work.c[y][0] & 15) + 1;
                        for (int z = 0; z < PILES && !failed; z++) {
                            int tn = work.len[z];
                            if (z != y && tn && (work.c[z][tn - 1] & 15) == need) {
                                step[2] = (Action){ACT_MOVE, (int8_t)y, (int8_t)z, (int8_t)qn};
                                failed = steps_push(out, step, 3) < 0;
                            }
                        }
                    }
                }
                undo_action(&work, &u2);
                if (failed)
                    return -1;
            }
            undo_action(&work, &u);
        }
    }
    return 0;
}

/* Under autoremove, the removals of the complete suits at the piles' bottoms: the only steps
 * from a position that has one (how many were pushed, or -1). */
static int ready_removals(const GoalSpec *g, const State *s, Steps *out)
{
    int n = 0;
    for (int i = 0; g->autoremove && i < PILES; i++) {
        if (completes_suit(s->c[i], s->len[i])) {
            Action a = {ACT_REMOVE, (int8_t)i, (int8_t)i, 13};
            if (steps_push(out, &a, 1) < 0)
                return -1;
            n++;
        }
    }
    return n;
}

int goal_steps(const GoalSpec *g, const State *s, int macros, int into_spaces, Steps *out)
{
    int ready = ready_removals(g, s, out);
    if (ready)
        return ready;
    int spaces[PILES], nspaces = 0;
    for (int i = 0; i < PILES; i++)
        if (!s->len[i])
            spaces[nspaces++] = i;
    int open[PILES], nopen = into_spaces ? nspaces : (nspaces ? nspaces - 1 : 0);
    memcpy(open, spaces, sizeof open);
    int named_space = g->kind == GOAL_SPACE && g->pile >= 0;
    if (g->sorted_mode && named_space) {
        int pinned = -1, other = -1;
        for (int i = 0; i < nopen; i++) {
            if (open[i] < g->fixed && pinned < 0)
                pinned = open[i];
            if (open[i] >= g->fixed && other < 0)
                other = open[i];
        }
        nopen = 0;
        if (pinned >= 0)
            open[nopen++] = pinned;
        if (other >= 0)
            open[nopen++] = other;
    } else if (g->sorted_mode && nopen > 1) {
        nopen = 1;
    }
    int whole = !g->sorted_mode || named_space;
    Action acts[MAX_ACTIONS];
    int na = gen_actions(s, open, nopen, whole, acts);
    for (int j = 0; j < na; j++)
        if (steps_push(out, &acts[j], 1) < 0)
            return -1;
    if (nspaces && !into_spaces && g->kind == GOAL_TURN_UP) {
        na = gen_actions(s, spaces, 1, 0, acts);
        for (int j = 0; j < na; j++) {
            Action a = acts[j];
            int n = s->len[a.src];
            if (a.kind == ACT_MOVE && !s->len[a.dst] && n > a.count &&
                s->c[a.src][n - a.count - 1] >= FACE_DOWN && steps_push(out, &a, 1) < 0)
                return -1;
        }
    }
    if (macros && nspaces && space_macros(s, spaces[0], out) < 0)
        return -1;
    return 0;
}
