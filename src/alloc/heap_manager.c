/* SPDX-License-Identifier: Zlib */
/* heap_manager.c - The Simpsons: Hit & Run's heap manager: heap stack,
 * search lists, the small-allocation rule, and static / tracking / Doug Lea
 * heaps. */
#include "vramsim/alloc/heap_manager.h"

void heap_mgr_init(heap_manager *g, uint32_t size)
{
	uint32_t i, j;

	g->size = size;
	g->top = 0;
	for (i = 0; i < HEAP_MGR_IDS; i++) {
		g->heap[i].kind = HEAP_KIND_NONE;
		g->heap[i].start = g->heap[i].size = 0;
		g->heap[i].first_node = 0;
		g->roles[i] = 0;
		g->list_len[i] = 0;
		for (j = 0; j < HEAP_MGR_LIST_MAX; j++)
			g->list[i][j] = 0;
	}
	for (i = 0; i < HEAP_MGR_STACK_MAX; i++)
		g->stack[i] = 0;
	g->depth = 0;
	g->small_id = HEAP_NIL;
	g->default_id = HEAP_NIL;
	g->routed_small = 0;
	g->searched = 0;
	for (i = 0; i < HEAP_MGR_LIST_MAX; i++)
		g->usable[i] = 0;
	g->usable_len = 0;
	g->no_route = 0;
	g->index = 0;
	g->index_nodes = g->index_used = 0;
}

uint32_t heap_mgr_index_nodes(heap_kind kind, uint32_t size)
{
	return kind == HEAP_KIND_TRACKING ? heap_tracking_capacity(size, 0, HT_ALIGN) : 0;
}

void heap_mgr_set_index(heap_manager *g, heap_tracking_node *nodes, uint32_t n)
{
	g->index = nodes;
	g->index_nodes = nodes ? n : 0;
	g->index_used = 0;
}

/* A tracking heap's index nodes. */
static heap_tracking_node *nodes_of(const heap_manager *g, const heap_mgr_heap *h)
{
	return g->index + h->first_node;
}

static int heap_init(heap_mgr_heap *h, uint8_t *base)
{
	uint8_t *m = base + h->start;

	switch (h->kind) {
	case HEAP_KIND_STATIC:
		return heap_static_init(&h->u.s, h->size, HT_ALIGN);
	case HEAP_KIND_TRACKING:
		return heap_tracking_init(&h->u.t, m, h->size, 0, HT_ALIGN);
	case HEAP_KIND_DOUG_LEA:
		return heap_dlmalloc_init(&h->u.d, m, h->size);
	default:
		return HEAP_INVALID;
	}
}

int heap_mgr_create(heap_manager *g, uint8_t *base, uint32_t id, heap_kind kind, uint32_t size)
{
	heap_mgr_heap *h;
	uint32_t start = heap_align_up(g->top, HT_ALIGN);
	int rc;

	if (id >= HEAP_MGR_IDS || kind == HEAP_KIND_NONE || kind > HEAP_KIND_DOUG_LEA ||
	    g->heap[id].kind != HEAP_KIND_NONE)
		return HEAP_INVALID;
	if (start == HEAP_NIL || start > g->size || g->size - start < size)
		return HEAP_NOSPACE;
	h = &g->heap[id];
	h->kind = (uint32_t)kind;
	h->start = start;
	h->size = size;
	h->first_node = g->index_used;
	rc = heap_init(h, base);
	if (rc != HEAP_OK) {
		h->kind = HEAP_KIND_NONE;
		return rc == HEAP_INVALID ? HEAP_NOSPACE : rc;
	}
	if (kind == HEAP_KIND_TRACKING) {
		if (h->u.t.capacity > g->index_nodes - g->index_used) {
			h->kind = HEAP_KIND_NONE;
			return HEAP_MANAGEMENT;
		}
		g->index_used += h->u.t.capacity;
	}
	g->top = start + size;
	return HEAP_OK;
}

int heap_mgr_attach(heap_manager *g, uint32_t id)
{
	if (id >= HEAP_MGR_IDS || g->heap[id].kind != HEAP_KIND_NONE)
		return HEAP_INVALID;
	g->heap[id].kind = HEAP_KIND_EXTERNAL;
	g->heap[id].first_node = 0;
	g->heap[id].start = 0;
	g->heap[id].size = 0; /* owns no bytes of the region: heap_mgr_owner never names it */
	return HEAP_OK;
}

