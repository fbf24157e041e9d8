/* What the core's input may hold: the ranges of its numbers, and the cards of a position
 * (each byte a card or a face-down card, no card or rank more often than two decks hold).
 * A bad argument is a ValueError saying what is wrong. */
#include "glue.h"

int bad(const char *why)
{
    PyErr_SetString(PyExc_ValueError, why);
    return -1;
}

/* A long argument within [lo, hi], else a ValueError naming it. */
int int_in_range(long v, long lo, long hi, const char *what)
{
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s is %ld to %ld, not %ld", what, lo, hi, v);
        return -1;
    }
    return 0;
}

static int is_card(int c)
{
    return c < FACE_DOWN && (c & 15) >= ACE && (c & 15) <= KING;
}

/* One pile: face-down cards (FACE_DOWN alone, or a card plus FACE_DOWN) under face-up cards,
 * the last card face up or unknown (a move turned it up, what it is not yet given); each card
 * counted in copies[] (by code) when copies is given. */
static int check_pile(const uint8_t *p, int n, int flags, int *copies)
{
    int k = 0;
    for (; k < n && p[k] >= FACE_DOWN; k++) {
        int code = p[k] - FACE_DOWN;
        if (!code && !(flags & POS_KNOWN))
            continue;
        if (!is_card(code))
            return bad(code ? "a face-down byte that is no card" : "a face-down card not known");
        if (copies)
            copies[code]++;
    }
    if (k == n && n && p[n - 1] != FACE_DOWN) /* (an unknown one waits to be turned up) */
        return bad("a pile whose last card lies face down, known");
    for (; k < n; k++) {
        if (p[k] >= FACE_DOWN)
            return bad("a face-down card on a face-up card");
        if (p[k] == UNSEEN_CARD && (flags & POS_UNSEEN))
            continue;
        if (!is_card(p[k]))
            return bad("a byte that is no card (a card is suit * 16 + rank 1..13)");
        if (copies)
            copies[p[k]]++;
    }
    return 0;
}

/* Every position at the boundary: its piles, the hand's rows, `hand` more cards in the hand
 * not given, `removed` suits removed. Every byte a card of four suits and thirteen ranks, no
 * card more than eight times (one suit in two decks), no rank more than eight times
 * counting the suits removed, no more than 104 cards in all. */
int check_position(const State *s, const uint8_t (*rows)[PILES], int nrows, long hand,
                   long removed, int flags)
{
    int copies[FACE_DOWN] = {0};
    if (int_in_range(removed, 0, 8, "the number of suits removed") < 0 ||
        int_in_range(hand, 0, MAX_CARDS, "the number of cards in the hand") < 0 ||
        int_in_range(nrows, 0, MAX_CARDS / PILES, "the number of rows in the hand") < 0)
        return -1;
    long total = 13 * removed + hand + (long)nrows * PILES;
    for (int i = 0; i < PILES; i++) {
        total += s->len[i];
        if (check_pile(s->c[i], s->len[i], flags, copies) < 0)
            return -1;
    }
    for (int r = 0; r < nrows; r++)
        for (int i = 0; i < PILES; i++) {
            int c = rows[r][i];
            if (!c && (flags & POS_ROWS_UNKNOWN))
                continue;
            if (!is_card(c))
                return bad(c ? "a card of the hand is no card" : "a card of the hand not known");
            copies[c]++;
        }
    if (total > MAX_CARDS)
        return bad("more than 104 cards with the hand and the suits removed");
    for (int rank = ACE; rank <= KING; rank++) {
        long of_rank = removed;
        for (int suit = 0; suit < 4; suit++) {
            if (copies[suit * 16 + rank] > 8)
                return bad("a card more than eight times: two decks have no more");
            of_rank += copies[suit * 16 + rank];
        }
        if (of_rank > 8)
            return bad("a rank more than eight times (with the suits removed)");
    }
    return 0;
}

/* A player's view: every face-down card unknown; the unseen cards fill its face-down places
 * and the hand, and with the face-up cards and the suits removed make no card or rank more
 * than two decks hold. */
int check_unseen(const State *view, const uint8_t *u, Py_ssize_t nunseen, int rows,
                 int removed)
{
    int down = 0, copies[FACE_DOWN] = {0};
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < view->len[i]; k++) {
            uint8_t b = view->c[i][k];
            if (b > FACE_DOWN)
                return bad("a player's view has no known face-down card");
            if (b == FACE_DOWN)
                down++;
            else
                copies[b]++;
        }
    if (nunseen != down + (Py_ssize_t)rows * PILES)
        return bad("the unseen cards fill the face-down places and the hand");
    for (Py_ssize_t k = 0; k < nunseen; k++) {
        if (!is_card(u[k]))
            return bad("an unseen card is not a card");
        copies[u[k]]++;
    }
    for (int rank = ACE; rank <= KING; rank++) {
        int of_rank = removed;
        for (int suit = 0; suit < 4; suit++)
            of_rank += copies[suit * 16 + rank];
        if (of_rank > 8)
            return bad("the unseen cards and the view hold a rank more than eight times");
    }
    return 0;
}
