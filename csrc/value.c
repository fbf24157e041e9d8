/* How good a position is: KPatience's chaos (compact.rank_key) and the blind player's value
 * (evaluation.py: a weighted sum of named features). */
#include <string.h>

#include "core.h"

void pile_info(const uint8_t *p, int n, PileInfo *info)
{
    if (!n) {
        *info = (PileInfo){0, 0, 0, 0};
        return;
    }
    int c = 1;
    for (int k = 1; k < n; k++)
        if (p[k - 1] != p[k] + 1)
            c++;
    info->chaos = (int16_t)c;
    info->first = (int8_t)(p[0] & 15);
    info->bottom = (int8_t)(p[n - 1] & 15);
    info->run = (int16_t)run_length(p, n);
}

void rank_from_info(const PileInfo *info, int removed, long *chaos_out, long *negready)
{
    int has_bottom[18] = {0};
    for (int i = 0; i < PILES; i++)
        if (info[i].bottom)
            has_bottom[info[i].bottom] = 1;
    long chaos = 0, playable = 0, spaces = 0;
    for (int i = 0; i < PILES; i++) {
        if (!info[i].run) {
            spaces++;
            continue;
        }
        chaos += info[i].chaos;
        playable += info[i].run;
        if (info[i].first == KING || has_bottom[info[i].first + 1])
            chaos--;
    }
    chaos -= spaces;
    *chaos_out = chaos > 0 ? chaos : 0;
    *negready = -(playable + 13L * removed + spaces);
}

void rank_key(const State *s, int removed, long *chaos_out, long *negready)
{
    PileInfo info[PILES];
    for (int i = 0; i < PILES; i++)
        pile_info(s->c[i], s->len[i], &info[i]);
    rank_from_info(info, removed, chaos_out, negready);
}

void unseen_ranks(const State *s, int removed, Unseen unseen)
{
    int seen[16] = {0};
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < s->len[i]; k++)
            if (s->c[i][k] < FACE_DOWN)
                seen[s->c[i][k] & 15]++;
    memset(unseen, 0, sizeof(Unseen));
    for (int r = 1; r <= KING; r++) {
        int u = 8 - removed - seen[r];
        unseen[r] = (int8_t)(u > 0 ? u : 0);
    }
}

int pile_class(const uint8_t *p, int n)
{
    /* evaluation.pile_class: face-down cards (0..5), the top run of one suit (1..6), what it
     * lies on (nothing or a face-down card, the next rank of another suit, a misfit), and
     * whether a King heads it; for a pile with a face-up card */
    int down = 0;
    while (down < n && p[down] >= FACE_DOWN)
        down++;
    int start = n - 1;
    while (start > down && p[start - 1] == p[start] + 1)
        start--;
    int beneath = start == down ? 0 : (p[start - 1] & 15) == (p[start] & 15) + 1 ? 1 : 2;
    int run = n - start < 6 ? n - start : 6;
    int king = (p[start] & 15) == KING;
    return (((down < 5 ? down : 5) * 6 + run - 1) * 3 + beneath) * 2 + king;
}

long pile_value(const uint8_t *p, int n, const Weights *w, const int8_t *unseen)
{
    if (!n)
        return 0;
    int down = 0;
    while (down < n && p[down] >= FACE_DOWN)
        down++;
    long value = down < N_HIDDEN ? -w->hidden[down]
                                 : -(w->hidden[N_HIDDEN - 1] + w->hidden_step * (down - N_HIDDEN + 1));
    if (!down)
        value += w->clear;
    long links = 0; /* same-suit links in the run going on */
    for (int k = down; k < n - 1; k++) {
        int upper = p[k], lower = p[k + 1];
        if (upper == lower + 1) {
            value += w->suited;
            links++;
            continue;
        }
        value += w->run_square * links * links;
        links = 0;
        value += (upper & 15) == (lower & 15) + 1 ? w->ranked : w->broken;
    }
    value += w->run_square * links * links;
    if (down < n) {
        int base = p[down] & 15, top = p[n - 1];
        if (base < KING)
            value += (down ? w->unlock : w->refill) * unseen[base + 1];
        else if (base == KING && down)
            value += w->king_base;
        if ((top & 15) == 1 && !(n - 1 > down && p[n - 2] == top + 1))
            value += w->ace_top;
        if (w->has_table)
            value += w->table[pile_class(p, n)];
    }
    return value;
}

long tops_value(const State *s, const Weights *w, const int8_t *unseen)
{
    if (!w->dup_tops && !w->homes)
        return 0;
    int count[16] = {0};
    for (int i = 0; i < PILES; i++)
        if (s->len[i] && s->c[i][s->len[i] - 1] < FACE_DOWN)
            count[s->c[i][s->len[i] - 1] & 15]++;
    long dup = 0, homes = 0;
    for (int r = 1; r <= KING; r++)
        if (count[r]) {
            dup += count[r] - 1;
            if (r > 1)
                homes += unseen[r - 1];
        }
    return w->dup_tops * dup + w->homes * homes;
}
