/* SPDX-License-Identifier: Zlib */
/* capture_obj.c - OBJ allocations from OAM and OBJ VRAM (docs/capture.md).
 *
 * Identity is the tile range, not the data: every shown OAM entry names one
 * (in 2D mapping the sprite's rectangle of the tile matrix), ranges inside a
 * live allocation belong to it, and one overlapping it otherwise ends it. A
 * range unshown for `grace` frames is freed from the first of them; a new
 * one is dated back to the upload of its tiles. Live allocations never overlap, so the
 * trace replays under `recorded` without an integrity error.
 */
#include <stdlib.h>
#include <string.h>

#include "capture_impl.h"
#include "vram/request.h"

#define OBJ_BASE 0x06010000u
#define BIG_UPLOAD 64u        /* tiles (2 KiB) changed in one frame: a sprite sheet (a single sprite is at most 128 tiles, but one frame of it rarely switches) */
#define SHEET_SWITCHES 32u    /* tile switches inside it that suggest --sheet */
#define RUN_GAP 16u           /* unchanged tiles an upload may skip and still be one */

typedef struct entry {
	uint16_t tile;
	uint8_t shape, size, bpp;
} entry;

static const uint8_t *tile_data(const vs_gba_frame *f, uint32_t t)
{
	return f->vram + CAP_OBJ_VRAM + t * 32u;
}

/* Notes which tiles the game changed since the previous frame, and the
 * last upload large enough to be a sprite sheet. */
static void diff_tiles(vs_capture *c, const vs_gba_frame *f)
{
	cap_obj *o = &c->obj;
	uint32_t t, lo = CAP_OBJ_TILES, hi = 0;

	o->nchanged = 0;
	for (t = 0; t < CAP_OBJ_TILES; t++) {
		uint8_t *was = c->prev + CAP_OBJ_VRAM + t * 32u;
		o->changed[t] = memcmp(tile_data(f, t), was, 32) != 0;
		if (!o->changed[t])
			continue;
		memcpy(was, tile_data(f, t), 32);
		o->written[t] = c->o.frame + 1;
		if (!o->fresh[t])
			o->fresh[t] = c->o.frame + 1;
		o->nchanged++;
		if (t < lo)
			lo = t;
		hi = t + 1;
	}
	if (o->nchanged > BIG_UPLOAD) {
		o->big_lo = (uint16_t)lo;
		o->big_hi = (uint16_t)hi;
		o->big_frame = c->o.frame;
	}
}

/* ---- live allocations ----------------------------------------------------- */

/* The tiles of rows of w tiles 32 apart from start, in order, below 1024. */
static uint32_t rect_tiles(uint32_t start, uint32_t w, uint32_t rows, uint16_t *out)
{
	uint32_t r, k, n = 0;

	for (r = 0; r < rows; r++)
		for (k = 0; k < w; k++) {
			uint32_t t = start + r * 32u + k;
			if (t < CAP_OBJ_TILES)
				out[n++] = (uint16_t)t;
		}
	return n;
}

/* The tiles a segment's tag and date come from, in order. */
static uint32_t src_tiles(const cap_seg *s, uint16_t *out)
{
	return rect_tiles(s->src, s->src_w, s->src_rows, out);
}

static uint32_t seg_tiles(const cap_seg *s, uint16_t *out)
{
	return rect_tiles(s->start, s->w, s->rows, out);
}

static uint32_t live_tiles(const cap_live *l, uint16_t *out)
{
	return rect_tiles(l->start, l->w, l->rows, out);
}

/* Rule 7: the earliest write of the tiles within `lookback` frames, but not
 * before the range was last freed. */
static uint64_t upload_date(const vs_capture *c, const cap_seg *s, const uint16_t *tiles, uint32_t n)
{
	const cap_obj *o = &c->obj;
	uint64_t d = c->o.frame, lo = c->o.frame > c->opt.lookback ? c->o.frame - c->opt.lookback : 0;
	uint16_t own[CAP_OBJ_TILES];
	uint32_t i, nown = seg_tiles(s, own);

	for (i = 0; i < n; i++) {
		/* with uploads: the first write since the tile was freed, as far
		 * back as the output waits */
		uint64_t w = c->opt.uploads ? o->fresh[tiles[i]] : o->written[tiles[i]];
		if (w && (c->opt.uploads || w - 1 >= lo) && w - 1 < d)
			d = w - 1;
	}
	for (i = 0; i < nown; i++)
		if (o->freed[own[i]] && o->freed[own[i]] - 1 > d)
			d = o->freed[own[i]] - 1;
	return d < c->o.flushed ? c->o.flushed : d;
}

