/* SPDX-License-Identifier: Zlib */
/* strat_heap_bank.c - adapter for the orx engine's memory bank. */
#include "vramsim/alloc/heap_bank.h"
#include "strategies/strategies.h"
#include "strat_heap_common.h"
#include "base/options.h"

typedef struct bank_st {
	uint8_t *mem;
	uint32_t cell_opt;
	heap_bank b;
} bank_st;

static int bank_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	static const char *const known[] = { "cell", "per", "grow", NULL };
	bank_st *s = st;
	uint32_t cell = 32, per = 64, grow = 1;
	char val[16];

	if (vs_option_check(options, known, err, errlen) ||
	    vs_option_u32(options, "cell", 1, 0x01000000u, &cell, err, errlen) < 0 ||
	    vs_option_u32(options, "per", 1, 0xFFFFu, &per, err, errlen) < 0)
		return -1;
	if (vs_option_get(options, "grow", val, sizeof val)) {
		if (strcmp(val, "no") != 0 && strcmp(val, "yes") != 0) {
			snprintf(err, errlen, "option grow=%s: expected yes or no", val);
			return -1;
		}
		grow = strcmp(val, "yes") == 0;
	}
	s->mem = mem;
	s->cell_opt = cell;
	if (heap_bank_init(&s->b, mem, a->size, cell, per, grow) != HEAP_OK) {
		snprintf(err, errlen, "a segment of %u cells of %u bytes does not fit the %u-byte arena",
			(unsigned)per, (unsigned)cell, (unsigned)a->size);
		return -1;
	}
	return 0;
}

static int bank_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	bank_st *s = st;
	heap_block b;
	int rc;

	if (!vs_heap_align_ok(rq->align))
		return VS_ERR_INVALID;
	rc = heap_bank_alloc(&s->b, s->mem, rq->size, rq->align, &b);
	if (rc == HEAP_OK)
		vs_heap_place(out, &b);
	return rc;
}

static int bank_free(void *st, const vs_placement *pl)
{
	bank_st *s = st;

	return heap_bank_free(&s->b, s->mem, pl->offset);
}

static void bank_reset(void *st)
{
	bank_st *s = st;

	heap_bank_init(&s->b, s->mem, s->b.size, s->cell_opt, s->b.per, s->b.grow);
}

static void bank_walk(void *st, vs_extent_fn fn, void *ud)
{
	bank_st *s = st;

	heap_bank_walk_free(&s->b, s->mem, fn, ud);
}

static void bank_dump(void *st, vs_print_fn print, void *ud)
{
	bank_st *s = st;
	heap_status hs;
	char line[128];

	heap_bank_status(&s->b, s->mem, &hs);
	vs_heap_print_status(&hs, print, ud);
	snprintf(line, sizeof line, "cells of %u bytes, %u per segment of %u bytes (%u overhead); %u segments live%s\n",
		(unsigned)s->b.cell, (unsigned)s->b.per, (unsigned)s->b.seg_bytes,
		(unsigned)(HEAP_BANK_SEG_HEADER + 4u * s->b.map_words), (unsigned)s->b.segments,
		s->b.grow ? "" : " (grow=no: never more)");
	print(ud, line);
}

/* Each live segment's header and bit map (they come and go with the
 * segments). A released segment is free whole: its header is only the
 * free-segment link, rewritten when it is taken again. With grow=no the
 * arena past the one segment is held too: no request can ever have it. */
static void bank_held(void *st, vs_extent_fn fn, void *ud)
{
	bank_st *s = st;

	heap_bank_walk_held(&s->b, s->mem, fn, ud);
}

const vs_strategy vs_strat_heap_bank = {
	.abi = VS_STRATEGY_ABI,
	.name = "heap-bank",
	.summary = "orx memory bank: fixed cells in segments of N, each segment with a header and a bit map "
		"(cell=,per=,grow=no)",
	.arenas = VS_ARENA_BIT(VS_ARENA_RAM),
	.flags = VS_STRAT_STORES_SEEN | VS_STRAT_RELOCATABLE,
	.state_size = sizeof(bank_st),
	.init = bank_init,
	.alloc = bank_alloc,
	.free = bank_free,
	.reset = bank_reset,
	.walk_free = bank_walk,
	.dump = bank_dump,
	.held = bank_held
};
