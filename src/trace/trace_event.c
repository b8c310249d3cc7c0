/* SPDX-License-Identifier: Zlib */
/* trace_event.c - the event statements of a trace (docs/trace-format.md):
 * alloc with its request and keys, free, move, frame, save and restore,
 * reset, push and pop, init. The full path (trace_read.c) cuts each line
 * into tokens and hands it here; the header's statements are
 * trace_header.c's, and the commonest lines are read first by the fast
 * path (trace_fast.c), which must read them as these functions do.
 */
#include <stdlib.h>
#include <string.h>

#include "trace_read_int.h"
#include "vram/ds_banks.h"
#include "trace/trace.h"
#include "vram/request.h"
#include "vram/arena.h"

/* The arena a token names, or -1. */
static int arena_by_tok(const vs_trace_header *h, const tok *t)
{
	int i;

	for (i = 0; i < h->narenas; i++)
		if (strlen(h->arenas[i].name) == t->len && memcmp(h->arenas[i].name, t->s, t->len) == 0)
			return i;
	return -1;
}

/* ---- requests ---------------------------------------------------------- */

/* Parses "WxH" into two numbers. */
static int parse_dims(const tok *t, unsigned *w, unsigned *h)
{
	const char *x = memchr(t->s, 'x', t->len);
	uint64_t a, b;

	if (!x || vs_trace_parse_u64(t->s, (size_t)(x - t->s), 0, &a) ||
		vs_trace_parse_u64(x + 1, t->len - (size_t)(x - t->s) - 1, 0, &b) || a > 4096 || b > 4096)
		return -1;
	*w = (unsigned)a;
	*h = (unsigned)b;
	return 0;
}

static int parse_bpp(const tok *t)
{
	return tok_is(t, "4bpp") ? 4 : tok_is(t, "8bpp") ? 8 : 0;
}

static int unknown_request(vs_trace_reader *r, const tok *t)
{
	return vs_trace_fail(r, t->col, "unknown request '%.*s' (N, bytes, sprite, tile, tiles, map, cells, tex, pltt)",
		(int)t->len, t->s);
}

/* Each request kind's reader takes its tokens t[0..n) (t[0] its keyword,
 * n at least the kind's count) into rq, all zero before: the tokens it
 * used, or -1. The size is derived from the fields afterwards. */

/* N[K|M]: a size in bytes */
static int req_size(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	uint64_t v;
	uint32_t num;

	(void)n;
	if (vs_trace_parse_u64(t[0].s, t[0].len, 1, &v) == -1)
		return unknown_request(r, &t[0]);
	if (vs_trace_num32(r, t[0].s, t[0].len, t[0].col, "size", 1, &num))
		return -1;
	rq->shape = VS_REQ_BYTES;
	rq->size = num;
	return 1;
}

/* bytes N[K|M] */
static int req_bytes(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	uint32_t num;

	(void)n;
	if (vs_trace_num32(r, t[1].s, t[1].len, t[1].col, "size", 1, &num))
		return -1;
	rq->shape = VS_REQ_BYTES;
	rq->size = num;
	return 2;
}

/* sprite WxH 4bpp|8bpp, and bmp (a bitmap sprite) on the DS */
static int req_sprite(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	unsigned w, h, shape, size, bpp;

	(void)n;
	if (parse_dims(&t[1], &w, &h))
		return vs_trace_fail(r, t[1].col, "sprite: expected WxH, got '%.*s'", (int)t[1].len, t[1].s);
	if (vs_request_sprite_from_dims(w, h, &shape, &size))
		return vs_trace_fail(r, t[1].col, "sprite: no OAM shape is %ux%u pixels", w, h);
	if (r->req_kind == VS_ARENA_DS_OBJ && tok_is(&t[2], "bmp"))
		bpp = 16;
	else if (!(bpp = (unsigned)parse_bpp(&t[2])))
		return vs_trace_fail(r, t[2].col, "sprite: expected 4bpp or 8bpp%s, got '%.*s'",
			r->req_kind == VS_ARENA_DS_OBJ ? " or bmp" : "", (int)t[2].len, t[2].s);
	rq->shape = VS_REQ_SPRITE;
	rq->u.sprite.shape = (uint8_t)shape;
	rq->u.sprite.size = (uint8_t)size;
	rq->u.sprite.bpp = (uint8_t)bpp;
	return 3;
}

/* tile ROM 4bpp|8bpp [affine] */
static int req_tile(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	uint32_t rom;
	unsigned bpp;

	if (vs_trace_num32(r, t[1].s, t[1].len, t[1].col, "ROM tile index", 0, &rom))
		return -1;
	if (!(bpp = (unsigned)parse_bpp(&t[2])))
		return vs_trace_fail(r, t[2].col, "tile: expected 4bpp or 8bpp, got '%.*s'", (int)t[2].len, t[2].s);
	rq->shape = VS_REQ_TILE;
	rq->u.tile.rom = rom;
	rq->u.tile.bpp = (uint8_t)bpp;
	if (n < 4 || !tok_is(&t[3], "affine"))
		return 3;
	if (bpp != 8)
		return vs_trace_fail(r, t[3].col, "tile: affine backgrounds use 8bpp tiles only");
	rq->u.tile.affine = 1;
	return 4;
}

