/* SPDX-License-Identifier: Zlib */
/* trace_read.c - streaming reader for trace format v1 (docs/trace-format.md).
 *
 * Input is read in large blocks and cut into lines in place; a line is split
 * into at most MAX_TOK tokens that remember their columns, so every error
 * can point at the token that caused it. This is the full path, which
 * reads every line; the commonest lines are first tried by the fast path
 * (trace_fast.c, which also holds vs_trace_next), and any line it does not
 * read to the end comes here (vs_trace_next_slow) from its first byte. The
 * header's lines are read in trace_header.c, with these lines and tokens.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../compiler_hints.h"
#include "trace_read_int.h"
#include "vramsim/text.h"
#include "vramsim/trace.h"

#define BLOCK (1u << 16)
#define TAGS_FULL UINT32_MAX /* intern_tag: VS_TAG_DISTINCT_MAX reached */

static const char *const event_names[VS_EV_COUNT] = {
	"alloc", "free", "frame", "save", "restore", "reset", "init", "push", "pop", "move"
};

const char *vs_event_name(vs_event_type t)
{
	return (unsigned)t < VS_EV_COUNT ? event_names[t] : "?";
}

int vs_trace_fail(vs_trace_reader *r, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	int n;

	r->slow = 1;
	n = snprintf(r->err, sizeof r->err, "%s:%llu:%u: error: ", r->name,
		(unsigned long long)r->line, (unsigned)(col ? col : 1));

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof r->err)
		vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
	va_end(ap);
	/* the message may quote the line: no control characters reach a terminal */
	vs_escape_in_place(r->err, sizeof r->err);
	return -1;
}

/* ---- lines ------------------------------------------------------------- */

/* Cuts the next line; returns 1 with the line in s and len, 0 at end, -1 on error. */
static int next_line(vs_trace_reader *r, char **s, size_t *len)
{
	for (;;) {
		char *nl = r->end > r->start ? memchr(r->buf + r->start, '\n', r->end - r->start) : NULL;
		if (nl) {
			*s = r->buf + r->start;
			*len = (size_t)(nl - *s);
			r->start += *len + 1;
			r->line++;
			if (*len > VS_TRACE_LINE_MAX)
				return vs_trace_fail(r, 1, "line is longer than %u bytes", VS_TRACE_LINE_MAX);
			return 1;
		}
		if (r->eof) {
			if (r->end == r->start)
				return 0;
			/* last line without a newline */
			*s = r->buf + r->start;
			*len = r->end - r->start;
			r->start = r->end;
			r->line++;
			if (*len > VS_TRACE_LINE_MAX)
				return vs_trace_fail(r, 1, "line is longer than %u bytes", VS_TRACE_LINE_MAX);
			return 1;
		}
		if (r->end - r->start > VS_TRACE_LINE_MAX) {
			r->line++;
			return vs_trace_fail(r, 1, "line is longer than %u bytes", VS_TRACE_LINE_MAX);
		}
		/* compact, then read another block */
		if (r->start) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (r->cap - r->end < BLOCK) {
			size_t ncap = r->cap * 2;
			char *nb = realloc(r->buf, ncap + 1 + SLACK);
			if (!nb)
				return vs_trace_fail(r, 1, "out of memory reading a long line");
			memset(nb + r->cap + 1 + SLACK, 0, ncap - r->cap);
			r->buf = nb;
			r->cap = ncap;
		}
		{
			size_t got = fread(r->buf + r->end, 1, r->cap - r->end, r->fp);
			if (got == 0) {
				if (ferror(r->fp)) {
					r->line++;
					return vs_trace_fail(r, 1, "read error: %s", strerror(errno));
				}
				r->eof = 1;
			}
			r->end += got;
			r->bytes_in += got;
			r->buf[r->end] = '\0'; /* the fast path's sentinel */
		}
	}
}

static int utf8_check(vs_trace_reader *r, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t n, k;
		if (c < 0x80) {
			if (c == 0)
				return vs_trace_fail(r, (uint32_t)i + 1, "NUL byte in trace text");
			i++;
			continue;
		}
		n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
		if (n == 0 || i + n > len || c == 0xC0 || c == 0xC1 || c > 0xF4)
			return vs_trace_fail(r, (uint32_t)i + 1, "invalid UTF-8");
		for (k = 1; k < n; k++)
			if (((unsigned char)s[i + k] & 0xC0) != 0x80)
				return vs_trace_fail(r, (uint32_t)i + 1, "invalid UTF-8");
		i += n;
	}
	return 0;
}

