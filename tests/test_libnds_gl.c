/* SPDX-License-Identifier: Zlib */
/* test_libnds_gl.c - libnds videoGL's texture and palette management
 * (libnds_gl.h) and the libnds-tex and libnds-pltt strategies against
 * docs/ds-homebrew.md (the block allocator underneath:
 * test_libnds_vram_block.c).
 *
 * Hand-made sequences give the exact LCDC addresses libnds gives, for each
 * rule and each defect, in both versions and with fixed=yes. Random
 * sequences compare every call, every texture and palette record and both
 * allocators' whole state after it with a reference videoGL written here on
 * the reference block allocator of libnds_ref.h; it shares no code with
 * src/alloc. The strategies are driven through their tables and a replay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libnds_ref.h"
#include "strategies/registry.h"
#include "vram/arena.h"

static uint64_t gl_buf[LIBNDS_GL_BYTES(LIBNDS_GL_TEX_NODES, LIBNDS_GL_PAL_NODES) / 8 + 1];


static libnds_gl *gl_new(int variant, int fixed)
{
	libnds_gl *g = (libnds_gl *)(void *)gl_buf;
	libnds_vb_regs r = default_regs();

	memset(gl_buf, 0xA5, sizeof gl_buf);
	libnds_gl_init(g, variant, fixed, LIBNDS_GL_TEX_NODES, LIBNDS_GL_PAL_NODES, &r);
	return g;
}

/* ---- videoGL, by hand --------------------------------------------------- */

static int new_texture(libnds_gl *g)
{
	int name = 0;

	ck_assert_int_eq(libnds_gl_gen_textures(g, 1, &name), 1);
	libnds_gl_bind_texture(g, name);
	return name;
}

static uint32_t tex_addr(const libnds_gl *g, int name)
{
	return libnds_gl_texture_of(g, name)->vram_addr;
}

static uint32_t ext_addr(libnds_gl *g, int name)
{
	return libnds_vram_block_addr(libnds_gl_tex_alloc(g), libnds_gl_texture_of(g, name)->tex_index_ext);
}

/* Byte sizes per format, 8-byte alignment, texFormat; a Tex4x4 texture's
 * index part in B at half its texel part's offset in A. */
START_TEST(gl_tex_sizes)
{
	libnds_gl *g = gl_new(LIBNDS_GL_DEVKITPRO, 0);
	static const struct { unsigned type, sx, sy; uint32_t bytes, at; } cases[] = {
		{ LIBNDS_GL_RGB4, 0, 0, 16, A }, { LIBNDS_GL_RGB16, 0, 0, 32, A + 0x10 },
		{ LIBNDS_GL_RGB256, 0, 0, 64, A + 0x30 }, { LIBNDS_GL_RGB32_A3, 1, 0, 128, A + 0x70 },
		{ LIBNDS_GL_RGB8_A5, 0, 1, 128, A + 0xF0 }, { LIBNDS_GL_RGBA, 0, 0, 128, A + 0x170 },
		{ LIBNDS_GL_RGB, 1, 1, 512, A + 0x1F0 },
		/* index from B + 0: its partner A + 0 is taken, the texel search
		 * answers A + 0x3F0, so B moves on by 0x1F8 */
		{ LIBNDS_GL_COMPRESSED, 1, 0, 32, A + 0x3F0 },
		/* 128 KiB from A + 0x410 would run into the index part at B + 0x1F8 */
		{ LIBNDS_GL_RGBA, 5, 5, 0x20000, B + 0x208 }
	};
	uint32_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int name = new_texture(g);
		const libnds_gl_texture *t;
		unsigned f = cases[i].type == LIBNDS_GL_RGB ? 7u : cases[i].type;
		ck_assert_int_eq(libnds_gl_tex_image_2d(g, cases[i].type, cases[i].sx, cases[i].sy), 1);
		t = libnds_gl_texture_of(g, name);
		ck_assert_uint_eq(t->tex_size, cases[i].bytes);
		ck_assert_uint_eq(t->vram_addr, cases[i].at);
		ck_assert_uint_eq(t->tex_format, (cases[i].sx << 20) | (cases[i].sy << 23) | (f << 26) |
			((cases[i].at - A) >> 3));
		ck_assert_uint_eq(g->gfx_tex_format, t->tex_format);
		if (cases[i].type == LIBNDS_GL_COMPRESSED)
			ck_assert_uint_eq(ext_addr(g, name), B + (cases[i].at - A) / 2);
		else
			ck_assert_uint_eq(t->tex_index_ext, 0);
	}
	/* 1024x1024 RGBA is 2 MiB: no room */
	new_texture(g);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGBA, 7, 7), 0);
	ck_assert_uint_eq(g->fail, LIBNDS_GL_FAIL_SPACE);
	ck_assert_uint_eq(libnds_gl_texture_of(g, 10)->tex_format, 0);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, 9, 0, 0), 0);
	ck_assert_uint_eq(g->fail, LIBNDS_GL_FAIL_ARGS);
	libnds_gl_bind_texture(g, 0);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGB4, 0, 0), 0); /* nothing bound */
}
END_TEST

/* glTexImage2D again on a bound texture: same size and bits per pixel keeps
 * the block; anything else frees it first, then searches. */
START_TEST(gl_reupload)
{
	libnds_gl *g = gl_new(LIBNDS_GL_DEVKITPRO, 0);
	int t1 = new_texture(g), t2;
	uint16_t h;

	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGB256, 1, 2), 1); /* 16x32: 512 bytes */
	h = libnds_gl_texture_of(g, t1)->tex_index;
	t2 = new_texture(g);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGB16, 0, 0), 1);
	ck_assert_uint_eq(tex_addr(g, t2), A + 0x200);
	libnds_gl_bind_texture(g, t1);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGB32_A3, 2, 1), 1); /* 32x16, 8 bpp: kept */
	ck_assert_uint_eq(libnds_gl_texture_of(g, t1)->tex_index, h);
	ck_assert_uint_eq(libnds_gl_texture_of(g, t1)->tex_format, (2u << 20) | (1u << 23) | (1u << 26));
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGBA, 1, 1), 1); /* 16x16 16 bpp: 512, but 16 bpp */
	ck_assert_uint_eq(tex_addr(g, t1), A); /* freed, then the lowest fit is the same place */
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGB, 1, 1), 1); /* GL_RGB is stored as GL_RGBA: kept */
	ck_assert_uint_eq((libnds_gl_texture_of(g, t1)->tex_format >> 26) & 7u, 7);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGBA, 2, 1), 1); /* 1 KiB: freed, moved */
	ck_assert_uint_eq(tex_addr(g, t1), A + 0x220);
	/* a texture of the same size and a different depth: 2 bpp vs Tex4x4's 3 */
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGB4, 3, 3), 1);  /* 64x64: 1 KiB */
	ck_assert_uint_eq(tex_addr(g, t1), A + 0x220);
	/* freed; index B + 0 has its partner A + 0 only 0x200 free: the texel
	 * search answers A + 0x220, B moves on by 0x110, whose partner fits */
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 3, 3), 1);
	ck_assert_uint_eq(tex_addr(g, t1), A + 0x220);
	ck_assert_uint_eq(ext_addr(g, t1), B + 0x110);
	h = libnds_gl_texture_of(g, t1)->tex_index_ext;
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 4, 2), 1); /* same size: both kept */
	ck_assert_uint_eq(libnds_gl_texture_of(g, t1)->tex_index_ext, h);
	ck_assert_uint_eq(tex_addr(g, t1), A + 0x220);
}
END_TEST

