/* SPDX-License-Identifier: Zlib */
/* libnds_gl.c - libnds videoGL's texture and palette management over its
 * vramBlock allocators (libnds_gl.h). "dkp:N" is a line of devkitPro's
 * source/arm9/videoGL.c at 6194b32, "bds:N" one of BlocksDS's
 * source/arm9/video/videoGL.c at 716fecd. */
#include "vramsim/alloc/libnds_gl.h"

#define MAXT LIBNDS_GL_MAX_TEXTURES
#define BANK_A 0
#define BANK_B 1
#define BANK_C 2
#define BANK_F 5
#define BANK_G 6

/* bits per pixel by format (typeSizes[], dkp:940) */
static const uint8_t type_bpp[9] = { 0, 8, 2, 4, 8, 3, 8, 16, 16 };

static void dyn_touch(uint32_t *cur, uint32_t index)
{
	if (index >= *cur)
		*cur = *cur * 2 > index ? *cur * 2 : index + 1;
}

libnds_vram_block *libnds_gl_tex_alloc(libnds_gl *g)
{
	return (libnds_vram_block *)(void *)g->store;
}

libnds_vram_block *libnds_gl_pal_alloc(libnds_gl *g)
{
	return (libnds_vram_block *)(void *)((unsigned char *)g->store + g->pal_off);
}

const libnds_vram_block *libnds_gl_tex_alloc_c(const libnds_gl *g)
{
	return (const libnds_vram_block *)(const void *)g->store;
}

const libnds_vram_block *libnds_gl_pal_alloc_c(const libnds_gl *g)
{
	return (const libnds_vram_block *)(const void *)((const unsigned char *)g->store + g->pal_off);
}

static void clear_records(libnds_gl *g)
{
	uint32_t i;

	for (i = 0; i < MAXT; i++) {
		libnds_gl_texture *t = &g->tex[i];
		libnds_gl_palette *p = &g->pal[i];
		t->vram_addr = t->tex_format = t->tex_size = 0;
		t->tex_index = t->tex_index_ext = t->pal_index = 0;
		t->live = t->pad = 0;
		p->vram_addr = p->connect = 0;
		p->pal_index = p->addr = p->pal_size = 0;
		p->shift = p->live = 0;
	}
	g->tex_records = g->pal_records = 0;
}

static void reset_names(libnds_gl *g)
{
	g->active_texture = g->active_palette = 0;
	g->tex_count = g->pal_count = 1;
	g->dealloc_tex_size = g->dealloc_pal_size = 0;
}

void libnds_gl_init(libnds_gl *g, int variant, int fixed, uint16_t tex_nodes, uint16_t pal_nodes,
	const libnds_vb_regs *regs)
{
	g->variant = variant == LIBNDS_GL_BLOCKSDS ? LIBNDS_GL_BLOCKSDS : LIBNDS_GL_DEVKITPRO;
	g->fixed = fixed ? 1 : 0;
	g->fail = LIBNDS_GL_FAIL_NONE;
	g->pad = 0;
	g->regs = *regs;
	g->regs.lock[0] = g->regs.lock[1] = 0;
	reset_names(g);
	g->gfx_tex_format = g->gfx_pal_format = 0;
	g->tex_ptrs_cur = g->pal_ptrs_cur = g->dealloc_tex_cur = g->dealloc_pal_cur = 16;
	clear_records(g);
	g->pal_off = (uint32_t)LIBNDS_GL_ROUND8(LIBNDS_VRAM_BLOCK_BYTES(tex_nodes));
	g->pad2 = 0;
	/* vramBlock_Construct((u8*)VRAM_A, (u8*)VRAM_E) and (VRAM_E, VRAM_H): dkp:464-465 */
	libnds_vram_block_init(libnds_gl_tex_alloc(g), tex_nodes, LIBNDS_VRAM_A, LIBNDS_VRAM_E, fixed);
	libnds_vram_block_init(libnds_gl_pal_alloc(g), pal_nodes, LIBNDS_VRAM_E, LIBNDS_VRAM_H, fixed);
}