/* Splits a line into tokens; a token starting with '#' ends the line. */
static int tokenize(vs_trace_reader *r, char *s, size_t len, tok *t, int *nt)
{
	size_t i = 0;
	int n = 0;

	if (len && s[len - 1] == '\r')
		len--;
	for (;;) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= len || s[i] == '#')
			break;
		if (n == MAX_TOK)
			return vs_trace_fail(r, (uint32_t)i + 1, "too many fields on one line (at most %d)", MAX_TOK);
		t[n].s = s + i;
		t[n].col = (uint32_t)i + 1;
		while (i < len && s[i] != ' ' && s[i] != '\t')
			i++;
		t[n].len = (uint32_t)(s + i - t[n].s);
		n++;
	}
	*nt = n;
	return 0;
}

/* Printable ASCII other than space: what tokens of plain lines are made of. */
#define PLAIN(c) ((unsigned char)((c) - 0x21) < 0x5E)

/* Tokens of a plain line (printable ASCII, spaces and tabs, a final CR) in
 * one pass, as tokenize cuts them. Returns 1 with the tokens, or 0 when the
 * line holds another byte (NUL, a control character, UTF-8) or too many
 * fields: the caller then takes the full checks, which judge and report it
 * exactly as before. s[len] is borrowed for a sentinel (the buffer holds
 * the line's newline or a spare byte there). */
static int scan_plain(char *s, size_t len, tok *t, int *nt)
{
	const unsigned char *p = (const unsigned char *)s, *q, *end;
	int n = 0, ok = 1;
	char save;

	if (len && s[len - 1] == '\r')
		len--;
	end = p + len;
	save = s[len];
	s[len] = '\n';
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (p == end)
			break;
		if (*p == '#') {
			/* a comment ends the line, but its bytes are checked too */
			while (p < end && (PLAIN(*p) || *p == ' ' || *p == '\t'))
				p++;
			ok = p == end;
			break;
		}
		if (n == MAX_TOK || !PLAIN(*p)) {
			ok = 0;
			break;
		}
		q = p;
		while (PLAIN(*p))
			p++;
		if (p != end && *p != ' ' && *p != '\t') {
			ok = 0;
			break;
		}
		t[n].s = (const char *)q;
		t[n].len = (uint32_t)(p - q);
		t[n].col = (uint32_t)(q - (const unsigned char *)s) + 1;
		n++;
	}
	s[len] = save;
	*nt = n;
	return ok;
}

/* A key=value token cut at its first '=': 0, or -1 with an error when it
 * has no '=' or nothing before it. */
int vs_trace_key_value(vs_trace_reader *r, const tok *t, kv *out)
{
	const char *eq = memchr(t->s, '=', t->len);

	if (!eq || eq == t->s)
		return vs_trace_fail(r, t->col, "expected key=value, got '%.*s'", (int)t->len, t->s);
	out->key = t->s;
	out->kl = (size_t)(eq - t->s);
	out->v = eq + 1;
	out->vl = t->len - out->kl - 1;
	out->col = t->col;
	out->vcol = t->col + (uint32_t)out->kl + 1;
	return 0;
}

/* ---- numbers and names ------------------------------------------------- */

/* A decimal or 0x number, with a K or M suffix when suffix is set: 0, -1
 * when it is not a number, -2 when it does not fit in 64 bits (the first
 * bad digit decides, before any overflow after it). */
static int parse_u64(const char *s, size_t len, int suffix, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	size_t i;

	if (suffix && len > 1 && (s[len - 1] == 'K' || s[len - 1] == 'M')) {
		mul = s[len - 1] == 'K' ? 1024 : 1048576;
		len--;
	}
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; i < len; i++) {
			char c = s[i];
			unsigned d;
			if (c >= '0' && c <= '9')
				d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned)(c - 'A' + 10);
			else
				return -1;
			if (v >> 60)
				return -2;
			v = v << 4 | d;
		}
	} else {
		if (len == 0)
			return -1;
		for (i = 0; i < len; i++) {
			unsigned d = (unsigned)(unsigned char)s[i] - '0';
			if (d > 9)
				return -1;
			/* v * 10 + d overflows (19 digits always fit): no division per digit */
			if (i >= 19 && (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10)))
				return -2;
			v = v * 10 + d;
		}
	}
	if (mul > 1 && v > UINT64_MAX / mul)
		return -2;
	*out = v * mul;
	return 0;
}

