/* SPDX-License-Identifier: Zlib */
/* fuzz_trace_fast.c - the trace reader's fast path against its full path.
 *
 * The input is read twice: as it is, and with a comment holding a UTF-8
 * byte after every `alloc`, `free` and `frame` line, which only the full
 * path takes (src/trace/trace_fast.c falls back to it on anything it does
 * not read itself). A comment changes nothing a line means, so both reads
 * must give the same events, field for field, and the same error. Lines
 * the comment would push past the longest line, lines that have a comment
 * already and lines with a NUL (the line ends there for neither path) are
 * left as they are. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "trace/trace.h"

static const char tail[] = " # \xC3\xA9";

static int fast_kind(const uint8_t *s, size_t len)
{
	return (len >= 6 && memcmp(s, "alloc ", 6) == 0) || (len >= 5 && memcmp(s, "free ", 5) == 0) ||
		(len >= 5 && memcmp(s, "frame", 5) == 0);
}

/* The input with the comment after each line fast_kind names; *n its length. */
static char *commented(const uint8_t *d, size_t size, size_t *n)
{
	char *out = malloc(size + (size + 1) * (sizeof tail - 1) + 1);
	size_t i = 0, o = 0;

	if (!out)
		return NULL;
	while (i < size) {
		const uint8_t *nl = memchr(d + i, '\n', size - i);
		size_t end = nl ? (size_t)(nl - d) : size, body = end;
		if (body > i && d[body - 1] == '\r')
			body--;
		memcpy(out + o, d + i, body - i);
		o += body - i;
		if (fast_kind(d + i, body - i) && !memchr(d + i, '#', body - i) && !memchr(d + i, '\0', body - i) &&
			body - i + sizeof tail - 1 <= VS_TRACE_LINE_MAX) {
			memcpy(out + o, tail, sizeof tail - 1);
			o += sizeof tail - 1;
		}
		memcpy(out + o, d + body, end - body + (nl != NULL));
		o += end - body + (nl != NULL);
		i = end + (nl != NULL);
	}
	*n = o;
	return out;
}

/* What both reads must agree on: every field, the request byte for byte. */
static int same_event(const vs_event *a, const vs_event *b)
{
	return a->type == b->type && a->line == b->line && a->arena == b->arena && a->id == b->id &&
		memcmp(&a->req, &b->req, sizeof a->req) == 0 && strcmp(a->tag ? a->tag : "", b->tag ? b->tag : "") == 0 &&
		a->data_len == b->data_len && (!a->data_len || memcmp(a->data, b->data, a->data_len) == 0) &&
		strcmp(a->name ? a->name : "", b->name ? b->name : "") == 0 &&
		strcmp(a->options ? a->options : "", b->options ? b->options : "") == 0 && a->route == b->route &&
		a->search_len == b->search_len && memcmp(a->search, b->search, a->search_len) == 0;
}

static vs_trace_reader *open_text(const void *text, size_t len, FILE **fp)
{
	char err[1024];
	vs_trace_reader *r;

	if (!(*fp = fmemopen((void *)text, len, "rb")))
		abort();
	if (!(r = vs_trace_open_stream(*fp, "fuzz", err, sizeof err))) {
		fclose(*fp);
		*fp = NULL;
	}
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fa, *fb;
	vs_trace_reader *ra, *rb;
	vs_event ea, eb;
	size_t n;
	char *text;
	int a, b;

	if (size == 0 || size > VS_FUZZ_MAX_INPUT || !(text = commented(data, size, &n)))
		return 0;
	ra = open_text(data, size, &fa);
	rb = open_text(text, n, &fb);
	if (!ra != !rb) /* the header has no line fast_kind names: both open or neither */
		abort();
	if (ra) {
		memset(&ea, 0, sizeof ea);
		memset(&eb, 0, sizeof eb);
		do {
			a = vs_trace_next(ra, &ea);
			b = vs_trace_next(rb, &eb);
			if (a != b || (a == 1 && !same_event(&ea, &eb)) ||
				(a < 0 && strcmp(vs_trace_error(ra), vs_trace_error(rb)) != 0)) {
				fprintf(stderr, "fast and full paths differ at line %llu: %d %d\n  %s\n  %s\n",
					(unsigned long long)vs_trace_line(ra), a, b, a < 0 ? vs_trace_error(ra) : "",
					b < 0 ? vs_trace_error(rb) : "");
				abort();
			}
		} while (a == 1);
		vs_trace_close(ra);
		vs_trace_close(rb);
		fclose(fa);
		fclose(fb);
	}
	free(text);
	return 0;
}