void libnds_gl_vramcnt(libnds_gl *g, unsigned bank, uint8_t value)
{
	if (bank < 9)
		g->regs.vramcnt[bank] = value;
}

int libnds_gl_lock_bank(libnds_gl *g, unsigned bank, int locked)
{
	unsigned side = bank >= 4, bit = side ? bank - 4 : bank;

	if (bank > 6)
		return 0; /* vramGetBank gives H or I: refused (dkp:650) */
	if (locked)
		g->regs.lock[side] = (uint8_t)(g->regs.lock[side] | (1u << bit));
	else
		g->regs.lock[side] = (uint8_t)(g->regs.lock[side] & ~(1u << bit));
	return 1;
}

static libnds_gl_texture *texture(libnds_gl *g, int name)
{
	if (name < 0 || (uint32_t)name >= MAXT || !g->tex[name].live)
		return 0;
	return &g->tex[name];
}

const libnds_gl_texture *libnds_gl_texture_of(const libnds_gl *g, int name)
{
	if (name < 0 || (uint32_t)name >= MAXT || !g->tex[name].live)
		return 0;
	return &g->tex[name];
}

const libnds_gl_palette *libnds_gl_palette_of(const libnds_gl *g, uint32_t pal_name)
{
	if (pal_name >= MAXT || !g->pal[pal_name].live)
		return 0;
	return &g->pal[pal_name];
}

/* ---- names ---------------------------------------------------------- */

int libnds_gl_gen_textures(libnds_gl *g, int n, int *names)
{
	int i;

	g->fail = LIBNDS_GL_FAIL_NONE;
	/* (texCount - deallocTexSize) + n >= MAX_TEXTURES, in u32 (dkp:560, bds:1262) */
	if (n < 0 || (uint32_t)(g->tex_count - g->dealloc_tex_size) + (uint32_t)n >= MAXT) {
		g->fail = LIBNDS_GL_FAIL_NAMES;
		return 0;
	}
	for (i = 0; i < n; i++) {
		uint32_t name = g->dealloc_tex_size ? g->dealloc_tex[g->dealloc_tex_size--] : g->tex_count++;
		libnds_gl_texture *t = &g->tex[name];
		/* A name handed out twice (deleted twice) overwrites its record:
		 * the old one and its VRAM blocks leak. */
		t->vram_addr = t->tex_format = t->tex_size = 0;
		t->tex_index = t->tex_index_ext = t->pal_index = 0;
		t->live = 1;
		g->tex_records++;
		dyn_touch(&g->tex_ptrs_cur, name);
		names[i] = (int)name;
	}
	return 1;
}

static void push_pal_name(libnds_gl *g, uint32_t name)
{
	if (g->dealloc_pal_size >= MAXT)
		return; /* cannot happen: a name is pushed once per palette freed */
	g->dealloc_pal[++g->dealloc_pal_size] = (uint16_t)name;
	dyn_touch(&g->dealloc_pal_cur, g->variant == LIBNDS_GL_BLOCKSDS ? g->dealloc_pal_size - 1 : g->dealloc_pal_size);
}

/* removePaletteFromTexture (dkp:531, bds:1184): the last user frees the
 * palette's block and its name. */
static void remove_palette(libnds_gl *g, libnds_gl_texture *t)
{
	uint32_t name = t->pal_index;
	libnds_gl_palette *p;

	if (name >= MAXT || !g->pal[name].live) {
		t->pal_index = 0; /* libnds reads through a NULL palette here */
		return;
	}
	p = &g->pal[name];
	if (!p->connect)
		return;
	if (--p->connect == 0) {
		push_pal_name(g, name);
		libnds_vram_block_deallocate(libnds_gl_pal_alloc(g), p->pal_index);
		p->live = 0;
		g->pal_records--;
		dyn_touch(&g->pal_ptrs_cur, name);
		if (g->active_palette == name)
			g->gfx_pal_format = g->active_palette = 0;
	}
	t->pal_index = 0;
}

