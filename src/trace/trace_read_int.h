/* SPDX-License-Identifier: Zlib */
/* trace_read_int.h - what the trace reader's files share: the full path
 * (trace_read.c: blocks, lines, tokens, numbers, tags, errors; and the
 * statements, trace_header.c's for the header and trace_event.c's for the
 * events) and the fast path (trace_fast.c: the commonest lines read
 * straight from the block, and vs_trace_next). Here are the reader's
 * state, the word loads, slots and tag look-up the paths use, tokens and
 * names, and the calls each file makes into another. The small helpers are
 * static inline: the fast path's per-line work must not pay for a call
 * across files.
 */
#ifndef VRAMSIM_TRACE_READ_INT_H
#define VRAMSIM_TRACE_READ_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/compiler_hints.h"
#include "base/text.h"
#include "trace/trace.h"

#define SLACK 64 /* bytes after buf[cap], initialised: the fast path reads words that may run past a line */
#define MAX_TOK 32 /* tokens on one line */
#define NAMES_FULL UINT32_MAX /* vs_trace_intern: the table's bound reached */

/* Names the reader keeps for the whole trace (tags, states), each an id
 * from 1: open addressing over them. A bound on how many keeps memory
 * bounded however long the trace. */
typedef struct name_table {
	char **names;   /* index = id; [0] = "" */
	uint32_t n, cap;
	uint32_t *hash; /* slots hold an id, 0 = empty */
	uint32_t hash_cap;
} name_table;

/* A token of a line, cut in place by the full path. */
typedef struct tok {
	const char *s;
	uint32_t len;
	uint32_t col; /* 1-based byte column */
} tok;

struct vs_trace_reader {
	FILE *fp;
	int own_fp;
	int eof;
	int follow;         /* vs_trace_follow: the end is "no more yet" */
	char name[VS_TEXT_PATH_SHOWN];
	char *buf;          /* holds at least one whole line; buf[end] is '\n' */
	size_t cap, start, end;
	uint64_t line;      /* number of the line last cut */
	uint64_t bytes_in;  /* read from the stream so far */
	int have_pending;   /* first event line read while reading the header */
	int slow;           /* an error or a pending line: vs_trace_next skips the fast path */
	char *pending;
	size_t pending_len;
	uint64_t pending_line;
	vs_trace_header hdr;
	size_t arena_len[VS_TRACE_MAX_ARENAS]; /* strlen of each arena's name */
	/* names under 8 bytes and a space as a word, and the mask of its bytes
	 * (0: a longer name), for fast_alloc */
	uint64_t arena_word[VS_TRACE_MAX_ARENAS], arena_mask[VS_TRACE_MAX_ARENAS];
	/* sprite requests by sides (log2(width) - 3 + 8 * (log2(height) - 3)):
	 * OAM shape and size field, and bytes at 4 and 8 bpp (0: no such
	 * sprite), from request.c's tables once, for fast_request */
	struct { uint8_t shape, size; uint32_t bytes[2]; } sprite[64];
	/* texture bytes by format (1-7) and sides */
	uint32_t tex_bytes[8][64];
	/* sizes "WxH" of sides 8 to 1024 by their bytes as one word (as
	 * tag_word), for word_dims: their sides (0 with word 0: none) */
	struct { uint64_t word; uint8_t sides; } dims[256];
	/* texture formats by their names' bytes as one word, as tag_word */
	struct { uint64_t word; uint32_t format; } tex_word[64];
	char err[1024];
	vs_arena_kind req_kind; /* the arena kind of the request being read */
	/* event storage */
	char tag[VS_TAG_MAX];
	char options[VS_OPTIONS_MAX];
	uint8_t *data;
	name_table tags;   /* alloc's tag= */
	name_table states; /* save's and restore's NAME */
	/* tags of 1 to 7 name bytes by their bytes as one word (little-endian,
	 * zero above the name), for fast_tag; id 0 = empty, a clash keeps the
	 * newer and the older is found through tags' hash */
	struct { uint64_t word; uint32_t id; } tag_word[64];
};