static void seg_tag(const vs_gba_frame *f, const uint16_t *tiles, uint32_t n, char *tag, size_t len)
{
	uint32_t h = CAP_FNV_START, i;

	for (i = 0; i < n; i++)
		h = cap_fnv(h, tile_data(f, tiles[i]), 32);
	cap_data_tag(h, tag, len);
}

/* A whole sprite of the arena's own mapping is a sprite request (in a 2D
 * arena, its rectangle); anything else is a run of bytes. */
static void seg_request(const vs_capture *c, const cap_seg *s, vs_request *rq)
{
	memset(rq, 0, sizeof *rq);
	if (s->whole && s->map2d == c->st.obj_2d) {
		rq->shape = VS_REQ_SPRITE;
		rq->u.sprite.shape = s->shape;
		rq->u.sprite.size = s->size;
		rq->u.sprite.bpp = s->bpp;
		vs_request_derive_size(rq);
	} else {
		rq->size = s->w * 32u;
	}
}

/* Whether a free dated at frame d covered one of the tiles: an allocation
 * on them comes after the frame's frees, whatever the order asked for. */
static int freed_on(const cap_obj *o, const uint16_t *tiles, uint32_t n, uint64_t d)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (o->freed[tiles[i]] == d + 1)
			return 1;
	return 0;
}

static void obj_new(vs_capture *c, const vs_gba_frame *f, const cap_seg *s, int sheet)
{
	cap_obj *o = &c->obj;
	uint16_t tiles[CAP_OBJ_TILES];
	uint32_t n = src_tiles(s, tiles), slot, i, r;
	uint64_t d = sheet ? c->o.frame : upload_date(c, s, tiles, n);
	vs_request rq;
	cap_live *l;
	char tag[16];

	for (slot = 0; o->live[slot].used; slot++)
		;
	l = &o->live[slot];
	memset(l, 0, sizeof *l);
	l->id = c->next_id;
	l->start = s->start;
	l->w = s->w;
	l->rows = s->rows;
	l->used = 1;
	l->sheet = (uint8_t)sheet;
	l->shown = 1;
	seg_tag(f, tiles, n, tag, sizeof tag);
	n = seg_tiles(s, tiles);
	for (i = 0; i < n; i++)
		o->owner[tiles[i]] = (uint16_t)(slot + 1);
	seg_request(c, s, &rq);
	/* rows that are not one sprite of the arena's mapping (joined, clipped,
	 * or from the other mapping) go one row at a time, as runs of bytes */
	l->nids = (uint8_t)(rq.shape == VS_REQ_SPRITE ? 1u : s->rows);
	for (r = 0; r < l->nids; r++)
		cap_alloc_in(c, c->opt.alloc_first && !freed_on(o, tiles, n, d) ? CAP_PART_EARLY : CAP_PART_ALLOCS, d,
			CAP_ARENA_OBJ, c->next_id++, &rq, tag, OBJ_BASE + (s->start + r * 32u) * 32u);
	c->st.obj_allocs += l->nids;
	c->st.dated_back += d < c->o.frame;
	c->st.sheets += (uint64_t)sheet;
}

/* --uploads: an unseen upload's alloc line, bytes from its upload date. */
static void upload_write(vs_capture *c, cap_live *l)
{
	vs_request rq;
	char tag[16];

	if (l->out)
		return;
	memset(&rq, 0, sizeof rq);
	rq.size = l->w * 32u;
	cap_data_tag(l->hash, tag, sizeof tag);
	l->id = c->next_id++;
	l->out = 1;
	cap_alloc(c, l->date, CAP_ARENA_OBJ, l->id, &rq, tag, OBJ_BASE + l->start * 32u);
	c->st.obj_allocs++;
	c->st.unseen++;
	c->st.dated_back += l->date < c->o.frame;
}

