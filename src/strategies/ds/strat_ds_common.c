/* SPDX-License-Identifier: Zlib */
/* strat_ds_common.c - request mapping and options for the DS adapters. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "vramsim/alloc/bits.h"
#include "vramsim/alloc/nns_gfd.h"
#include "vram/hw.h"
#include "strat_ds.h"
#include "strategies/strategies.h"
#include "vram/request.h"

/* The DS managers place on the hardware's 8-byte address units and take no
 * alignment argument (the NITRO-System API has none): a request that needs
 * more is one they cannot serve. */
#define DS_ALIGN_GIVEN 8u

int vs_ds_tex_request(const vs_request *rq, uint32_t *bytes, bool *is4x4)
{
	if (rq->align > DS_ALIGN_GIVEN)
		return VS_ERR_UNSUPPORTED;
	switch (rq->shape) {
	case VS_REQ_TEX:
		*bytes = vs_request_tex_bytes(rq->u.tex.format, rq->u.tex.width, rq->u.tex.height);
		if (!*bytes)
			*bytes = rq->size;
		*is4x4 = rq->u.tex.format == VS_TEX_4X4;
		return VS_OK;
	case VS_REQ_BYTES:
		*bytes = rq->size;
		*is4x4 = false;
		return VS_OK;
	default:
		return VS_ERR_UNSUPPORTED;
	}
}

int vs_ds_pltt_request(const vs_request *rq, uint32_t *bytes, bool *four)
{
	if (rq->align > DS_ALIGN_GIVEN)
		return VS_ERR_UNSUPPORTED;
	switch (rq->shape) {
	case VS_REQ_PLTT:
		*bytes = rq->size ? rq->size : (uint32_t)rq->u.pltt.colours * 2u;
		*four = rq->u.pltt.four != 0;
		return VS_OK;
	case VS_REQ_BYTES:
		*bytes = rq->size;
		*four = false;
		return VS_OK;
	default:
		return VS_ERR_UNSUPPORTED;
	}
}

/* The NNS opt word: dir=low -> FROM_LOW (1), dir=high -> FROM_HIGH (0),
 * otherwise the trace's raw opt. */
static uint32_t ds_nns_opt(const vs_request *rq)
{
	if (rq->dir == VS_DIR_LOW)
		return NNS_GFD_ALLOC_FROM_LOW;
	if (rq->dir == VS_DIR_HIGH)
		return NNS_GFD_ALLOC_FROM_HIGH;
	return rq->opt;
}

/* The frame and linked-list managers share NNS_GfdAllocTexVram and
 * NNS_GfdAllocPlttVram: only a linked-list manager runs out of blocks. */
static int nns_fail(const nns_gfd_ctx *g)
{
	return g->last_fail == NNS_GFD_FAIL_BLOCKS ? VS_ERR_MANAGEMENT : VS_ERR_NOSPACE;
}

int vs_ds_nns_tex_alloc(nns_gfd_ctx *g, const vs_request *rq, vs_placement *out)
{
	uint32_t bytes;
	bool is4x4;
	nns_tex_key k;
	int rc = vs_ds_tex_request(rq, &bytes, &is4x4);

	if (rc != VS_OK)
		return rc;
	k = nns_gfd_alloc_tex(g, bytes, is4x4, ds_nns_opt(rq));
	if (k == NNS_GFD_ALLOC_ERROR_TEXKEY)
		return nns_fail(g);
	vs_placement_simple(out, nns_tex_key_addr(k), nns_tex_key_size(k), k);
	return VS_OK;
}

int vs_ds_nns_pltt_alloc(nns_gfd_ctx *g, const vs_request *rq, vs_placement *out)
{
	uint32_t bytes;
	bool four;
	nns_pltt_key k;
	int rc = vs_ds_pltt_request(rq, &bytes, &four);

	if (rc != VS_OK)
		return rc;
	k = nns_gfd_alloc_pltt(g, bytes, four, ds_nns_opt(rq));
	if (k == NNS_GFD_ALLOC_ERROR_PLTTKEY)
		return nns_fail(g);
	vs_placement_simple(out, nns_pltt_key_addr(k), nns_pltt_key_size(k), k);
	return VS_OK;
}

uint32_t vs_ds_tex_mapped_bytes(const vs_arena_decl *a)
{
	unsigned slot, bank;

	for (slot = 0; slot < 4; slot++) {
		int mapped = 0;
		for (bank = 0; bank < 4; bank++)
			mapped |= a->ds_bank_slot[bank] == slot;
		if (!mapped)
			break;
	}
	return slot * VS_DS_TEX_SLOT;
}

uint32_t vs_ds_pltt_mapped_bytes(const vs_arena_decl *a)
{
	unsigned slot;

	for (slot = 0; slot < 6 && vs_hw_ds_pltt_slot_mapped(a, slot); slot++)
		;
	return slot * VS_DS_PLTT_SLOT;
}

void vs_ds_print_cb(void *ud, const char *text)
{
	vs_ds_print *p = ud;

	p->print(p->ud, text);
}

void vs_ds_walk_free_bits(const uint32_t *w, uint32_t units, uint32_t unit, vs_extent_fn fn, void *ud)
{
	uint32_t i = bits_next(w, 0, units, 1);

	while (i < units) {
		uint32_t j = bits_next(w, i, units, 0);
		if (fn(ud, i * unit, (j - i) * unit))
			return;
		i = bits_next(w, j, units, 1);
	}
}

typedef struct dump_ud { vs_print_fn print; void *ud; } dump_ud;

static int dump_extent(void *ud, uint32_t off, uint32_t size)
{
	dump_ud *d = ud;
	char line[64];

	snprintf(line, sizeof line, "  0x%05x  0x%05x\n", (unsigned)off, (unsigned)size);
	d->print(d->ud, line);
	return 0;
}

void vs_ds_dump_free_bits(const uint32_t *w, uint32_t units, uint32_t unit, vs_print_fn print, void *ud)
{
	dump_ud d = { print, ud };

	vs_ds_walk_free_bits(w, units, unit, dump_extent, &d);
}