/* map text|affine WxH: one of the sizes BGCNT's size field gives */
static int req_map(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	static const uint16_t text[4][2] = { { 256, 256 }, { 512, 256 }, { 256, 512 }, { 512, 512 } };
	static const uint16_t aff[4] = { 128, 256, 512, 1024 };
	unsigned w, h, s, affine;

	(void)n;
	if (!tok_is(&t[1], "text") && !tok_is(&t[1], "affine"))
		return vs_trace_fail(r, t[1].col, "map: expected text or affine, got '%.*s'", (int)t[1].len, t[1].s);
	affine = tok_is(&t[1], "affine");
	if (parse_dims(&t[2], &w, &h))
		return vs_trace_fail(r, t[2].col, "map: expected WxH, got '%.*s'", (int)t[2].len, t[2].s);
	for (s = 0; s < 4; s++)
		if (affine ? (aff[s] == w && aff[s] == h) : (text[s][0] == w && text[s][1] == h))
			break;
	if (s == 4)
		return vs_trace_fail(r, t[2].col, "map: no %s BG is %ux%u pixels", affine ? "affine" : "text", w, h);
	rq->shape = VS_REQ_BGMAP;
	rq->u.bgmap.affine = (uint8_t)affine;
	rq->u.bgmap.size = (uint8_t)s;
	return 3;
}

/* tiles N 4bpp|8bpp [affine]: a tile set uploaded whole (Butano's
 * regular_bg_tiles_ptr), N tiles of that depth; at most BG VRAM's 64 KiB */
static int req_tiles(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	uint32_t count;
	unsigned bpp;

	if (vs_trace_num32(r, t[1].s, t[1].len, t[1].col, "tile count", 0, &count))
		return -1;
	if (!(bpp = (unsigned)parse_bpp(&t[2])))
		return vs_trace_fail(r, t[2].col, "tiles: expected 4bpp or 8bpp, got '%.*s'", (int)t[2].len, t[2].s);
	if (count == 0 || count > (bpp == 4 ? 2048u : 1024u))
		return vs_trace_fail(r, t[1].col, "tiles: %u %ubpp tiles do not fit in BG VRAM (1-%u)", (unsigned)count,
			bpp, bpp == 4 ? 2048u : 1024u);
	rq->shape = VS_REQ_TILESET;
	rq->u.tileset.count = (uint16_t)count;
	rq->u.tileset.bpp = (uint8_t)bpp;
	if (n < 4 || !tok_is(&t[3], "affine"))
		return 3;
	if (bpp != 8 || count > 256)
		return vs_trace_fail(r, t[3].col, "tiles: an affine BG draws 1-256 8bpp tiles");
	rq->u.tileset.affine = 1;
	return 4;
}

/* cells WxH [affine]: a map of W x H cells (2 bytes each, 1 affine); at
 * most BG VRAM's 64 KiB */
static int req_cells(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	unsigned w, h;
	int affine = n >= 3 && tok_is(&t[2], "affine");

	if (parse_dims(&t[1], &w, &h) || w == 0 || h == 0)
		return vs_trace_fail(r, t[1].col, "cells: expected WxH (cells across and down), got '%.*s'", (int)t[1].len,
			t[1].s);
	if ((uint32_t)w * h * (affine ? 1u : 2u) > 0x10000u)
		return vs_trace_fail(r, t[1].col, "cells: a %ux%u %s map does not fit in BG VRAM (64 KiB)", w, h,
			affine ? "affine" : "text");
	rq->shape = VS_REQ_CELLS;
	rq->u.cells.width = (uint16_t)w;
	rq->u.cells.height = (uint16_t)h;
	rq->u.cells.affine = (uint8_t)affine;
	return affine ? 3 : 2;
}

/* tex N 4x4: a 4x4 texture's texel data by its size (NNS_GfdAllocTexVram(N,
 * TRUE, opt): the 4x4 textures of a model's texture block at once), which
 * lies in slot 0 or 2, its index data half as large in slot 1 */
static int req_tex_bytes(vs_trace_reader *r, const tok *t, unsigned format, vs_request *rq)
{
	uint32_t bytes;

	if (vs_trace_num32(r, t[1].s, t[1].len, t[1].col, "texture bytes", 1, &bytes))
		return -1;
	if (format != VS_TEX_4X4)
		return vs_trace_fail(r, t[1].col, "tex: a size in bytes is for 4x4 textures ('tex N 4x4'); a texture of "
			"format %s is 'tex WxH %s' (or 'bytes N')", vs_request_tex_format_name(format),
			vs_request_tex_format_name(format));
	if (bytes == 0 || bytes > VS_TEX_4X4_MAX_BYTES)
		return vs_trace_fail(r, t[1].col, "tex: %u bytes of 4x4 texel data do not fit in one texture slot "
			"(1-131072)", (unsigned)bytes);
	rq->shape = VS_REQ_TEX;
	rq->u.tex.format = VS_TEX_4X4;
	rq->size = bytes;
	return 3;
}

