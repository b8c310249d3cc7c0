/* SPDX-License-Identifier: Zlib */
/* bench_alloc.c - host CPU time per allocator call, strategy by strategy,
 * as a ratio to a reference strategy measured in the same run.
 *
 * For every arena of every trace and every strategy that manages it, the
 * trace is replayed once to record the strategy's own calls (alloc requests,
 * the placements it frees, resets). Those calls are then made again
 * straight to the strategy on a fresh state, with nothing of the replay
 * engine in between: once to check that every answer is the recorded one,
 * then RUNS times timed as a whole with the thread's CPU clock (so no clock
 * is read per call). The lowest of the runs, per call, is printed with its
 * ratio to the reference for the arena kind: gba-obj-buddy (OBJ),
 * gba-bg-tiles (BG), nns-lnk-tex / nns-lnk-pltt (the NITRO-System link
 * managers) and heap-dlmalloc (heaps). Ratios move far less between
 * machines and loads than nanoseconds do. Strategies that save and restore
 * their state during a replay (the frame managers) are left out. Rows of a
 * few hundred calls or fewer are mostly clock noise.
 *
 * usage: vs_bench_alloc [--runs N] [--strategy NAME]... TRACE...
 * --strategy measures only the strategies named (and the reference).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vramsim/replay.h"
#include "vramsim/strategy.h"
#include "vramsim/trace.h"

enum { OP_ALLOC, OP_FREE, OP_RESET };

typedef struct op {
	int kind, rc;
	vs_request rq;
	vs_placement pl; /* alloc: what came back; free: what was freed */
} op;

/* The recording: one strategy at a time, on this one thread. */
static const vs_strategy *inner;
static op *ops;
static size_t nops, capops;
static vs_arena_decl decl;
static char options[VS_OPTIONS_MAX];
static int oom, saved;

static op *push(int kind)
{
	if (nops == capops) {
		size_t cap = capops ? capops * 2 : 4096;
		op *p = realloc(ops, cap * sizeof *p);
		if (!p) {
			oom = 1;
			return NULL;
		}
		ops = p;
		capops = cap;
	}
	memset(&ops[nops], 0, sizeof ops[nops]);
	ops[nops].kind = kind;
	return &ops[nops++];
}

static int rec_init(void *st, const vs_arena_decl *a, const char *opts, uint8_t *mem, char *err, size_t errlen)
{
	decl = *a;
	snprintf(options, sizeof options, "%s", opts);
	return inner->init(st, a, opts, mem, err, errlen);
}

static int rec_alloc(void *st, const vs_request *rq, vs_placement *out)
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

static int rec_free(void *st, const vs_placement *pl)
{
	int rc = inner->free(st, pl);
	op *o = push(OP_FREE);

	if (o) {
		o->pl = *pl;
		o->rc = rc;
	}
	return rc;
}

static void rec_reset(void *st)
{
	push(OP_RESET);
	inner->reset(st);
}

static void rec_walk(void *st, vs_extent_fn fn, void *ud) { inner->walk_free(st, fn, ud); }
/* Saved and restored states (frame managers' groups) are not made again:
 * such strategies are left out. */
static int rec_save(void *st, void *buf) { saved = 1; return inner->save(st, buf); }
static int rec_restore(void *st, const void *buf) { saved = 1; return inner->restore(st, buf); }
static void rec_dump(void *st, vs_print_fn p, void *ud) { inner->dump(st, p, ud); }
static void rec_fini(void *st) { inner->fini(st); }
static void rec_held(void *st, vs_extent_fn fn, void *ud) { inner->held(st, fn, ud); }

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* Replays path with s on arena ai, recording its calls. 0, or -1 when the
 * strategy refuses the arena or the trace does not replay. */
static int record(const char *path, int ai, const vs_strategy *s)
{
	vs_strategy w = *s;
	vs_replay_config cfg;
	vs_trace_reader *rd;
	vs_replay *r;
	char err[512];
	int rc;

	inner = s;
	nops = 0;
	oom = saved = 0;
	w.init = rec_init;
	w.alloc = rec_alloc;
	w.free = rec_free;
	w.reset = s->reset ? rec_reset : NULL;
	w.walk_free = s->walk_free ? rec_walk : NULL;
	w.save = s->save ? rec_save : NULL;
	w.restore = s->restore ? rec_restore : NULL;
	w.dump = s->dump ? rec_dump : NULL;
	w.fini = s->fini ? rec_fini : NULL;
	w.held = s->held ? rec_held : NULL;
	rd = vs_trace_open(path, err, sizeof err);
	if (!rd)
		return -1;
	vs_replay_config_default(&cfg);
	cfg.check_bytes = 0;
	cfg.strategy[ai] = &w;
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	if (!r)
		return -1;
	rc = vs_replay_run(r, 0);
	vs_replay_free(r);
	return rc < 0 || oom || saved ? -1 : 0;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The least cost of reading the clock twice (a system call on some hosts),
 * taken off each timed pass: it matters only for traces of few calls. */
static double clock_cost;

static void calibrate(void)
{
	int i;

	clock_cost = 1e18;
	for (i = 0; i < 1000; i++) {
		double a = cpu_now(), b = cpu_now();
		if (b - a < clock_cost)
			clock_cost = b - a;
	}
}

/* Makes the recorded calls on a fresh state. check: compare every answer
 * with the recording (returns the first op that differs + 1, or 0).
 * Otherwise stores the CPU nanoseconds of the calls in *ns. */
static size_t run(const vs_strategy *s, int check, double *ns)
{
	void *st = calloc(1, s->state_size ? s->state_size : 1);
	uint8_t *mem = calloc(1, decl.size ? decl.size : 1);
	char err[256];
	size_t i, bad = 0;
	double t0;
	vs_placement pl;

	if (!st || !mem || s->init(st, &decl, options, mem, err, sizeof err)) {
		free(st);
		free(mem);
		return 1;
	}
	t0 = cpu_now();
	for (i = 0; i < nops; i++) {
		const op *o = &ops[i];
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
		} else {
			s->reset(st);
		}
	}
	*ns = cpu_now() - t0 - clock_cost;
	if (*ns < 0)
		*ns = 0;
	if (s->fini)
		s->fini(st);
	free(st);
	free(mem);
	return bad;
}