/* The Tex4x4 search: the index part crossing the middle of B restarts at
 * B + 0x10000, whose partner is C; the "advance B by half the miss" loop. */
START_TEST(gl_tex4x4_search)
{
	libnds_gl *g = gl_new(LIBNDS_GL_DEVKITPRO, 0);
	int t;

	new_texture(g);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGBA, 5, 5), 1);     /* A, all of it */
	new_texture(g);
	ck_assert_int_eq(libnds_gl_tex_image_bytes(g, LIBNDS_GL_RGB256, 0xFF00), 1); /* B + 0..0xFF00 */
	ck_assert_uint_eq(tex_addr(g, 2), B);
	t = new_texture(g);
	/* 64x64: texel 0x400, index 0x200 from B + 0xFF00 would cross the middle */
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 3, 3), 1);
	ck_assert_uint_eq(ext_addr(g, t), B + 0x10000);
	ck_assert_uint_eq(tex_addr(g, t), C);
	/* an 8x8 one: index from B + 0xFF00 (fits below the middle), partner
	 * A + 0x1FE00 taken, the texel search answers B + 0xFF00 itself: B's
	 * search start moves by (0x20000 + 0xFF00 - 0x1FE00) / 2 = 0x8080, twice,
	 * to B + 0x10100, which gives the index B + 0x10200 and texel C + 0x400 */
	t = new_texture(g);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 0, 0), 1);
	ck_assert_uint_eq(ext_addr(g, t), B + 0x10200);
	ck_assert_uint_eq(tex_addr(g, t), C + 0x400);
}
END_TEST

/* Tex4x4 with bank A not mapped for textures. devkitPro: the texel search
 * from A lands in B, and B's start moves on by half that distance, past the
 * spots of B's upper half whose partners in C are free. BlocksDS (06d0e5c2)
 * restarts from B + 0x10000; fixed gives up the lower half. */
START_TEST(gl_tex4x4_a_unmapped)
{
	static const struct { int variant, fixed; uint32_t index, texel; } cases[] = {
		{ LIBNDS_GL_DEVKITPRO, 0, B + 0x14000, C + 0x8000 },
		{ LIBNDS_GL_BLOCKSDS, 0, B + 0x10000, C },
		{ LIBNDS_GL_DEVKITPRO, 1, B + 0x10000, C },
		{ LIBNDS_GL_BLOCKSDS, 1, B + 0x10000, C }
	};
	unsigned i;

	for (i = 0; i < 4; i++) {
		libnds_gl *g = gl_new(cases[i].variant, cases[i].fixed);
		int t;
		libnds_gl_vramcnt(g, 0, 0x00);
		new_texture(g);
		ck_assert_int_eq(libnds_gl_tex_image_bytes(g, LIBNDS_GL_RGB256, 0x8000), 1);
		ck_assert_uint_eq(tex_addr(g, 1), B); /* A is stepped over */
		t = new_texture(g);
		ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 3, 3), 1);
		ck_assert_uint_eq(ext_addr(g, t), cases[i].index);
		ck_assert_uint_eq(tex_addr(g, t), cases[i].texel);
		check_links(libnds_gl_tex_alloc(g));
	}
}
END_TEST

/* What each version asks of the bank registers before a Tex4x4 search. */
START_TEST(gl_tex4x4_preconditions)
{
	libnds_gl *g = gl_new(LIBNDS_GL_DEVKITPRO, 0);
	int t = new_texture(g);

	libnds_gl_vramcnt(g, 1, 0x81); /* B for the main engine's BG */
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 0, 0), 0);
	ck_assert_uint_eq(g->fail, LIBNDS_GL_FAIL_BANKS);
	/* devkitPro: B at slot 3 passes (only MST is checked), and the index
	 * part goes into B, which the hardware does not read as slot 1 */
	libnds_gl_vramcnt(g, 1, TEXMODE(3));
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 0, 0), 1);
	ck_assert_uint_eq(ext_addr(g, t), B);
	/* 1024x1024: 256 KiB of texels; the index part cannot fit in B */
	t = new_texture(g);
	libnds_gl_vramcnt(g, 1, TEXMODE(1));
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 7, 7), 0);
	ck_assert_uint_eq(g->fail, LIBNDS_GL_FAIL_SPACE);

	g = gl_new(LIBNDS_GL_BLOCKSDS, 0);
	t = new_texture(g);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 7, 7), 0); /* over 128 KiB */
	ck_assert_uint_eq(g->fail, LIBNDS_GL_FAIL_BANKS);
	libnds_gl_vramcnt(g, 1, TEXMODE(3)); /* B must be exactly VRAM_B_TEXTURE_SLOT1 */
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 0, 0), 0);
	ck_assert_uint_eq(g->fail, LIBNDS_GL_FAIL_BANKS);
	libnds_gl_vramcnt(g, 1, TEXMODE(1));
	libnds_gl_vramcnt(g, 0, 0);
	libnds_gl_vramcnt(g, 2, TEXMODE(3)); /* neither A at slot 0 nor C at slot 2 */
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 0, 0), 0);
	ck_assert_uint_eq(g->fail, LIBNDS_GL_FAIL_BANKS);
	libnds_gl_vramcnt(g, 2, TEXMODE(2));
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 0, 0), 1);
	ck_assert_uint_eq(tex_addr(g, t), C); /* A unmapped: the upper half of B and C */
	ck_assert_uint_eq(ext_addr(g, t), B + 0x10000);
}
END_TEST

/* A refused Tex4x4 upload has freed the old block and set texSize, but
 * left texFormat with the old address; the next texture takes that place
 * (devkitPro and BlocksDS alike). GL_NOTEXTURE frees the block: 0 from
 * devkitPro, 1 from BlocksDS. */
START_TEST(gl_failed_upload_state)
{
	int v;

	for (v = 0; v < 2; v++) {
		libnds_gl *g = gl_new(v, 0);
		int t = new_texture(g), u;
		const libnds_gl_texture *r;
		ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGB256, 1, 1), 1); /* 256 bytes at A */
		libnds_gl_vramcnt(g, 1, 0);
		ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_COMPRESSED, 1, 1), 0);
		r = libnds_gl_texture_of(g, t);
		ck_assert_uint_eq(r->tex_format, (1u << 20) | (1u << 23) | (4u << 26));
		ck_assert_uint_eq(r->tex_size, 64);
		ck_assert_uint_eq(r->tex_index, 0);
		u = new_texture(g);
		ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGB16, 0, 0), 1);
		ck_assert_uint_eq(tex_addr(g, u), A);
		ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_NOTEXTURE, 0, 0), v == LIBNDS_GL_BLOCKSDS);
		ck_assert_uint_eq(libnds_gl_texture_of(g, u)->tex_index, 0);
		ck_assert_uint_eq(libnds_gl_tex_alloc(g)->nodes_live, 1); /* all free */
	}
}
END_TEST