/* Rule 4: a free is dated at the first frame its range went unshown. */
static void obj_end(vs_capture *c, uint32_t slot)
{
	cap_obj *o = &c->obj;
	cap_live *l = &o->live[slot];
	uint64_t d = l->misses ? l->first_unref : c->o.frame;
	uint16_t tiles[CAP_OBJ_TILES];
	uint32_t i, n = live_tiles(l, tiles);

	if (d < c->o.flushed)
		d = c->o.flushed;
	if (l->upload) {
		upload_write(c, l);
		c->st.unseen_ended++;
	}
	for (i = 0; i < l->nids; i++)
		cap_free(c, d, l->id + i);
	for (i = 0; i < n; i++) {
		uint64_t w = o->written[tiles[i]];
		o->owner[tiles[i]] = 0;
		if (o->freed[tiles[i]] < d + 1)
			o->freed[tiles[i]] = d + 1;
		/* an upload from the free on is the next allocation's */
		o->fresh[tiles[i]] = w && w - 1 >= d ? w : 0;
	}
	l->used = 0;
	c->st.obj_frees += l->nids;
}

/* Slot + 1 of the live allocation holding all of a shape's tiles, or 0. */
static uint32_t inside_one(const cap_obj *o, uint32_t start, uint32_t w, uint32_t rows)
{
	uint16_t tiles[CAP_OBJ_TILES];
	uint32_t n = rect_tiles(start, w, rows, tiles), own = n ? o->owner[tiles[0]] : 0, i;

	for (i = 1; i < n && own; i++)
		if (o->owner[tiles[i]] != own)
			return 0;
	return own;
}

static void doom_overlapping(vs_capture *c, uint32_t start, uint32_t w, uint32_t rows, int partial)
{
	cap_obj *o = &c->obj;
	uint16_t tiles[CAP_OBJ_TILES];
	uint32_t n = rect_tiles(start, w, rows, tiles), i;

	for (i = 0; i < n; i++) {
		uint32_t t = tiles[i];
		cap_live *l = o->owner[t] ? &o->live[o->owner[t] - 1] : NULL;
		if (l && !l->doomed) {
			l->doomed = 1;
			c->st.partial_overlaps += (uint64_t)partial;
		}
	}
}

static void end_doomed(vs_capture *c)
{
	uint32_t slot;

	for (slot = 0; slot < CAP_OBJ_TILES; slot++)
		if (c->obj.live[slot].used && c->obj.live[slot].doomed)
			obj_end(c, slot);
}

/* keep_hidden: an unshown sprite keeps its tiles while none of them was
 * written since it was last shown (an engine hides a sprite without
 * releasing it); once one is, it is freed at that write. */
static int kept_hidden(const vs_capture *c, cap_live *l)
{
	uint16_t tiles[CAP_OBJ_TILES];
	uint32_t i, n = live_tiles(l, tiles);
	uint64_t last = 0; /* frame + 1 of the last write since */

	for (i = 0; i < n; i++) {
		uint64_t w = c->obj.written[tiles[i]];
		if (w && w - 1 >= l->first_unref && w > last)
			last = w;
	}
	if (!last)
		return 1;
	l->first_unref = last - 1;
	return 0;
}

static void age(vs_capture *c)
{
	uint32_t slot;

	for (slot = 0; slot < CAP_OBJ_TILES; slot++) {
		cap_live *l = &c->obj.live[slot];
		if (!l->used || l->sheet || l->upload)
			continue;
		l->exact = 0;
		if (l->shown) {
			l->shown = 0;
			l->misses = 0;
			continue;
		}
		if (l->misses++ == 0)
			l->first_unref = c->o.frame;
		if (l->misses >= c->opt.grace && !(c->opt.keep_hidden && kept_hidden(c, l)))
			obj_end(c, slot);
	}
}

void cap_obj_live_count(vs_capture *c)
{
	uint32_t slot;

	c->st.obj_live = 0;
	for (slot = 0; slot < CAP_OBJ_TILES; slot++)
		if (c->obj.live[slot].used)
			c->st.obj_live += c->obj.live[slot].nids;
}

/* ---- sheets (rule 9) ------------------------------------------------------- */

/* The next run of tiles changed this frame from *t on, bridging short runs
 * of unchanged ones (blank tiles inside a sheet stay blank). */
static int next_run(const cap_obj *o, uint32_t *t, uint32_t *lo, uint32_t *hi)
{
	uint32_t i = *t;

	while (i < CAP_OBJ_TILES && !o->changed[i])
		i++;
	if (i >= CAP_OBJ_TILES)
		return 0;
	*lo = i;
	*hi = i + 1;
	for (i = *hi; i < CAP_OBJ_TILES; i++) {
		if (o->changed[i])
			*hi = i + 1;
		else if (i + 1 - *hi >= RUN_GAP)
			break;
	}
	*t = *hi;
	return 1;
}

