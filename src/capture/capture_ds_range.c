/* SPDX-License-Identifier: Zlib */
/* capture_ds_range.c - the GBA capture's range rules over one DS arena
 * (docs/capture.md, DS part).
 *
 * Identity is the footprint, not the data: the same footprint shown again
 * is the same allocation, one inside a live allocation belongs to it, one
 * overlapping it otherwise ends it; footprints that overlap in one frame
 * are joined. A footprint unshown for `grace` frames in which the arena
 * learns anything is freed from the first of them; a new one is dated back
 * to the upload of its data, never before its memory joined the arena.
 * Live allocations never share a unit, so the trace replays under
 * `recorded` without an integrity error.
 */
#include <stdlib.h>
#include <string.h>

#include "capture_ds_int.h"
#include "base/grow.h"
#include "vram/arena.h"
#include "vram/ds_banks.h"
#include "vram/hw.h"

static const uint32_t bank_lcdc[VS_DS_BANKS] = {
	VS_DS_LCDC_A, VS_DS_LCDC_B, VS_DS_LCDC_C, VS_DS_LCDC_D, VS_DS_LCDC_E,
	VS_DS_LCDC_F, VS_DS_LCDC_G, VS_DS_LCDC_H, VS_DS_LCDC_I
};

int cap_ds_arena_init(cap_ds_arena *a, unsigned kind, unsigned engine)
{
	vs_arena_decl_default(&a->decl, (vs_arena_kind)kind);
	vs_arena_decl_engine(&a->decl, engine);
	memset(a->decl.ds_bank_slot, VS_BANK_UNMAPPED, sizeof a->decl.ds_bank_slot);
	a->unit = a->decl.unit;
	a->units = a->decl.size / a->decl.unit;
	a->lcdc_of = malloc(a->units * sizeof *a->lcdc_of);
	a->owner = calloc(a->units, sizeof *a->owner);
	a->freed = calloc(a->units, sizeof *a->freed);
	a->since = calloc(a->units, sizeof *a->since);
	a->paint = calloc(a->units, sizeof *a->paint);
	a->paint_stamp = calloc(a->units, sizeof *a->paint_stamp);
	a->scratch = malloc(a->units * sizeof *a->scratch);
	if (!a->lcdc_of || !a->owner || !a->freed || !a->since || !a->paint || !a->paint_stamp || !a->scratch)
		return -1;
	memset(a->lcdc_of, 0xFF, a->units * sizeof *a->lcdc_of);
	return 0;
}

void cap_ds_arena_fini(cap_ds_arena *a)
{
	free(a->lcdc_of);
	free(a->owner);
	free(a->freed);
	free(a->since);
	free(a->paint);
	free(a->paint_stamp);
	free(a->scratch);
	free(a->live);
	free(a->want);
}

/* ---- banks ------------------------------------------------------------------ */

int cap_ds_arena_map(cap_ds_arena *a, const uint8_t vramcnt[VS_DS_BANKS], uint64_t frame)
{
	uint32_t *now = a->scratch;
	unsigned bank, ofs;
	uint32_t off, len, u;
	int lost = 0;

	for (bank = 0; bank < VS_DS_BANKS; bank++) {
		uint8_t slot = vs_ds_vramcnt_maps(&a->decl, bank, vramcnt[bank], &ofs) ? (uint8_t)ofs : VS_BANK_UNMAPPED;
		lost |= a->decl.ds_bank_slot[bank] != VS_BANK_UNMAPPED && a->decl.ds_bank_slot[bank] != slot;
		a->decl.ds_bank_slot[bank] = slot;
	}
	memset(now, 0xFF, a->units * sizeof *now);
	/* where two banks map the same bytes the hardware mixes them: the
	 * first one is read */
	for (bank = 0; bank < VS_DS_BANKS; bank++) {
		if (a->decl.ds_bank_slot[bank] == VS_BANK_UNMAPPED ||
		    vs_ds_bank_range(&a->decl, bank, a->decl.ds_bank_slot[bank], &off, &len, NULL, 0))
			continue;
		for (u = off / a->unit; u < (off + len) / a->unit && u < a->units; u++)
			if (now[u] == CAP_DS_NONE)
				now[u] = bank_lcdc[bank] + u * a->unit - off;
	}
	for (u = 0; u < a->units; u++) {
		if (now[u] != a->lcdc_of[u])
			a->since[u] = frame;
		a->lcdc_of[u] = now[u];
	}
	return lost;
}

