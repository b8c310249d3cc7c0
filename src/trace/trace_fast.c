/* SPDX-License-Identifier: Zlib */
/* trace_fast.c - the trace reader's fast path: the commonest lines read
 * straight from the block, the tables it reads them with (made at open),
 * and vs_trace_next, which sends every other line to the full path
 * (trace_read.c).
 *
 * Most lines of a long trace are `frame`, `free ID` or `alloc ID [ARENA]
 * REQUEST [tag=NAME]` with single spaces. The fast path reads those
 * straight from the block: no copy, no token array, no second pass. It
 * takes only lines it can read completely, with decimal numbers short
 * enough not to overflow and a tag seen before; any other line, and every
 * line the full path would reject, it leaves to the full path
 * (vs_trace_next_slow, in trace_read.c), which reads it from its first
 * byte. So events and errors are those of the full path. The block ends
 * in a NUL sentinel (buf[end]), which no token the fast path reads may
 * hold: no scan runs past it, and a line it cuts has no '\n' to end on.
 * Tokens are read by the word (8 bytes, and the byte after): up to 8
 * bytes past the sentinel, in the block's SLACK.
 */
#include <stdio.h>
#include <string.h>

#include "base/compiler_hints.h"
#include "trace_read_int.h"
#include "trace/trace.h"
#include "vram/request.h"

#define C_DIGIT 1
#define C_NAME 2  /* letters, digits, _-./: (name_ok) */
#define C_TOK 4   /* printable ASCII but space: inside a token */

/* by byte: C_DIGIT, C_NAME, C_TOK; bytes from 0x80 are none of them */
static const uint8_t cclass[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 6, 6,
	7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 4, 4, 4, 4, 4,
	4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
	6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 4, 4, 4, 4, 6,
	4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
	6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 4, 4, 4, 4, 0,
};

#define CC(p, c) (cclass[(unsigned char)*(p)] & (c))

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* x is 8 bytes xor '0': bit 7 of each byte that was no digit. x & 0x7F
 * plus 0x76 reaches 0x80 from 10 up with no carry into the next byte, so
 * every byte is judged alone. */
static inline uint64_t non_digits(uint64_t x)
{
	return (((x & 0x7F * ONES) + 0x76 * ONES) | x) & HIGHS;
}

/* The value of 8 digits (bytes 0-9, the first in the lowest byte): pairs,
 * then fours, then the eight, a multiply each (Lemire's SWAR parse). */
static inline uint64_t digits8(uint64_t x)
{
	x = x * 10 + (x >> 8);
	return ((x & 0x000000FF000000FFull) * (100 + (1000000ull << 32)) +
		((x >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32))) >> 32;
}

/* The value of the n (1-7) digits at the bottom of x: shifted to the top,
 * as the last digits of eight with leading zeros. */
static inline uint64_t digits_n(uint64_t x, unsigned n)
{
	return digits8(x << (64 - 8 * n));
}

/* Powers of ten up to 10^7 */
static const uint32_t pow10[8] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };

/* fast_num's numbers of 8 digits or more: the first 8 are x (xor '0'),
 * then the next 8 at once, then one by one up to maxd. */
static VS_NOINLINE const char *fast_num_long(const char *p, uint64_t x, unsigned maxd, uint64_t *out)
{
	uint64_t v = digits8(x), nd;
	unsigned n, k, d;

	x = word8(p + 8) ^ ('0' * ONES);
	nd = non_digits(x);
	if (nd) {
		k = (unsigned)__builtin_ctzll(nd) / 8;
		n = 8 + k;
		if (k)
			v = v * pow10[k] + digits_n(x, k);
	} else {
		v = v * 100000000u + digits8(x);
		for (n = 16; n <= maxd && (d = (unsigned)(unsigned char)p[n] - '0') < 10; n++)
			v = v * 10 + d;
	}
	if (n > maxd)
		return NULL;
	*out = v;
	return p + n;
}

/* A decimal number of 1 to maxd digits (9 <= maxd <= 19: no overflow):
 * the byte after it, or NULL. Every caller checks that byte itself (a
 * space or the line's end, as it needs). Up to 7 digits are counted in
 * one word and converted with no branch on them (numbers of several
 * lengths mispredict a loop's end); longer ones go out of line. */
