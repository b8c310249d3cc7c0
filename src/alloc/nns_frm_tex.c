/* SPDX-License-Identifier: Zlib */
/* nns_frm_tex.c - the NNS_Gfd frame texture VRAM manager.
 *
 * Five regions (slot 0, the two halves of slot 1, slot 2, slot 3), each
 * with a head growing up and a tail growing down. Normal textures come
 * top-down from the tails; 4x4 textures come bottom-up from the heads of
 * regions 0 or 3 together with their index data from the head of the slot-1
 * half that holds it (0 -> 1, 3 -> 2). Nothing is freed individually.
 */
#include "vramsim/alloc/nns_gfd_impl.h"

static const uint32_t region_base[NNS_FRM_TEX_REGIONS] = {
	0x00000u, 0x20000u, 0x30000u, 0x40000u, 0x60000u
};
static const uint32_t region_size[NNS_FRM_TEX_REGIONS] = {
	0x20000u, 0x10000u, 0x10000u, 0x20000u, 0x20000u
};
/* Normal textures: search orders for numSlot <= 2 and > 2. */
static const uint8_t order_small[NNS_FRM_TEX_REGIONS] = { 4, 3, 2, 0, 1 };
static const uint8_t order_large[NNS_FRM_TEX_REGIONS] = { 4, 3, 0, 2, 1 };

uint32_t nns_frm_tex_region_base(unsigned r)
{
	return r < NNS_FRM_TEX_REGIONS ? region_base[r] : 0;
}

uint32_t nns_frm_tex_region_size(unsigned r)
{
	return r < NNS_FRM_TEX_REGIONS ? region_size[r] : 0;
}

void nns_frm_tex_reset(nns_gfd_ctx *g)
{
	nns_frm_tex *m = &g->frm_tex;
	unsigned r;

	for (r = 0; r < NNS_FRM_TEX_REGIONS; r++) {
		m->st.head[r] = 0;
		m->st.tail[r] = region_size[r];
	}
	m->num_region = m->num_slot > 1 ? (uint16_t)(m->num_slot + 1) : m->num_slot;
}

bool nns_frm_tex_init(nns_gfd_ctx *g, uint16_t num_slot, bool use_as_default)
{
	if (num_slot < 1 || num_slot > 4)
		return false;
	g->frm_tex.num_slot = num_slot;
	nns_frm_tex_reset(g);
	if (use_as_default)
		g->tex_mgr = NNS_GFD_MGR_FRM;
	return true;
}

static uint32_t room(const nns_frm_tex *m, unsigned r)
{
	return r < m->num_region ? m->st.tail[r] - m->st.head[r] : 0;
}

static nns_tex_key frm_tex_alloc(nns_gfd_ctx *g, uint32_t sz, bool is4x4comp, uint32_t opt)
{
	nns_frm_tex *m = &g->frm_tex;
	uint32_t size = nns_gfd_round_tex_size(sz);
	unsigned i, r;

	(void)opt; /* the frame texture manager takes no option */
	if (!size)
		return NNS_GFD_ALLOC_ERROR_TEXKEY;
	if (is4x4comp) {
		static const uint8_t texel[2] = { 0, 3 }, index[2] = { 1, 2 };
		for (i = 0; i < 2; i++) {
			unsigned t = texel[i], x = index[i];
			uint32_t addr;
			if (room(m, t) < size || room(m, x) < size / 2)
				continue;
			addr = region_base[t] + m->st.head[t];
			m->st.head[t] += size;
			m->st.head[x] += size / 2;
			return nns_tex_key_make(addr, size, true);
		}
		return NNS_GFD_ALLOC_ERROR_TEXKEY;
	}
	for (i = 0; i < NNS_FRM_TEX_REGIONS; i++) {
		r = m->num_slot <= 2 ? order_small[i] : order_large[i];
		if (room(m, r) < size)
			continue;
		m->st.tail[r] -= size;
		return nns_tex_key_make(region_base[r] + m->st.tail[r], size, false);
	}
	return NNS_GFD_ALLOC_ERROR_TEXKEY;
}

nns_tex_key nns_frm_tex_alloc(nns_gfd_ctx *g, uint32_t sz, bool is4x4comp, uint32_t opt)
{
	nns_tex_key k = frm_tex_alloc(g, sz, is4x4comp, opt);

	g->last_fail = k ? NNS_GFD_FAIL_NONE : NNS_GFD_FAIL_SPACE;
	return k;
}

int nns_frm_tex_free(nns_gfd_ctx *g, nns_tex_key key)
{
	(void)g;
	(void)key;
	return 0;
}

void nns_frm_tex_get_state(const nns_gfd_ctx *g, nns_frm_tex_state *st)
{
	*st = g->frm_tex.st;
}

void nns_frm_tex_set_state(nns_gfd_ctx *g, const nns_frm_tex_state *st)
{
	g->frm_tex.st = *st;
}

void nns_frm_tex_dump_ex(const nns_gfd_ctx *g, nns_frm_tex_region_fn fn, void *ud)
{
	const nns_frm_tex *m = &g->frm_tex;
	unsigned r;

	for (r = 0; r < m->num_region && r < NNS_FRM_TEX_REGIONS; r++)
		fn(ud, r, region_base[r], m->st.head[r], m->st.tail[r], region_size[r]);
}

typedef struct dump_ud {
	nns_gfd_print_fn print;
	void *ud;
	uint32_t used, total;
} dump_ud;

static void dump_region(void *ud, unsigned region, uint32_t base, uint32_t head, uint32_t tail,
	uint32_t size)
{
	dump_ud *d = ud;
	char line[96], *p = line;
	uint32_t free = tail - head;

	p = nns_gfd_fmt_dec(p, region, 3);
	p = nns_gfd_fmt_str(p, "  ");
	p = nns_gfd_fmt_hex(p, base + head, 5);
	p = nns_gfd_fmt_str(p, "  ");
	p = nns_gfd_fmt_hex(p, base + tail, 5);
	p = nns_gfd_fmt_str(p, "  ");
	p = nns_gfd_fmt_hex(p, free, 5);
	p = nns_gfd_fmt_str(p, "  ");
	p = nns_gfd_fmt_percent(p, nns_gfd_permille(size - free, size));
	nns_gfd_fmt_str(p, "\n");
	d->print(d->ud, line);
	d->used += size - free;
	d->total += size;
}

void nns_frm_tex_dump(const nns_gfd_ctx *g, nns_gfd_print_fn print, void *ud)
{
	dump_ud d;
	char line[96], *p = line;

	d.print = print;
	d.ud = ud;
	d.used = d.total = 0;
	p = nns_gfd_fmt_str(p, "frame texture VRAM manager: numSlot ");
	p = nns_gfd_fmt_dec(p, g->frm_tex.num_slot, 0);
	nns_gfd_fmt_str(p, "\n");
	print(ud, line);
	print(ud, "region  head     tail     free     used\n");
	nns_frm_tex_dump_ex(g, dump_region, &d);
	nns_lnk_dump_usage(d.total - d.used, d.total, print, ud);
}