int cap_ds_arena_mapped(const cap_ds_arena *a)
{
	unsigned bank;

	for (bank = 0; bank < VS_DS_BANKS; bank++)
		if (a->decl.ds_bank_slot[bank] != VS_BANK_UNMAPPED)
			return 1;
	return 0;
}

/* ---- footprints --------------------------------------------------------------- */

/* The units of a footprint, in order: its rows, then its tied run. */
static uint32_t fp_units(const cap_ds_fp *fp, uint32_t *out)
{
	uint32_t r, k, n = 0;

	for (r = 0; r < fp->rows; r++)
		for (k = 0; k < fp->w; k++)
			out[n++] = fp->start + r * fp->stride + k;
	for (k = 0; k < fp->tie_w; k++)
		out[n++] = fp->tie + k;
	return n;
}

static int fp_equal(const cap_ds_fp *x, const cap_ds_fp *y)
{
	return x->start == y->start && x->w == y->w && x->rows == y->rows && (x->rows < 2 || x->stride == y->stride) &&
		x->tie == y->tie && x->tie_w == y->tie_w;
}

/* Frame + 1 of the last change of any byte of a unit, 0 never. */
static uint64_t unit_written(const vs_ds_capture *c, const cap_ds_arena *a, uint32_t u)
{
	uint32_t cell = a->lcdc_of[u] / 8u, end = cell + a->unit / 8u;
	uint64_t w = 0;

	for (; cell < end; cell++)
		if (c->written[cell] > w)
			w = c->written[cell];
	return w;
}

/* The request of one row of bytes (a footprint written as bytes). */
static vs_request bytes_rq(const cap_ds_arena *a, uint32_t w)
{
	vs_request rq;

	memset(&rq, 0, sizeof rq);
	rq.size = w * a->unit;
	return rq;
}

/* Whether the declaration allows rq at unit u; why in a message is not
 * needed: a request it refuses is written otherwise or not at all. */
static int allowed(const cap_ds_arena *a, const vs_request *rq, uint32_t u)
{
	return vs_hw_check(&a->decl, rq, u * a->unit, rq->size, NULL, 0) == 0;
}

static int fp_mapped(const cap_ds_arena *a, const cap_ds_fp *fp, uint32_t *scratch)
{
	uint32_t n = fp_units(fp, scratch), i;

	for (i = 0; i < n; i++)
		if (a->lcdc_of[scratch[i]] == CAP_DS_NONE)
			return 0;
	return 1;
}

/* Clipped to the arena; 0 when nothing of it is left. */
static int fp_clip(const cap_ds_arena *a, cap_ds_fp *fp, uint64_t *clipped)
{
	int cut = 0;

	if (fp->start >= a->units || !fp->w || !fp->rows)
		return 0;
	if (fp->rows > 1 && (uint64_t)fp->start + (uint64_t)(fp->rows - 1u) * fp->stride >= a->units) {
		fp->rows = (a->units - 1u - fp->start) / fp->stride + 1u;
		cut = 1;
	}
	if ((uint64_t)fp->start + (uint64_t)(fp->rows - 1u) * fp->stride + fp->w > a->units) {
		if (fp->rows > 1) {
			fp->rows--;
		} else {
			fp->w = a->units - fp->start;
		}
		cut = 1;
	}
	if (fp->tie_w && (uint64_t)fp->tie + fp->tie_w > a->units) {
		fp->tie_w = fp->tie < a->units ? a->units - fp->tie : 0;
		cut = 1;
	}
	*clipped += (uint64_t)cut;
	return fp->rows > 0 && fp->w > 0;
}

