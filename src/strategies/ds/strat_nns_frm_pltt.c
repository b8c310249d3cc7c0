/* SPDX-License-Identifier: Zlib */
/* strat_nns_frm_pltt.c - strategy adapter for the NNS_Gfd frame palette VRAM
 * manager (nns-gfd.md). dir=low / dir=high pick the end; frees are accepted
 * and the memory stays held until a state restore or reset. */
#include <stdio.h>

#include "vramsim/alloc/nns_gfd.h"
#include "strat_ds.h"
#include "strategies/strategies.h"
#include "base/options.h"

static int frmpltt_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "size", NULL };
	nns_gfd_ctx *g = st;
	uint32_t size = vs_ds_pltt_mapped_bytes(a);

	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
		vs_option_u32(options, "size", 0, 0x18000u, &size, err, errlen) < 0)
		return -1;
	nns_gfd_init(g, 0);
	if (!nns_frm_pltt_init(g, size, true)) {
		snprintf(err, errlen, "NNS_GfdInitFrmPlttVramManager refuses size 0x%x", (unsigned)size);
		return -1;
	}
	return 0;
}

static int frmpltt_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	return vs_ds_nns_pltt_alloc(st, rq, out);
}

static int frmpltt_free(void *st, const vs_placement *pl)
{
	return nns_gfd_free_pltt(st, pl->key) == 0 ? VS_RETAINED : VS_ERR_INVALID;
}

static void frmpltt_reset(void *st)
{
	nns_frm_pltt_reset(st);
}

static void frmpltt_walk(void *st, vs_extent_fn fn, void *ud)
{
	const nns_gfd_ctx *g = st;

	if (g->frm_pltt.st.hi > g->frm_pltt.st.lo)
		fn(ud, g->frm_pltt.st.lo, g->frm_pltt.st.hi - g->frm_pltt.st.lo);
}

static int frmpltt_save(void *st, void *buf)
{
	nns_frm_pltt_get_state(st, buf);
	return 0;
}

static int frmpltt_restore(void *st, const void *buf)
{
	nns_frm_pltt_set_state(st, buf);
	return 0;
}

static void frmpltt_dump(void *st, vs_print_fn print, void *ud)
{
	vs_ds_print p = { print, ud };

	nns_frm_pltt_dump(st, vs_ds_print_cb, &p);
}

/* The manager's own RAM: the two cursors and the size (the ctx also holds the
 * other managers, which this strategy does not run). */
static uint64_t frmpltt_ram(void *st)
{
	(void)st;
	return sizeof(nns_frm_pltt);
}

const vs_strategy vs_strat_nns_frm_pltt = {
	.abi = VS_STRATEGY_ABI,
	.name = "nns-frm-pltt",
	.summary = "NITRO-System frame palette VRAM manager: low and high cursors, 16-byte alignment (8 for 4-colour)",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_PLTT),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM | VS_STRAT_NATIVE_STATE,
	.state_size = NNS_GFD_CTX_BYTES(0),
	.init = frmpltt_init,
	.alloc = frmpltt_alloc,
	.free = frmpltt_free,
	.reset = frmpltt_reset,
	.walk_free = frmpltt_walk,
	.save_size = sizeof(nns_frm_pltt_state),
	.save = frmpltt_save,
	.restore = frmpltt_restore,
	.dump = frmpltt_dump,
	.ram = frmpltt_ram
};
