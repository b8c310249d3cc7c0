/* SPDX-License-Identifier: Zlib */
/* strat_ds_tex_pair.c - strategy adapter for vramsim's own DS texture
 * manager (ds_tex_pair.h): 4x4 texel and index data taken together, no
 * management blocks, bounded scans. */
#include <stdio.h>

#include "vramsim/alloc/ds_tex_pair.h"
#include "strat_ds.h"
#include "strategies/strategies.h"
#include "base/options.h"

static int pair_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { NULL };
	uint8_t mapped = 0;
	unsigned s, bank;

	(void)mem;
	if (vs_option_check(options, known, err, errlen))
		return -1;
	for (s = 0; s < 4; s++)
		for (bank = 0; bank < 4; bank++)
			if (a->ds_bank_slot[bank] == s)
				mapped |= (uint8_t)(1u << s);
	ds_tex_pair_init(st, mapped);
	return 0;
}

static int pair_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	uint32_t bytes, addr;
	bool is4x4;
	int rc = vs_ds_tex_request(rq, &bytes, &is4x4);

	if (rc != VS_OK)
		return rc;
	addr = ds_tex_pair_alloc(st, bytes, is4x4);
	if (addr == DS_TEX_NONE)
		return VS_ERR_NOSPACE;
	vs_placement_simple(out, addr, ds_tex_pair_size(bytes, is4x4), addr / 8u | (is4x4 ? 0x80000000u : 0));
	return VS_OK;
}

static int pair_free(void *st, const vs_placement *pl)
{
	return ds_tex_pair_free(st, pl->offset, pl->granted, (pl->key >> 31) != 0) ? VS_ERR_INVALID : VS_OK;
}

static void pair_reset(void *st)
{
	ds_tex_pair_reset(st);
}

static void pair_walk(void *st, vs_extent_fn fn, void *ud)
{
	const ds_tex_pair *m = st;

	vs_ds_walk_free_bits(m->free, DS_TEX_UNITS, DS_TEX_UNIT, fn, ud);
}

static void pair_dump(void *st, vs_print_fn print, void *ud)
{
	const ds_tex_pair *m = st;
	char line[96];

	print(ud, "ds-tex-pair: free runs (4x4 index bytes in slot 1 count as free until a 4x4 texture takes them)\n");
	print(ud, "  address  size\n");
	vs_ds_dump_free_bits(m->free, DS_TEX_UNITS, DS_TEX_UNIT, print, ud);
	snprintf(line, sizeof line, "free 0x%05x bytes\n", (unsigned)ds_tex_pair_free_bytes(st));
	print(ud, line);
}

const vs_strategy vs_strat_ds_tex_pair = {
	.abi = VS_STRATEGY_ABI,
	.name = "ds-tex-pair",
	.summary = "vramsim's own: bitmap over 8-byte units, 4x4 texel and slot-1 index taken together, no management "
		"blocks",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_TEX),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM,
	.state_size = sizeof(ds_tex_pair),
	.init = pair_init,
	.alloc = pair_alloc,
	.free = pair_free,
	.reset = pair_reset,
	.walk_free = pair_walk,
	.dump = pair_dump
};
