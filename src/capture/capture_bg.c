/* SPDX-License-Identifier: Zlib */
/* capture_bg.c - BG allocations from BG control, maps and tiles (docs/capture.md).
 *
 * Each shown layer's screen map is one allocation. Every map cell on screen
 * is a reference to the RAM tile it names, made when the cell comes into
 * view and ended when it leaves, when the map entry changes or when the RAM
 * tile gets other graphics. A tile's identity is its data: equal data is
 * one ROM index wherever it is loaded. With --uploads a RAM tile's first
 * reference, and a map, are dated back to the upload of their bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "capture_impl.h"
#include "base/grow.h"
#include "vram/hw_gba.h"
#include "vram/request.h"

#define BG_BASE 0x06000000u
#define CELLS (128u * 128u)                /* the largest map: affine 1024x1024 */
#define UNITS (VS_GBA_BG_BYTES / 32u)      /* 32-byte RAM tiles of the 64 KiB BG area */
#define ROM_SLOTS (1u << 17)               /* hash slots, twice the identities */
#define ROM_NONE (VS_CAPTURE_ROM_MAX + 1u) /* graphics past the table */

enum { KIND_OFF = 0, KIND_TEXT, KIND_AFFINE };

/* --uploads: what an upload no layer shows holds, as far as the registers
 * say (docs/capture.md): a text layer's screen blocks (RUN_MAP + the
 * layer), tiles a shown layer of one depth can reach, or plain bytes. */
enum { RUN_NONE = 0, RUN_BYTES, RUN_TILES4, RUN_TILES8, RUN_AFFINE, RUN_MAP };

/* --uploads: an upload of RAM tiles lo .. lo + n - 1 no layer shows, an
 * allocation from `date`; its alloc line waits until it ends or its date
 * is about to be written (`out`), so that a layer shown on it can still
 * take it whole or in part. */
typedef struct bg_run {
	uint64_t id, date;
	uint32_t hash;
	uint16_t lo, n;
	uint8_t used, out, kind;
	uint8_t map_size; /* RUN_MAP: BGxCNT size bits of the map it fills exactly, or 0xFF */
} bg_run;

typedef struct cell {
	uint64_t id;     /* live reference, 0 none */
	uint32_t rom;
	uint16_t unit;   /* RAM tile: byte offset / 32 */
	uint8_t bpp8;
} cell;

/* A map cell on screen this frame, and the reference it asks for. */
typedef struct want {
	uint16_t cell, unit;
	uint32_t rom;
	uint8_t ok;      /* names a tile inside the BG area */
} want;

typedef struct layer {
	uint8_t kind, size, sbb, cb, bpp8;
	uint64_t map_id;
	uint16_t map_unit, map_units; /* the map allocation's RAM tiles */
	cell cell[CELLS];
	uint64_t live[CELLS / 64u]; /* a bit a cell with a live reference: the frame's walks skip the rest */
	uint32_t seen[CELLS];  /* stamp of the frame the cell was last on screen */
	uint16_t at[CELLS];    /* its index in want */
	want want[CELLS];
	uint32_t nwant;
} layer;

struct cap_bg {
	layer l[4];
	uint32_t stamp;
	uint32_t live;                  /* live tile references */
	uint32_t refs[UNITS][2];        /* live references per RAM tile and depth */
	uint8_t mapped[UNITS];          /* RAM tiles a live map allocation holds */
	uint8_t held64[UNITS];          /* the references at this RAM tile share one 64-byte record: the
	                                 * first was 8bpp (the zero tile, joined by 4bpp ones), so the
	                                 * replay holds the next RAM tile too while any of them lives */
	uint32_t memo[UNITS][2];        /* identity of a RAM tile this frame */
	uint32_t memo_stamp[UNITS][2];
	/* the bytes each depth's memo was taken from: a RAM tile unchanged
	 * since keeps its identity without a lookup */
	uint8_t memo_ok[UNITS][2];
	uint8_t memo_bytes[2][VS_GBA_BG_BYTES];
	/* --uploads, a RAM tile each: frame + 1 of its last change, of its
	 * first change since it was last freed, and of that free (0: none) */
	uint64_t written[UNITS], fresh[UNITS], freed[UNITS];
	bg_run run[UNITS];
	uint16_t run_of[UNITS];         /* run slot + 1 holding the RAM tile, 0 none */
	/* the frame's text maps by BGxCNT (shown or not), for RUN_MAP */
	uint16_t map_lo[4], map_hi[4];
	uint8_t map_size[4];
	uint8_t run_kind[UNITS];
	/* ROM identities: data by index (1-based), open-addressed by hash */
	uint32_t *slot;
	uint8_t *data;
	uint32_t n, cap;
};

