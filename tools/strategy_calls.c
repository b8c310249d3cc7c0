/* SPDX-License-Identifier: Zlib */
/* strategy_calls.c - a strategy's own calls, recorded and made again.
 *
 * The recording wraps the strategy in a table of the same calls that log
 * each alloc (request and answer), free (placement and answer), reset and
 * frame boundary on the way through; the replay engine drives it as usual,
 * with byte checks off. Making them again times the whole list with the thread's CPU
 * clock (no clock read per call).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strategy_calls.h"
#include "engine/replay.h"
#include "trace/trace.h"

enum { OP_ALLOC, OP_FREE, OP_RESET, OP_FRAME };

typedef struct op {
	int kind, rc;
	vs_request rq;
	vs_placement pl; /* alloc: what came back; free: what was freed */
} op;

struct sc_calls {
	op *ops;
	size_t n, cap, calls;
	vs_arena_decl decl;
	char options[VS_OPTIONS_MAX];
	int oom, saved;
};

/* The recording under way and the strategy it wraps: the wrapped calls
 * get only the strategy's state, so these are file-wide. */
static sc_calls *rec;
static const vs_strategy *inner;

static op *push(int kind)
{
	if (rec->n == rec->cap) {
		size_t cap = rec->cap ? rec->cap * 2 : 4096;
		op *p = realloc(rec->ops, cap * sizeof *p);
		if (!p) {
			rec->oom = 1;
			return NULL;
		}
		rec->ops = p;
		rec->cap = cap;
	}
	memset(&rec->ops[rec->n], 0, sizeof rec->ops[rec->n]);
	rec->ops[rec->n].kind = kind;
	rec->calls += kind == OP_ALLOC || kind == OP_FREE;
	return &rec->ops[rec->n++];
}

static int w_init(void *st, const vs_arena_decl *a, const char *opts, uint8_t *mem, char *err, size_t errlen)
{
	rec->decl = *a;
	snprintf(rec->options, sizeof rec->options, "%s", opts);
	return inner->init(st, a, opts, mem, err, errlen);
}

static int w_alloc(void *st, const vs_request *rq, vs_placement *out)
{
	int rc = inner->alloc(st, rq, out);
	op *o = push(OP_ALLOC);

	if (o) {
		o->rq = *rq;
		o->rc = rc;
		if (rc == VS_OK)
			o->pl = *out;
	}
	return rc;
}

static int w_free(void *st, const vs_placement *pl)
{
	int rc = inner->free(st, pl);
	op *o = push(OP_FREE);

	if (o) {
		o->pl = *pl;
		o->rc = rc;
	}
	return rc;
}

static void w_reset(void *st)
{
	push(OP_RESET);
	inner->reset(st);
}

/* A frame boundary: a compacting strategy moves sprites here, which later
 * placements depend on. */
static void w_frame(void *st)
{
	push(OP_FRAME);
	inner->frame(st);
}

static void w_walk(void *st, vs_extent_fn fn, void *ud) { inner->walk_free(st, fn, ud); }
static int w_save(void *st, void *buf) { rec->saved = 1; return inner->save(st, buf); }
static int w_restore(void *st, const void *buf) { rec->saved = 1; return inner->restore(st, buf); }
static void w_dump(void *st, vs_print_fn p, void *ud) { inner->dump(st, p, ud); }
static void w_fini(void *st) { inner->fini(st); }
static void w_held(void *st, vs_extent_fn fn, void *ud) { inner->held(st, fn, ud); }

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

sc_calls *sc_record(const char *path, int ai, const vs_strategy *s)
{
	vs_strategy w = *s;
	vs_replay_config cfg;
	vs_trace_reader *rd;
	vs_replay *r;
	char err[512];
	int rc;
	sc_calls *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	rec = c;
	inner = s;
	w.init = w_init;
	w.alloc = w_alloc;
	w.free = w_free;
	w.reset = s->reset ? w_reset : NULL;
	w.walk_free = s->walk_free ? w_walk : NULL;
	w.save = s->save ? w_save : NULL;
	w.restore = s->restore ? w_restore : NULL;
	w.dump = s->dump ? w_dump : NULL;
	w.fini = s->fini ? w_fini : NULL;
	w.held = s->held ? w_held : NULL;
	w.frame = s->frame ? w_frame : NULL;
	rc = -1;
	if ((rd = vs_trace_open(path, err, sizeof err)) != NULL) {
		vs_replay_config_default(&cfg);
		cfg.check_bytes = VS_BYTES_OFF;
		cfg.strategy[ai] = &w;
		cfg.message = quiet;
		if ((r = vs_replay_new(rd, &cfg, err, sizeof err)) != NULL) {
			rc = vs_replay_run(r, 0);
			vs_replay_free(r);
		}
	}
	rec = NULL;
	if (rc < 0 || c->oom || c->saved) {
		sc_free(c);
		return NULL;
	}
	return c;
}

void sc_free(sc_calls *c)
{
	if (c) {
		free(c->ops);
		free(c);
	}
}

size_t sc_count(const sc_calls *c) { return c->calls; }

double sc_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The least cost of reading the clock twice (a system call on some hosts),
 * taken off each timed pass: it matters only for lists of few calls. */
static double clock_cost(void)
{
	static double cost = -1;
	int i;

	if (cost < 0) {
		cost = 1e18;
		for (i = 0; i < 1000; i++) {
			double a = sc_cpu_ns(), b = sc_cpu_ns();
			if (b - a < cost)
				cost = b - a;
		}
	}
	return cost;
}

size_t sc_run(const sc_calls *c, const vs_strategy *s, int check, double *ns)
{
	void *st = calloc(1, s->state_size ? s->state_size : 1);
	uint8_t *mem = (s->flags & VS_STRAT_NO_MEM) ? NULL : calloc(1, c->decl.size ? c->decl.size : 1);
	double t0, cc = clock_cost();
	char err[256];
	size_t i, bad = 0;
	vs_placement pl;

	if (!st || (!mem && !(s->flags & VS_STRAT_NO_MEM)) || s->init(st, &c->decl, c->options, mem, err, sizeof err)) {
		free(st);
		free(mem);
		return 1;
	}
	t0 = sc_cpu_ns();
	for (i = 0; i < c->n; i++) {
		const op *o = &c->ops[i];
		int rc;

		if (o->kind == OP_ALLOC) {
			rc = s->alloc(st, &o->rq, &pl);
			if (check && (rc != o->rc || (rc == VS_OK && memcmp(&pl, &o->pl, sizeof pl)))) {
				bad = i + 1;
				break;
			}
		} else if (o->kind == OP_FREE) {
			rc = s->free(st, &o->pl);
			if (check && rc != o->rc) {
				bad = i + 1;
				break;
			}
		} else if (o->kind == OP_FRAME) {
			s->frame(st);
		} else {
			s->reset(st);
		}
	}
	*ns = sc_cpu_ns() - t0 - cc;
	if (*ns < 0)
		*ns = 0;
	if (s->fini)
		s->fini(st);
	free(st);
	free(mem);
	return bad;
}
