/* SPDX-License-Identifier: Zlib */
/* capture_ds.c - DS capture: trace format v1 with the DS arenas from a run
 * of vs_ds_frame.
 *
 * The frame loop, the arenas and their banks, VRAMCNT changes between
 * frames, the header and the summary. What a frame shows is read in
 * capture_ds_2d.c (OAM, BG control and maps) and capture_ds_3d.c (the
 * polygon list); capture_ds_range.c turns it into allocations. See
 * docs/capture.md, DS part.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "capture_ds_int.h"
#include "capture/capture.h"
#include "trace/trace.h"
#include "vram/ds_banks.h"

static const struct arena_def {
	const char *name;
	vs_arena_kind kind;
	unsigned engine;
	char tag;
} defs[VS_DS_CAP_ARENAS] = {
	[VS_DS_CAP_OBJ_A] = { "obj-a", VS_ARENA_DS_OBJ, VS_DS_ENGINE_A, 'g' },
	[VS_DS_CAP_OBJ_B] = { "obj-b", VS_ARENA_DS_OBJ, VS_DS_ENGINE_B, 'g' },
	[VS_DS_CAP_BG_A] = { "bg-a", VS_ARENA_DS_BG, VS_DS_ENGINE_A, 'b' },
	[VS_DS_CAP_BG_B] = { "bg-b", VS_ARENA_DS_BG, VS_DS_ENGINE_B, 'b' },
	[VS_DS_CAP_BGPAL_A] = { "bgpal-a", VS_ARENA_DS_BG_EXTPAL, VS_DS_ENGINE_A, 'e' },
	[VS_DS_CAP_BGPAL_B] = { "bgpal-b", VS_ARENA_DS_BG_EXTPAL, VS_DS_ENGINE_B, 'e' },
	[VS_DS_CAP_OBJPAL_A] = { "objpal-a", VS_ARENA_DS_OBJ_EXTPAL, VS_DS_ENGINE_A, 'e' },
	[VS_DS_CAP_OBJPAL_B] = { "objpal-b", VS_ARENA_DS_OBJ_EXTPAL, VS_DS_ENGINE_B, 'e' },
	[VS_DS_CAP_TEX] = { "tex", VS_ARENA_DS_TEX, 0, 't' },
	[VS_DS_CAP_PLTT] = { "pltt", VS_ARENA_DS_PLTT, 0, 'p' },
};

/* DISPCNT bits that say how OBJ VRAM is read: tile mapping (4), bitmap
 * mapping (5, 6), 1D boundaries (20-22). */
#define OBJ_LAYOUT_BITS 0x00700070u

void vs_ds_capture_options_default(vs_ds_capture_options *o)
{
	memset(o, 0, sizeof *o);
	o->grace = 3;
	o->lookback = 4;
}

const char *vs_ds_capture_arena_name(unsigned arena)
{
	return arena < VS_DS_CAP_ARENAS ? defs[arena].name : "?";
}

/* ---- the header ------------------------------------------------------------- */

/* The OBJ and BG keys of a 2D arena, from its engine's DISPCNT. */
static void layout_decl(vs_arena_decl *d, uint32_t dispcnt)
{
	if (d->kind == VS_ARENA_DS_OBJ) {
		d->gba_obj_2d = !((dispcnt >> 4) & 1u);
		d->ds_obj_boundary = (uint8_t)(1u << ((dispcnt >> 20) & 3u));
		if ((dispcnt >> 6) & 1u)
			d->ds_obj_bmp = d->ds_engine == VS_DS_ENGINE_A && ((dispcnt >> 22) & 1u) ? VS_DS_BMP_1D_256 :
				VS_DS_BMP_1D_128;
		else
			d->ds_obj_bmp = (dispcnt >> 5) & 1u ? VS_DS_BMP_2D_256 : VS_DS_BMP_2D_128;
	} else if (d->kind == VS_ARENA_DS_BG && d->ds_engine == VS_DS_ENGINE_A) {
		d->ds_bg_char64k = (uint8_t)((dispcnt >> 24) & 7u);
		d->ds_bg_screen64k = (uint8_t)((dispcnt >> 27) & 7u);
	}
}

