/* SPDX-License-Identifier: Zlib */
/* bench_compact.c - gba-obj-compact against the OBJ strategies that do not
 * move, on traces never used to design it.
 *
 * Generates the four OBJ workloads (sprite-churn, level-change, boss-fight,
 * bitmap-racer) for seeds 1001-1100 in memory (400 traces; the designs of
 * docs/gba.md used seeds 1-130), or reads the trace files named, and
 * replays each with every check on against gba-obj-compact and each rival.
 * Prints compact's failures by kind (it must have no "fragmented"), the
 * traces where its peak fragmentation is not strictly the lowest, the worst
 * frame's moves + uploads as a share of VBlank beside the uploads-only floor
 * (what that frame's uploads alone cost, which no strategy avoids), and the
 * moves per frame, split into those made at frame boundaries and those a
 * request needed. Its own CPU time last.
 *
 * usage: vs_bench_compact [--seeds FIRST-LAST] [--options OPTS] [--list] [TRACE...]
 *   --options  gba-obj-compact's options (e.g. budget=256)
 *   --list     a Markdown row per trace as well
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen/gen.h"
#include "engine/replay.h"
#include "strategies/registry.h"

#define QUARTER (VS_VBLANK_CYCLES / 4u)

static const char *const rivals[] = { "gba-obj-map", "gba-obj-first-fit", "gba-obj-best-fit-end", "gba-obj-buddy",
	"gba-obj-snug", "gba-obj-ends", "gba-obj-slots" };
#define NRIVALS (sizeof rivals / sizeof rivals[0])
static const char *const generators[] = { "sprite-churn", "level-change", "boss-fight", "bitmap-racer" };

/* One trace's figures. */
typedef struct row {
	char name[64];
	uint64_t fail[VS_FAIL_KINDS], checks;
	double peak, rival_peak[NRIVALS];
	int rival_ran[NRIVALS];
	uint64_t worst_cycles, floor_cycles;   /* compact's worst frame; the most a frame's uploads cost */
	uint64_t frames, moves, moved, need_moves, need_moved, need_frame_cycles;
} row;

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* A frame's price, as the engine's: bytes moved in nmoves moves, bytes loaded. */
static uint64_t cycles(uint64_t moved, uint64_t nmoves, uint64_t loaded)
{
	return vs_cycles_traffic((moved + 3) / 4, nmoves, (loaded + 3) / 4);
}

static int obj_arena;

/* Bytes uploaded to OBJ VRAM in the current frame: every allocation placed. */
static void on_outcome(void *ud, vs_replay *r, const vs_outcome *o)
{
	(void)r;
	if (o->ev->type == VS_EV_ALLOC && !o->failed && o->live && (int)o->live->arena == obj_arena)
		*(uint64_t *)ud += o->live->pl.granted;
}

/* Replays text under strategy; for compact (x non-NULL) also prices each
 * frame as the engine does, split into uploads, on-need moves and the
 * frame's own slide. Returns 0, or -1 when the strategy does not apply. */
static int replay(const char *text, size_t len, const char *name, const char *strategy, const char *options, row *x,
	double *peak)
{
	char err[512];
	FILE *fp = fmemopen((void *)text, len, "rb");
	vs_trace_reader *rd;
	vs_replay_config cfg;
	vs_replay *r;
	uint64_t loaded = 0, need = 0, need_n = 0, prev_moved = 0, prev_moves = 0, frames = 0;
	const vs_metrics *m;
	int rc;

	if (!fp)
		return -1;
	rd = vs_trace_open_stream(fp, name, err, sizeof err);
	if (!rd) {
		fprintf(stderr, "%s\n", err);
		exit(2);
	}
	for (obj_arena = 0; obj_arena < vs_trace_header_of(rd)->narenas; obj_arena++)
		if (vs_trace_header_of(rd)->arenas[obj_arena].kind == VS_ARENA_GBA_OBJ)
			break;
	if (obj_arena == vs_trace_header_of(rd)->narenas) {
		fprintf(stderr, "%s: no gba-obj arena\n", name);
		exit(2);
	}
	vs_replay_config_default(&cfg);
	cfg.strategy[obj_arena] = vs_strategy_find(strategy);
	cfg.options[obj_arena] = options;
	cfg.message = quiet;
	cfg.observer = on_outcome;
	cfg.observer_ud = &loaded;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	if (!r) {
		fclose(fp);
		return -1;
	}
	m = vs_replay_metrics(r, obj_arena);
	while ((rc = vs_replay_step(r)) == 1) {
		uint64_t d = m->moved_bytes - prev_moved, dn = m->moves - prev_moves;
		prev_moved = m->moved_bytes;
		if (vs_replay_frames(r) != frames) { /* a frame boundary: its slide, then the frame is priced */
			uint64_t c = cycles(need + d, need_n + dn, loaded);
			frames = vs_replay_frames(r);
			if (x) {
				if (cycles(0, 0, loaded) > x->floor_cycles)
					x->floor_cycles = cycles(0, 0, loaded);
				if (need && c > x->need_frame_cycles)
					x->need_frame_cycles = c;
				if (c > x->worst_cycles)
					x->worst_cycles = c;
			}
			loaded = need = need_n = 0;
		} else if (d) {
			need += d; /* moves an allocation made to place its request */
			need_n += dn;
			if (x) {
				x->need_moves += dn;
				x->need_moved += d;
			}
		}
		prev_moves = m->moves;
	}
	if (rc < 0) {
		fprintf(stderr, "%s: %s: %s\n", name, strategy, vs_replay_error(r));
		exit(2);
	}
	*peak = m->peak_frag;
	if (x) {
		memcpy(x->fail, m->fail, sizeof x->fail);
		x->checks = vs_replay_check_total(r);
		x->frames = frames;
		x->moves = m->moves;
		x->moved = m->moved_bytes;
		if (x->worst_cycles != m->frame_cycles_max) {
			fprintf(stderr, "%s: worst frame %llu cycles here, %llu by the replay\n", name,
				(unsigned long long)x->worst_cycles, (unsigned long long)m->frame_cycles_max);
			exit(2);
		}
	}
	vs_replay_free(r);
	fclose(fp);
	return 0;
}