/* tex WxH FORMAT, or tex N 4x4 */
static int req_tex(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	unsigned w, h, format;
	char f[16];
	/* a size: no 'x', or a 0x number */
	int by_size = !memchr(t[1].s, 'x', t[1].len) || (t[1].len > 2 && t[1].s[0] == '0' && (t[1].s[1] | 0x20) == 'x');

	(void)n;
	if (!by_size && parse_dims(&t[1], &w, &h))
		return vs_trace_fail(r, t[1].col, "tex: expected WxH or a size, got '%.*s'", (int)t[1].len, t[1].s);
	memcpy(f, t[2].s, t[2].len < 15 ? t[2].len : 15);
	f[t[2].len < 15 ? t[2].len : 15] = '\0';
	if (t[2].len > 15 || vs_request_tex_format_parse(f, &format))
		return vs_trace_fail(r, t[2].col, "tex: unknown format '%.*s' (a3i5 4c 16c 256c 4x4 a5i3 direct)",
			(int)t[2].len, t[2].s);
	if (by_size)
		return req_tex_bytes(r, t, format, rq);
	if (!vs_request_tex_bytes(format, w, h))
		return vs_trace_fail(r, t[1].col, "tex: %ux%u is not a texture size (8 to 1024, powers of two)", w, h);
	rq->shape = VS_REQ_TEX;
	rq->u.tex.format = (uint8_t)format;
	rq->u.tex.width = (uint16_t)w;
	rq->u.tex.height = (uint16_t)h;
	return 3;
}

/* pltt N [colours|colors] [4c] */
static int req_pltt(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	uint32_t num;
	int used = 2;

	if (vs_trace_num32(r, t[1].s, t[1].len, t[1].col, "colours", 0, &num))
		return -1;
	if (num == 0 || num > 0xC000)
		return vs_trace_fail(r, t[1].col, "pltt: %u colours do not fit in palette memory (1-49152)", (unsigned)num);
	rq->shape = VS_REQ_PLTT;
	rq->u.pltt.colours = (uint16_t)num;
	rq->u.pltt.four = num == 4;
	if (used < n && (tok_is(&t[used], "colours") || tok_is(&t[used], "colors")))
		used++;
	if (used < n && tok_is(&t[used], "4c")) {
		rq->u.pltt.four = 1;
		used++;
	}
	return used;
}

#define ANY_ARENA 0xFFFFFFFFu
#define OBJ_ARENAS (VS_ARENA_BIT(VS_ARENA_GBA_OBJ) | VS_ARENA_BIT(VS_ARENA_DS_OBJ))
#define BG_ARENAS (VS_ARENA_BIT(VS_ARENA_GBA_BG) | VS_ARENA_BIT(VS_ARENA_DS_BG))
#define PLTT_ARENAS (VS_ARENA_BIT(VS_ARENA_DS_PLTT) | VS_ARENA_BIT(VS_ARENA_DS_BG_EXTPAL) | \
	VS_ARENA_BIT(VS_ARENA_DS_OBJ_EXTPAL))

/* The request kinds, one row each: the keyword (none: a number, the
 * first row), the arena kind it goes to, the tokens it takes at least
 * (with the keyword), what to say when there are fewer, and its reader. */
static const struct req_kind {
	const char *name;
	size_t len;
	uint32_t arenas; /* VS_ARENA_BIT of the kinds it goes to */
	int ntok;
	const char *usage;
	int (*read)(vs_trace_reader *r, const tok *t, int n, vs_request *rq);
} req_kinds[] = {
	{ NULL, 0, ANY_ARENA, 1, NULL, req_size },
	{ NAME("bytes"), ANY_ARENA, 2, "bytes: expected a size", req_bytes },
	{ NAME("sprite"), OBJ_ARENAS, 3, "sprite: expected 'sprite WxH 4bpp|8bpp'", req_sprite },
	{ NAME("tile"), BG_ARENAS, 3, "tile: expected 'tile ROM 4bpp|8bpp'", req_tile },
	{ NAME("map"), BG_ARENAS, 3, "map: expected 'map text|affine WxH'", req_map },
	{ NAME("tex"), VS_ARENA_BIT(VS_ARENA_DS_TEX), 3, "tex: expected 'tex WxH FORMAT' or 'tex N 4x4'", req_tex },
	{ NAME("tiles"), VS_ARENA_BIT(VS_ARENA_GBA_BG), 3, "tiles: expected 'tiles N 4bpp|8bpp [affine]'", req_tiles },
	{ NAME("cells"), VS_ARENA_BIT(VS_ARENA_GBA_BG), 2, "cells: expected 'cells WxH [affine]'", req_cells },
	{ NAME("pltt"), PLTT_ARENAS, 2, "pltt: expected 'pltt N [4c]'", req_pltt },
};
#define NREQ_KINDS (sizeof req_kinds / sizeof req_kinds[0])

