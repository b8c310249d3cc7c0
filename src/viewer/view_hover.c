/* SPDX-License-Identifier: Zlib */
/* view_hover.c - what the mouse is over: the unit under it, where that is
 * in the hardware's terms, its kind and its owner (the allocation, its
 * request, the run of units it holds, its age). The lines are drawn in a
 * box by draw_compose (view_draw.c).
 */
#include <stdio.h>
#include <string.h>

#include "viewer_int.h"
#include "vram/request.h"
#include "vram/arena.h"
#include "vram/ds_banks.h"

/* A DS 2D arena's place: the bank there, and the tile number (OBJ, at the
 * 1D boundary), character and screen base (BG) or slot and palette. */
static void ds_place(const vs_arena_decl *d, uint32_t off, char *buf, size_t len)
{
	int bank = vs_ds_bank_at(d, off);
	char where[24];
	uint32_t b = 32u * (d->ds_obj_boundary ? d->ds_obj_boundary : 1u);

	if (bank < 0)
		snprintf(where, sizeof where, "no bank");
	else
		snprintf(where, sizeof where, "bank %c", 'A' + bank);
	switch (d->kind) {
	case VS_ARENA_DS_OBJ:
		if (d->gba_obj_2d || off / b > 1023u)
			snprintf(buf, len, "%s, 32-byte tile %u", where, (unsigned)(off / 32u));
		else
			snprintf(buf, len, "%s, tile number %u (%u-byte boundary)", where, (unsigned)(off / b), (unsigned)b);
		break;
	case VS_ARENA_DS_BG:
		snprintf(buf, len, "%s, 16 KiB block %u, 2 KiB block %u", where, (unsigned)(off / 0x4000u),
			(unsigned)(off / 0x800u));
		break;
	default:
		snprintf(buf, len, "%s, slot %u palette %u", where, (unsigned)(off / 0x2000u),
			(unsigned)(off % 0x2000u / 512u));
		break;
	}
}

static void unit_place(const vs_arena_decl *d, uint32_t unit, char *buf, size_t len)
{
	uint32_t off = unit * d->unit;

	switch (d->kind) {
	case VS_ARENA_GBA_OBJ:
		snprintf(buf, len, "tile %u", (unsigned)unit);
		break;
	case VS_ARENA_GBA_BG:
		snprintf(buf, len, "charblock %u tile %u, screenblock %u", (unsigned)(off / 0x4000),
			(unsigned)(off % 0x4000 / 32), (unsigned)(off / 0x800));
		break;
	case VS_ARENA_DS_TEX:
		snprintf(buf, len, "texture slot %u +0x%05x, unit %u", (unsigned)(off / 0x20000), (unsigned)(off % 0x20000),
			(unsigned)unit);
		break;
	case VS_ARENA_DS_PLTT:
		snprintf(buf, len, "palette slot %u, colour %u", (unsigned)(off / 0x4000), (unsigned)(off % 0x4000 / 2));
		break;
	case VS_ARENA_DS_OBJ:
	case VS_ARENA_DS_BG:
	case VS_ARENA_DS_BG_EXTPAL:
	case VS_ARENA_DS_OBJ_EXTPAL:
		ds_place(d, off, buf, len);
		break;
	default:
		snprintf(buf, len, "unit %u (%u bytes)", (unsigned)unit, (unsigned)d->unit);
		break;
	}
}

static const char *kind_name(int k)
{
	static const char *const names[] = { "free", "data", "slack", "overhead", "4x4 index", "retained", "reserved" };

	return k >= 0 && k <= VS_UNIT_RESERVED ? names[k] : "?";
}

/* The run of units around u held by the same owner (at most cap units
 * either side): the map's runs around u's with that owner, of any kind. */