static int new_palette(libnds_gl *g, unsigned fmt, uint32_t colours)
{
	int t = new_texture(g);

	libnds_gl_tex_parameter(g, fmt << 26);
	return libnds_gl_color_table(g, colours) ? t : -t;
}

static const libnds_gl_palette *pal_of(const libnds_gl *g, int t)
{
	return libnds_gl_palette_of(g, libnds_gl_texture_of(g, t)->pal_index);
}

/* First fit from E; 16-byte units, 8 for a 4-colour texture or an untyped
 * one of up to four colours; exact sizes; names reused last-in first-out. */
START_TEST(gl_palettes)
{
	libnds_gl *g = gl_new(LIBNDS_GL_DEVKITPRO, 0);
	int t1 = new_palette(g, LIBNDS_GL_RGB256, 16), t2 = new_palette(g, LIBNDS_GL_RGB4, 4);
	int t3 = new_palette(g, LIBNDS_GL_NOTEXTURE, 3), t4 = new_palette(g, LIBNDS_GL_NOTEXTURE, 5);
	int t5 = new_palette(g, LIBNDS_GL_RGB16, 1);

	ck_assert_uint_eq(pal_of(g, t1)->vram_addr, E);
	ck_assert_uint_eq(pal_of(g, t1)->addr, 0);
	ck_assert_uint_eq(pal_of(g, t2)->vram_addr, E + 0x20);
	ck_assert_uint_eq(pal_of(g, t2)->addr, 4);                 /* 8-byte units */
	ck_assert_uint_eq(pal_of(g, t3)->vram_addr, E + 0x28);
	ck_assert_uint_eq(pal_of(g, t3)->pal_size, 6);
	ck_assert_uint_eq(pal_of(g, t4)->vram_addr, E + 0x30);
	ck_assert_uint_eq(pal_of(g, t4)->addr, 3);                 /* 16-byte units */
	ck_assert_uint_eq(pal_of(g, t5)->vram_addr, E + 0x40);     /* [0x2E, 0x30) too small */
	ck_assert_uint_eq(g->gfx_pal_format, 4);
	ck_assert_uint_eq(libnds_gl_texture_of(g, t5)->pal_index, 5);
	/* again on t1: its palette is freed first, and its name comes back */
	libnds_gl_bind_texture(g, t1);
	ck_assert_int_eq(libnds_gl_color_table(g, 8), 1);
	ck_assert_uint_eq(pal_of(g, t1)->vram_addr, E);
	ck_assert_uint_eq(libnds_gl_texture_of(g, t1)->pal_index, 1);
	ck_assert_int_eq(libnds_gl_color_table(g, 0), 1); /* width 0: just removes it */
	ck_assert_uint_eq(libnds_gl_texture_of(g, t1)->pal_index, 0);
	ck_assert_uint_eq(g->active_palette, 0);
	/* devkitPro's width is a u16: 65536 colours is 0 */
	ck_assert_int_eq(libnds_gl_color_table(g, 0x10000), 1);
	ck_assert_uint_eq(libnds_gl_texture_of(g, t1)->pal_index, 0);
	libnds_gl_bind_texture(g, 0);
	ck_assert_int_eq(libnds_gl_color_table(g, 16), 0); /* nothing bound */
}
END_TEST

/* A 4-colour palette's PLTT_BASE must be below 0x2000 (byte 0x10000): the
 * check comes after the search, on the start only, and fails the call with
 * nothing allocated. Where F's OFS puts it decides. */
START_TEST(gl_palette_4colour_limit)
{
	int fixed;

	for (fixed = 0; fixed < 2; fixed++) {
		libnds_gl *g = gl_new(LIBNDS_GL_DEVKITPRO, fixed);
		int t;
		libnds_gl_vramcnt(g, 6, TEXMODE(1)); /* G at palette slot 1 */
		ck_assert_int_gt(new_palette(g, LIBNDS_GL_RGB256, 0x8000), 0); /* all of E */
		t = new_palette(g, LIBNDS_GL_RGB4, 4);
		if (!fixed) {
			/* first fit F + 0, at slot 4: 0x10000 */
			ck_assert_int_lt(t, 0);
			ck_assert_uint_eq(g->fail, LIBNDS_GL_FAIL_4COLOUR);
			ck_assert_uint_eq(g->active_palette, 0);
			ck_assert_uint_eq(libnds_gl_pal_alloc(g)->nodes_live, 2); /* nothing taken */
		} else {
			/* fixed looks on into G, at slot 1 */
			ck_assert_int_gt(t, 0);
			ck_assert_uint_eq(pal_of(g, t)->vram_addr, G);
			ck_assert_uint_eq(pal_of(g, t)->addr, 0x4000 >> 3);
		}
		/* F at slot 0 (libnds's VRAM_F_TEX_PALETTE): F + 0 is PLTT_BASE 0,
		 * where E is too */
		libnds_gl_vramcnt(g, 5, TEXMODE(0));
		t = new_palette(g, LIBNDS_GL_RGB4, 4);
		ck_assert_int_gt(t, 0);
		ck_assert_uint_eq(pal_of(g, t)->vram_addr, F);
		ck_assert_uint_eq(pal_of(g, t)->addr, 0);
	}
}
END_TEST

/* F and G: PLTT_BASE from the offset in the bank plus OFS 0-3 = palette
 * slots 0, 1, 4, 5; a palette may straddle E and F, its address from E. */
START_TEST(gl_palette_offsets)
{
	libnds_gl *g;
	unsigned ofs;
	static const uint32_t slot_at[4] = { 0, 0x4000, 0x10000, 0x14000 };

	for (ofs = 0; ofs < 4; ofs++) {
		int t;
		g = gl_new(LIBNDS_GL_BLOCKSDS, 0);
		ck_assert_int_eq(libnds_gl_lock_bank(g, 4, 1), 1); /* E locked */
		libnds_gl_vramcnt(g, 5, TEXMODE(ofs));
		libnds_gl_vramcnt(g, 6, TEXMODE(ofs ^ 1));
		t = new_palette(g, LIBNDS_GL_RGB16, 16);
		ck_assert_uint_eq(pal_of(g, t)->vram_addr, F);
		ck_assert_uint_eq(pal_of(g, t)->addr, slot_at[ofs] >> 4);
		ck_assert_int_eq(libnds_gl_lock_bank(g, 5, 1), 1); /* F locked */
		t = new_palette(g, LIBNDS_GL_RGB16, 16);
		ck_assert_uint_eq(pal_of(g, t)->vram_addr, G);
		ck_assert_uint_eq(pal_of(g, t)->addr, slot_at[ofs ^ 1] >> 4);
	}
	g = gl_new(LIBNDS_GL_DEVKITPRO, 0);
	ck_assert_int_gt(new_palette(g, LIBNDS_GL_RGB256, 0x7FF8), 0); /* E + 0..0xFFF0 */
	ofs = (unsigned)new_palette(g, LIBNDS_GL_RGB256, 16);
	ck_assert_uint_eq(pal_of(g, (int)ofs)->vram_addr, E + 0xFFF0); /* runs into F */
	ck_assert_uint_eq(pal_of(g, (int)ofs)->addr, 0xFFF);
}
END_TEST

