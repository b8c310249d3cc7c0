/* SPDX-License-Identifier: Zlib */
/* heap_manager.h - the heap manager of The Simpsons: Hit & Run (2003), from
 * an article on the game's memory management, written as freestanding code
 * over one region.
 *
 * Allocators are numbered (the game's GameMemoryAllocator ids, 0-31). An id
 * may own a heap of one of three kinds - static (bump, never frees), tracking
 * (a record table), Doug Lea (binned best fit) - carved from the region when
 * it is created; an id may instead be a search list ("anywhere in level")
 * that tries heaps in order; an id with neither falls back to the default
 * heap (the game's unregistered allocators went to plain malloc).
 *
 * A heap stack says where allocations that name no heap go: PushHeap(id)
 * before, PopHeap(id) after. PopHeap is HeapStack's Pop, which "removes the
 * object at the top of the stack" (seed 004, HeapManager): the id the caller
 * passes ("we must pass the type of allocator from which the memory
 * allocation occurred") is checked and reported, but the top goes whatever
 * it is. Every allocation passes the game's AllocateThis rule first:
 * a request under 201 bytes goes to the small-allocation heap, when there is
 * one, unless the allocator it names is persistent, temp or audio-persistent
 * (those keep their small allocations); otherwise a search id tries its list
 * and any other id its own heap. A free goes to the heap whose region holds
 * the address (the game asked each allocator CanFreeMemory); the static heap
 * ignores it and counts it.
 *
 * Per call, a caller may set its own list of usable allocators and allocate
 * from HEAP_MGR_SEARCH, as FindFreeMemory does: radMemorySetUsableAllocators
 * (list), then radMemoryAlloc(ALLOCATOR_SEARCH, size), which "takes memory
 * from one (or several if the previous ones have already run out of memory)
 * of these allocators" (seed 004, FindFreeMemory).
 *
 * The no-heap-route switch is the game's g_NoHeapRoute: operator new then
 * calls radMemoryAlloc(0, size) - "all requests for memory allocation will be
 * addressed to the GMA_DEFAULT allocator" - whatever the stack, the id named
 * or a search list say. radMemoryAlloc's own small-allocation check (PS2,
 * the same three exceptions) still applies to that call, so with a small heap
 * a request under 201 bytes still goes there.
 *
 * A tracking heap's index (heap_tracking.h) is memory outside the region:
 * the caller gives the manager nodes for all of them (heap_mgr_set_index),
 * as the game's heaps took their storage from a parent allocator, and each
 * tracking heap created takes heap_mgr_index_nodes() of them.
 */
#ifndef VRAMSIM_ALLOC_HEAP_MANAGER_H
#define VRAMSIM_ALLOC_HEAP_MANAGER_H

#include <stdint.h>

#include "vramsim/alloc/heap_common.h"
#include "vramsim/alloc/heap_dlmalloc.h"
#include "vramsim/alloc/heap_static.h"
#include "vramsim/alloc/heap_tracking.h"

#define HEAP_MGR_IDS 32u
#define HEAP_MGR_STACK_MAX 32u
#define HEAP_MGR_LIST_MAX 8u
#define HEAP_MGR_SMALL_LIMIT 201u /* "size < 201" */
/* ALLOCATOR_SEARCH: the id that allocates through the usable list
 * (outside the table of ids, as the game's is). */
#define HEAP_MGR_SEARCH HEAP_MGR_IDS
/* heap_mgr_pop: the top was removed, but it was not the id named. */
#define HEAP_MGR_POP_OTHER 2

typedef enum heap_kind {
	HEAP_KIND_NONE = 0,
	HEAP_KIND_STATIC,
	HEAP_KIND_TRACKING,
	HEAP_KIND_DOUG_LEA,
	HEAP_KIND_EXTERNAL  /* a heap managed elsewhere: routed to, never carved or called */
} heap_kind;