static int something_shown(const vs_ds_frame *f)
{
	return cap_ds_2d_shown(f, 0) || cap_ds_2d_shown(f, 1) || f->polys_n > 0;
}

/* The header frame: the first that maps a bank for an arena's use and
 * shows something (a game's first frames often hold every bank in LCDC
 * mode, before it maps them). */
static int header_due(vs_ds_capture *c, const vs_ds_frame *f)
{
	unsigned i;
	int any = 0;

	if (!something_shown(f))
		return 0;
	for (i = 0; i < VS_DS_CAP_ARENAS; i++) {
		cap_ds_arena_map(&c->ar[i], f->vramcnt, c->o.frame);
		any |= cap_ds_arena_mapped(&c->ar[i]);
	}
	return any;
}

/* The arena as its line may declare it: a trace refuses two banks over the
 * same bytes of one arena (the hardware mixes them), so a bank over one
 * before it is left out, and said so; capture reads the first, as
 * cap_ds_arena_map does. */
static vs_arena_decl declarable(FILE *out, const vs_arena_decl *d)
{
	vs_arena_decl x = *d;
	uint32_t off[VS_DS_BANKS], len[VS_DS_BANKS];
	unsigned b, k;

	for (b = 0; b < VS_DS_BANKS; b++) {
		if (x.ds_bank_slot[b] == VS_BANK_UNMAPPED)
			continue;
		if (vs_ds_bank_range(&x, b, x.ds_bank_slot[b], &off[b], &len[b], NULL, 0)) {
			x.ds_bank_slot[b] = VS_BANK_UNMAPPED;
			continue;
		}
		for (k = 0; k < b; k++) {
			if (x.ds_bank_slot[k] == VS_BANK_UNMAPPED || off[b] >= off[k] + len[k] || off[k] >= off[b] + len[b])
				continue;
			fprintf(out, "# capture: bank %c maps the same bytes of arena %s as bank %c (the hardware mixes them): "
				"left out of its line\n", 'A' + (int)b, x.name, 'A' + (int)k);
			x.ds_bank_slot[b] = VS_BANK_UNMAPPED;
			break;
		}
	}
	return x;
}

static void write_header(vs_ds_capture *c, const vs_ds_frame *f)
{
	FILE *out = c->o.out;
	vs_trace_header h;
	unsigned i;

	memset(&h, 0, sizeof h);
	fputs("vramsim-trace 1\n", out);
	cap_out_comment_block(out, c->header);
	fprintf(out, "# capture: grace=%u lookback=%u\n", (unsigned)c->opt.grace, (unsigned)c->opt.lookback);
	if (!f) {
		fputs("# capture: no frame mapped a bank and showed anything: nothing captured\n", out);
		vs_arena_decl_default(&h.arenas[0], VS_ARENA_DS_OBJ);
		snprintf(h.arenas[0].name, sizeof h.arenas[0].name, "%s", defs[0].name);
		h.narenas = 1;
	} else {
		fprintf(out, "# capture: at frame %llu, the first shown with a bank mapped: VRAMCNT A-I", (unsigned long long)
			c->st.held);
		for (i = 0; i < VS_DS_BANKS; i++)
			fprintf(out, " %02x", (unsigned)f->vramcnt[i]);
		fprintf(out, ", DISPCNT A %08x B %08x\n", (unsigned)f->dispcnt[0], (unsigned)f->dispcnt[1]);
		for (i = 0; i < VS_DS_CAP_ARENAS; i++)
			if (c->ar[i].on)
				h.arenas[h.narenas++] = declarable(out, &c->ar[i].decl);
	}
	for (i = 0; i < (unsigned)h.narenas; i++)
		vs_trace_write_arena(out, &h, (int)i);
	c->header_written = 1;
	if (ferror(out))
		c->o.failed = 1;
}

