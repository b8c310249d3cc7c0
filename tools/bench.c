/* SPDX-License-Identifier: Zlib */
/* bench.c - cost of a replay with every check on, per arena kind.
 *
 * Generates one deterministic trace of N events (default 300,000) per arena
 * kind: sprite churn in GBA OBJ VRAM, a BG side-scroller, a DS texture
 * stream, a DS palette stream and a RAM heap churn in 16 MiB. For each it
 * times, in CPU time of this process, a minimal parse of the same file
 * (fgets and strtol of its numbers: the least any replay must do), the
 * trace reader, the strategy's own calls made straight to it (what no
 * replay can avoid), a replay with the checks off and one with every check
 * on; five rounds, medians printed, and the all-checks replay as a ratio to
 * the minimal parse: the median of each round's ratio, with their range, so
 * that a burst of others' work in one round moves neither. Ratios hold on a
 * loaded machine where seconds do not.
 *
 * usage: vs_bench [N] [--keep DIR] [--only KIND]
 *        vs_bench N TRACE-OUT --generate-only   (the OBJ churn trace alone)
 *        vs_bench --pass min|0|1|2 TRACE [ROUNDS]   (one pass alone, for perf or callgrind)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strategy_calls.h"
#include "gen/gen_ds.h"
#include "gen/gen_heap.h"
#include "engine/replay.h"

#define ROUNDS 5

/* Seconds of CPU: the clock strategy_calls.c reads (this program has one thread). */
static double cpu_now(void)
{
	return sc_cpu_ns() * 1e-9;
}

static uint32_t rng(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

/* The original vs_bench trace: sprite churn of the eight common sizes. */
static int gen_obj(const char *path, uint64_t n)
{
	static const char *const shapes[] = { "8x8", "16x16", "16x8", "8x16", "32x32", "32x16", "16x32", "32x8" };
	static const char *const tags[] = { "player", "enemy", "bullet", "particle", "ui" };
	FILE *fp = fopen(path, "w");
	uint64_t s = 12345, ev = 0, next_id = 1, *live;
	size_t nlive = 0, cap = 256;

	if (!fp)
		return -1;
	live = malloc(cap * sizeof *live);
	if (!live) {
		fclose(fp);
		return -1;
	}
	fprintf(fp, "vramsim-trace 1\narena obj gba-obj\n");
	while (ev < n) {
		uint32_t r = rng(&s) % 100;
		if (r < 2) {
			fprintf(fp, "frame\n");
		} else if (nlive && (r < 51 || nlive >= 60)) {
			size_t k = rng(&s) % nlive;
			fprintf(fp, "free %llu\n", (unsigned long long)live[k]);
			live[k] = live[--nlive];
		} else {
			fprintf(fp, "alloc %llu sprite %s %s tag=%s\n", (unsigned long long)next_id, shapes[rng(&s) % 8],
				rng(&s) % 8 ? "4bpp" : "8bpp", tags[rng(&s) % 5]);
			live[nlive++] = next_id++;
		}
		ev++;
	}
	free(live);
	return fclose(fp);
}

static int is_event(const char *line)
{
	static const char *const words[] = { "alloc ", "free ", "frame", "save ", "restore ", "reset", "init ",
		"push ", "pop " };
	size_t i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strncmp(line, words[i], strlen(words[i])) == 0)
			return 1;
	return 0;
}

/* Copies a generator's trace to path, keeping its first n events and, when
 * arena is set, only that arena's `arena` line and events (the DS stream
 * interleaves textures and palettes: ids are followed to their frees).
 * Returns the events written, or -1. */
static long long copy_events(FILE *in, const char *path, uint64_t n, const char *arena)
{
	FILE *out = fopen(path, "w");
	char line[4096], want[64];
	uint8_t *mine = NULL;
	size_t cap = 0;
	uint64_t ev = 0;

	if (!out)
		return -1;
	snprintf(want, sizeof want, " %s ", arena ? arena : "");
	while (ev < n && fgets(line, sizeof line, in)) {
		if (arena && strncmp(line, "arena ", 6) == 0 && strncmp(line + 5, want, strlen(want)) != 0)
			continue;
		if (arena && (strncmp(line, "alloc ", 6) == 0 || strncmp(line, "free ", 5) == 0)) {
			int alloc = line[0] == 'a';
			unsigned long long id = strtoull(line + (alloc ? 6 : 5), NULL, 10);
			if (id >= cap) {
				size_t ncap = (id + 1) * 2;
				uint8_t *nm = realloc(mine, ncap);
				if (!nm)
					break;
				memset(nm + cap, 0, ncap - cap);
				mine = nm;
				cap = ncap;
			}
			if (alloc)
				mine[id] = strstr(line, want) != NULL;
			if (!mine[id])
				continue;
		}
		fputs(line, out);
		ev += is_event(line);
	}
	free(mine);
	return fclose(out) ? -1 : (long long)ev;
}

typedef int (*gen_fn)(FILE *out, const vs_gen_opts *o, char *err, size_t errlen);