int libnds_gl_delete_textures(libnds_gl *g, int n, int *names)
{
	int i;

	g->fail = LIBNDS_GL_FAIL_NONE;
	for (i = 0; i < n; i++) {
		int name = names[i];
		libnds_gl_texture *t;
		if (name == 0)
			continue;
		/* devkitPro refuses these (dkp:590); BlocksDS only asserts, and
		 * the model's stack stops where devkitPro's does */
		if (name < 0 || (uint32_t)name >= MAXT || g->dealloc_tex_size >= MAXT) {
			g->fail = g->variant == LIBNDS_GL_DEVKITPRO ? LIBNDS_GL_FAIL_NAMES : LIBNDS_GL_FAIL_POOL;
			return 0;
		}
		t = texture(g, name);
		/* The name goes back for reuse whether or not it had a texture:
		 * deleted twice, it is handed out twice (dkp:592). */
		if (t || !g->fixed) {
			g->dealloc_tex[++g->dealloc_tex_size] = (uint16_t)name;
			dyn_touch(&g->dealloc_tex_cur,
				g->variant == LIBNDS_GL_BLOCKSDS ? g->dealloc_tex_size - 1 : g->dealloc_tex_size);
		}
		if (t) {
			libnds_vram_block *vb = libnds_gl_tex_alloc(g);
			/* the index block is freed only with its texel block (dkp:596) */
			if (t->tex_index) {
				if (t->tex_index_ext)
					libnds_vram_block_deallocate(vb, t->tex_index_ext);
				libnds_vram_block_deallocate(vb, t->tex_index);
			}
			if (t->pal_index)
				remove_palette(g, t);
			t->live = 0;
			g->tex_records--;
		}
		if (t || g->variant == LIBNDS_GL_DEVKITPRO)
			dyn_touch(&g->tex_ptrs_cur, (uint32_t)name);
		if (g->active_texture == (uint32_t)name) {
			g->gfx_tex_format = 0;
			g->active_texture = 0;
		}
		names[i] = 0;
	}
	return 1;
}

void libnds_gl_bind_texture(libnds_gl *g, int name)
{
	libnds_gl_texture *t;

	if (name >= 0 && g->active_texture == (uint32_t)name)
		return;
	t = texture(g, name);
	if (!t) {
		g->gfx_tex_format = g->gfx_pal_format = g->active_palette = g->active_texture = 0;
		return;
	}
	g->gfx_tex_format = t->tex_format;
	g->active_texture = (uint32_t)name;
	if (t->pal_index && t->pal_index < MAXT) {
		g->gfx_pal_format = g->pal[t->pal_index].addr;
		g->active_palette = t->pal_index;
	} else {
		g->gfx_pal_format = g->active_palette = 0;
	}
}

void libnds_gl_tex_parameter(libnds_gl *g, uint32_t param)
{
	libnds_gl_texture *t = g->active_texture ? &g->tex[g->active_texture] : 0;

	if (!t) {
		g->gfx_tex_format = 0;
		return;
	}
	g->gfx_tex_format = t->tex_format = (t->tex_format & 0x1FF0FFFFu) | param;
}

/* ---- textures ------------------------------------------------------- */

static int in_bank_b(uint32_t a)
{
	return a >= LIBNDS_VRAM_B && a < LIBNDS_VRAM_C;
}

/* What each version checks before a Tex4x4 search (dkp:995, bds:1884-1894). */
static int tex4x4_banks_ok(const libnds_gl *g, uint32_t size)
{
	const uint8_t *cr = g->regs.vramcnt;

	if (g->variant == LIBNDS_GL_DEVKITPRO)
		return (cr[BANK_B] & 0x83u) == 0x83u;
	if (size > 128u * 1024u)
		return 0;
	if (cr[BANK_B] != (0x80u | 3u | (1u << 3)))  /* VRAM_ENABLE | VRAM_B_TEXTURE_SLOT1 */
		return 0;
	return cr[BANK_A] == (0x80u | 3u) || cr[BANK_C] == (0x80u | 3u | (2u << 3));
}

