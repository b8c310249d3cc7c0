/* SPDX-License-Identifier: Zlib */
/* nns_gfd.c - NNS_Gfd common entry points, size rounding and dump text.
 *
 * The real library calls through four global function pointers that start
 * out at functions returning an error; initialising a manager with
 * useAsDefault points them at that manager. The ctx keeps which manager each
 * pair points at as an enum, so a copy of the ctx stays meaningful.
 */
#include "vramsim/alloc/nns_gfd_impl.h"

uint32_t nns_gfd_round_tex_size(uint32_t sz)
{
	if (sz >= 0x7FFF0u)
		return 0;
	sz = sz ? (sz + 15u) & ~15u : 16u;
	return sz >= 0x7FFF0u ? 0 : sz;
}

uint32_t nns_gfd_round_pltt_size(uint32_t sz)
{
	if (sz >= 0x7FFF8u)
		return 0;
	sz = sz ? (sz + 7u) & ~7u : 8u;
	return sz >= 0x7FFF8u ? 0 : sz;
}

void nns_gfd_init(nns_gfd_ctx *g, uint16_t nblk)
{
	unsigned char *p = (unsigned char *)g;
	size_t i;

	for (i = 0; i < sizeof *g; i++)
		p[i] = 0;
	g->nblk = nblk > 0xFFFEu ? 0xFFFEu : nblk;
	g->tex_mgr = NNS_GFD_MGR_NONE;
	g->pltt_mgr = NNS_GFD_MGR_NONE;
	g->lnk_tex.l.pool = g->lnk_tex.l.free[0] = g->lnk_tex.l.free[1] = NNS_LNK_NONE;
	g->lnk_pltt.l.pool = g->lnk_pltt.l.free[0] = g->lnk_pltt.l.free[1] = NNS_LNK_NONE;
}

void nns_gfd_set_tex_mgr(nns_gfd_ctx *g, enum nns_gfd_mgr m)
{
	g->tex_mgr = (uint8_t)m;
}

void nns_gfd_set_pltt_mgr(nns_gfd_ctx *g, enum nns_gfd_mgr m)
{
	g->pltt_mgr = (uint8_t)m;
}

nns_tex_key nns_gfd_alloc_tex(nns_gfd_ctx *g, uint32_t sz, bool is4x4comp, uint32_t opt)
{
	switch (g->tex_mgr) {
	case NNS_GFD_MGR_FRM: return nns_frm_tex_alloc(g, sz, is4x4comp, opt);
	case NNS_GFD_MGR_LNK: return nns_lnk_tex_alloc(g, sz, is4x4comp, opt);
	default: return NNS_GFD_ALLOC_ERROR_TEXKEY;
	}
}

int nns_gfd_free_tex(nns_gfd_ctx *g, nns_tex_key key)
{
	switch (g->tex_mgr) {
	case NNS_GFD_MGR_FRM: return nns_frm_tex_free(g, key);
	case NNS_GFD_MGR_LNK: return nns_lnk_tex_free(g, key);
	default: return -1;
	}
}

nns_pltt_key nns_gfd_alloc_pltt(nns_gfd_ctx *g, uint32_t sz, bool is4pltt, uint32_t opt)
{
	switch (g->pltt_mgr) {
	case NNS_GFD_MGR_FRM: return nns_frm_pltt_alloc(g, sz, is4pltt, opt);
	case NNS_GFD_MGR_LNK: return nns_lnk_pltt_alloc(g, sz, is4pltt, opt);
	default: return NNS_GFD_ALLOC_ERROR_PLTTKEY;
	}
}

int nns_gfd_free_pltt(nns_gfd_ctx *g, nns_pltt_key key)
{
	switch (g->pltt_mgr) {
	case NNS_GFD_MGR_FRM: return nns_frm_pltt_free(g, key);
	case NNS_GFD_MGR_LNK: return nns_lnk_pltt_free(g, key);
	default: return -1;
	}
}

/* ---- dump text --------------------------------------------------------- */

char *nns_gfd_fmt_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	*p = '\0';
	return p;
}

char *nns_gfd_fmt_hex(char *p, uint32_t v, unsigned digits)
{
	static const char hex[] = "0123456789abcdef";
	unsigned i;

	*p++ = '0';
	*p++ = 'x';
	for (i = digits; i > 0; i--)
		*p++ = hex[(v >> ((i - 1) * 4)) & 15u];
	*p = '\0';
	return p;
}

char *nns_gfd_fmt_dec(char *p, uint32_t v, unsigned width)
{
	char tmp[10];
	unsigned n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	while (width > n) {
		*p++ = ' ';
		width--;
	}
	while (n)
		*p++ = tmp[--n];
	*p = '\0';
	return p;
}

uint32_t nns_gfd_permille(uint32_t used, uint32_t total)
{
	return total ? (uint32_t)(((uint64_t)used * 1000u) / total) : 0;
}

char *nns_gfd_fmt_percent(char *p, uint32_t permille)
{
	p = nns_gfd_fmt_dec(p, permille / 10u, 3);
	*p++ = '.';
	p = nns_gfd_fmt_dec(p, permille % 10u, 0);
	return nns_gfd_fmt_str(p, "%");
}

typedef struct dump_ud {
	nns_gfd_print_fn print;
	void *ud;
} dump_ud;

static void dump_block(void *ud, uint32_t addr, uint32_t size)
{
	dump_ud *d = ud;
	char line[48], *p = line;

	p = nns_gfd_fmt_str(p, "  ");
	p = nns_gfd_fmt_hex(p, addr, 5);
	p = nns_gfd_fmt_str(p, "  ");
	p = nns_gfd_fmt_hex(p, size, 5);
	nns_gfd_fmt_str(p, "\n");
	d->print(d->ud, line);
}

void nns_lnk_dump_blocks(const nns_gfd_ctx *g, const nns_lnk_lists *l, int list,
	const char *title, nns_gfd_print_fn print, void *ud, uint32_t *free_sum)
{
	dump_ud d;

	d.print = print;
	d.ud = ud;
	print(ud, title);
	print(ud, "  address  size\n");
	*free_sum += nns_lnk_walk(g, l, list, dump_block, &d);
}

void nns_lnk_dump_usage(uint32_t free_sum, uint32_t reserved, nns_gfd_print_fn print, void *ud)
{
	char line[80], *p = line;
	uint32_t used = reserved > free_sum ? reserved - free_sum : 0;

	p = nns_gfd_fmt_str(p, "used ");
	p = nns_gfd_fmt_hex(p, used, 5);
	p = nns_gfd_fmt_str(p, " of ");
	p = nns_gfd_fmt_hex(p, reserved, 5);
	p = nns_gfd_fmt_str(p, " bytes reserved (");
	p = nns_gfd_fmt_percent(p, nns_gfd_permille(used, reserved));
	nns_gfd_fmt_str(p, ")\n");
	print(ud, line);
}