/* An all-zero upload clears the sheets it covers whole; another inside a
 * live allocation rewrites it in place; any other becomes a sheet and ends
 * what it overwrites. */
static void sheet_run(vs_capture *c, const vs_gba_frame *f, uint32_t lo, uint32_t hi)
{
	cap_obj *o = &c->obj;
	cap_seg s;
	uint32_t slot;

	if (cap_all_zero(tile_data(f, lo), (hi - lo) * 32u)) {
		for (slot = 0; slot < CAP_OBJ_TILES; slot++) {
			cap_live *l = &o->live[slot];
			if (l->used && l->sheet && l->start >= lo && l->start + l->w <= hi)
				obj_end(c, slot);
		}
		return;
	}
	if (inside_one(o, lo, hi - lo, 1))
		return;
	doom_overlapping(c, lo, hi - lo, 1, 0);
	end_doomed(c);
	memset(&s, 0, sizeof s);
	s.start = s.src = (uint16_t)lo;
	s.w = s.src_w = (uint16_t)(hi - lo);
	s.rows = s.src_rows = 1;
	obj_new(c, f, &s, 1);
}

static int bitmap_mode(unsigned mode)
{
	return mode >= 3 && mode <= 5;
}

/* In a bitmap mode OBJ tiles 0-511 are the frame buffer's: what is drawn
 * there is a picture, not a sheet (and the hardware draws no sprite from
 * it), whether the frame or the arenas are in a bitmap mode. */
static void sheet_uploads(vs_capture *c, const vs_gba_frame *f)
{
	uint32_t t = bitmap_mode(cap_mode(f)) || (c->started && bitmap_mode(c->st.first_mode)) ? 512u : 0u, lo, hi;

	while (next_run(&c->obj, &t, &lo, &hi))
		sheet_run(c, f, lo, hi);
}

/* Without the option: an OAM entry switching between tiles left untouched
 * since one large upload is what a sheet-driven game does. */
static void sheet_hint(vs_capture *c, uint32_t i, int shown, uint32_t tile)
{
	cap_obj *o = &c->obj;
	uint32_t was = o->prev_tile[i];

	if (shown && o->prev_shown[i] && was != tile && o->big_hi > o->big_lo && tile >= o->big_lo &&
		tile < o->big_hi && was >= o->big_lo && was < o->big_hi && o->written[tile] <= o->big_frame + 1) {
		c->st.sheet_switches++;
		if (c->st.sheet_switches >= SHEET_SWITCHES)
			c->st.sheet_suspected = 1;
	}
	o->prev_shown[i] = (uint8_t)shown;
	o->prev_tile[i] = (uint16_t)tile;
}

/* ---- ranges from OAM (rules 1, 2, 8) ---------------------------------------- */

/* 1 when the hardware draws the entry: affine (double-size or not), or
 * not affine and not disabled. */
static int entry_of(const uint8_t *p, entry *e)
{
	unsigned a0 = p[0] | (unsigned)p[1] << 8, a1 = p[2] | (unsigned)p[3] << 8, a2 = p[4] | (unsigned)p[5] << 8;

	e->shape = (uint8_t)(a0 >> 14);
	e->size = (uint8_t)(a1 >> 14);
	e->bpp = a0 & 0x2000u ? 8 : 4;
	e->tile = (uint16_t)(a2 & 0x3FFu);
	return (a0 & 0x300u) != 0x200u;
}

/* A shape of the entry's; tag and date come from the whole sprite at src. */
static cap_seg *push_seg(cap_obj *o, const entry *e, uint32_t start, uint32_t w, uint32_t rows, int map2d,
	uint32_t src, uint32_t src_w, uint32_t src_rows)
{
	cap_seg *s = &o->seg[o->nseg++];

	s->start = (uint16_t)start;
	s->w = (uint16_t)w;
	s->rows = (uint16_t)rows;
	s->src = (uint16_t)src;
	s->src_w = (uint16_t)src_w;
	s->src_rows = (uint16_t)src_rows;
	s->shape = e->shape;
	s->size = e->size;
	s->bpp = e->bpp;
	s->whole = 0;
	s->map2d = (uint8_t)map2d;
	return s;
}

/* 1D: one range of w/8 * h/8 tiles (twice that in 8bpp). 2D: the sprite's
 * rectangle of the 32x32 tile matrix, h/8 rows of w/8 tiles (twice that in
 * 8bpp, whose tile's low bit is ignored); rows past tile 1023 are cut. A
 * sprite whose rows cross column 31 has no rectangle: each of its rows runs
 * on into the next matrix row, as the hardware reads it, and is a run. */