cap_bg *cap_bg_new(void)
{
	cap_bg *b = calloc(1, sizeof *b);

	if (b && !(b->slot = calloc(ROM_SLOTS, sizeof *b->slot))) {
		free(b);
		b = NULL;
	}
	return b;
}

cap_bg *cap_bg_copy(const cap_bg *b)
{
	cap_bg *d = malloc(sizeof *d);

	if (!d)
		return NULL;
	memcpy(d, b, sizeof *d);
	d->slot = malloc(ROM_SLOTS * sizeof *d->slot);
	d->data = b->data ? malloc((size_t)b->cap * 65u) : NULL;
	if (!d->slot || (b->data && !d->data)) {
		cap_bg_free(d);
		return NULL;
	}
	memcpy(d->slot, b->slot, ROM_SLOTS * sizeof *d->slot);
	if (b->data)
		memcpy(d->data, b->data, (size_t)b->cap * 65u);
	return d;
}

void cap_bg_free(cap_bg *b)
{
	if (!b)
		return;
	free(b->slot);
	free(b->data);
	free(b);
}

/* ---- identity (rule 3) ------------------------------------------------------ */

/* An identity is stored as 65 bytes: the tile's length (32 or 64), then
 * its data. 4bpp and 8bpp tiles hash with different seeds. */
static uint32_t rom_hash(const uint8_t *p, unsigned bytes)
{
	return cap_fnv(bytes == 64 ? 0x9dc5811cu : CAP_FNV_START, p, bytes);
}

/* ROM index of a tile's graphics: 0 for the all-transparent tile, else in
 * order of first appearance. */
static uint32_t rom_of(vs_capture *c, const uint8_t *p, unsigned bytes)
{
	cap_bg *b = c->bg;
	uint32_t h = rom_hash(p, bytes), i, k;

	if (cap_all_zero(p, bytes))
		return 0;
	for (i = h & (ROM_SLOTS - 1u);; i = (i + 1u) & (ROM_SLOTS - 1u)) {
		k = b->slot[i];
		if (!k)
			break;
		if (b->data[(size_t)k * 65u] == bytes && memcmp(b->data + (size_t)k * 65u + 1u, p, bytes) == 0)
			return k;
	}
	/* room for index n + 1 (index 0 stays unused): doubled from 1024, the
	 * table reaches VS_CAPTURE_ROM_MAX + 1 = 65536 entries and no more */
	if (b->n >= VS_CAPTURE_ROM_MAX ||
		(b->n + 1u >= b->cap && vs_grow_u32(&b->data, 65u, &b->cap, (size_t)b->n + 2u, 1024u))) {
		c->st.rom_overflow++;
		return ROM_NONE;
	}
	k = ++b->n;
	b->data[(size_t)k * 65u] = (uint8_t)bytes;
	memcpy(b->data + (size_t)k * 65u + 1u, p, bytes);
	b->slot[i] = k;
	c->st.rom_tiles = b->n;
	return k;
}

static uint32_t unit_rom(vs_capture *c, const vs_gba_frame *f, uint32_t unit, int bpp8)
{
	cap_bg *b = c->bg;

	const uint8_t *p = f->vram + unit * 32u;
	uint8_t *kept = b->memo_bytes[bpp8] + unit * 32u;
	unsigned bytes = bpp8 ? 64u : 32u;

	if (b->memo_stamp[unit][bpp8] == b->stamp)
		return b->memo[unit][bpp8];
	b->memo_stamp[unit][bpp8] = b->stamp;
	if (b->memo_ok[unit][bpp8] && memcmp(p, kept, bytes) == 0)
		return b->memo[unit][bpp8];
	b->memo[unit][bpp8] = rom_of(c, p, bytes);
	/* graphics past the table are looked up (and counted) every frame */
	b->memo_ok[unit][bpp8] = b->memo[unit][bpp8] != ROM_NONE;
	memcpy(kept, p, bytes);
	return b->memo[unit][bpp8];
}

/* ---- references --------------------------------------------------------------- */

/* The first cell from `from` on with a live reference, or CELLS. */
static uint32_t next_live(const layer *l, uint32_t from)
{
	uint32_t w = from / 64u;
	uint64_t bits;

	if (from >= CELLS)
		return CELLS;
	bits = l->live[w] & (~(uint64_t)0 << (from % 64u));
	while (!bits) {
		if (++w == CELLS / 64u)
			return CELLS;
		bits = l->live[w];
	}
	return w * 64u + (uint32_t)__builtin_ctzll(bits);
}

/* ---- uploads (--uploads) -------------------------------------------------------- */

static void runs_overwritten(vs_capture *c);

