/* SPDX-License-Identifier: Zlib */
/* arena.c - arena models: bytes, ownership map (ownmap.c), hardware writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler_hints.h"
#include "base/grow.h"
#include "vram/arena.h"
#include "vram/ds_banks.h"
#include "vram/hw.h"
#include "ownmap_int.h"

/* Most units an arena kept per unit may have: 64 bitmap words. GBA OBJ
 * VRAM is 1024 tiles, BG VRAM 2048 (2560 in the bitmap modes). */
#define UNITS_FORM_MAX 4096u

static const char *const kind_names[VS_ARENA_KIND_COUNT] = {
	"gba-obj", "gba-bg", "ds-tex", "ds-pltt", "ram",
	"ds-obj", "ds-bg", "ds-bg-extpal", "ds-obj-extpal"
};

const char *vs_arena_kind_name(vs_arena_kind kind)
{
	return (unsigned)kind < VS_ARENA_KIND_COUNT ? kind_names[kind] : "?";
}

int vs_arena_kind_parse(const char *s, vs_arena_kind *out)
{
	int k;

	for (k = 0; k < VS_ARENA_KIND_COUNT; k++) {
		if (strcmp(s, kind_names[k]) == 0) {
			*out = (vs_arena_kind)k;
			return 0;
		}
	}
	return -1;
}

/* The 2D kinds' size, base and default banks per engine (A, B): engine A
 * OBJ gets B at 0x06400000 (as NightFox's Lib maps it), BG gets A at
 * 0x06000000, the extended palettes E and F; engine B the banks only it can
 * have: D, C, H, I. */
static const struct ds_2d_default {
	uint32_t size[2], base[2];
	uint8_t bank[2];
} ds_2d_defaults[] = {
	[VS_ARENA_DS_OBJ] = { { 0x40000, 0x20000 }, { 0x06400000, 0x06600000 }, { 1, 3 } },
	[VS_ARENA_DS_BG] = { { 0x80000, 0x20000 }, { 0x06000000, 0x06200000 }, { 0, 2 } },
	[VS_ARENA_DS_BG_EXTPAL] = { { 0x8000, 0x8000 }, { 0, 0 }, { 4, 7 } },
	[VS_ARENA_DS_OBJ_EXTPAL] = { { 0x2000, 0x2000 }, { 0, 0 }, { 5, 8 } },
};

void vs_arena_decl_engine(vs_arena_decl *d, unsigned engine)
{
	const struct ds_2d_default *t;

	if (!(VS_ARENA_BIT(d->kind) & VS_ARENA_ANY_DS_2D) || engine > VS_DS_ENGINE_B)
		return;
	t = &ds_2d_defaults[d->kind];
	d->ds_engine = (uint8_t)engine;
	d->size = t->size[engine];
	d->base = t->base[engine];
	memset(d->ds_bank_slot, VS_BANK_UNMAPPED, sizeof d->ds_bank_slot);
	d->ds_bank_slot[t->bank[engine]] = 0;
}

void vs_arena_decl_default(vs_arena_decl *d, vs_arena_kind kind)
{
	memset(d, 0, sizeof *d);
	memset(d->ds_bank_slot, VS_BANK_UNMAPPED, sizeof d->ds_bank_slot);
	d->kind = kind;
	switch (kind) {
	case VS_ARENA_GBA_OBJ:
		d->size = 0x8000;
		d->base = 0x06010000;
		d->unit = 32;
		break;
	case VS_ARENA_GBA_BG:
		d->size = 0x10000;
		d->base = 0x06000000;
		d->unit = 32;
		break;
	case VS_ARENA_DS_TEX:
		d->size = 0x80000;
		d->unit = 8;
		/* A-D as texture slots 0-3 */
		d->ds_bank_slot[0] = 0;
		d->ds_bank_slot[1] = 1;
		d->ds_bank_slot[2] = 2;
		d->ds_bank_slot[3] = 3;
		break;
	case VS_ARENA_DS_PLTT:
		d->size = 0x18000;
		d->unit = 8;
		d->ds_bank_slot[4] = 0; /* E as palette slots 0-3 */
		break;
	case VS_ARENA_DS_OBJ:
	case VS_ARENA_DS_BG:
		d->unit = 32;
		d->ds_obj_boundary = 1;
		d->ds_obj_bmp = VS_DS_BMP_1D_128;
		vs_arena_decl_engine(d, VS_DS_ENGINE_A);
		break;
	case VS_ARENA_DS_BG_EXTPAL:
	case VS_ARENA_DS_OBJ_EXTPAL:
		d->unit = 512; /* one 256-colour palette */
		vs_arena_decl_engine(d, VS_DS_ENGINE_A);
		break;
	case VS_ARENA_RAM:
	default:
		d->unit = 1;
		break;
	}
}