static VS_ALWAYS_INLINE const char *fast_num(const char *p, unsigned maxd, uint64_t *out)
{
	uint64_t x = word8(p) ^ ('0' * ONES), nd = non_digits(x);
	unsigned b;

	if (!nd)
		return fast_num_long(p, x, maxd, out);
	b = (unsigned)__builtin_ctzll(nd); /* 8 * digits + 7 */
	if (b < 8)
		return NULL;
	*out = digits8(x << (71 - b)); /* digits_n(x, b / 8) */
	return p + b / 8;
}

/* The 4 bytes "4bpp" and "8bpp" as words */
#define BPP_WORD(c) ((uint32_t)(c) | (uint32_t)'b' << 8 | (uint32_t)'p' << 16 | (uint32_t)'p' << 24)

/* "4bpp" or "8bpp" (the caller checks the byte after): 4, 8, or 0. */
static inline unsigned fast_bpp(const char *p)
{
	uint32_t w = word4(p);

	if (w != BPP_WORD('4') && w != BPP_WORD('8'))
		return 0;
	return w & 0xF;
}

/* p starts with the literal w (no NUL in it): a match never reaches past
 * the sentinel; a mismatch may read a few bytes past it, in SLACK. */
#define LIT(p, w) (memcmp((p), (w), sizeof(w) - 1) == 0)

/* The len bytes at p are the name n (no call: names are short). */
static int same_bytes(const char *p, const char *n, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != n[i])
			return 0;
	return 1;
}

/* dims' slot for a word: the multiplier was searched for to give each of
 * the 63 sizes "8x8" to "1024x512" (all but 1024x1024: 9 bytes) a slot of
 * its own; were two to share one, the older would go the full way */
static inline uint32_t dims_slot(uint64_t w)
{
	return (uint32_t)((w * 0xFB51391D6662D7F1ull) >> 56);
}

/* The bytes at p up to the first one below 0x21 (a space, CR, LF or the
 * sentinel), when there are 1 to 8 of them: their count, and them as a
 * word (zero above); 0 otherwise. Found in the word with no branch on the
 * bytes (names of several lengths mispredict a loop's end); the lowest
 * byte so flagged is exact, and none is flagged when no byte is below
 * 0x21. Bytes past the line are the next line's or the block's SLACK. */
static inline uint32_t short_word(const char *p, uint64_t *key)
{
	uint64_t w = word8(p), end = (w - 0x21 * ONES) & ~w & HIGHS;
	uint32_t n;

	if (!end) {
		if ((unsigned char)p[8] >= 0x21)
			return 0;
		*key = w;
		return 8;
	}
	n = (uint32_t)__builtin_ctzll(end) / 8;
	*key = w & ((1ull << (8 * n)) - 1);
	return n;
}

/* A texture format's name at *pp found by its word: the format, *pp past
 * the name; 0 when not so found. */
static inline unsigned word_format(const vs_trace_reader *r, const char **pp)
{
	uint64_t key = 0;
	uint32_t n = short_word(*pp, &key), i = tag_slot(key);

	if (!n || !r->tex_word[i].format || r->tex_word[i].word != key)
		return 0;
	*pp += n;
	return r->tex_word[i].format;
}

/* "WxH" at *pp, sides 8 to 1024 written out (no leading zero), found by
 * its word: log2(W) - 3 + 8 * (log2(H) - 3), *pp past it; -1 for
 * anything else, which the full path reads. The caller checks the byte
 * after (a space). */
static inline int word_dims(const vs_trace_reader *r, const char **pp)
{
	uint64_t key = 0;
	uint32_t n = short_word(*pp, &key), i = dims_slot(key);

	if (!n || r->dims[i].word != key)
		return -1;
	*pp += n;
	return r->dims[i].sides;
}

/* The request at p for an arena of this kind, as parse_request
 * (trace_event.c) reads it into rq (all zero on entry); returns the byte
 * after it, or NULL. The caller checks that byte: a space or the line's
 * end, as for every token the fast path reads last. */
