/* SPDX-License-Identifier: Zlib */
/* gen_heap.c - RAM heap churn (see gen_heap.h).
 *
 * Integer arithmetic only, so the trace is the same bytes on every host:
 * the exponential draw uses a fixed-point log2.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/gen_heap.h"
#include "base/grow.h"
#include "gen_rng.h"

/* log2(x) in 16.16 fixed point, x > 0: squaring the mantissa gives one bit
 * of the fraction per step. */
static uint32_t log2_fix16(uint32_t x)
{
	uint32_t ip = 31u - (uint32_t)__builtin_clz(x), frac = 0, i;
	uint64_t m = (uint64_t)x << (31 - ip); /* [2^31, 2^32): 1.0 is 2^31 */

	for (i = 1; i <= 16; i++) {
		m = (m * m) >> 31;
		if (m >= (1ull << 32)) {
			m >>= 1;
			frac |= 1u << (16 - i);
		}
	}
	return (ip << 16) | frac;
}

static uint32_t draw(gen_rng *r, const vs_gen_dist *d)
{
	uint32_t v;

	switch (d->kind) {
	case VS_DIST_LOG: {
		/* a doubling of lo, then a value inside it */
		uint32_t octaves = 1, k, lo, hi;
		while (octaves < 32 && ((uint64_t)d->lo << octaves) <= d->hi)
			octaves++;
		k = gen_rng_below(r, octaves);
		lo = d->lo << k;
		hi = (uint64_t)lo * 2 - 1 > d->hi ? d->hi : lo * 2 - 1;
		return lo + gen_rng_below(r, hi - lo + 1);
	}
	case VS_DIST_EXP: {
		/* -ln(u) * mean, u in (0, 1]: ln 2 * (32 - log2(u * 2^32)) */
		uint32_t u = gen_rng_next32(r) | 1u;
		uint64_t e = (uint64_t)((32u << 16) - log2_fix16(u)) * 45426u >> 16; /* 45426/65536 = ln 2 */
		uint64_t x = (e * d->lo) >> 16;
		v = x > d->hi ? d->hi : x < 1 ? 1 : (uint32_t)x;
		return v;
	}
	case VS_DIST_UNIFORM:
	default:
		return d->lo + gen_rng_below(r, d->hi - d->lo + 1);
	}
}

void vs_gen_heap_opts_default(vs_gen_heap_opts *h)
{
	memset(h, 0, sizeof *h);
	h->arena_size = 1u << 20;
	h->sizes.kind = VS_DIST_LOG;
	h->sizes.lo = 8;
	h->sizes.hi = 4096;
	h->lifetime.kind = VS_DIST_EXP;
	h->lifetime.lo = 500;
	h->lifetime.hi = 20000;
	h->allocs = 32;
	h->fill = 75;
}

int vs_gen_dist_parse(const char *s, uint32_t max, vs_gen_dist *d, char *err, size_t errlen)
{
	static const char *const names[] = { "uniform", "log", "exp" };
	unsigned long long lo, hi;
	const char *colon = strchr(s, ':');
	char *end;
	size_t k;

	for (k = 0; k < 3; k++)
		if (colon && (size_t)(colon - s) == strlen(names[k]) && strncmp(s, names[k], strlen(names[k])) == 0)
			break;
	if (k == 3) {
		snprintf(err, errlen, "'%s': expected uniform:LO-HI, log:LO-HI or exp:MEAN-MAX", s);
		return -1;
	}
	if (colon[1] < '0' || colon[1] > '9')
		goto bad;
	lo = strtoull(colon + 1, &end, 10);
	if (*end != '-' || end[1] < '0' || end[1] > '9')
		goto bad;
	hi = strtoull(end + 1, &end, 10);
	if (*end)
		goto bad;
	if (lo < 1 || lo > hi || hi > max) {
		snprintf(err, errlen, "'%s': need 1 <= %s <= %s <= %u", s, k == 2 ? "MEAN" : "LO", k == 2 ? "MAX" : "HI",
			(unsigned)max);
		return -1;
	}
	d->kind = (vs_gen_dist_kind)k;
	d->lo = (uint32_t)lo;
	d->hi = (uint32_t)hi;
	return 0;
bad:
	snprintf(err, errlen, "'%s': expected %s:%s with decimal numbers", s, names[k], k == 2 ? "MEAN-MAX" : "LO-HI");
	return -1;
}

/* Live allocations by the allocation count at which they go: a min-heap. */
typedef struct due {
	uint64_t at, id;
	uint32_t size;
} due;

typedef struct due_heap {
	due *v;
	size_t n, cap;
} due_heap;

static int due_less(const due *a, const due *b)
{
	return a->at < b->at || (a->at == b->at && a->id < b->id);
}

static int due_push(due_heap *h, due d)
{
	size_t i;

	if (h->n == h->cap && vs_grow(&h->v, sizeof *h->v, &h->cap, h->n + 1, 256))
		return -1;
	for (i = h->n++; i > 0 && due_less(&d, &h->v[(i - 1) / 2]); i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = d;
	return 0;
}

static due due_pop(due_heap *h)
{
	due top = h->v[0], last = h->v[--h->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && due_less(&h->v[c + 1], &h->v[c]))
			c++;
		if (!due_less(&h->v[c], &last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

static const char *size_tag(uint32_t size)
{
	return size < 256 ? "small" : size < 4096 ? "medium" : "large";
}

int vs_gen_heap_churn_with(FILE *out, const vs_gen_opts *o, const vs_gen_heap_opts *h, char *err, size_t errlen)
{
	gen_rng r = { o->seed };
	due_heap live = { NULL, 0, 0 };
	uint64_t t = 0, live_bytes = 0, budget = (uint64_t)h->arena_size * h->fill / 100;
	uint32_t frame, k, frames = o->frames ? o->frames : 2000; /* the registry's default */

	if (h->arena_size == 0 || h->allocs == 0 || budget == 0) {
		snprintf(err, errlen, "heap-churn: arena size, allocations a frame and fill must be positive");
		return -1;
	}
	fprintf(out, "vramsim-trace 1\narena heap ram size=%u\n", (unsigned)h->arena_size);
	for (frame = 0; frame < frames; frame++) {
		for (k = 0; k < h->allocs; k++) {
			due d;
			t++;
			while (live.n && live.v[0].at <= t) {
				d = due_pop(&live);
				live_bytes -= d.size;
				fprintf(out, "free %llu\n", (unsigned long long)d.id);
			}
			d.size = draw(&r, &h->sizes);
			if (d.size > budget)
				d.size = (uint32_t)budget;
			/* over the fill: the allocations due soonest go now */
			while (live.n && live_bytes + d.size > budget) {
				due old = due_pop(&live);
				live_bytes -= old.size;
				fprintf(out, "free %llu\n", (unsigned long long)old.id);
			}
			d.id = t;
			d.at = t + draw(&r, &h->lifetime);
			fprintf(out, "alloc %llu %u tag=%s\n", (unsigned long long)d.id, (unsigned)d.size, size_tag(d.size));
			if (due_push(&live, d)) {
				free(live.v);
				snprintf(err, errlen, "heap-churn: out of memory");
				return -1;
			}
			live_bytes += d.size;
		}
		fputs("frame\n", out);
	}
	free(live.v);
	return vs_gen_flushed(out, err, errlen);
}

int vs_gen_heap_churn(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	vs_gen_heap_opts h;

	vs_gen_heap_opts_default(&h);
	return vs_gen_heap_churn_with(out, o, &h, err, errlen);
}