/* Frames flushed before the header were counted, not written. */
static void write_held(vs_ds_capture *c, uint64_t n)
{
	while (n--)
		fputs("frame\n", c->o.out);
}

static void start(vs_ds_capture *c, const vs_ds_frame *f)
{
	uint64_t flushed = c->o.flushed;
	unsigned i;

	for (i = 0; i < VS_DS_CAP_ARENAS; i++) {
		cap_ds_arena *a = &c->ar[i];
		a->on = cap_ds_arena_mapped(a);
		c->st.declared[i] = a->on;
		if (defs[i].kind != VS_ARENA_DS_TEX && defs[i].kind != VS_ARENA_DS_PLTT)
			layout_decl(&a->decl, f->dispcnt[defs[i].engine]);
	}
	memcpy(c->vramcnt, f->vramcnt, sizeof c->vramcnt);
	c->obj_layout[0] = f->dispcnt[0] & OBJ_LAYOUT_BITS;
	c->obj_layout[1] = f->dispcnt[1] & OBJ_LAYOUT_BITS;
	write_header(c, f);
	write_held(c, flushed);
}

/* ---- bank changes -------------------------------------------------------------- */

/* A VRAMCNT value changed since the frame before: memory moves between
 * arenas. An arena losing memory ends every live allocation first (another
 * strategy may have placed any of them on it), so the `vramcnt` line, after
 * the frame's frees, strands nothing, and is initialised again after it, so
 * that every strategy starts over on the memory left; nothing on the bank's
 * memory is dated before the change. */
static void bank_change(vs_ds_capture *c, unsigned bank, uint8_t v)
{
	unsigned i, ofs;
	int undeclared = 0;
	uint32_t lost = 0;

	c->vramcnt[bank] = v;
	c->st.bank_changes++;
	for (i = 0; i < VS_DS_CAP_ARENAS; i++) {
		cap_ds_arena *a = &c->ar[i];
		if (!a->on) {
			undeclared |= vs_ds_vramcnt_maps(&a->decl, bank, v, &ofs);
			continue;
		}
		if (cap_ds_arena_map(a, c->vramcnt, c->o.frame)) {
			cap_ds_arena_end_all(c, a);
			a->floor = c->o.frame;
			lost |= 1u << i;
		}
	}
	cap_out_add(&c->o, c->o.frame, CAP_PART_BANKS, "vramcnt %c 0x%02x\n", 'A' + (int)bank, (unsigned)v);
	for (i = 0; i < VS_DS_CAP_ARENAS; i++)
		if ((lost >> i) & 1u)
			cap_out_add(&c->o, c->o.frame, CAP_PART_BANKS, "init %s\n", defs[i].name);
	if (undeclared) {
		c->st.bank_undeclared++;
		cap_out_comment(&c->o, "VRAMCNT_%c = 0x%02x maps a use the trace has no arena for (none was mapped at the "
			"header): not captured", 'A' + (int)bank, (unsigned)v);
	}
}

static void note_layouts(vs_ds_capture *c, const vs_ds_frame *f)
{
	unsigned e;

	for (e = 0; e < 2; e++) {
		uint32_t l = f->dispcnt[e] & OBJ_LAYOUT_BITS;
		if (!cap_ds_2d_shown(f, e) || l == c->obj_layout[e])
			continue;
		c->st.mapping_changes[e]++;
		cap_out_comment(&c->o, "engine %c OBJ mapping bits of DISPCNT 0x%06x -> 0x%06x (the arena keeps its "
			"declaration: sprites of another mapping are written as bytes)", 'A' + (int)e,
			(unsigned)c->obj_layout[e], (unsigned)l);
		c->obj_layout[e] = l;
	}
}