int vs_trace_num32(vs_trace_reader *r, const char *s, size_t len, uint32_t col, const char *what,
	int suffix, uint32_t *out)
{
	uint64_t v = 0;
	int rc = parse_u64(s, len, suffix, &v);

	*out = 0;
	if (rc == -1)
		return vs_trace_fail(r, col, "%s: '%.*s' is not a number", what, (int)len, s);
	if (rc == -2 || v > UINT32_MAX)
		return vs_trace_fail(r, col, "%s: %.*s does not fit in 32 bits", what, (int)len, s);
	*out = (uint32_t)v;
	return 0;
}

/* Parses "WxH" into two numbers. */
static int parse_dims(const tok *t, unsigned *w, unsigned *h)
{
	const char *x = memchr(t->s, 'x', t->len);
	uint64_t a, b;

	if (!x || parse_u64(t->s, (size_t)(x - t->s), 0, &a) ||
		parse_u64(x + 1, t->len - (size_t)(x - t->s) - 1, 0, &b) || a > 4096 || b > 4096)
		return -1;
	*w = (unsigned)a;
	*h = (unsigned)b;
	return 0;
}

static int parse_bpp(const tok *t)
{
	return tok_is(t, "4bpp") ? 4 : tok_is(t, "8bpp") ? 8 : 0;
}

/* ---- events ------------------------------------------------------------ */

static int arena_by_tok(const vs_trace_header *h, const tok *t)
{
	int i;

	for (i = 0; i < h->narenas; i++)
		if (strlen(h->arenas[i].name) == t->len && memcmp(h->arenas[i].name, t->s, t->len) == 0)
			return i;
	return -1;
}

static uint32_t intern_tag(vs_trace_reader *r, const char *s, size_t len);
static uint32_t find_tag(const vs_trace_reader *r, const char *s, size_t len);

/* ---- requests ---------------------------------------------------------- */