static void mark_reserved(void *ud, uint32_t off, uint32_t len)
{
	/* a cleared map has room for the few ranges the hardware reserves */
	(void)vs_arena_mark(ud, off, len, VS_OWNER_HW, VS_UNIT_RESERVED);
}

static int count_reserved(void *ud, const vs_own_run *run)
{
	if (run->kind == VS_UNIT_RESERVED)
		*(uint32_t *)ud += run->count;
	return 0;
}

static void reset_map(vs_arena *a)
{
	uint32_t reserved = 0;

	vs_ownmap_clear(a->own);
	vs_hw_reserved(&a->decl, mark_reserved, a);
	vs_ownmap_walk(a->own, 0, a->nunits, 0, count_reserved, &reserved);
	a->usable_bytes = a->decl.size - reserved * a->decl.unit;
}

/* ---- a DS bank remapped ------------------------------------------------- */

typedef struct remap {
	vs_arena *a;
	vs_own_run *runs;   /* the runs of one range, collected before marking */
	size_t n, cap;
	int oom;
} remap;

static int collect_run(void *ud, const vs_own_run *run)
{
	remap *m = ud;

	if (vs_grow(&m->runs, sizeof *m->runs, &m->cap, m->n + 1, 16)) {
		m->oom = 1;
		return 1;
	}
	m->runs[m->n++] = *run;
	return 0;
}

static void collect(remap *m, uint32_t off, uint32_t len)
{
	uint32_t unit = m->a->decl.unit;

	m->n = 0;
	(void)vs_arena_runs(m->a, off / unit, len / unit, collect_run, m);
}

/* Memory that was unmapped and is mapped now becomes free. */
static void unreserve_range(void *ud, uint32_t off, uint32_t len)
{
	remap *m = ud;
	size_t i;

	collect(m, off, len);
	for (i = 0; i < m->n && !m->oom; i++)
		if (m->runs[i].kind == VS_UNIT_RESERVED)
			m->oom |= vs_arena_mark(m->a, m->runs[i].first * m->a->decl.unit,
				m->runs[i].count * m->a->decl.unit, VS_OWNER_NONE, VS_UNIT_FREE) != 0;
}

/* Free memory that no bank maps now becomes reserved; what allocations
 * hold there stays theirs (the caller reports it). */
static void reserve_range(void *ud, uint32_t off, uint32_t len)
{
	remap *m = ud;
	size_t i;

	collect(m, off, len);
	for (i = 0; i < m->n && !m->oom; i++)
		if (m->runs[i].kind == VS_UNIT_FREE)
			m->oom |= vs_arena_mark(m->a, m->runs[i].first * m->a->decl.unit,
				m->runs[i].count * m->a->decl.unit, VS_OWNER_HW, VS_UNIT_RESERVED) != 0;
}

int vs_arena_redeclare(vs_arena *a, const vs_arena_decl *d)
{
	remap m = { .a = a };
	uint32_t reserved = 0;

	vs_hw_reserved(&a->decl, unreserve_range, &m);
	a->decl = *d;
	vs_hw_reserved(&a->decl, reserve_range, &m);
	free(m.runs);
	vs_ownmap_walk(a->own, 0, a->nunits, 0, count_reserved, &reserved);
	a->usable_bytes = a->decl.size - reserved * a->decl.unit;
	return m.oom ? -1 : 0;
}

int vs_arena_init(vs_arena *a, const vs_arena_decl *d, char *err, size_t errlen)
{
	memset(a, 0, sizeof *a);
	if (d->unit == 0 || (d->unit & (d->unit - 1))) {
		snprintf(err, errlen, "arena '%s': unit %u is not a power of two", d->name, (unsigned)d->unit);
		return -1;
	}
	if (d->size == 0 || d->size % d->unit) {
		snprintf(err, errlen, "arena '%s': size %u is not a positive multiple of the unit %u",
			d->name, (unsigned)d->size, (unsigned)d->unit);
		return -1;
	}
	a->decl = *d;
	a->nunits = d->size / d->unit;
	/* zeroed pages the replay never writes are never touched */
	a->bytes = calloc(1, d->size);
	/* per-unit arrays cost 5 bytes a unit: 0.16 per byte of a 32-byte tile,
	 * less than runs of single tiles; smaller units keep runs, and so do
	 * large RAM arenas, whose free statistics the per-unit form would
	 * rescan a word per 64 units (ownunits.c) */
	a->own = d->unit >= 32 && a->nunits <= UNITS_FORM_MAX ? vs_ownmap_new_units(a->nunits) :
		vs_ownmap_new(a->nunits);
	if (!a->bytes || !a->own) {
		vs_arena_fini(a);
		snprintf(err, errlen, "arena '%s': out of memory for %u bytes", d->name, (unsigned)d->size);
		return -1;
	}
	reset_map(a);
	return 0;
}

