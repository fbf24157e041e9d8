/* The compiled search core of spider: compact positions and what the searches do with them.
 *
 * The Python modules spider_cli/analysis/compact.py, beam.py, goalsearch.py, blindplayer.py,
 * rollouts.py, weighing.py and firstmoves.py are the reference; every function here does what
 * its Python counterpart does, in the same order, so that both paths give the same answers
 * (tests/test_core*.py compare them; native.py chooses the path).
 *
 * Split as KPatience's patsolve splits its solver: the position (state.c: packing, hashing,
 * the position store), the moves (moves.c: generation, apply and undo), the values (value.c:
 * chaos and the blind player's value), and one file per search (beam.c, blind.c, rollout.c,
 * chance.c, judge.c, orders.c; the goal searches in three, goal.h says which).
 * The glue alone knows Python (module.c, module_judge.c, convert.c, specs.c, checks.c and run.c:
 * glue.h).
 *
 * A card is a byte: suit * 16 + rank (1..13), plus FACE_DOWN when it lies face down; FACE_DOWN
 * alone is an unknown face-down card.
 */
#ifndef SPIDER_CORE_H
#define SPIDER_CORE_H

#include <stddef.h>
#include <stdint.h>

#define PILES 10
#define FACE_DOWN 64
#define KING 13
#define ACE 1
/* The most cards a position may hold (tableau and hand): two decks. A pile can never be
 * longer, so a move can never overflow one. */
#define MAX_CARDS 104
#define MAX_ACTIONS 1600 /* 10 sources x (1 removal + 9 cards + 10 spaces x 13 cards) < 1600 */

enum { ACT_MOVE = 0, ACT_REMOVE = 1, ACT_DEAL = 2 };
#define OUT_REVEAL (-1) /* a move turned up an unknown card */

typedef struct {
    uint8_t len[PILES];
    uint8_t c[PILES][MAX_CARDS];
} State;

typedef struct {
    int8_t kind, src, dst, count;
} Action;

/* What apply() changed, for undo(). */
typedef struct {
    Action action;
    int8_t flipped; /* a face-down card under the moved cards was turned face up */
    int8_t suit;    /* the suit a removal took off */
} Undo;

/* ---- state.c: a growable array, packing, hashing, and a store of distinct packed positions */

/* Room for `need` items in the array *array (a pointer to it) of *cap items of `size` bytes
 * each: the capacity doubles, from `first` when the array is empty (NULL). 0, or -1 when
 * memory runs out or the bytes would overflow (the array and *cap are then as they were).
 * Every array a search grows goes through GROW. */
int grow(void *array, size_t *cap, size_t need, size_t size, size_t first);

/* ceiling.c: every allocation of the core, counted against the ceiling of the call under way
 * in this thread (module.c's entry points enter one around each search; limit 0: none).
 * Blocks of core_malloc are freed with core_free, never free. */
typedef struct {
    size_t used, limit;
    int hit; /* an allocation was refused for the ceiling */
} Ceiling;
void *core_malloc(size_t n);
void *core_calloc(size_t count, size_t size);
void *core_realloc(void *p, size_t n);
void core_free(void *p);
Ceiling ceiling_enter(size_t limit);
int ceiling_leave(Ceiling before); /* 1 if the ceiling refused an allocation */
#define GROW(arr, cap, need, first) \
    ((size_t)(need) <= (cap) ? 0 : grow(&(arr), &(cap), (need), sizeof *(arr), (first)))

/* A position packed as bytes: each pile's length, then its cards; at most PACKED_MAX bytes. */
#define PACKED_MAX (PILES + MAX_CARDS + 8)
size_t state_pack(const State *s, uint8_t *out);
void state_unpack(State *s, const uint8_t *in);
uint64_t hash_bytes(const uint8_t *p, size_t n);

/* Steele, Lea and Flood's SplitMix64 (rules/shuffle.py): the next output of `state`. */
static inline uint64_t splitmix_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A set of packed keys, each given an id (0, 1, 2, ... in order of insertion). The keys live
 * in one arena; lookups compare whole keys, so the set is exact, never fooled by a hash. */