/* Notes the RAM tiles the game changed since the previous frame, blank
 * frames included (games upload under forced blank). What a bitmap mode
 * draws is a picture, not an upload: it dates nothing. */
void cap_bg_uploads(vs_capture *c, const vs_gba_frame *f)
{
	cap_bg *b = c->bg;
	int picture = cap_mode(f) >= 3 && cap_mode(f) <= 5;
	uint32_t u;

	for (u = 0; u < UNITS; u++) {
		uint8_t *was = c->prev + u * 32u;
		if (memcmp(f->vram + u * 32u, was, 32) == 0)
			continue;
		memcpy(was, f->vram + u * 32u, 32);
		b->written[u] = c->o.frame + 1;
		if (picture)
			b->fresh[u] = 0;
		else if (!b->fresh[u])
			b->fresh[u] = c->o.frame + 1;
	}
	runs_overwritten(c);
}

/* The RAM tiles from unit on are freed now: an upload from here on is
 * the next allocation's. */
static void units_freed(vs_capture *c, uint32_t unit, uint32_t n)
{
	cap_bg *b = c->bg;
	uint32_t u;

	for (u = unit; u < unit + n && u < UNITS; u++) {
		b->freed[u] = c->o.frame + 1;
		b->fresh[u] = b->written[u] == c->o.frame + 1 ? b->written[u] : 0;
	}
}

/* The frame an allocation of RAM tiles unit .. unit + n - 1 made now is
 * dated at: without --uploads this one; with it, the first change of its
 * tiles since they were last freed, but not before that free nor before
 * the oldest frame still buffered. */
static uint64_t upload_date(const vs_capture *c, uint32_t unit, uint32_t n)
{
	const cap_bg *b = c->bg;
	uint64_t d = c->o.frame;
	uint32_t u;

	if (!c->opt.uploads)
		return d;
	for (u = unit; u < unit + n && u < UNITS; u++)
		if (b->fresh[u] && b->fresh[u] - 1 < d)
			d = b->fresh[u] - 1;
	for (u = unit; u < unit + n && u < UNITS; u++)
		if (b->freed[u] && b->freed[u] - 1 > d)
			d = b->freed[u] - 1;
	return d < c->o.flushed ? c->o.flushed : d;
}

/* ---- uploads no layer shows (--uploads) ------------------------------------------ */

/* Whether a live allocation holds the RAM tile: a map, a reference (an
 * 8bpp one holds the next RAM tile too, as does the zero tile's 64-byte
 * record), or a run. */
static int unit_owned(const cap_bg *b, uint32_t u)
{
	return b->mapped[u] || b->refs[u][0] || b->refs[u][1] || b->run_of[u] ||
		(u > 0 && (b->refs[u - 1][1] || b->held64[u - 1]));
}

/* A run's request: its kind where the registers told it and the request
 * can say it (a text map's cells, a tile set of whole tiles), else bytes. */
static void run_request(const bg_run *r, vs_request *rq)
{
	static const uint8_t cols[4] = {32, 64, 32, 64}, rows[4] = {32, 32, 64, 64};
	unsigned pairs = r->lo % 2u == 0 && r->n % 2u == 0, size = r->map_size == 0xFF ? 0 : r->map_size;

	memset(rq, 0, sizeof *rq);
	rq->size = r->n * 32u;
	if (r->kind >= RUN_MAP && (r->map_size != 0xFF || r->n == 64u)) {
		rq->shape = VS_REQ_CELLS;
		rq->u.cells.width = cols[size];
		rq->u.cells.height = rows[size];
	} else if ((r->kind == RUN_TILES4 && r->n <= 2048u) || (r->kind == RUN_TILES8 && pairs && r->n <= 2048u) ||
		(r->kind == RUN_AFFINE && pairs && r->n <= 512u)) {
		rq->shape = VS_REQ_TILESET;
		rq->u.tileset.bpp = r->kind == RUN_TILES4 ? 4 : 8;
		rq->u.tileset.count = (uint16_t)(r->kind == RUN_TILES4 ? r->n : r->n / 2u);
		rq->u.tileset.affine = r->kind == RUN_AFFINE;
	}
	if (rq->shape != VS_REQ_BYTES)
		vs_request_derive_size(rq);
}

static void run_write(vs_capture *c, bg_run *r)
{
	vs_request rq;
	char tag[16];

	if (r->out)
		return;
	run_request(r, &rq);
	cap_data_tag(r->hash, tag, sizeof tag);
	r->id = c->next_id++;
	r->out = 1;
	cap_alloc(c, r->date, CAP_ARENA_BG, r->id, &rq, tag, BG_BASE + r->lo * 32u);
	c->st.bg_unseen++;
	c->st.bg_unseen_tilesets += rq.shape == VS_REQ_TILESET;
	c->st.bg_unseen_maps += rq.shape == VS_REQ_CELLS;
}