/* Roles of an allocator id for the small-allocation rule. */
enum {
	HEAP_ROLE_PERSISTENT = 1u,
	HEAP_ROLE_TEMP = 2u,
	HEAP_ROLE_AUDIO_PERSISTENT = 4u,
	HEAP_ROLE_KEEPS_SMALL = 7u /* any of the three */
};

/* The game's GameMemoryAllocator numbers (PS2 build). */
enum {
	HEAP_SHAR_DEFAULT = 0, HEAP_SHAR_TEMP = 1, HEAP_SHAR_PERSISTENT = 3, HEAP_SHAR_LEVEL = 4,
	HEAP_SHAR_LEVEL_MOVIE = 5, HEAP_SHAR_LEVEL_FE = 6, HEAP_SHAR_LEVEL_ZONE = 7, HEAP_SHAR_LEVEL_OTHER = 8,
	HEAP_SHAR_LEVEL_HUD = 9, HEAP_SHAR_LEVEL_MISSION = 10, HEAP_SHAR_LEVEL_AUDIO = 11, HEAP_SHAR_DEBUG = 12,
	HEAP_SHAR_SPECIAL = 13, HEAP_SHAR_MUSIC = 14, HEAP_SHAR_AUDIO_PERSISTENT = 15, HEAP_SHAR_SMALL_ALLOC = 16,
	HEAP_SHAR_ANYWHERE_IN_LEVEL = 25, HEAP_SHAR_ANYWHERE_IN_FE = 26, HEAP_SHAR_EITHER_OTHER_OR_ZONE = 27
};

typedef struct heap_mgr_heap {
	uint32_t kind;
	uint32_t start, size; /* region of the manager's region */
	uint32_t first_node;  /* tracking: its index, from here in the manager's nodes */
	union {
		heap_static s;
		heap_tracking t;
		heap_dlmalloc d;
	} u;
} heap_mgr_heap;

typedef struct heap_manager {
	uint32_t size;
	uint32_t top;                              /* where the next heap is carved */
	heap_mgr_heap heap[HEAP_MGR_IDS];
	uint8_t roles[HEAP_MGR_IDS];
	uint8_t list_len[HEAP_MGR_IDS];            /* non-zero: the id is a search list */
	uint8_t list[HEAP_MGR_IDS][HEAP_MGR_LIST_MAX];
	uint8_t stack[HEAP_MGR_STACK_MAX];
	uint32_t depth;
	uint32_t small_id;                         /* HEAP_NIL: no small-allocation heap */
	uint32_t default_id;                       /* where ids with no heap go; HEAP_NIL: fail */
	uint32_t routed_small;                     /* allocations the small rule moved */
	uint32_t searched;                         /* allocations served through a search list */
	uint8_t usable[HEAP_MGR_LIST_MAX];         /* radMemorySetUsableAllocators */
	uint32_t usable_len;
	uint32_t no_route;                         /* g_NoHeapRoute */
	heap_tracking_node *index;                 /* the tracking heaps' index nodes (caller's) */
	uint32_t index_nodes, index_used;
} heap_manager;

void heap_mgr_init(heap_manager *g, uint32_t size);
/* The index nodes a heap of kind and size takes from heap_mgr_set_index's. */
uint32_t heap_mgr_index_nodes(heap_kind kind, uint32_t size);
/* Gives the manager n nodes, outside the region, for the indexes of the
 * tracking heaps created after (the caller keeps them while they live). */
void heap_mgr_set_index(heap_manager *g, heap_tracking_node *nodes, uint32_t n);
/* Carves size bytes (8-aligned) for heap id and sets it up. HEAP_INVALID for
 * a bad id or kind or an id that has a heap; HEAP_NOSPACE when it does not
 * fit; HEAP_MANAGEMENT for a tracking heap when too few of the index nodes
 * are left. */
int heap_mgr_create(heap_manager *g, uint8_t *base, uint32_t id, heap_kind kind, uint32_t size);
/* Registers id as a heap that lives outside the manager's region (a host
 * that runs each heap itself and uses the manager for routing only).
 * HEAP_INVALID for a bad id or an id that has a heap. */