/* Which 8-byte cells of the banks changed since the frame before. */
static void note_uploads(vs_ds_capture *c, const vs_ds_frame *f)
{
	uint32_t i;

	for (i = 0; i < CAP_DS_CELLS; i++)
		if (memcmp(f->lcdc + i * 8u, c->prev + i * 8u, 8) != 0)
			c->written[i] = c->o.frame + 1;
	memcpy(c->prev, f->lcdc, VS_DS_LCDC_BYTES);
}

/* ---- summary ------------------------------------------------------------------ */

static void summary_arena(vs_ds_capture *c, unsigned i)
{
	const vs_ds_capture_counts *s = &c->st.arena[i];
	FILE *out = c->o.out;

	fprintf(out, "# capture summary: %s: %llu allocations (%llu as bytes), %llu frees, %llu live at the end; %llu "
		"dated back to their upload\n", defs[i].name, (unsigned long long)s->allocs, (unsigned long long)s->as_bytes,
		(unsigned long long)s->frees, (unsigned long long)s->live, (unsigned long long)s->dated_back);
	fprintf(out, "# capture summary: %s: %llu partial overlaps, %llu reused by a smaller range, %llu nested ranges, "
		"%llu joined in a frame, %llu ended by bank changes, %llu on unmapped memory, %llu refused\n", defs[i].name,
		(unsigned long long)s->partial_overlaps, (unsigned long long)s->reused, (unsigned long long)s->nested,
		(unsigned long long)s->merged, (unsigned long long)s->bank_ends, (unsigned long long)s->unmapped,
		(unsigned long long)s->refused);
}

static void summary(vs_ds_capture *c)
{
	const vs_ds_capture_stats *s = &c->st;
	FILE *out = c->o.out;
	unsigned i;

	fprintf(out, "# capture summary: %llu frames, %llu before the first shown with a bank mapped; engine A showed "
		"nothing in %llu, engine B in %llu\n", (unsigned long long)s->frames, (unsigned long long)s->held,
		(unsigned long long)s->blank[0], (unsigned long long)s->blank[1]);
	fprintf(out, "# capture summary: %llu bank changes (%llu to a use without an arena), OBJ mapping changes: A "
		"%llu, B %llu\n", (unsigned long long)s->bank_changes, (unsigned long long)s->bank_undeclared,
		(unsigned long long)s->mapping_changes[0], (unsigned long long)s->mapping_changes[1]);
	fprintf(out, "# capture summary: OBJ: %llu entries drawn, %llu of shape 3, %llu 2D sprites wrapping past column "
		"31, %llu 2D bitmap sprites on an odd column, %llu ranges clipped; BG: %llu layers shown\n",
		(unsigned long long)s->obj_entries, (unsigned long long)s->bad_shape, (unsigned long long)s->wrapped,
		(unsigned long long)s->odd_bitmap, (unsigned long long)s->clipped, (unsigned long long)s->bg_layers);
	fprintf(out, "# capture summary: 3D: %llu frames with a polygon list, %llu polygons (%llu textured), %llu past "
		"the %u read\n", (unsigned long long)s->list_frames, (unsigned long long)s->polys,
		(unsigned long long)s->polys_textured, (unsigned long long)s->polys_cut, VS_DS_POLYS_MAX);
	for (i = 0; i < VS_DS_CAP_ARENAS; i++)
		if (s->declared[i])
			summary_arena(c, i);
}

/* ---- the interface -------------------------------------------------------------- */