void cap_ds_want_add(vs_ds_capture *c, cap_ds_arena *a, const cap_ds_fp *fp0, const vs_request *rq, const char *tag)
{
	cap_ds_fp fp = *fp0;
	cap_ds_want *w;
	uint32_t r;
	int cut;
	uint64_t clipped = 0;

	if (!a->on)
		return;
	if (!fp_clip(a, &fp, &clipped))
		return;
	cut = clipped != 0;
	c->st.clipped += clipped;
	if (!fp_mapped(a, &fp, a->scratch)) {
		a->st->unmapped++;
		return;
	}
	if (vs_grow_u32(&a->want, sizeof *a->want, &a->want_cap, (size_t)a->nwant + 1u, 64u)) {
		c->o.failed = 1;
		return;
	}
	w = &a->want[a->nwant];
	memset(w, 0, sizeof *w);
	w->fp = fp;
	w->size = fp.w * fp.rows + fp.tie_w;
	if (tag)
		snprintf(w->tag, sizeof w->tag, "%s", tag);
	if (rq && !cut && allowed(a, rq, fp.start)) {
		w->rq = *rq;
		w->typed = 1;
	} else {
		/* as bytes: each row must be allowed (DS palettes: 16-byte aligned) */
		for (r = 0; r < fp.rows; r++) {
			vs_request b = bytes_rq(a, fp.w);
			if (!allowed(a, &b, fp.start + r * fp.stride)) {
				a->st->refused++;
				return;
			}
		}
		w->fp.tie_w = 0; /* bytes tie nothing */
		w->size = fp.w * fp.rows;
	}
	a->nwant++;
}

/* ---- joining a frame's footprints ------------------------------------------- */

static int want_cmp(const void *x, const void *y)
{
	const cap_ds_want *a = x, *b = y;

	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return a->fp.start < b->fp.start ? -1 : a->fp.start > b->fp.start;
}

static uint32_t uf_find(cap_ds_want *w, uint32_t i)
{
	while (w[i].parent != i)
		i = w[i].parent = w[w[i].parent].parent;
	return i;
}

/* Paints every footprint; those that share units are grouped. Returns 1
 * when some did. */
static int paint_groups(cap_ds_arena *a)
{
	uint32_t i, k, n;
	int any = 0;

	a->stamp++;
	for (i = 0; i < a->nwant; i++) {
		a->want[i].parent = i;
		a->want[i].own = 0;
	}
	for (i = 0; i < a->nwant; i++) {
		n = fp_units(&a->want[i].fp, a->scratch);
		for (k = 0; k < n; k++) {
			uint32_t u = a->scratch[k];
			if (a->paint_stamp[u] != a->stamp) {
				a->paint_stamp[u] = a->stamp;
				a->paint[u] = i;
				a->want[i].own++;
			} else {
				uint32_t x = uf_find(a->want, i), y = uf_find(a->want, a->paint[u]);
				if (x != y) {
					/* the larger (earlier) footprint is the root */
					if (x < y)
						a->want[y].parent = x;
					else
						a->want[x].parent = y;
					any = 1;
				}
			}
		}
	}
	return any;
}

/* Widens [*lo, *hi) over a footprint's units. */
static void fp_span(cap_ds_arena *a, const cap_ds_fp *fp, uint32_t *lo, uint32_t *hi)
{
	uint32_t n = fp_units(fp, a->scratch), k;

	for (k = 0; k < n; k++) {
		if (a->scratch[k] < *lo)
			*lo = a->scratch[k];
		if (a->scratch[k] + 1 > *hi)
			*hi = a->scratch[k] + 1;
	}
}

/* A want that is a 4x4 texture: one (typed), or 4x4 textures joined (3). */
static int is_4x4(const cap_ds_want *w)
{
	return (w->typed == 1 || w->typed == 3) && w->rq.shape == VS_REQ_TEX && w->rq.u.tex.format == VS_TEX_4X4;
}

/* 4x4 textures overlapping in a frame: the texel data over both, when it
 * lies in slot 0 or 2, is one block of 4x4 textures uploaded at once (a
 * model's, NNS_GfdAllocTexVram(N, TRUE, opt)): `tex N 4x4`, its index data
 * where the hardware reads it (0x20000 + offset / 2; slot 2: 0x30000 +
 * (offset - 0x40000) / 2) tied. 1 when r became that block. */