static void entry_segs(vs_capture *c, const entry *e, int map2d)
{
	cap_obj *o = &c->obj;
	unsigned w, h, rw, rows, r, t0, keep;
	int clipped = 0;

	vs_request_sprite_dims(e->shape, e->size, &w, &h);
	rw = w / 8u * (e->bpp / 4u);
	rows = h / 8u;
	if (!map2d) {
		uint32_t n = rw * rows;
		clipped = e->tile + n > CAP_OBJ_TILES;
		n = clipped ? CAP_OBJ_TILES - e->tile : n;
		push_seg(o, e, e->tile, n, 1, 0, e->tile, n, 1)->whole = (uint8_t)!clipped;
	} else if ((t0 = e->tile & (e->bpp == 8 ? 0x3FEu : 0x3FFu)) % 32u + rw <= 32u) {
		keep = (CAP_OBJ_TILES - t0 + 31u) / 32u;
		if (keep > rows)
			keep = rows;
		clipped = keep < rows;
		push_seg(o, e, t0, rw, keep, 1, t0, rw, rows)->whole = (uint8_t)!clipped;
	} else {
		c->st.wrapped++;
		for (r = 0; r < rows; r++) {
			uint32_t start = t0 + r * 32u;
			if (start + rw > CAP_OBJ_TILES)
				clipped = 1;
			if (start < CAP_OBJ_TILES)
				push_seg(o, e, start, start + rw > CAP_OBJ_TILES ? CAP_OBJ_TILES - start : rw, 1, 1, t0, rw, rows);
		}
	}
	c->st.clipped += (uint64_t)clipped;
}

static void collect(vs_capture *c, const vs_gba_frame *f)
{
	int bitmap = cap_mode(f) >= 3 && cap_mode(f) <= 5, map2d = !((f->io[VS_IO_DISPCNT] >> 6) & 1);
	uint32_t i, zero = 0;
	entry e;

	c->obj.nseg = 0;
	for (i = 0; i < CAP_OAM_ENTRIES; i++) {
		const uint8_t *p = f->oam + i * 8u;
		int shown = entry_of(p, &e);
		if (cap_all_zero(p, 6))
			zero++;
		if (shown && e.shape == 3) {
			c->st.bad_shape++;
			shown = 0;
		} else if (shown && bitmap && e.tile < 512) {
			c->st.below_floor++;
			shown = 0;
		}
		if (!c->opt.sheet)
			sheet_hint(c, i, shown, e.tile);
		if (!shown)
			continue;
		c->st.obj_entries++;
		entry_segs(c, &e, map2d);
	}
	if (zero > c->st.zero_entries_max)
		c->st.zero_entries_max = zero;
}

static int seg_cmp(const void *a, const void *b)
{
	const cap_seg *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (int)(y->w * y->rows) - (int)(x->w * x->rows);
}

/* 1D: every range is a run; sorted by start, each run overlapping the one
 * before is part of it or extends it. */
static void merge_runs(vs_capture *c)
{
	cap_obj *o = &c->obj;
	uint32_t i, n = 0;

	for (i = 0; i < o->nseg; i++) {
		const cap_seg *s = &o->seg[i];
		cap_seg *m = n ? &o->seg[n - 1] : NULL;
		uint32_t end = m ? (uint32_t)m->start + m->w : 0;
		if (m && s->start < end) {
			if ((uint32_t)s->start + s->w > end) {
				m->w = (uint16_t)(s->start + s->w - m->start);
				m->src = m->start;
				m->src_rows = 1;
				m->src_w = m->w;
				m->whole = 0;
				c->st.merged++;
			} else if (s->w < m->w) {
				c->st.nested++;
			}
			continue;
		}
		o->seg[n++] = *s;
	}
	o->nseg = n;
}

static void tiles_of(const cap_seg *s, cap_tiles *m)
{
	uint16_t tiles[CAP_OBJ_TILES];
	uint32_t n = seg_tiles(s, tiles), i;

	memset(m, 0, sizeof *m);
	for (i = 0; i < n; i++)
		m->bits[tiles[i] / 32u] |= 1u << (tiles[i] % 32u);
}

static int tiles_meet(const cap_tiles *a, const cap_tiles *b)
{
	uint32_t i;

	for (i = 0; i < CAP_OBJ_TILES / 32u; i++)
		if (a->bits[i] & b->bits[i])
			return 1;
	return 0;
}

