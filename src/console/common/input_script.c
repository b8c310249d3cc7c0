/* SPDX-License-Identifier: Zlib */
/* input_script.c - reads input scripts: which keys are held on which frames. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "base/compiler_hints.h"
#include "base/grow.h"
#include "console/common/input_script.h"
#include "base/text.h"

#define LINE_MAX_BYTES 4096

static const char *const key_names[] = {
	"a", "b", "select", "start", "right", "left", "up", "down", "r", "l", "x", "y"
};
#define KEY_LIST "a b x y select start right left up down r l, touch X,Y, or none"
#define NKEYS (sizeof key_names / sizeof key_names[0])

typedef struct reader {
	const char *name;
	uint32_t line;
	char *err;
	size_t errlen;
} reader;

static int fail(reader *rd, size_t col, const char *fmt, ...) VS_PRINTF(3, 4);

static int fail(reader *rd, size_t col, const char *fmt, ...)
{
	char name[VS_TEXT_PATH_SHOWN];
	va_list ap;
	int n;

	vs_text_path(name, sizeof name, rd->name); /* a long one loses its front, never the reason */
	n = snprintf(rd->err, rd->errlen, "%s:%u:%zu: error: ", name, (unsigned)rd->line, col);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < rd->errlen)
		vsnprintf(rd->err + n, rd->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	vs_text_escape_in_place(rd->err, rd->errlen); /* the message may quote the script */
	return -1;
}

/* A frame number: decimal digits that fit in 32 bits. */
static int frame_number(reader *rd, const char *s, size_t col, const char **end, uint32_t *out)
{
	uint64_t v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return fail(rd, col, "expected a frame number or a range N-M");
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return fail(rd, col, "frame number past 4294967295");
		p++;
	}
	*end = p;
	*out = (uint32_t)v;
	return 0;
}

/* "X,Y" after touch: X 0-255, Y 0-191 (the touch screen's pixels). */
static int touch_point(reader *rd, const char *text, const char *p, size_t len, vs_input_range *r)
{
	unsigned v[2] = { 0, 0 }, limit[2] = { 255, 191 };
	size_t i = 0;
	int k;

	for (k = 0; k < 2; k++) {
		size_t digits = 0;

		while (i < len && p[i] >= '0' && p[i] <= '9' && digits < 4) {
			v[k] = v[k] * 10 + (unsigned)(p[i++] - '0');
			digits++;
		}
		if (!digits || v[k] > limit[k] || (k == 0 && (i >= len || p[i++] != ',')))
			return fail(rd, (size_t)(p - text) + 1, "expected X,Y after touch (X 0-255, Y 0-191, "
				"the touch screen's pixels)");
	}
	if (i != len)
		return fail(rd, (size_t)(p - text + (ptrdiff_t)i) + 1, "expected a space after touch X,Y");
	r->touch = 1;
	r->touch_x = (uint8_t)v[0];
	r->touch_y = (uint8_t)v[1];
	return 0;
}

static int key_bit(const char *word, size_t len)
{
	size_t k;

	for (k = 0; k < NKEYS; k++)
		if (strlen(key_names[k]) == len && memcmp(word, key_names[k], len) == 0)
			return (int)k;
	return -1;
}

/* "N[-M] KEY..." into r; the line has no comment or newline left. */
static int parse_line(reader *rd, const char *text, vs_input_range *r)
{
	const char *p = text, *end = text; /* frame_number sets it; -O3 cannot tell */
	int none = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (frame_number(rd, p, (size_t)(p - text) + 1, &end, &r->first))
		return -1;
	r->last = r->first;
	if (*end == '-') {
		p = end + 1;
		if (frame_number(rd, p, (size_t)(p - text) + 1, &end, &r->last))
			return -1;
		if (r->last < r->first)
			return fail(rd, (size_t)(p - text) + 1, "range ends (%u) before it starts (%u)", (unsigned)r->last,
				(unsigned)r->first);
	}
	if (*end && *end != ' ' && *end != '\t')
		return fail(rd, (size_t)(end - text) + 1, "expected a space after the frames");
	r->keys = 0;
	r->touch = r->touch_x = r->touch_y = 0;
	r->ds_col = 0;
	p = end;
	for (;;) {
		size_t len, col;
		int k;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " \t");
		col = (size_t)(p - text) + 1;
		k = key_bit(p, len);
		if (len == 4 && memcmp(p, "none", 4) == 0) {
			none = 1;
		} else if (len == 5 && memcmp(p, "touch", 5) == 0) {
			if (r->touch)
				return fail(rd, col, "touch twice in one range");
			while (p[len] == ' ' || p[len] == '\t')
				len++;
			p += len;
			len = strcspn(p, " \t");
			if (touch_point(rd, text, p, len, r))
				return -1;
		} else if (k < 0) {
			return fail(rd, col, "unknown key '%.*s' (" KEY_LIST ")", (int)(len > 32 ? 32 : len), p);
		} else {
			r->keys |= (uint16_t)(1u << k);
		}
		if (!r->ds_col && (r->touch || (r->keys & ~VS_KEY_GBA_MASK)))
			r->ds_col = (uint16_t)col;
		p += len;
	}
	if (!r->keys && !r->touch && !none)
		return fail(rd, strlen(text) + 1, "no keys after the frames (write 'none' to hold nothing)");
	if ((r->keys || r->touch) && none)
		return fail(rd, 1, "'none' with other keys");
	return 0;
}

