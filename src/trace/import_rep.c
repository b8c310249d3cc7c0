/* SPDX-License-Identifier: Zlib */
/* import_rep.c - malloc-lab traces (.rep: CS:APP and CMU 15-213) into trace
 * format v1. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/compiler_hints.h"
#include "base/grow.h"
#include "base/text.h"
#include "trace/import.h"

/* One event of the output. */
typedef struct out_ev {
	uint32_t id;
	uint32_t size;  /* alloc: bytes */
	char alloc;     /* 1 alloc, 0 free */
} out_ev;

typedef struct rep_reader {
	FILE *in;
	const char *name;
	char line[4096];
	uint64_t lineno;
	char *err;
	size_t errlen;
} rep_reader;

static int fail(rep_reader *r, size_t col, const char *fmt, ...) VS_PRINTF(3, 4);

static int fail(rep_reader *r, size_t col, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->err, r->errlen, "%s:%llu:%zu: error: ", r->name, (unsigned long long)r->lineno, col);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->errlen)
		vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Next line with something on it: 1, 0 at end, -1 on error. Trailing
 * spaces and \r are dropped; a NUL byte (which would end the line early,
 * unseen) is an error at its column. */
static int next_line(rep_reader *r)
{
	size_t n;
	int c;

	for (;;) {
		for (n = 0; (c = getc(r->in)) != EOF && c != '\n';) {
			if (c == '\0')
				return r->lineno++, fail(r, n + 1, "NUL byte: not a text file");
			if (n == sizeof r->line - 2)
				return r->lineno++, fail(r, 1, "line longer than %zu characters", sizeof r->line - 2);
			r->line[n++] = (char)c;
		}
		if (c == EOF && ferror(r->in))
			return r->lineno++, fail(r, 1, "read error: %s", strerror(errno));
		if (c == EOF && n == 0)
			return 0;
		r->lineno++;
		r->line[n] = '\0';
		while (n && isspace((unsigned char)r->line[n - 1]))
			r->line[--n] = '\0';
		if (strspn(r->line, " \t") < n)
			return 1;
	}
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Reads an unsigned 32-bit decimal at *p, skipping blanks before it. */
static int number(rep_reader *r, const char **p, const char *what, uint32_t *out)
{
	const char *s = skip_blanks(*p);
	unsigned long long v = 0;

	*p = s;
	if (!isdigit((unsigned char)*s))
		return fail(r, (size_t)(s - r->line) + 1, "expected %s, found '%.20s'", what, *s ? s : "the end of the line");
	while (isdigit((unsigned char)*s)) {
		v = v * 10u + (unsigned)(*s - '0');
		if (v > 0xFFFFFFFFull)
			return fail(r, (size_t)(*p - r->line) + 1, "%s does not fit 32 bits", what);
		s++;
	}
	if (*s && *s != ' ' && *s != '\t')
		return fail(r, (size_t)(s - r->line) + 1, "unexpected '%c' in %s", *s, what);
	*out = (uint32_t)v;
	*p = s;
	return 0;
}

static int line_end(rep_reader *r, const char *p)
{
	p = skip_blanks(p);
	if (*p)
		return fail(r, (size_t)(p - r->line) + 1, "unexpected '%.20s' at end of line", p);
	return 0;
}

static int is_op_line(const char *s)
{
	s = skip_blanks(s);
	return *s == 'a' || *s == 'f' || *s == 'r';
}

const char *vs_rep_header_name(vs_rep_header h)
{
	switch (h) {
	case VS_REP_HEADER_CSAPP:
		return "CS:APP";
	case VS_REP_HEADER_CMU:
		return "CMU";
	case VS_REP_HEADER_SHORT:
		return "short";
	default:
		return "auto";
	}
}

static uint64_t block_bytes(uint32_t size)
{
	uint64_t b = ((uint64_t)size + VS_REP_BLOCK_ALIGN - 1u) / VS_REP_BLOCK_ALIGN * VS_REP_BLOCK_ALIGN +
		VS_REP_BLOCK_HEADER;

	return b < VS_REP_BLOCK_MIN ? VS_REP_BLOCK_MIN : b;
}

/* The arena a trace needs: twice its peak footprint (headers, alignment,
 * then room for fragmentation and buddy rounding), at least twice its
 * largest request, rounded up to 64 KiB. */
static uint64_t rep_need(const vs_rep_stats *st)
{
	uint64_t need = 2u * st->peak_footprint, big = 2u * block_bytes(st->max_request);

	if (big > need)
		need = big;
	if (need == 0)
		need = 1;
	return (need + 0xFFFFu) & ~(uint64_t)0xFFFFu;
}

/* What each id is: never allocated or freed, live, or NULL after
 * realloc(ID, 0) (a later free of it is free(NULL)). */
enum { ID_DEAD = 0, ID_LIVE, ID_NULL };

typedef struct rep_state {
	rep_reader r;
	vs_rep_stats *st;
	uint8_t *state;   /* per id */
	uint32_t *size;   /* per id: live payload */
	uint32_t nids;
	out_ev *ev;
	size_t nev, cap;
	uint64_t cur, cur_fp, cur_blocks;
} rep_state;

static int emit(rep_state *s, int alloc, uint32_t id, uint32_t size)
{
	if (s->nev == s->cap && vs_grow(&s->ev, sizeof *s->ev, &s->cap, s->nev + 1, 1024))
		return fail(&s->r, 1, "out of memory");
	s->ev[s->nev].id = id;
	s->ev[s->nev].size = size;
	s->ev[s->nev].alloc = (char)alloc;
	s->nev++;
	return 0;
}

/* Live payload as malloc lab's driver counts it (eval_mm_util: an alloc
 * adds its size, a realloc the difference, a free the block's size), plus
 * the footprint and block count the arena is sized from. */
static void take(rep_state *s, uint32_t id, uint32_t size)
{
	vs_rep_stats *st = s->st;

	s->state[id] = ID_LIVE;
	s->size[id] = size;
	s->cur += size;
	s->cur_fp += block_bytes(size);
	s->cur_blocks++;
	if (s->cur > st->peak_live) {
		st->peak_live = s->cur;
		st->peak_line = s->r.lineno;
	}
	if (s->cur_fp > st->peak_footprint)
		st->peak_footprint = s->cur_fp;
	if (s->cur_blocks > st->peak_blocks)
		st->peak_blocks = s->cur_blocks;
	if (size > st->max_request)
		st->max_request = size;
}

static void drop(rep_state *s, uint32_t id, int to)
{
	s->cur -= s->size[id];
	s->cur_fp -= block_bytes(s->size[id]);
	s->cur_blocks--;
	s->size[id] = 0;
	s->state[id] = (uint8_t)to;
}

static int read_header(rep_state *s, const vs_rep_options *opt, int *more)
{
	rep_reader *r = &s->r;
	vs_rep_stats *st = s->st;
	uint32_t head[4], nhead = 0;
	vs_rep_header form = opt ? opt->header : VS_REP_HEADER_AUTO;

	/* The numeric lines before the first operation: at most 4, so the line
	 * after a 4-line header is an operation whatever it holds, and an
	 * unknown one gets the operation's message, not the header's. */
	while ((*more = next_line(r)) == 1 && !is_op_line(r->line) && nhead < 4) {
		const char *p = r->line;
		if (number(r, &p, "a header number", &head[nhead]) || line_end(r, p))
			return -1;
		nhead++;
	}
	if (*more < 0)
		return -1;
	if (nhead != 4 && nhead != 2) {
		if (*more == 0)
			r->lineno++;
		return fail(r, 1, "header has %u line%s: expected 4 (CS:APP: heap size, ids, ops, weight; "
			"CMU: weight, ids, ops, ignore_ranges) or 2 (ids, ops)", nhead, nhead == 1 ? "" : "s");
	}
	st->header_lines = nhead;
	if (nhead == 2) {
		st->header = VS_REP_HEADER_SHORT;
		st->ids = head[0];
		st->ops = head[1];
	} else {
		if (form != VS_REP_HEADER_CSAPP && form != VS_REP_HEADER_CMU)
			form = head[0] < VS_REP_CMU_WEIGHT_BELOW ? VS_REP_HEADER_CMU : VS_REP_HEADER_CSAPP;
		st->header = form;
		st->ids = head[1];
		st->ops = head[2];
		if (form == VS_REP_HEADER_CMU) {
			st->weight = head[0];
			st->ignore_ranges = head[3];
		} else {
			st->heap_size = head[0];
			st->weight = head[3];
		}
	}
	if (st->ids > (1u << 26))
		return fail(r, 1, "header declares %u ids: too many", st->ids);
	s->nids = st->ids;
	s->state = calloc(s->nids ? s->nids : 1, 1);
	s->size = calloc(s->nids ? s->nids : 1, sizeof *s->size);
	if (!s->state || !s->size)
		return fail(r, 1, "out of memory");
	return 0;
}

/* One operation line. */
static int read_op(rep_state *s)
{
	rep_reader *r = &s->r;
	vs_rep_stats *st = s->st;
	const char *p = skip_blanks(r->line), *op = p;
	char kind = *p;
	uint32_t id, size = 0;
	size_t idcol;

	if ((kind != 'a' && kind != 'f' && kind != 'r') || (p[1] != ' ' && p[1] != '\t'))
		return fail(r, (size_t)(p - r->line) + 1, "expected 'a ID SIZE', 'f ID' or 'r ID SIZE', found '%.20s'", p);
	p = skip_blanks(p + 1);
	idcol = (size_t)(p - r->line) + 1;
	if (*p == '-') {
		/* CMU traces: 'f -1' is free(NULL). */
		if (kind == 'f' && p[1] == '1' && (p[2] == '\0' || p[2] == ' ' || p[2] == '\t')) {
			if (line_end(r, p + 2))
				return -1;
			st->free_nulls++;
			st->frees++;
			return 0;
		}
		return fail(r, idcol, "negative id '%.20s': only 'f -1' (free(NULL)) names no block", p);
	}
	if (number(r, &p, "an id", &id))
		return -1;
	if (kind != 'f') {
		if (!*skip_blanks(p))
			return fail(r, (size_t)(p - r->line) + 1, "'%.*s' has no size (expected '%c ID SIZE')",
				(int)(p - op), op, kind);
		if (number(r, &p, "a size", &size))
			return -1;
	}
	if (line_end(r, p))
		return -1;
	if (id >= s->nids)
		return fail(r, idcol, "id %u is not below the header's number of ids (%u)", id, s->nids);
	switch (kind) {
	case 'a':
		if (s->state[id] == ID_LIVE)
			return fail(r, idcol, "'a %u': id %u is already allocated", id, id);
		st->allocs++;
		st->zero_allocs += size == 0;
		take(s, id, size);
		return emit(s, 1, id, size);
	case 'f':
		st->frees++;
		if (s->state[id] == ID_NULL) {
			st->free_nulls++; /* its realloc to 0 left NULL */
			return 0;
		}
		if (s->state[id] != ID_LIVE)
			return fail(r, idcol, "'f %u': id %u is not allocated", id, id);
		drop(s, id, ID_DEAD);
		return emit(s, 0, id, 0);
	default:
		st->reallocs++;
		if (s->state[id] == ID_LIVE) {
			drop(s, id, size ? ID_DEAD : ID_NULL);
			if (emit(s, 0, id, 0))
				return -1;
			if (size == 0)
				return 0; /* realloc(p, 0) frees p and returns NULL */
		}
		st->zero_allocs += size == 0; /* realloc(NULL, 0) is malloc(0) */
		take(s, id, size);
		return emit(s, 1, id, size);
	}
}

static void write_trace(FILE *out, const char *name, const rep_state *s, const vs_rep_options *opt)
{
	const vs_rep_stats *st = s->st;
	char shown[512];
	size_t i;

	/* the file's name escaped (\xNN), so a newline in it cannot end the
	 * comment and start a statement of its own */
	vs_text_path(shown, sizeof shown, name);
	fprintf(out, "vramsim-trace 1\n");
	fprintf(out, "# imported from %s (malloc-lab trace, %s header: ", shown, vs_rep_header_name(st->header));
	if (st->header == VS_REP_HEADER_CSAPP)
		fprintf(out, "suggested heap %u bytes, %u ids, %u ops, weight %u", st->heap_size, st->ids, st->ops,
			st->weight);
	else if (st->header == VS_REP_HEADER_CMU)
		fprintf(out, "weight %u, %u ids, %u ops, ignore_ranges %u", st->weight, st->ids, st->ops,
			st->ignore_ranges);
	else
		fprintf(out, "%u ids, %u ops", st->ids, st->ops);
	fprintf(out, ")\n");
	if (st->ops_read != st->ops)
		fprintf(out, "# %u operations read: %u past the header's count, from line %llu\n", st->ops_read,
			st->ops_read - st->ops, (unsigned long long)st->extra_line);
	fprintf(out, "# peak live payload %llu bytes (malloc lab's utilisation numerator), at most %llu block%s live; "
		"realloc written as free + alloc\n", (unsigned long long)st->peak_live, (unsigned long long)st->peak_blocks,
		st->peak_blocks == 1 ? "" : "s");
	if (st->free_nulls || st->zero_allocs)
		fprintf(out, "# %u free(NULL) left out (nothing to free), %u malloc(0) kept as 'alloc ID 0'\n",
			st->free_nulls, st->zero_allocs);
	if (st->size_given)
		fprintf(out, "# arena: %u bytes as asked (the trace needs %llu)\n", st->arena_size,
			(unsigned long long)st->need);
	else
		fprintf(out, "# arena sized from the trace: twice the larger of its peak of live blocks (%llu bytes, each "
			"block its size rounded up to %u plus %u of header) and its largest block (%llu), rounded up "
			"to 64 KiB\n", (unsigned long long)st->peak_footprint, VS_REP_BLOCK_ALIGN, VS_REP_BLOCK_HEADER,
			(unsigned long long)block_bytes(st->max_request));
	fprintf(out, "arena %s ram size=%u", opt && opt->arena ? opt->arena : "heap", st->arena_size);
	if (opt && opt->strategy)
		fprintf(out, " strategy=%s", opt->strategy);
	fputc('\n', out);
	for (i = 0; i < s->nev; i++) {
		if (s->ev[i].alloc)
			fprintf(out, "alloc %u %u\n", s->ev[i].id, s->ev[i].size);
		else
			fprintf(out, "free %u\n", s->ev[i].id);
	}
}

int vs_rep_import(FILE *in, const char *name, FILE *out, const vs_rep_options *opt, vs_rep_stats *st,
	char *err, size_t errlen)
{
	rep_state s;
	int rc, more;

	memset(&s, 0, sizeof s);
	memset(st, 0, sizeof *st);
	s.r.in = in;
	s.r.name = name;
	s.r.err = err;
	s.r.errlen = errlen;
	s.st = st;
	rc = read_header(&s, opt, &more);
	for (; rc == 0 && more == 1; more = next_line(&s.r)) {
		if (++st->ops_read == st->ops + 1u)
			st->extra_line = s.r.lineno;
		rc = read_op(&s);
	}
	if (rc == 0 && more < 0)
		rc = -1;
	if (rc == 0 && st->ops_read < st->ops) {
		s.r.lineno++;
		rc = fail(&s.r, 1, "header says %u operations, the file has %u", st->ops, st->ops_read);
	}
	if (rc == 0) {
		st->need = rep_need(st);
		st->size_given = opt && opt->size;
		if (!st->size_given && st->need > VS_REP_MAX_SIZE) {
			s.r.lineno = st->peak_line;
			rc = fail(&s.r, 1, "this trace needs a heap of %llu bytes (peak live payload %llu bytes, reached "
				"here, in %llu block%s; largest request %u), more than the %u MiB a trace's ram arena may "
				"have; --size sets a smaller arena (allocations will fail)",
				(unsigned long long)st->need, (unsigned long long)st->peak_live,
				(unsigned long long)st->peak_blocks, st->peak_blocks == 1 ? "" : "s",
				(unsigned)st->max_request, VS_REP_MAX_SIZE >> 20);
		} else if (st->size_given && opt->size > VS_REP_MAX_SIZE) {
			snprintf(err, errlen, "%s: error: --size %u is more than the %u MiB a trace's ram arena may have",
				name, (unsigned)opt->size, VS_REP_MAX_SIZE >> 20);
			rc = -1;
		}
	}
	if (rc == 0) {
		st->arena_size = st->size_given ? opt->size : (uint32_t)st->need;
		write_trace(out, name, &s, opt);
		if (ferror(out)) { /* no line of the input to blame: the output's close names it and the reason */
			if (errlen)
				err[0] = '\0';
			rc = -1;
		}
	}
	free(s.ev);
	free(s.state);
	free(s.size);
	return rc;
}
