/* SPDX-License-Identifier: Zlib */
/* ds_cycles_list.c - the DS strategies the cycles program carries and how
 * each encodes a host request (the adapters' request arithmetic,
 * strategies/ds/strat_ds.h), for the list console/common/cycles_list.c
 * builds while the host replays. */
#include "vramsim/alloc/ds_pltt_split.h"
#include "vramsim/alloc/ds_tex_pair.h"
#include "vramsim/alloc/libnds_gl.h"
#include "vramsim/alloc/libnds_sprite.h"
#include "vramsim/alloc/nflib_sprite.h"
#include "vramsim/alloc/nitro_engine_vram.h"
#include "vramsim/alloc/nns_gfd.h"
#include "console/ds/ds_cycles_host.h"
#include "strategies/ds/strat_ds.h" /* the adapters' request arithmetic, shared */
#include "strategies/strategies.h"
#include "vram/request.h"

/* ---- the NITRO-System managers ------------------------------------------------ */

/* The opt word as the adapters give it (strat_ds_common.c): only
 * NNS_GFD_ALLOC_FROM_LOW means low. */
static uint8_t nns_low(const vs_request *rq)
{
	uint32_t opt = rq->dir == VS_DIR_LOW ? NNS_GFD_ALLOC_FROM_LOW :
		rq->dir == VS_DIR_HIGH ? NNS_GFD_ALLOC_FROM_HIGH : rq->opt;

	return opt == NNS_GFD_ALLOC_FROM_LOW ? VS_DS_CYC_F_LOW : 0;
}

static int tex_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	bool is4x4;

	(void)st;
	if (vs_ds_tex_request(rq, arg, &is4x4) != VS_OK)
		return 0;
	*flags = (uint8_t)((is4x4 ? VS_DS_CYC_F_4X4 : 0) | nns_low(rq));
	return 1;
}

static int pltt_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	bool four;

	(void)st;
	if (vs_ds_pltt_request(rq, arg, &four) != VS_OK)
		return 0;
	*flags = (uint8_t)((four ? VS_DS_CYC_F_4X4 : 0) | nns_low(rq));
	return 1;
}

static void lnk_tex_params(const void *st, uint32_t param[4])
{
	const nns_gfd_ctx *g = st;

	param[0] = g->lnk_tex.size;
	param[1] = g->lnk_tex.size4x4;
	param[2] = g->lnk_tex.l.count;
}

static void lnk_pltt_params(const void *st, uint32_t param[4])
{
	const nns_gfd_ctx *g = st;

	param[0] = g->lnk_pltt.size;
	param[1] = g->lnk_pltt.l.count;
}

static void frm_tex_params(const void *st, uint32_t param[4])
{
	param[0] = ((const nns_gfd_ctx *)st)->frm_tex.num_slot;
}

static void frm_pltt_params(const void *st, uint32_t param[4])
{
	param[0] = ((const nns_gfd_ctx *)st)->frm_pltt.size;
}

/* A key's address: texture and palette keys alike (nns_gfd.h). */
static uint32_t key_offset(uint32_t value)
{
	return nns_tex_key_addr(value);
}

/* ---- vramsim's own bitmap managers --------------------------------------------------- */

static void tex_pair_params(const void *st, uint32_t param[4])
{
	param[0] = ((const ds_tex_pair *)st)->mapped;
}

static void pltt_split_params(const void *st, uint32_t param[4])
{
	param[0] = ((const ds_pltt_split *)st)->mapped;
}

static uint32_t addr_offset(uint32_t value)
{
	return value;
}

/* ---- libnds's oamAllocateGfx ------------------------------------------------------ */

/* Pixels and colour format as the adapter works them out
 * (strat_libnds_sprite.c); what it refuses uncalled is not sent. */
static int sprite_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	const libnds_sprite *o = st;
	unsigned w, h, fmt;
	uint32_t pixels;

	if (rq->shape == VS_REQ_SPRITE) {
		if (!vs_request_sprite_dims(rq->u.sprite.shape, rq->u.sprite.size, &w, &h))
			return 0;
		pixels = w * h;
		switch (rq->u.sprite.bpp) {
		case 4: fmt = LIBNDS_COLOR_16; break;
		case 8: fmt = LIBNDS_COLOR_256; break;
		case 16: fmt = LIBNDS_COLOR_BMP; break;
		default: return 0;
		}
	} else if (rq->shape == VS_REQ_BYTES) {
		if (rq->size < 32 || rq->size > 8192 || (rq->size & (rq->size - 1)))
			return 0;
		pixels = rq->size;
		fmt = LIBNDS_COLOR_256;
	} else
		return 0;
	/* the step never changes after init: the state after the call will do */
	if (rq->align > (libnds_sprite_units(o, pixels, fmt) << o->step))
		return 0;
	*arg = pixels;
	*flags = (uint8_t)fmt;
	return 1;
}