/* glAssignColorTable shares a palette; it goes with its last user. */
START_TEST(gl_palette_sharing)
{
	libnds_gl *g = gl_new(LIBNDS_GL_DEVKITPRO, 0);
	int t1 = new_palette(g, LIBNDS_GL_RGB16, 16), t2 = new_texture(g), t3 = new_texture(g), n;

	libnds_gl_bind_texture(g, t2);
	ck_assert_int_eq(libnds_gl_assign_color_table(g, t1), 1);
	ck_assert_uint_eq(libnds_gl_texture_of(g, t2)->pal_index, 1);
	ck_assert_uint_eq(pal_of(g, t1)->connect, 2);
	ck_assert_int_eq(libnds_gl_assign_color_table(g, t2), 0); /* itself */
	libnds_gl_bind_texture(g, t3);
	ck_assert_int_eq(libnds_gl_assign_color_table(g, 99), 0); /* a name with no palette */
	n = t1;
	ck_assert_int_eq(libnds_gl_delete_textures(g, 1, &n), 1);
	ck_assert_int_eq(n, 0);
	ck_assert_uint_eq(pal_of(g, t2)->connect, 1);
	ck_assert_uint_eq(libnds_gl_pal_alloc(g)->nodes_live, 2);
	n = t2;
	ck_assert_int_eq(libnds_gl_delete_textures(g, 1, &n), 1);
	ck_assert_uint_eq(libnds_gl_pal_alloc(g)->nodes_live, 1);
	ck_assert_uint_eq(g->dealloc_pal_size, 1);
}
END_TEST

/* Padding that wraps the search's room (vb_padding_wraps) in a palette
 * call: allocateSpecial refuses, and glColorTableEXT sets the palette up
 * at that address anyway, owning nothing; the next palette lands on it.
 * fixed: the first is owned and the second goes after it. */
START_TEST(gl_palette_unowned)
{
	int v;

	for (v = 0; v < 3; v++) {
		libnds_gl *g = gl_new(v & 1, v >> 1);
		int t3;
		ck_assert_int_gt(new_palette(g, LIBNDS_GL_RGB16, 1), 0);   /* E + 0, 2 bytes */
		ck_assert_int_gt(new_palette(g, LIBNDS_GL_RGB4, 4), 0);    /* E + 8 */
		t3 = new_palette(g, LIBNDS_GL_RGB256, 16);
		ck_assert_int_gt(t3, 0);
		ck_assert_uint_eq(pal_of(g, t3)->vram_addr, E + 0x10);
		ck_assert_uint_eq(pal_of(g, t3)->pal_index, v >> 1 ? 3 : 0);
		t3 = new_palette(g, LIBNDS_GL_RGB4, 4);
		ck_assert_uint_eq(pal_of(g, t3)->vram_addr, v >> 1 ? E + 0x30 : E + 0x10);
	}
}
END_TEST

/* Names: from 1, reused last-in first-out, MAX_TEXTURES; a name deleted
 * twice is handed out twice, and deleted often enough it stops
 * glGenTextures for good (u32 (texCount - deallocTexSize) wraps). */
START_TEST(gl_names)
{
	libnds_gl *g = gl_new(LIBNDS_GL_DEVKITPRO, 0);
	int n[4], i, x;

	ck_assert_int_eq(libnds_gl_gen_textures(g, 3, n), 1);
	ck_assert_int_eq(n[0] * 100 + n[1] * 10 + n[2], 123);
	x = 2;
	libnds_gl_delete_textures(g, 1, &x);
	x = 3;
	libnds_gl_delete_textures(g, 1, &x);
	ck_assert_int_eq(libnds_gl_gen_textures(g, 2, n), 1);
	ck_assert_int_eq(n[0] * 10 + n[1], 32);
	for (i = 4; i <= 2046; i++)
		ck_assert_int_eq(libnds_gl_gen_textures(g, 1, &x), 1);
	ck_assert_int_eq(x, 2046);
	ck_assert_int_eq(libnds_gl_gen_textures(g, 1, &x), 0);
	ck_assert_uint_eq(g->fail, LIBNDS_GL_FAIL_NAMES);
	x = 4096;
	ck_assert_int_eq(libnds_gl_delete_textures(g, 1, &x), 0);
	for (i = 0; i < 3; i++) {
		libnds_gl *h = gl_new(i == 2 ? LIBNDS_GL_BLOCKSDS : LIBNDS_GL_DEVKITPRO, i == 1);
		ck_assert_int_eq(libnds_gl_gen_textures(h, 1, &x), 1);
		libnds_gl_delete_textures(h, 1, &x);
		x = 1;
		libnds_gl_delete_textures(h, 1, &x);
		ck_assert_int_eq(libnds_gl_gen_textures(h, 2, n), 1);
		ck_assert_int_eq(n[1], i == 1 ? 2 : 1); /* fixed: the second delete was ignored */
		for (x = 0; x < 4; x++) {
			int one = 1;
			libnds_gl_delete_textures(h, 1, &one);
		}
		ck_assert_int_eq(libnds_gl_gen_textures(h, 1, &x), i == 1);
	}
}
END_TEST

/* glLockVRAMBank by bank, glResetTextures (locks and registers stay). */
START_TEST(gl_lock_and_reset)
{
	libnds_gl *g = gl_new(LIBNDS_GL_DEVKITPRO, 0);
	int t = new_texture(g);

	ck_assert_int_eq(libnds_gl_lock_bank(g, 7, 1), 0);
	ck_assert_int_eq(libnds_gl_lock_bank(g, 0, 1), 1);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGB16, 0, 0), 1);
	ck_assert_uint_eq(tex_addr(g, t), B);
	ck_assert_int_eq(libnds_gl_lock_bank(g, 0, 0), 1);
	t = new_texture(g);
	ck_assert_int_eq(libnds_gl_tex_image_2d(g, LIBNDS_GL_RGB16, 0, 0), 1);
	ck_assert_uint_eq(tex_addr(g, t), A);
	new_palette(g, LIBNDS_GL_RGB16, 16);
	libnds_gl_lock_bank(g, 1, 1);
	libnds_gl_reset_textures(g);
	ck_assert_ptr_null(libnds_gl_texture_of(g, 1));
	ck_assert_uint_eq(libnds_gl_tex_alloc(g)->nodes_live, 1);
	ck_assert_uint_eq(libnds_gl_pal_alloc(g)->nodes_live, 1);
	t = new_texture(g);
	ck_assert_int_eq(t, 1);
	ck_assert_int_eq(libnds_gl_tex_image_bytes(g, LIBNDS_GL_RGB256, 0x20008), 1);
	ck_assert_uint_eq(tex_addr(g, t), C); /* B still locked: A and C are not adjacent */
}
END_TEST

/* ---- reference videoGL -------------------------------------------------- */

typedef struct rtex { int live; uint32_t idx, ext, size, fmt, pal, vram; } rtex;
typedef struct rpal { int live; uint32_t h, addr, shift, size, connect, vram; } rpal;
typedef struct ref_gl {
	int variant, fixed;
	libnds_vb_regs regs;
	ref_vb tex, pal;
	uint32_t active, active_pal, count, pcount, sp, psp;
	uint32_t stack[2050], pstack[2050];
	rtex t[2048];
	rpal p[2048];
} ref_gl;

