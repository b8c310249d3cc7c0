/* SPDX-License-Identifier: Zlib */
/* capture_out_int.h - the delayed trace output every capture shares (GBA:
 * capture.c, DS: capture_ds.c).
 *
 * Events are not written as they are inferred: each goes into the bucket of
 * the frame it is dated at (an allocation can be dated back to the upload of
 * its data, a free to the first frame its range went unshown), and a bucket
 * is written once no later inference can reach it: its frees, then its bank
 * changes (DS `vramcnt` lines), then its allocations, then `frame`.
 */
#ifndef VS_CAPTURE_OUT_INT_H
#define VS_CAPTURE_OUT_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vram/request.h"

typedef struct cap_text {
	char *s;
	size_t len, cap;
} cap_text;

/* One frame's events, written frees first so that a range freed and taken
 * again in the same frame replays without overlap, and memory a bank change
 * takes away is free before the change. */
typedef struct cap_bucket {
	cap_text early, frees, banks, allocs; /* early: allocations that come before the frees */
} cap_bucket;

enum { CAP_PART_FREES, CAP_PART_BANKS, CAP_PART_ALLOCS, CAP_PART_EARLY };

typedef struct cap_out {
	FILE *out;
	cap_bucket *ring;  /* delay + 1 buckets */
	uint32_t delay;    /* frames a bucket waits */
	uint64_t frame;    /* the frame being inferred (0-based) */
	uint64_t flushed;  /* frames written so far */
	int failed;        /* a write failed or memory ran out */
} cap_out;

/* Returns 0, or -1 when out of memory. */
int cap_out_init(cap_out *o, FILE *out, uint32_t delay);
void cap_out_fini(cap_out *o);
/* d (a byte copy of s) gets buckets of its own and writes to out. 0, or
 * -1 when out of memory (d is then left for cap_out_fini). */
int cap_out_copy(cap_out *d, const cap_out *s, FILE *out);

/* Text added to part (CAP_PART_*) of the bucket of a frame still buffered:
 * a frame before the oldest goes to the oldest, one after the frame being
 * read to that frame. */
void cap_out_add(cap_out *o, uint64_t frame, int part, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* `alloc ID [ARENA] REQUEST [cb=N] tag=TAG at=ADDR` (arena NULL: none). */
void cap_out_alloc(cap_out *o, uint64_t frame, const char *arena, uint64_t id, const vs_request *rq, const char *tag,
	uint32_t at);
/* The same into part CAP_PART_ALLOCS or CAP_PART_EARLY (before the frees). */
void cap_out_alloc_in(cap_out *o, int part, uint64_t frame, const char *arena, uint64_t id, const vs_request *rq,
	const char *tag, uint32_t at);
void cap_out_free(cap_out *o, uint64_t frame, uint64_t id);
/* `# capture: frame N: ...` in the frame being read, before its events. */
void cap_out_comment(cap_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cap_out_vcomment(cap_out *o, const char *fmt, va_list ap);
/* Whether the oldest buffered bucket holds nothing. */
int cap_out_oldest_empty(const cap_out *o);
/* Writes the oldest bucket and its `frame` line. */
void cap_out_flush_one(cap_out *o);

/* The caller's comment lines: lines not starting with '#' get "# ", bytes
 * other than printable ASCII and tab become '?'. */
void cap_out_comment_block(FILE *out, const char *text);

uint32_t cap_fnv(uint32_t h, const uint8_t *p, size_t n);
#define CAP_FNV_START 2166136261u /* FNV-1a's offset basis: h for the first bytes */
int cap_all_zero(const uint8_t *p, size_t n);

#endif
