/* SPDX-License-Identifier: Zlib */
/* ds_banks.h - which DS VRAM bank serves which memory, and where.
 *
 * GBATEK "DS Memory Control - VRAM" tabulates, for each bank A-I, the uses
 * its VRAMCNT register can give it (MST, bits 0-2) and where the bank then
 * lies (OFS, bits 3-4). An arena kind (and, for the 2D kinds, an engine) is
 * one use: these functions say which MST a bank takes for it, which bytes of
 * the arena the bank then covers, and what a VRAMCNT value means.
 */
#ifndef VS_VRAM_DS_BANKS_H
#define VS_VRAM_DS_BANKS_H

#include <stddef.h>
#include <stdint.h>

#include "vramsim/arena.h"

/* Bank sizes in bytes, A-I. */
uint32_t vs_ds_bank_size(unsigned bank);

/* The arena bytes [*off, *off + *len) that bank covers when mapped with
 * offset ofs for the use of decl d (its kind and ds_engine). Returns 0, or
 * -1 with a reason in why when the bank cannot serve that use or ofs is not
 * one the hardware places it by (why may be NULL). */
int vs_ds_bank_range(const vs_arena_decl *d, unsigned bank, unsigned ofs, uint32_t *off, uint32_t *len,
	char *why, size_t whylen);

/* The VRAMCNT value mapping bank with offset ofs for decl d's use. */
uint8_t vs_ds_bank_vramcnt(const vs_arena_decl *d, unsigned bank, unsigned ofs);

/* Whether VRAMCNT value v of bank maps it for decl d's use; its OFS then
 * in *ofs. Bits the bank does not have (MST bit 2 of A, B, H, I) are
 * ignored, as the hardware ignores them. */
int vs_ds_vramcnt_maps(const vs_arena_decl *d, unsigned bank, uint8_t v, unsigned *ofs);

/* Calls fn for each byte range of d's arena that no mapped bank covers. */
void vs_ds_unmapped(const vs_arena_decl *d, void (*fn)(void *ud, uint32_t off, uint32_t len), void *ud);

/* The bank that maps arena offset off of d, or -1 when none does. */
int vs_ds_bank_at(const vs_arena_decl *d, uint32_t off);

/* Whether d's kind is one the bank table places (ds-tex, ds-pltt and the
 * 2D kinds). */
int vs_ds_banked(vs_arena_kind kind);

#endif
