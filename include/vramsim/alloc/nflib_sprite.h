/* SPDX-License-Identifier: Zlib */
/* nflib_sprite.h - NightFox's Lib's sprite graphics VRAM allocator
 * (NF_VramSpriteGfx, NF_FreeSpriteGfx, NF_VramSpriteGfxDefrag in
 * nf_sprite256.c) and its 3D sprite texture twin (NF_Vram3dSpriteGfx,
 * NF_Free3dSpriteGfx, NF_Vram3dSpriteGfxDefrag in nf_sprite3d.c), as
 * knightfox75/nds_nflib d1d9eba places, defects included.
 *
 * The books are NF_TYPE_SPRVRAM_INFO (NF_TYPE_TEXVRAM_INFO): free bytes,
 * the bump pointer next, a table of freed blocks pos[]/size[] with its
 * count deleted, the fragmented bytes (sum of freed blocks) and inarow (bytes
 * left above next). An allocation takes the first freed block of exactly
 * its size, else the first larger one (split: the rest stays in the table),
 * else bumps at next; freed blocks are never merged. A free appends to the
 * table and compacts everything (in graphics id order, from the base) when
 * fragmented >= inarow / 2.
 *
 * The table has 128 entries (256 for 3D) but nothing bounds deleted by it:
 * past the end the library writes over the fields that follow (size[0..],
 * then deleted itself, fragmented, inarow, max). The model keeps the struct
 * as the words it is laid out in and follows those writes; an access past
 * the struct's last word (into whatever the linker put next) marks it
 * broken, and it refuses every call until init.
 *
 * NF_Error halts the DS; the model returns failure instead and leaves its
 * books as they were before the call.
 *
 * Freestanding: no host headers, all state in the caller's struct.
 */
#ifndef VRAMSIM_ALLOC_NFLIB_SPRITE_H
#define VRAMSIM_ALLOC_NFLIB_SPRITE_H

#include <stdbool.h>
#include <stdint.h>

#define NFLIB_SPRITE_IDS 128u      /* 2D: NF_SPR256VRAM[screen][0..127], pos[128], size[128] */
#define NFLIB_SPRITE3D_IDS 256u    /* 3D: NF_3DSPRITES */
#define NFLIB_SPRITE_IDS_MAX 256u
#define NFLIB_WORDS_MAX (7u + 2u * NFLIB_SPRITE_IDS_MAX)

#define NFLIB_BASE_MAIN 0x06400000u  /* bank B as main OBJ */
#define NFLIB_BASE_SUB 0x06600000u   /* bank D as sub OBJ */
#define NFLIB_BASE_3D 0x06820000u    /* bank B in LCDC: texture slot 1 */
#define NFLIB_3D_BYTES 131072u

enum {
	NFLIB_3D = 1u << 0,          /* the 3D variant: 256 ids, no max field, its inverted test */
	NFLIB_FIX_REUSE = 1u << 1,   /* 3D: `if (id == 255)` as in 2D, and a sentinel no index can be */
	NFLIB_FIX_TABLE = 1u << 2,   /* compact instead of writing past the freed-block table */
	NFLIB_FIX_THRESHOLD = 1u << 3/* compact when fragmented > free / 2, as the header says */
};
#define NFLIB_FIX_ALL (NFLIB_FIX_REUSE | NFLIB_FIX_TABLE | NFLIB_FIX_THRESHOLD)

/* Results of nflib_sprite_alloc / _free besides an address. */
enum {
	NFLIB_ERR_SPACE = -1,  /* NF_Error(113): not enough free or contiguous VRAM */
	NFLIB_ERR_ID = -2,     /* NF_Error(106/109/110): id out of range, in use, or not in use */
	NFLIB_ERR_BROKEN = -3  /* the books were written past their struct: no model */
};

typedef struct nflib_sprite {
	uint32_t w[NFLIB_WORDS_MAX]; /* the INFO struct's words: free, next, last, pos[], size[], deleted, ... */
	uint32_t addr[NFLIB_SPRITE_IDS_MAX], size[NFLIB_SPRITE_IDS_MAX]; /* NF_SPR256VRAM / NF_TEX256VRAM */
	uint8_t inuse[NFLIB_SPRITE_IDS_MAX];
	uint32_t base;   /* next's reset value */
	uint32_t nwords; /* words in the struct */
	uint16_t ids;    /* 128 or 256 */
	uint8_t flags;   /* NFLIB_* */
	uint8_t broken;
	uint32_t defrags; /* compactions so far */
} nflib_sprite;

/* NF_InitSpriteSys (max_bytes 65536 or 131072, base NFLIB_BASE_MAIN or _SUB)
 * or, with NFLIB_3D, NF_Init3dSpriteSys (base NFLIB_BASE_3D, 131072). */
void nflib_sprite_init(nflib_sprite *m, uint32_t base, uint32_t max_bytes, unsigned flags);
/* NF_VramSpriteGfx(vram = id) of gfxsize bytes: the address, or an
 * NFLIB_ERR_* (negative, as int64 to keep addresses whole). */
int64_t nflib_sprite_alloc(nflib_sprite *m, uint16_t id, uint32_t gfxsize);
/* NF_FreeSpriteGfx(id): 1 when it compacted (every live graphic may have
 * moved: read addr[]), 0 when not, or an NFLIB_ERR_*. */
int nflib_sprite_free(nflib_sprite *m, uint16_t id);
/* NF_VramSpriteGfxDefrag. */
void nflib_sprite_defrag(nflib_sprite *m);

/* The fields, as the library reads them (deleted: the u16 in its word). */
int32_t nflib_sprite_free_bytes(const nflib_sprite *m);
uint32_t nflib_sprite_next(const nflib_sprite *m);
uint16_t nflib_sprite_deleted(const nflib_sprite *m);
int32_t nflib_sprite_fragmented(const nflib_sprite *m);
int32_t nflib_sprite_inarow(const nflib_sprite *m);
/* Entry k of the freed-block table (k below the table's size). */
uint32_t nflib_sprite_pos(const nflib_sprite *m, uint32_t k);
uint32_t nflib_sprite_size(const nflib_sprite *m, uint32_t k);

#endif
