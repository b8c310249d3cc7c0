/* SPDX-License-Identifier: Zlib */
/* gen_heap.h - RAM heap workload generator (same contract as gen.h: a
 * canonical v1 trace to a stream, bytes fixed by the options). */
#ifndef VRAMSIM_GEN_HEAP_H
#define VRAMSIM_GEN_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gen/gen.h"

/* How a size or a lifetime is drawn from [lo, hi]. */
typedef enum vs_gen_dist_kind {
	VS_DIST_UNIFORM, /* every value equally likely */
	VS_DIST_LOG,     /* log-uniform: each doubling equally likely (many small, few large) */
	VS_DIST_EXP      /* exponential with mean lo, cut at hi */
} vs_gen_dist_kind;

typedef struct vs_gen_dist {
	vs_gen_dist_kind kind;
	uint32_t lo, hi;
} vs_gen_dist;

typedef struct vs_gen_heap_opts {
	uint32_t arena_size;   /* bytes of the RAM arena */
	vs_gen_dist sizes;     /* request sizes in bytes */
	vs_gen_dist lifetime;  /* allocations made while one lives */
	uint32_t allocs;       /* allocations per frame */
	uint32_t fill;         /* percent of the arena live requests may take */
} vs_gen_heap_opts;

/* 1 MiB, sizes log:8-4096, lifetimes exp:500-20000, 32 allocations a
 * frame, 75% fill. */
void vs_gen_heap_opts_default(vs_gen_heap_opts *h);
/* Parses "uniform:LO-HI", "log:LO-HI" or "exp:MEAN-MAX" (1 <= LO <= HI <=
 * max). Returns 0, or -1 with a message in err. */
int vs_gen_dist_parse(const char *s, uint32_t max, vs_gen_dist *d, char *err, size_t errlen);

/* Heap churn in one RAM arena: each frame o->frames times, h->allocs
 * allocations of sizes drawn from h->sizes, each freed after a lifetime
 * drawn from h->lifetime (counted in allocations); when the live requests
 * would pass h->fill percent of the arena, the allocations due soonest are
 * freed first. */
int vs_gen_heap_churn_with(FILE *out, const vs_gen_opts *o, const vs_gen_heap_opts *h, char *err, size_t errlen);
/* The same with the defaults, for the generator table. */
int vs_gen_heap_churn(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);

#endif