static void run_drop(cap_bg *b, uint32_t slot)
{
	bg_run *r = &b->run[slot];

	memset(b->run_of + r->lo, 0, r->n * sizeof *b->run_of);
	r->used = 0;
}

/* Overwritten, cleared, or met otherwise than whole once written: the run
 * ends in this frame; what was written is the next upload's. */
static void run_end(vs_capture *c, uint32_t slot)
{
	bg_run *r = &c->bg->run[slot];

	run_write(c, r);
	cap_free(c, c->o.frame, r->id);
	run_drop(c->bg, slot);
	units_freed(c, r->lo, r->n);
	c->st.bg_unseen_ended++;
}

/* A map or a tile reference about to be made on RAM tiles lo .. lo + n - 1:
 * the runs there make way. One whose line is not written yet is let go
 * with no trace: the new allocation is dated at the upload of its own RAM
 * tiles, and the rest is found again at the frame's end. A written one of
 * exactly a map's extent (`whole`) is handed over: its id is returned, the
 * map's from now on. Any other written one ends in this frame, and the new
 * allocation begins then: a tile reference is never handed a run, since
 * later references to the same RAM tile share it as `tile` requests, which
 * a run's line is not. */
static uint64_t runs_meet(vs_capture *c, uint32_t lo, uint32_t n, int whole)
{
	cap_bg *b = c->bg;
	uint32_t u;

	for (u = lo; u < lo + n && u < UNITS; u++) {
		uint32_t slot = b->run_of[u];
		bg_run *r = slot ? &b->run[slot - 1] : NULL;
		if (!r)
			continue;
		if (!r->out) {
			run_drop(b, slot - 1);
			c->st.bg_unseen_taken++;
		} else if (whole && r->lo == lo && r->n == n) {
			run_drop(b, slot - 1);
			c->st.bg_unseen_handed++;
			return r->id;
		} else {
			run_end(c, slot - 1);
		}
	}
	return 0;
}

/* The frame's first step: a write into a run ends it. */
static void runs_overwritten(vs_capture *c)
{
	cap_bg *b = c->bg;
	uint32_t u;

	for (u = 0; u < UNITS; u++)
		if (b->run_of[u] && b->written[u] == c->o.frame + 1)
			run_end(c, b->run_of[u] - 1u);
}

void cap_bg_commit_uploads(vs_capture *c)
{
	cap_bg *b = c->bg;
	uint32_t slot;

	for (slot = 0; slot < UNITS; slot++)
		if (b->run[slot].used && !b->run[slot].out && b->run[slot].date <= c->o.flushed)
			run_write(c, &b->run[slot]);
}

static void ref_end(vs_capture *c, layer *l, uint32_t cellno)
{
	cell *x = &l->cell[cellno];
	uint32_t *refs = c->bg->refs[x->unit];

	l->live[cellno / 64u] &= ~((uint64_t)1 << (cellno % 64u));
	cap_free(c, c->o.frame, x->id);
	refs[x->bpp8]--;
	/* the last reference gone frees the RAM tile (both, at 8bpp or for
	 * the zero tile's 64-byte record) */
	if (!refs[0] && !refs[1]) {
		units_freed(c, x->unit, x->bpp8 || c->bg->held64[x->unit] ? 2u : 1u);
		c->bg->held64[x->unit] = 0;
	}
	c->bg->live--;
	c->st.bg_frees++;
	x->id = 0;
}

static void ref_new(vs_capture *c, layer *l, int n, const want *w)
{
	cap_bg *b = c->bg;
	cell *x = &l->cell[w->cell];
	int first = !b->refs[w->unit][0] && !b->refs[w->unit][1];
	/* a RAM tile's first reference is its allocation; the others share it */
	uint64_t d = first ? upload_date(c, w->unit, l->bpp8 ? 2u : 1u) : c->o.frame;
	vs_request rq;
	char tag[24];

	memset(&rq, 0, sizeof rq);
	rq.shape = VS_REQ_TILE;
	rq.u.tile.rom = w->rom;
	rq.u.tile.bpp = l->bpp8 ? 8 : 4;
	rq.u.tile.cb1 = (uint8_t)(l->cb + 1u);
	rq.u.tile.affine = l->kind == KIND_AFFINE;
	vs_request_derive_size(&rq);
	x->id = c->next_id++;
	l->live[w->cell / 64u] |= (uint64_t)1 << (w->cell % 64u);
	x->rom = w->rom;
	x->unit = w->unit;
	x->bpp8 = l->bpp8;
	c->st.bg_hits += b->refs[w->unit][l->bpp8] > 0;
	if (!b->refs[w->unit][0] && !b->refs[w->unit][1])
		b->held64[w->unit] = l->bpp8;
	b->refs[w->unit][l->bpp8]++;
	b->live++;
	c->st.bg_refs++;
	snprintf(tag, sizeof tag, "bg%d-tiles", n);
	c->st.bg_refs_dated += d < c->o.frame;
	cap_alloc(c, d, CAP_ARENA_BG, x->id, &rq, tag, BG_BASE + w->unit * 32u);
}