static VS_ALWAYS_INLINE const char *fast_request(const vs_trace_reader *r, const char *p, vs_arena_kind kind, vs_request *rq)
{
	uint64_t n;
	unsigned v;
	int s;

	if (CC(p, C_DIGIT)) {
		/* at most 9 digits: fits in 32 bits; a K or M suffix goes the full way */
		if (!(p = fast_num(p, 9, &n)) || (n == 0 && kind != VS_ARENA_RAM))
			return NULL;
		rq->shape = VS_REQ_BYTES;
		rq->size = (uint32_t)n;
		return p;
	}
	if (kind == VS_ARENA_GBA_OBJ && LIT(p, "sprite ")) {
		/* sides 8 to 64 */
		p += 7;
		if ((s = word_dims(r, &p)) < 0 || *p++ != ' ' || !(v = fast_bpp(p)) || !r->sprite[s].bytes[v == 8])
			return NULL;
		rq->shape = VS_REQ_SPRITE;
		rq->u.sprite.shape = r->sprite[s].shape;
		rq->u.sprite.size = r->sprite[s].size;
		rq->u.sprite.bpp = (uint8_t)v;
		rq->size = r->sprite[s].bytes[v == 8];
		return p + 4;
	}
	if (kind == VS_ARENA_GBA_BG && LIT(p, "tile ")) {
		if (!(p = fast_num(p + 5, 9, &n)) || *p != ' ' || !(v = fast_bpp(p + 1)))
			return NULL;
		rq->shape = VS_REQ_TILE;
		rq->u.tile.rom = (uint32_t)n;
		rq->u.tile.bpp = (uint8_t)v;
		rq->size = 8 * v; /* vs_request_derive_size: 32 or 64 */
		return p + 5;
	}
	if (kind == VS_ARENA_DS_TEX && LIT(p, "tex ")) {
		p += 4;
		if ((s = word_dims(r, &p)) < 0 || *p++ != ' ')
			return NULL;
		/* the name by its word, as fast_tag finds a tag; a size with no
		 * texture bytes is the full path's error */
		if (!(v = word_format(r, &p)) || !r->tex_bytes[v][s])
			return NULL;
		rq->shape = VS_REQ_TEX;
		rq->u.tex.format = (uint8_t)v;
		rq->u.tex.width = (uint16_t)(8u << (s & 7));
		rq->u.tex.height = (uint16_t)(8u << (s >> 3));
		rq->size = r->tex_bytes[v][s];
		return p;
	}
	if (kind == VS_ARENA_DS_PLTT && LIT(p, "pltt ")) {
		if (!(p = fast_num(p + 5, 9, &n)) || n == 0 || n > 0xC000)
			return NULL;
		rq->shape = VS_REQ_PLTT;
		rq->u.pltt.colours = (uint16_t)n;
		rq->u.pltt.four = n == 4;
		rq->size = (uint32_t)n * 2; /* vs_request_derive_size */
		return p;
	}
	return NULL;
}

/* A tag's name at s looked up by name: its id (and *pp past it), or 0.
 * Out of line: most tags are found by their word. */
static VS_NOINLINE uint32_t fast_tag_name(const vs_trace_reader *r, const char *s, const char **pp)
{
	const char *p = s;
	uint32_t hsh = 2166136261u, i;
	size_t len;

	for (; CC(p, C_NAME); p++)
		hsh = (hsh ^ (uint8_t)*p) * 16777619u; /* hash_str as it goes */
	len = (size_t)(p - s);
	if (len == 0 || len >= VS_TAG_MAX)
		return 0;
	if ((i = names_probe(&r->tags, hsh, s, len)) != 0)
		*pp = p;
	return i;
}

/* `tag=NAME` for a tag seen before: its id (and p past it), else 0. */
static VS_ALWAYS_INLINE uint32_t fast_tag(const vs_trace_reader *r, const char **pp)
{
	const char *s = *pp + 4;
	uint32_t i, sl;
	uint64_t key = 0;

	if (word4(*pp) != word4("tag="))
		return 0;
	/* a name of up to 8 bytes by its word; a name in tag_word is all name
	 * bytes, so this finds what fast_tag_name would */
	sl = short_word(s, &key);
	i = tag_slot(key);
	if (sl && r->tag_word[i].id && r->tag_word[i].word == key) {
		*pp = s + sl;
		return r->tag_word[i].id;
	}
	return fast_tag_name(r, s, pp);
}

