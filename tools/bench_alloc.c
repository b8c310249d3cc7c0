/* SPDX-License-Identifier: Zlib */
/* bench_alloc.c - host CPU time per allocator call, strategy by strategy,
 * as a ratio to a reference strategy measured in the same run.
 *
 * For every arena of every trace and every strategy that manages it, the
 * trace is replayed once to record the strategy's own calls (alloc requests,
 * the placements it frees, resets, frame boundaries: a compacting strategy's
 * moves there count in its time per alloc/free call). Those calls are then made again
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

#include "strategy_calls.h"
#include "trace/trace.h"
#include "strategies/registry.h"
#include "vram/arena.h"

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

/* Lowest CPU nanoseconds per call of s on its recording c, or < 0. */
static double measure(const sc_calls *c, const vs_strategy *s, int runs, const char *path, const char *arena)
{
	double best = -1, ns;
	size_t bad;
	int k;

	bad = sc_run(c, s, 1, &ns);
	if (bad) {
		fprintf(stderr, "vs_bench_alloc: %s %s %s: call %zu answers differently when made again\n", path,
			arena, s->name, bad);
		return -1;
	}
	for (k = 0; k < runs; k++) {
		sc_run(c, s, 0, &ns);
		if (best < 0 || ns < best)
			best = ns;
	}
	return sc_count(c) ? best / (double)sc_count(c) : 0;
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
			const vs_strategy *ref = refname ? vs_strategy_find(refname) : NULL;
			double refns = -1, ns;
			sc_calls *c;

			/* the reference first, so every row can show its ratio */
			if (ref && (c = sc_record(argv[t], a, ref)) != NULL) {
				refns = measure(c, ref, runs, argv[t], h.arenas[a].name);
				sc_free(c);
			}
			for (i = 0; i < vs_strategy_count(); i++) {
				const vs_strategy *s = vs_strategy_at(i);

				if (!vs_strategy_manages(s, h.arenas[a].kind) || !strcmp(s->name, "recorded") ||
				    !wanted(s->name, refname))
					continue;
				if ((c = sc_record(argv[t], a, s)) == NULL)
					continue;
				ns = refname && !strcmp(s->name, refname) ? refns : measure(c, s, runs, argv[t], h.arenas[a].name);
				if (ns >= 0)
					printf("%-30s %-6s %-20s %8zu %8.1f ", argv[t], h.arenas[a].name, s->name, sc_count(c), ns);
				sc_free(c);
				if (ns < 0)
					continue;
				if (refns > 0)
					printf("%7.2f\n", ns / refns);
				else
					printf("%7s\n", "-");
			}
		}
	}
	return 0;
}
