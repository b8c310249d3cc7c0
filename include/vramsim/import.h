/* SPDX-License-Identifier: Zlib */
/* import.h - traces from elsewhere, turned into trace format v1.
 *
 * CS:APP malloc-lab traces (.rep): a header of 4 numbers (suggested heap
 * size, number of ids, number of operations, weight) or 2 (number of ids,
 * number of operations), one a line, then one operation a line:
 *   a ID SIZE   allocate SIZE bytes as ID
 *   f ID        free ID
 *   r ID SIZE   reallocate ID to SIZE bytes
 * The result declares one `ram` arena and has one alloc/free event a line;
 * a realloc becomes `free ID` then `alloc ID SIZE` (the strategy interface
 * has no realloc: see docs/heaps.md).
 */
#ifndef VRAMSIM_IMPORT_H
#define VRAMSIM_IMPORT_H

#include <stdint.h>
#include <stdio.h>

/* malloc lab's MAX_HEAP: the arena when the header gives no size. */
#define VS_REP_DEFAULT_SIZE (20u * 1024u * 1024u)

typedef struct vs_rep_options {
	uint32_t size;         /* arena bytes; 0: the header's suggested heap size */
	const char *arena;     /* arena name; NULL: "heap" */
	const char *strategy;  /* strategy= for the arena line; NULL: none */
} vs_rep_options;

typedef struct vs_rep_stats {
	uint32_t header_lines;  /* 4 or 2 */
	uint32_t heap_size;     /* suggested heap size (0 with a 2-line header) */
	uint32_t ids, ops;      /* as the header says */
	uint32_t weight;
	uint32_t allocs, frees, reallocs;
	uint64_t peak_live;     /* largest sum of live payload bytes at any time */
	uint32_t arena_size;    /* what the arena line got */
} vs_rep_stats;

/* Reads a .rep trace from in (name is used in messages) and writes trace v1
 * text to out. Returns 0, or -1 with "name:line:col: error: ..." in err. */
int vs_import_rep(FILE *in, const char *name, FILE *out, const vs_rep_options *opt, vs_rep_stats *stats,
	char *err, size_t errlen);

#endif
