/* SPDX-License-Identifier: Zlib */
/* strat_heap_linear.c - adapter for the linear allocator of the blog post
 * "Game From Zero: Part 2. 'Memory'". Trace save/restore are its mark and
 * roll back. */
#include "vramsim/alloc/heap_linear.h"
#include "strategies/strategies.h"
#include "strat_heap_common.h"
#include "base/options.h"

typedef struct linear_st {
	uint8_t *mem;
	heap_linear l;
} linear_st;

static int linear_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	static const char *const known[] = { "align", "fill", NULL };
	linear_st *s = st;
	uint32_t align = 8, fill = 1;

	if (vs_option_check(options, known, err, errlen) ||
	    vs_option_u32(options, "align", 1, 0x10000u, &align, err, errlen) < 0 ||
	    vs_option_u32(options, "fill", 0, 1, &fill, err, errlen) < 0)
		return -1;
	if (!heap_is_pow2(align)) {
		snprintf(err, errlen, "option align=%u: not a power of two", (unsigned)align);
		return -1;
	}
	s->mem = mem;
	heap_linear_init(&s->l, a->size, align, (int)fill);
	return 0;
}

static int linear_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	linear_st *s = st;
	heap_block b;
	int rc;

	if (!vs_heap_align_ok(rq->align))
		return VS_ERR_INVALID;
	rc = heap_linear_alloc(&s->l, s->mem, rq->size, rq->align, &b);
	if (rc == HEAP_OK)
		vs_heap_place(out, &b);
	return rc;
}

static int linear_free(void *st, const vs_placement *pl)
{
	linear_st *s = st;

	return pl->offset <= s->l.top ? VS_RETAINED : VS_ERR_INVALID;
}

static void linear_reset(void *st)
{
	linear_st *s = st;

	heap_linear_reset(&s->l);
}

static void linear_walk(void *st, vs_extent_fn fn, void *ud)
{
	linear_st *s = st;

	heap_linear_walk_free(&s->l, fn, ud);
}

static int linear_save(void *st, void *buf)
{
	linear_st *s = st;
	heap_linear_mark mk = heap_linear_mark_get(&s->l);

	memcpy(buf, &mk, sizeof mk);
	return 0;
}

static int linear_restore(void *st, const void *buf)
{
	linear_st *s = st;
	heap_linear_mark mk;

	memcpy(&mk, buf, sizeof mk);
	return heap_linear_rollback(&s->l, mk) == HEAP_OK ? 0 : -1;
}

static void linear_dump(void *st, vs_print_fn print, void *ud)
{
	linear_st *s = st;
	heap_status hs;

	heap_linear_status(&s->l, &hs);
	vs_heap_print_status(&hs, print, ud);
}

const vs_strategy vs_strat_heap_linear = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-linear",
	.summary = "scratch allocator from 'Game From Zero: Part 2': bump, reset, mark/roll back (save/restore), 0xAA "
		"fill",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN | VS_STRAT_RELOCATABLE | VS_STRAT_NATIVE_STATE,
	.state_size = sizeof(linear_st),
	.init = linear_init,
	.alloc = linear_alloc,
	.free = linear_free,
	.reset = linear_reset,
	.walk_free = linear_walk,
	.save_size = sizeof(heap_linear_mark),
	.save = linear_save,
	.restore = linear_restore,
	.dump = linear_dump
};
