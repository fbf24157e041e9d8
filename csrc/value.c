/* How good a position is: KPatience's chaos (compact.rank_key) and the blind player's value
 * (blindplayer.pile_value). */
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

long pile_value(const uint8_t *p, int n, const Weights *w)
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
    for (int k = down; k < n - 1; k++) {
        int upper = p[k], lower = p[k + 1];
        if (upper == lower + 1)
            value += w->suited;
        else if ((upper & 15) == (lower & 15) + 1)
            value += w->ranked;
    }
    return value;
}