static int join_4x4(const cap_ds_arena *a, cap_ds_want *r, const cap_ds_want *w)
{
	uint32_t slot = 0x20000u / a->unit, lo, hi, s;

	if (!is_4x4(r) || !is_4x4(w) || r->fp.rows != 1 || w->fp.rows != 1)
		return 0;
	lo = r->fp.start < w->fp.start ? r->fp.start : w->fp.start;
	hi = r->fp.start + r->fp.w > w->fp.start + w->fp.w ? r->fp.start + r->fp.w : w->fp.start + w->fp.w;
	s = lo / slot;
	if ((s != 0 && s != 2) || (hi - 1u) / slot != s)
		return 0;
	r->fp.start = lo;
	r->fp.w = hi - lo;
	r->fp.tie = (s ? 0x30000u : 0x20000u) / a->unit + (lo - s * slot) / 2u;
	r->fp.tie_w = (hi - lo + 1u) / 2u;
	r->rq.u.tex.width = r->rq.u.tex.height = 0;
	r->rq.size = (hi - lo) * a->unit;
	r->typed = 3;
	return 1;
}

/* A group with a footprint holding all its units is that footprint (the
 * others are nested in it); any other group becomes the run from its first
 * unit to its last, in bytes. Returns 1 when a run was made (it may meet
 * other footprints: paint again). */
static int resolve_groups(cap_ds_arena *a)
{
	uint32_t i, keep = 0, root;
	int joined = 0;
	vs_request b;

	for (i = 0; i < a->nwant; i++) {
		cap_ds_want *w = &a->want[i];
		root = uf_find(a->want, i);
		if (root != i) {
			a->want[root].own += w->own; /* the group's distinct units, gathered in the root */
			w->own = 0;
		}
	}
	for (i = 0; i < a->nwant; i++) {
		cap_ds_want *w = &a->want[i];
		root = uf_find(a->want, i);
		if (root != i) {
			cap_ds_want *r = &a->want[root];
			if ((r->size < r->own || r->typed >= 2) && join_4x4(a, r, w)) {
				a->st->merged++;
				joined = 1;
			} else if (r->size < r->own || r->typed >= 2) {
				/* not a container: stretch the root over both */
				uint32_t lo = r->fp.start, hi = lo + 1;
				fp_span(a, &r->fp, &lo, &hi);
				fp_span(a, &w->fp, &lo, &hi);
				memset(&r->fp, 0, sizeof r->fp);
				r->fp.start = lo;
				r->fp.w = hi - lo;
				r->fp.rows = 1;
				r->typed = 2; /* joined: made bytes below */
				a->st->merged++;
				joined = 1;
			} else {
				a->st->nested += (uint64_t)(w->size < r->size);
			}
		}
	}
	for (i = 0; i < a->nwant; i++) {
		cap_ds_want *w = &a->want[i];
		if (uf_find(a->want, i) != i)
			continue;
		if (w->typed == 3) {
			w->typed = 1;
			w->size = w->fp.w + w->fp.tie_w;
			if (!fp_mapped(a, &w->fp, a->scratch)) {
				a->st->unmapped++;
				continue;
			}
			if (!allowed(a, &w->rq, w->fp.start)) {
				a->st->refused++;
				continue;
			}
		} else if (w->typed == 2) {
			w->typed = 0;
			w->size = w->fp.w;
			b = bytes_rq(a, w->fp.w);
			if (!fp_mapped(a, &w->fp, a->scratch)) {
				a->st->unmapped++;
				continue;
			}
			if (!allowed(a, &b, w->fp.start)) {
				a->st->refused++;
				continue;
			}
		}
		a->want[keep++] = *w;
	}
	a->nwant = keep;
	return joined;
}

/* Rule 3 within a frame: the same footprint twice is one, one inside
 * another is part of it, footprints overlapping otherwise are joined. */
static void join_wants(cap_ds_arena *a)
{
	uint32_t i, keep;
	int again = 1;

	while (again && a->nwant) {
		qsort(a->want, a->nwant, sizeof *a->want, want_cmp);
		for (i = 1, keep = 1; i < a->nwant; i++)
			if (!fp_equal(&a->want[i].fp, &a->want[keep - 1].fp))
				a->want[keep++] = a->want[i];
		a->nwant = keep;
		again = paint_groups(a) && resolve_groups(a);
	}
}

/* ---- live allocations ---------------------------------------------------------- */