/* Both parts found: the texel block at ac, then the index block examined
 * again at bf (dkp:1025-1026). */
static void tex4x4_take(libnds_gl *g, libnds_gl_texture *t, uint32_t ac, uint32_t bf, uint32_t size)
{
	libnds_vram_block *vb = libnds_gl_tex_alloc(g);
	uint32_t bs = size >> 1;

	t->tex_index = (uint16_t)libnds_vram_block_allocate_special(vb, ac, size);
	t->tex_index_ext = (uint16_t)libnds_vram_block_allocate_special(vb,
		libnds_vram_block_examine(vb, &g->regs, bf, bs, 2), bs);
}

/* The search as libnds runs it (dkp:1003-1029, bds:1906-1970): the index
 * part in B at 4-byte alignment, its texel partner in A (lower half of B)
 * or C (upper half) at twice the offset; on a miss the B search start moves
 * on by half the distance the texel search was carried. */
static void tex4x4_real(libnds_gl *g, libnds_gl_texture *t, uint32_t size)
{
	libnds_vram_block *vb = libnds_gl_tex_alloc(g);
	uint32_t bs = size >> 1, b_addr = LIBNDS_VRAM_B;

	for (;;) {
		uint32_t bf = libnds_vram_block_examine(vb, &g->regs, b_addr, bs, 2), off, ac, acf;
		/* (u16*)(bf + bs) - 1: the last halfword */
		if (!in_bank_b(bf) || !in_bank_b(bf + bs - 2))
			return;
		off = bf - LIBNDS_VRAM_B;
		if (off < 0x10000u && off + bs > 0x10000u) {
			b_addr = LIBNDS_VRAM_B + 0x10000u;
			continue;
		}
		ac = (off >= 0x10000u ? LIBNDS_VRAM_C : LIBNDS_VRAM_A) + ((off & 0xFFFFu) << 1);
		acf = libnds_vram_block_examine(vb, &g->regs, ac, size, 3);
		if (acf == ac) {
			tex4x4_take(g, t, ac, bf, size);
			return;
		}
		/* BlocksDS 06d0e5c2: a texel search from A that lands in B
		 * restarts from the upper half (bds:1961) */
		if (g->variant == LIBNDS_GL_BLOCKSDS && in_bank_b(acf)) {
			b_addr = LIBNDS_VRAM_B + 0x10000u;
			continue;
		}
		/* from the start of the search, not from bf; acf 0 (nothing
		 * found) sends b_addr far past VRAM and the next search fails */
		b_addr += (acf - ac) >> 1;
	}
}

/* fixed: each half of B with its own partner bank; a miss moves on from
 * the index spot found, and a texel search carried out of the partner
 * bank ends that half. */
static void tex4x4_fixed(libnds_gl *g, libnds_gl_texture *t, uint32_t size)
{
	libnds_vram_block *vb = libnds_gl_tex_alloc(g);
	uint32_t bs = size >> 1, half;

	for (half = 0; half < 2; half++) {
		uint32_t lo = LIBNDS_VRAM_B + half * 0x10000u, hi = lo + 0x10000u;
		uint32_t partner = half ? LIBNDS_VRAM_C : LIBNDS_VRAM_A, p = lo;
		while (p + bs <= hi) {
			uint32_t bf = libnds_vram_block_examine(vb, &g->regs, p, bs, 2), ac, acf;
			if (!bf || bf + bs > hi)
				break;
			ac = partner + ((bf - lo) << 1);
			acf = libnds_vram_block_examine(vb, &g->regs, ac, size, 3);
			if (acf == ac) {
				tex4x4_take(g, t, ac, bf, size);
				return;
			}
			if (!acf || acf >= partner + 0x20000u)
				break;
			p = bf + ((acf - ac) >> 1);
		}
	}
}

