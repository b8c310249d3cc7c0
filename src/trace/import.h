/* SPDX-License-Identifier: Zlib */
/* import.h - traces from elsewhere, turned into trace format v1.
 *
 * Malloc-lab traces (.rep), in the header forms in use:
 *   CS:APP  4 numbers: suggested heap size, number of ids, number of
 *           operations, weight
 *   CMU     4 numbers: weight, number of ids, number of operations,
 *           ignore_ranges (the 15-213 set recorded from real programs)
 *   short   2 numbers: number of ids, number of operations
 * one a line, then one operation a line:
 *   a ID SIZE   malloc(SIZE) as ID (SIZE 0: malloc(0), kept as such)
 *   f ID        free(ID); f -1 is free(NULL): counted, nothing to replay
 *   r ID SIZE   realloc(ID, SIZE); of an id not allocated: malloc(SIZE);
 *               SIZE 0 of a live id: free (as malloc lab's driver wants)
 * The result declares one `ram` arena and has one alloc/free event per
 * operation; a realloc becomes `free ID` then `alloc ID SIZE` (the strategy
 * interface has no realloc: see docs/heaps.md).
 */
#ifndef VRAMSIM_IMPORT_H
#define VRAMSIM_IMPORT_H

#include <stdint.h>
#include <stdio.h>

/* The largest ram arena trace format v1 takes (the reader refuses more). */
#define VS_REP_MAX_SIZE (256u * 1024u * 1024u)

/* Bytes a live block is counted for when the arena is sized from the
 * trace's need: its payload rounded up to 8, plus an 8-byte header, at
 * least 16 (what the boundary-tag heaps and the buddy take at best). */
#define VS_REP_BLOCK_ALIGN 8u
#define VS_REP_BLOCK_HEADER 8u
#define VS_REP_BLOCK_MIN 16u

typedef enum vs_rep_header {
	VS_REP_HEADER_AUTO = 0, /* options only: tell CS:APP from CMU by the first number */
	VS_REP_HEADER_CSAPP,    /* heap size, ids, ops, weight */
	VS_REP_HEADER_CMU,      /* weight, ids, ops, ignore_ranges */
	VS_REP_HEADER_SHORT     /* ids, ops */
} vs_rep_header;

/* Auto: a 4-line header whose first number is below this is CMU's (a
 * weight: a small flag), else CS:APP's (a heap size: no heap is that small). */
#define VS_REP_CMU_WEIGHT_BELOW 16u

typedef struct vs_rep_options {
	uint32_t size;         /* arena bytes; 0: sized from the trace's need (vs_rep_stats.need) */
	const char *arena;     /* arena name; NULL: "heap" */
	const char *strategy;  /* strategy= for the arena line; NULL: none */
	vs_rep_header header;  /* how to read a 4-line header (AUTO by default) */
} vs_rep_options;

typedef struct vs_rep_stats {
	vs_rep_header header;   /* the form read */
	uint32_t header_lines;  /* 4 or 2 */
	uint32_t heap_size;     /* CS:APP suggested heap size (else 0) */
	uint32_t ids, ops;      /* as the header says */
	uint32_t weight;
	uint32_t ignore_ranges; /* CMU */
	uint32_t ops_read;      /* operations in the file (more than ops: a warning) */
	uint64_t extra_line;    /* line of the first operation past the header's count (0: none) */
	uint32_t allocs, frees, reallocs;
	uint32_t free_nulls;    /* free(NULL): 'f -1', or 'f ID' after 'r ID 0' */
	uint32_t zero_allocs;   /* malloc(0) written as 'alloc ID 0' */
	uint64_t peak_live;     /* largest sum of live payload bytes at any time (malloc lab's) */
	uint64_t peak_line;     /* the line where it was first reached */
	uint64_t peak_blocks;   /* most blocks live at once */
	uint64_t peak_footprint;/* largest sum of live blocks as VS_REP_BLOCK_* count them */
	uint32_t max_request;   /* largest single request */
	uint64_t need;          /* the arena sized from the trace (rep_need, import_rep.c) */
	uint32_t arena_size;    /* what the arena line got */
	int size_given;         /* arena_size came from the options */
} vs_rep_stats;


/* Reads a .rep trace from in (name is used in messages) and writes trace v1
 * text to out, all of it once the input has been read whole and found
 * good, nothing otherwise. Returns 0, or -1 with
 * "name:line:col: error: ..." in err (a heap larger than VS_REP_MAX_SIZE
 * is such an error, at the line where the trace's peak was reached), or
 * with err empty when a write to out failed (out's own close says why). */
int vs_rep_import(FILE *in, const char *name, FILE *out, const vs_rep_options *opt, vs_rep_stats *stats,
	char *err, size_t errlen);

/* "CS:APP", "CMU" or "short". */
const char *vs_rep_header_name(vs_rep_header h);

#endif