/* Arena a's name and a space at p (a name starts with a letter). */
static inline int arena_at(const vs_trace_reader *r, int a, const char *p)
{
	size_t len = r->arena_len[a];

	if (r->arena_mask[a])
		return (word8(p) & r->arena_mask[a]) == r->arena_word[a];
	return same_bytes(p, r->hdr.arenas[a].name, len) && p[len] == ' ';
}

/* The alloc after "alloc ": its id, arena and request (rq all zero on
 * entry); returns the end of its last token, or NULL. */
static VS_ALWAYS_INLINE const char *fast_alloc(const vs_trace_reader *r, const char *p, uint64_t *id, int *arena, vs_request *rq)
{
	const vs_trace_header *h = &r->hdr;
	const char *q;
	int a;

	if (h->heaps || !(p = fast_num(p, 19, id)) || *p++ != ' ')
		return NULL;
	/* an arena name when a request follows it: parse_alloc takes it as the
	 * arena then; else the line goes the full way (no second reading here) */
	if (h->narenas == 1) {
		a = 0;
		if (arena_at(r, 0, p))
			p += r->arena_len[0] + 1;
	} else {
		for (a = 0; a < h->narenas && !arena_at(r, a, p); a++)
			;
		if (a == h->narenas)
			return NULL;
		p += r->arena_len[a] + 1;
	}
	if (!(q = fast_request(r, p, h->arenas[a].kind, rq)))
		return NULL;
	*arena = a;
	if (*q == ' ') {
		q++;
		if (!(rq->tag = fast_tag(r, &q)))
			return NULL;
	}
	return q;
}

/* The line's end at p ('\n' or "\r\n"): the byte after it, or NULL. The
 * sentinel is no '\n': a line cut by the block's end, or the last line
 * without a newline, goes the full way (the reader knows it is the last
 * only after a read that found nothing more: next_line's business). */
static VS_ALWAYS_INLINE const char *line_end(const char *p)
{
	if (*p != '\n') {
		if (*p != '\r' || p[1] != '\n')
			return NULL;
		p++;
	}
	return p + 1;
}

/* A fast line read up to next (the byte after its end): the line is
 * consumed and every field the fast path did not write is set as
 * vs_trace_parse_event leaves it; field by field, as a memset of the
 * whole event compiles to a slow rep stos. Tag 0's name is "". */
static VS_ALWAYS_INLINE int fast_done(vs_trace_reader *r, vs_event *ev, vs_event_type type, int arena,
	const char *next)
{
	r->start = (size_t)(next - r->buf);
	ev->type = type;
	ev->line = ++r->line;
	ev->arena = arena;
	ev->tag = r->tags.names[ev->req.tag];
	ev->data = NULL;
	ev->data_len = 0;
	ev->name = NULL;
	ev->options = NULL;
	ev->route = -1;
	ev->search_len = 0;
	memset(ev->search, 0, sizeof ev->search);
	return 1;
}

/* The fast lines, each its own way to the event, so that a frame or a
 * free saves no registers for an alloc's work. The event is written in place (no
 * request built aside and copied): a line the fast path leaves to the full
 * path may leave its id and request half written, which the full path
 * then overwrites or, for a line it rejects, leaves (an error: the event
 * means nothing then). At the end of a trace no line starts as a fast one,
 * and the caller's event keeps the last one. */

/* `free ID`, p after "free ". */
static VS_ALWAYS_INLINE int fast_free_line(vs_trace_reader *r, vs_event *ev, const char *p)
{
	if (!(p = fast_num(p, 19, &ev->id)) || !(p = line_end(p)))
		return vs_trace_next_slow(r, ev);
	memset(&ev->req, 0, sizeof ev->req);
	return fast_done(r, ev, VS_EV_FREE, -1, p);
}

/* fast_free's ids of 8 digits or more: on their own way, so that a short
 * id's line saves no registers for fast_num_long's call. */
static VS_NOINLINE int fast_free_long(vs_trace_reader *r, vs_event *ev, const char *p)
{
	return fast_free_line(r, ev, p);
}

static VS_NOINLINE int fast_free(vs_trace_reader *r, vs_event *ev, const char *p)
{
	if (!non_digits(word8(p) ^ ('0' * ONES)))
		return fast_free_long(r, ev, p);
	return fast_free_line(r, ev, p);
}