/* The request kind a keyword names, or NULL. */
static const struct req_kind *req_keyword(const tok *t)
{
	size_t k;

	for (k = 1; k < NREQ_KINDS; k++)
		if (same_name(t->s, t->len, req_kinds[k].name, req_kinds[k].len))
			return &req_kinds[k];
	return NULL;
}

/* "sprite requests go to a gba-obj or ds-obj arena, not gba-bg" */
static int wrong_arena(vs_trace_reader *r, const tok *t, const char *name, uint32_t arenas, vs_arena_kind kind)
{
	char kinds[96] = "";
	size_t len = 0;
	int k;

	for (k = 0; k < VS_ARENA_KIND_COUNT; k++)
		if (arenas & VS_ARENA_BIT(k))
			len += (size_t)snprintf(kinds + len, sizeof kinds - len, "%s%s", len ? " or " : "",
				vs_arena_kind_name((vs_arena_kind)k));
	return vs_trace_fail(r, t->col, "%s requests go to a %s arena, not %s", name, kinds, vs_arena_kind_name(kind));
}

/* Request: tokens t[0..n); returns tokens used or -1. */
static int parse_request(vs_trace_reader *r, const tok *t, int n, vs_arena_kind kind, vs_request *rq)
{
	const struct req_kind *k;
	int used;

	memset(rq, 0, sizeof *rq);
	if (n < 1)
		return vs_trace_fail(r, t[-1].col + t[-1].len, "alloc: expected a request");
	k = t[0].s[0] >= '0' && t[0].s[0] <= '9' ? &req_kinds[0] : req_keyword(&t[0]);
	if (!k)
		return unknown_request(r, &t[0]);
	if (!(k->arenas & VS_ARENA_BIT(kind)))
		return wrong_arena(r, &t[0], k->name, k->arenas, kind);
	r->req_kind = kind;
	if (n < k->ntok)
		return vs_trace_fail(r, t[n - 1].col + t[n - 1].len, "%s", k->usage);
	if ((used = k->read(r, t, n, rq)) < 0)
		return -1;
	if (rq->shape != VS_REQ_BYTES && vs_request_derive_size(rq))
		return vs_trace_fail(r, t[0].col, "impossible request");
	/* malloc(0) is a real request (malloc-lab traces hold them); each heap
	 * answers it by its own rule. Video memory has no such thing. */
	if (rq->size == 0 && kind != VS_ARENA_RAM)
		return vs_trace_fail(r, t[0].col, "a request of 0 bytes (only a ram arena takes them)");
	return used;
}

/* A request starts at t: a request keyword, or a number. */
static int starts_request(const tok *t)
{
	uint64_t v;

	return req_keyword(t) || vs_trace_parse_u64(t->s, t->len, 1, &v) == 0;
}

/* ---- alloc ------------------------------------------------------------- */

/* Each alloc key's reader takes its value into the event; d is the
 * event's arena (NULL in a heaps trace). 0 or -1. */

/* tag=NAME: interned, so a tag is one number from here on */
static int key_tag(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d)
{
	(void)d;
	/* a tag seen before passed name_ok then */
	if (!(ev->req.tag = vs_trace_find_tag(r, k->v, k->vl)) && !name_ok(k->v, k->vl, VS_TAG_MAX))
		return vs_trace_fail(r, k->vcol, "tag '%.*s' must be 1-63 letters, digits or _-./:", (int)k->vl, k->v);
	memcpy(r->tag, k->v, k->vl);
	r->tag[k->vl] = '\0';
	ev->tag = r->tag;
	if (!ev->req.tag)
		ev->req.tag = vs_trace_intern_tag(r, k->v, k->vl);
	if (ev->req.tag == NAMES_FULL)
		return vs_trace_fail(r, k->vcol, "more than %u distinct tags: a tag names a kind of allocation "
			"(player, enemy), not each one", (unsigned)VS_TAG_DISTINCT_MAX);
	if (!ev->req.tag)
		return vs_trace_fail(r, k->vcol, "out of memory for tags");
	return 0;
}

static int key_align(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d)
{
	uint32_t n;

	(void)d;
	if (vs_trace_num32(r, k->v, k->vl, k->vcol, "align", 1, &n))
		return -1;
	if (n & (n - 1))
		return vs_trace_fail(r, k->vcol, "align %u is not a power of two", (unsigned)n);
	ev->req.align = n;
	return 0;
}

static int key_dir(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d)
{
	(void)d;
	if (k->vl == 3 && memcmp(k->v, "low", 3) == 0)
		ev->req.dir = VS_DIR_LOW;
	else if (k->vl == 4 && memcmp(k->v, "high", 4) == 0)
		ev->req.dir = VS_DIR_HIGH;
	else if (k->vl == 3 && memcmp(k->v, "any", 3) == 0)
		ev->req.dir = VS_DIR_ANY;
	else
		return vs_trace_fail(r, k->vcol, "dir must be low, high or any, not '%.*s'", (int)k->vl, k->v);
	return 0;
}