/* A cell on screen: the RAM tile its map entry names, and that tile's
 * identity. Flip and palette bits are not part of it. */
static void see(vs_capture *c, const vs_gba_frame *f, layer *l, uint32_t cellno, uint32_t tile)
{
	cap_bg *b = c->bg;
	uint32_t bytes = l->bpp8 ? 64u : 32u, off = l->cb * VS_GBA_CHARBLOCK_BYTES + tile * bytes;
	want *w;

	if (l->seen[cellno] == b->stamp)
		return;
	l->seen[cellno] = b->stamp;
	l->at[cellno] = (uint16_t)l->nwant;
	w = &l->want[l->nwant++];
	w->cell = (uint16_t)cellno;
	w->ok = off + bytes <= VS_GBA_BG_BYTES;
	w->unit = (uint16_t)(w->ok ? off / 32u : 0);
	w->rom = w->ok ? unit_rom(c, f, w->unit, l->bpp8) : 0;
	c->st.bg_past_end += !w->ok;
}

static unsigned map_byte(const vs_gba_frame *f, uint32_t off)
{
	return f->vram[off & (VS_GBA_BG_BYTES - 1u)];
}

/* Text: the 30x20 cells under the screen (31x21 when the scroll is not a
 * multiple of 8), wrapping around the map. Maps wider or taller than 256
 * pixels are 32x32-cell screenblocks side by side, then below. */
static void text_cells(vs_capture *c, const vs_gba_frame *f, layer *l, int n)
{
	unsigned cols = l->size & 1u ? 64u : 32u, rows = l->size & 2u ? 64u : 32u;
	unsigned hofs = f->io[VS_IO_BG0HOFS + 2 * n] & 0x1FFu, vofs = f->io[VS_IO_BG0HOFS + 2 * n + 1] & 0x1FFu;
	unsigned nc = 30u + ((hofs & 7u) != 0), nr = 20u + ((vofs & 7u) != 0), r, k;

	for (r = 0; r < nr; r++) {
		unsigned ty = ((vofs >> 3) + r) % rows;
		for (k = 0; k < nc; k++) {
			unsigned tx = ((hofs >> 3) + k) % cols;
			uint32_t sb = (tx >> 5) + (ty >> 5) * (cols >> 5);
			uint32_t off = l->sbb * VS_GBA_SCREENBLOCK_BYTES + sb * VS_GBA_SCREENBLOCK_BYTES +
				(ty & 31u) * 64u + (tx & 31u) * 2u;
			unsigned e = map_byte(f, off) | map_byte(f, off + 1u) << 8;
			see(c, f, l, ty * cols + tx, e & 0x3FFu);
		}
	}
}

/* A 28-bit signed reference point (19.8 fixed point and a sign). */
static int64_t ref_point(const vs_gba_frame *f, unsigned i)
{
	uint32_t v = (f->io[i] | (uint32_t)f->io[i + 1] << 16) & 0x0FFFFFFFu;

	return (int64_t)v - (v & 0x08000000u ? 0x10000000 : 0);
}

static int64_t floor8(int64_t v)
{
	return v >= 0 ? v >> 8 : ~((~v) >> 8);
}

/* Pixels, stepping d from s (8 fraction bits), before s leaves its 8-pixel
 * cell (2048 units): at least 1. */
static int64_t run_in_cell(int64_t s, int64_t d)
{
	int64_t lo = (s >= 0 ? s >> 11 : ~((~s) >> 11)) * 2048;

	if (d > 0)
		return (lo + 2048 - s + d - 1) / d;
	if (d < 0)
		return (s - lo) / -d + 1;
	return 240;
}

/* Affine: the cells the transform samples, as the hardware does pixel by
 * pixel (x = X + PA*px + PB*py, y = Y + PC*px + PD*py, 8 fraction bits);
 * outside the map a pixel is transparent unless the layer wraps. The
 * pixels of a line that stay in one cell sample it alike (the map's edges
 * and wraps are cell edges), so a line is walked a cell at a time. */
