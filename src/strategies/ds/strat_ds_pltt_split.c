/* SPDX-License-Identifier: Zlib */
/* strat_ds_pltt_split.c - strategy adapter for vramsim's own DS palette
 * manager (ds_pltt_split.h): 4-colour palettes low, the rest high. */
#include <stdio.h>

#include "vramsim/alloc/ds_pltt_split.h"
#include "vram/hw.h"
#include "strat_ds.h"
#include "strategies/strategies.h"
#include "base/options.h"

static int split_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };
	uint8_t mapped = 0;
	unsigned s;

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	for (s = 0; s < 6; s++)
		if (vs_hw_ds_pltt_slot_mapped(a, s))
			mapped |= (uint8_t)(1u << s);
	ds_pltt_split_init(st, mapped);
	return 0;
}

static int split_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	uint32_t bytes, addr;
	bool four;
	int rc = vs_ds_pltt_request(rq, &bytes, &four);

	if (rc != VS_OK)
		return rc;
	addr = ds_pltt_split_alloc(st, bytes, four);
	if (addr == DS_PLTT_NONE)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, addr, ds_pltt_split_size(bytes), addr / 8u);
	return VS_OK;
}

static int split_free(void *st, const vs_placement *pl)
{
	return ds_pltt_split_free(st, pl->offset, pl->granted) ? VS_ERR_INVALID : VS_OK;
}

static void split_reset(void *st)
{
	ds_pltt_split_reset(st);
}

static void split_walk(void *st, vs_extent_fn fn, void *ud)
{
	const ds_pltt_split *m = st;

	vs_ds_walk_free_bits(m->free, DS_PLTT_UNITS, DS_PLTT_UNIT, fn, ud);
}

static void split_dump(void *st, vs_print_fn print, void *ud)
{
	const ds_pltt_split *m = st;
	char line[64];

	print(ud, "ds-pltt-split: free runs\n  address  size\n");
	vs_ds_dump_free_bits(m->free, DS_PLTT_UNITS, DS_PLTT_UNIT, print, ud);
	snprintf(line, sizeof line, "free 0x%05x bytes\n", (unsigned)ds_pltt_split_free_bytes(st));
	print(ud, line);
}

const vs_strategy vs_strat_ds_pltt_split = {
	.abi = VS_STRATEGY_ABI,
	.name = "ds-pltt-split",
	.summary = "vramsim's own: bitmap over 8-byte units, 4-colour palettes bottom-up below 0x10000, others "
		"top-down",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_PLTT),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(ds_pltt_split),
	.init = split_init,
	.alloc = split_alloc,
	.free = split_free,
	.reset = split_reset,
	.walk_free = split_walk,
	.dump = split_dump
};