static void rg_init(ref_gl *r, int variant, int fixed)
{
	memset(r, 0, sizeof *r);
	r->variant = variant;
	r->fixed = fixed;
	r->regs = default_regs();
	rv_init(&r->tex, A, E, LIBNDS_GL_TEX_NODES, fixed);
	rv_init(&r->pal, E, H, LIBNDS_GL_PAL_NODES, fixed);
	r->count = r->pcount = 1;
}

static void rg_reset(ref_gl *r)
{
	libnds_vb_regs keep = r->regs;

	rg_init(r, r->variant, r->fixed);
	r->regs = keep;
}

static int rg_gen(ref_gl *r, int *name)
{
	if ((uint32_t)(r->count - r->sp) + 1u >= 2048u)
		return 0;
	*name = (int)(r->sp ? r->stack[r->sp--] : r->count++);
	memset(&r->t[*name], 0, sizeof r->t[0]);
	r->t[*name].live = 1;
	return 1;
}

static void rg_unpal(ref_gl *r, rtex *t)
{
	rpal *p = &r->p[t->pal];

	if (!p->live) {
		t->pal = 0;
		return;
	}
	if (--p->connect == 0) {
		r->pstack[++r->psp] = t->pal;
		rv_deallocate(&r->pal, p->h);
		p->live = 0;
		if (r->active_pal == t->pal)
			r->active_pal = 0;
	}
	t->pal = 0;
}

static int rg_delete(ref_gl *r, int name)
{
	rtex *t;

	if (!name)
		return 1;
	if (name < 0 || name >= 2048 || r->sp >= 2048)
		return 0;
	t = &r->t[name];
	if (t->live || !r->fixed)
		r->stack[++r->sp] = (uint32_t)name;
	if (t->live) {
		if (t->idx) {
			if (t->ext)
				rv_deallocate(&r->tex, t->ext);
			rv_deallocate(&r->tex, t->idx);
		}
		if (t->pal)
			rg_unpal(r, t);
		t->live = 0;
	}
	if (r->active == (uint32_t)name)
		r->active = 0;
	return 1;
}

static void rg_bind(ref_gl *r, int name)
{
	if (r->active == (uint32_t)name)
		return;
	if (name < 0 || name >= 2048 || !r->t[name].live) {
		r->active = r->active_pal = 0;
		return;
	}
	r->active = (uint32_t)name;
	r->active_pal = r->t[name].pal;
}

static int in_b(uint32_t x)
{
	return x >= B && x < C;
}