static void affine_cells(vs_capture *c, const vs_gba_frame *f, layer *l, int n)
{
	unsigned io = n == 2 ? VS_IO_BG2PA : VS_IO_BG3PA, py;
	int64_t pa = (int16_t)f->io[io], pb = (int16_t)f->io[io + 1], pc = (int16_t)f->io[io + 2];
	int64_t pd = (int16_t)f->io[io + 3], x0 = ref_point(f, io + 4), y0 = ref_point(f, io + 6);
	int64_t size = 128 << l->size, cols = size / 8, px, k, ky;
	int wrap = (f->io[VS_IO_BG0CNT + n] >> 13) & 1;

	for (py = 0; py < 160; py++) {
		int64_t sx = x0 + pb * py, sy = y0 + pd * py;
		for (px = 0; px < 240; px += k, sx += k * pa, sy += k * pc) {
			int64_t mx = floor8(sx), my = floor8(sy);
			uint32_t cellno;
			k = run_in_cell(sx, pa);
			ky = run_in_cell(sy, pc);
			k = ky < k ? ky : k;
			k = 240 - px < k ? 240 - px : k;
			if (wrap) {
				mx &= size - 1;
				my &= size - 1;
			} else if (mx < 0 || my < 0 || mx >= size || my >= size) {
				continue;
			}
			cellno = (uint32_t)((my >> 3) * cols + (mx >> 3));
			if (l->seen[cellno] != c->bg->stamp)
				see(c, f, l, cellno, map_byte(f, l->sbb * VS_GBA_SCREENBLOCK_BYTES + cellno));
		}
	}
}

/* ---- layers --------------------------------------------------------------------- */

static int layer_kind(unsigned dispcnt, int n)
{
	unsigned mode = dispcnt & 7u;

	if (!((dispcnt >> (8 + n)) & 1u))
		return KIND_OFF;
	if (mode == 0)
		return KIND_TEXT;
	if (mode == 1)
		return n < 2 ? KIND_TEXT : n == 2 ? KIND_AFFINE : KIND_OFF;
	if (mode == 2)
		return n >= 2 ? KIND_AFFINE : KIND_OFF;
	return KIND_OFF; /* bitmap modes: no tiles */
}

/* Rule 5: VRAM one allocation holds is not given to another. A tile at
 * one depth overlaps the other depth's tiles around it (an 8bpp tile is two
 * RAM tiles); a map holds its screenblocks. The all-transparent tile is
 * one tile at both depths at one address, as tile managers keep it: loaded
 * first at 8bpp it holds both RAM tiles as long as any layer uses it. */
static int tile_taken(vs_capture *c, const vs_gba_frame *f, uint32_t unit, int bpp8, uint32_t rom)
{
	const cap_bg *b = c->bg;
	int other = bpp8 ? 0 : 1, shared0 = 0;

	if (b->refs[unit][other] && rom == 0)
		shared0 = cap_all_zero(f->vram + unit * 32u, other ? 64u : 32u);
	if (bpp8)
		return b->mapped[unit] || b->mapped[unit + 1] || (b->refs[unit][0] && !shared0) || b->refs[unit + 1][0];
	return b->mapped[unit] || (b->refs[unit][1] && !shared0) || (unit > 0 && (b->refs[unit - 1][1] ||
		b->held64[unit - 1]));
}

static int units_taken(const cap_bg *b, uint32_t unit, uint32_t n)
{
	uint32_t u;

	if (unit > 0 && b->held64[unit - 1])
		return 1;
	for (u = unit; u < unit + n; u++)
		if (b->mapped[u] || b->refs[u][0] || b->refs[u][1])
			return 1;
	return 0;
}

static void layer_drop(vs_capture *c, layer *l)
{
	uint32_t i;

	for (i = next_live(l, 0); i < CELLS; i = next_live(l, i + 1))
		ref_end(c, l, i);
	if (l->map_id) {
		cap_free(c, c->o.frame, l->map_id);
		memset(c->bg->mapped + l->map_unit, 0, l->map_units);
		units_freed(c, l->map_unit, l->map_units);
	}
	l->map_id = 0;
}

/* A map running past the 64 KiB BG area is cut there and written as a
 * byte request; one on VRAM another allocation holds (two layers sharing
 * screenblocks, a map over tiles shown) is not allocated twice. */