typedef struct {
    uint8_t *arena;
    size_t arena_used, arena_size;
    size_t *offset;    /* offset of each id's key in the arena */
    uint32_t *slots;   /* open addressing: id + 1, or 0 for an empty slot */
    uint64_t *hashes;  /* the hash of each id's key */
    size_t count, capacity, slot_count;
} Store;

int store_init(Store *st);
void store_free(Store *st);
/* The id of the key; *added tells whether it was new. Returns -1 when memory ran out. */
long store_add(Store *st, const uint8_t *key, size_t n, int *added);
long store_find(const Store *st, const uint8_t *key, size_t n);
/* The same with the key's hash_bytes() already known (one hash for two stores). */
long store_add_h(Store *st, const uint8_t *key, size_t n, uint64_t h, int *added);
long store_find_h(const Store *st, const uint8_t *key, size_t n, uint64_t h);
const uint8_t *store_key(const Store *st, size_t id, size_t *n);
size_t store_bytes(const Store *st);

/* ---- moves.c ---- */
int run_length(const uint8_t *p, int n);
int completes_suit(const uint8_t *p, int n);
/* compact.actions: the moves and removals, in the Python order. */
int gen_actions(const State *s, const int *spaces, int nspaces, int whole_into_space,
                Action *out);
/* The same with each pile's run_length() already known. */
int gen_actions_runs(const State *s, const int *runs, const int *spaces, int nspaces,
                     int whole_into_space, Action *out);
/* compact.apply in place: returns the outcome (0, OUT_REVEAL, or the suit removed plus one)
 * and sets *turned to the pile whose card turned up, or -1. */
int apply_action(State *s, Action a, Undo *u, int *turned);
void undo_action(State *s, const Undo *u);

/* ---- value.c ---- */
/* compact.pile_info: a pile's chaos, the ranks of its first and bottom cards, its run */
typedef struct {
    int16_t chaos;
    int8_t first, bottom;
    int16_t run;
} PileInfo;
void pile_info(const uint8_t *p, int n, PileInfo *info);
/* compact.rank_key: (chaos, -readiness), from the piles' infos or from the position */
void rank_from_info(const PileInfo *info, int removed, long *chaos, long *negready);
void rank_key(const State *s, int removed, long *chaos, long *negready);
/* The blind player's value: a weighted sum of named features (evaluation.Weights, in the
 * order evaluation.FEATURES gives them), passed in from Python so that they are written in
 * one place, the weights file. */
#define N_HIDDEN 8
typedef struct {
    long hidden[N_HIDDEN]; /* the cost of 0..7 face-down cards in a pile */
    long hidden_step;      /* and of each one more */
    long clear, suited, ranked, removed;
    long broken;           /* a face-up card on one that does not take it */
    long ace_top;          /* an Ace on top, not on its own suit's 2 */
    long king_base;        /* a King the lowest face-up card, on face-down ones */
    long run_square;       /* each run of k same-suit links: k * k */
    long refill;           /* a pile with none face down: unseen cards its base could go on */
    long unlock;           /* a pile with some face down: the same */
    long dup_tops;         /* top cards whose rank another top has */
    long homes;            /* unseen cards that some top card would take */
#define TABLE_SIZE (6 * 6 * 3 * 2)
    long table[TABLE_SIZE]; /* a pile's worth by its class (evaluation.pile_class) */
    int has_table;          /* any entry not 0 */
} Weights;
#define N_WEIGHTS (N_HIDDEN + 13)
int pile_class(const uint8_t *p, int n);
/* Unseen cards of each rank (1..13; 0 and 14-15 none): 8 of a rank, less the suits removed
 * and those face up. The same all through a blind search (a card turned up is UNSEEN). */
typedef int8_t Unseen[16];
void unseen_ranks(const State *s, int removed, Unseen unseen);
/* evaluation.pile_value */
long pile_value(const uint8_t *p, int n, const Weights *w, const int8_t *unseen);
/* evaluation.tops_value: the part of the value that the top cards make together */
long tops_value(const State *s, const Weights *w, const int8_t *unseen);

#endif