static int unknown_request(vs_trace_reader *r, const tok *t)
{
	return vs_trace_fail(r, t->col, "unknown request '%.*s' (N, bytes, sprite, tile, map, tex, pltt)",
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
	if (parse_u64(t[0].s, t[0].len, 1, &v) == -1)
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

/* sprite WxH 4bpp|8bpp */
static int req_sprite(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	unsigned w, h, shape, size, bpp;

	(void)n;
	if (parse_dims(&t[1], &w, &h))
		return vs_trace_fail(r, t[1].col, "sprite: expected WxH, got '%.*s'", (int)t[1].len, t[1].s);
	if (vs_sprite_from_dims(w, h, &shape, &size))
		return vs_trace_fail(r, t[1].col, "sprite: no OAM shape is %ux%u pixels", w, h);
	if (!(bpp = (unsigned)parse_bpp(&t[2])))
		return vs_trace_fail(r, t[2].col, "sprite: expected 4bpp or 8bpp, got '%.*s'", (int)t[2].len, t[2].s);
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

/* tex WxH FORMAT */
static int req_tex(vs_trace_reader *r, const tok *t, int n, vs_request *rq)
{
	unsigned w, h, format;
	char f[16];

	(void)n;
	if (parse_dims(&t[1], &w, &h))
		return vs_trace_fail(r, t[1].col, "tex: expected WxH, got '%.*s'", (int)t[1].len, t[1].s);
	memcpy(f, t[2].s, t[2].len < 15 ? t[2].len : 15);
	f[t[2].len < 15 ? t[2].len : 15] = '\0';
	if (t[2].len > 15 || vs_tex_format_parse(f, &format))
		return vs_trace_fail(r, t[2].col, "tex: unknown format '%.*s' (a3i5 4c 16c 256c 4x4 a5i3 direct)",
			(int)t[2].len, t[2].s);
	if (!vs_tex_bytes(format, w, h))
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

#define ANY_ARENA VS_ARENA_KIND_COUNT

/* The request kinds, one row each: the keyword (none: a number, the
 * first row), the arena kind it goes to, the tokens it takes at least
 * (with the keyword), what to say when there are fewer, and its reader. */
static const struct req_kind {
	const char *name;
	vs_arena_kind arena;
	int ntok;
	const char *usage;
	int (*read)(vs_trace_reader *r, const tok *t, int n, vs_request *rq);
} req_kinds[] = {
	{ NULL, ANY_ARENA, 1, NULL, req_size },
	{ "bytes", ANY_ARENA, 2, "bytes: expected a size", req_bytes },
	{ "sprite", VS_ARENA_GBA_OBJ, 3, "sprite: expected 'sprite WxH 4bpp|8bpp'", req_sprite },
	{ "tile", VS_ARENA_GBA_BG, 3, "tile: expected 'tile ROM 4bpp|8bpp'", req_tile },
	{ "map", VS_ARENA_GBA_BG, 3, "map: expected 'map text|affine WxH'", req_map },
	{ "tex", VS_ARENA_DS_TEX, 3, "tex: expected 'tex WxH FORMAT'", req_tex },
	{ "pltt", VS_ARENA_DS_PLTT, 2, "pltt: expected 'pltt N [4c]'", req_pltt },
};
#define NREQ_KINDS (sizeof req_kinds / sizeof req_kinds[0])

/* The request kind a keyword names, or NULL. */
static const struct req_kind *req_keyword(const tok *t)
{
	size_t k;

	for (k = 1; k < NREQ_KINDS; k++)
		if (tok_is(t, req_kinds[k].name))
			return &req_kinds[k];
	return NULL;
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
	if (k->arena != ANY_ARENA && kind != k->arena)
		return vs_trace_fail(r, t[0].col, "%s requests go to a %s arena, not %s", k->name,
			vs_arena_kind_name(k->arena), vs_arena_kind_name(kind));
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

	return req_keyword(t) || parse_u64(t->s, t->len, 1, &v) == 0;
}

/* ---- alloc ------------------------------------------------------------- */

/* Each alloc key's reader takes its value into the event; d is the
 * event's arena (NULL in a heaps trace). 0 or -1. */

/* tag=NAME: interned, so a tag is one number from here on */
static int key_tag(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d)
{
	(void)d;
	/* a tag seen before passed name_ok then */
	if (!(ev->req.tag = find_tag(r, k->v, k->vl)) && !name_ok(k->v, k->vl, VS_TAG_MAX))
		return vs_trace_fail(r, k->vcol, "tag '%.*s' must be 1-63 letters, digits or _-./:", (int)k->vl, k->v);
	memcpy(r->tag, k->v, k->vl);
	r->tag[k->vl] = '\0';
	ev->tag = r->tag;
	if (!ev->req.tag)
		ev->req.tag = intern_tag(r, k->v, k->vl);
	if (ev->req.tag == TAGS_FULL)
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

	(void)d;
	if (ev->req.shape != VS_REQ_TILE)
		return vs_trace_fail(r, k->col, "cb= (the charblock a BG draws from) applies to tile requests");
	if (vs_trace_num32(r, k->v, k->vl, k->vcol, "cb", 0, &n))
		return -1;
	if (n > 3)
		return vs_trace_fail(r, k->vcol, "charblock %u does not exist (0-3)", (unsigned)n);
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
 * trace takes it, and its reader. Each may be given once. */
static const struct alloc_key {
	const char *name;
	int heaps_only;
	int (*read)(vs_trace_reader *r, const kv *k, vs_event *ev, const vs_arena_decl *d);
} alloc_keys[] = {
	{ "tag", 0, key_tag }, { "align", 0, key_align }, { "dir", 0, key_dir }, { "opt", 0, key_opt },
	{ "at", 0, key_at }, { "data", 0, key_data }, { "cb", 0, key_cb }, { "search", 1, key_search },
};
#define NALLOC_KEYS (sizeof alloc_keys / sizeof alloc_keys[0])

/* The key=value tokens t[i..nt) after the request. */
static int read_alloc_keys(vs_trace_reader *r, const tok *t, int i, int nt, vs_event *ev, const vs_arena_decl *d)
{
	int heaps = r->hdr.heaps;
	unsigned seen = 0, k;
	kv v;

	for (; i < nt; i++) {
		if (vs_trace_key_value(r, &t[i], &v))
			return -1;
		for (k = 0; k < NALLOC_KEYS; k++)
			if (kv_is(&v, alloc_keys[k].name) && (heaps || !alloc_keys[k].heaps_only))
				break;
		if (k == NALLOC_KEYS)
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
	 * keyword ("tex"): it is the arena only when a request follows. */
	if (ev->arena >= 0 && h->narenas == 1 && !(nt > 3 && starts_request(&t[3])))
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
			"alloc: expected 'alloc ID [ARENA] REQUEST [key=value ...]'");
	if (parse_u64(t[1].s, t[1].len, 0, &ev->id))
		return vs_trace_fail(r, t[1].col, "alloc: id '%.*s' is not a 64-bit number", (int)t[1].len, t[1].s);
	if (h->heaps) {
		i = alloc_route(h, t, nt, ev);
		used = parse_request(r, t + i, nt - i, VS_ARENA_RAM, &ev->req);
	} else {
		if ((i = alloc_arena(r, t, nt, ev)) < 0)
			return -1;
		d = &h->arenas[ev->arena];
		if (i >= nt)
			return vs_trace_fail(r, t[nt - 1].col + t[nt - 1].len, "alloc: expected a request");
		used = parse_request(r, t + i, nt - i, d->kind, &ev->req);
	}
	if (used < 0)
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
	if (parse_u64(t[1].s, t[1].len, 0, &ev->id))
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
	if (parse_u64(t[1].s, t[1].len, 0, &ev->id))
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
			vs_event_name(ev->type), vs_event_name(ev->type));
	if (!name_ok(t[1].s, t[1].len, VS_STATE_NAME_MAX))
		return vs_trace_fail(r, t[1].col, "state name '%.*s' must be 1-63 letters, digits or _-./:",
			(int)t[1].len, t[1].s);
	memcpy(r->state, t[1].s, t[1].len);
	r->state[t[1].len] = '\0';
	ev->name = r->state;
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
		return vs_trace_fail(r, t[0].col, "%s: needs a 'heaps' line in the header", vs_event_name(ev->type));
	if (nt != 2)
		return vs_trace_fail(r, nt < 2 ? t[0].col + t[0].len : t[2].col, "%s: expected '%s NAME'",
			vs_event_name(ev->type), vs_event_name(ev->type));
	if ((ev->route = vs_trace_route_by_tok(&r->hdr, &t[1])) < 0)
		return vs_trace_fail(r, t[1].col, "unknown arena or search list '%.*s'", (int)t[1].len, t[1].s);
	return 0;
}

/* init [ARENA] [key=value ...]: every key=value is an option for the
 * arena's strategy, kept as key=value,key=value */
static int read_init(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	const vs_trace_header *h = &r->hdr;
	int i = 1;
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
	for (; i < nt; i++) {
		const char *eq = memchr(t[i].s, '=', t[i].len);
		if (!eq || eq == t[i].s || !name_ok(t[i].s, (size_t)(eq - t[i].s), VS_NAME_MAX))
			return vs_trace_fail(r, t[i].col, "init: expected key=value, got '%.*s'", (int)t[i].len, t[i].s);
		if (memchr(t[i].s, ',', t[i].len))
			return vs_trace_fail(r, t[i].col, "init: a value may not contain ','");
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

/* The statements' readers by event type; their names are event_names. */
static int (*const statements[VS_EV_COUNT])(vs_trace_reader *r, const tok *t, int nt, vs_event *ev) = {
	[VS_EV_ALLOC] = parse_alloc, [VS_EV_FREE] = read_free, [VS_EV_FRAME] = read_frame,
	[VS_EV_SAVE] = read_state, [VS_EV_RESTORE] = read_state, [VS_EV_RESET] = read_reset,
	[VS_EV_INIT] = read_init, [VS_EV_PUSH] = read_push_pop, [VS_EV_POP] = read_push_pop,
	[VS_EV_MOVE] = read_move,
};

static int parse_event(vs_trace_reader *r, const tok *t, int nt, vs_event *ev)
{
	int type;

	memset(ev, 0, sizeof *ev);
	ev->line = r->line;
	ev->tag = "";
	ev->arena = -1;
	ev->route = -1;
	for (type = 0; type < VS_EV_COUNT; type++)
		if (tok_is(&t[0], event_names[type])) {
			ev->type = (vs_event_type)type;
			return statements[type](r, t, nt, ev);
		}
	if (tok_is(&t[0], "arena") || tok_is(&t[0], "heaps") || tok_is(&t[0], "search"))
		return vs_trace_fail(r, t[0].col, "%.*s lines must come before the first event", (int)t[0].len, t[0].s);
	if (tok_is(&t[0], "vramsim-trace"))
		return vs_trace_fail(r, t[0].col, "the version line may appear only once, first");
	return vs_trace_fail(r, t[0].col,
		"unknown statement '%.*s' (alloc, free, frame, save, restore, reset, init, push, pop)", (int)t[0].len, t[0].s);
}

/* Cuts a line into tokens (none for a blank or comment line); 0 or -1. */
static int cut_tokens(vs_trace_reader *r, char *s, size_t len, tok *t, int *nt)
{
	if (r->line == 1 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		/* a UTF-8 byte order mark: columns count from after it, as editors show them */
		s += 3;
		len -= 3;
	}
	if (!scan_plain(s, len, t, nt) && (utf8_check(r, s, len) || tokenize(r, s, len, t, nt)))
		return -1;
	return 0;
}

/* Next line with tokens; returns 1, 0 at end, -1 on error. */
int vs_trace_next_statement(vs_trace_reader *r, tok *t, int *nt)
{
	for (;;) {
		char *s = NULL;
		size_t len = 0;
		int rc = next_line(r, &s, &len);
		if (rc <= 0)
			return rc;
		if (cut_tokens(r, s, len, t, nt))
			return -1;
		if (*nt)
			return 1;
	}
}
/* ---- open / next / close ----------------------------------------------- */

vs_trace_reader *vs_trace_open_stream(FILE *fp, const char *name, char *err, size_t errlen)
{
	vs_trace_reader *r = calloc(1, sizeof *r);

	if (!r) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	r->fp = fp;
	/* the name is only ever printed: keep it printable */
	vs_escape(r->name, sizeof r->name, name, strlen(name), 0);
	r->cap = 4 * BLOCK;
	r->buf = calloc(r->cap + 1 + SLACK, 1);
	if (r->buf)
		r->buf[0] = '\0'; /* the fast path's sentinel */
	r->data = malloc(VS_TRACE_LINE_MAX / 2 + 1);
	r->tags_cap = 64;
	r->tag_names = calloc(r->tags_cap, sizeof *r->tag_names);
	r->hash_cap = 128;
	r->tag_hash = calloc(r->hash_cap, sizeof *r->tag_hash);
	if (!r->buf || !r->data || !r->tag_names || !r->tag_hash || !(r->tag_names[0] = calloc(1, 1))) {
		snprintf(err, errlen, "%s: out of memory", name);
		vs_trace_close(r);
		return NULL;
	}
	r->ntags = 1;
	if (vs_trace_read_header(r)) {
		snprintf(err, errlen, "%s", r->err);
		vs_trace_close(r);
		return NULL;
	}
	return r;
}

vs_trace_reader *vs_trace_open(const char *path, char *err, size_t errlen)
{
	FILE *fp;
	vs_trace_reader *r;

	if (strcmp(path, "-") == 0)
		return vs_trace_open_stream(stdin, "<stdin>", err, errlen);
	fp = fopen(path, "rb");
	if (!fp) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		vs_escape_in_place(err, errlen);
		return NULL;
	}
	r = vs_trace_open_stream(fp, path, err, errlen);
	if (!r) {
		fclose(fp);
		return NULL;
	}
	r->own_fp = 1;
	return r;
}

/* Everything but a fast line: a pending line from the header, lines the
 * fast path leaves, blank lines and comments, the end. Out of line, so a
 * fast line's call sets up no token array and saves no registers for it. */
VS_NOINLINE int vs_trace_next_slow(vs_trace_reader *r, vs_event *ev)
{
	tok t[MAX_TOK];
	int nt, rc;

	if (r->err[0])
		return -1;
	if (r->have_pending) {
		uint64_t saved = r->line;
		r->have_pending = 0;
		r->slow = 0; /* fail sets it again */
		r->line = r->pending_line;
		rc = tokenize(r, r->pending, r->pending_len, t, &nt) ? -1 : 1;
		if (rc == 1)
			rc = parse_event(r, t, nt, ev) ? -1 : 1;
		r->line = saved;
		return rc;
	}
	for (;;) {
		char *s = NULL;
		size_t len = 0;
		rc = next_line(r, &s, &len);
		if (rc <= 0)
			return rc;
		if (cut_tokens(r, s, len, t, &nt))
			return -1;
		if (nt)
			return parse_event(r, t, nt, ev) ? -1 : 1;
		/* a blank line or a comment: the full path reads on (it reads
		 * a line as the fast path would) */
	}
}

const vs_trace_header *vs_trace_header_of(const vs_trace_reader *r) { return &r->hdr; }
const char *vs_trace_error(const vs_trace_reader *r) { return r->err; }
const char *vs_trace_name(const vs_trace_reader *r) { return r->name; }
uint64_t vs_trace_line(const vs_trace_reader *r) { return r->line; }

void vs_trace_close(vs_trace_reader *r)
{
	uint32_t i;

	if (!r)
		return;
	if (r->own_fp && r->fp)
		fclose(r->fp);
	for (i = 0; i < r->ntags; i++)
		free(r->tag_names[i]);
	free(r->tag_names);
	free(r->tag_hash);
	free(r->buf);
	free(r->data);
	free(r->pending);
	free(r);
}

/* ---- tags -------------------------------------------------------------- */

static uint32_t hash_str(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

/* The id of tag s if it was seen before, else 0. */
static uint32_t find_tag(const vs_trace_reader *r, const char *s, size_t len)
{
	return tag_probe(r, hash_str(s, len), s, len);
}

static uint32_t intern_tag(vs_trace_reader *r, const char *s, size_t len)
{
	uint32_t h = hash_str(s, len), i, id;

	for (i = h & (r->hash_cap - 1); r->tag_hash[i]; i = (i + 1) & (r->hash_cap - 1)) {
		const char *n = r->tag_names[r->tag_hash[i]];
		if (strlen(n) == len && memcmp(n, s, len) == 0)
			return r->tag_hash[i];
	}
	/* names live as long as the reader: a bound keeps memory bounded */
	if (r->ntags > VS_TAG_DISTINCT_MAX)
		return TAGS_FULL;
	if (r->ntags == r->tags_cap) {
		char **nn = realloc(r->tag_names, 2 * r->tags_cap * sizeof *nn);
		if (!nn)
			return 0;
		r->tag_names = nn;
		r->tags_cap *= 2;
	}
	if (2 * (r->ntags + 1) > r->hash_cap) {
		uint32_t ncap = r->hash_cap * 2, j;
		uint32_t *nh = calloc(ncap, sizeof *nh);
		if (!nh)
			return 0;
		for (j = 1; j < r->ntags; j++) {
			const char *n = r->tag_names[j];
			uint32_t k = hash_str(n, strlen(n)) & (ncap - 1);
			while (nh[k])
				k = (k + 1) & (ncap - 1);
			nh[k] = j;
		}
		free(r->tag_hash);
		r->tag_hash = nh;
		r->hash_cap = ncap;
		for (i = h & (ncap - 1); r->tag_hash[i]; i = (i + 1) & (ncap - 1))
			;
	}
	id = r->ntags;
	r->tag_names[id] = malloc(len + 1);
	if (!r->tag_names[id])
		return 0;
	memcpy(r->tag_names[id], s, len);
	r->tag_names[id][len] = '\0';
	r->ntags++;
	r->tag_hash[i] = id;
	if (len <= 8 && name_ok(s, len, 9)) {
		char b[8] = { 0 };
		memcpy(b, s, len);
		r->tag_word[tag_slot(word8(b))].word = word8(b);
		r->tag_word[tag_slot(word8(b))].id = id;
	}
	return id;
}

uint32_t vs_trace_tag_count(const vs_trace_reader *r) { return r->ntags; }

uint64_t vs_trace_bytes_read(const vs_trace_reader *r) { return r->bytes_in; }

uint64_t vs_trace_size(const vs_trace_reader *r)
{
	struct stat st;

	return fstat(fileno(r->fp), &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

const char *vs_trace_tag_name(const vs_trace_reader *r, uint32_t tag)
{
	return tag < r->ntags ? r->tag_names[tag] : "";
}