static int by_first(const void *a, const void *b)
{
	const vs_input_range *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

static int add_range(reader *rd, vs_input_script *s, size_t *cap, const vs_input_range *r)
{
	if (s->n == VS_INPUT_MAX_RANGES)
		return fail(rd, 1, "more than %u ranges", VS_INPUT_MAX_RANGES);
	if (s->n == *cap && vs_grow(&s->ranges, sizeof *s->ranges, cap, s->n + 1, 64))
		return fail(rd, 1, "out of memory");
	s->ranges[s->n++] = *r;
	return 0;
}

/* Sorted by first frame, no two ranges may share a frame. */
static int check_overlaps(reader *rd, vs_input_script *s)
{
	size_t i;

	if (s->n < 2)
		return 0; /* nothing to sort: ranges may still be NULL */
	qsort(s->ranges, s->n, sizeof *s->ranges, by_first);
	for (i = 1; i < s->n; i++) {
		const vs_input_range *a = &s->ranges[i - 1], *b = &s->ranges[i];
		if (b->first <= a->last) {
			const vs_input_range *later = a->line > b->line ? a : b, *earlier = later == a ? b : a;
			rd->line = later->line;
			return fail(rd, 1, "frames %u-%u overlap the range on line %u (%u-%u)", (unsigned)later->first,
				(unsigned)later->last, (unsigned)earlier->line, (unsigned)earlier->first,
				(unsigned)earlier->last);
		}
	}
	return 0;
}

/* Reads one line (newline dropped) of at most LINE_MAX_BYTES into buf:
 * 1 a line, 0 the end, -1 too long. A line may hold NUL bytes: *len says. */
static int read_line(FILE *fp, char *buf, size_t *len)
{
	size_t n = 0;
	int c;

	while ((c = getc(fp)) != EOF && c != '\n') {
		if (n == LINE_MAX_BYTES)
			return -1;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	*len = n;
	return c == EOF && n == 0 ? 0 : 1;
}

int vs_input_script_read(FILE *fp, const char *name, vs_input_script *s, char *err, size_t errlen)
{
	reader rd = { name, 0, err, errlen };
	char buf[LINE_MAX_BYTES + 1], *text;
	size_t cap = 0, len;
	int got;

	memset(s, 0, sizeof *s);
	while ((got = read_line(fp, buf, &len)) != 0) {
		vs_input_range r;
		char *nul;
		rd.line++;
		if (rd.line > VS_INPUT_MAX_LINES) {
			fail(&rd, 1, "more than %u lines", VS_INPUT_MAX_LINES);
			goto bad;
		}
		if (got < 0) {
			fail(&rd, LINE_MAX_BYTES + 1, "line longer than %d bytes", LINE_MAX_BYTES);
			goto bad;
		}
		if ((nul = memchr(buf, '\0', len)) != NULL) {
			fail(&rd, (size_t)(nul - buf) + 1, "NUL byte");
			goto bad;
		}
		if (len && buf[len - 1] == '\r')
			buf[--len] = '\0'; /* a CRLF line end */
		if ((nul = memchr(buf, '\r', strcspn(buf, "#"))) != NULL) {
			/* lines ended by CR alone would be read as one, the rest unseen */
			fail(&rd, (size_t)(nul - buf) + 1, "carriage return inside a line (lines end with LF or CRLF)");
			goto bad;
		}
		text = buf;
		if (rd.line == 1 && len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
			text += 3; /* a UTF-8 byte order mark */
		text[strcspn(text, "#")] = '\0';
		if (text[strspn(text, " \t")] == '\0')
			continue;
		r.line = rd.line;
		if (parse_line(&rd, text, &r) || add_range(&rd, s, &cap, &r))
			goto bad;
	}
	if (ferror(fp)) {
		vs_text_path_msg(err, errlen, name, "read error: %s", strerror(errno));
		goto bad;
	}
	if (check_overlaps(&rd, s))
		goto bad;
	return 0;
bad:
	vs_input_script_free(s);
	return -1;
}

int vs_input_script_load(const char *path, vs_input_script *s, char *err, size_t errlen)
{
	FILE *fp = vs_in_open(path, "rb");
	int rc;

	memset(s, 0, sizeof *s);
	if (!fp) {
		vs_text_path_msg(err, errlen, path, "cannot read: %s", strerror(errno));
		return -1;
	}
	rc = vs_input_script_read(fp, path, s, err, errlen);
	fclose(fp);
	return rc;
}

const vs_input_range *vs_input_script_at(const vs_input_script *s, uint32_t frame)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->ranges[mid].last < frame)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->ranges[lo].first <= frame ? &s->ranges[lo] : NULL;
}

uint16_t vs_input_script_keys(const vs_input_script *s, uint32_t frame)
{
	const vs_input_range *r = vs_input_script_at(s, frame);

	return r ? r->keys : 0;
}

int vs_input_script_gba_only(const vs_input_script *s, const char *name, char *err, size_t errlen)
{
	const vs_input_range *first = NULL;
	reader rd = { name, 0, err, errlen };
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->ranges[i].ds_col && (!first || s->ranges[i].line < first->line))
			first = &s->ranges[i];
	if (!first)
		return 0;
	rd.line = first->line;
	return fail(&rd, first->ds_col, "a DS key or touch in a GBA run (a GBA has a b select start right left "
		"up down r l)");
}

void vs_input_keys_name(uint16_t keys, char *buf, size_t len)
{
	size_t k, n = 0;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < NKEYS; k++)
		if (keys & (1u << k)) {
			int w = snprintf(buf + n, len > n ? len - n : 0, "%s%s", n ? " " : "", key_names[k]);
			if (w > 0)
				n += (size_t)w;
		}
	if (!n)
		snprintf(buf, len, "none");
}

void vs_input_script_free(vs_input_script *s)
{
	free(s->ranges);
	s->ranges = NULL;
	s->n = 0;
}