static void layer_map(vs_capture *c, layer *l, int n)
{
	uint32_t start = l->sbb * VS_GBA_SCREENBLOCK_BYTES, bytes;
	uint64_t d, handed;
	vs_request rq;
	char tag[24];

	memset(&rq, 0, sizeof rq);
	rq.shape = VS_REQ_BGMAP;
	rq.u.bgmap.affine = l->kind == KIND_AFFINE;
	rq.u.bgmap.size = l->size;
	vs_request_derive_size(&rq);
	bytes = rq.size;
	if (start + bytes > VS_GBA_BG_BYTES) {
		bytes = VS_GBA_BG_BYTES - start;
		memset(&rq, 0, sizeof rq);
		rq.size = bytes;
		c->st.bg_map_clipped++;
	}
	if (units_taken(c->bg, start / 32u, bytes / 32u)) {
		c->st.bg_conflicts++;
		return;
	}
	handed = runs_meet(c, start / 32u, bytes / 32u, 1);
	l->map_id = handed ? handed : c->next_id++;
	l->map_unit = (uint16_t)(start / 32u);
	l->map_units = (uint16_t)(bytes / 32u);
	memset(c->bg->mapped + l->map_unit, 1, l->map_units);
	c->st.bg_maps++;
	if (handed)
		return;
	snprintf(tag, sizeof tag, "bg%d", n);
	d = upload_date(c, l->map_unit, l->map_units);
	c->st.bg_maps_dated += d < c->o.frame;
	cap_alloc(c, d, CAP_ARENA_BG, l->map_id, &rq, tag, BG_BASE + start);
}

/* Rule 2: the map is reallocated when its kind, size or screenblock
 * changes; the cells on screen are gathered. */
static void layer_frame(vs_capture *c, const vs_gba_frame *f, int n)
{
	layer *l = &c->bg->l[n];
	unsigned cnt = f->io[VS_IO_BG0CNT + n];
	int kind = layer_kind(f->io[VS_IO_DISPCNT], n);
	uint8_t size = (uint8_t)(cnt >> 14), sbb = (uint8_t)((cnt >> 8) & 31u);

	if (kind != l->kind || (kind && (size != l->size || sbb != l->sbb))) {
		layer_drop(c, l);
		l->kind = (uint8_t)kind;
		l->size = size;
		l->sbb = sbb;
		if (kind)
			layer_map(c, l, n);
	}
	l->nwant = 0;
	if (!kind)
		return;
	l->cb = (uint8_t)((cnt >> 2) & 3u);
	l->bpp8 = (uint8_t)(kind == KIND_AFFINE || (cnt & 0x80u));
	if (kind == KIND_TEXT)
		text_cells(c, f, l, n);
	else
		affine_cells(c, f, l, n);
}

/* References that no longer hold: the cell left the screen, or names
 * another RAM tile, or its RAM tile holds other graphics now. */
static void layer_ends(vs_capture *c, layer *l)
{
	uint32_t i;

	for (i = next_live(l, 0); i < CELLS; i = next_live(l, i + 1)) {
		cell *x = &l->cell[i];
		const want *w;
		if (l->seen[i] != c->bg->stamp) {
			ref_end(c, l, i);
			continue;
		}
		w = &l->want[l->at[i]];
		if (w->ok && w->unit == x->unit && x->bpp8 == l->bpp8 && w->rom == x->rom)
			continue;
		c->st.bg_streamed += w->ok && w->unit == x->unit && x->bpp8 == l->bpp8;
		ref_end(c, l, i);
	}
}

static void layer_begins(vs_capture *c, const vs_gba_frame *f, layer *l, int n)
{
	uint32_t i;

	for (i = 0; i < l->nwant; i++) {
		const want *w = &l->want[i];
		if (!w->ok || l->cell[w->cell].id)
			continue;
		if (tile_taken(c, f, w->unit, l->bpp8, w->rom)) {
			c->st.bg_conflicts++;
		} else {
			runs_meet(c, w->unit, l->bpp8 ? 2u : 1u, 0);
			ref_new(c, l, n, w);
		}
	}
}

/* All ends before any new reference, so a hit is counted against the
 * references that still hold. */
void cap_bg_frame(vs_capture *c, const vs_gba_frame *f)
{
	cap_bg *b = c->bg;
	int n;

	if (cap_blank(f))
		return;
	b->stamp++;
	for (n = 0; n < 4; n++)
		layer_frame(c, f, n);
	for (n = 0; n < 4; n++)
		layer_ends(c, &b->l[n]);
	for (n = 0; n < 4; n++)
		layer_begins(c, f, &b->l[n], n);
	if (b->live > c->st.bg_refs_max)
		c->st.bg_refs_max = b->live;
}

/* ---- runs found (--uploads) ----------------------------------------------------- */

/* The kind of every RAM tile by this frame's registers. A BGxCNT the game
 * set (not zero) of a text layer the mode has, shown or not, names its
 * map's screen blocks; tiles a shown layer can reach from its character
 * base are of its depth when no shown layer of another depth reaches them. */
