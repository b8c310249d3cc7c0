/* SPDX-License-Identifier: Zlib */
/* layout.c - where each unit of an arena is drawn, the way the hardware is
 * usually pictured, and the drawing of the ownership map itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "vram/arena.h"
#include "vram/ds_banks.h"

#define LABEL_H (VS_FONT_H + 3)
#define PANEL_SEP 8

/* ---- colours ---------------------------------------------------------- */

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		h ^= (uint8_t)*s;
		h *= 16777619u;
	}
	return h;
}

/* Integer HSV so every machine computes the same bytes. */
static uint32_t hsv(unsigned h, unsigned s, unsigned v)
{
	unsigned region = h / 60, rem = (h % 60) * 255 / 60;
	unsigned p = v * (255 - s) / 255;
	unsigned q = v * (255 - s * rem / 255) / 255;
	unsigned t = v * (255 - s * (255 - rem) / 255) / 255;
	unsigned r, g, b;

	switch (region) {
	case 0: r = v; g = t; b = p; break;
	case 1: r = q; g = v; b = p; break;
	case 2: r = p; g = v; b = t; break;
	case 3: r = p; g = q; b = v; break;
	case 4: r = t; g = p; b = v; break;
	default: r = v; g = p; b = q; break;
	}
	return (uint32_t)r << 24 | (uint32_t)g << 16 | (uint32_t)b << 8 | 0xFFu;
}

/* A categorical palette for tags in the order they first appear in a
 * trace (the trace reader numbers tags so): Kelly's colours of maximum
 * contrast, less the darkest and the closest pairs, and brighter ones
 * added; every two of the 24 are at least 54 apart in RGB (test_render). */
static const uint32_t tag_palette[] = {
	0xF3C300FFu, 0x4FA8FFFFu, 0xF38400FFu, 0x60D060FFu, 0xE0304AFFu, 0xC080F0FFu, 0xA1CAF1FFu, 0xE68FACFFu,
	0x008856FFu, 0xC2B280FFu, 0x0067A5FFu, 0xB3446CFFu, 0x8DB600FFu, 0xF99379FFu, 0x875692FFu, 0x20C0C0FFu,
	0xE25822FFu, 0xFF66FFFFu, 0x98FB98FFu, 0xFFE4A0FFu, 0x8080FFFFu, 0x00E0A0FFu, 0x3060FFFFu, 0xA0FF40FFu
};

uint32_t vs_colour_tag_id(uint32_t tag)
{
	uint32_t n = (uint32_t)(sizeof tag_palette / sizeof tag_palette[0]), k;

	if (tag == 0)
		return VS_RGB_UNTAGGED;
	if (tag <= n)
		return tag_palette[tag - 1];
	/* past the table: hues a golden angle apart, still one colour per tag */
	k = tag - n;
	return hsv((k * 137u) % 360u, 140 + (k % 3) * 40, 235 - (k / 3 % 3) * 30);
}

/* blue to magenta; no red, which marks failures */
static const uint32_t bin_colour[5] = { 0x4FA8FFFFu, 0x60D060FFu, 0xF3C300FFu, 0xF38400FFu, 0xFF66FFFFu };