static int heap_16m(FILE *out, const vs_gen_opts *o, char *err, size_t errlen)
{
	vs_gen_heap_opts h;

	vs_gen_heap_opts_default(&h);
	h.arena_size = 16u << 20;
	h.sizes.hi = 65536;
	h.lifetime.lo = 4000;
	h.lifetime.hi = 100000;
	return vs_gen_heap_churn_with(out, o, &h, err, errlen);
}

/* Runs a generator with enough frames for n events of arena, into path. */
static int gen_with(gen_fn fn, uint32_t frames, const char *path, uint64_t n, const char *arena)
{
	vs_gen_opts o;
	char err[512];
	FILE *tmp = tmpfile();
	long long got;

	if (!tmp)
		return -1;
	vs_gen_opts_default(&o);
	o.seed = 1;
	o.frames = frames;
	if (fn(tmp, &o, err, sizeof err)) {
		fprintf(stderr, "vs_bench: %s\n", err);
		fclose(tmp);
		return -1;
	}
	rewind(tmp);
	got = copy_events(tmp, path, n, arena);
	fclose(tmp);
	if (got < 0)
		return -1;
	return (uint64_t)got < n ? 1 : 0; /* 1: too few frames */
}

static int generate(int kind, const char *path, uint64_t n)
{
	/* frames per event, guessed low; doubled until the trace is long enough */
	static const gen_fn fns[] = { NULL, vs_gen_side_scroller, vs_gen_ds_stream, vs_gen_ds_stream, heap_16m };
	static const char *const arenas[] = { NULL, NULL, "tex", "pal", NULL };
	uint64_t frames = n / 64 + 16;
	int rc;

	if (kind == 0)
		return gen_obj(path, n);
	while ((rc = gen_with(fns[kind], (uint32_t)frames, path, n, arenas[kind])) == 1 && frames < 10000000)
		frames *= 2;
	return rc;
}

/* The least a replay must do: read each line and convert its numbers. */
static double minimal_parse(const char *path, uint64_t *sum)
{
	FILE *fp = fopen(path, "r");
	char line[4096];
	double t0 = cpu_now();

	if (!fp)
		exit(2);
	while (fgets(line, sizeof line, fp)) {
		char *p = line;
		while (*p) {
			char *end;
			long v;
			while (*p == ' ' || *p == '\n' || *p == '=')
				p++;
			if (!*p)
				break;
			if (*p >= '0' && *p <= '9') {
				v = strtol(p, &end, 0);
				*sum += (uint64_t)v;
				p = end;
			}
			while (*p && *p != ' ' && *p != '\n' && *p != '=')
				p++;
		}
	}
	fclose(fp);
	return cpu_now() - t0;
}

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* mode 0: the trace reader alone; 1: replay, checks off; 2: every check. */
static double run(const char *path, int mode, uint64_t *events)
{
	char err[1024];
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	double t0 = cpu_now();

	if (!rd) {
		fprintf(stderr, "%s\n", err);
		exit(2);
	}
	if (mode == 0) {
		vs_event ev;
		uint64_t n = 0;
		while (vs_trace_next(rd, &ev) == 1)
			n++;
		*events = n;
		vs_trace_close(rd);
	} else {
		vs_replay_config cfg;
		vs_replay *r;
		vs_replay_config_default(&cfg);
		cfg.check_bytes = cfg.check_rules = mode == 2;
		cfg.message = quiet;
		r = vs_replay_new(rd, &cfg, err, sizeof err);
		if (!r) {
			fprintf(stderr, "%s\n", err);
			exit(2);
		}
		if (vs_replay_run(r, 0) < 0) {
			fprintf(stderr, "%s\n", vs_replay_error(r));
			exit(2);
		}
		*events = vs_replay_events(r);
		vs_replay_free(r);
	}
	return cpu_now() - t0;
}

/* The strategy the replay gives arena 0 of path, or NULL. */
static const vs_strategy *strategy_of(const char *path)
{
	char err[1024];
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	vs_replay_config cfg;
	const vs_strategy *s = NULL;
	vs_replay *r;

	vs_replay_config_default(&cfg);
	if (rd && (r = vs_replay_new(rd, &cfg, err, sizeof err)) != NULL) {
		s = vs_replay_strategy(r, 0);
		vs_replay_free(r);
	}
	return s;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v)
{
	qsort(v, ROUNDS, sizeof *v, cmp_double);
	return v[ROUNDS / 2];
}