static int key_opt(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d)
{
	uint32_t n;

	(void)d;
	if (vs_trace_num32(r, k->v, k->vl, k->vcol, "opt", 0, &n))
		return -1;
	ev->req.opt = n;
	return 0;
}

/* at=ADDR, where the recording found it (inside the arena), or at=none:
 * the recording's allocation failed */
static int key_at(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d)
{
	uint32_t n;

	if (k->vl == 4 && memcmp(k->v, "none", 4) == 0) {
		ev->req.has_at = VS_AT_FAILED;
		return 0;
	}
	if (vs_trace_num32(r, k->v, k->vl, k->vcol, "at", 0, &n))
		return -1;
	if (d && (n < d->base || n - d->base >= d->size))
		return vs_trace_fail(r, k->vcol, "at=0x%x lies outside arena '%s' [0x%x, 0x%llx)", (unsigned)n, d->name,
			(unsigned)d->base, (unsigned long long)d->base + d->size);
	ev->req.has_at = VS_AT_ADDR;
	ev->req.at = n;
	return 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* data=HEX: the allocation's first bytes */
static int key_data(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d)
{
	size_t j;

	(void)d;
	if (k->vl % 2)
		return vs_trace_fail(r, k->vcol, "data: odd number of hex digits");
	if (k->vl / 2 > ev->req.size)
		return vs_trace_fail(r, k->vcol, "data: %zu bytes of payload for a %u-byte request", k->vl / 2,
			(unsigned)ev->req.size);
	/* the payload buffer is made for the first data= (most traces have none) */
	if (!r->data && !(r->data = malloc(VS_TRACE_LINE_MAX / 2 + 1)))
		return vs_trace_fail(r, k->vcol, "data: out of memory for the payload");
	for (j = 0; j < k->vl; j += 2) {
		int hi = hexval(k->v[j]), lo = hexval(k->v[j + 1]);
		if (hi < 0 || lo < 0)
			return vs_trace_fail(r, k->vcol + (uint32_t)j + (hi < 0 ? 0 : 1), "data: not a hex digit");
		r->data[j / 2] = (uint8_t)(hi << 4 | lo);
	}
	ev->data = r->data;
	ev->data_len = (uint32_t)(k->vl / 2);
	return 0;
}

static int key_cb(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d)
{
	uint32_t n;

	if (ev->req.shape != VS_REQ_TILE)
		return vs_trace_fail(r, k->col, "cb= (the charblock a BG draws from) applies to tile requests");
	if (vs_trace_num32(r, k->v, k->vl, k->vcol, "cb", 0, &n))
		return -1;
	if (d->kind == VS_ARENA_DS_BG ? n > 15 : n > 3)
		return vs_trace_fail(r, k->vcol, d->kind == VS_ARENA_DS_BG ?
			"character base %u does not exist (0-15, BGxCNT bits 2-5)" : "charblock %u does not exist (0-3)",
			(unsigned)n);
	ev->req.u.tile.cb1 = (uint8_t)(n + 1);
	return 0;
}

/* search=ARENA,...: the call's own usable list, heaps (arenas) in order */
static int key_search(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d)
{
	size_t j = 0;
	int a;

	(void)d;
	if (ev->route >= 0)
		return vs_trace_fail(r, k->col, "search= is the list of heaps this call tries: name no heap or "
			"search list before the request as well");
	do {
		size_t e = j;
		while (e < k->vl && k->v[e] != ',')
			e++;
		if (ev->search_len == VS_SEARCH_LEN_MAX)
			return vs_trace_fail(r, k->vcol + (uint32_t)j, "search=: at most %d heaps", VS_SEARCH_LEN_MAX);
		if ((a = vs_trace_arena_in(r, k->v + j, e - j, k->vcol + (uint32_t)j)) < 0)
			return -1;
		ev->search[ev->search_len++] = (uint8_t)a;
		j = e + 1;
	} while (j <= k->vl);
	return 0;
}

/* The keys an alloc takes, one row each: its name, whether only a heaps
 * trace takes it, and its reader. Each may be given once. The commonest
 * (tag, and at and cb in captured traces) come first: they are looked up
 * in this order. */
static const struct alloc_key {
	const char *name;
	size_t len;
	int heaps_only;
	int (*read)(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d);
} alloc_keys[] = {
	{ NAME("tag"), 0, key_tag }, { NAME("at"), 0, key_at }, { NAME("cb"), 0, key_cb },
	{ NAME("align"), 0, key_align }, { NAME("dir"), 0, key_dir }, { NAME("opt"), 0, key_opt },
	{ NAME("data"), 0, key_data }, { NAME("search"), 1, key_search },
};
#define NALLOC_KEYS (sizeof alloc_keys / sizeof alloc_keys[0])

/* The key=value tokens t[i..nt) after the request. */
static int read_alloc_keys(vs_trace_reader *r, const tok *t, int i, int nt, vs_event *ev, const vs_arena_decl *d)
{
	int heaps = r->hdr.heaps;
	unsigned seen = 0, k;
	kv v;

	for (; i < nt; i++) {
		if (key_value(r, &t[i], &v))
			return -1;
		for (k = 0; k < NALLOC_KEYS && !same_name(v.key, v.kl, alloc_keys[k].name, alloc_keys[k].len); k++)
			;
		if (k == NALLOC_KEYS || (alloc_keys[k].heaps_only && !heaps))
			return vs_trace_fail(r, v.col, "unknown key '%.*s' (tag, align, dir, opt, at, data, cb%s)", (int)v.kl,
				v.key, heaps ? ", search" : "");
		if (seen & 1u << k)
			return vs_trace_fail(r, v.col, "%.*s= given twice", (int)v.kl, v.key);
		seen |= 1u << k;
		if (alloc_keys[k].read(r, &v, ev, d))
			return -1;
	}
	return 0;
}

/* The route of an alloc in a heaps trace: a named route (arena or search
 * list) when a request follows it, else the top of the heap stack (-1).
 * Returns where the request starts. */
static int alloc_route(const vs_trace_header *h, const tok *t, int nt, vs_event *ev)
{
	ev->route = vs_trace_route_by_tok(h, &t[2]);
	if (ev->route >= 0 && nt > 3 && starts_request(&t[3]))
		return 3;
	ev->route = -1;
	return 2;
}

/* The arena of an alloc in a trace without heaps: where the request
 * starts, or -1. */
static int alloc_arena(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	const vs_trace_header *h = &r->hdr;

	ev->arena = arena_by_tok(h, &t[2]);
	/* With one arena its name is optional, and may also be a request
	 * keyword ("tex"): it is the arena only when a request follows. A
	 * number followed by a word that is not a key (`tex 3072 4x4`) is the
	 * rest of the keyword's request: after plain bytes only keys come. */
	if (ev->arena >= 0 && h->narenas == 1 && (!(nt > 3 && starts_request(&t[3])) ||
		(req_keyword(&t[2]) && !req_keyword(&t[3]) && nt > 4 && !memchr(t[4].s, '=', t[4].len))))
		ev->arena = -1;
	if (ev->arena >= 0)
		return 3;
	if (h->narenas == 1) {
		ev->arena = 0;
		return 2;
	}
	if (starts_request(&t[2]))
		return vs_trace_fail(r, t[2].col, "alloc: this trace declares %d arenas: name one before the request",
			h->narenas);
	return vs_trace_fail(r, t[2].col, "alloc: unknown arena '%.*s'", (int)t[2].len, t[2].s);
}

/* alloc ID [ARENA|ROUTE] REQUEST [key=value ...] */
static int parse_alloc(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	const vs_trace_header *h = &r->hdr;
	const vs_arena_decl *d = NULL;
	int i, used;

	if (nt < 3)
		return vs_trace_fail(r, t[nt - 1].col + t[nt - 1].len,
			"%s: expected '%s ID [ARENA] REQUEST [key=value ...]'", vs_trace_event_name(ev->type),
			vs_trace_event_name(ev->type));
	if (vs_trace_parse_u64(t[1].s, t[1].len, 0, &ev->id))
		return vs_trace_fail(r, t[1].col, "alloc: id '%.*s' is not a 64-bit number", (int)t[1].len, t[1].s);
	if (h->heaps) {
		i = alloc_route(h, t, nt, ev);
	} else {
		if ((i = alloc_arena(r, t, nt, ev)) < 0)
			return -1;
		d = &h->arenas[ev->arena];
		if (i >= nt)
			return vs_trace_fail(r, t[nt - 1].col + t[nt - 1].len, "alloc: expected a request");
	}
	/* one call: the compiler puts parse_request in line */
	if ((used = parse_request(r, t + i, nt - i, d ? d->kind : VS_ARENA_RAM, &ev->req)) < 0)
		return -1;
	return read_alloc_keys(r, t, i + used, nt, ev, d);
}

/* ---- other statements -------------------------------------------------- */

/* Each statement's reader takes its tokens t[0..nt) (t[0] its name) into
 * the event, its type set: 0 or -1. */

/* free ID */
static int read_free(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	if (nt != 2)
		return vs_trace_fail(r, nt < 2 ? t[0].col + t[0].len : t[2].col, "free: expected 'free ID'");
	if (vs_trace_parse_u64(t[1].s, t[1].len, 0, &ev->id))
		return vs_trace_fail(r, t[1].col, "free: id '%.*s' is not a 64-bit number", (int)t[1].len, t[1].s);
	return 0;
}

/* move ID to=ADDR */
static int read_move(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	uint32_t n;

	if (nt != 3 || t[2].len < 4 || memcmp(t[2].s, "to=", 3) != 0)
		return vs_trace_fail(r, nt < 2 ? t[0].col + t[0].len : nt < 3 ? t[1].col + t[1].len : t[nt > 3 ? 3 : 2].col,
			"move: expected 'move ID to=ADDR'");
	if (vs_trace_parse_u64(t[1].s, t[1].len, 0, &ev->id))
		return vs_trace_fail(r, t[1].col, "move: id '%.*s' is not a 64-bit number", (int)t[1].len, t[1].s);
	if (vs_trace_num32(r, t[2].s + 3, t[2].len - 3, t[2].col + 3, "to", 0, &n))
		return -1;
	ev->req.has_at = VS_AT_ADDR;
	ev->req.at = n;
	return 0;
}

static int read_frame(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	(void)ev;
	if (nt != 1)
		return vs_trace_fail(r, t[1].col, "frame takes nothing after it");
	return 0;
}

/* save NAME [ARENA], restore NAME [ARENA] */
static int read_state(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	if (nt < 2 || nt > 3)
		return vs_trace_fail(r, nt < 2 ? t[0].col + t[0].len : t[3].col, "%s: expected '%s NAME [ARENA]'",
			vs_trace_event_name(ev->type), vs_trace_event_name(ev->type));
	if (!name_ok(t[1].s, t[1].len, VS_STATE_NAME_MAX))
		return vs_trace_fail(r, t[1].col, "state name '%.*s' must be 1-63 letters, digits or _-./:",
			(int)t[1].len, t[1].s);
	ev->state = vs_trace_intern(&r->states, t[1].s, t[1].len, VS_STATE_DISTINCT_MAX);
	if (ev->state == NAMES_FULL)
		return vs_trace_fail(r, t[1].col, "more than %u distinct state names: a state names a point to come "
			"back to (a level, a scene), not each save", (unsigned)VS_STATE_DISTINCT_MAX);
	if (!ev->state)
		return vs_trace_fail(r, t[1].col, "out of memory for state names");
	ev->name = r->states.names[ev->state];
	if (nt == 3 && (ev->arena = arena_by_tok(&r->hdr, &t[2])) < 0)
		return vs_trace_fail(r, t[2].col, "unknown arena '%.*s'", (int)t[2].len, t[2].s);
	return 0;
}

/* reset [ARENA] */
static int read_reset(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	if (nt > 2)
		return vs_trace_fail(r, t[2].col, "reset: expected 'reset [ARENA]'");
	if (nt == 2 && (ev->arena = arena_by_tok(&r->hdr, &t[1])) < 0)
		return vs_trace_fail(r, t[1].col, "unknown arena '%.*s'", (int)t[1].len, t[1].s);
	return 0;
}

/* push NAME, pop NAME: a route, in a heaps trace */
static int read_push_pop(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	if (!r->hdr.heaps)
		return vs_trace_fail(r, t[0].col, "%s: needs a 'heaps' line in the header", vs_trace_event_name(ev->type));
	if (nt != 2)
		return vs_trace_fail(r, nt < 2 ? t[0].col + t[0].len : t[2].col, "%s: expected '%s NAME'",
			vs_trace_event_name(ev->type), vs_trace_event_name(ev->type));
	if ((ev->route = vs_trace_route_by_tok(&r->hdr, &t[1])) < 0)
		return vs_trace_fail(r, t[1].col, "unknown arena or search list '%.*s'", (int)t[1].len, t[1].s);
	return 0;
}

/* init [ARENA] [key=value ...]: every key=value is an option for the
 * arena's strategy, kept as key=value,key=value */
static int read_init(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	const vs_trace_header *h = &r->hdr;
	int i = 1, first, j;
	size_t len = 0;

	if (nt > 1 && !memchr(t[1].s, '=', t[1].len)) {
		if ((ev->arena = arena_by_tok(h, &t[1])) < 0)
			return vs_trace_fail(r, t[1].col, "unknown arena '%.*s'", (int)t[1].len, t[1].s);
		i = 2;
	} else if (h->narenas > 1) {
		return vs_trace_fail(r, t[0].col + t[0].len, "init: this trace declares %d arenas: name one", h->narenas);
	} else {
		ev->arena = 0;
	}
	for (first = i; i < nt; i++) {
		const char *eq = memchr(t[i].s, '=', t[i].len);
		if (!eq || eq == t[i].s || !name_ok(t[i].s, (size_t)(eq - t[i].s), VS_NAME_MAX))
			return vs_trace_fail(r, t[i].col, "init: expected key=value, got '%.*s'", (int)t[i].len, t[i].s);
		if (memchr(t[i].s, ',', t[i].len))
			return vs_trace_fail(r, t[i].col, "init: a value may not contain ','");
		/* a key twice: the strategy would take the first, the other unseen */
		for (j = first; j < i; j++)
			if ((const char *)memchr(t[j].s, '=', t[j].len) - t[j].s == eq - t[i].s &&
				memcmp(t[j].s, t[i].s, (size_t)(eq - t[i].s)) == 0)
				return vs_trace_fail(r, t[i].col, "init: option '%.*s' given twice", (int)(eq - t[i].s), t[i].s);
		if (len + t[i].len + 2 > sizeof r->options)
			return vs_trace_fail(r, t[i].col, "init: options are longer than %d bytes", VS_OPTIONS_MAX - 1);
		if (len)
			r->options[len++] = ',';
		memcpy(r->options + len, t[i].s, t[i].len);
		len += t[i].len;
	}
	r->options[len] = '\0';
	ev->options = r->options;
	return 0;
}

/* A bank letter A-I: 0-8, or -1. */
static int bank_letter(const tok *t)
{
	return t->len == 1 && t->s[0] >= 'A' && t->s[0] <= 'I' ? t->s[0] - 'A' : -1;
}

/* vramcnt BANK VALUE: DS only */
static int read_vramcnt(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	uint32_t v;
	int bank, i, ds = 0;

	if (nt != 3)
		return vs_trace_fail(r, nt < 3 ? t[nt - 1].col + t[nt - 1].len : t[3].col,
			"vramcnt: expected 'vramcnt BANK VALUE' (a bank A-I and the register's new value)");
	for (i = 0; i < r->hdr.narenas; i++)
		ds |= vs_ds_banked(r->hdr.arenas[i].kind);
	if (!ds)
		return vs_trace_fail(r, t[0].col, "vramcnt: this trace declares no DS VRAM arena");
	if ((bank = bank_letter(&t[1])) < 0)
		return vs_trace_fail(r, t[1].col, "vramcnt: '%.*s' is not a bank letter A-I", (int)t[1].len, t[1].s);
	if (vs_trace_num32(r, t[2].s, t[2].len, t[2].col, "VRAMCNT value", 0, &v))
		return -1;
	if (v > 0xFF || (v & 0x60))
		return vs_trace_fail(r, t[2].col, "vramcnt: 0x%x is not a VRAMCNT value (bits 0-2 MST, 3-4 OFS, 7 enable)",
			(unsigned)v);
	ev->bank = (uint8_t)bank;
	ev->vramcnt = (uint8_t)v;
	return 0;
}

/* lock BANK, unlock BANK */
static int read_lock(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	int bank;

	if (nt != 2)
		return vs_trace_fail(r, nt < 2 ? t[0].col + t[0].len : t[2].col, "%s: expected '%s BANK' (a bank A-I)",
			vs_trace_event_name(ev->type), vs_trace_event_name(ev->type));
	if ((bank = bank_letter(&t[1])) < 0)
		return vs_trace_fail(r, t[1].col, "%s: '%.*s' is not a bank letter A-I", vs_trace_event_name(ev->type),
			(int)t[1].len, t[1].s);
	ev->bank = (uint8_t)bank;
	return 0;
}

/* The statements by event type, one row each: its name and its reader. */
static const struct statement {
	const char *name;
	size_t len;
	int (*read)(vs_trace_reader *r, const tok *t, int nt, vs_event *ev);
} statements[VS_EV_COUNT] = {
	[VS_EV_ALLOC] = { NAME("alloc"), parse_alloc }, [VS_EV_FREE] = { NAME("free"), read_free },
	[VS_EV_FRAME] = { NAME("frame"), read_frame }, [VS_EV_SAVE] = { NAME("save"), read_state },
	[VS_EV_RESTORE] = { NAME("restore"), read_state }, [VS_EV_RESET] = { NAME("reset"), read_reset },
	[VS_EV_INIT] = { NAME("init"), read_init }, [VS_EV_PUSH] = { NAME("push"), read_push_pop },
	[VS_EV_POP] = { NAME("pop"), read_push_pop }, [VS_EV_MOVE] = { NAME("move"), read_move },
	[VS_EV_REALLOC] = { NAME("realloc"), parse_alloc }, [VS_EV_VRAMCNT] = { NAME("vramcnt"), read_vramcnt },
	[VS_EV_LOCK] = { NAME("lock"), read_lock }, [VS_EV_UNLOCK] = { NAME("unlock"), read_lock },
};

const char *vs_trace_event_name(vs_event_type t)
{
	return (unsigned)t < VS_EV_COUNT ? statements[t].name : "?";
}

int vs_trace_parse_event(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	int type;

	memset(ev, 0, sizeof *ev);
	ev->line = r->line;
	ev->tag = "";
	ev->arena = -1;
	ev->route = -1;
	for (type = 0; type < VS_EV_COUNT; type++)
		if (same_name(t[0].s, t[0].len, statements[type].name, statements[type].len)) {
			ev->type = (vs_event_type)type;
			return statements[type].read(r, t, nt, ev);
		}
	if (tok_is(&t[0], "arena") || tok_is(&t[0], "heaps") || tok_is(&t[0], "search"))
		return vs_trace_fail(r, t[0].col, "%.*s lines must come before the first event", (int)t[0].len, t[0].s);
	if (tok_is(&t[0], "vramsim-trace"))
		return vs_trace_fail(r, t[0].col, "the version line may appear only once, first");
	return vs_trace_fail(r, t[0].col,
		"unknown statement '%.*s' (alloc, free, frame, save, restore, reset, init, push, pop, move, "
		"realloc, vramcnt, lock, unlock)", (int)t[0].len, t[0].s);
}
