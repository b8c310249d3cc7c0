/* SPDX-License-Identifier: Zlib */
/* trace_read.c - streaming reader for trace format v1 (docs/trace-format.md).
 *
 * Input is read in large blocks and cut into lines in place; a line is split
 * into at most MAX_TOK tokens that remember their columns, so every error
 * can point at the token that caused it. This is the full path, which
 * reads every line; the commonest lines are first tried by the fast path
 * (trace_fast.c, which also holds vs_trace_next), and any line it does not
 * read to the end comes here (vs_trace_next_slow) from its first byte.
 * Here are the lines, tokens and numbers; the statements they hold are
 * read in trace_header.c (the header's) and trace_event.c (the events').
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/in_file.h"
#include "base/compiler_hints.h"
#include "trace_read_int.h"
#include "base/text.h"
#include "trace/trace.h"
#include "vram/request.h"
#include "vram/arena.h"

#define BLOCK (1u << 16)

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
	vs_text_escape_in_place(r->err, sizeof r->err);
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
				if (r->follow) {
					/* a writer is still at it: a line without its
					 * newline is not whole yet; read again later.
					 * The block moved: its sentinel goes after it */
					clearerr(r->fp);
					r->buf[r->end] = '\0';
					return 0;
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

/* ---- numbers ----------------------------------------------------------- */

/* A decimal or 0x number, with a K or M suffix when suffix is set: 0, -1
 * when it is not a number, -2 when it does not fit in 64 bits (the first
 * bad digit decides, before any overflow after it). */
int vs_trace_parse_u64(const char *s, size_t len, int suffix, uint64_t *out)
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
	int rc = vs_trace_parse_u64(s, len, suffix, &v);

	*out = 0;
	if (rc == -1)
		return vs_trace_fail(r, col, "%s: '%.*s' is not a number", what, (int)len, s);
	if (rc == -2 || v > UINT32_MAX)
		return vs_trace_fail(r, col, "%s: %.*s does not fit in 32 bits", what, (int)len, s);
	*out = (uint32_t)v;
	return 0;
}

/* ---- open / next / close ----------------------------------------------- */

/* An empty table: id 0 is the empty name. 0, or -1 out of memory. */
static int names_init(name_table *t)
{
	t->cap = 64;
	t->hash_cap = 128;
	t->names = calloc(t->cap, sizeof *t->names);
	t->hash = calloc(t->hash_cap, sizeof *t->hash);
	if (!t->names || !t->hash)
		return -1;
	t->n = 1;
	return (t->names[0] = calloc(1, 1)) ? 0 : -1;
}

static void names_free(name_table *t)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->hash);
}

vs_trace_reader *vs_trace_open_stream(FILE *fp, const char *name, char *err, size_t errlen)
{
	vs_trace_reader *r = calloc(1, sizeof *r);

	if (!r) {
		vs_text_path_msg(err, errlen, name, "out of memory");
		return NULL;
	}
	r->fp = fp;
	/* the name is only ever printed: keep it printable, and short enough
	 * that a message after it is never cut (its front goes first) */
	vs_text_path(r->name, sizeof r->name, name);
	r->cap = BLOCK; /* grown when a line needs it: an allocator's small size, not a mapping, for short traces */
	r->buf = calloc(r->cap + 1 + SLACK, 1);
	if (r->buf)
		r->buf[0] = '\0'; /* the fast path's sentinel */
	if (!r->buf || names_init(&r->tags) || names_init(&r->states)) {
		vs_text_path_msg(err, errlen, name, "out of memory");
		vs_trace_close(r);
		return NULL;
	}
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

	if (strcmp(path, "-") == 0) {
		if (vs_in_note_stdin()) { /* the file it is, when it is one: no output may replace it */
			snprintf(err, errlen, "<stdin>: %s", strerror(errno));
			return NULL;
		}
		return vs_trace_open_stream(stdin, "<stdin>", err, errlen);
	}
	fp = vs_in_open(path, "rb");
	if (!fp) {
		vs_text_path_msg(err, errlen, path, "cannot open: %s", strerror(errno));
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
			rc = vs_trace_parse_event(r, t, nt, ev) ? -1 : 1;
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
			return vs_trace_parse_event(r, t, nt, ev) ? -1 : 1;
		/* a blank line or a comment: the full path reads on (it reads
		 * a line as the fast path would) */
	}
}

