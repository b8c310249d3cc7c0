/* SPDX-License-Identifier: Zlib */
/* import_rep.c - CS:APP malloc-lab traces (.rep) into trace format v1. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vramsim/import.h"

typedef struct rep_op {
	char kind;     /* 'a', 'f', 'r' */
	char was_live; /* r: the id was allocated (else it is realloc(NULL)) */
	uint32_t id;
	uint32_t size;
} rep_op;

typedef struct rep_reader {
	FILE *in;
	const char *name;
	char line[4096];
	uint64_t lineno;
	char *err;
	size_t errlen;
} rep_reader;

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
 * spaces and \r are dropped. */
static int next_line(rep_reader *r)
{
	size_t n;

	for (;;) {
		if (!fgets(r->line, sizeof r->line, r->in))
			return ferror(r->in) ? (r->lineno++, fail(r, 1, "read error: %s", strerror(errno))) : 0;
		r->lineno++;
		n = strlen(r->line);
		if (n == sizeof r->line - 1 && r->line[n - 1] != '\n')
			return fail(r, 1, "line longer than %zu characters", sizeof r->line - 2);
		while (n && isspace((unsigned char)r->line[n - 1]))
			r->line[--n] = '\0';
		if (strspn(r->line, " \t") < n)
			return 1;
	}
}

/* Reads an unsigned 32-bit decimal at *p, skipping blanks before it. */
static int number(rep_reader *r, const char **p, const char *what, uint32_t *out)
{
	const char *s = *p;
	unsigned long long v = 0;

	while (*s == ' ' || *s == '\t')
		s++;
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
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p)
		return fail(r, (size_t)(p - r->line) + 1, "unexpected '%.20s' at end of line", p);
	return 0;
}

static int is_op_line(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == 'a' || *s == 'f' || *s == 'r';
}

/* Live sizes by id, grown on demand (ids can exceed what the header says;
 * that is reported as an error before any growth beyond it). */
typedef struct live_map {
	uint32_t *size; /* size + 1, 0 = not live */
	uint32_t n;
} live_map;

