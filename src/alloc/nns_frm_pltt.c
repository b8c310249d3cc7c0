/* SPDX-License-Identifier: Zlib */
/* nns_frm_pltt.c - the NNS_Gfd frame palette VRAM manager.
 *
 * Two cursors: lo grows up from 0, hi grows down from the managed size.
 * Palettes align to 16 bytes, 4-colour palettes to 8, and a 4-colour
 * palette must end at or below 0x10000 (the hardware's PLTT_BASE reach).
 * Padding bytes are lost until reset or a state restore.
 */
#include "vramsim/alloc/nns_gfd_impl.h"

#define FOUR_LIMIT 0x10000u

bool nns_frm_pltt_init(nns_gfd_ctx *g, uint32_t sz_byte, bool use_as_default)
{
	if (sz_byte > 0x18000u)
		return false;
	g->frm_pltt.size = sz_byte;
	nns_frm_pltt_reset(g);
	if (use_as_default)
		g->pltt_mgr = NNS_GFD_MGR_FRM;
	return true;
}

void nns_frm_pltt_reset(nns_gfd_ctx *g)
{
	g->frm_pltt.st.lo = 0;
	g->frm_pltt.st.hi = g->frm_pltt.size;
}

static nns_pltt_key from_low(nns_frm_pltt_state *s, uint8_t *why, uint32_t size, uint32_t a, bool four)
{
	uint32_t pad = (a - s->lo % a) % a, addr;

	if (s->hi < s->lo || s->hi - s->lo < size + pad)
		return NNS_GFD_ALLOC_ERROR_PLTTKEY;
	if (four && s->lo + size + pad > FOUR_LIMIT) {
		*why = NNS_GFD_FAIL_FOUR;
		return NNS_GFD_ALLOC_ERROR_PLTTKEY;
	}
	addr = s->lo + pad;
	s->lo += size + pad;
	return nns_pltt_key_make(addr, size);
}

static nns_pltt_key from_high(nns_frm_pltt_state *s, uint8_t *why, uint32_t size, uint32_t a, bool four)
{
	uint32_t pad;

	if (s->hi < size)
		return NNS_GFD_ALLOC_ERROR_PLTTKEY;
	pad = (s->hi - size) % a;
	if (s->hi < s->lo || s->hi - s->lo < size + pad)
		return NNS_GFD_ALLOC_ERROR_PLTTKEY;
	if (four && s->hi > FOUR_LIMIT) {
		*why = NNS_GFD_FAIL_FOUR;
		return NNS_GFD_ALLOC_ERROR_PLTTKEY;
	}
	s->hi -= size + pad;
	return nns_pltt_key_make(s->hi, size);
}

nns_pltt_key nns_frm_pltt_alloc(nns_gfd_ctx *g, uint32_t sz, bool is4pltt, uint32_t opt)
{
	uint32_t size = nns_gfd_round_pltt_size(sz), a = is4pltt ? 8u : 16u;
	nns_pltt_key k = NNS_GFD_ALLOC_ERROR_PLTTKEY;
	uint8_t why = NNS_GFD_FAIL_SPACE;

	/* opt: only NNS_GFD_ALLOC_FROM_LOW means low; anything else is high */
	if (size)
		k = opt == NNS_GFD_ALLOC_FROM_LOW ? from_low(&g->frm_pltt.st, &why, size, a, is4pltt)
			: from_high(&g->frm_pltt.st, &why, size, a, is4pltt);
	g->last_fail = k ? NNS_GFD_FAIL_NONE : why;
	return k;
}

int nns_frm_pltt_free(nns_gfd_ctx *g, nns_pltt_key key)
{
	(void)g;
	(void)key;
	return 0;
}

void nns_frm_pltt_get_state(const nns_gfd_ctx *g, nns_frm_pltt_state *st)
{
	*st = g->frm_pltt.st;
}

void nns_frm_pltt_set_state(nns_gfd_ctx *g, const nns_frm_pltt_state *st)
{
	g->frm_pltt.st = *st;
}

void nns_frm_pltt_dump(const nns_gfd_ctx *g, nns_gfd_print_fn print, void *ud)
{
	const nns_frm_pltt_state *s = &g->frm_pltt.st;
	char line[96], *p = line;

	p = nns_gfd_fmt_str(p, "frame palette VRAM manager: lo ");
	p = nns_gfd_fmt_hex(p, s->lo, 5);
	p = nns_gfd_fmt_str(p, "  hi ");
	p = nns_gfd_fmt_hex(p, s->hi, 5);
	p = nns_gfd_fmt_str(p, "  free ");
	p = nns_gfd_fmt_hex(p, s->hi >= s->lo ? s->hi - s->lo : 0, 5);
	nns_gfd_fmt_str(p, "\n");
	print(ud, line);
	nns_lnk_dump_usage(s->hi >= s->lo ? s->hi - s->lo : 0, g->frm_pltt.size, print, ud);
}