/* Whether a lies inside b. */
static int tiles_within(const cap_tiles *a, const cap_tiles *b)
{
	uint32_t i;

	for (i = 0; i < CAP_OBJ_TILES / 32u; i++)
		if (a->bits[i] & ~b->bits[i])
			return 0;
	return 1;
}

/* Two overlapping 2D shapes joined: two rectangles give the rectangle
 * around both; a run (a row wrapping past column 31) gives the run from
 * the first tile to the last. */
static void join(cap_seg *m, const cap_seg *s)
{
	uint32_t m_last = m->start + (m->rows - 1u) * 32u + m->w, s_last = s->start + (s->rows - 1u) * 32u + s->w;

	if (m->start % 32u + m->w <= 32u && s->start % 32u + s->w <= 32u) {
		uint32_t r0 = m->start / 32u < s->start / 32u ? m->start / 32u : s->start / 32u;
		uint32_t r1 = (m_last - 1u) / 32u > (s_last - 1u) / 32u ? (m_last - 1u) / 32u : (s_last - 1u) / 32u;
		uint32_t c0 = m->start % 32u < s->start % 32u ? m->start % 32u : s->start % 32u;
		uint32_t c1 = m->start % 32u + m->w > s->start % 32u + s->w ? m->start % 32u + m->w : s->start % 32u + s->w;
		m->start = (uint16_t)(r0 * 32u + c0);
		m->w = (uint16_t)(c1 - c0);
		m->rows = (uint16_t)(r1 - r0 + 1u);
	} else {
		uint32_t first = m->start < s->start ? m->start : s->start;
		m->w = (uint16_t)((m_last > s_last ? m_last : s_last) - first);
		m->start = (uint16_t)first;
		m->rows = 1;
	}
	m->src = m->start;
	m->src_w = m->w;
	m->src_rows = m->rows;
	m->whole = 0;
}

static void drop_seg(cap_obj *o, uint32_t j)
{
	memmove(&o->seg[j], &o->seg[j + 1], (o->nseg - j - 1u) * sizeof *o->seg);
	memmove(&o->seg_tiles[j], &o->seg_tiles[j + 1], (o->nseg - j - 1u) * sizeof *o->seg_tiles);
	o->nseg--;
}

/* 2D: shapes are compared tile by tile; a shape inside another is dropped,
 * two overlapping otherwise are joined, until no two overlap. */
static void merge_shapes(vs_capture *c)
{
	cap_obj *o = &c->obj;
	uint32_t i, j;
	int again = 1;

	for (i = 0; i < o->nseg; i++)
		tiles_of(&o->seg[i], &o->seg_tiles[i]);
	while (again) {
		again = 0;
		for (i = 0; i < o->nseg; i++) {
			for (j = i + 1; j < o->nseg; j++) {
				cap_seg *a = &o->seg[i], *b = &o->seg[j];
				if (!tiles_meet(&o->seg_tiles[i], &o->seg_tiles[j]))
					continue;
				if (tiles_within(&o->seg_tiles[j], &o->seg_tiles[i])) {
					c->st.nested += (uint64_t)(b->w * b->rows < a->w * a->rows);
				} else if (tiles_within(&o->seg_tiles[i], &o->seg_tiles[j])) {
					c->st.nested++;
					*a = *b;
					o->seg_tiles[i] = o->seg_tiles[j];
					again = 1;
				} else {
					join(a, b);
					tiles_of(a, &o->seg_tiles[i]);
					c->st.merged++;
					again = 1;
				}
				drop_seg(o, j--);
			}
		}
	}
}

/* Rule 3 within a frame: the same range twice is one, a range inside
 * another is part of it, ranges overlapping otherwise are joined. */
static void merge_segs(vs_capture *c, int map2d)
{
	qsort(c->obj.seg, c->obj.nseg, sizeof *c->obj.seg, seg_cmp);
	if (map2d)
		merge_shapes(c);
	else
		merge_runs(c);
}

/* With sheets: a range touching one belongs to it. */
static void drop_in_sheets(cap_obj *o)
{
	uint16_t tiles[CAP_OBJ_TILES];
	uint32_t i, t, n = 0, nt;

	for (i = 0; i < o->nseg; i++) {
		const cap_seg *s = &o->seg[i];
		int in = 0;
		nt = seg_tiles(s, tiles);
		for (t = 0; t < nt && !in; t++)
			in = o->owner[tiles[t]] && o->live[o->owner[tiles[t]] - 1].sheet;
		if (!in)
			o->seg[n++] = *s;
	}
	o->nseg = n;
}

