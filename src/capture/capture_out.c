/* SPDX-License-Identifier: Zlib */
/* capture_out.c - the delayed trace output of every capture (capture_out_int.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "capture_out_int.h"

int cap_out_init(cap_out *o, FILE *out, uint32_t delay)
{
	memset(o, 0, sizeof *o);
	o->out = out;
	o->delay = delay;
	o->ring = calloc(delay + 1u, sizeof *o->ring);
	return o->ring ? 0 : -1;
}

void cap_out_fini(cap_out *o)
{
	uint32_t i;

	for (i = 0; o->ring && i <= o->delay; i++) {
		free(o->ring[i].early.s);
		free(o->ring[i].frees.s);
		free(o->ring[i].banks.s);
		free(o->ring[i].allocs.s);
	}
	free(o->ring);
	o->ring = NULL;
}

static int text_copy(cap_text *d, const cap_text *s)
{
	*d = *s;
	d->s = s->s ? malloc(s->cap) : NULL;
	if (s->s && !d->s) {
		d->len = d->cap = 0;
		return -1;
	}
	if (s->s)
		memcpy(d->s, s->s, s->len);
	return 0;
}

int cap_out_copy(cap_out *d, const cap_out *s, FILE *out)
{
	uint32_t i;
	int rc = 0;

	d->out = out;
	d->ring = calloc(s->delay + 1u, sizeof *d->ring);
	if (!d->ring)
		return -1;
	for (i = 0; i <= s->delay && rc == 0; i++)
		rc = text_copy(&d->ring[i].early, &s->ring[i].early) | text_copy(&d->ring[i].frees, &s->ring[i].frees) | text_copy(&d->ring[i].banks, &s->ring[i].banks) |
			text_copy(&d->ring[i].allocs, &s->ring[i].allocs);
	return rc;
}

static void text_vadd(cap_out *o, cap_text *t, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(t->s ? t->s + t->len : NULL, t->cap - t->len, fmt, ap);
	if (n >= 0 && (size_t)n >= t->cap - t->len) {
		size_t cap = t->cap * 2 > t->len + (size_t)n + 1 ? t->cap * 2 : t->len + (size_t)n + 256;
		char *s = realloc(t->s, cap);
		if (s) {
			t->s = s;
			t->cap = cap;
			n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, again);
		} else {
			n = -1;
		}
	}
	va_end(again);
	if (n < 0)
		o->failed = 1;
	else
		t->len += (size_t)n;
}

/* The bucket of a frame still buffered: inference never dates an event
 * before the oldest one, nor after the frame being read. */
static cap_text *part_of(cap_out *o, uint64_t frame, int part)
{
	cap_bucket *b;

	if (frame < o->flushed)
		frame = o->flushed;
	if (frame > o->frame)
		frame = o->frame;
	b = &o->ring[frame % (o->delay + 1u)];
	return part == CAP_PART_FREES ? &b->frees : part == CAP_PART_BANKS ? &b->banks :
		part == CAP_PART_EARLY ? &b->early : &b->allocs;
}

void cap_out_add(cap_out *o, uint64_t frame, int part, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vadd(o, part_of(o, frame, part), fmt, ap);
	va_end(ap);
}

void cap_out_alloc_in(cap_out *o, int part, uint64_t frame, const char *arena, uint64_t id, const vs_request *rq,
	const char *tag, uint32_t at)
{
	char req[64];

	vs_request_describe(rq, req, sizeof req);
	cap_out_add(o, frame, part, "alloc %llu%s%s %s", (unsigned long long)id, arena ? " " : "",
		arena ? arena : "", req);
	if (rq->shape == VS_REQ_TILE && rq->u.tile.cb1)
		cap_out_add(o, frame, part, " cb=%u", (unsigned)rq->u.tile.cb1 - 1u);
	cap_out_add(o, frame, part, " tag=%s at=0x%x\n", tag, (unsigned)at);
}

void cap_out_alloc(cap_out *o, uint64_t frame, const char *arena, uint64_t id, const vs_request *rq, const char *tag,
	uint32_t at)
{
	cap_out_alloc_in(o, CAP_PART_ALLOCS, frame, arena, id, rq, tag, at);
}

void cap_out_free(cap_out *o, uint64_t frame, uint64_t id)
{
	cap_out_add(o, frame, CAP_PART_FREES, "free %llu\n", (unsigned long long)id);
}

void cap_out_vcomment(cap_out *o, const char *fmt, va_list ap)
{
	cap_text *t = part_of(o, o->frame, CAP_PART_FREES);

	cap_out_add(o, o->frame, CAP_PART_FREES, "# capture: frame %llu: ", (unsigned long long)o->frame);
	text_vadd(o, t, fmt, ap);
	cap_out_add(o, o->frame, CAP_PART_FREES, "\n");
}

void cap_out_comment(cap_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cap_out_vcomment(o, fmt, ap);
	va_end(ap);
}

int cap_out_oldest_empty(const cap_out *o)
{
	const cap_bucket *b = &o->ring[o->flushed % (o->delay + 1u)];

	return !b->early.len && !b->frees.len && !b->banks.len && !b->allocs.len;
}

static void put_text(cap_out *o, cap_text *t)
{
	if (t->len)
		fwrite(t->s, 1, t->len, o->out);
	t->len = 0;
}

void cap_out_flush_one(cap_out *o)
{
	cap_bucket *b = &o->ring[o->flushed % (o->delay + 1u)];

	put_text(o, &b->early);
	put_text(o, &b->frees);
	put_text(o, &b->banks);
	put_text(o, &b->allocs);
	fputs("frame\n", o->out);
	o->flushed++;
	if (ferror(o->out))
		o->failed = 1;
}

void cap_out_comment_block(FILE *out, const char *text)
{
	const char *p = text;

	while (p && *p) {
		size_t n = strcspn(p, "\n"), i;
		if (n && p[n - 1] == '\r')
			n--;
		if (n) {
			if (*p != '#')
				fputs("# ", out);
			for (i = 0; i < n; i++) {
				unsigned char ch = (unsigned char)p[i];
				fputc(ch == '\t' || (ch >= 0x20 && ch < 0x7F) ? ch : '?', out);
			}
			fputc('\n', out);
		}
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
}

uint32_t cap_fnv(uint32_t h, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

int cap_all_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}
