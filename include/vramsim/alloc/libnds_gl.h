/* SPDX-License-Identifier: Zlib */
/* libnds_gl.h - what libnds's videoGL does with its two vramBlock
 * allocators (libnds_vram_block.h): texture names, glTexImage2D (sizes per
 * format, 8-byte alignment, re-upload in place, Tex4x4 texel and index
 * parts at linked offsets), glColorTableEXT (first fit from bank E, 16- or
 * 8-byte alignment, the 4-colour 0x10000 rule, F/G offsets), palette
 * sharing, glDeleteTextures, glResetTextures, glLockVRAMBank.
 *
 * Two versions: devkitPro libnds source/arm9/videoGL.c at 6194b32 and
 * BlocksDS libnds source/arm9/video/videoGL.c at 716fecd (`variant`). They
 * differ in the Tex4x4 bank preconditions and search, in what
 * GL_NOTEXTURE returns, and in glDeleteTextures's name checks. `fixed`
 * corrects the defects (docs/ds-homebrew.md).
 *
 * The texture and palette records libnds mallocs are fixed tables indexed
 * by name, sized so the library's own limit binds: glGenTextures refuses
 * past MAX_TEXTURES (2048), so names stay below 2047 and there are at most
 * 2046 textures, hence palettes. The allocators' node pools live after the
 * struct (LIBNDS_GL_BYTES); all links are indices and offsets, so a memcpy
 * of the whole block is a snapshot.
 *
 * Freestanding: no host headers, no allocation.
 */
#ifndef VRAMSIM_ALLOC_LIBNDS_GL_H
#define VRAMSIM_ALLOC_LIBNDS_GL_H

#include <stddef.h>
#include <stdint.h>

#include "vramsim/alloc/libnds_vram_block.h"

#define LIBNDS_GL_MAX_TEXTURES 2048u /* MAX_TEXTURES in both versions */
/* Node pools: at most 2046 textures of at most two used blocks each, with a
 * free block between any two: 8185 texture nodes; 2046 palettes: 4093. */
#define LIBNDS_GL_TEX_NODES 8192u
#define LIBNDS_GL_PAL_NODES 4096u

/* GL_TEXTURE_TYPE_ENUM */
enum {
	LIBNDS_GL_NOTEXTURE = 0, LIBNDS_GL_RGB32_A3 = 1, LIBNDS_GL_RGB4 = 2, LIBNDS_GL_RGB16 = 3,
	LIBNDS_GL_RGB256 = 4, LIBNDS_GL_COMPRESSED = 5, LIBNDS_GL_RGB8_A5 = 6, LIBNDS_GL_RGBA = 7,
	LIBNDS_GL_RGB = 8
};

enum { LIBNDS_GL_DEVKITPRO = 0, LIBNDS_GL_BLOCKSDS = 1 };

/* Why the last call returned 0. */
enum {
	LIBNDS_GL_FAIL_NONE = 0,
	LIBNDS_GL_FAIL_SPACE,   /* the allocator found no place (or refused the one it found) */
	LIBNDS_GL_FAIL_BANKS,   /* Tex4x4: the bank registers refuse it before any search */
	LIBNDS_GL_FAIL_4COLOUR, /* glColorTableEXT: a 4-colour palette's first fit is at 0x10000 or above */
	LIBNDS_GL_FAIL_NAMES,   /* glGenTextures: MAX_TEXTURES reached; glDeleteTextures refused */
	LIBNDS_GL_FAIL_ARGS,    /* no bound texture, a bad format or size */
	LIBNDS_GL_FAIL_POOL     /* the model's node pool or name stack is full (libnds: malloc) */
};

/* gl_texture_data. Addresses are LCDC addresses (0: NULL). */
typedef struct libnds_gl_texture {
	uint32_t vram_addr;   /* vramAddr */
	uint32_t tex_format;  /* texFormat: TEXIMAGE_PARAM as written to GFX_TEX_FORMAT */
	uint32_t tex_size;    /* texSize in bytes */
	uint16_t tex_index;   /* texIndex: handle of the texel block */
	uint16_t tex_index_ext; /* texIndexExt: handle of the Tex4x4 index block */
	uint16_t pal_index;   /* palIndex: palette name */
	uint8_t live;         /* texturePtrs[name] != NULL */
	uint8_t pad;
} libnds_gl_texture;

/* gl_palette_data. */
typedef struct libnds_gl_palette {
	uint32_t vram_addr;   /* vramAddr */
	uint32_t connect;     /* connectCount */
	uint16_t pal_index;   /* palIndex: handle of the palette block (0: allocateSpecial refused) */
	uint16_t addr;        /* addr: PLTT_BASE value, in 8- or 16-byte units */
	uint16_t pal_size;    /* palSize in bytes */
	uint8_t shift;        /* model: 3 or 4, the unit of addr */
	uint8_t live;
} libnds_gl_palette;

