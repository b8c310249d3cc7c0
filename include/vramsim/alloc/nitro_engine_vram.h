/* SPDX-License-Identifier: Zlib */
/* nitro_engine_vram.h - what Nitro Engine's texture and palette code does
 * with its chunk lists (NETexture.c, NEPalette.c, NEGeneral.c at
 * AntonioND/nitro-engine 4c38c6850c022eb687a88fa7243261b48cd4eba0).
 *
 * Textures: one list over VRAM_A..VRAM_E (texture slots 0-3, 512 KiB).
 * NE_TextureSystemReset allocates and locks each bank A-D it is not given,
 * after dropping C and D whenever the engine is not in single-3D mode, which
 * includes the reset NE_Init3D itself makes (the mode is still
 * "uninitialized" then). Normal textures come from the end of the list;
 * 4x4-compressed ones take texel data in slot 0 (index data in the first
 * half of slot 1) or slot 2 (second half), both at addresses tied by the
 * hardware, found by alternating searches. A table of max_textures slots
 * (NE_Texture) bounds the live textures.
 *
 * Palettes: one list over VRAM_E (palette slots 0-3, 64 KiB), first fit
 * from the start; a table of max_palettes slots (NE_PalInfo).
 *
 * Addresses inside are the console's (VRAM_A = 0x06800000, VRAM_E =
 * 0x06880000) so the chunk list compares them as the real code does; the
 * functions below take and return offsets from VRAM_A (textures) or
 * VRAM_E (palettes), as the texture and palette hardware sees them.
 *
 * Freestanding: no host headers, state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_NITRO_ENGINE_VRAM_H
#define VRAMSIM_ALLOC_NITRO_ENGINE_VRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "vramsim/alloc/nitro_engine_alloc.h"

#define NE_VRAM_A 0x06800000u
#define NE_VRAM_B 0x06820000u
#define NE_VRAM_C 0x06840000u
#define NE_VRAM_D 0x06860000u
#define NE_VRAM_E 0x06880000u
#define NE_VRAM_F 0x06890000u

#define NE_VRAM_DEFAULT_TEXTURES 128u /* NE_DEFAULT_TEXTURES */
#define NE_VRAM_DEFAULT_PALETTES 64u  /* NE_DEFAULT_PALETTES */
/* The model's limit on max_textures / max_palettes (the chunk pool is sized
 * for it: see nitro_engine_alloc.h). */
#define NE_VRAM_MAX_TEXTURES 512u
#define NE_VRAM_MAX_PALETTES 512u
#define NE_VRAM_NO_SLOT 0xFFFFu

/* NE_VRAMBankFlags */
enum { NE_VRAM_BANK_A = 1, NE_VRAM_BANK_B = 2, NE_VRAM_BANK_C = 4, NE_VRAM_BANK_D = 8 };

/* What NE_CurrentExecutionMode() returns while NE_TextureSystemReset runs. */
enum {
	NE_VRAM_MODE_INIT = 0,   /* inside NE_Init3D / NE_InitDual3D*: NE_ModeUninitialized */
	NE_VRAM_MODE_SINGLE = 1, /* a later reset in single-3D mode */
	NE_VRAM_MODE_DUAL = 2    /* a later reset in any dual-3D mode */
};

/* The intended algorithm where the code is defective (bits of `fix`). */
enum {
	NE_VRAM_FIX_MODE = 1,  /* drop C and D only in dual-3D mode (NETexture.c:757) */
	NE_VRAM_FIX_SLOT2 = 2, /* slot-2 retry searches up to VRAM_D, not VRAM_B (:466) */
	NE_VRAM_FIX_INDEX = 4  /* slot-1 searches use the size that will be allocated (:402, :450) */
};
#define NE_VRAM_FIX_ALL 7u