/* Rule 3b: a range inside live allocation l, shown while l's own range is
 * not, is a reuse of l's tiles when the game wrote any of them since l was
 * last shown: l was freed and a smaller sprite took its place. Without such
 * a write it shows part of l's graphics, and is part of l. */
static int reuses(const vs_capture *c, const cap_live *l, const cap_seg *s)
{
	const cap_obj *o = &c->obj;
	uint16_t tiles[CAP_OBJ_TILES];
	uint64_t last = c->o.frame > l->misses ? c->o.frame - 1 - l->misses : 0;
	uint32_t n, i;

	if (l->exact || l->sheet)
		return 0;
	n = rect_tiles(s->start, s->w, s->rows, tiles);
	for (i = 0; i < n; i++)
		if (o->written[tiles[i]] && o->written[tiles[i]] - 1 >= last)
			return 1;
	return 0;
}

/* Rules 3-5 across frames. All overlaps are resolved before any range is
 * taken, so a range inside an allocation that another range ends is taken
 * on its own. */
static void take_ranges(vs_capture *c, const vs_gba_frame *f)
{
	cap_obj *o = &c->obj;
	uint32_t i, w;

	for (i = 0; i < o->nseg; i++) {
		const cap_seg *s = &o->seg[i];
		cap_live *l;
		w = inside_one(o, s->start, s->w, s->rows);
		l = w ? &o->live[w - 1] : NULL;
		if (l && l->start == s->start && l->w == s->w && l->rows == s->rows)
			l->exact = 1;
	}
	for (i = 0; i < o->nseg; i++) {
		const cap_seg *s = &o->seg[i];
		w = inside_one(o, s->start, s->w, s->rows);
		if (!w) {
			doom_overlapping(c, s->start, s->w, s->rows, 1);
		} else if (!o->live[w - 1].doomed && reuses(c, &o->live[w - 1], s)) {
			o->live[w - 1].doomed = 1;
			c->st.reused++;
		}
	}
	end_doomed(c);
	for (i = 0; i < o->nseg; i++) {
		const cap_seg *s = &o->seg[i];
		const cap_live *l;
		w = inside_one(o, s->start, s->w, s->rows);
		if (!w) {
			obj_new(c, f, s, 0);
			continue;
		}
		l = &o->live[w - 1];
		o->live[w - 1].shown = 1;
		c->st.nested += (uint64_t)s->w * s->rows < (uint64_t)l->w * l->rows;
	}
}

/* ---- uploads never shown (--uploads) ---------------------------------------- */

/* A run of tiles lo..hi-1 that no live allocation owns becomes an unseen
 * upload from `date`, tagged from its data as a sprite on it would be. */
static void upload_new(vs_capture *c, uint32_t lo, uint32_t hi, uint64_t date)
{
	cap_obj *o = &c->obj;
	uint32_t slot, t, h = CAP_FNV_START;
	cap_live *l;

	for (slot = 0; o->live[slot].used; slot++)
		;
	l = &o->live[slot];
	memset(l, 0, sizeof *l);
	l->start = (uint16_t)lo;
	l->w = (uint16_t)(hi - lo);
	l->rows = 1;
	l->nids = 1;
	l->used = 1;
	l->upload = 1;
	l->date = date < c->o.flushed ? c->o.flushed : date;
	for (t = lo; t < hi; t++) {
		h = cap_fnv(h, c->prev + CAP_OBJ_VRAM + t * 32u, 32);
		o->owner[t] = (uint16_t)(slot + 1);
	}
	l->hash = h;
}

/* The frame's first step: a write into an unseen upload ends it, dated at
 * the write (what was written is the next upload's). */
static void uploads_overwritten(vs_capture *c)
{
	cap_obj *o = &c->obj;
	uint32_t t;

	for (t = 0; t < CAP_OBJ_TILES; t++)
		if (o->changed[t] && o->owner[t] && o->live[o->owner[t] - 1].upload)
			o->live[o->owner[t] - 1].doomed = 1;
	end_doomed(c);
}

static int in_tiles(const cap_tiles *m, uint32_t t)
{
	return (m->bits[t / 32u] >> (t % 32u)) & 1u;
}

