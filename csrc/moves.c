/* Moves on compact positions: generation in the order of compact.actions, apply and undo. */
#include <string.h>

#include "core.h"

int run_length(const uint8_t *p, int n)
{
    if (!n)
        return 0;
    int j = n - 2;
    while (j >= 0 && p[j] == p[j + 1] + 1)
        j--;
    return n - 1 - j;
}

int completes_suit(const uint8_t *p, int n)
{
    return n >= 13 && (p[n - 1] & 15) == ACE && run_length(p, n) >= 13;
}

int gen_actions(const State *s, const int *spaces, int nspaces, int whole_into_space, Action *out)
{
    int runs[PILES];
    for (int i = 0; i < PILES; i++)
        runs[i] = run_length(s->c[i], s->len[i]);
    return gen_actions_runs(s, runs, spaces, nspaces, whole_into_space, out);
}

int gen_actions_runs(const State *s, const int *runs, const int *spaces, int nspaces,
                     int whole_into_space, Action *out)
{
    int bottoms[PILES];
    int k = 0;
    for (int i = 0; i < PILES; i++)
        bottoms[i] = s->len[i] ? s->c[i][s->len[i] - 1] & 15 : 0;
    for (int src = 0; src < PILES; src++) {
        int n = s->len[src];
        if (!n)
            continue;
        const uint8_t *p = s->c[src];
        int length = runs[src];
        int low = bottoms[src];
        if (length >= 13 && completes_suit(p, n))
            out[k++] = (Action){ACT_REMOVE, (int8_t)src, (int8_t)src, 13};
        for (int dst = 0; dst < PILES; dst++) {
            int m = bottoms[dst] - low;
            if (m > 0 && m <= length)
                out[k++] = (Action){ACT_MOVE, (int8_t)src, (int8_t)dst, (int8_t)m};
        }
        if (nspaces) {
            int top = (whole_into_space || length < n) ? length : length - 1;
            for (int j = 0; j < nspaces; j++)
                for (int m = 1; m <= top; m++)
                    out[k++] = (Action){ACT_MOVE, (int8_t)src, (int8_t)spaces[j], (int8_t)m};
        }
    }
    return k;
}

int apply_action(State *s, Action a, Undo *u, int *turned)
{
    int src = a.src;
    int outcome = 0;
    u->action = a;
    u->flipped = 0;
    u->suit = -1;
    *turned = -1;
    if (a.kind == ACT_MOVE) {
        int m = a.count;
        memcpy(s->c[a.dst] + s->len[a.dst], s->c[src] + s->len[src] - m, (size_t)m);
        s->len[a.dst] = (uint8_t)(s->len[a.dst] + m);
        s->len[src] = (uint8_t)(s->len[src] - m);
    } else { /* ACT_REMOVE */
        outcome = (s->c[src][s->len[src] - 1] >> 4) + 1;
        u->suit = (int8_t)(outcome - 1);
        s->len[src] = (uint8_t)(s->len[src] - 13);
    }
    int n = s->len[src];
    if (n && s->c[src][n - 1] >= FACE_DOWN) {
        *turned = src;
        if (s->c[src][n - 1] == FACE_DOWN)
            return OUT_REVEAL; /* the card stays face down: what it is, is not known */
        s->c[src][n - 1] = (uint8_t)(s->c[src][n - 1] - FACE_DOWN);
        u->flipped = 1;
    }
    return outcome;
}

void undo_action(State *s, const Undo *u)
{
    Action a = u->action;
    int src = a.src;
    if (u->flipped)
        s->c[src][s->len[src] - 1] = (uint8_t)(s->c[src][s->len[src] - 1] + FACE_DOWN);
    if (a.kind == ACT_MOVE) {
        int m = a.count;
        s->len[a.dst] = (uint8_t)(s->len[a.dst] - m);
        memcpy(s->c[src] + s->len[src], s->c[a.dst] + s->len[a.dst], (size_t)m);
        s->len[src] = (uint8_t)(s->len[src] + m);
    } else { /* the suit removed was its King to Ace: put it back */
        int suit = u->suit;
        for (int r = KING; r >= ACE; r--)
            s->c[src][s->len[src]++] = (uint8_t)(suit * 16 + r);
    }
}