/* Why the last load failed. */
enum {
	NE_VRAM_OK = 0,
	NE_VRAM_ERR_ARGS,   /* size not accepted (width not a power of two, 0 bytes, 0 colours) */
	NE_VRAM_ERR_SLOTS,  /* every texture (palette) slot is taken */
	NE_VRAM_ERR_SPACE,  /* no place found */
	NE_VRAM_ERR_CHUNKS  /* the chunk pool ran out (malloc failed) */
};

/* NE_TextureFormat, which numbers as TEXIMAGE_PARAM (NE_RGB5, 8, is
 * NE_A1RGB5 in memory). */
enum { NE_VRAM_TEX4X4 = 5 };

typedef struct ne_vram_texinfo {
	uint32_t address; /* texel data (console address); 0: the slot is free */
	uint32_t size;    /* texel bytes as asked (4x4: size02) */
	uint8_t is4x4;
} ne_vram_texinfo;

typedef struct ne_vram_tex {
	ne_alloc list;
	uint16_t max;      /* NE_MAX_TEXTURES */
	uint8_t banks;     /* the banks left to textures after the reset */
	uint8_t fix;
	uint8_t fail;      /* NE_VRAM_ERR_* of the last load */
	ne_vram_texinfo tex[NE_VRAM_MAX_TEXTURES];
} ne_vram_tex;

typedef struct ne_vram_pltt {
	ne_alloc list;
	uint16_t max;      /* NE_MAX_PALETTES */
	uint8_t fail;
	uint32_t pointer[NE_VRAM_MAX_PALETTES]; /* console address; 0: free */
} ne_vram_pltt;

/* NE_TextureSystemReset(max_textures, -, bank_flags) in execution mode
 * `mode`. max_textures < 1 takes the default. 0, or -1 when max_textures is
 * over NE_VRAM_MAX_TEXTURES (the model's limit) or the chunk pool is short. */
int ne_vram_tex_reset(ne_vram_tex *t, int max_textures, unsigned bank_flags, int mode, unsigned fix, uint16_t cap);
/* Texture bytes NE_MaterialTexLoad asks for (format 1-8 as NE_TextureFormat,
 * 4x4: the slot 0/2 part), 0 when it refuses the size. */
uint32_t ne_vram_tex_bytes(unsigned format, int width, int height);
/* NE_MaterialTexLoad / NE_MaterialTex4x4Load on a material with no texture:
 * the texture slot taken, or NE_VRAM_NO_SLOT (why in t->fail). */
uint16_t ne_vram_tex_load(ne_vram_tex *t, unsigned format, int width, int height);
/* The same for size bytes already known (normal: NE_AllocFromEnd; 4x4: the
 * texel size, a multiple of 16). */
uint16_t ne_vram_tex_load_bytes(ne_vram_tex *t, uint32_t size, bool is4x4);
/* ne_texture_delete of a texture one material uses: 0, -1 if the slot is free. */
int ne_vram_tex_delete(ne_vram_tex *t, uint16_t slot);
/* Texel offset from VRAM_A of a live slot. */
uint32_t ne_vram_tex_offset(const ne_vram_tex *t, uint16_t slot);
/* Offset of the slot-1 index data tied to texel offset off (slot 0 or 2). */
uint32_t ne_vram_tex_index_offset(uint32_t off);

/* NE_PaletteSystemReset(max_palettes). 0, or -1 as for textures. */
int ne_vram_pltt_reset(ne_vram_pltt *p, int max_palettes, uint16_t cap);
/* NE_PaletteLoad(pal, -, numcolor, -) for a palette object with none
 * loaded: the slot, or NE_VRAM_NO_SLOT (why in p->fail). */
uint16_t ne_vram_pltt_load(ne_vram_pltt *p, uint16_t numcolor);
/* NE_PaletteDelete: 0, -1 if the slot is free. */
int ne_vram_pltt_delete(ne_vram_pltt *p, uint16_t slot);
/* Offset from VRAM_E of a live slot. */
uint32_t ne_vram_pltt_offset(const ne_vram_pltt *p, uint16_t slot);

#endif