static uint32_t tex_size_of(unsigned type, unsigned sx, unsigned sy)
{
	uint32_t size = 1u << (sx + sy + 6);

	switch (type) {
	case LIBNDS_GL_RGB:
	case LIBNDS_GL_RGBA:
		return size << 1;
	case LIBNDS_GL_RGB4:
	case LIBNDS_GL_COMPRESSED:
		return size >> 2;
	case LIBNDS_GL_RGB16:
		return size >> 1;
	default:
		return size;
	}
}

static int space_fail(libnds_gl *g)
{
	g->fail = libnds_gl_tex_alloc(g)->fail == LIBNDS_VB_FAIL_POOL ? LIBNDS_GL_FAIL_POOL : LIBNDS_GL_FAIL_SPACE;
	return 0;
}

/* glTexImage2D (dkp:937) / glTexImageNtr2D (bds:1784) without the copy. */
static int tex_image(libnds_gl *g, unsigned type, unsigned sx, unsigned sy, uint32_t size)
{
	libnds_gl_texture *t;
	uint32_t fmt = type == LIBNDS_GL_RGB ? LIBNDS_GL_RGBA : type;

	g->fail = LIBNDS_GL_FAIL_ARGS;
	/* devkitPro indexes typeSizes[] out of bounds past GL_RGB; BlocksDS
	 * refuses (bds:1799); so does the model */
	if (!g->active_texture || type > LIBNDS_GL_RGB || !size)
		return 0;
	g->fail = LIBNDS_GL_FAIL_NONE;
	if (type == LIBNDS_GL_NOTEXTURE)
		size = 0;
	t = &g->tex[g->active_texture];
	/* same size and bits per pixel: the block is kept and re-used */
	if (t->tex_size != size || type_bpp[(t->tex_format >> 26) & 7u] != type_bpp[type]) {
		libnds_vram_block *vb = libnds_gl_tex_alloc(g);
		if (t->tex_index_ext)
			libnds_vram_block_deallocate(vb, t->tex_index_ext);
		if (t->tex_index)
			libnds_vram_block_deallocate(vb, t->tex_index);
		t->tex_index = t->tex_index_ext = 0;
		t->vram_addr = 0;
	}
	/* set before the allocation: a failed upload leaves it (dkp:982) */
	t->tex_size = size;
	if (t->tex_index) {
		t->tex_format = (sx << 20) | (sy << 23) | (fmt << 26) | (t->tex_format & 0xFFFFu);
	} else {
		if (type == LIBNDS_GL_NOTEXTURE && g->variant == LIBNDS_GL_BLOCKSDS) {
			t->vram_addr = 0; /* "only deallocate" (bds:1864-1870) */
			t->tex_format = 0;
			return 1;
		}
		if (type == LIBNDS_GL_COMPRESSED) {
			/* refused before texFormat is touched: it keeps the old
			 * texture's address (dkp:995-996) */
			if (!tex4x4_banks_ok(g, size)) {
				g->fail = LIBNDS_GL_FAIL_BANKS;
				return 0;
			}
			if (g->fixed)
				tex4x4_fixed(g, t, size);
			else
				tex4x4_real(g, t, size);
		} else if (type != LIBNDS_GL_NOTEXTURE) {
			t->tex_index = (uint16_t)libnds_vram_block_allocate(libnds_gl_tex_alloc(g), &g->regs, size, 3);
		}
		if (!t->tex_index) {
			/* an index block already taken stays with the texture (dkp:1036) */
			t->vram_addr = 0;
			t->tex_format = 0;
			return type == LIBNDS_GL_NOTEXTURE ? 0 : space_fail(g);
		}
		t->vram_addr = libnds_vram_block_addr(libnds_gl_tex_alloc(g), t->tex_index);
		t->tex_format = (sx << 20) | (sy << 23) | (fmt << 26) | ((t->vram_addr >> 3) & 0xFFFFu);
	}
	libnds_gl_tex_parameter(g, 0);
	return 1;
}