void heap_mgr_set_roles(heap_manager *g, uint32_t id, uint32_t roles)
{
	if (id < HEAP_MGR_IDS)
		g->roles[id] = (uint8_t)(roles & HEAP_ROLE_KEEPS_SMALL);
}

int heap_mgr_set_search(heap_manager *g, uint32_t id, const uint8_t *ids, uint32_t n)
{
	uint32_t i;

	if (id >= HEAP_MGR_IDS || n > HEAP_MGR_LIST_MAX)
		return HEAP_INVALID;
	for (i = 0; i < n; i++)
		if (ids[i] >= HEAP_MGR_IDS)
			return HEAP_INVALID;
	for (i = 0; i < n; i++)
		g->list[id][i] = ids[i];
	g->list_len[id] = (uint8_t)n;
	return HEAP_OK;
}

void heap_mgr_set_small(heap_manager *g, uint32_t id)
{
	g->small_id = id < HEAP_MGR_IDS ? id : HEAP_NIL;
}

void heap_mgr_set_default(heap_manager *g, uint32_t id)
{
	g->default_id = id < HEAP_MGR_IDS ? id : HEAP_NIL;
}

int heap_mgr_set_usable(heap_manager *g, const uint8_t *ids, uint32_t n)
{
	uint32_t i;

	if (n > HEAP_MGR_LIST_MAX)
		return HEAP_INVALID;
	for (i = 0; i < n; i++)
		if (ids[i] >= HEAP_MGR_IDS)
			return HEAP_INVALID;
	for (i = 0; i < n; i++)
		g->usable[i] = ids[i];
	g->usable_len = n;
	return HEAP_OK;
}

void heap_mgr_set_no_route(heap_manager *g, uint32_t on)
{
	g->no_route = on != 0;
}

void heap_mgr_setup_shar(heap_manager *g)
{
	static const uint8_t in_level[] = { HEAP_SHAR_TEMP, HEAP_SHAR_LEVEL_ZONE, HEAP_SHAR_LEVEL_OTHER,
		HEAP_SHAR_LEVEL_MISSION, HEAP_SHAR_LEVEL_HUD };
	static const uint8_t in_fe[] = { HEAP_SHAR_LEVEL_MOVIE, HEAP_SHAR_LEVEL_FE, HEAP_SHAR_LEVEL_AUDIO };
	static const uint8_t other_or_zone[] = { HEAP_SHAR_LEVEL_OTHER, HEAP_SHAR_LEVEL_ZONE };

	heap_mgr_set_roles(g, HEAP_SHAR_PERSISTENT, HEAP_ROLE_PERSISTENT);
	heap_mgr_set_roles(g, HEAP_SHAR_TEMP, HEAP_ROLE_TEMP);
	heap_mgr_set_roles(g, HEAP_SHAR_AUDIO_PERSISTENT, HEAP_ROLE_AUDIO_PERSISTENT);
	heap_mgr_set_search(g, HEAP_SHAR_ANYWHERE_IN_LEVEL, in_level, sizeof in_level);
	heap_mgr_set_search(g, HEAP_SHAR_ANYWHERE_IN_FE, in_fe, sizeof in_fe);
	heap_mgr_set_search(g, HEAP_SHAR_EITHER_OTHER_OR_ZONE, other_or_zone, sizeof other_or_zone);
	heap_mgr_set_small(g, HEAP_SHAR_SMALL_ALLOC);
	heap_mgr_set_default(g, HEAP_SHAR_DEFAULT);
}

int heap_mgr_push(heap_manager *g, uint32_t id)
{
	if (id >= HEAP_MGR_IDS || g->depth >= HEAP_MGR_STACK_MAX)
		return HEAP_INVALID;
	g->stack[g->depth++] = (uint8_t)id;
	return HEAP_OK;
}

int heap_mgr_pop(heap_manager *g, uint32_t id, uint32_t *popped)
{
	uint32_t top;

	if (g->depth == 0)
		return HEAP_INVALID;
	/* HeapStack's Pop removes the top; the id is only the caller's word */
	top = g->stack[--g->depth];
	if (popped)
		*popped = top;
	return top == id ? HEAP_OK : HEAP_MGR_POP_OTHER;
}

uint32_t heap_mgr_current(const heap_manager *g)
{
	return g->depth ? g->stack[g->depth - 1u] : g->default_id;
}

/* A search list's heaps in order; a listed id with no heap of its own is
 * the default allocator, as an unregistered allocator was plain malloc in
 * the game. */