static void run_trace(const char *text, size_t len, const char *name, const char *options, row *x)
{
	size_t k;

	memset(x, 0, sizeof *x);
	snprintf(x->name, sizeof x->name, "%s", name);
	if (replay(text, len, name, "gba-obj-compact", options, x, &x->peak)) {
		fprintf(stderr, "%s: gba-obj-compact refused the trace (options '%s')\n", name, options);
		exit(2);
	}
	for (k = 0; k < NRIVALS; k++)
		x->rival_ran[k] = replay(text, len, name, rivals[k], "", NULL, &x->rival_peak[k]) == 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double pct(uint64_t c)
{
	return 100.0 * (double)c / (double)VS_VBLANK_CYCLES;
}

/* The p-th percentile (nearest rank) of v[0..n), sorted in place. */
static uint64_t percentile(uint64_t *v, size_t n, unsigned p)
{
	size_t i;

	qsort(v, n, sizeof *v, cmp_u64);
	i = (n * p + 99) / 100;
	return v[i ? i - 1 : 0];
}

static void report(row *rows, size_t n, int list, double t0)
{
	uint64_t fail[VS_FAIL_KINDS] = { 0 }, checks = 0, frames = 0, moves = 0, moved = 0, nm = 0, nb = 0;
	uint64_t *worst = malloc(n * sizeof *worst), *floor = malloc(n * sizeof *floor);
	double sum = 0, rsum[NRIVALS] = { 0 };
	size_t i, k, notlow = 0, over = 0, over_need = 0, over_floor = 0, rn[NRIVALS] = { 0 };

	if (!worst || !floor)
		exit(2);
	if (list) {
		printf("| trace | fails | peak frag | lowest rival peak | worst frame | uploads-only floor | moves on need |\n"
			"|---|---:|---:|---|---:|---:|---:|\n");
		for (i = 0; i < n; i++) {
			row *x = &rows[i];
			size_t best = NRIVALS;
			uint64_t f = 0;
			for (k = 0; k < NRIVALS; k++)
				if (x->rival_ran[k] && (best == NRIVALS || x->rival_peak[k] < x->rival_peak[best]))
					best = k;
			for (k = 0; k < VS_FAIL_KINDS; k++)
				f += x->fail[k];
			printf("| %s | %llu | %.3f | %.3f (%s) | %.1f%% | %.1f%% | %llu (%llu bytes) |\n", x->name,
				(unsigned long long)f, x->peak, best < NRIVALS ? x->rival_peak[best] : 0.0,
				best < NRIVALS ? rivals[best] : "-", pct(x->worst_cycles), pct(x->floor_cycles),
				(unsigned long long)x->need_moves, (unsigned long long)x->need_moved);
		}
		printf("\n");
	}
	printf("traces                      %zu\n", n);
	for (i = 0; i < n; i++) {
		row *x = &rows[i];
		int low = 1;
		for (k = 0; k < VS_FAIL_KINDS; k++)
			fail[k] += x->fail[k];
		checks += x->checks;
		sum += x->peak;
		for (k = 0; k < NRIVALS; k++)
			if (x->rival_ran[k]) {
				rsum[k] += x->rival_peak[k];
				rn[k]++;
				if (!(x->peak < x->rival_peak[k]))
					low = 0;
			}
		if (!low) {
			size_t b = 0;
			for (k = 1; k < NRIVALS; k++)
				if (x->rival_ran[k] && x->rival_peak[k] < x->rival_peak[b])
					b = k;
			printf("%s %s (%.3f; %s %.3f)", notlow++ ? "," : "peak frag not lowest on    ", x->name, x->peak,
				rivals[b], x->rival_peak[b]);
		}
		worst[i] = x->worst_cycles;
		floor[i] = x->floor_cycles;
		if (x->worst_cycles > QUARTER)
			over++;
		if (x->worst_cycles > QUARTER && x->worst_cycles > x->floor_cycles)
			over_floor++;
		if (x->need_frame_cycles > QUARTER && x->need_frame_cycles > x->floor_cycles)
			over_need++;
		frames += x->frames;
		moves += x->moves;
		moved += x->moved;
		nm += x->need_moves;
		nb += x->need_moved;
	}
	if (notlow)
		printf("\n");
	printf("compact failures            ");
	for (k = 0; k < VS_FAIL_KINDS; k++)
		printf("%s%s %llu", k ? ", " : "", vs_replay_fail_kind_name((vs_fail_kind)k), (unsigned long long)fail[k]);
	printf("\nreplay check errors         %llu\n", (unsigned long long)checks);
	printf("peak frag strictly lowest   %zu of %zu traces\n", n - notlow, n);
	printf("mean peak frag              gba-obj-compact %.3f", sum / (double)n);
	for (k = 0; k < NRIVALS; k++)
		if (rn[k])
			printf(", %s %.3f%s", rivals[k], rsum[k] / (double)rn[k], rn[k] < n ? " (where it runs)" : "");
	printf("\nworst frame, %% of VBlank   max %.1f%%, p95 %.1f%% (moves + uploads)\n",
		pct(percentile(worst, n, 100)), pct(percentile(worst, n, 95)));
	printf("uploads-only floor          max %.1f%%, p95 %.1f%%\n", pct(percentile(floor, n, 100)),
		pct(percentile(floor, n, 95)));
	printf("traces over a quarter       %zu; over both a quarter and their floor %zu; with a frame over both by moves\n"
		"                            a request needed %zu\n", over, over_floor, over_need);
	printf("moves per frame             %.2f (%.0f bytes)\n", (double)moves / (double)(frames ? frames : 1),
		(double)moved / (double)(frames ? frames : 1));
	printf("moves a request needed      %llu (%llu bytes), %.4f per frame\n", (unsigned long long)nm,
		(unsigned long long)nb, (double)nm / (double)(frames ? frames : 1));
	printf("cpu time                    %.1f s\n", cpu_now() - t0);
	free(worst);
	free(floor);
}

int main(int argc, char **argv)
{
	unsigned lo = 1001, hi = 1100;
	const char *options = "";
	int list = 0, i, nfiles = 0;
	double t0 = cpu_now();
	row *rows;
	size_t n = 0, cap;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
			if (sscanf(argv[++i], "%u-%u", &lo, &hi) != 2 || lo > hi) {
				fprintf(stderr, "vs_bench_compact: --seeds FIRST-LAST\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--options") && i + 1 < argc) {
			options = argv[++i];
		} else if (!strcmp(argv[i], "--list")) {
			list = 1;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: vs_bench_compact [--seeds FIRST-LAST] [--options OPTS] [--list] [TRACE...]\n");
			return 2;
		} else {
			nfiles++;
		}
	}
	cap = nfiles ? (size_t)nfiles : 4u * (hi - lo + 1u);
	rows = calloc(cap, sizeof *rows);
	if (!rows)
		return 2;
	if (nfiles) {
		for (i = 1; i < argc; i++) {
			FILE *fp;
			char *buf;
			long len;
			const char *base;
			if (!strcmp(argv[i], "--seeds") || !strcmp(argv[i], "--options")) {
				i++;
				continue;
			}
			if (argv[i][0] == '-')
				continue;
			fp = fopen(argv[i], "rb");
			if (!fp || fseek(fp, 0, SEEK_END) || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
				fprintf(stderr, "vs_bench_compact: cannot read %s\n", argv[i]);
				return 2;
			}
			buf = malloc((size_t)len + 1);
			if (!buf || fread(buf, 1, (size_t)len, fp) != (size_t)len)
				return 2;
			fclose(fp);
			base = strrchr(argv[i], '/');
			{
				char name[64];
				snprintf(name, sizeof name, "%s", base ? base + 1 : argv[i]);
				if (strlen(name) > 6 && !strcmp(name + strlen(name) - 6, ".trace"))
					name[strlen(name) - 6] = 0;
				run_trace(buf, (size_t)len, name, options, &rows[n++]);
			}
			free(buf);
		}
	} else {
		size_t g;
		unsigned s;
		for (g = 0; g < sizeof generators / sizeof generators[0]; g++)
			for (s = lo; s <= hi; s++) {
				const vs_generator *gen = vs_generator_find(generators[g]);
				vs_gen_opts o;
				char *buf = NULL, err[256], name[64];
				size_t len = 0;
				FILE *fp = open_memstream(&buf, &len);
				vs_gen_opts_default(&o);
				o.seed = s;
				if (!fp || gen->run(fp, &o, err, sizeof err)) {
					fprintf(stderr, "vs_bench_compact: gen %s: %s\n", generators[g], err);
					return 2;
				}
				fclose(fp);
				snprintf(name, sizeof name, "%s-%u", generators[g], s);
				run_trace(buf, len, name, options, &rows[n++]);
				free(buf);
			}
	}
	report(rows, n, list, t0);
	free(rows);
	return 0;
}