int libnds_gl_tex_image_2d(libnds_gl *g, unsigned type, unsigned size_x, unsigned size_y)
{
	if (size_x > 7 || size_y > 7 || type > LIBNDS_GL_RGB) {
		g->fail = LIBNDS_GL_FAIL_ARGS;
		return 0;
	}
	return tex_image(g, type, size_x, size_y, tex_size_of(type, size_x, size_y));
}

int libnds_gl_tex_image_bytes(libnds_gl *g, unsigned type, uint32_t bytes)
{
	return tex_image(g, type, 0, 0, bytes);
}

/* ---- palettes ------------------------------------------------------- */

/* PLTT_BASE of a palette block at LCDC address at: its offset in its bank,
 * plus where F or G's OFS puts that bank (slots 0, 1, 4, 5), in units of
 * 1 << shift (dkp:754-764). */
static uint32_t pltt_base(const libnds_gl *g, uint32_t at, unsigned shift)
{
	uint32_t base = LIBNDS_VRAM_E, ofs = 0, addr;

	if (at >= LIBNDS_VRAM_G && at < LIBNDS_VRAM_H) {
		base = LIBNDS_VRAM_G;
		ofs = (g->regs.vramcnt[BANK_G] >> 3) & 3u;
	} else if (at >= LIBNDS_VRAM_F && at < LIBNDS_VRAM_G) {
		base = LIBNDS_VRAM_F;
		ofs = (g->regs.vramcnt[BANK_F] >> 3) & 3u;
	}
	addr = at - base + (ofs & 1u) * 0x4000u + (ofs & 2u) * 0x8000u;
	return addr >> shift;
}

/* fixed: a 4-colour palette whose first fit is past 0x10000 looks on in
 * the next bank, which F or G's offset may put lower. */
static uint32_t pltt_examine(libnds_gl *g, uint32_t bytes, unsigned shift, uint32_t *addr)
{
	libnds_vram_block *vb = libnds_gl_pal_alloc(g);
	uint32_t from = LIBNDS_VRAM_E, at;

	for (;;) {
		at = libnds_vram_block_examine(vb, &g->regs, from, bytes, shift);
		if (!at)
			return 0;
		*addr = pltt_base(g, at, shift);
		if (!g->fixed || shift != 3 || *addr < 0x2000u || at >= LIBNDS_VRAM_G)
			return at;
		from = at < LIBNDS_VRAM_F ? LIBNDS_VRAM_F : LIBNDS_VRAM_G;
	}
}