int vs_colour_by_parse(const char *name)
{
	static const char *const names[] = { "tag", "size", "age", "bpp" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

int vs_colour_by_bin(vs_colour_by by, int k, const char **name, uint32_t *colour)
{
	static const char *const size[] = { "<= 32 B", "<= 128 B", "<= 512 B", "<= 2 KiB", "> 2 KiB" };
	static const char *const age[] = { "< 16 events old", "< 256", "< 4096", "< 65536", "older" };
	static const char *const bpp[] = { "4bpp", "8bpp", "no depth (bytes, textures)" };
	const char *const *v = by == VS_COLOUR_SIZE ? size : by == VS_COLOUR_AGE ? age : bpp;
	int n = by == VS_COLOUR_BPP ? 3 : by == VS_COLOUR_TAG ? 0 : 5;

	if (k >= 0 && k < n) {
		*name = v[k];
		*colour = by == VS_COLOUR_BPP ? bin_colour[k == 2 ? 4 : k * 2] : bin_colour[k];
	}
	return n;
}

uint32_t vs_colour_live(const vs_live *l, vs_colour_by by, uint64_t now)
{
	uint64_t v;
	int k = 0;

	if (!l)
		return VS_RGB_UNTAGGED;
	if (by == VS_COLOUR_BPP) {
		unsigned bpp = l->req.shape == VS_REQ_SPRITE ? l->req.u.sprite.bpp : l->req.shape == VS_REQ_TILE ?
			l->req.u.tile.bpp : l->req.shape == VS_REQ_TILESET ? l->req.u.tileset.bpp : 0;
		return bin_colour[bpp == 4 ? 0 : bpp == 8 ? 2 : 4];
	}
	if (by == VS_COLOUR_TAG)
		return vs_colour_tag_id(l->req.tag);
	v = by == VS_COLOUR_SIZE ? l->req.size : (now > l->event ? now - l->event : 0);
	for (k = 0; k < 4 && v > (by == VS_COLOUR_SIZE ? 32ull << (2 * k) : 16ull << (4 * k)) - (by == VS_COLOUR_AGE);
		k++)
		;
	return bin_colour[k];
}

uint32_t vs_colour_tag(const char *tag)
{
	uint32_t h;

	if (!tag || !*tag)
		return VS_RGB_UNTAGGED;
	h = fnv1a(tag);
	/* hue from the low bits, then one of four saturation/value pairs so
	 * neighbours in hue still differ */
	return hsv(h % 360, 150 + (h >> 16 & 3) * 25, 255 - (h >> 20 & 3) * 22);
}

static uint32_t scale_rgb(uint32_t c, unsigned num, unsigned den)
{
	unsigned r = (c >> 24) * num / den, g = (c >> 16 & 255) * num / den, b = (c >> 8 & 255) * num / den;

	if (r > 255)
		r = 255;
	if (g > 255)
		g = 255;
	if (b > 255)
		b = 255;
	return (uint32_t)r << 24 | (uint32_t)g << 16 | (uint32_t)b << 8 | 0xFFu;
}

static uint32_t mix(uint32_t a, uint32_t b, unsigned wa, unsigned wb)
{
	unsigned i, out = 0;

	for (i = 8; i < 32; i += 8) {
		unsigned x = (a >> i & 255) * wa + (b >> i & 255) * wb;
		out |= (x / (wa + wb)) << i;
	}
	return out | 0xFFu;
}

uint32_t vs_colour_unit_pixel(vs_unit_kind k, uint32_t c, int is_map, int x, int y)
{
	switch (k) {
	case VS_UNIT_FREE:
		return VS_RGB_FREE;
	case VS_UNIT_DATA:
		/* maps: horizontal scan lines, tiles: solid */
		return is_map && y % 3 == 2 ? scale_rgb(c, 3, 5) : c;
	case VS_UNIT_SLACK:
		/* granted, not asked for: hatched in the owner's colour */
		return (x + y) % 4 < 2 ? scale_rgb(c, 1, 2) : mix(c, VS_RGB_FREE, 1, 2);
	case VS_UNIT_OVERHEAD:
		return x % 2 == 0 && y % 2 == 0 ? 0x505050FFu : VS_RGB_OVERHEAD;
	case VS_UNIT_INDEX:
		/* DS 4x4 index data: the owner's colour, dotted light */
		return x % 2 == 1 && y % 2 == 1 ? mix(c, 0xFFFFFFFFu, 1, 1) : scale_rgb(c, 4, 5);
	case VS_UNIT_RETAINED:
		/* freed by the game, kept by the allocator: stripes on free */
		return (x + 64 - y % 64) % 3 == 0 ? c : mix(c, VS_RGB_FREE, 1, 4);
	case VS_UNIT_RESERVED:
	default:
		return (x + y) % 4 == 0 ? 0x8A4444FFu : VS_RGB_RESERVED;
	}
}

/* ---- source from a replay --------------------------------------------- */

static const vs_live *replay_owner(void *ud, uint32_t owner)
{
	return vs_replay_live_by_owner(ud, owner);
}

static const char *replay_tag(void *ud, uint32_t tag)
{
	return vs_replay_tag_name(ud, tag);
}

void vs_render_src_replay(vs_render_src *src, const vs_replay *r, int i)
{
	memset(src, 0, sizeof *src);
	src->arena = vs_replay_arena(r, i);
	src->owner = replay_owner;
	src->tag_name = replay_tag;
	src->ud = (void *)r;
	src->metrics = vs_replay_metrics(r, i);
	src->strategy = vs_replay_strategy(r, i) ? vs_replay_strategy(r, i)->name : NULL;
	src->event = vs_replay_events(r);
	src->frame = vs_replay_frames(r);
	if (src->arena->decl.kind == VS_ARENA_RAM && src->metrics->high_water < src->arena->decl.size) {
		uint64_t step = src->arena->decl.size / 16u ? src->arena->decl.size / 16u : 1u;
		uint64_t hw = src->metrics->high_water ? src->metrics->high_water : 1u;
		src->shown = (uint32_t)((hw + step - 1) / step * step);
		if (src->shown >= src->arena->decl.size)
			src->shown = 0;
	}
}

/* ---- layouts ---------------------------------------------------------- */

static vs_layout_panel *add_panel(vs_layout *L, uint32_t unit0, uint32_t nunits, int cols, int cw, int gap)
{
	vs_layout_panel *p = &L->panel[L->npanels++];

	memset(p, 0, sizeof *p);
	p->unit0 = unit0;
	p->nunits = nunits;
	p->upc = 1;
	p->cols = cols;
	p->rows = (int)((nunits + (uint32_t)cols - 1) / (uint32_t)cols);
	p->cw = p->ch = cw;
	p->gap = gap;
	return p;
}

static int panel_w(const vs_layout_panel *p)
{
	return p->margin + p->cols * (p->cw + p->gap) - p->gap;
}

static int panel_h(const vs_layout_panel *p)
{
	return LABEL_H + p->rows * (p->ch + p->gap + p->row_gap) - p->gap - p->row_gap;
}

/* Places panels in a grid of `across` columns and sets the layout size. */
static void arrange(vs_layout *L, int across)
{
	int i, colw[VS_LAYOUT_MAX_PANELS] = { 0 }, rowh[VS_LAYOUT_MAX_PANELS] = { 0 }, x, y;

	for (i = 0; i < L->npanels; i++) {
		int c = i % across, r = i / across;
		if (panel_w(&L->panel[i]) > colw[c])
			colw[c] = panel_w(&L->panel[i]);
		if (panel_h(&L->panel[i]) > rowh[r])
			rowh[r] = panel_h(&L->panel[i]);
	}
	L->w = L->h = 0;
	for (i = 0; i < L->npanels; i++) {
		int c = i % across, r = i / across, k;
		x = 0;
		y = 0;
		for (k = 0; k < c; k++)
			x += colw[k] + PANEL_SEP * 2;
		for (k = 0; k < r; k++)
			y += rowh[k] + PANEL_SEP;
		L->panel[i].x = x + L->panel[i].margin;
		L->panel[i].y = y + LABEL_H;
		if (x + panel_w(&L->panel[i]) > L->w)
			L->w = x + panel_w(&L->panel[i]);
		if (y + panel_h(&L->panel[i]) > L->h)
			L->h = y + panel_h(&L->panel[i]);
	}
}

/* The DS 2D arenas: a panel per stretch one bank maps (or none does),
 * labelled with the bank and its address, rows of 2 KiB (a BG screen
 * base step; 64 tiles) or of one 8 KiB extended-palette slot. 0 when the
 * stretches are more than the panels a layout holds. */
static int ds_2d_panels(vs_layout *L, const vs_arena_decl *d, uint32_t nunits, int s, int gap, int narrow)
{
	enum { GRANULE = 0x2000u };
	uint32_t off = 0, end, upr;
	int bank, n = 0;

	if (!(VS_ARENA_BIT(d->kind) & VS_ARENA_ANY_DS_2D) || d->size % GRANULE || nunits != d->size / d->unit)
		return 0;
	for (off = 0; off < d->size; off = end, n++) {
		for (bank = vs_ds_bank_at(d, off), end = off + GRANULE; end < d->size && vs_ds_bank_at(d, end) == bank;)
			end += GRANULE;
	}
	if (n > VS_LAYOUT_MAX_PANELS)
		return 0;
	upr = (d->unit >= 512u ? GRANULE : 0x800u) / d->unit; /* units a row */
	for (off = 0; off < d->size; off = end) {
		vs_layout_panel *p;
		for (bank = vs_ds_bank_at(d, off), end = off + GRANULE; end < d->size && vs_ds_bank_at(d, end) == bank;)
			end += GRANULE;
		p = add_panel(L, off / d->unit, (end - off) / d->unit, (int)upr, s, d->unit >= 512u ? 0 : gap);
		p->line_rows = d->unit >= 512u ? 0 : 8; /* 16 KiB: BG character bases */
		if (bank < 0 && end - off >= 0x8000u) {
			/* nothing can be there: a quarter of the height */
			p->upc = 4;
			p->rows = (p->rows + 3) / 4;
			p->line_rows = 0;
		}
		if (bank < 0)
			snprintf(p->label, sizeof p->label, "unmapped @%08X +%uK", (unsigned)(d->base + off),
				(unsigned)((end - off) / 1024u));
		else
			snprintf(p->label, sizeof p->label, "bank %c @%08X +%uK", 'A' + bank, (unsigned)(d->base + off),
				(unsigned)((end - off) / 1024u));
	}
	arrange(L, narrow ? 2 : 4);
	return 1;
}

/* Builds the layout at cell size s (pixels). */
static void build(vs_layout *L, const vs_arena_decl *d, uint32_t nunits, int s, int narrow)
{
	int gap = s >= 4 ? 1 : 0, i;
	vs_layout_panel *p;

	memset(L, 0, sizeof *L);
	L->kind = d->kind;
	if (d->kind == VS_ARENA_GBA_OBJ && nunits == 1024) {
		p = add_panel(L, 0, 1024, 32, s, gap);
		p->line_rows = 16; /* the charblock 4 / 5 boundary; in bitmap modes the upper half is the bitmap */
		snprintf(p->label, sizeof p->label, "OBJ tiles 0-1023 @%08X", (unsigned)d->base);
		arrange(L, 1);
		return;
	}
	if (d->kind == VS_ARENA_GBA_BG && nunits % 512 == 0 && nunits / 512 <= VS_LAYOUT_MAX_PANELS) {
		/* charblocks of 16 KiB (512 tiles, 32x16), a line every screenblock (2 KiB = 2 rows) */
		for (i = 0; i < (int)(nunits / 512); i++) {
			p = add_panel(L, (uint32_t)i * 512, 512, 32, s, gap);
			p->line_rows = 2;
			snprintf(p->label, sizeof p->label, "charblock %u (SB %u-%u)", (unsigned)i & 7u, ((unsigned)i & 7u) * 8u, ((unsigned)i & 7u) * 8u + 7u);
		}
		arrange(L, narrow ? 1 : 2);
		return;
	}
	if (d->kind == VS_ARENA_DS_TEX && nunits == 65536) {
		for (i = 0; i < 4; i++) {
			p = add_panel(L, (uint32_t)i * 16384, 16384, 128, s, 0);
			p->line_rows = 16; /* 16 KiB */
			snprintf(p->label, sizeof p->label, "tex slot %u%s", (unsigned)i & 3u, i == 1 ? " (4x4 index)" : "");
		}
		arrange(L, narrow ? 2 : 4);
		return;
	}
	if (d->kind == VS_ARENA_DS_PLTT && nunits == 12288) {
		for (i = 0; i < 6; i++) {
			p = add_panel(L, (uint32_t)i * 2048, 2048, 64, s, 0);
			p->line_rows = 8; /* 4 KiB */
			snprintf(p->label, sizeof p->label, "pltt slot %u", (unsigned)i & 7u);
		}
		arrange(L, narrow ? 2 : 3);
		return;
	}
	if (ds_2d_panels(L, d, nunits, s, gap, narrow))
		return;
	/* RAM (and anything unexpected): address strips of 512 cells (256 when
	 * narrow), up to 16 strips (32), each cell as many units as it takes */
	{
		uint32_t cols = narrow ? 256u : 512u, cells = cols * 16u * (narrow ? 2u : 1u);
		uint32_t upc = (nunits + cells - 1) / cells;
		if (upc == 0)
			upc = 1;
		p = add_panel(L, 0, nunits, (int)cols, s, 0);
		p->upc = upc;
		p->rows = (int)((nunits + upc * cols - 1) / (upc * cols));
		if (p->rows == 0)
			p->rows = 1;
		p->ch = 6 * s;
		p->row_gap = 3;
		p->margin = 9 * VS_FONT_W + 4;
		snprintf(p->label, sizeof p->label, "%s %u B @%08X, %u B/cell", vs_arena_kind_name(d->kind),
			(unsigned)d->size, (unsigned)d->base, (unsigned)(upc * d->unit));
		arrange(L, 1);
	}
}

static int natural_size(vs_arena_kind k)
{
	switch (k) {
	case VS_ARENA_GBA_OBJ: return 12;
	case VS_ARENA_GBA_BG: return 8;
	case VS_ARENA_DS_TEX: return 2;
	case VS_ARENA_DS_PLTT: return 3;
	case VS_ARENA_DS_OBJ:
	case VS_ARENA_DS_BG: return 3;
	case VS_ARENA_DS_BG_EXTPAL:
	case VS_ARENA_DS_OBJ_EXTPAL: return 12;
	default: return 2;
	}
}

int vs_layout_make(vs_layout *L, const vs_arena_decl *d, int max_w, int max_h)
{
	uint32_t nunits = d->unit ? d->size / d->unit : 0;
	int s;

	if (nunits == 0)
		return -1;
	if (max_w <= 0 && max_h <= 0) {
		build(L, d, nunits, natural_size(d->kind), 0);
		return 0;
	}
	/* the largest cells that fit, wide arrangement first */
	for (s = 32; s >= 1; s--) {
		int narrow;
		for (narrow = 0; narrow < 2; narrow++) {
			build(L, d, nunits, s, narrow);
			if ((max_w <= 0 || L->w <= max_w) && (max_h <= 0 || L->h <= max_h))
				return 0;
		}
	}
	return -1;
}

static int cell_y(const vs_layout_panel *p, int row)
{
	return p->y + row * (p->ch + p->gap + p->row_gap);
}

static int cell_x(const vs_layout_panel *p, int col)
{
	return p->x + col * (p->cw + p->gap);
}

int64_t vs_layout_unit_at(const vs_layout *L, int x, int y)
{
	int i;

	for (i = 0; i < L->npanels; i++) {
		const vs_layout_panel *p = &L->panel[i];
		int col, row, sx = p->cw + p->gap, sy = p->ch + p->gap + p->row_gap;
		uint32_t cell, unit;
		if (x < p->x || y < p->y)
			continue;
		col = (x - p->x) / sx;
		row = (y - p->y) / sy;
		if (col >= p->cols || row >= p->rows)
			continue;
		if ((x - p->x) % sx >= p->cw || (y - p->y) % sy >= p->ch)
			return -1; /* in a gap */
		cell = (uint32_t)row * (uint32_t)p->cols + (uint32_t)col;
		unit = cell * p->upc;
		if (unit >= p->nunits)
			return -1;
		return (int64_t)(p->unit0 + unit);
	}
	return -1;
}

int vs_layout_unit_rect(const vs_layout *L, uint32_t unit, vs_rect *out)
{
	int i;

	for (i = 0; i < L->npanels; i++) {
		const vs_layout_panel *p = &L->panel[i];
		uint32_t cell;
		if (unit < p->unit0 || unit - p->unit0 >= p->nunits)
			continue;
		cell = (unit - p->unit0) / p->upc;
		out->x = cell_x(p, (int)(cell % (uint32_t)p->cols));
		out->y = cell_y(p, (int)(cell / (uint32_t)p->cols));
		out->w = p->cw;
		out->h = p->ch;
		return 0;
	}
	return -1;
}

/* ---- drawing ---------------------------------------------------------- */

typedef struct cellinfo {
	uint32_t owner;
	uint8_t kind;
	uint8_t is_map;
	uint32_t colour;
} cellinfo;

#define TAG_CACHE 256

typedef struct painter {
	const vs_render_src *src;
	uint32_t tag_colour[TAG_CACHE];
	uint8_t tag_known[TAG_CACHE];
} painter;

static uint32_t colour_of_tag(painter *pt, uint32_t tag)
{
	if (tag < TAG_CACHE && pt->tag_known[tag])
		return pt->tag_colour[tag];
	if (tag < TAG_CACHE) {
		pt->tag_known[tag] = 1;
		pt->tag_colour[tag] = vs_colour_tag_id(tag);
		return pt->tag_colour[tag];
	}
	return vs_colour_tag_id(tag);
}

/* The cell's look: its unit, or for cells of many units the most common
 * kind among up to 32 samples (owner: the first sampled unit of that kind). */
static void cell_of(painter *pt, const vs_layout_panel *p, uint32_t cell, cellinfo *ci)
{
	const vs_arena *a = pt->src->arena;
	uint32_t first = p->unit0 + cell * p->upc, n = p->upc, u = first, step, i;
	vs_own_run run = { 0, 0, VS_OWNER_NONE, VS_UNIT_FREE };
	const vs_live *l;

	if (first + n > p->unit0 + p->nunits)
		n = p->unit0 + p->nunits - first;
	if (n > 1) {
		unsigned count[8] = { 0 }, best = 0, k;
		uint32_t firstu[8] = { 0 };
		step = n > 32 ? n / 32 : 1;
		for (i = 0; i < n; i += step) {
			/* samples go up: one map look-up per run */
			if (first + i - run.first >= run.count)
				vs_arena_run_at(a, first + i, &run);
			k = run.kind & 7;
			if (!count[k]++)
				firstu[k] = first + i;
		}
		for (k = 1; k < 8; k++)
			if (count[k] > count[best] || (best == VS_UNIT_FREE && count[k] && count[k] * 2 >= count[best]))
				best = k;
		u = count[best] ? firstu[best] : first;
	}
	if (u - run.first >= run.count)
		vs_arena_run_at(a, u, &run);
	ci->owner = run.owner;
	ci->kind = (uint8_t)run.kind;
	ci->is_map = 0;
	ci->colour = VS_RGB_FREE;
	if (ci->kind == VS_UNIT_FREE || ci->kind == VS_UNIT_RESERVED || ci->owner == VS_OWNER_NONE ||
		ci->owner == VS_OWNER_HW || ci->owner == VS_OWNER_ALLOC)
		return;
	l = pt->src->owner ? pt->src->owner(pt->src->ud, ci->owner) : NULL;
	ci->colour = pt->src->colour_by ? vs_colour_live(l, pt->src->colour_by, pt->src->event) :
		colour_of_tag(pt, l ? l->req.tag : 0);
	ci->is_map = l && (l->req.shape == VS_REQ_BGMAP || l->req.shape == VS_REQ_CELLS);
}

static void paint_cell(vs_image *im, int x0, int y0, int w, int h, const cellinfo *ci, int px0, int py0)
{
	int x, y;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			vs_image_put(im, x0 + x, y0 + y,
				vs_colour_unit_pixel((vs_unit_kind)ci->kind, ci->colour, ci->is_map, px0 + x, py0 + y));
}

static int same_block(const cellinfo *a, const cellinfo *b)
{
	return a->owner == b->owner && a->owner != VS_OWNER_NONE && a->kind == b->kind;
}

static void draw_panel(vs_image *im, int ox, int oy, const vs_layout_panel *p, painter *pt)
{
	uint32_t ncells = (p->nunits + p->upc - 1) / p->upc, c;
	int sx = p->cw + p->gap, sy = p->ch + p->gap + p->row_gap, row, col;
	int pw = p->cols * sx - p->gap, ph = p->rows * sy - p->gap - p->row_gap;
	int x0 = ox + p->x, y0 = oy + p->y;
	cellinfo *prev_row = NULL;
	cellinfo cur, left;
	int label_y = 0; /* the first row an address label may go on */

	vs_image_text(im, ox + p->x - p->margin, y0 - LABEL_H, p->label, VS_RGB_TEXT, 1);
	vs_image_fill(im, (vs_rect){ x0, y0, pw, ph }, VS_RGB_GRID);
	vs_image_frame(im, (vs_rect){ x0 - 1, y0 - 1, pw + 2, ph + 2 }, VS_RGB_GRID);
	if (p->gap)
		prev_row = calloc((size_t)p->cols, sizeof *prev_row);
	memset(&left, 0, sizeof left);
	for (c = 0; c < ncells; c++) {
		int cx, cy;
		row = (int)(c / (uint32_t)p->cols);
		col = (int)(c % (uint32_t)p->cols);
		cx = x0 + col * sx;
		cy = y0 + row * sy;
		cell_of(pt, p, c, &cur);
		/* patterns run in panel coordinates so they continue across cells */
		paint_cell(im, cx, cy, p->cw, p->ch, &cur, col * sx, row * sy);
		if (p->gap) {
			/* close the gaps inside one allocation so it reads as a block */
			if (col > 0 && same_block(&left, &cur))
				paint_cell(im, cx - p->gap, cy, p->gap, p->ch, &cur, col * sx - p->gap, row * sy);
			if (row > 0 && prev_row && same_block(&prev_row[col], &cur)) {
				paint_cell(im, cx, cy - p->gap, p->cw, p->gap, &cur, col * sx, row * sy - p->gap);
				if (col > 0 && same_block(&left, &cur) && same_block(&prev_row[col - 1], &cur))
					paint_cell(im, cx - p->gap, cy - p->gap, p->gap, p->gap, &cur, col * sx - p->gap,
						row * sy - p->gap);
			}
			if (prev_row && col > 0)
				prev_row[col - 1] = left;
			if (prev_row && col == p->cols - 1)
				prev_row[col] = cur;
		}
		left = cur;
		if (p->margin && col == 0 && cy >= label_y) {
			char addr[16];
			label_y = cy + VS_FONT_H; /* rows closer than a line share the label above */
			const vs_arena_decl *d = &pt->src->arena->decl;
			snprintf(addr, sizeof addr, "%08X", (unsigned)(d->base + (p->unit0 + c * p->upc) * d->unit));
			vs_image_text(im, ox + p->x - p->margin, cy + (p->ch - VS_FONT_H) / 2, addr, VS_RGB_DIM, 1);
		}
	}
	free(prev_row);
	/* grid lines: screenblocks, slots' 16 KiB steps, the OBJ charblock boundary */
	if (p->line_rows)
		for (row = p->line_rows; row < p->rows; row += p->line_rows) {
			int y = y0 + row * sy - (p->gap ? 1 : 0);
			vs_image_hline(im, x0, x0 + pw - 1, y, VS_RGB_DIM);
		}
	if (p->line_cols)
		for (col = p->line_cols; col < p->cols; col += p->line_cols) {
			int x = x0 + col * sx - (p->gap ? 1 : 0);
			vs_image_vline(im, x, y0, y0 + ph - 1, VS_RGB_DIM);
		}
}

void vs_render_arena(vs_image *im, int x, int y, const vs_layout *L, const vs_render_src *src)
{
	painter pt;
	int i;

	memset(&pt, 0, sizeof pt);
	pt.src = src;
	for (i = 0; i < L->npanels; i++)
		draw_panel(im, x, y, &L->panel[i], &pt);
}
