/* SPDX-License-Identifier: Zlib */
/* strat_libnds_tex.c - strategy adapter for libnds videoGL's texture
 * allocation (libnds_gl.h), and the helpers libnds-pltt shares
 * (strat_libnds.h). Each request is what a game does for one texture:
 * glGenTextures, glBindTexture, glTexImage2D; a free is glDeleteTextures;
 * a realloc is glTexImage2D again on the bound texture. Options:
 * variant=devkitpro|blocksds, fixed=yes|no. */
#include <stdio.h>
#include <string.h>

#include "strat_libnds.h"
#include "strat_ds.h"
#include "strategies/strategies.h"
#include "base/options.h"
#include "base/text.h"

#define TEX_NODES LIBNDS_GL_TEX_NODES
#define UNUSED_NODES 2u /* the palette allocator this strategy never uses */

static int read_choice(const char *options, const char *key, const char *a, const char *b, int *out, char *err,
	size_t errlen)
{
	char val[32], shown[80];

	if (!vs_option_get(options, key, val, sizeof val))
		return 0;
	if (strcmp(val, a) == 0 || strcmp(val, b) == 0) {
		*out = strcmp(val, b) == 0;
		return 0;
	}
	vs_text_escape(shown, sizeof shown, val, strlen(val), 0);
	snprintf(err, errlen, "option %s=%s: expected %s or %s", key, shown, a, b);
	return -1;
}

int vs_libnds_options(const char *options, const char *const *known, int *variant, int *fixed, char *err,
	size_t errlen)
{
	int blocksds = 0, yes = 0;

	if (vs_option_check(options, known, err, errlen) ||
	    read_choice(options, "variant", "devkitpro", "blocksds", &blocksds, err, errlen) ||
	    read_choice(options, "fixed", "no", "yes", &yes, err, errlen))
		return -1;
	*variant = blocksds ? LIBNDS_GL_BLOCKSDS : LIBNDS_GL_DEVKITPRO;
	*fixed = yes;
	return 0;
}

void vs_libnds_regs(const vs_arena_decl *a, libnds_vb_regs *regs)
{
	unsigned bank;

	memset(regs, 0, sizeof *regs);
	for (bank = 0; bank < VS_DS_BANKS; bank++) {
		unsigned slot = a->ds_bank_slot[bank];
		if (slot == VS_BANK_UNMAPPED)
			continue;
		if (a->kind == VS_ARENA_DS_PLTT && (bank == 5 || bank == 6))
			slot = slot >= 4 ? slot - 2 : slot; /* palette slots 0, 1, 4, 5: OFS 0-3 */
		if ((a->kind == VS_ARENA_DS_TEX && bank < 4) || (a->kind == VS_ARENA_DS_PLTT && bank >= 4 && bank <= 6))
			regs->vramcnt[bank] = (uint8_t)VS_VRAMCNT(3, slot & 3u);
	}
}

int vs_libnds_status(const libnds_gl *g)
{
	switch (g->fail) {
	case LIBNDS_GL_FAIL_BANKS:
	case LIBNDS_GL_FAIL_4COLOUR:
		return VS_ERR_RULE;
	case LIBNDS_GL_FAIL_NAMES:
	case LIBNDS_GL_FAIL_POOL:
		return VS_ERR_MANAGEMENT;
	case LIBNDS_GL_FAIL_ARGS:
		return VS_ERR_INVALID;
	default:
		return VS_ERR_NOSPACE;
	}
}

typedef struct walk_ud {
	const libnds_gl *g;
	int pal;
	vs_extent_fn fn;
	void *ud;
} walk_ud;

/* Bank i of a side: its LCDC range and where its bytes sit in the arena
 * (textures: at libnds's own assumption, bank A-D = slot 0-3, which is what
 * TEXIMAGE_PARAM gets; palettes: E at 0, F and G where OFS puts them, as
 * PLTT_BASE gets). 0 when the bank is not mapped for this use. */