vs_ds_capture *vs_ds_capture_new(const vs_ds_capture_options *o, FILE *out, const char *header_comment, char *err,
	size_t errlen)
{
	vs_ds_capture_options d;
	vs_ds_capture *c;
	unsigned i;
	int bad = 0;

	if (!o) {
		vs_ds_capture_options_default(&d);
		o = &d;
	}
	if (!out || o->grace < 1 || o->grace > VS_CAPTURE_WINDOW_MAX || o->lookback > VS_CAPTURE_WINDOW_MAX) {
		snprintf(err, errlen, "capture: %s", !out ? "no output" : "grace must be 1-600 frames and lookback 0-600");
		return NULL;
	}
	c = calloc(1, sizeof *c);
	if (!c)
		goto oom;
	c->opt = *o;
	c->next_id = 1;
	bad = cap_out_init(&c->o, out, o->grace > o->lookback ? o->grace : o->lookback);
	c->header = header_comment ? strdup(header_comment) : NULL;
	c->written = calloc(CAP_DS_CELLS, sizeof *c->written);
	c->prev = calloc(1, VS_DS_LCDC_BYTES);
	bad |= (header_comment && !c->header) || !c->written || !c->prev;
	for (i = 0; i < VS_DS_CAP_ARENAS; i++) {
		cap_ds_arena *a = &c->ar[i];
		bad |= cap_ds_arena_init(a, defs[i].kind, defs[i].engine);
		snprintf(a->decl.name, sizeof a->decl.name, "%s", defs[i].name);
		a->name = defs[i].name;
		a->tag_prefix = defs[i].tag;
		a->st = &c->st.arena[i];
	}
	if (bad) {
		vs_ds_capture_free(c);
		goto oom;
	}
	return c;
oom:
	snprintf(err, errlen, "capture: out of memory");
	return NULL;
}

/* What the frame shows, read into each arena's footprints and taken. */
static void read_frame(vs_ds_capture *c, const vs_ds_frame *f)
{
	unsigned e, i;

	for (e = 0; e < 2; e++)
		if (cap_ds_2d_shown(f, e))
			cap_ds_2d_frame(c, f, e);
	cap_ds_3d_frame(c, f);
	for (i = 0; i < VS_DS_CAP_ARENAS; i++)
		cap_ds_arena_frame(c, &c->ar[i]);
}

int vs_ds_capture_frame(vs_ds_capture *c, const vs_ds_frame *f)
{
	unsigned b, e;

	if (c->o.failed || c->finished)
		return -1;
	c->f = f;
	for (e = 0; e < 2; e++)
		c->st.blank[e] += !cap_ds_2d_shown(f, e);
	if (!c->header_written && header_due(c, f))
		start(c, f);
	if (c->header_written) {
		for (b = 0; b < VS_DS_BANKS; b++)
			if (f->vramcnt[b] != c->vramcnt[b])
				bank_change(c, b, f->vramcnt[b]);
		note_layouts(c, f);
	} else {
		c->st.held++;
	}
	note_uploads(c, f);
	if (c->header_written)
		read_frame(c, f);
	c->st.frames++;
	while (c->o.flushed + c->o.delay <= c->o.frame && !c->o.failed) {
		if (c->header_written)
			cap_out_flush_one(&c->o);
		else
			c->o.flushed++;
	}
	c->o.frame++;
	c->f = NULL;
	return c->o.failed ? -1 : 0;
}

int vs_ds_capture_finish(vs_ds_capture *c)
{
	unsigned i;

	if (c->o.failed || c->finished)
		return -1;
	if (!c->header_written) {
		uint64_t flushed = c->o.flushed;
		write_header(c, NULL);
		write_held(c, flushed);
	}
	while (c->o.flushed < c->o.frame && !c->o.failed)
		cap_out_flush_one(&c->o);
	c->finished = 1;
	for (i = 0; i < VS_DS_CAP_ARENAS; i++)
		c->st.arena[i].live = cap_ds_arena_live(&c->ar[i]);
	summary(c);
	if (fflush(c->o.out) || ferror(c->o.out))
		c->o.failed = 1;
	return c->o.failed ? -1 : 0;
}

void vs_ds_capture_stats_get(const vs_ds_capture *c, vs_ds_capture_stats *s)
{
	*s = c->st;
}

void vs_ds_capture_free(vs_ds_capture *c)
{
	unsigned i;

	if (!c)
		return;
	for (i = 0; i < VS_DS_CAP_ARENAS; i++)
		cap_ds_arena_fini(&c->ar[i]);
	cap_out_fini(&c->o);
	free(c->header);
	free(c->written);
	free(c->prev);
	free(c);
}
