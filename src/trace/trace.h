/* SPDX-License-Identifier: Zlib */
/* trace.h - trace format v1: reading (streaming) and writing.
 *
 * The format is described for users in docs/trace-format.md. A reader holds
 * one line at a time; memory stays bounded by the line length, not by the
 * trace. Every error names file:line:col.
 */
#ifndef VRAMSIM_TRACE_H
#define VRAMSIM_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "vram/arena.h"
#include "vram/request.h"

#define VS_TRACE_VERSION 1
#define VS_TRACE_MAX_ARENAS 16
#define VS_TRACE_LINE_MAX (1u << 20)  /* longest line: payload hex of 512 KiB */
#define VS_TAG_MAX 64
#define VS_TAG_DISTINCT_MAX 65536u     /* distinct tags in one trace */
#define VS_STATE_NAME_MAX 64
#define VS_STATE_DISTINCT_MAX 4096u    /* distinct save and restore names in one trace */
#define VS_OPTIONS_MAX 256
#define VS_TRACE_MAX_SEARCH 8     /* search lists ("anywhere in level") */
#define VS_SEARCH_LEN_MAX 8       /* arenas in one search list */
#define VS_ROUTE_SEARCH0 16       /* route ids: arenas 0-15, search lists 16-23 */

typedef enum vs_event_type {
	VS_EV_ALLOC,    /* alloc ID [ARENA] REQUEST [key=value ...] */
	VS_EV_FREE,     /* free ID */
	VS_EV_FRAME,    /* frame */
	VS_EV_SAVE,     /* save NAME [ARENA] */
	VS_EV_RESTORE,  /* restore NAME [ARENA] */
	VS_EV_RESET,    /* reset [ARENA] */
	VS_EV_INIT,     /* init [ARENA] [key=value ...]: re-initialise with these options */
	VS_EV_PUSH,     /* push NAME: heap stack (with `heaps`) */
	VS_EV_POP,      /* pop NAME */
	VS_EV_MOVE,     /* move ID to=ADDR: the game moved a live allocation */
	VS_EV_REALLOC,  /* realloc ID [ARENA] REQUEST [key=value ...]: a live allocation asked for again */
	VS_EV_VRAMCNT,  /* vramcnt BANK VALUE: a DS VRAM bank register written */
	VS_EV_LOCK,     /* lock BANK: the game locked a bank for its allocator (glLockVRAMBank) */
	VS_EV_UNLOCK,   /* unlock BANK */
	VS_EV_COUNT
} vs_event_type;

const char *vs_trace_event_name(vs_event_type t);

/* One event. Pointers (payload, names) point into the reader's buffers and
 * stay valid until the next read. */
typedef struct vs_event {
	vs_event_type type;
	uint64_t line;          /* 1-based line in the trace */
	int arena;              /* arena index; -1 = every arena (save/restore/reset) */
	uint64_t id;            /* alloc, free */
	vs_request req;         /* alloc */
	const char *tag;        /* alloc: owner tag text, "" if none */
	const uint8_t *data;    /* alloc: payload bytes, or NULL */
	uint32_t data_len;
	const char *name;       /* save / restore: state name */
	uint32_t state;         /* save / restore: the name's id, 1 up to VS_STATE_DISTINCT_MAX */
	const char *options;    /* init: "key=value,..." ("" for none) */
	/* With `heaps` routing on: alloc names a route (an arena index, or
	 * VS_ROUTE_SEARCH0 + a search list) or -1 for the top of the heap
	 * stack, and arena is -1 until the replay picks one; push and pop name
	 * a route. -1 otherwise. */
	int route;
	/* alloc with `search=A,B,...` (heaps only): the call's own list of
	 * heaps to try in order (the game's radMemorySetUsableAllocators then
	 * ALLOCATOR_SEARCH); route is then -1. 0: none. */
	uint8_t search_len;
	uint8_t search[VS_SEARCH_LEN_MAX];
	/* vramcnt, lock, unlock: the bank (0-8, A-I) and VRAMCNT's new value */
	uint8_t bank, vramcnt;
} vs_event;