static uint32_t route_list(const heap_manager *g, const uint8_t *list, uint32_t len, uint8_t *out)
{
	uint32_t i, n = 0;

	for (i = 0; i < len; i++) {
		uint32_t l = list[i];

		if (g->heap[l].kind == HEAP_KIND_NONE)
			l = g->default_id;
		if (l != HEAP_NIL && g->heap[l].kind != HEAP_KIND_NONE)
			out[n++] = (uint8_t)l;
	}
	return n;
}

static int is_search(const heap_manager *g, uint32_t id)
{
	return id == HEAP_MGR_SEARCH || (id < HEAP_MGR_IDS && g->list_len[id]);
}

uint32_t heap_mgr_route(const heap_manager *g, uint32_t id, uint32_t size, uint8_t *out)
{
	uint32_t roles;

	/* g_NoHeapRoute: operator new calls radMemoryAlloc(0, size) */
	if (g->no_route)
		id = g->default_id;
	if (id > HEAP_MGR_SEARCH)
		return 0;
	roles = id < HEAP_MGR_IDS ? g->roles[id] : 0;
	/* AllocateThis: small requests are corralled unless the allocator keeps its own. */
	if (size < HEAP_MGR_SMALL_LIMIT && g->small_id != HEAP_NIL &&
	    g->heap[g->small_id].kind != HEAP_KIND_NONE && !(roles & HEAP_ROLE_KEEPS_SMALL)) {
		out[0] = (uint8_t)g->small_id;
		return 1;
	}
	if (id == HEAP_MGR_SEARCH)
		return route_list(g, g->usable, g->usable_len, out);
	if (g->list_len[id])
		return route_list(g, g->list[id], g->list_len[id], out);
	if (g->heap[id].kind != HEAP_KIND_NONE) {
		out[0] = (uint8_t)id;
		return 1;
	}
	if (g->default_id != HEAP_NIL && g->heap[g->default_id].kind != HEAP_KIND_NONE) {
		out[0] = (uint8_t)g->default_id;
		return 1;
	}
	return 0;
}

static int heap_alloc_one(heap_manager *g, heap_mgr_heap *h, uint8_t *base, uint32_t size, uint32_t align,
	heap_block *out)
{
	uint8_t *m = base + h->start;
	int rc;

	switch (h->kind) {
	case HEAP_KIND_STATIC:
		rc = heap_static_alloc(&h->u.s, size, align, out);
		break;
	case HEAP_KIND_TRACKING:
		rc = heap_tracking_alloc(&h->u.t, m, nodes_of(g, h), size, align, out);
		break;
	case HEAP_KIND_DOUG_LEA:
		rc = heap_dlmalloc_alloc(&h->u.d, m, size, align, out);
		break;
	default:
		return HEAP_NOSPACE; /* a search list may name an id with no heap */
	}
	if (rc == HEAP_OK) {
		out->offset += h->start;
		out->block_offset += h->start;
	}
	return rc;
}

int heap_mgr_alloc(heap_manager *g, uint8_t *base, uint32_t id, uint32_t size, uint32_t align,
	heap_block *out, uint32_t *heap_id)
{
	uint8_t order[HEAP_MGR_LIST_MAX];
	uint32_t n, i;
	int rc = HEAP_NOSPACE;

	if (id == HEAP_NIL)
		id = heap_mgr_current(g);
	if (size == 0)
		return HEAP_UNSUPPORTED; /* radMemoryAlloc: NULL for 0 bytes, whatever the route */
	n = heap_mgr_route(g, id, size, order);
	for (i = 0; i < n; i++) {
		rc = heap_alloc_one(g, &g->heap[order[i]], base, size, align, out);
		if (rc == HEAP_OK) {
			if (order[i] == g->small_id && id != g->small_id)
				g->routed_small++;
			if (!g->no_route && is_search(g, id) && order[i] != g->small_id)
				g->searched++;
			if (heap_id)
				*heap_id = order[i];
			return HEAP_OK;
		}
		if (rc == HEAP_INVALID)
			return rc;
	}
	return rc == HEAP_OK ? HEAP_NOSPACE : rc;
}

uint32_t heap_mgr_owner(const heap_manager *g, uint32_t offset)
{
	uint32_t i;

	for (i = 0; i < HEAP_MGR_IDS; i++)
		if (g->heap[i].kind != HEAP_KIND_NONE && offset >= g->heap[i].start &&
		    offset - g->heap[i].start < g->heap[i].size)
			return i;
	return HEAP_NIL;
}