/* Slot + 1 of the live allocation holding every unit of a footprint, or 0. */
static uint32_t inside_one(cap_ds_arena *a, const cap_ds_fp *fp)
{
	uint32_t n = fp_units(fp, a->scratch), own = n ? a->owner[a->scratch[0]] : 0, i;

	for (i = 1; i < n && own; i++)
		if (a->owner[a->scratch[i]] != own)
			return 0;
	return own;
}

/* Rule 7: the earliest change of its data within `lookback` frames, but
 * not before its units were last freed, nor before their bank joined the
 * arena, nor before the arena's last `init` (which drops everything). */
static uint64_t upload_date(const vs_ds_capture *c, const cap_ds_arena *a, const uint32_t *units, uint32_t n)
{
	uint64_t d = c->o.frame, lo = c->o.frame > c->opt.lookback ? c->o.frame - c->opt.lookback : 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint64_t w = unit_written(c, a, units[i]);
		if (w && w - 1 >= lo && w - 1 < d)
			d = w - 1;
	}
	for (i = 0; i < n; i++) {
		if (a->freed[units[i]] && a->freed[units[i]] - 1 > d)
			d = a->freed[units[i]] - 1;
		if (a->since[units[i]] > d)
			d = a->since[units[i]];
	}
	if (d < a->floor)
		d = a->floor;
	return d < c->o.flushed ? c->o.flushed : d;
}

/* Rule 6: a tag from the data, the same wherever it is loaded. */
static void data_tag(const vs_ds_capture *c, const cap_ds_arena *a, const uint32_t *units, uint32_t n, char *tag,
	size_t len)
{
	uint32_t h = CAP_FNV_START, i;

	for (i = 0; i < n; i++)
		h = cap_fnv(h, c->f->lcdc + a->lcdc_of[units[i]], a->unit);
	snprintf(tag, len, "%c%06x", a->tag_prefix, (unsigned)((h ^ (h >> 24)) & 0xFFFFFFu));
}

static void live_new(vs_ds_capture *c, cap_ds_arena *a, const cap_ds_want *w)
{
	uint32_t slot, n = fp_units(&w->fp, a->scratch), i, r;
	cap_ds_live *l;
	uint64_t d;
	char tag[16];

	for (slot = 0; slot < a->nlive && a->live[slot].used; slot++)
		;
	if (slot == a->nlive) {
		if (vs_grow_u32(&a->live, sizeof *a->live, &a->live_cap, (size_t)a->nlive + 1u, 64u)) {
			c->o.failed = 1;
			return;
		}
		a->nlive++;
	}
	d = upload_date(c, a, a->scratch, n);
	if (w->tag[0])
		snprintf(tag, sizeof tag, "%s", w->tag);
	else
		data_tag(c, a, a->scratch, n, tag, sizeof tag);
	for (i = 0; i < n; i++)
		a->owner[a->scratch[i]] = slot + 1u;
	l = &a->live[slot];
	memset(l, 0, sizeof *l);
	l->id = c->next_id;
	l->fp = w->fp;
	l->used = 1;
	l->shown = 1;
	l->exact = 1;
	l->nids = w->typed ? 1u : w->fp.rows;
	for (r = 0; r < l->nids; r++) {
		vs_request rq = w->typed ? w->rq : bytes_rq(a, w->fp.w);
		cap_out_alloc(&c->o, d, a->name, c->next_id++, &rq, tag,
			a->decl.base + (w->fp.start + r * w->fp.stride) * a->unit);
	}
	a->st->allocs += l->nids;
	a->st->as_bytes += w->typed ? 0u : l->nids;
	a->st->dated_back += d < c->o.frame;
}

/* Rule 4: a free is dated at the first frame its footprint went unshown. */
static void live_end(vs_ds_capture *c, cap_ds_arena *a, uint32_t slot)
{
	cap_ds_live *l = &a->live[slot];
	uint64_t d = l->misses ? l->first_unref : c->o.frame;
	uint32_t n = fp_units(&l->fp, a->scratch), i;

	if (d < c->o.flushed)
		d = c->o.flushed;
	for (i = 0; i < l->nids; i++)
		cap_out_free(&c->o, d, l->id + i);
	for (i = 0; i < n; i++) {
		a->owner[a->scratch[i]] = 0;
		if (a->freed[a->scratch[i]] < d + 1)
			a->freed[a->scratch[i]] = d + 1;
	}
	l->used = 0;
	a->st->frees += l->nids;
}