int libnds_gl_color_table(libnds_gl *g, uint32_t width)
{
	libnds_gl_texture *t;
	libnds_vram_block *vb = libnds_gl_pal_alloc(g);
	uint32_t fmt, shift, at, addr = 0, handle, name;

	g->fail = LIBNDS_GL_FAIL_ARGS;
	if (!g->active_texture)
		return 0;
	g->fail = LIBNDS_GL_FAIL_NONE;
	if (g->variant == LIBNDS_GL_DEVKITPRO)
		width = (uint16_t)width; /* u16 width (dkp:734) */
	t = &g->tex[g->active_texture];
	if (t->pal_index)
		remove_palette(g, t);
	if (!width)
		return 1;
	/* 8-byte units for a 4-colour texture, or an untyped one of up to
	 * four colours; 16 otherwise (dkp:749) */
	fmt = (t->tex_format >> 26) & 7u;
	shift = fmt == LIBNDS_GL_RGB4 || (fmt == LIBNDS_GL_NOTEXTURE && width <= 4) ? 3 : 4;
	at = pltt_examine(g, width << 1, shift, &addr);
	if (!at) {
		g->gfx_pal_format = g->active_palette = t->pal_index; /* 0 by now */
		g->fail = vb->fail == LIBNDS_VB_FAIL_POOL ? LIBNDS_GL_FAIL_POOL : LIBNDS_GL_FAIL_SPACE;
		return 0;
	}
	/* checked after the search, on the start only (dkp:765) */
	if (shift == 3 && addr >= 0x2000u) {
		g->gfx_pal_format = g->active_palette = 0;
		g->fail = LIBNDS_GL_FAIL_4COLOUR;
		return 0;
	}
	if (!g->dealloc_pal_size && g->pal_count >= MAXT) {
		g->fail = LIBNDS_GL_FAIL_POOL; /* more palettes than textures: cannot happen */
		return 0;
	}
	handle = libnds_vram_block_allocate_special(vb, at, width << 1);
	/* A refusal leaves handle 0 and the palette is set up anyway, at a
	 * place the allocator does not count as taken (dkp:772). The model
	 * only refuses for its own pool. */
	if (!handle && (vb->fail == LIBNDS_VB_FAIL_POOL || g->fixed)) {
		g->fail = LIBNDS_GL_FAIL_POOL;
		return 0;
	}
	name = g->dealloc_pal_size ? g->dealloc_pal[g->dealloc_pal_size--] : g->pal_count++;
	g->pal[name].vram_addr = at;
	g->pal[name].connect = 1;
	g->pal[name].pal_index = (uint16_t)handle;
	g->pal[name].addr = (uint16_t)addr;
	g->pal[name].pal_size = (uint16_t)(width << 1);
	g->pal[name].shift = (uint8_t)shift;
	g->pal[name].live = 1;
	g->pal_records++;
	dyn_touch(&g->pal_ptrs_cur, name);
	t->pal_index = (uint16_t)name;
	g->gfx_pal_format = addr;
	g->active_palette = name;
	return 1;
}

int libnds_gl_assign_color_table(libnds_gl *g, int name)
{
	libnds_gl_texture *t, *from;

	if (!g->active_texture || (name >= 0 && g->active_texture == (uint32_t)name))
		return 0;
	t = &g->tex[g->active_texture];
	from = texture(g, name);
	if (t->pal_index)
		remove_palette(g, t);
	if (from && from->pal_index && from->pal_index < MAXT && g->pal[from->pal_index].live) {
		t->pal_index = from->pal_index;
		g->pal[t->pal_index].connect++;
		g->gfx_pal_format = g->pal[t->pal_index].addr;
		g->active_palette = t->pal_index;
		return 1;
	}
	g->gfx_pal_format = g->active_palette = t->pal_index = 0;
	return 0;
}

/* glResetTextures (dkp:496, bds:1118): every name and record gone, both
 * allocators empty; locks and bank registers untouched. */
void libnds_gl_reset_textures(libnds_gl *g)
{
	reset_names(g);
	clear_records(g);
	/* BlocksDS shrinks its arrays back to 16 entries (bds:1152) */
	if (g->variant == LIBNDS_GL_BLOCKSDS)
		g->tex_ptrs_cur = g->pal_ptrs_cur = g->dealloc_tex_cur = g->dealloc_pal_cur = 16;
	libnds_vram_block_deallocate_all(libnds_gl_tex_alloc(g));
	libnds_vram_block_deallocate_all(libnds_gl_pal_alloc(g));
}

static uint32_t names_ram(const libnds_gl *g)
{
	return 4u * (g->tex_ptrs_cur + g->dealloc_tex_cur) + LIBNDS_GL_ARM_TEXTURE * g->tex_records;
}

uint32_t libnds_gl_ram_tex(const libnds_gl *g)
{
	return libnds_vram_block_ram(libnds_gl_tex_alloc_c(g)) + names_ram(g);
}

uint32_t libnds_gl_ram_pal(const libnds_gl *g)
{
	return libnds_vram_block_ram(libnds_gl_pal_alloc_c(g)) + names_ram(g) +
		4u * (g->pal_ptrs_cur + g->dealloc_pal_cur) + LIBNDS_GL_ARM_PALETTE * g->pal_records;
}
