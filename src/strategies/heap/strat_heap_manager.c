/* SPDX-License-Identifier: Zlib */
/* strat_heap_manager.c - adapter for The Simpsons: Hit & Run's heap manager
 * with its own heaps: static, tracking and Doug Lea heaps carved from the
 * arena by heap_mgr_create, as CreateHeap made them from g_HeapCreationData.
 *
 * A request names its allocator (GameMemoryAllocator id) in opt=, as a
 * radMemoryAlloc(allocator, size) call does; no opt= is id 0, the default.
 * The small-allocation rule, search lists and the default heap are the
 * manager's own (setup=shar gives the game's). A strategy sees requests, not
 * the heap stack: traces with a `heaps` line route by the stack across
 * arenas instead (docs/heaps.md). The tracking heaps' index nodes (outside
 * the arena) are allocated here at init and counted in the bookkeeping RAM;
 * the state points at them, so it is not a memcpy snapshot. */
#include "vramsim/alloc/heap_manager.h"
#include "strategies/strategies.h"
#include "strat_heap_common.h"
#include "base/options.h"

typedef struct mgr_st {
	uint8_t *mem;
	heap_tracking_node *ix;
	heap_manager g;
} mgr_st;

static void mgr_fini(void *st)
{
	mgr_st *s = st;

	free(s->ix);
	s->ix = NULL;
}

static const char *const kind_names[] = { "", "static", "tracking", "doug-lea" };

/* hN=KIND/SIZE: heap id N of KIND, SIZE bytes (a number as vs_option_u32 reads one). */
static int parse_heap(const char *key, const char *val, uint32_t *kind, uint32_t *size, char *err, size_t errlen)
{
	const char *slash = strchr(val, '/');
	uint32_t k;

	for (k = 1; k <= HEAP_KIND_DOUG_LEA; k++)
		if (slash && strlen(kind_names[k]) == (size_t)(slash - val) &&
		    strncmp(val, kind_names[k], (size_t)(slash - val)) == 0)
			break;
	if (!slash || k > HEAP_KIND_DOUG_LEA) {
		snprintf(err, errlen, "option %s=%s: expected KIND/SIZE, KIND static, tracking or doug-lea", key, val);
		return -1;
	}
	if (vs_option_number(slash + 1, 1, 0xFFFFFFFFu, size) < 0) {
		snprintf(err, errlen, "option %s=%s: the size is not a number of bytes", key, val);
		return -1;
	}
	*kind = k;
	return 0;
}

/* small= / default=: an id 0-31, or none. */
static int parse_id(const char *options, const char *key, uint32_t *out, char *err, size_t errlen)
{
	char val[16];

	if (!vs_option_get(options, key, val, sizeof val))
		return 0;
	if (strcmp(val, "none") == 0) {
		*out = HEAP_NIL;
		return 1;
	}
	return vs_option_u32(options, key, 0, HEAP_MGR_IDS - 1u, out, err, errlen);
}

static int mgr_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	static const char *const known[] = { "setup", "small", "default",
		"h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "h10", "h11", "h12", "h13", "h14", "h15",
		"h16", "h17", "h18", "h19", "h20", "h21", "h22", "h23", "h24", "h25", "h26", "h27", "h28", "h29",
		"h30", "h31", NULL };
	mgr_st *s = st;
	char key[8], val[64];
	uint32_t id, small = HEAP_NIL, def = 0, made = 0, nodes = 0;
	uint32_t kind[HEAP_MGR_IDS] = { 0 }, size[HEAP_MGR_IDS];
	int rc;

	if (vs_option_check(options, known, err, errlen))
		return -1;
	s->mem = mem;
	heap_mgr_init(&s->g, a->size);
	if (vs_option_get(options, "setup", val, sizeof val)) {
		if (strcmp(val, "shar") != 0 && strcmp(val, "none") != 0) {
			snprintf(err, errlen, "option setup=%s: expected shar or none", val);
			return -1;
		}
		if (strcmp(val, "shar") == 0) {
			heap_mgr_setup_shar(&s->g);
			small = s->g.small_id;
		}
	}
	if (parse_id(options, "small", &small, err, errlen) < 0 || parse_id(options, "default", &def, err, errlen) < 0)
		return -1;
	heap_mgr_set_small(&s->g, small);
	heap_mgr_set_default(&s->g, def);
	for (id = 0; id < HEAP_MGR_IDS; id++) {
		snprintf(key, sizeof key, "h%u", (unsigned)id);
		if (!vs_option_get(options, key, val, sizeof val))
			continue;
		if (parse_heap(key, val, &kind[id], &size[id], err, errlen))
			return -1;
		nodes += heap_mgr_index_nodes((heap_kind)kind[id], size[id]);
	}
	if (nodes) {
		s->ix = calloc(nodes, sizeof *s->ix);
		if (!s->ix) {
			snprintf(err, errlen, "out of memory for the tracking heaps' index (%u records)", (unsigned)nodes);
			return -1;
		}
		heap_mgr_set_index(&s->g, s->ix, nodes);
	}
	/* carved in id order, each from where the last ended (8-aligned) */
	for (id = 0; id < HEAP_MGR_IDS; id++) {
		if (!kind[id])
			continue;
		rc = heap_mgr_create(&s->g, mem, id, (heap_kind)kind[id], size[id]);
		if (rc != HEAP_OK) {
			snprintf(err, errlen, "heap h%u (%s, %u bytes) does not fit: %u of the %u-byte arena are carved "
				"before it", (unsigned)id, kind_names[kind[id]], (unsigned)size[id], (unsigned)s->g.top,
				(unsigned)a->size);
			mgr_fini(s);
			return -1;
		}
		made++;
	}
	if (!made) {
		/* no heap named: the default id is one Doug Lea heap of the arena */
		if (def == HEAP_NIL || heap_mgr_create(&s->g, mem, def, HEAP_KIND_DOUG_LEA, a->size) != HEAP_OK) {
			snprintf(err, errlen, "no heap declared (h0=doug-lea/64K ...) and no default heap to make");
			return -1;
		}
	}
	return 0;
}

