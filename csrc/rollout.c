/* The blind player's whole game on a deal whose every card is known: rollouts.rollout,
 * step for step. The sampling player plays these on samples of the cards it has not seen.
 *
 * The player sees only its view: before each turn the face-down cards are masked (FACE_DOWN
 * alone), its searches (blind.c) run on the mask, and the line found is played on the deal up
 * to the first card it turns up. When no line gains, the spaces are put to use, then filled
 * and a row dealt, as blind.play_blind does. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "search.h"

/* removed + the complete King-to-Ace runs lying face up (engine.Game.is_won) */
int suits_done(const State *s, int removed)
{
    int total = removed;
    for (int i = 0; i < PILES; i++) {
        const uint8_t *p = s->c[i];
        int n = s->len[i], j = 0;
        while (j < n && p[j] >= FACE_DOWN)
            j++;
        while (j + 13 <= n) {
            int k = j;
            if ((p[j] & 15) == KING)
                while (k < j + 12 && p[k] == p[k + 1] + 1)
                    k++;
            if (k == j + 12) {
                total++;
                j += 13;
            } else {
                j++;
            }
        }
    }
    return total;
}

int face_down(const State *s)
{
    int down = 0;
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < s->len[i] && s->c[i][k] >= FACE_DOWN; k++)
            down++;
    return down;
}

/* The position as its player sees it: every face-down card unknown. */
static void mask(const State *s, State *view)
{
    *view = *s;
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < view->len[i] && view->c[i][k] >= FACE_DOWN; k++)
            view->c[i][k] = FACE_DOWN;
}

/* The best line of the turn's searches (the first on a tie), as blindplayer.plan without
 * samples: SEARCH_FOUND, or why not (memory ran out, `stop` said so), with no line then. */
static int turn_line(const State *view, int removed, long space, int hand, const GameSpec *g,
                     const Weights *w, Line *line, long long *positions)
{
    long best = 0;
    int status = SEARCH_FOUND;
    line->v = NULL;
    line->n = 0;
    for (int k = 0; k < g->nsearches && status == SEARCH_FOUND; k++) {
        BlindResult r;
        r.most_reveals = 0;
        status = blind_search(view, removed, space, hand, g->budget, g->parts[k], g->width[k], w,
                              g->stop, &r);
        if (status != SEARCH_FOUND)
            break;
        *positions += r.positions;
        if (k == 0 || r.best > best) {
            Line found;
            if (blind_line(&r, r.best_node, &found) < 0) {
                status = SEARCH_NOMEM;
            } else {
                core_free(line->v);
                *line = found;
                best = r.best;
            }
        }
        blind_free(&r);
    }
    if (status != SEARCH_FOUND) {
        core_free(line->v);
        line->v = NULL;
    }
    return status;
}

enum { KEEP, USE, FILL };

int blind_game(const State *start, const uint8_t (*rows)[PILES], int nrows, int removed,
               const GameSpec *g, const Weights *w, GameResult *out, State *end,
               FeatureLog *log)
{
    static const long worth[] = {[KEEP] = 150, [USE] = 50, [FILL] = -2000}; /* blindplayer.Mode */
    State s = *start;
    int mode = KEEP, dealt = 0, turned_up = 1;
    memset(out, 0, sizeof *out);
    while (out->moves < g->max_moves && suits_done(&s, removed) < 8) {
        if (turned_up) { /* a new turn: a card turned up, a row dealt, or the start */
            if (g->max_turns && out->turns == g->max_turns)
                break;
            if (log && log->n < log->cap)
                view_features(&s, removed, nrows - dealt, log->v[log->n++]);
            out->turns++;
            turned_up = 0;
        }
        State view;
        mask(&s, &view);
        Line line;
        int status = turn_line(&view, removed, worth[mode], PILES * (nrows - dealt), g, w, &line,
                               &out->positions);
        if (status != SEARCH_FOUND)
            return status;
        if (line.n) {
            for (size_t k = 0; k < line.n && out->moves < g->max_moves; k++) {
                Undo u;
                int turned;
                if (apply_action(&s, line.v[k], &u, &turned) > 0)
                    removed++;
                out->moves++;
                if (turned >= 0) {
                    mode = KEEP; /* a card turned up: plan afresh */
                    turned_up = 1;
                    break;
                }
            }
            core_free(line.v);
            continue;
        }
        core_free(line.v);
        int spaces = 0;
        for (int i = 0; i < PILES; i++)
            spaces += !s.len[i];
        if (dealt < nrows && !spaces) {
            for (int i = 0; i < PILES; i++)
                s.c[i][s.len[i]++] = rows[dealt][i];
            dealt++;
            out->moves++;
            mode = KEEP;
            turned_up = 1;
        } else if (spaces && mode == KEEP) {
            mode = USE;
        } else if (dealt < nrows && mode == USE) {
            mode = FILL;
        } else {
            out->lost = 1; /* no line gains and no deal can be made */
            break;
        }
    }
    State view;
    mask(&s, &view);
    out->value = blind_value(&view, removed, worth[KEEP], w);
    out->done = suits_done(&s, removed);
    out->won = out->done == 8;
    out->removed = removed;
    out->down = face_down(&s);
    out->hand = PILES * (nrows - dealt);
    if (end)
        *end = s;
    return SEARCH_FOUND;
}