static const char *const refs[][2] = {
	{ "gba-obj", "gba-obj-buddy" },
	{ "gba-bg", "gba-bg-tiles" },
	{ "ds-tex", "nns-lnk-tex" },
	{ "ds-pltt", "nns-lnk-pltt" },
	{ "ram", "heap-dlmalloc" },
};

static const char *ref_for(vs_arena_kind k)
{
	size_t i;

	for (i = 0; i < sizeof refs / sizeof refs[0]; i++)
		if (!strcmp(refs[i][0], vs_arena_kind_name(k)))
			return refs[i][1];
	return NULL;
}

/* Lowest CPU nanoseconds per call of s on the recording, or < 0. */
static double measure(const vs_strategy *s, int runs, const char *path, const char *arena)
{
	double best = -1, ns;
	size_t bad, calls = 0, i;
	int k;

	for (i = 0; i < nops; i++)
		calls += ops[i].kind != OP_RESET;
	bad = run(s, 1, &ns);
	if (bad) {
		fprintf(stderr, "vs_bench_alloc: %s %s %s: call %zu answers differently when made again\n", path,
			arena, s->name, bad);
		return -1;
	}
	for (k = 0; k < runs; k++) {
		run(s, 0, &ns);
		if (best < 0 || ns < best)
			best = ns;
	}
	return calls ? best / (double)calls : 0;
}

/* Strategies --strategy named; none: all. */
static const char *only[32];
static int nonly;

static int wanted(const char *name, const char *refname)
{
	int i;

	if (!nonly || (refname && !strcmp(name, refname)))
		return 1;
	for (i = 0; i < nonly; i++)
		if (!strcmp(name, only[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 15, first = 1, t, a;
	size_t i;

	while (first + 1 < argc && argv[first][0] == '-') {
		if (!strcmp(argv[first], "--runs"))
			runs = atoi(argv[first + 1]);
		else if (!strcmp(argv[first], "--strategy") && nonly < (int)(sizeof only / sizeof only[0]))
			only[nonly++] = argv[first + 1];
		else
			break;
		first += 2;
	}
	if (first >= argc || runs < 1 || argv[first][0] == '-') {
		fprintf(stderr, "usage: vs_bench_alloc [--runs N] [--strategy NAME]... TRACE...\n");
		return 2;
	}
	calibrate();
	printf("# lowest of %d runs: CPU ns per alloc/free call, made straight to the strategy; "
		"x ref = ratio to the arena's reference\n", runs);
	printf("%-30s %-6s %-20s %8s %8s %7s\n", "trace", "arena", "strategy", "calls", "ns/call", "x ref");
	for (t = first; t < argc; t++) {
		char err[512];
		vs_trace_reader *rd = vs_trace_open(argv[t], err, sizeof err);
		vs_trace_header h;

		if (!rd) {
			fprintf(stderr, "vs_bench_alloc: %s\n", err);
			return 2;
		}
		h = *vs_trace_header_of(rd);
		vs_trace_close(rd);
		for (a = 0; a < h.narenas; a++) {
			const char *refname = ref_for(h.arenas[a].kind);
			double refns = -1, ns;

			/* the reference first, so every row can show its ratio */
			for (i = 0; refname && i < vs_strategy_count(); i++) {
				const vs_strategy *s = vs_strategy_at(i);
				if (!strcmp(s->name, refname) && !record(argv[t], a, s))
					refns = measure(s, runs, argv[t], h.arenas[a].name);
			}
			for (i = 0; i < vs_strategy_count(); i++) {
				const vs_strategy *s = vs_strategy_at(i);
				size_t calls = 0, k;

				if (!(s->arenas & VS_ARENA_BIT(h.arenas[a].kind)) || !strcmp(s->name, "recorded") ||
				    !wanted(s->name, refname))
					continue;
				if (record(argv[t], a, s))
					continue;
				ns = refname && !strcmp(s->name, refname) ? refns : measure(s, runs, argv[t], h.arenas[a].name);
				if (ns < 0)
					continue;
				for (k = 0; k < nops; k++)
					calls += ops[k].kind != OP_RESET;
				printf("%-30s %-6s %-20s %8zu %8.1f ", argv[t], h.arenas[a].name, s->name, calls, ns);
				if (refns > 0)
					printf("%7.2f\n", ns / refns);
				else
					printf("%7s\n", "-");
			}
		}
	}
	free(ops);
	return 0;
}