/* An unseen upload not yet written is let go with no trace: the sprites
 * shown on it take their tiles, dated at their upload (rule 7 with
 * --uploads), and the frame's last step finds what is left as runs of
 * their own, dated at their upload too. */
static void upload_release(vs_capture *c, uint32_t slot)
{
	cap_obj *o = &c->obj;
	cap_live *l = &o->live[slot];
	uint32_t t;

	for (t = l->start; t < (uint32_t)l->start + l->w; t++)
		o->owner[t] = 0;
	l->used = 0;
	c->st.unseen_taken++;
}

/* Sprites shown on unseen uploads, before the ranges are taken. One not
 * yet written is let go (upload_release). One already written (older than the
 * output waits) is handed over to a sprite showing exactly its range, and
 * is that sprite's allocation from then on; any other sprite on it ends
 * it, and is allocated from this frame. */
static void uploads_taken(vs_capture *c)
{
	cap_obj *o = &c->obj;
	uint16_t tiles[CAP_OBJ_TILES];
	cap_tiles shown;
	uint32_t i, k, n, slot, t;

	memset(&shown, 0, sizeof shown);
	for (i = 0; i < o->nseg; i++) {
		const cap_seg *s = &o->seg[i];
		n = seg_tiles(s, tiles);
		for (k = 0; k < n; k++) {
			cap_live *l = o->owner[tiles[k]] ? &o->live[o->owner[tiles[k]] - 1] : NULL;
			shown.bits[tiles[k] / 32u] |= 1u << (tiles[k] % 32u);
			if (!l || !l->upload || !l->out || l->doomed)
				continue;
			if (l->start == s->start && l->w == s->w && l->rows == s->rows) {
				l->upload = 0;
				c->st.unseen_handed++;
			} else {
				l->doomed = 1;
			}
		}
	}
	end_doomed(c);
	for (slot = 0; slot < CAP_OBJ_TILES; slot++) {
		const cap_live *l = &o->live[slot];
		if (!l->used || !l->upload)
			continue;
		for (t = l->start; t < (uint32_t)l->start + l->w && !in_tiles(&shown, t); t++)
			;
		if (t < (uint32_t)l->start + l->w)
			upload_release(c, slot);
	}
}

/* The frame's last step: tiles no live allocation owns that were written
 * since their last free are an upload no sprite shows. Runs of them, cut
 * by owned, unwritten and all-zero tiles (a clear is no upload), each
 * become an unseen upload dated at their earliest write. In a bitmap mode
 * tiles 0-511 hold the picture, which is no upload either. */
static void uploads_found(vs_capture *c, const vs_gba_frame *f)
{
	cap_obj *o = &c->obj;
	uint32_t floor = bitmap_mode(cap_mode(f)) || (c->started && bitmap_mode(c->st.first_mode)) ? 512u : 0u;
	uint64_t first[CAP_OBJ_TILES];
	uint32_t t;

	for (t = 0; t < CAP_OBJ_TILES; t++) {
		int loose = !o->owner[t] && o->fresh[t];
		if (loose && (t < floor || cap_all_zero(c->prev + CAP_OBJ_VRAM + t * 32u, 32)))
			o->fresh[t] = 0;
		first[t] = loose ? o->fresh[t] : 0;
	}
	cap_runs(c, first, NULL, CAP_OBJ_TILES, upload_new);
}

void cap_obj_commit_uploads(vs_capture *c)
{
	uint32_t slot;

	for (slot = 0; slot < CAP_OBJ_TILES; slot++) {
		cap_live *l = &c->obj.live[slot];
		if (l->used && l->upload && !l->out && l->date <= c->o.flushed)
			upload_write(c, l);
	}
}

void cap_obj_frame(vs_capture *c, const vs_gba_frame *f, int readable)
{
	diff_tiles(c, f);
	if (c->opt.uploads)
		uploads_overwritten(c);
	if (c->opt.sheet)
		sheet_uploads(c, f);
	/* a blank screen or an OBJ layer switched off shows nothing, and so
	 * says nothing about what the game holds (but uploads go on) */
	if (readable && (f->io[VS_IO_DISPCNT] & 0x1000u)) {
		collect(c, f);
		merge_segs(c, !((f->io[VS_IO_DISPCNT] >> 6) & 1));
		if (c->opt.sheet)
			drop_in_sheets(&c->obj);
		if (c->opt.uploads)
			uploads_taken(c);
		take_ranges(c, f);
		age(c);
	}
	if (c->opt.uploads)
		uploads_found(c, f);
}