/* The trace header: version line and arena declarations. */
typedef struct vs_trace_header {
	int version;
	int narenas;
	vs_arena_decl arenas[VS_TRACE_MAX_ARENAS];
	/* per arena: "strategy=NAME" hint and strategy options from the line */
	char strategy[VS_TRACE_MAX_ARENAS][VS_NAME_MAX];
	char options[VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX];
	/* the line of each arena with a strategy= or options= (0: neither), and
	 * the column of options= (0: none), so what a strategy makes of them
	 * is reported at their place */
	uint64_t arena_line[VS_TRACE_MAX_ARENAS];
	uint32_t options_col[VS_TRACE_MAX_ARENAS];
	/* The Simpsons: Hit & Run's heap manager, with a `heaps` line: every
	 * arena is a heap; allocations route by the heap stack, the
	 * small-allocation rule and search lists. */
	int heaps;
	int small_arena;          /* -1: no small-allocation heap */
	int default_arena;        /* where an empty stack routes; -1: the first arena */
	uint32_t keep_small;      /* bit per arena that keeps its small requests */
	int nsearch;
	char search_name[VS_TRACE_MAX_SEARCH][VS_NAME_MAX];
	uint8_t search_len[VS_TRACE_MAX_SEARCH];
	uint8_t search[VS_TRACE_MAX_SEARCH][VS_SEARCH_LEN_MAX];
	int no_route;             /* `route=off`: the game's g_NoHeapRoute */
} vs_trace_header;

typedef struct vs_trace_reader vs_trace_reader;

/* Opens a trace ("-" is standard input) and reads its header. On error
 * returns NULL and writes "file:line:col: error: ..." to err. */
vs_trace_reader *vs_trace_open(const char *path, char *err, size_t errlen);
/* Same, over an open stream; name is used in messages. Does not close fp. */
vs_trace_reader *vs_trace_open_stream(FILE *fp, const char *name, char *err, size_t errlen);
const vs_trace_header *vs_trace_header_of(const vs_trace_reader *r);
/* Reads the next event: 1 = got one, 0 = end of trace, -1 = error (message
 * in the reader, see vs_trace_error). At the end *ev is left as it was (the
 * last event); after an error its fields may be half written. */
int vs_trace_next(vs_trace_reader *r, vs_event *ev);
const char *vs_trace_error(const vs_trace_reader *r);
/* Follow mode (on 1), for a trace another part of the program is still
 * writing (vramsim play): at the end of what is written vs_trace_next
 * returns 0 and a later call reads on from there; a last line without its
 * newline is kept until it is whole. With on 0 the end is the end again. */
void vs_trace_follow(vs_trace_reader *r, int on);
const char *vs_trace_name(const vs_trace_reader *r);
uint64_t vs_trace_line(const vs_trace_reader *r);
void vs_trace_close(vs_trace_reader *r);

/* Tags are interned to small integers: 0 is "no tag". The table belongs to
 * the reader and lives as long as it. */
uint32_t vs_trace_tag_count(const vs_trace_reader *r);
/* Bytes read from the stream so far (a little ahead of the events given
 * out), and the stream's size when it is a regular file (else 0): progress. */
uint64_t vs_trace_bytes_read(const vs_trace_reader *r);
uint64_t vs_trace_size(const vs_trace_reader *r);
const char *vs_trace_tag_name(const vs_trace_reader *r, uint32_t tag);

/* Writing, in the canonical form `vramsim fmt` produces. Reading what is
 * written gives the same header and events. Return 0, or -1 on I/O error. */
int vs_trace_write_header(FILE *fp, const vs_trace_header *h);
int vs_trace_write_event(FILE *fp, const vs_trace_header *h, const vs_event *ev);
/* Arena i's line alone (a writer that puts comments between the version
 * line and the arenas, as capture does). */
int vs_trace_write_arena(FILE *fp, const vs_trace_header *h, int i);

/* What the header takes as an arena's name and as a strategy= value, for a
 * writer that puts names from elsewhere on an arena line (vramsim import):
 * NULL when the reader takes s, else what such a name must be. */
const char *vs_trace_arena_name_rule(const char *s, size_t len);
const char *vs_trace_strategy_name_rule(const char *s, size_t len);

/* Index of an arena by name, or -1. */
int vs_trace_arena_index(const vs_trace_header *h, const char *name);
/* Name of a route id (an arena or a search list). */
const char *vs_trace_route_name(const vs_trace_header *h, int route);

#endif