/* The first run ending after x (binary search), or r->n. */
static unsigned rv_run_after(const ref_vb *r, uint32_t x)
{
	unsigned lo = 0, hi = r->n;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (r->run[mid].b > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Whether [x, x + size) is free and clear of the banks to step over. */
static int rv_fits_at(const ref_vb *r, const libnds_vb_regs *g, uint32_t x, uint32_t size)
{
	unsigned i = rv_run_after(r, x), j;
	rbank k[5];

	if (r->stuck || i == r->n || r->run[i].a > x || x + size > r->run[i].b)
		return 0;
	r_banks(g, x, k);
	for (j = 0; k[j].a; j++)
		if (x < k[j].b && x + size > k[j].a)
			return 0;
	return 1;
}

/* fixed: the lowest position of each half of B where the index part fits
 * and its partner's texel part too, every position tried. */
static int rg_4x4_fixed(ref_gl *r, uint32_t size, uint32_t *bf, uint32_t *ac)
{
	uint32_t bs = size / 2, half;

	for (half = 0; half < 2; half++) {
		uint32_t lo = B + half * 0x10000u, q = lo;
		while (q + bs <= lo + 0x10000u) {
			unsigned i = rv_run_after(&r->tex, q);
			if (i == r->tex.n)
				break;
			if (r->tex.run[i].a > q) { /* on to the next free run */
				q = up(r->tex.run[i].a, 2);
				continue;
			}
			*ac = (half ? C : A) + 2 * (q - lo);
			if (rv_fits_at(&r->tex, &r->regs, q, bs) && rv_fits_at(&r->tex, &r->regs, *ac, size)) {
				*bf = q;
				return 1;
			}
			q += 4;
		}
	}
	return 0;
}

static int rg_4x4_real(ref_gl *r, uint32_t size, uint32_t *bf, uint32_t *ac)
{
	uint32_t bs = size / 2, from = B;
	ref_vb *v = &r->tex;

	for (;;) {
		uint32_t x = rv_examine(v, &r->regs, from, bs, 2), y;
		if (!in_b(x) || !in_b(x + bs - 2))
			return 0;
		if (x - B < 0x10000u && x - B + bs > 0x10000u) {
			from = B + 0x10000u;
			continue;
		}
		*ac = (x - B >= 0x10000u ? C : A) + ((x - B) & 0xFFFFu) * 2;
		y = rv_examine(v, &r->regs, *ac, size, 3);
		if (y == *ac) {
			*bf = x;
			return 1;
		}
		if (r->variant == LIBNDS_GL_BLOCKSDS && in_b(y))
			from = B + 0x10000u;
		else
			from += (y - *ac) / 2;
	}
}

static int rg_4x4_banks(const ref_gl *r, uint32_t size)
{
	const uint8_t *cr = r->regs.vramcnt;

	if (r->variant == LIBNDS_GL_DEVKITPRO)
		return (cr[1] & 0x83) == 0x83;
	return size <= 0x20000 && cr[1] == 0x8B && (cr[0] == 0x83 || cr[2] == 0x93);
}

static const uint32_t r_bpp[9] = { 0, 8, 2, 4, 8, 3, 8, 16, 16 };

static int rg_tex_image(ref_gl *r, unsigned type, unsigned sx, unsigned sy)
{
	rtex *t;
	uint32_t size = 1u << (sx + sy + 6), f = type == 8 ? 7 : type, bf, ac;

	if (!r->active)
		return 0;
	size = type >= 7 ? size * 2 : type == 2 || type == 5 ? size / 4 : type == 3 ? size / 2 : size;
	if (!type)
		size = 0;
	t = &r->t[r->active];
	if (t->size != size || r_bpp[(t->fmt >> 26) & 7] != r_bpp[type]) {
		if (t->ext)
			rv_deallocate(&r->tex, t->ext);
		if (t->idx)
			rv_deallocate(&r->tex, t->idx);
		t->idx = t->ext = t->vram = 0;
	}
	t->size = size;
	if (t->idx) {
		t->fmt = ((sx << 20) | (sy << 23) | (f << 26) | (t->fmt & 0xFFFF)) & 0x1FF0FFFFu;
		return 1;
	}
	if (!type && r->variant == LIBNDS_GL_BLOCKSDS) {
		t->fmt = 0;
		return 1;
	}
	if (type == 5) {
		if (!rg_4x4_banks(r, size))
			return 0;
		if (r->fixed ? rg_4x4_fixed(r, size, &bf, &ac) : rg_4x4_real(r, size, &bf, &ac)) {
			QEQ(rv_examine(&r->tex, &r->regs, ac, size, 3), ac);
			t->idx = rv_allocate_special(&r->tex, ac, size);
			t->ext = rv_allocate_special(&r->tex, rv_examine(&r->tex, &r->regs, bf, size / 2, 2), size / 2);
		}
	} else if (type) {
		t->idx = rv_allocate(&r->tex, &r->regs, size, 3);
	}
	if (!t->idx) {
		t->fmt = 0;
		return 0;
	}
	t->vram = r->tex.haddr[t->idx];
	t->fmt = ((sx << 20) | (sy << 23) | (f << 26) | ((t->vram - A) >> 3)) & 0x1FF0FFFFu;
	return 1;
}

static uint32_t rg_hw(const ref_gl *r, uint32_t at)
{
	static const uint32_t slot[4] = { 0, 0x4000, 0x10000, 0x14000 };

	if (at >= G)
		return at - G + slot[(r->regs.vramcnt[6] >> 3) & 3];
	if (at >= F)
		return at - F + slot[(r->regs.vramcnt[5] >> 3) & 3];
	return at - E;
}

static int rg_color_table(ref_gl *r, uint32_t width)
{
	rtex *t;
	uint32_t shift, at, from = E, h, name;

	if (!r->active)
		return 0;
	if (r->variant == LIBNDS_GL_DEVKITPRO)
		width &= 0xFFFF;
	t = &r->t[r->active];
	if (t->pal)
		rg_unpal(r, t);
	if (!width)
		return 1;
	shift = ((t->fmt >> 26) & 7) == 2 || (((t->fmt >> 26) & 7) == 0 && width <= 4) ? 3 : 4;
	for (;;) {
		at = rv_examine(&r->pal, &r->regs, from, width * 2, shift);
		if (!at) {
			r->active_pal = 0;
			return 0;
		}
		if (!r->fixed || shift == 4 || rg_hw(r, at) < 0x10000 || at >= G)
			break;
		from = at < F ? F : G;
	}
	if (shift == 3 && rg_hw(r, at) >= 0x10000) {
		r->active_pal = 0;
		return 0;
	}
	h = rv_allocate_special(&r->pal, at, width * 2);
	name = r->psp ? r->pstack[r->psp--] : r->pcount++;
	r->p[name].live = 1;
	r->p[name].h = h;
	r->p[name].addr = rg_hw(r, at) >> shift;
	r->p[name].shift = shift;
	r->p[name].size = (width * 2) & 0xFFFF;
	r->p[name].connect = 1;
	r->p[name].vram = at;
	t->pal = name;
	r->active_pal = name;
	return 1;
}

static int rg_assign(ref_gl *r, int name)
{
	rtex *t;
	int ok;

	if (!r->active || r->active == (uint32_t)name)
		return 0;
	t = &r->t[r->active];
	ok = name > 0 && name < 2048 && r->t[name].live && r->t[name].pal && r->p[r->t[name].pal].live;
	if (t->pal)
		rg_unpal(r, t);
	if (!ok) {
		r->active_pal = 0;
		return 0;
	}
	t->pal = r->t[name].pal;
	r->p[t->pal].connect++;
	r->active_pal = t->pal;
	return 1;
}

static void rg_compare(libnds_gl *g, const ref_gl *r)
{
	uint32_t i;

	rv_compare(libnds_gl_tex_alloc(g), &r->tex);
	rv_compare(libnds_gl_pal_alloc(g), &r->pal);
	QEQ(g->active_texture, r->active);
	QEQ(g->active_palette, r->active_pal);
	QEQ(g->dealloc_tex_size, r->sp);
	QEQ(g->dealloc_pal_size, r->psp);
	for (i = 0; i < 2048; i++) {
		const libnds_gl_texture *t = &g->tex[i];
		const libnds_gl_palette *p = &g->pal[i];
		QEQ(t->live, r->t[i].live);
		if (t->live) {
			QEQ(t->tex_index, r->t[i].idx);
			QEQ(t->tex_index_ext, r->t[i].ext);
			QEQ(t->tex_size, r->t[i].size);
			QEQ(t->tex_format, r->t[i].fmt);
			QEQ(t->vram_addr, r->t[i].vram);
			QEQ(t->pal_index, r->t[i].pal);
		}
		QEQ(p->live, r->p[i].live);
		if (p->live) {
			QEQ(p->pal_index, r->p[i].h);
			QEQ(p->addr, r->p[i].addr);
			QEQ(p->pal_size, r->p[i].size);
			QEQ(p->connect, r->p[i].connect);
			QEQ(p->vram_addr, r->p[i].vram);
		}
	}
}

static int random_live(vs_rng *rng, const ref_gl *r)
{
	int i, n = (int)vs_rng_below(rng, 2048);

	for (i = 0; i < 2048; i++)
		if (r->t[(n + i) % 2048].live && (n + i) % 2048)
			return (n + i) % 2048;
	return 0;
}

static unsigned random_type(vs_rng *rng)
{
	static const uint8_t types[] = { 1, 2, 3, 4, 5, 5, 5, 6, 7, 8, 4, 3, 0 };

	return types[vs_rng_below(rng, sizeof types)];
}

/* videoGL as a game drives it, against the reference: uploads (new and
 * again), deletes (some of names already deleted), palettes, sharing, bank
 * registers and locks changing, resets. Both versions, with and without
 * fixed. */
START_TEST(gl_random)
{
	static ref_gl ref;
	int variant = _i & 1, fixed = (_i >> 1) & 1;
	libnds_gl *g = gl_new(variant, fixed);
	vs_rng rng = { 0xC0FFEEull * (uint64_t)(_i + 1) };
	uint32_t steps = vs_test_soak(4000, 40000), s, uploads = 0, fours = 0, pals = 0, stuck_run = 0, stucks = 0, gen_fails = 0;

	rg_init(&ref, variant, fixed);
	for (s = 0; s < steps; s++) {
		uint32_t k = vs_rng_below(&rng, 100);
		int name, rn, ok;
		if (k < 35) {
			unsigned type = random_type(&rng), sx = vs_rng_below(&rng, 6), sy = vs_rng_below(&rng, 6);
			if (vs_rng_below(&rng, 3) && (name = random_live(&rng, &ref)) != 0 && k < 10) {
				libnds_gl_bind_texture(g, name);
				rg_bind(&ref, name);
			} else {
				ok = libnds_gl_gen_textures(g, 1, &name);
				QEQ(ok, rg_gen(&ref, &rn));
				if (!ok) {
					/* out of names, or stopped for good by names
					 * deleted twice: start again */
					if (++gen_fails > 20) {
						libnds_gl_reset_textures(g);
						rg_reset(&ref);
						gen_fails = 0;
						stucks++;
					}
					continue;
				}
				QEQ(name, rn);
				libnds_gl_bind_texture(g, name);
				rg_bind(&ref, name);
			}
			ok = libnds_gl_tex_image_2d(g, type, sx, sy);
			QEQ(ok, rg_tex_image(&ref, type, sx, sy));
			uploads += ok;
			fours += ok && type == 5;
		} else if (k < 60) {
			name = vs_rng_below(&rng, 8) ? random_live(&rng, &ref) : (int)vs_rng_below(&rng, 2100);
			rn = name;
			QEQ(libnds_gl_delete_textures(g, 1, &name), rg_delete(&ref, rn));
		} else if (k < 80) {
			uint32_t w = vs_rng_below(&rng, 3) ? 1 + vs_rng_below(&rng, 8) : 1 + vs_rng_below(&rng, 600);
			name = random_live(&rng, &ref);
			libnds_gl_bind_texture(g, name);
			rg_bind(&ref, name);
			if (vs_rng_below(&rng, 4) == 0 && ref.active) {
				uint32_t param = (uint32_t)vs_rng_below(&rng, 8) << 26;
				libnds_gl_tex_parameter(g, param);
				ref.t[ref.active].fmt = (ref.t[ref.active].fmt & 0x1FF0FFFFu) | param;
			}
			ok = libnds_gl_color_table(g, w);
			QEQ(ok, rg_color_table(&ref, w));
			pals += ok;
		} else if (k < 85) {
			name = random_live(&rng, &ref);
			libnds_gl_bind_texture(g, name);
			rg_bind(&ref, name);
			rn = random_live(&rng, &ref);
			QEQ(libnds_gl_assign_color_table(g, rn), rg_assign(&ref, rn));
		} else if (k < 90) {
			ref.regs = default_regs();
			g->regs = ref.regs;
		} else if (k < 99 || s % 499) {
			int pal = vs_rng_below(&rng, 4) == 0;
			random_regs(&rng, &ref.regs, pal);
			memcpy(g->regs.vramcnt, ref.regs.vramcnt, sizeof g->regs.vramcnt);
			g->regs.lock[0] = ref.regs.lock[0];
			g->regs.lock[1] = ref.regs.lock[1];
		} else {
			libnds_gl_reset_textures(g);
			rg_reset(&ref);
		}
		rg_compare(g, &ref);
		if ((ref.tex.stuck || ref.pal.stuck) && ++stuck_run > 30) {
			libnds_gl_reset_textures(g);
			rg_reset(&ref);
			stuck_run = 0;
			stucks++;
		}
	}
	if (steps >= 1500) {
		ck_assert_uint_gt(fours, 10);
		ck_assert_uint_gt(pals, 50);
		ck_assert_uint_gt(uploads, 100);
	}
}
END_TEST

/* ---- the strategies ------------------------------------------------------ */

typedef struct sum_ud { uint32_t bytes, extents; } sum_ud;

static int sum_extent(void *ud, uint32_t off, uint32_t size)
{
	sum_ud *s = ud;

	(void)off;
	s->bytes += size;
	s->extents++;
	return 0;
}

static void print_into(void *ud, const char *text)
{
	vs_test_text *t = ud;

	vs_test_put(t, "%s", text);
}

static uint32_t free_bytes(const vs_strategy *s, void *st)
{
	sum_ud sum = { 0, 0 };

	s->walk_free(st, sum_extent, &sum);
	return sum.bytes;
}

/* libnds-tex through its table: options, requests, keys, realloc in place
 * and moved, the bank callbacks, walk, dump, ram, reset. */
START_TEST(strategy_tex)
{
	const vs_strategy *s = vs_strategy_find("libnds-tex");
	vs_arena_decl d;
	vs_placement p1, p2, p3;
	vs_request rq;
	vs_test_text dump = { 0 };
	char err[256];
	void *st;

	ck_assert_ptr_nonnull(s);
	ck_assert_uint_ne(s->flags & VS_STRAT_REALLOC, 0);
	st = calloc(1, s->state_size);
	vs_arena_decl_default(&d, VS_ARENA_DS_TEX);
	ck_assert_int_ne(s->init(st, &d, "variant=ndslib", NULL, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "variant=ndslib"));
	ck_assert_int_ne(s->init(st, &d, "fixed=maybe", NULL, err, sizeof err), 0);
	ck_assert_int_ne(s->init(st, &d, "slots=2", NULL, err, sizeof err), 0);
	ck_assert_int_eq(s->init(st, &d, "variant=blocksds,fixed=no", NULL, err, sizeof err), 0);
	rq = vs_test_tex_rq(VS_TEX_256C, 16, 16);
	ck_assert_int_eq(s->alloc(st, &rq, &p1), VS_OK);
	ck_assert_uint_eq(p1.offset, 0);
	ck_assert_uint_eq(p1.granted, 256);
	ck_assert_uint_eq(p1.key, 1u | 1u << 16);
	/* 8x8 Tex4x4: partner of B + 0 taken, B moves on by 0x80: texel 0x100 */
	rq = vs_test_tex_rq(VS_TEX_4X4, 8, 8);
	ck_assert_int_eq(s->alloc(st, &rq, &p2), VS_OK);
	ck_assert_uint_eq(p2.offset, 0x100);
	ck_assert_uint_eq(p2.granted, 16);
	ck_assert_uint_eq(p2.key >> 16, 2);
	/* realloc, same size and depth: kept; bigger: freed, then placed */
	rq = vs_test_tex_rq(VS_TEX_A3I5, 32, 8);
	rq.has_prev = 1;
	rq.prev_key = p1.key;
	ck_assert_int_eq(s->alloc(st, &rq, &p3), VS_OK);
	ck_assert_uint_eq(p3.offset, 0);
	ck_assert_uint_eq(p3.key, p1.key);
	rq = vs_test_tex_rq(VS_TEX_256C, 32, 32);
	rq.has_prev = 1;
	rq.prev_key = p1.key;
	ck_assert_int_eq(s->alloc(st, &rq, &p1), VS_OK);
	ck_assert_uint_eq(p1.offset, 0x110);
	ck_assert_uint_eq(p1.key >> 16, 1);
	/* A unmapped, then B locked: the next textures go to B, then C */
	s->vramcnt(st, 0, 0);
	rq.has_prev = 0;
	rq = vs_test_tex_rq(VS_TEX_16C, 8, 8);
	ck_assert_int_eq(s->alloc(st, &rq, &p3), VS_OK);
	ck_assert_uint_eq(p3.offset, 0x20000);
	s->lock(st, 1, 1);
	ck_assert_int_eq(s->alloc(st, &rq, &p3), VS_OK);
	ck_assert_uint_eq(p3.offset, 0x40000);
	/* free space in the banks mapped for textures (B, C, D) */
	ck_assert_uint_eq(free_bytes(s, st), 0x60000 - 8 - 32 - 32);
	s->dump(st, print_into, &dump);
	ck_assert_ptr_nonnull(strstr(dump.s, "libnds videoGL texture allocator (BlocksDS)"));
	ck_assert_ptr_nonnull(strstr(dump.s, "B=0x8b locked"));
	ck_assert_ptr_nonnull(strstr(dump.s, "  0x20000  0x00020  used"));
	free(dump.s);
	ck_assert_uint_gt(s->ram(st), LIBNDS_VB_ARM_BLOCK);
	ck_assert_int_eq(s->free(st, &p2), VS_OK);
	ck_assert_int_eq(s->free(st, &p2), VS_ERR_INVALID);
	/* a Tex4x4 request with B locked: no index space */
	rq = vs_test_tex_rq(VS_TEX_4X4, 8, 8);
	ck_assert_int_eq(s->alloc(st, &rq, &p2), VS_ERR_NOSPACE);
	rq = vs_test_tex_rq(VS_TEX_DIRECT, 1024, 1024);
	ck_assert_int_eq(s->alloc(st, &rq, &p2), VS_ERR_NOSPACE);
	rq = vs_test_tex_rq(VS_TEX_16C, 12, 8);
	ck_assert_int_eq(s->alloc(st, &rq, &p2), VS_ERR_INVALID);
	rq = vs_test_pltt_rq(16, 0);
	ck_assert_int_eq(s->alloc(st, &rq, &p2), VS_ERR_UNSUPPORTED);
	s->reset(st);
	ck_assert_uint_eq(free_bytes(s, st), 0x60000);
	free(st);
}
END_TEST

/* libnds-pltt through its table: colours, 4-colour alignment, plain bytes,
 * realloc, the 4-colour rule as VS_ERR_RULE, F's offset. */
START_TEST(strategy_pltt)
{
	const vs_strategy *s = vs_strategy_find("libnds-pltt");
	vs_arena_decl d;
	vs_placement p1, p2, p3;
	vs_request rq;
	char err[256];
	void *st;

	ck_assert_ptr_nonnull(s);
	st = calloc(1, s->state_size);
	vs_arena_decl_default(&d, VS_ARENA_DS_PLTT);
	d.ds_bank_slot[5] = 4; /* F at palette slot 4 */
	ck_assert_int_eq(s->init(st, &d, "", NULL, err, sizeof err), 0);
	rq = vs_test_pltt_rq(16, 0);
	ck_assert_int_eq(s->alloc(st, &rq, &p1), VS_OK);
	ck_assert_uint_eq(p1.offset, 0);
	ck_assert_uint_eq(p1.granted, 32);
	rq = vs_test_pltt_rq(4, 1);
	ck_assert_int_eq(s->alloc(st, &rq, &p2), VS_OK);
	ck_assert_uint_eq(p2.offset, 0x20);
	rq.shape = VS_REQ_BYTES;
	rq.size = 5; /* 3 colours, 16-byte aligned */
	ck_assert_int_eq(s->alloc(st, &rq, &p3), VS_OK);
	ck_assert_uint_eq(p3.offset, 0x30);
	ck_assert_uint_eq(p3.granted, 6);
	/* glColorTableEXT again: the old palette is freed first */
	rq = vs_test_pltt_rq(8, 0);
	rq.has_prev = 1;
	rq.prev_key = p1.key;
	ck_assert_int_eq(s->alloc(st, &rq, &p1), VS_OK);
	ck_assert_uint_eq(p1.offset, 0);
	ck_assert_uint_eq(p1.granted, 16);
	rq = vs_test_pltt_rq(4, 1); /* now a 4-colour one: a new stand-in, same name */
	rq.has_prev = 1;
	rq.prev_key = p1.key;
	ck_assert_int_eq(s->alloc(st, &rq, &p1), VS_OK);
	ck_assert_uint_eq(p1.offset, 0);
	ck_assert_uint_eq(p1.key >> 16, 1);
	ck_assert_int_eq(s->free(st, &p3), VS_OK);
	ck_assert_int_eq(s->free(st, &p2), VS_OK);
	ck_assert_int_eq(s->free(st, &p1), VS_OK);
	ck_assert_uint_eq(free_bytes(s, st), 0x14000);
	/* E full: a 4-colour palette's first fit is F, at 0x10000 */
	rq = vs_test_pltt_rq(0x8000, 0);
	ck_assert_int_eq(s->alloc(st, &rq, &p3), VS_OK);
	ck_assert_uint_eq(p3.offset, 0);
	rq = vs_test_pltt_rq(4, 1);
	ck_assert_int_eq(s->alloc(st, &rq, &p3), VS_ERR_RULE);
	rq = vs_test_pltt_rq(16, 0);
	ck_assert_int_eq(s->alloc(st, &rq, &p3), VS_OK);
	ck_assert_uint_eq(p3.offset, 0x10000);
	ck_assert_uint_eq(free_bytes(s, st), 0x4000 - 32);
	s->vramcnt(st, 5, 0x81);
	ck_assert_int_eq(s->alloc(st, &rq, &p3), VS_ERR_NOSPACE);
	ck_assert_uint_eq(free_bytes(s, st), 0);
	free(st);
}
END_TEST

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static vs_replay *replay_with(const char *strategy, const char *text)
{
	char err[256];
	vs_replay_config cfg;
	vs_trace_reader *rd = vs_trace_open(vs_test_file(2, "libnds.trace", text), err, sizeof err);
	vs_replay *r;

	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find(strategy);
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	return r;
}

/* A replay: Tex4x4 index data where the hardware reads it; the palette
 * libnds sets up without owning it is caught as an overlap. */
START_TEST(strategy_replay)
{
	vs_replay *r = replay_with("libnds-tex", "vramsim-trace 1\narena t ds-tex\n"
		"alloc 1 tex 16x16 256c\nalloc 2 tex 64x64 4x4\nalloc 3 tex 8x8 4x4\nfree 1\n"
		"alloc 4 tex 128x128 direct\nalloc 5 tex 32x32 4x4\nfree 2\nalloc 6 tex 16x16 16c\n");

	ck_assert_uint_eq(vs_replay_check_total(r), 0);
	vs_replay_free(r);
	r = replay_with("libnds-pltt", "vramsim-trace 1\narena p ds-pltt\n"
		"alloc 1 pltt 1\nalloc 2 pltt 4 4c\nalloc 3 pltt 16\nalloc 4 pltt 4 4c\n");
	ck_assert_uint_eq(vs_replay_check_count(r, VS_CHECK_OVERLAP), 1);
	vs_replay_free(r);
}
END_TEST

static Suite *libnds_gl_suite(void)
{
	Suite *s = suite_create("libnds_gl");
	TCase *hand = tcase_create("hand");
	TCase *rnd = tcase_create("random");

	tcase_add_test(hand, gl_tex_sizes);
	tcase_add_test(hand, gl_reupload);
	tcase_add_test(hand, gl_tex4x4_search);
	tcase_add_test(hand, gl_tex4x4_a_unmapped);
	tcase_add_test(hand, gl_tex4x4_preconditions);
	tcase_add_test(hand, gl_failed_upload_state);
	tcase_add_test(hand, gl_palettes);
	tcase_add_test(hand, gl_palette_4colour_limit);
	tcase_add_test(hand, gl_palette_offsets);
	tcase_add_test(hand, gl_palette_sharing);
	tcase_add_test(hand, gl_palette_unowned);
	tcase_add_test(hand, gl_names);
	tcase_add_test(hand, gl_lock_and_reset);
	tcase_add_test(hand, strategy_tex);
	tcase_add_test(hand, strategy_pltt);
	tcase_add_test(hand, strategy_replay);
	tcase_add_loop_test(rnd, gl_random, 0, 4);
	suite_add_tcase(s, hand);
	suite_add_tcase(s, rnd);
	return s;
}

int main(void)
{
	return vs_test_main(libnds_gl_suite());
}