static void sprite_params(const void *st, uint32_t param[4])
{
	const libnds_sprite *o = st;

	param[0] = o->mapping;
	param[1] = o->fixes;
}

/* ---- Nitro Engine ---------------------------------------------------------------- */

/* A texture as the adapter loads it (strat_nitro_engine.c): from its
 * format and dimensions, or plain bytes. */
static int ne_tex_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	uint32_t bytes;
	bool is4x4;

	(void)st;
	if (vs_ds_tex_request(rq, &bytes, &is4x4) != VS_OK)
		return 0;
	if (rq->shape != VS_REQ_TEX || !rq->u.tex.width) {
		if (is4x4 && bytes % 16u)
			return 0; /* refused by the adapter uncalled */
		*arg = bytes;
		*flags = (uint8_t)(VS_DS_CYC_F_BYTES | (is4x4 ? VS_DS_CYC_F_4X4 : 0));
		return 1;
	}
	if (rq->u.tex.format > 0xFu || rq->u.tex.width > 0xFFFu)
		return 0; /* beyond any texture: not in the trace format */
	*arg = rq->u.tex.format | (uint32_t)rq->u.tex.width << 4 | (uint32_t)rq->u.tex.height << 16;
	return 1;
}

/* The adapter's state begins with the system's (ne_vram_tex, ne_vram_pltt):
 * the reset parameters that rebuild it as it is. The banks left after the
 * reset, reset in single-3D mode (which drops none); none left (C and D
 * dropped in dual-3D mode) is C and D given where they are dropped again. */
static void ne_tex_params(const void *st, uint32_t param[4])
{
	const ne_vram_tex *t = st;

	param[0] = t->max;
	param[1] = t->banks;
	param[2] = NE_VRAM_MODE_SINGLE;
	param[3] = t->fix;
	if (!t->banks) {
		param[1] = NE_VRAM_BANK_C | NE_VRAM_BANK_D;
		param[2] = t->fix & NE_VRAM_FIX_MODE ? NE_VRAM_MODE_DUAL : NE_VRAM_MODE_INIT;
	}
}

static int ne_pltt_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	bool four;

	(void)st, (void)flags;
	if (vs_ds_pltt_request(rq, arg, &four) != VS_OK)
		return 0;
	*arg = (uint16_t)(*arg >> 1); /* NE_PaletteLoadSize: a u16 count of colours */
	return 1;
}

static void ne_pltt_params(const void *st, uint32_t param[4])
{
	param[0] = ((const ne_vram_pltt *)st)->max;
}

/* ---- NightFox's Lib ---------------------------------------------------------------- */

/* Bytes, as the adapter asks NF for them (strat_nflib_sprite.c); what it
 * refuses before any call is not sent. */
static int nf_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	(void)flags;
	return vs_nflib_request(st, rq, arg) == VS_OK;
}

static void nf_params(const void *st, uint32_t param[4])
{
	uint32_t origin, max;
	const nflib_sprite *m = vs_nflib_books(st, &origin, &max);

	param[0] = m->base;
	param[1] = max;
	param[2] = m->flags;
	param[3] = origin;
}

/* Where the host's NF holds every graphic after a free (its compaction). */
static void nf_after(vs_cycles_list *l, vs_replay *r)
{
	uint32_t origin, max;
	const nflib_sprite *m = vs_nflib_books(vs_replay_strategy_state(r, l->arena), &origin, &max);

	if (l->rq[l->n - 1].op == VS_CYCLES_OP_FREE)
		l->calls[l->n - 1].digest = vs_ds_nflib_digest(m, origin);
}

/* ---- libnds videoGL ------------------------------------------------------------- */

static int lgl_tex_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	unsigned type, sx, sy;
	uint32_t bytes;

	(void)st;
	if (vs_libnds_tex_request(rq, &type, &sx, &sy, &bytes) != VS_OK)
		return 0;
	*arg = bytes ? bytes : type | sx << 4 | sy << 8;
	*flags = bytes ? VS_DS_CYC_F_BYTES : 0;
	return 1;
}