int vs_arena_init_view(vs_arena *a, const vs_arena *src)
{
	memset(a, 0, sizeof *a);
	a->decl = src->decl;
	a->nunits = src->nunits;
	a->usable_bytes = src->usable_bytes;
	a->own = vs_ownmap_copy(src->own);
	return a->own ? 0 : -1;
}

void vs_arena_fini(vs_arena *a)
{
	free(a->bytes);
	vs_ownmap_free(a->own);
	memset(a, 0, sizeof *a);
}

/* Units are powers of two (vs_arena_init checks): a shift, not a division,
 * on the path every mark and placement check takes. */
static uint32_t unit_shift(const vs_arena *a)
{
	return (uint32_t)__builtin_ctz(a->decl.unit);
}

/* Units [*first, *end) of bytes [off, off + len), clipped to the arena:
 * 0, or -1 when none. */
static VS_ALWAYS_INLINE int unit_range(const vs_arena *a, uint32_t off, uint32_t len, uint32_t *first,
	uint32_t *end)
{
	uint32_t sh;

	if (len == 0 || off >= a->decl.size)
		return -1;
	if (len > a->decl.size - off)
		len = a->decl.size - off;
	sh = unit_shift(a);
	*first = off >> sh;
	*end = ((off + len - 1) >> sh) + 1;
	return 0;
}

/* The map's form chosen in line (ownmap_int.h): no call through vs_ownmap_set. */
int vs_arena_mark(vs_arena *a, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind)
{
	uint32_t first, end;

	return unit_range(a, off, len, &first, &end) ? 0 : vs_ownmap_mark_range(a->own, first, end, owner, kind);
}

int64_t vs_arena_take(vs_arena *a, uint32_t off, uint32_t len, uint32_t owner, vs_unit_kind kind)
{
	uint32_t first, end;

	return unit_range(a, off, len, &first, &end) ? -1 : vs_ownmap_take_range(a->own, first, end, owner, kind);
}

/* Piece [first, end) of kind k added to p after the n there, when not empty. */
static void add_piece(vs_own_run *p, uint32_t *n, uint32_t first, uint32_t end, uint32_t owner, vs_unit_kind k)
{
	if (end <= first)
		return;
	p[*n].first = first;
	p[*n].count = end - first;
	p[*n].owner = owner;
	p[*n].kind = k;
	++*n;
}

/* The block taken, then its slack and data marked, one call each: a grant
 * outside its block, which the replay refuses before it takes anything. */
static int64_t take_block_marks(vs_arena *a, uint32_t block_off, uint32_t block_len, uint32_t data_off,
	uint32_t data_len, uint32_t granted, uint32_t owner)
{
	int64_t u = vs_arena_take(a, block_off, block_len, owner, VS_UNIT_OVERHEAD);

	if (u == -1 && granted > data_len &&
		vs_arena_mark(a, data_off + data_len, granted - data_len, owner, VS_UNIT_SLACK))
		u = -2;
	if (u == -1 && vs_arena_mark(a, data_off, data_len, owner, VS_UNIT_DATA))
		u = -2;
	return u;
}

int64_t vs_arena_take_block(vs_arena *a, uint32_t block_off, uint32_t block_len, uint32_t data_off,
	uint32_t data_len, uint32_t granted, uint32_t owner)
{
	uint32_t b0, b1, d0 = 0, d1 = 0, s0 = 0, s1 = 0, np = 0;
	int data, slack;
	vs_own_run p[4];

	if (unit_range(a, block_off, block_len, &b0, &b1))
		return -1;
	data = !unit_range(a, data_off, data_len, &d0, &d1);
	slack = granted > data_len && !unit_range(a, data_off + data_len, granted - data_len, &s0, &s1);
	if (!data) /* the slack alone, or the block all overhead */
		d0 = d1 = slack ? s0 : b1;
	if (!slack) /* nothing past the data */
		s0 = s1 = d1;
	/* the slack starts in the data's last unit or after it, and the data
	 * in the slack's first or before: data, then slack past the data */
	if (d0 < b0 || s1 > b1 || s0 < d0 || s1 < d1)
		return take_block_marks(a, block_off, block_len, data_off, data_len, granted, owner);
	add_piece(p, &np, b0, d0, owner, VS_UNIT_OVERHEAD);
	add_piece(p, &np, d0, d1, owner, VS_UNIT_DATA);
	add_piece(p, &np, d1, s1, owner, VS_UNIT_SLACK);
	add_piece(p, &np, s1, b1, owner, VS_UNIT_OVERHEAD);
	return vs_ownmap_take_runs(a->own, p, np);
}

