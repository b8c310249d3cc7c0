/* SPDX-License-Identifier: Zlib */
/* bench.c - throughput of the trace reader and the replay engine.
 *
 * Generates a deterministic trace of N events (default 1,000,000) of sprite
 * churn in GBA OBJ VRAM, then times three passes over it: parse only,
 * replay with the byte and rule checks off, and replay with every check on.
 * Prints events per second for each.
 *
 * usage: vs_bench [N] [TRACE-OUT [--generate-only]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vramsim/replay.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t rng(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

static int generate(const char *path, uint64_t n)
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

static double run(const char *path, int mode, uint64_t *events)
{
	char err[1024];
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	double t0 = now();

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
		cfg.message = NULL;
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
	return now() - t0;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	const char *path = argc > 2 ? argv[2] : "vs_bench.trace";
	static const char *const names[] = { "parse only", "replay, checks off", "replay, all checks" };
	int mode, rep;

	if (generate(path, n)) {
		fprintf(stderr, "vs_bench: cannot write %s\n", path);
		return 2;
	}
	if (argc > 3 && strcmp(argv[3], "--generate-only") == 0)
		return 0;
	printf("trace: %s, %llu events of sprite churn in GBA OBJ VRAM (strategy gba-obj-map)\n", path,
		(unsigned long long)n);
	for (mode = 0; mode < 3; mode++) {
		double best = 1e30;
		uint64_t events = 0;
		for (rep = 0; rep < 3; rep++) {
			double t = run(path, mode, &events);
			if (t < best)
				best = t;
		}
		printf("%-20s %10.0f events/s  (%llu events, best of 3: %.3f s)\n", names[mode],
			(double)events / best, (unsigned long long)events, best);
	}
	if (argc <= 2)
		remove(path);
	return 0;
}
