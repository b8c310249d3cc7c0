/* SPDX-License-Identifier: Zlib */
/* strat_nns_frm_tex.c - strategy adapter for the NNS_Gfd frame texture VRAM
 * manager (nns-gfd.md). Frees are accepted and the memory stays held until
 * a state restore or reset, as on the console. */
#include <stdio.h>

#include "vramsim/alloc/nns_gfd.h"
#include "strat_ds.h"
#include "strategies/strategies.h"
#include "base/options.h"

static int frmtex_init(void *st, const vs_arena_decl *a, const char *options,
	uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "slots", NULL };
	nns_gfd_ctx *g = st;
	uint32_t slots = vs_ds_tex_mapped_bytes(a) / VS_DS_TEX_SLOT;

	(void)mem;
	if (vs_option_check(options, known, err, errlen) ||
		vs_option_u32(options, "slots", 1, 4, &slots, err, errlen) < 0)
		return -1;
	if (slots == 0) {
		snprintf(err, errlen, "texture slot 0 has no bank mapped: give slots=1..4");
		return -1;
	}
	nns_gfd_init(g, 0);
	if (!nns_frm_tex_init(g, (uint16_t)slots, true)) {
		snprintf(err, errlen, "NNS_GfdInitFrmTexVramManager refuses numSlot %u", (unsigned)slots);
		return -1;
	}
	return 0;
}

static int frmtex_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	return vs_ds_nns_tex_alloc(st, rq, out);
}

static int frmtex_free(void *st, const vs_placement *pl)
{
	/* NNS_GfdFreeFrmTexVram does nothing and returns 0 */
	return nns_gfd_free_tex(st, pl->key) == 0 ? VS_RETAINED : VS_ERR_INVALID;
}

static void frmtex_reset(void *st)
{
	nns_frm_tex_reset(st);
}

static void frmtex_walk(void *st, vs_extent_fn fn, void *ud)
{
	const nns_gfd_ctx *g = st;
	unsigned r;

	for (r = 0; r < g->frm_tex.num_region && r < NNS_FRM_TEX_REGIONS; r++) {
		uint32_t base = nns_frm_tex_region_base(r), h = g->frm_tex.st.head[r], t = g->frm_tex.st.tail[r];
		if (t > h && fn(ud, base + h, t - h))
			return;
	}
}

static int frmtex_save(void *st, void *buf)
{
	nns_frm_tex_get_state(st, buf);
	return 0;
}

static int frmtex_restore(void *st, const void *buf)
{
	nns_frm_tex_set_state(st, buf);
	return 0;
}

static void frmtex_dump(void *st, vs_print_fn print, void *ud)
{
	vs_ds_print p = { print, ud };

	nns_frm_tex_dump(st, vs_ds_print_cb, &p);
}

/* The manager's own RAM: its five regions' heads and tails, the slot count (the ctx also holds the
 * other managers, which this strategy does not run). */
static uint64_t frmtex_ram(void *st)
{
	(void)st;
	return sizeof(nns_frm_tex);
}

const vs_strategy vs_strat_nns_frm_tex = {
	.abi = VS_STRATEGY_ABI,
	.name = "nns-frm-tex",
	.summary = "NITRO-System frame texture VRAM manager: five regions, top-down textures, 4x4 bottom-up with "
		"index data",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_TEX),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM | VS_STRAT_NATIVE_STATE,
	.state_size = NNS_GFD_CTX_BYTES(0),
	.init = frmtex_init,
	.alloc = frmtex_alloc,
	.free = frmtex_free,
	.reset = frmtex_reset,
	.walk_free = frmtex_walk,
	.save_size = sizeof(nns_frm_tex_state),
	.save = frmtex_save,
	.restore = frmtex_restore,
	.dump = frmtex_dump,
	.ram = frmtex_ram
};