int main(int argc, char **argv)
{
	static const char *const kinds[] = { "obj", "bg", "ds-tex", "ds-pltt", "ram" };
	static const char *const what[] = {
		"sprite churn in GBA OBJ VRAM (gba-obj-map)",
		"gen side-scroller in GBA BG VRAM (gba-bg-tiles)",
		"gen ds-stream, textures only (nns-lnk-tex)",
		"gen ds-stream, palettes only (nns-lnk-pltt)",
		"gen heap-churn in 16 MiB (heap-dlmalloc)" };
	uint64_t n = 300000, sum = 0;
	const char *keep = NULL, *only = NULL, *tmp = getenv("TMPDIR");
	char path[1024] = "", dir[512];
	int i, k, round;

	if (argc > 3 && strcmp(argv[3], "--generate-only") == 0) {
		if (gen_obj(argv[2], strtoull(argv[1], NULL, 10))) {
			fprintf(stderr, "vs_bench: cannot write %s\n", argv[2]);
			return 2;
		}
		return 0;
	}
	if (argc > 3 && strcmp(argv[1], "--pass") == 0) {
		/* min: the minimal parse, 0: the reader alone, 1: replay without checks, 2: every check */
		int mode = strcmp(argv[2], "min") == 0 ? -1 : atoi(argv[2]), rounds = argc > 4 ? atoi(argv[4]) : 1;
		uint64_t events = 0;
		double t = 0, best = 1e9, d;
		for (round = 0; round < rounds; round++) {
			t += d = mode < 0 ? minimal_parse(argv[3], &sum) : run(argv[3], mode, &events);
			best = d < best ? d : best;
		}
		printf("%llu events, %.1f ms a pass (fastest %.1f ms)\n", (unsigned long long)events, t / rounds * 1e3,
			best * 1e3);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc)
			keep = argv[++i];
		else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
			only = argv[++i];
		else if (argv[i][0] >= '1' && argv[i][0] <= '9')
			n = strtoull(argv[i], NULL, 10);
		else {
			fprintf(stderr, "usage: vs_bench [N] [--keep DIR] [--only obj|bg|ds-tex|ds-pltt|ram]\n"
				"       vs_bench N TRACE-OUT --generate-only\n"
				"       vs_bench --pass min|0|1|2 TRACE [ROUNDS]\n");
			return 2;
		}
	}
	/* without --keep, the traces go to a folder of our own, not over a
	 * file of that name where we were started */
	snprintf(dir, sizeof dir, "%s/vs_bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!keep && !mkdtemp(dir)) {
		fprintf(stderr, "vs_bench: cannot make a folder in %s: %s\n", tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return 2;
	}
	if (keep && mkdir(keep, 0777) != 0 && errno != EEXIST) { /* --keep DIR made when missing */
		fprintf(stderr, "vs_bench: cannot make %s: %s\n", keep, strerror(errno));
		return 2;
	}
	printf("%llu events a trace; CPU time of this process, median of %d rounds\n\n", (unsigned long long)n, ROUNDS);
	printf("%-8s %9s %10s %10s %10s %10s %10s %8s %12s %8s\n", "arena", "events", "min parse", "reader",
		"strategy", "no checks", "checks", "ratio", "(rounds)", "Mev/s");
	for (k = 0; k < 5; k++) {
		double tp[ROUNDS], tr[ROUNDS], ts[ROUNDS], t1[ROUNDS], t2[ROUNDS], ratio[ROUNDS], p, c, r;
		uint64_t events = 0;
		const vs_strategy *s;
		sc_calls *calls;

		if (only && strcmp(only, kinds[k]) != 0)
			continue;
		snprintf(path, sizeof path, "%s/vs_bench-%s.trace", keep ? keep : dir, kinds[k]);
		errno = 0;
		if (generate(k, path, n)) {
			fprintf(stderr, "vs_bench: cannot write %s: %s\n", path, errno ? strerror(errno) : "the generator failed");
			break;
		}
		if (!(s = strategy_of(path)) || !(calls = sc_record(path, 0, s))) {
			fprintf(stderr, "vs_bench: %s does not replay\n", path);
			break;
		}
		for (round = 0; round < ROUNDS; round++) {
			tp[round] = minimal_parse(path, &sum);
			tr[round] = run(path, 0, &events);
			sc_run(calls, s, 0, &ts[round]);
			ts[round] *= 1e-9;
			t1[round] = run(path, 1, &events);
			t2[round] = run(path, 2, &events);
			ratio[round] = t2[round] / tp[round]; /* the round's own pair */
		}
		sc_free(calls);
		p = median(tp);
		c = median(t2);
		r = median(ratio); /* sorted: ratio[0] and ratio[ROUNDS - 1] are the range */
		printf("%-8s %9llu %8.1fms %8.1fms %8.1fms %8.1fms %8.1fms %7.2fx  %5.2f-%5.2f %8.2f   %s\n", kinds[k],
			(unsigned long long)events, p * 1e3, median(tr) * 1e3, median(ts) * 1e3, median(t1) * 1e3, c * 1e3,
			r, ratio[0], ratio[ROUNDS - 1], (double)events / c * 1e-6, what[k]);
		fflush(stdout);
		if (!keep)
			remove(path);
	}
	if (!keep) {
		if (path[0])
			remove(path); /* one a failure left */
		rmdir(dir);
	}
	if (k < 5)
		return 2;
	printf("\nstrategy: its own alloc and free calls alone, made straight to it (as vs_bench_alloc makes them)\n"
		"targets: ratio at most 1.5x for obj and bg, 2x for ds-tex and ds-pltt, 3x for ram (checksum %llu)\n",
		(unsigned long long)(sum & 0xFFFF));
	return 0;
}