static void owner_extent(const vs_arena *a, uint32_t u, uint32_t *first, uint32_t *count)
{
	uint32_t o, lo, hi, cap = 1u << 20;
	vs_own_run run;

	if (vs_arena_run_at(a, u, &run)) {
		*first = u;
		*count = 1;
		return;
	}
	o = run.owner;
	lo = run.first;
	hi = run.first + run.count - 1;
	while (lo > 0 && u - lo < cap && vs_arena_run_at(a, lo - 1, &run) == 0 && run.owner == o)
		lo = run.first;
	while (hi + 1 < a->nunits && hi - u < cap && vs_arena_run_at(a, hi + 1, &run) == 0 && run.owner == o)
		hi = run.first + run.count - 1;
	if (u - lo > cap)
		lo = u - cap;
	if (hi - u > cap)
		hi = u + cap;
	*first = lo;
	*count = hi - lo + 1;
}

/* A panel label shortened to fit (view_layout.c) is named here in full. */
static void shortened_label(viewer *v, const arena_pane *ap, uint32_t u)
{
	int i;

	for (i = 0; i < ap->L.npanels && v->nhover < VIEW_HOVER_LINES; i++) {
		const vs_layout_panel *p = &ap->L.panel[i];
		char full[sizeof ap->full_label[i]];
		if (u < p->unit0 || u - p->unit0 >= p->nunits || strcmp(p->label, ap->full_label[i]) == 0)
			continue;
		/* a copy: the label and the hover lines are both in *v */
		memcpy(full, ap->full_label[i], sizeof full);
		snprintf(v->hover[v->nhover++], sizeof v->hover[0], "in %s", full);
	}
}

void hover_update(viewer *v)
{
	int s, a;

	v->nhover = 0;
	v->hover_side = -1;
	if (!v->mouse_in || v->help || fails_covers(v, v->mx, v->my))
		return;
	for (s = 0; s < v->nsides; s++) {
		for (a = 0; a < v->narenas; a++) {
			arena_pane *ap = &v->sp[s].ar[a];
			const vs_arena *ar;
			const vs_arena_decl *d;
			int64_t u;
			uint32_t owner, first, count;
			char place[96];
			if (!ap->ok || !rect_inside(ap->map, v->mx, v->my))
				continue;
			u = vs_layout_unit_at(&ap->L, v->mx - ap->map.x, v->my - ap->map.y);
			if (u < 0)
				continue;
			ar = vs_timeline_arena(v->tl, s, a);
			if ((uint64_t)u >= ar->nunits)
				continue;
			d = &ar->decl;
			v->hover_side = s;
			v->hover_arena = a;
			v->hover_unit = u;
			owner = vs_arena_owner_at(ar, (uint32_t)u);
			unit_place(d, (uint32_t)u, place, sizeof place);
			snprintf(v->hover[v->nhover++], sizeof v->hover[0], "%s 0x%08x  %s  [%s]", d->name,
				(unsigned)(d->base + (uint32_t)u * d->unit), place, kind_name(vs_arena_kind_at(ar, (uint32_t)u)));
			if (owner == VS_OWNER_NONE) {
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "free");
			} else if (owner == VS_OWNER_HW) {
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "reserved by the hardware");
			} else if (owner == VS_OWNER_ALLOC) {
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "kept by the allocator (management)");
			} else {
				const vs_tl_alloc *al = vs_timeline_alloc(v->tl, owner);
				char what[96];
				const char *tag;
				if (!al)
					continue;
				tag = vs_replay_tag_name(vs_timeline_replay(v->tl, 0), al->req.tag);
				vs_request_describe(&al->req, what, sizeof what);
				owner_extent(ar, (uint32_t)u, &first, &count);
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "owner id %llu  tag %s", (unsigned long long)al->id,
					tag && *tag ? tag : "(none)");
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "%s; size %u bytes; held 0x%08x +%u",
					what, (unsigned)al->req.size, (unsigned)(d->base + first * d->unit),
					(unsigned)(count * d->unit));
				snprintf(v->hover[v->nhover++], sizeof v->hover[0], "age %llu events (event %u)  allocated at trace line %u",
					(unsigned long long)(vs_timeline_at(v->tl) - al->event), (unsigned)al->event, (unsigned)al->line);
			}
			shortened_label(v, ap, (uint32_t)u);
			return;
		}
	}
}