int heap_mgr_attach(heap_manager *g, uint32_t id);
void heap_mgr_set_roles(heap_manager *g, uint32_t id, uint32_t roles);
/* Makes id a search list trying ids[0..n) in order (n <= HEAP_MGR_LIST_MAX). */
int heap_mgr_set_search(heap_manager *g, uint32_t id, const uint8_t *ids, uint32_t n);
void heap_mgr_set_small(heap_manager *g, uint32_t id);
void heap_mgr_set_default(heap_manager *g, uint32_t id);
/* radMemorySetUsableAllocators: the list HEAP_MGR_SEARCH tries, in order,
 * until set again (n <= HEAP_MGR_LIST_MAX). HEAP_INVALID for a bad id or n. */
int heap_mgr_set_usable(heap_manager *g, const uint8_t *ids, uint32_t n);
/* g_NoHeapRoute: non-zero sends every allocation to the default id. */
void heap_mgr_set_no_route(heap_manager *g, uint32_t on);
/* Sets roles, search lists, small and default ids as the game did (no heaps
 * are created: sizes are the caller's). */
void heap_mgr_setup_shar(heap_manager *g);

int heap_mgr_push(heap_manager *g, uint32_t id);
/* Removes the top of the stack, writing its id to *popped (may be NULL):
 * HEAP_OK when it was id, HEAP_MGR_POP_OTHER when it was another (removed
 * all the same), HEAP_INVALID when the stack is empty (nothing removed). */
int heap_mgr_pop(heap_manager *g, uint32_t id, uint32_t *popped);
/* The id on top of the stack; the default id when the stack is empty. */
uint32_t heap_mgr_current(const heap_manager *g);

/* The heap ids an allocation of size bytes naming allocator id (or
 * HEAP_MGR_SEARCH) tries, in order, written to out (HEAP_MGR_LIST_MAX
 * entries); returns how many. */
uint32_t heap_mgr_route(const heap_manager *g, uint32_t id, uint32_t size, uint8_t *out);
/* Allocates per the rules for allocator id (HEAP_NIL: the top of the stack).
 * Offsets are in the manager's region; *heap_id says which heap served it.
 * 0 bytes are HEAP_UNSUPPORTED: the game's radMemoryAlloc returns NULL for
 * them, after routing (heap_mgr_route still names the heap). */
int heap_mgr_alloc(heap_manager *g, uint8_t *base, uint32_t id, uint32_t size, uint32_t align,
	heap_block *out, uint32_t *heap_id);
/* Frees in the heap whose region holds offset: HEAP_OK, HEAP_RETAINED (static
 * heap), or HEAP_INVALID. */
int heap_mgr_free(heap_manager *g, uint8_t *base, uint32_t offset, uint32_t *heap_id);
/* The id of the heap whose region holds offset, or HEAP_NIL. */
uint32_t heap_mgr_owner(const heap_manager *g, uint32_t offset);
/* GetStatus of heap id (region-relative high water). HEAP_INVALID if no heap. */
int heap_mgr_status(const heap_manager *g, const uint8_t *base, uint32_t id, heap_status *st);
/* Free extents of every carved heap (what a request could take). */
void heap_mgr_walk_free(const heap_manager *g, const uint8_t *base, heap_extent_fn fn, void *ud);
/* What no request can take: each heap's own data in the region (a tracking
 * heap's record table; a Doug Lea heap's control block, pad and epilogue),
 * the alignment gaps between heaps and the region no heap was carved from
 * (heaps are carved at create only). With walk_free and the live blocks it
 * covers the region. */
void heap_mgr_walk_held(const heap_manager *g, const uint8_t *base, heap_extent_fn fn, void *ud);
/* Drops every allocation in every heap; heaps, lists and stack stay. */
void heap_mgr_reset(heap_manager *g, uint8_t *base);

#endif