typedef struct libnds_gl {
	uint8_t variant;      /* LIBNDS_GL_DEVKITPRO, LIBNDS_GL_BLOCKSDS */
	uint8_t fixed;
	uint8_t fail;         /* LIBNDS_GL_FAIL_* of the last call */
	uint8_t pad;
	libnds_vb_regs regs;  /* VRAMCNT A-I and the lock masks */
	uint32_t active_texture, active_palette;
	uint32_t tex_count, pal_count;          /* next new name */
	uint32_t dealloc_tex_size, dealloc_pal_size; /* names on the reuse stacks */
	uint32_t gfx_tex_format, gfx_pal_format;     /* the registers as last written */
	/* for the RAM figure: the DynamicArrays' sizes and the records held */
	uint32_t tex_ptrs_cur, pal_ptrs_cur, dealloc_tex_cur, dealloc_pal_cur;
	uint32_t tex_records, pal_records;
	uint16_t dealloc_tex[LIBNDS_GL_MAX_TEXTURES + 1]; /* entries 1..size */
	uint16_t dealloc_pal[LIBNDS_GL_MAX_TEXTURES + 1];
	libnds_gl_texture tex[LIBNDS_GL_MAX_TEXTURES];
	libnds_gl_palette pal[LIBNDS_GL_MAX_TEXTURES];
	uint32_t pal_off;     /* where the palette allocator starts in store */
	uint32_t pad2;
	uint64_t store[];     /* the texture allocator, then the palette allocator */
} libnds_gl;

#define LIBNDS_GL_ROUND8(n) (((n) + 7u) & ~(size_t)7u)
#define LIBNDS_GL_BYTES(tex_nodes, pal_nodes) (sizeof(libnds_gl) + \
	LIBNDS_GL_ROUND8(LIBNDS_VRAM_BLOCK_BYTES(tex_nodes)) + LIBNDS_VRAM_BLOCK_BYTES(pal_nodes))
/* Bytes of the records libnds mallocs on the ARM9. */
#define LIBNDS_GL_ARM_TEXTURE 24u /* gl_texture_data */
#define LIBNDS_GL_ARM_PALETTE 16u /* gl_palette_data */

/* glInit's part (_glInitGlobals in devkitPro): both allocators empty,
 * names from 1, banks as regs says, nothing locked. */
void libnds_gl_init(libnds_gl *g, int variant, int fixed, uint16_t tex_nodes, uint16_t pal_nodes,
	const libnds_vb_regs *regs);
libnds_vram_block *libnds_gl_tex_alloc(libnds_gl *g);
libnds_vram_block *libnds_gl_pal_alloc(libnds_gl *g);
const libnds_vram_block *libnds_gl_tex_alloc_c(const libnds_gl *g);
const libnds_vram_block *libnds_gl_pal_alloc_c(const libnds_gl *g);

/* A bank register written (vramSetBankX): bank 0-8 = A-I. */
void libnds_gl_vramcnt(libnds_gl *g, unsigned bank, uint8_t value);
/* glLockVRAMBank / glUnlockVRAMBank, by bank 0-8 rather than address:
 * 1, or 0 for H and I. */
int libnds_gl_lock_bank(libnds_gl *g, unsigned bank, int locked);

/* glGenTextures / glDeleteTextures: 1, or 0. */
int libnds_gl_gen_textures(libnds_gl *g, int n, int *names);
int libnds_gl_delete_textures(libnds_gl *g, int n, int *names);
void libnds_gl_bind_texture(libnds_gl *g, int name);
/* glTexParameter(0, param). */
void libnds_gl_tex_parameter(libnds_gl *g, uint32_t param);
/* glTexImage2D(0, 0, type, size_x, size_y, 0, 0, NULL) on the bound texture,
 * sizes as TEXTURE_SIZE_8 (0) .. TEXTURE_SIZE_1024 (7). 1, or 0 with
 * fail set. No data is copied (the texture pointer is NULL). */
int libnds_gl_tex_image_2d(libnds_gl *g, unsigned type, unsigned size_x, unsigned size_y);
/* The same with the byte size given (vramsim's plain-byte requests; the
 * size fields of texFormat are 0). */
int libnds_gl_tex_image_bytes(libnds_gl *g, unsigned type, uint32_t bytes);
/* glColorTableEXT(0, 0, width, 0, 0, NULL) on the bound texture: 1, or 0
 * with fail set (devkitPro's is void; the model says what happened). */
int libnds_gl_color_table(libnds_gl *g, uint32_t width);
/* glAssignColorTable(0, name): the bound texture shares name's palette. */
int libnds_gl_assign_color_table(libnds_gl *g, int name);
void libnds_gl_reset_textures(libnds_gl *g);

/* The record of a name, or NULL when it has none. */
const libnds_gl_texture *libnds_gl_texture_of(const libnds_gl *g, int name);
const libnds_gl_palette *libnds_gl_palette_of(const libnds_gl *g, uint32_t pal_name);
/* Bytes the real code would hold in malloc'd memory for textures (with
 * the texture allocator) or for palettes (with the palette allocator). */
uint32_t libnds_gl_ram_tex(const libnds_gl *g);
uint32_t libnds_gl_ram_pal(const libnds_gl *g);

#endif