static void run_kinds(vs_capture *c, const vs_gba_frame *f, uint8_t *kind)
{
	cap_bg *b = c->bg;
	unsigned dispcnt = f->io[VS_IO_DISPCNT];
	uint8_t depth[UNITS];
	uint32_t u;
	int n;

	memset(depth, 0, sizeof depth);
	for (n = 0; n < 4; n++) {
		unsigned cnt = f->io[VS_IO_BG0CNT + n], size = cnt >> 14;
		int shown = layer_kind(dispcnt, n);
		uint32_t lo = ((cnt >> 8) & 31u) * 64u, hi = lo + (size == 0 ? 1u : size == 3 ? 4u : 2u) * 64u;
		uint32_t base = ((cnt >> 2) & 3u) * (VS_GBA_CHARBLOCK_BYTES / 32u);
		uint32_t reach = shown == KIND_AFFINE ? 512u : cnt & 0x80u ? 2048u : 1024u;
		uint8_t bit = shown == KIND_AFFINE ? 4u : cnt & 0x80u ? 2u : 1u;
		b->map_hi[n] = 0;
		if (layer_kind(dispcnt | 0xF00u, n) == KIND_TEXT && cnt) {
			b->map_lo[n] = (uint16_t)lo;
			b->map_hi[n] = (uint16_t)(hi < UNITS ? hi : UNITS);
			b->map_size[n] = (uint8_t)(hi <= UNITS ? size : 0xFFu);
		}
		for (u = base; shown && u < base + reach && u < UNITS; u++)
			depth[u] |= bit;
	}
	for (u = 0; u < UNITS; u++)
		kind[u] = depth[u] == 1 ? RUN_TILES4 : depth[u] == 2 ? RUN_TILES8 : depth[u] == 4 ? RUN_AFFINE : RUN_BYTES;
	for (n = 0; n < 4; n++)
		for (u = b->map_lo[n]; u < b->map_hi[n]; u++)
			kind[u] = (uint8_t)(RUN_MAP + n);
}

static void run_found(vs_capture *c, uint32_t lo, uint32_t hi, uint64_t date)
{
	cap_bg *b = c->bg;
	uint32_t slot, u, h = CAP_FNV_START;
	bg_run *r;

	for (slot = 0; b->run[slot].used; slot++)
		;
	r = &b->run[slot];
	memset(r, 0, sizeof *r);
	r->lo = (uint16_t)lo;
	r->n = (uint16_t)(hi - lo);
	r->used = 1;
	r->kind = b->run_kind[lo];
	r->date = date < c->o.flushed ? c->o.flushed : date;
	r->map_size = 0xFF;
	if (r->kind >= RUN_MAP && lo == b->map_lo[r->kind - RUN_MAP] && hi == b->map_hi[r->kind - RUN_MAP])
		r->map_size = b->map_size[r->kind - RUN_MAP];
	for (u = lo; u < hi; u++) {
		h = cap_fnv(h, c->prev + u * 32u, 32);
		b->run_of[u] = (uint16_t)(slot + 1);
	}
	r->hash = h;
}

/* The frame's last step: RAM tiles no live allocation owns that were
 * written since their last free are an upload no layer shows. Tiles go a
 * RAM tile at a time (an all-zero one is a clear, no upload); a map's
 * screen blocks go whole (its zero entries are data; a block all zero is a
 * clear, and one a live allocation holds part of is none). Runs are cut
 * where the kind changes. Pictures of a bitmap mode are no upload. */
void cap_bg_runs_found(vs_capture *c, const vs_gba_frame *f)
{
	cap_bg *b = c->bg;
	uint64_t first[UNITS], d;
	uint32_t u, k;
	int own;

	if ((cap_mode(f) >= 3 && cap_mode(f) <= 5) || (c->started && c->st.first_mode >= 3 && c->st.first_mode <= 5))
		return;
	run_kinds(c, f, b->run_kind);
	for (u = 0; u < UNITS; u++) {
		first[u] = 0;
		if (b->run_kind[u] >= RUN_MAP || unit_owned(b, u) || !b->fresh[u])
			continue;
		if (cap_all_zero(c->prev + u * 32u, 32))
			b->fresh[u] = 0;
		else
			first[u] = b->fresh[u];
	}
	for (u = 0; u < UNITS; u += 64u) {
		if (b->run_kind[u] < RUN_MAP)
			continue;
		for (k = u, d = 0, own = 0; k < u + 64u; k++) {
			own |= unit_owned(b, k);
			if (b->fresh[k] && (!d || b->fresh[k] < d))
				d = b->fresh[k];
		}
		if (own || !d)
			continue;
		if (cap_all_zero(c->prev + u * 32u, VS_GBA_SCREENBLOCK_BYTES))
			memset(b->fresh + u, 0, 64u * sizeof *b->fresh);
		else
			for (k = u; k < u + 64u; k++)
				first[k] = d;
	}
	cap_runs(c, first, b->run_kind, UNITS, run_found);
}