/* The 4 bytes at p as a little-endian word (compilers make it one load). */
static inline uint32_t word4(const char *p)
{
	const unsigned char *q = (const unsigned char *)p;

	return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

/* The 8 bytes at p as a little-endian word (compilers make it one load). */
static inline uint64_t word8(const char *p)
{
	return (uint64_t)word4(p) | (uint64_t)word4(p + 4) << 32;
}

/* tag_word's and tex_word's slot for a word */
static inline uint32_t tag_slot(uint64_t w)
{
	return (uint32_t)((w * 0x9E3779B97F4A7C15ull) >> 58);
}

/* The id of name s (no NUL in it: the reader rejects those) whose
 * hash_str is h, if t has it, else 0. */
static inline uint32_t names_probe(const name_table *t, uint32_t h, const char *s, size_t len)
{
	uint32_t i;

	for (i = h & (t->hash_cap - 1); t->hash[i]; i = (i + 1) & (t->hash_cap - 1)) {
		const char *n = t->names[t->hash[i]];
		size_t k = 0;
		while (k < len && n[k] == s[k]) /* stops at n's NUL: s has none */
			k++;
		if (k == len && n[len] == '\0')
			return t->hash[i];
	}
	return 0;
}

/* A key=value token cut at its '=' (key_value) */
typedef struct kv {
	const char *key, *v;
	size_t kl, vl;      /* the key's and the value's lengths */
	uint32_t col, vcol; /* the token's and the value's columns */
} kv;

static inline int tok_is(const tok *t, const char *w)
{
	size_t n = strlen(w);

	return t->len == n && memcmp(t->s, w, n) == 0;
}

/* A name in a table row with its length, so that a look-up compares
 * lengths first and takes no strlen: { NAME("alloc"), ... } */
#define NAME(s) s, sizeof(s) - 1

/* The n bytes at p are a table's name s of length len. (tok_is is for
 * literals, whose length the compiler knows.) */
static inline int same_name(const char *p, size_t n, const char *s, size_t len)
{
	if (n != len)
		return 0;
	/* a length the compiler knows lets it compare in a load or two, with
	 * no call: names are 2 to 8 bytes */
	switch (n) {
	case 2: return memcmp(p, s, 2) == 0;
	case 3: return memcmp(p, s, 3) == 0;
	case 4: return memcmp(p, s, 4) == 0;
	case 5: return memcmp(p, s, 5) == 0;
	case 6: return memcmp(p, s, 6) == 0;
	case 7: return memcmp(p, s, 7) == 0;
	case 8: return memcmp(p, s, 8) == 0;
	default: return memcmp(p, s, n) == 0;
	}
}

static inline int kv_is(const kv *k, const char *key)
{
	size_t n = strlen(key);

	return k->kl == n && memcmp(k->key, key, n) == 0;
}

static inline int kv_value_is(const kv *k, const char *v)
{
	size_t n = strlen(v);

	return k->vl == n && memcmp(k->v, v, n) == 0;
}

/* A name: 1 to max - 1 letters, digits or _-./: */
static inline int name_ok(const char *s, size_t len, size_t max)
{
	size_t i;

	if (len == 0 || len >= max)
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '_' || c == '-' || c == '.' || c == '/' || c == ':'))
			return 0;
	}
	return 1;
}

/* trace_fast.c: the fast path's tables (sprites, textures, sizes and
 * formats by their words, arena names as words), made once the header is
 * read. */
void vs_trace_fast_tables(vs_trace_reader *r);

/* trace_read.c: the next event by the full path, for every line the fast
 * path leaves. */
int vs_trace_next_slow(vs_trace_reader *r, vs_event *ev);

/* trace_read.c: what the header's and the events' statements take from
 * the full path. An error at column col of the current line (0: 1), as
 * "NAME:LINE:COL: error: ..."; returns -1. */
int vs_trace_fail(vs_trace_reader *r, uint32_t col, const char *fmt, ...) VS_PRINTF(3, 4);
/* A decimal or 0x number, with a K or M suffix when suffix is set: 0, -1
 * when it is not a number, -2 when it does not fit in 64 bits. */
int vs_trace_parse_u64(const char *s, size_t len, int suffix, uint64_t *out);
/* A number of up to 32 bits (with a K or M suffix when suffix is set), what
 * naming it in errors; 0 or -1. */
int vs_trace_num32(vs_trace_reader *r, const char *s, size_t len, uint32_t col, const char *what,
	int suffix, uint32_t *out);
/* The next line with tokens: 1, 0 at the end, -1 on error. */
int vs_trace_next_statement(vs_trace_reader *r, tok *t, int *nt);
/* A tag's id if it was seen before, else 0. */
uint32_t vs_trace_find_tag(const vs_trace_reader *r, const char *s, size_t len);
/* Name s's id in t, added when new (0: out of memory, NAMES_FULL: t holds
 * max names already). */
uint32_t vs_trace_intern(name_table *t, const char *s, size_t len, uint32_t max);
/* A new tag's id, as vs_trace_intern, and the word fast_tag finds it by. */
uint32_t vs_trace_intern_tag(vs_trace_reader *r, const char *s, size_t len);

/* trace_event.c: the event a line's tokens state; 0 or -1. */
int vs_trace_parse_event(vs_trace_reader *r, const tok *t, int nt, vs_event *ev);

/* trace_header.c: the header, up to and keeping the first event's line;
 * 0 or -1. */
int vs_trace_read_header(vs_trace_reader *r);
/* A route (an arena, or VS_ROUTE_SEARCH0 + a search list) by its name, or -1. */
int vs_trace_route_by_tok(const vs_trace_header *h, const tok *t);
/* The arena named by the len bytes at s (column col), or -1 with an error. */
int vs_trace_arena_in(vs_trace_reader *r, const char *s, size_t len, uint32_t col);

/* A key=value token cut at its first '=': 0, or -1 with an error when it
 * has no '=' or nothing before it. Inline: every key of a line comes here,
 * and its caller's compiler sees that out is written whenever it is 0. */
static inline int key_value(vs_trace_reader *r, const tok *t, kv *out)
{
	const char *eq = memchr(t->s, '=', t->len);

	if (!eq || eq == t->s) {
		vs_trace_fail(r, t->col, "expected key=value, got '%.*s'", (int)t->len, t->s);
		return -1;
	}
	out->key = t->s;
	out->kl = (size_t)(eq - t->s);
	out->v = eq + 1;
	out->vl = t->len - out->kl - 1;
	out->col = t->col;
	out->vcol = t->col + (uint32_t)out->kl + 1;
	return 0;
}

#endif
