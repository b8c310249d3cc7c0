/* SPDX-License-Identifier: Zlib */
/* strat_libnds_pltt.c - strategy adapter for libnds videoGL's palette
 * allocation (libnds_gl.h). Each request is a texture name of its own
 * (glGenTextures, glBindTexture, glTexParameter giving it a 4-colour or a
 * 256-colour format, no texture VRAM) and glColorTableEXT on it; a free is
 * glDeleteTextures (the last user frees the palette); a realloc is
 * glColorTableEXT again, which frees the old palette before it searches.
 * Options: variant=devkitpro|blocksds, fixed=yes|no. */
#include "strat_libnds.h"
#include "strat_ds.h"
#include "strategies/strategies.h"

#define PAL_NODES LIBNDS_GL_PAL_NODES
#define UNUSED_NODES 2u /* the texture allocator this strategy never uses */

static int pltt_init(void *st, const vs_arena_decl *a, const char *options, uint8_t *mem, char *err,
	size_t errlen)
{
	static const char *const known[] = { "variant", "fixed", NULL };
	libnds_vb_regs regs;
	int variant, fixed;

	(void)mem;
	if (vs_libnds_options(options, known, &variant, &fixed, err, errlen))
		return -1;
	vs_libnds_regs(a, &regs);
	libnds_gl_init(st, variant, fixed, UNUSED_NODES, PAL_NODES, &regs);
	return 0;
}

/* Colours and the 4-colour flag. libnds aligns palettes to 16 bytes (8 for
 * 4-colour ones) and takes a colour count: plain bytes round up to a
 * colour. */
int vs_libnds_pltt_request(const vs_request *rq, uint32_t *width, int *four)
{
	uint32_t bytes;

	switch (rq->shape) {
	case VS_REQ_PLTT:
		bytes = rq->size ? rq->size : (uint32_t)rq->u.pltt.colours * 2u;
		*four = rq->u.pltt.four != 0;
		break;
	case VS_REQ_BYTES:
		bytes = rq->size;
		*four = 0;
		break;
	default:
		return VS_ERR_UNSUPPORTED;
	}
	if (rq->align > (*four ? 8u : 16u))
		return VS_ERR_UNSUPPORTED;
	*width = bytes / 2u + (bytes & 1u);
	return *width ? VS_OK : VS_ERR_INVALID;
}

static uint32_t stand_in_format(int four)
{
	return (uint32_t)(four ? LIBNDS_GL_RGB4 : LIBNDS_GL_RGB256) << 26;
}

/* The texture the palette belongs to: a new name, or the realloc's own
 * (given a new one when it changes between 4 colours and more: the old
 * name comes straight back off the reuse stack). */
static int stand_in(libnds_gl *g, const vs_request *rq, int four, int *name)
{
	const libnds_gl_texture *t;

	if (rq->has_prev) {
		*name = (int)(rq->prev_key >> 16);
		t = libnds_gl_texture_of(g, *name);
		if (!t)
			return VS_ERR_INVALID;
		libnds_gl_bind_texture(g, *name);
		if ((t->tex_format & (7u << 26)) == stand_in_format(four))
			return VS_OK;
		libnds_gl_delete_textures(g, 1, name);
	}
	if (!libnds_gl_gen_textures(g, 1, name))
		return vs_libnds_status(g);
	libnds_gl_bind_texture(g, *name);
	libnds_gl_tex_parameter(g, stand_in_format(four));
	return VS_OK;
}

static int pltt_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	libnds_gl *g = st;
	const libnds_gl_palette *p;
	uint32_t width;
	int four, name, rc = vs_libnds_pltt_request(rq, &width, &four);

	if (rc != VS_OK)
		return rc;
	rc = stand_in(g, rq, four, &name);
	if (rc != VS_OK)
		return rc;
	if (!libnds_gl_color_table(g, width)) {
		rc = vs_libnds_status(g);
		libnds_gl_delete_textures(g, 1, &name);
		return rc;
	}
	p = libnds_gl_palette_of(g, libnds_gl_texture_of(g, name)->pal_index);
	/* where PLTT_BASE points; a palette the allocator refused to take
	 * (handle 0) is placed there all the same, as libnds does */
	vs_placement_simple(out, (uint32_t)p->addr << p->shift, p->pal_size, p->pal_index | (uint32_t)name << 16);
	return VS_OK;
}

static void pltt_walk(void *st, vs_extent_fn fn, void *ud)
{
	vs_libnds_walk(st, 1, fn, ud);
}

static void pltt_dump(void *st, vs_print_fn print, void *ud)
{
	vs_libnds_dump(st, libnds_gl_pal_alloc(st), LIBNDS_VRAM_E, 1, print, ud);
}

static uint64_t pltt_ram(void *st)
{
	return libnds_gl_ram_pal(st);
}

const vs_strategy vs_strat_libnds_pltt = {
	.abi = VS_STRATEGY_ABI,
	.name = "libnds-pltt",
	.summary = "libnds videoGL glColorTableEXT: first fit from bank E over E, F, G, 4-colour palettes below "
		"0x10000 (devkitPro or BlocksDS, bug for bug)",
	.arenas = VS_ARENA_BIT(VS_ARENA_DS_PLTT),
	.flags = VS_STRAT_RELOCATABLE | VS_STRAT_NO_MEM | VS_STRAT_REALLOC,
	.state_size = LIBNDS_GL_BYTES(UNUSED_NODES, PAL_NODES),
	.init = pltt_init,
	.alloc = pltt_alloc,
	.free = vs_libnds_free,
	.reset = vs_libnds_reset,
	.walk_free = pltt_walk,
	.dump = pltt_dump,
	.ram = pltt_ram,
	.vramcnt = vs_libnds_vramcnt,
	.lock = vs_libnds_lock
};
