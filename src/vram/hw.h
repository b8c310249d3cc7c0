/* SPDX-License-Identifier: Zlib */
/* hw.h - the hardware's placement rules, checked on every placement.
 *
 * Each arena kind has a rule function. It answers whether data of a given
 * request may live at [off, off+len) of the arena, and names the rule when
 * it may not. The rules are facts from GBATEK (see docs/hardware.md).
 */
#ifndef VRAMSIM_HW_H
#define VRAMSIM_HW_H

#include <stddef.h>
#include <stdint.h>

#include "vram/arena.h"
#include "vram/request.h"

/* Where an allocation's bytes lie: rows of row_bytes, each stride bytes
 * after the one before it. A sprite in a 2D-mapped OBJ arena is a rectangle
 * of the 32x32 tile matrix: one row per 8 pixel rows, 1024 bytes (32 tiles)
 * apart. Everything else is one contiguous row (stride 0). */
typedef struct vs_footprint {
	uint32_t offset, row_bytes, rows, stride;
} vs_footprint;

/* The footprint of data of request rq placed at [off, off+len). */
void vs_hw_footprint(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len, vs_footprint *fp);
/* One past the footprint's last byte (64-bit: it may lie past the arena). */
uint64_t vs_hw_footprint_end(const vs_footprint *fp);
/* Arena offset of byte i of the data, counted row by row. */
uint32_t vs_hw_footprint_at(const vs_footprint *fp, uint32_t i);

/* Returns 0 when the placement is legal, else -1 with the broken rule
 * described in why (why may be NULL with whylen 0 when no message is
 * wanted). */
int vs_hw_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	char *why, size_t whylen);

/* Extra extents the hardware ties to a placement (DS 4x4 palette-index data
 * in slot 1). Returns how many were written to out (at most max). */
int vs_hw_tied(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len,
	uint32_t *out_off, uint32_t *out_len, int max);

/* Whether any legal place of len bytes exists among the free units. Used to
 * tell a rule failure from fragmentation; may be slow. */
int vs_hw_any_legal(const vs_arena *a, const vs_request *rq, uint32_t len);
/* The free bytes where some legal place of len bytes for rq would lie,
 * were the rest free too: under rq's size, no amount of moving what is
 * there would make room within the rules (the 1D boundary's reach, a DS
 * texture slot no bank maps). RAM: all its free bytes. DS textures and
 * 4-colour palettes: the free bytes of their windows (mapped slot runs
 * long enough, slots 0 and 2 for 4x4 texel data, the first 64 KiB); other
 * requests: slow, one rule check per unit of the arena. */
uint64_t vs_hw_legal_free(const vs_arena *a, const vs_request *rq, uint32_t len);

/* Per-kind rule functions (hw_gba.c, hw_ds.c); vs_hw_check dispatches. */
int vs_hw_gba_obj_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len, char *why, size_t whylen);
int vs_hw_gba_bg_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len, char *why, size_t whylen);
int vs_hw_ds_tex_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len, char *why, size_t whylen);
int vs_hw_ds_pltt_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len, char *why, size_t whylen);
int vs_hw_ds_obj_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len, char *why, size_t whylen);
int vs_hw_ds_bg_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len, char *why, size_t whylen);
int vs_hw_ds_extpal_check(const vs_arena_decl *a, const vs_request *rq, uint32_t off, uint32_t len, char *why, size_t whylen);
/* A ds-obj sprite whose rows lie apart (2D tile mapping, a bitmap sprite
 * in a 2D bitmap matrix): 1 and its rows; else 0. */
int vs_hw_ds_obj_rows(const vs_arena_decl *a, const vs_request *rq, uint32_t *row_bytes, uint32_t *rows,
	uint32_t *stride);
/* DS palette slot s (0-5, 16 KiB each) has a bank mapped: E covers slots
 * 0-3 from its slot, F and G one slot each (0, 1, 4 or 5). */
int vs_hw_ds_pltt_slot_mapped(const vs_arena_decl *a, unsigned slot);
/* DS texture slot s (0-3) has one of banks A-D mapped. */
int vs_hw_ds_tex_slot_mapped(const vs_arena_decl *a, unsigned slot);
/* Hardware-reserved units of an arena (bitmap-mode OBJ half, memory no DS
 * bank maps): calls mark(ud, off, len) for each reserved range. */
void vs_hw_reserved(const vs_arena_decl *a, void (*mark)(void *ud, uint32_t off, uint32_t len), void *ud);

#endif
