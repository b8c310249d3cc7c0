/* SPDX-License-Identifier: Zlib */
/* strat_libnds.h - internal: what the libnds-tex and libnds-pltt adapters
 * share (options, bank registers from the arena, status, walk, dump). */
#ifndef VS_SIM_STRAT_LIBNDS_H
#define VS_SIM_STRAT_LIBNDS_H

#include <stddef.h>
#include <stdint.h>

#include "vramsim/alloc/libnds_gl.h"
#include "vramsim/strategy.h"

/* Reads variant=devkitpro|blocksds and fixed=yes|no (unknown keys refused
 * against known, which must hold both). 0, or -1 with err. */
int vs_libnds_options(const char *options, const char *const *known, int *variant, int *fixed, char *err,
	size_t errlen);
/* VRAMCNT as the arena declares the banks: a bank at slot s is enabled with
 * MST 3 and OFS s (F and G: palette slots 0, 1, 4, 5 as OFS 0-3), others 0. */
void vs_libnds_regs(const vs_arena_decl *a, libnds_vb_regs *regs);
/* The vs_status of gl's last failure. */
int vs_libnds_status(const libnds_gl *g);
/* The free blocks of one side (pal: the palette allocator) as arena
 * offsets: textures at LCDC address - VRAM_A (bank A-D = slot 0-3, as
 * libnds assumes), palettes where E, F, G sit by their OFS; the parts in
 * banks not mapped for the use are left out. */
void vs_libnds_walk(const libnds_gl *g, int pal, vs_extent_fn fn, void *ud);
/* Registers, locks and every block in address order. pal: the E-G side. */
void vs_libnds_dump(const libnds_gl *g, const libnds_vram_block *vb, uint32_t base, int pal, vs_print_fn print,
	void *ud);

/* The callbacks both tables share: a name deleted (glDeleteTextures, its
 * palette reference with it), the allocators reset (glResetTextures), a
 * VRAMCNT write and a bank lock (glLockVRAMBank), read at each call. */
int vs_libnds_free(void *st, const vs_placement *pl);
void vs_libnds_reset(void *st);
void vs_libnds_vramcnt(void *st, unsigned bank, uint8_t value);
void vs_libnds_lock(void *st, unsigned bank, int locked);

#endif