static int lgl_pltt_encode(const void *st, const vs_request *rq, uint32_t *arg, uint8_t *flags)
{
	int four;

	(void)st;
	if (vs_libnds_pltt_request(rq, arg, &four) != VS_OK)
		return 0;
	*flags = four ? VS_DS_CYC_F_4X4 : 0;
	return 1;
}

/* Variant, fixes and the registers as the model holds them. */
static void lgl_params(const void *st, uint32_t param[4])
{
	const libnds_gl *g = st;
	unsigned b;

	param[0] = g->variant | (uint32_t)g->fixed << 8;
	param[1] = param[2] = 0;
	for (b = 0; b < 8; b++)
		param[1 + b / 4] |= (uint32_t)g->regs.vramcnt[b] << 8 * (b % 4);
	param[3] = g->regs.vramcnt[8] | (uint32_t)g->regs.lock[0] << 8 | (uint32_t)g->regs.lock[1] << 16;
}

/* name, id, encode, params, offset, hit, after, results, frames, param_sets */
static const vs_cycles_target targets[] = {
	{ .name = "nns-lnk-tex", .id = VS_DS_CYC_NNS_LNK_TEX, .encode = tex_encode, .params = lnk_tex_params,
		.offset = key_offset, .results = 1, .param_sets = 1 },
	{ .name = "nns-lnk-pltt", .id = VS_DS_CYC_NNS_LNK_PLTT, .encode = pltt_encode, .params = lnk_pltt_params,
		.offset = key_offset, .results = 1, .param_sets = 1 },
	{ .name = "nns-frm-tex", .id = VS_DS_CYC_NNS_FRM_TEX, .encode = tex_encode, .params = frm_tex_params,
		.offset = key_offset, .results = 1, .param_sets = 1 },
	{ .name = "nns-frm-pltt", .id = VS_DS_CYC_NNS_FRM_PLTT, .encode = pltt_encode, .params = frm_pltt_params,
		.offset = key_offset, .results = 1, .param_sets = 1 },
	{ .name = "ds-tex-pair", .id = VS_DS_CYC_DS_TEX_PAIR, .encode = tex_encode, .params = tex_pair_params,
		.offset = addr_offset, .results = 1, .param_sets = 1 },
	{ .name = "ds-pltt-split", .id = VS_DS_CYC_DS_PLTT_SPLIT, .encode = pltt_encode, .params = pltt_split_params,
		.offset = addr_offset, .results = 1, .param_sets = 1 },
	{ .name = "libnds-sprite", .id = VS_DS_CYC_LIBNDS_SPRITE, .encode = sprite_encode, .params = sprite_params,
		.offset = addr_offset, .results = 1, .param_sets = 1 },
	{ .name = "nitro-engine-tex", .id = VS_DS_CYC_NE_TEX, .encode = ne_tex_encode, .params = ne_tex_params,
		.offset = addr_offset, .results = 1, .param_sets = 1 },
	{ .name = "nitro-engine-pltt", .id = VS_DS_CYC_NE_PLTT, .encode = ne_pltt_encode, .params = ne_pltt_params,
		.offset = addr_offset, .results = 1, .param_sets = 1 },
	{ .name = "nflib-sprite", .id = VS_DS_CYC_NFLIB_SPRITE, .encode = nf_encode, .params = nf_params,
		.offset = addr_offset, .after = nf_after, .results = 1, .param_sets = 1, .free_digest = 1 },
	{ .name = "nflib-sprite3d", .id = VS_DS_CYC_NFLIB_SPRITE3D, .encode = nf_encode, .params = nf_params,
		.offset = addr_offset, .after = nf_after, .results = 1, .param_sets = 1, .free_digest = 1 },
	{ .name = "libnds-tex", .id = VS_DS_CYC_LIBNDS_TEX, .encode = lgl_tex_encode, .params = lgl_params,
		.offset = addr_offset, .results = 1, .param_sets = 1, .banks = 1 },
	{ .name = "libnds-pltt", .id = VS_DS_CYC_LIBNDS_PLTT, .encode = lgl_pltt_encode, .params = lgl_params,
		.offset = addr_offset, .results = 1, .param_sets = 1, .banks = 1 },
};

#define NTARGETS (sizeof targets / sizeof targets[0])

const vs_cycles_target *vs_ds_cycles_targets(size_t *n)
{
	*n = NTARGETS;
	return targets;
}

void vs_ds_cycles_target_list(char *buf, size_t len)
{
	vs_cycles_target_names(targets, NTARGETS, buf, len);
}

vs_cycles_list *vs_ds_cycles_list_new(void)
{
	return vs_cycles_list_new(VS_DS_CYC_SLOTS);
}