void cap_ds_arena_end_all(vs_ds_capture *c, cap_ds_arena *a)
{
	uint32_t slot;

	for (slot = 0; slot < a->nlive; slot++) {
		if (!a->live[slot].used)
			continue;
		live_end(c, a, slot);
		a->st->bank_ends++;
	}
}

uint64_t cap_ds_arena_live(const cap_ds_arena *a)
{
	uint64_t n = 0;
	uint32_t slot;

	for (slot = 0; slot < a->nlive; slot++)
		if (a->live[slot].used)
			n += a->live[slot].nids;
	return n;
}

static void doom_overlapping(cap_ds_arena *a, const cap_ds_fp *fp)
{
	uint32_t n = fp_units(fp, a->scratch), i;

	for (i = 0; i < n; i++) {
		uint32_t o = a->owner[a->scratch[i]];
		if (o && !a->live[o - 1].doomed) {
			a->live[o - 1].doomed = 1;
			a->st->partial_overlaps++;
		}
	}
}

static void end_doomed(vs_ds_capture *c, cap_ds_arena *a)
{
	uint32_t slot;

	for (slot = 0; slot < a->nlive; slot++)
		if (a->live[slot].used && a->live[slot].doomed)
			live_end(c, a, slot);
}

/* Rule 3b: a footprint inside live allocation l, shown while l's own is
 * not, is a reuse of l's memory when the game wrote any of it since l was
 * last shown. */
static int reuses(const vs_ds_capture *c, cap_ds_arena *a, const cap_ds_live *l, const cap_ds_fp *fp)
{
	uint64_t last = c->o.frame > l->misses ? c->o.frame - 1 - l->misses : 0;
	uint32_t n, i;

	if (l->exact)
		return 0;
	n = fp_units(fp, a->scratch);
	for (i = 0; i < n; i++) {
		uint64_t w = unit_written(c, a, a->scratch[i]);
		if (w && w - 1 >= last)
			return 1;
	}
	return 0;
}

/* Rules 3-5 across frames; every overlap is resolved before any footprint
 * is taken. */
static void take_wants(vs_ds_capture *c, cap_ds_arena *a)
{
	uint32_t i, w;

	for (i = 0; i < a->nwant; i++) {
		w = inside_one(a, &a->want[i].fp);
		if (w && fp_equal(&a->live[w - 1].fp, &a->want[i].fp))
			a->live[w - 1].exact = 1;
	}
	for (i = 0; i < a->nwant; i++) {
		w = inside_one(a, &a->want[i].fp);
		if (!w) {
			doom_overlapping(a, &a->want[i].fp);
		} else if (!a->live[w - 1].doomed && reuses(c, a, &a->live[w - 1], &a->want[i].fp)) {
			a->live[w - 1].doomed = 1;
			a->st->reused++;
		}
	}
	end_doomed(c, a);
	for (i = 0; i < a->nwant; i++) {
		const cap_ds_want *x = &a->want[i];
		w = inside_one(a, &x->fp);
		if (!w) {
			live_new(c, a, x);
			continue;
		}
		a->live[w - 1].shown = 1;
		a->st->nested += (uint64_t)(x->size < a->live[w - 1].fp.w * a->live[w - 1].fp.rows + a->live[w - 1].fp.tie_w);
	}
}

static void age(vs_ds_capture *c, cap_ds_arena *a)
{
	uint32_t slot;

	for (slot = 0; slot < a->nlive; slot++) {
		cap_ds_live *l = &a->live[slot];
		if (!l->used)
			continue;
		l->exact = 0;
		if (l->shown) {
			l->shown = 0;
			l->misses = 0;
			continue;
		}
		if (l->misses++ == 0)
			l->first_unref = c->o.frame;
		if (l->misses >= c->opt.grace)
			live_end(c, a, slot);
	}
}

int cap_ds_arena_frame(vs_ds_capture *c, cap_ds_arena *a)
{
	if (a->on && a->learn) {
		join_wants(a);
		take_wants(c, a);
		age(c, a);
	}
	a->nwant = 0;
	a->learn = 0;
	return c->o.failed ? -1 : 0;
}