int heap_mgr_free(heap_manager *g, uint8_t *base, uint32_t offset, uint32_t *heap_id)
{
	uint32_t id = heap_mgr_owner(g, offset);
	heap_mgr_heap *h;

	if (id == HEAP_NIL)
		return HEAP_INVALID;
	if (heap_id)
		*heap_id = id;
	h = &g->heap[id];
	switch (h->kind) {
	case HEAP_KIND_STATIC:
		return heap_static_free(&h->u.s, offset - h->start);
	case HEAP_KIND_TRACKING:
		return heap_tracking_free(&h->u.t, base + h->start, nodes_of(g, h), offset - h->start);
	case HEAP_KIND_DOUG_LEA:
		return heap_dlmalloc_free(&h->u.d, base + h->start, offset - h->start);
	default:
		return HEAP_INVALID;
	}
}

int heap_mgr_status(const heap_manager *g, const uint8_t *base, uint32_t id, heap_status *st)
{
	const heap_mgr_heap *h;

	if (id >= HEAP_MGR_IDS || g->heap[id].kind == HEAP_KIND_NONE)
		return HEAP_INVALID;
	h = &g->heap[id];
	switch (h->kind) {
	case HEAP_KIND_STATIC:
		heap_static_status(&h->u.s, st);
		break;
	case HEAP_KIND_TRACKING:
		heap_tracking_status(&h->u.t, base + h->start, nodes_of(g, h), st);
		break;
	default:
		heap_dlmalloc_status(&h->u.d, base + h->start, st);
		break;
	}
	return HEAP_OK;
}

/* Shifts a heap's region-relative extents into the manager's region. */
typedef struct shift_ud {
	heap_extent_fn fn;
	void *ud;
	uint32_t start;
} shift_ud;

static int shift_fn(void *ud, uint32_t off, uint32_t size)
{
	shift_ud *s = ud;

	return s->fn(s->ud, off + s->start, size);
}

void heap_mgr_walk_free(const heap_manager *g, const uint8_t *base, heap_extent_fn fn, void *ud)
{
	uint32_t i;
	shift_ud s;

	s.fn = fn;
	s.ud = ud;
	for (i = 0; i < HEAP_MGR_IDS; i++) {
		const heap_mgr_heap *h = &g->heap[i];

		s.start = h->start;
		if (h->kind == HEAP_KIND_STATIC)
			heap_static_walk_free(&h->u.s, shift_fn, &s);
		else if (h->kind == HEAP_KIND_TRACKING)
			heap_tracking_walk_free(&h->u.t, base + h->start, nodes_of(g, h), shift_fn, &s);
		else if (h->kind == HEAP_KIND_DOUG_LEA)
			heap_dlmalloc_walk_free(&h->u.d, base + h->start, shift_fn, &s);
	}
}

void heap_mgr_walk_held(const heap_manager *g, const uint8_t *base, heap_extent_fn fn, void *ud)
{
	uint32_t j, end = 0, next;

	(void)base;
	/* heaps in address order: carving only moves up */
	for (;;) {
		const heap_mgr_heap *h = 0;

		next = HEAP_NIL;
		for (j = 0; j < HEAP_MGR_IDS; j++)
			if ((g->heap[j].kind == HEAP_KIND_STATIC || g->heap[j].kind == HEAP_KIND_TRACKING ||
			     g->heap[j].kind == HEAP_KIND_DOUG_LEA) && g->heap[j].size &&
			    g->heap[j].start >= end && (next == HEAP_NIL || g->heap[j].start < next)) {
				next = g->heap[j].start;
				h = &g->heap[j];
			}
		if (!h)
			break;
		if (h->start > end && fn(ud, end, h->start - end))
			return;
		if (h->kind == HEAP_KIND_TRACKING && h->u.t.capacity && fn(ud, h->start, h->u.t.data))
			return;
		if (h->kind == HEAP_KIND_DOUG_LEA && h->u.d.epi) {
			if (h->u.d.first && fn(ud, h->start, h->u.d.first))
				return;
			if (h->u.d.epi < h->size && fn(ud, h->start + h->u.d.epi, h->size - h->u.d.epi))
				return;
		}
		end = h->start + h->size;
	}
	if (end < g->size)
		fn(ud, end, g->size - end);
}

void heap_mgr_reset(heap_manager *g, uint8_t *base)
{
	uint32_t i;

	for (i = 0; i < HEAP_MGR_IDS; i++)
		if (g->heap[i].kind != HEAP_KIND_NONE)
			heap_init(&g->heap[i], base);
	g->routed_small = 0;
	g->searched = 0;
}