/* `alloc ...`, p after "alloc ". */
static VS_NOINLINE int fast_alloc_line(vs_trace_reader *r, vs_event *ev, const char *p)
{
	int arena = -1;

	memset(&ev->req, 0, sizeof ev->req);
	if (!(p = fast_alloc(r, p, &ev->id, &arena, &ev->req)) || !(p = line_end(p)))
		return vs_trace_next_slow(r, ev);
	return fast_done(r, ev, VS_EV_ALLOC, arena, p);
}

/* ---- tables made at open ---------------------------------------------- */

void vs_trace_fast_tables(vs_trace_reader *r)
{
	unsigned wi, hi, b, shape, size, f;
	int a;

	for (wi = 0; wi < 8; wi++)
		for (hi = 0; hi < 8; hi++) {
			char d[16] = { 0 };
			if (snprintf(d, sizeof d, "%ux%u", 8u << wi, 8u << hi) <= 8) {
				r->dims[dims_slot(word8(d))].word = word8(d);
				r->dims[dims_slot(word8(d))].sides = (uint8_t)(wi + 8 * hi);
			}
		}
	for (f = 1; f < 8; f++) {
		const char *name = vs_request_tex_format_name(f);
		size_t len = strlen(name);
		/* every name is under 8 bytes, and their slots differ; were one
		 * left out, or a clash to drop the older, its lines would go the
		 * full way */
		if (len < 8) {
			char nb[8] = { 0 };
			memcpy(nb, name, len);
			r->tex_word[tag_slot(word8(nb))].word = word8(nb);
			r->tex_word[tag_slot(word8(nb))].format = f;
		}
		for (wi = 0; wi < 8; wi++)
			for (hi = 0; hi < 8; hi++)
				r->tex_bytes[f][wi + 8 * hi] = vs_request_tex_bytes(f, 8u << wi, 8u << hi);
	}
	for (wi = 0; wi < 4; wi++)
		for (hi = 0; hi < 4; hi++) {
			if (vs_request_sprite_from_dims(8u << wi, 8u << hi, &shape, &size))
				continue;
			r->sprite[wi + 8 * hi].shape = (uint8_t)shape;
			r->sprite[wi + 8 * hi].size = (uint8_t)size;
			for (b = 0; b < 2; b++) {
				vs_request rq;
				memset(&rq, 0, sizeof rq);
				rq.shape = VS_REQ_SPRITE;
				rq.u.sprite.shape = (uint8_t)shape;
				rq.u.sprite.size = (uint8_t)size;
				rq.u.sprite.bpp = (uint8_t)(4 << b);
				if (vs_request_derive_size(&rq) == 0)
					r->sprite[wi + 8 * hi].bytes[b] = rq.size;
			}
		}
	/* arena names of up to 7 bytes and a space, as one word */
	for (a = 0; a < r->hdr.narenas; a++) {
		char nb[8] = { 0 };
		size_t len = strlen(r->hdr.arenas[a].name);
		r->arena_len[a] = len;
		if (len < 8) {
			memcpy(nb, r->hdr.arenas[a].name, len);
			nb[len] = ' ';
			r->arena_word[a] = word8(nb);
			r->arena_mask[a] = len == 7 ? ~0ull : (1ull << (8 * (len + 1))) - 1;
		}
	}
}

/* ---- next --------------------------------------------------------------- */

int vs_trace_next(vs_trace_reader *r, vs_event *ev)
{
	const char *p = r->buf + r->start, *next;
	uint32_t w;

	if (r->slow)
		return vs_trace_next_slow(r, ev);
	w = word4(p);
	if (w == word4("free") && p[4] == ' ')
		return fast_free(r, ev, p + 5);
	if (w == word4("allo") && word4(p + 2) == word4("loc "))
		return fast_alloc_line(r, ev, p + 6);
	if (w == word4("fram") && p[4] == 'e' && (next = line_end(p + 5)) != NULL) {
		ev->id = 0;
		memset(&ev->req, 0, sizeof ev->req);
		return fast_done(r, ev, VS_EV_FRAME, -1, next);
	}
	return vs_trace_next_slow(r, ev);
}