int vs_import_rep(FILE *in, const char *name, FILE *out, const vs_rep_options *opt, vs_rep_stats *st,
	char *err, size_t errlen)
{
	rep_reader r;
	uint32_t head[4], nhead = 0, i, arena_size;
	rep_op *ops = NULL;
	size_t nops = 0, cap = 0;
	live_map live = { NULL, 0 };
	uint64_t cur = 0;
	int rc, more;
	size_t idcol;
	const char *arena = opt && opt->arena ? opt->arena : "heap";

	memset(&r, 0, sizeof r);
	r.in = in;
	r.name = name;
	r.err = err;
	r.errlen = errlen;
	memset(st, 0, sizeof *st);

	/* Header: the numeric lines before the first operation. */
	while ((more = next_line(&r)) == 1 && !is_op_line(r.line)) {
		const char *p = r.line;
		if (nhead == 4)
			return fail(&r, 1, "header has more than 4 lines (expected heap size, ids, ops, weight)");
		if (number(&r, &p, "a header number", &head[nhead]) || line_end(&r, p))
			return -1;
		nhead++;
	}
	if (more < 0)
		return -1;
	if (nhead != 4 && nhead != 2) {
		if (more == 0)
			r.lineno++;
		return fail(&r, 1, "header has %u line%s: expected 4 (heap size, ids, ops, weight) or 2 (ids, ops)",
			nhead, nhead == 1 ? "" : "s");
	}
	st->header_lines = nhead;
	if (nhead == 4) {
		st->heap_size = head[0];
		st->ids = head[1];
		st->ops = head[2];
		st->weight = head[3];
	} else {
		st->ids = head[0];
		st->ops = head[1];
	}
	if (st->ids > (1u << 26))
		return fail(&r, 1, "header declares %u ids: too many", st->ids);
	live.n = st->ids;
	live.size = calloc(live.n ? live.n : 1, sizeof *live.size);
	if (!live.size)
		return fail(&r, 1, "out of memory");

	/* Operations. */
	for (; more == 1; more = next_line(&r)) {
		const char *p = r.line;
		rep_op op;

		while (*p == ' ' || *p == '\t')
			p++;
		op.kind = *p;
		if ((op.kind != 'a' && op.kind != 'f' && op.kind != 'r') || (p[1] != ' ' && p[1] != '\t')) {
			rc = fail(&r, (size_t)(p - r.line) + 1, "expected 'a ID SIZE', 'f ID' or 'r ID SIZE', found '%.20s'", p);
			goto out;
		}
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		idcol = (size_t)(p - r.line) + 1;
		if (number(&r, &p, "an id", &op.id)) {
			rc = -1;
			goto out;
		}
		op.size = 0;
		if (op.kind != 'f' && number(&r, &p, "a size", &op.size)) {
			rc = -1;
			goto out;
		}
		if (line_end(&r, p)) {
			rc = -1;
			goto out;
		}
		if (op.id >= live.n) {
			rc = fail(&r, idcol,
				"id %u is not below the header's number of ids (%u)", op.id, live.n);
			goto out;
		}
		if (op.kind == 'a' && live.size[op.id]) {
			rc = fail(&r, idcol, "'a %u': id %u is already allocated", op.id, op.id);
			goto out;
		}
		if (op.kind == 'f' && !live.size[op.id]) {
			rc = fail(&r, idcol, "'f %u': id %u is not allocated", op.id, op.id);
			goto out;
		}
		if (op.size == 0xFFFFFFFFu) {
			rc = fail(&r, idcol, "size too large");
			goto out;
		}
		op.was_live = live.size[op.id] != 0;
		/* Track live payload for the peak (malloc lab's utilisation numerator). */
		if (live.size[op.id])
			cur -= live.size[op.id] - 1u;
		live.size[op.id] = op.kind == 'f' ? 0 : op.size + 1u;
		cur += op.kind == 'f' ? 0 : op.size;
		if (cur > st->peak_live)
			st->peak_live = cur;
		st->allocs += op.kind == 'a';
		st->frees += op.kind == 'f';
		st->reallocs += op.kind == 'r';
		if (nops == cap) {
			rep_op *n;
			cap = cap ? cap * 2 : 1024;
			n = realloc(ops, cap * sizeof *ops);
			if (!n) {
				rc = fail(&r, 1, "out of memory");
				goto out;
			}
			ops = n;
		}
		ops[nops++] = op;
	}
	if (more < 0) {
		rc = -1;
		goto out;
	}
	if (nops != st->ops) {
		r.lineno++;
		rc = fail(&r, 1, "header says %u operations, the file has %zu", st->ops, nops);
		goto out;
	}

	arena_size = opt && opt->size ? opt->size : st->heap_size ? st->heap_size : VS_REP_DEFAULT_SIZE;
	st->arena_size = arena_size;
	fprintf(out, "vramsim-trace 1\n");
	fprintf(out, "# imported from %s (malloc-lab trace: %u ids, %u ops", name, st->ids, st->ops);
	if (nhead == 4)
		fprintf(out, ", suggested heap %u bytes, weight %u", st->heap_size, st->weight);
	fprintf(out, ")\n# peak live payload %llu bytes; realloc written as free + alloc\n",
		(unsigned long long)st->peak_live);
	fprintf(out, "arena %s ram size=%u", arena, arena_size);
	if (opt && opt->strategy)
		fprintf(out, " strategy=%s", opt->strategy);
	fputc('\n', out);
	for (i = 0; i < nops; i++) {
		const rep_op *o = &ops[i];

		if (o->kind == 'f')
			fprintf(out, "free %u\n", o->id);
		else if (o->kind == 'a')
			fprintf(out, "alloc %u %u\n", o->id, o->size);
		else if (o->was_live)
			fprintf(out, "free %u\nalloc %u %u\n", o->id, o->id, o->size);
		else
			fprintf(out, "alloc %u %u\n", o->id, o->size); /* realloc(NULL, n) */
	}
	rc = ferror(out) ? fail(&r, 1, "error writing the trace") : 0;
out:
	free(ops);
	free(live.size);
	return rc;
}
