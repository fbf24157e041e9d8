/* How good a position is: KPatience's chaos (compact.rank_key) and the blind player's value
 * (blindplayer.pile_value). */
#include "core.h"

void rank_key(const State *s, int removed, long *chaos_out, long *negready)
{
    int first[PILES], bottom[PILES], chaos_p[PILES], run[PILES];
    int has_bottom[18] = {0};
    for (int i = 0; i < PILES; i++) {
        int n = s->len[i];
        const uint8_t *p = s->c[i];
        if (!n) {
            first[i] = bottom[i] = chaos_p[i] = run[i] = 0;
            continue;
        }
        int c = 1;
        for (int k = 1; k < n; k++)
            if (p[k - 1] != p[k] + 1)
                c++;
        chaos_p[i] = c;
        first[i] = p[0] & 15;
        bottom[i] = p[n - 1] & 15;
        run[i] = run_length(p, n);
        if (bottom[i])
            has_bottom[bottom[i]] = 1;
    }
    long chaos = 0, playable = 0, spaces = 0;
    for (int i = 0; i < PILES; i++) {
        if (!run[i]) {
            spaces++;
            continue;
        }
        chaos += chaos_p[i];
        playable += run[i];
        if (first[i] == KING || has_bottom[first[i] + 1])
            chaos--;
    }
    chaos -= spaces;
    *chaos_out = chaos > 0 ? chaos : 0;
    *negready = -(playable + 13L * removed + spaces);
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