static int mgr_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	mgr_st *s = st;
	heap_block b;
	int rc;

	if (!vs_heap_align_ok(rq->align) || rq->opt >= HEAP_MGR_IDS)
		return VS_ERR_INVALID;
	rc = heap_mgr_alloc(&s->g, s->mem, rq->opt, rq->size, rq->align, &b, NULL);
	if (rc == HEAP_OK)
		vs_heap_place(out, &b);
	return rc;
}

static int mgr_free(void *st, const vs_placement *pl)
{
	mgr_st *s = st;

	return heap_mgr_free(&s->g, s->mem, pl->offset, NULL);
}

static void mgr_reset(void *st)
{
	mgr_st *s = st;

	heap_mgr_reset(&s->g, s->mem);
}

static void mgr_walk(void *st, vs_extent_fn fn, void *ud)
{
	mgr_st *s = st;

	heap_mgr_walk_free(&s->g, s->mem, fn, ud);
}

static void mgr_held(void *st, vs_extent_fn fn, void *ud)
{
	mgr_st *s = st;

	heap_mgr_walk_held(&s->g, s->mem, fn, ud);
}

static void mgr_dump(void *st, vs_print_fn print, void *ud)
{
	mgr_st *s = st;
	char line[192];
	uint32_t id;

	for (id = 0; id < HEAP_MGR_IDS; id++) {
		const heap_mgr_heap *h = &s->g.heap[id];
		heap_status hs;

		if (h->kind < HEAP_KIND_STATIC || h->kind > HEAP_KIND_DOUG_LEA)
			continue;
		heap_mgr_status(&s->g, s->mem, id, &hs);
		snprintf(line, sizeof line, "heap %u %s [0x%x, +%u): free %u, largest block %u, objects %u, high-water %u\n",
			(unsigned)id, kind_names[h->kind], (unsigned)h->start, (unsigned)h->size, (unsigned)hs.total_free,
			(unsigned)hs.largest, (unsigned)hs.objects, (unsigned)hs.high_water);
		print(ud, line);
	}
	snprintf(line, sizeof line, "small-allocation rule moved %u, search lists served %u\n",
		(unsigned)s->g.routed_small, (unsigned)s->g.searched);
	print(ud, line);
}

/* The state and the tracking heaps' index nodes. */
static uint64_t mgr_ram(void *st)
{
	mgr_st *s = st;

	return sizeof *s + (uint64_t)s->g.index_nodes * sizeof *s->ix;
}

const vs_strategy vs_strat_heap_manager = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-manager",
	.summary = "The Simpsons: Hit & Run's heap manager: static/tracking/Doug Lea heaps carved from the arena; "
		"opt= names the allocator (hN=KIND/SIZE,setup=shar,small=,default=)",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN,
	.state_size = sizeof(mgr_st),
	.init = mgr_init,
	.alloc = mgr_alloc,
	.free = mgr_free,
	.reset = mgr_reset,
	.walk_free = mgr_walk,
	.dump = mgr_dump,
	.fini = mgr_fini,
	.held = mgr_held,
	.ram = mgr_ram
};