int64_t vs_arena_first_taken(const vs_arena *a, uint32_t off, uint32_t len)
{
	uint32_t first, end;

	return unit_range(a, off, len, &first, &end) ? -1 : vs_ownmap_first_taken_range(a->own, first, end);
}

void vs_arena_free_stats(const vs_arena *a, vs_free_stats *out)
{
	uint32_t largest, runs, nfree;

	vs_ownmap_stats(a->own, &largest, &runs, &nfree);
	out->free_bytes = (uint64_t)nfree * a->decl.unit;
	out->largest = (uint64_t)largest * a->decl.unit;
	out->extents = runs;
}

int vs_arena_run_at(const vs_arena *a, uint32_t unit, vs_own_run *out)
{
	return vs_ownmap_run_at(a->own, unit, out);
}

uint32_t vs_arena_owner_at(const vs_arena *a, uint32_t unit)
{
	uint32_t owner;
	vs_unit_kind kind;

	return vs_ownmap_unit_at(a->own, unit, &owner, &kind) ? VS_OWNER_NONE : owner;
}

vs_unit_kind vs_arena_kind_at(const vs_arena *a, uint32_t unit)
{
	uint32_t owner;
	vs_unit_kind kind;

	return vs_ownmap_unit_at(a->own, unit, &owner, &kind) ? VS_UNIT_FREE : kind;
}

int vs_arena_runs(const vs_arena *a, uint32_t first, uint32_t count,
	int (*fn)(void *ud, const vs_own_run *run), void *ud)
{
	return vs_ownmap_walk(a->own, first, count, 0, fn, ud);
}

typedef struct free_walk {
	int (*fn)(void *ud, uint32_t first, uint32_t count);
	void *ud;
} free_walk;

static int free_run(void *ud, const vs_own_run *run)
{
	const free_walk *w = ud;

	return w->fn(w->ud, run->first, run->count) ? 1 : 0;
}

int vs_arena_free_walk(const vs_arena *a, int (*fn)(void *ud, uint32_t first, uint32_t count), void *ud)
{
	free_walk w;

	w.fn = fn;
	w.ud = ud;
	return vs_ownmap_walk(a->own, 0, a->nunits, 1, free_run, &w);
}

size_t vs_arena_meta_bytes(const vs_arena *a)
{
	return a->own ? vs_ownmap_bytes(a->own) : 0;
}

/* The OBJ area in each display mode: 8-bit writes there are dropped. */
static int obj_area(const vs_arena *a, uint32_t off)
{
	return a->decl.kind == VS_ARENA_GBA_OBJ && (a->decl.gba_mode < 3 || off >= 0x4000);
}

void vs_arena_write8(vs_arena *a, uint32_t off, uint8_t v)
{
	if (off >= a->decl.size)
		return;
	if (a->decl.kind == VS_ARENA_GBA_OBJ) {
		if (obj_area(a, off))
			return;
		/* bitmap-mode lower half is BG frame memory: BG write rules */
		a->bytes[off & ~1u] = v;
		a->bytes[off | 1u] = v;
		return;
	}
	if (a->decl.kind == VS_ARENA_GBA_BG) {
		a->bytes[off & ~1u] = v;
		if ((off | 1u) < a->decl.size)
			a->bytes[off | 1u] = v;
		return;
	}
	a->bytes[off] = v;
}

void vs_arena_write16(vs_arena *a, uint32_t off, uint16_t v)
{
	off &= ~1u; /* the bus aligns halfword writes */
	if (off + 2 > a->decl.size)
		return;
	a->bytes[off] = (uint8_t)v;
	a->bytes[off + 1] = (uint8_t)(v >> 8);
}

void vs_arena_write32(vs_arena *a, uint32_t off, uint32_t v)
{
	off &= ~3u;
	if (off + 4 > a->decl.size)
		return;
	a->bytes[off] = (uint8_t)v;
	a->bytes[off + 1] = (uint8_t)(v >> 8);
	a->bytes[off + 2] = (uint8_t)(v >> 16);
	a->bytes[off + 3] = (uint8_t)(v >> 24);
}
