/* The byte ceiling of a call into the core. Every allocation in csrc/ goes through core_malloc
 * and its kin, which count the bytes the call under way holds in this thread and refuse past
 * its ceiling: the search then stops as when memory runs out (SEARCH_NOMEM), whatever budget
 * of positions it was given, and the glue says which it was (run.c's no_memory). */
#include <stdlib.h>
#include <string.h>

#include "core.h"

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define THREAD_LOCAL _Thread_local
#else
#define THREAD_LOCAL __thread
#endif

static THREAD_LOCAL Ceiling current; /* limit 0: none (no call under way) */

/* Before each block, its size; a union so that the block keeps malloc's alignment. */
typedef union {
    size_t size;
    long double ld;
    long long ll;
    void *p;
} Header;

static int over(size_t more)
{
    if (current.limit && (more > current.limit || current.used > current.limit - more)) {
        current.hit = 1;
        return 1;
    }
    return 0;
}

void *core_malloc(size_t n)
{
    if (n > SIZE_MAX - sizeof(Header) || over(n))
        return NULL;
    Header *h = malloc(sizeof(Header) + n);
    if (!h)
        return NULL;
    h->size = n;
    current.used += n;
    return h + 1;
}

void *core_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = core_malloc(count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void *core_realloc(void *p, size_t n)
{
    if (!p)
        return core_malloc(n);
    Header *h = (Header *)p - 1;
    size_t old = h->size;
    if (n > SIZE_MAX - sizeof(Header) || (n > old && over(n - old)))
        return NULL;
    Header *moved = realloc(h, sizeof(Header) + n);
    if (!moved)
        return NULL;
    current.used -= old < current.used ? old : current.used;
    current.used += n;
    moved->size = n;
    return moved + 1;
}

void core_free(void *p)
{
    if (!p)
        return;
    Header *h = (Header *)p - 1;
    current.used -= h->size < current.used ? h->size : current.used;
    free(h);
}

Ceiling ceiling_enter(size_t limit)
{
    Ceiling before = current;
    current.used = 0;
    current.limit = limit;
    current.hit = 0;
    return before;
}

int ceiling_leave(Ceiling before)
{
    int hit = current.hit;
    current = before;
    return hit;
}