static int bank_span(const libnds_gl *g, int pal, unsigned i, uint32_t *lo, uint32_t *len, uint32_t *at)
{
	uint8_t cr = g->regs.vramcnt[(pal ? 4u : 0u) + i];
	unsigned ofs = (cr >> 3) & 3u;

	if (pal) {
		*lo = i == 0 ? LIBNDS_VRAM_E : LIBNDS_VRAM_F + (i - 1) * 0x4000u;
		*len = i == 0 ? 0x10000u : 0x4000u;
		*at = i == 0 ? 0 : (ofs & 1u) * 0x4000u + (ofs & 2u) * 0x8000u;
	} else {
		*lo = LIBNDS_VRAM_A + i * 0x20000u;
		*len = 0x20000u;
		*at = i * 0x20000u;
	}
	return (cr & 0x83u) == 0x83u;
}

static int walk_one(void *ud, uint32_t addr, uint32_t size, uint32_t handle)
{
	walk_ud *w = ud;
	unsigned i;

	if (handle)
		return 0;
	for (i = 0; i < (w->pal ? 3u : 4u); i++) {
		uint32_t lo, len, at, a, b;
		if (!bank_span(w->g, w->pal, i, &lo, &len, &at))
			continue;
		a = addr > lo ? addr : lo;
		b = addr + size < lo + len ? addr + size : lo + len;
		if (a < b && w->fn(w->ud, at + (a - lo), b - a))
			return 1;
	}
	return 0;
}

void vs_libnds_walk(const libnds_gl *g, int pal, vs_extent_fn fn, void *ud)
{
	walk_ud w = { g, pal, fn, ud };

	libnds_vram_block_walk(pal ? libnds_gl_pal_alloc_c(g) : libnds_gl_tex_alloc_c(g), walk_one, &w);
}

typedef struct dump_ud {
	uint32_t base;
	vs_print_fn print;
	void *ud;
} dump_ud;

static int dump_one(void *ud, uint32_t addr, uint32_t size, uint32_t handle)
{
	dump_ud *d = ud;
	char line[96];

	if (handle)
		snprintf(line, sizeof line, "  0x%05x  0x%05x  used #%u\n", (unsigned)(addr - d->base), (unsigned)size,
			(unsigned)handle);
	else
		snprintf(line, sizeof line, "  0x%05x  0x%05x  free\n", (unsigned)(addr - d->base), (unsigned)size);
	d->print(d->ud, line);
	return 0;
}

void vs_libnds_dump(const libnds_gl *g, const libnds_vram_block *vb, uint32_t base, int pal, vs_print_fn print,
	void *ud)
{
	dump_ud d = { base, print, ud };
	char line[160];
	unsigned i, first = pal ? 4 : 0, n = pal ? 3 : 4;
	int len;

	len = snprintf(line, sizeof line, "libnds videoGL %s allocator (%s%s): VRAMCNT", pal ? "palette" : "texture",
		g->variant == LIBNDS_GL_BLOCKSDS ? "BlocksDS" : "devkitPro", g->fixed ? ", fixed" : "");
	for (i = 0; i < n && len > 0 && (size_t)len < sizeof line; i++)
		len += snprintf(line + len, sizeof line - (size_t)len, " %c=0x%02x%s", 'A' + (int)(first + i),
			g->regs.vramcnt[first + i], (g->regs.lock[pal] >> i) & 1u ? " locked" : "");
	print(ud, line);
	snprintf(line, sizeof line, "\n%u handles, %u freed for reuse%s\n  address  size\n",
		(unsigned)(vb->block_count - 1), (unsigned)vb->dealloc_count,
		vb->first_empty == LIBNDS_VB_NIL ? "; no first free block: every search fails" : "");
	print(ud, line);
	libnds_vram_block_walk(vb, dump_one, &d);
}

/* ---- libnds-tex ----------------------------------------------------- */

static int tex_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err, size_t errlen)
{
	static const char *const known[] = { "variant", "fixed", NULL };
	libnds_vb_regs regs;
	int variant, fixed;

	(void)mem;
	if (vs_libnds_options(options, known, &variant, &fixed, err, errlen))
		return -1;
	vs_libnds_regs(a, &regs);
	libnds_gl_init(st, variant, fixed, TEX_NODES, UNUSED_NODES, &regs);
	return 0;
}

static unsigned size_field(unsigned pixels)
{
	unsigned f;

	for (f = 0; f < 8; f++)
		if (pixels == 8u << f)
			return f;
	return 8;
}

/* Format (TEXIMAGE_PARAM numbering = GL_TEXTURE_TYPE_ENUM) and sizes, or
 * bytes for a plain-byte request (given to the allocator as an 8 bpp
 * texture of that many bytes). */
