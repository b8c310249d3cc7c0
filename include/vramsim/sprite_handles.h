/* SPDX-License-Identifier: Zlib */
/* sprite_handles.h - header-only sprite handles for a GBA game whose OBJ
 * allocator moves sprites (gba-obj-compact, vramsim/alloc/gba_obj_compact.h).
 *
 * A sprite holds a handle (the compact slot), not a tile number: the slot
 * stays the same when gba_obj_compact slides the sprite's tiles down. The
 * game keeps a small table of which OAM entries draw each handle; after
 * every alloc and every frame call it applies the moves the allocator
 * listed: DMA3 copies each sprite's tiles inside VRAM (in the listed order:
 * each goes to a lower address, so DMA's increasing addresses never read a
 * word already overwritten), and the OAM tile number (attribute 2, bits 0-9)
 * of every entry drawing a moved handle is rewritten.
 *
 *   static gba_obj_compact objs;
 *   static vs_spr_handles hs;
 *   gba_obj_compact_init(&objs, 0, 256);    // 512 in bitmap modes
 *   vs_spr_init(&hs);
 *   h = gba_obj_compact_alloc(&objs, 16, 1); // in VBlank: it may move others
 *   vs_spr_apply(&hs, &objs, oam);           // before uploading h's tiles
 *   vs_spr_upload(&objs, h, gfx);            // DMA3 from ROM
 *   vs_spr_bind(&hs, 5, h);                  // OAM entry 5 draws h
 *   ... each VBlank:
 *   gba_obj_compact_frame(&objs);
 *   vs_spr_apply(&hs, &objs, oam);
 *
 * oam is the OAM (VS_SPR_OAM, written in VBlank) or the game's shadow copy
 * of it, 128 entries of four halfwords. The moves and the rewritten tile
 * numbers must reach the screen together: apply them in VBlank, or to the
 * shadow OAM that is copied in the same VBlank.
 *
 * Freestanding C99 (only <stdint.h>); the table is 640 bytes.
 */
#ifndef VRAMSIM_SPRITE_HANDLES_H
#define VRAMSIM_SPRITE_HANDLES_H

#include <stdint.h>

#include "vramsim/alloc/gba_obj_compact.h"

#define VS_SPR_OBJ_VRAM 0x06010000u /* OBJ tile 0 (tile numbers count from here) */
#define VS_SPR_OAM ((volatile uint16_t *)0x07000000)
#define VS_SPR_OAM_ENTRIES 128u
#define VS_SPR_NO_OAM 0xFFu

/* DMA3: source, destination, count | control. */
#define VS_SPR_DMA3SAD (*(volatile uint32_t *)0x040000D4)
#define VS_SPR_DMA3DAD (*(volatile uint32_t *)0x040000D8)
#define VS_SPR_DMA3CNT (*(volatile uint32_t *)0x040000DC)
#define VS_SPR_DMA_ON_32 0x84000000u /* enable, 32-bit units, both addresses increasing, now */

typedef struct vs_spr_handles {
	uint8_t first[GBA_OBJ_COMPACT_MAX];  /* first OAM entry drawing handle h, or VS_SPR_NO_OAM */
	uint8_t next[VS_SPR_OAM_ENTRIES];    /* the next entry drawing the same handle */
	uint16_t handle[VS_SPR_OAM_ENTRIES]; /* the handle each entry draws, or GBA_OBJ_COMPACT_NONE */
} vs_spr_handles;

/* Copies words 32-bit words by DMA3; the CPU waits until it is done. */
static inline void vs_spr_dma3(uint32_t dst, uint32_t src, uint32_t words)
{
	VS_SPR_DMA3SAD = src;
	VS_SPR_DMA3DAD = dst;
	VS_SPR_DMA3CNT = VS_SPR_DMA_ON_32 | words;
}

/* Carries out n moves inside OBJ VRAM, in order. Returns the words copied. */
static inline uint32_t vs_spr_dma_moves(const gba_obj_compact_move *mv, uint16_t n)
{
	uint32_t words = 0, i;

	for (i = 0; i < n; i++) {
		vs_spr_dma3(VS_SPR_OBJ_VRAM + mv[i].to * 32u, VS_SPR_OBJ_VRAM + mv[i].from * 32u, mv[i].tiles * 8u);
		words += mv[i].tiles * 8u;
	}
	return words;
}

static inline void vs_spr_init(vs_spr_handles *t)
{
	uint32_t i;

	for (i = 0; i < GBA_OBJ_COMPACT_MAX; i++)
		t->first[i] = VS_SPR_NO_OAM;
	for (i = 0; i < VS_SPR_OAM_ENTRIES; i++) {
		t->next[i] = VS_SPR_NO_OAM;
		t->handle[i] = GBA_OBJ_COMPACT_NONE;
	}
}

/* OAM entry e no longer draws a handle. */
static inline void vs_spr_unbind(vs_spr_handles *t, uint32_t e)
{
	uint16_t h;
	uint8_t *p;

	if (e >= VS_SPR_OAM_ENTRIES || (h = t->handle[e]) == GBA_OBJ_COMPACT_NONE)
		return;
	for (p = &t->first[h]; *p != e && *p != VS_SPR_NO_OAM; p = &t->next[*p])
		;
	if (*p == e)
		*p = t->next[e];
	t->next[e] = VS_SPR_NO_OAM;
	t->handle[e] = GBA_OBJ_COMPACT_NONE;
}

/* OAM entry e draws handle h from now on (the game writes its attributes). */
static inline void vs_spr_bind(vs_spr_handles *t, uint32_t e, uint16_t h)
{
	if (e >= VS_SPR_OAM_ENTRIES || h >= GBA_OBJ_COMPACT_MAX)
		return;
	vs_spr_unbind(t, e);
	t->handle[e] = h;
	t->next[e] = t->first[h];
	t->first[h] = (uint8_t)e;
}

/* Rewrites the tile number of every OAM entry drawing a moved handle. */
static inline void vs_spr_retile(const vs_spr_handles *t, const gba_obj_compact_move *mv, uint16_t n,
	volatile uint16_t *oam)
{
	uint32_t i, e;

	for (i = 0; i < n; i++)
		for (e = t->first[mv[i].slot]; e != VS_SPR_NO_OAM; e = t->next[e])
			oam[e * 4u + 2u] = (uint16_t)((oam[e * 4u + 2u] & ~0x3FFu) | (mv[i].to & 0x3FFu));
}

/* Applies the moves of m's last alloc, free or frame call: the tiles by
 * DMA3, then the OAM tile numbers. Returns the words copied. */
static inline uint32_t vs_spr_apply(const vs_spr_handles *t, const gba_obj_compact *m, volatile uint16_t *oam)
{
	uint16_t n;
	const gba_obj_compact_move *mv = gba_obj_compact_moves(m, &n);
	uint32_t words = vs_spr_dma_moves(mv, n);

	vs_spr_retile(t, mv, n, oam);
	return words;
}

/* Uploads handle h's graphics (its whole size, 32 bytes a tile, from a
 * word-aligned address: ROM, EWRAM or IWRAM) by DMA3. */
static inline void vs_spr_upload(const gba_obj_compact *m, uint16_t h, const void *gfx)
{
	uint16_t start = gba_obj_compact_start(m, h);

	if (start != GBA_OBJ_COMPACT_NONE)
		vs_spr_dma3(VS_SPR_OBJ_VRAM + start * 32u, (uint32_t)(uintptr_t)gfx, gba_obj_compact_tiles(m, h) * 8u);
}

#endif