void vs_trace_follow(vs_trace_reader *r, int on)
{
	r->follow = on;
	if (on) {
		r->eof = 0;
		clearerr(r->fp);
	}
}

const vs_trace_header *vs_trace_header_of(const vs_trace_reader *r) { return &r->hdr; }
const char *vs_trace_error(const vs_trace_reader *r) { return r->err; }
const char *vs_trace_name(const vs_trace_reader *r) { return r->name; }
uint64_t vs_trace_line(const vs_trace_reader *r) { return r->line; }

void vs_trace_close(vs_trace_reader *r)
{
	if (!r)
		return;
	if (r->own_fp && r->fp)
		fclose(r->fp);
	names_free(&r->tags);
	names_free(&r->states);
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
uint32_t vs_trace_find_tag(const vs_trace_reader *r, const char *s, size_t len)
{
	return names_probe(&r->tags, hash_str(s, len), s, len);
}

uint32_t vs_trace_intern(name_table *t, const char *s, size_t len, uint32_t max)
{
	uint32_t h = hash_str(s, len), i, id;

	if ((id = names_probe(t, h, s, len)) != 0)
		return id;
	/* names live as long as the reader: a bound keeps memory bounded */
	if (t->n > max)
		return NAMES_FULL;
	if (t->n == t->cap) {
		char **nn = realloc(t->names, 2 * t->cap * sizeof *nn);
		if (!nn)
			return 0;
		t->names = nn;
		t->cap *= 2;
	}
	if (2 * (t->n + 1) > t->hash_cap) {
		uint32_t ncap = t->hash_cap * 2, j;
		uint32_t *nh = calloc(ncap, sizeof *nh);
		if (!nh)
			return 0;
		for (j = 1; j < t->n; j++) {
			const char *n = t->names[j];
			uint32_t k = hash_str(n, strlen(n)) & (ncap - 1);
			while (nh[k])
				k = (k + 1) & (ncap - 1);
			nh[k] = j;
		}
		free(t->hash);
		t->hash = nh;
		t->hash_cap = ncap;
	}
	for (i = h & (t->hash_cap - 1); t->hash[i]; i = (i + 1) & (t->hash_cap - 1))
		;
	id = t->n;
	t->names[id] = malloc(len + 1);
	if (!t->names[id])
		return 0;
	memcpy(t->names[id], s, len);
	t->names[id][len] = '\0';
	t->n++;
	t->hash[i] = id;
	return id;
}

uint32_t vs_trace_intern_tag(vs_trace_reader *r, const char *s, size_t len)
{
	uint32_t id = vs_trace_intern(&r->tags, s, len, VS_TAG_DISTINCT_MAX);

	if (id && id != NAMES_FULL && len <= 8 && name_ok(s, len, 9)) {
		char b[8] = { 0 };
		memcpy(b, s, len);
		r->tag_word[tag_slot(word8(b))].word = word8(b);
		r->tag_word[tag_slot(word8(b))].id = id;
	}
	return id;
}

uint32_t vs_trace_tag_count(const vs_trace_reader *r) { return r->tags.n; }

uint64_t vs_trace_bytes_read(const vs_trace_reader *r) { return r->bytes_in; }

uint64_t vs_trace_size(const vs_trace_reader *r)
{
	struct stat st;

	return fstat(fileno(r->fp), &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

const char *vs_trace_tag_name(const vs_trace_reader *r, uint32_t tag)
{
	return tag < r->tags.n ? r->tags.names[tag] : "";
}