int vs_libnds_tex_request(const vs_request *rq, unsigned *type, unsigned *sx, unsigned *sy, uint32_t *bytes)
{
	if (rq->align > 8)
		return VS_ERR_UNSUPPORTED; /* libnds aligns textures to 8 bytes, no more */
	*bytes = 0;
	switch (rq->shape) {
	case VS_REQ_TEX:
		if (!rq->u.tex.width)
			return VS_ERR_UNSUPPORTED; /* `tex N 4x4`: glTexImage2D takes one texture's dimensions */
		*type = rq->u.tex.format;
		*sx = size_field(rq->u.tex.width);
		*sy = size_field(rq->u.tex.height);
		return *type >= 1 && *type <= 7 && *sx < 8 && *sy < 8 ? VS_OK : VS_ERR_INVALID;
	case VS_REQ_BYTES:
		*type = LIBNDS_GL_RGB256;
		*bytes = rq->size;
		return rq->size ? VS_OK : VS_ERR_INVALID;
	default:
		return VS_ERR_UNSUPPORTED;
	}
}

static int tex_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	libnds_gl *g = st;
	const libnds_gl_texture *t;
	unsigned type = 0, sx = 0, sy = 0;
	uint32_t bytes;
	int name, rc = vs_libnds_tex_request(rq, &type, &sx, &sy, &bytes), ok;

	if (rc != VS_OK)
		return rc;
	if (rq->has_prev) {
		name = (int)(rq->prev_key >> 16);
		if (!libnds_gl_texture_of(g, name))
			return VS_ERR_INVALID;
	} else if (!libnds_gl_gen_textures(g, 1, &name)) {
		return vs_libnds_status(g);
	}
	libnds_gl_bind_texture(g, name);
	ok = bytes ? libnds_gl_tex_image_bytes(g, type, bytes) : libnds_gl_tex_image_2d(g, type, sx, sy);
	if (!ok) {
		/* The game gives the name back; after a realloc the old block is
		 * gone already (glTexImage2D frees it before it searches). */
		rc = vs_libnds_status(g);
		libnds_gl_delete_textures(g, 1, &name);
		return rc;
	}
	t = libnds_gl_texture_of(g, name);
	vs_placement_simple(out, t->vram_addr - LIBNDS_VRAM_A, t->tex_size, t->tex_index | (uint32_t)name << 16);
	return VS_OK;
}

int vs_libnds_free(void *st, const vs_placement *pl)
{
	int name = (int)(pl->key >> 16);

	if (!libnds_gl_texture_of(st, name))
		return VS_ERR_INVALID;
	libnds_gl_delete_textures(st, 1, &name);
	return VS_OK;
}

void vs_libnds_reset(void *st)
{
	libnds_gl_reset_textures(st);
}

static void tex_walk(void *st, vs_extent_fn fn, void *ud)
{
	vs_libnds_walk(st, 0, fn, ud);
}

static void tex_dump(void *st, vs_print_fn print, void *ud)
{
	vs_libnds_dump(st, libnds_gl_tex_alloc(st), LIBNDS_VRAM_A, 0, print, ud);
}

static uint64_t tex_ram(void *st)
{
	return libnds_gl_ram_tex(st);
}

void vs_libnds_vramcnt(void *st, unsigned bank, uint8_t value)
{
	libnds_gl_vramcnt(st, bank, value);
}

void vs_libnds_lock(void *st, unsigned bank, int locked)
{
	(void)libnds_gl_lock_bank(st, bank, locked);
}

const vs_strategy vs_strat_libnds_tex = {
	.abi = VS_STRATEGY_ABI,
	.name = "libnds-tex",
	.summary = "libnds videoGL glTexImage2D: lowest first fit over 512 KiB of banks A-D, Tex4x4 index in B "
		"(devkitPro or BlocksDS, bug for bug)",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_TEX),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM | VS_STRAT_REALLOC,
	.state_size = LIBNDS_GL_BYTES(TEX_NODES, UNUSED_NODES),
	.init = tex_init,
	.alloc = tex_alloc,
	.free = vs_libnds_free,
	.reset = vs_libnds_reset,
	.walk_free = tex_walk,
	.dump = tex_dump,
	.ram = tex_ram,
	.vramcnt = vs_libnds_vramcnt,
	.lock = vs_libnds_lock
};
