/* SPDX-License-Identifier: Zlib */
/* test_import_malloclab.c - every real malloc-lab trace through `vramsim
 * import` and a replay: the CS:APP instructor set and the CMU 15-213 set
 * recorded from real programs, read from ../shared/workloads/malloclab
 * (third-party data, never copied here; where it is absent the suite is
 * skipped).
 *
 * For each file: malloc lab's peak live payload is computed straight from
 * the .rep as its driver does (eval_mm_util); the import must agree, and so
 * must two replays of the imported trace:
 * - through the engine (vs_replay, what `vramsim replay` runs) with
 *   heap-buddy. Its blocks are 16-aligned multiples of 16, so the arena is
 *   replayed with unit=16: the engine's ownership map costs one step a unit,
 *   and at unit=1 the sets are 1.9 GB of allocations (csapp/realloc-bal
 *   alone 1.5 GB: about 50 s in a debug build), at unit=16 a sixteenth.
 *   Byte checks are off for the same reason (they write every byte).
 * - through heap-first-fit's own code, called directly as the engine
 *   would (no ownership map), with the trace's arena as imported.
 * The other heaps ran on every file when this was written (docs/heaps.md
 * has the figures); running all of them here would take minutes.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "trace/import.h"
#include "engine/replay.h"
#include "engine/report.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "strategies/registry.h"

/* Files the import must refuse, and how. */
static const struct { const char *file, *error; } refused[] = {
	{ "cmu/alaska.rep", ":7:4: error: 'a 7' has no size (expected 'a ID SIZE')" },
};

/* Files with more operations than their header says (a warning). */
static const char *const extra_ops[] = { "cmu/lrucd.rep", "cmu/nlydf.rep", "cmu/qyqyc.rep", "cmu/rulsr.rep" };

/* Files the buddy cannot serve whole in the arena the import sizes: its
 * rounding of binary-bal's 64- and 448-byte blocks to 128 and 512 leaves no
 * 512-byte block free 132 times (2.5 MiB would do). */
static const char *const buddy_fails[] = { "csapp/binary-bal.rep" };

static int listed(const char *const *v, size_t n, const char *file)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], file) == 0)
			return 1;
	return 0;
}

/* malloc lab's peak live payload, as its driver reads the trace (fscanf
 * of each operation) and counts it (an alloc adds its size, a realloc the
 * new size less the block's last one, a free the block's last size, free of
 * index -1 nothing). -1 when an 'a' or 'r' line has no size. */
static int mdriver_peak(const char *path, uint64_t *peak)
{
	FILE *fp = fopen(path, "r");
	char line[256];
	int64_t total = 0, max = 0;
	int64_t *sizes = NULL;
	long nsizes = 0, head = 0;
	int rc = 0;

	ck_assert_ptr_nonnull(fp);
	while (fgets(line, sizeof line, fp)) {
		char type;
		long index;
		long long size;
		int n;

		if (head < 4) {
			if (sscanf(line, "%ld", &index) == 1)
				head++;
			continue;
		}
		n = sscanf(line, " %c %ld %lld", &type, &index, &size);
		if (n < 2)
			continue;
		if (type != 'f' && n < 3) {
			rc = -1;
			break;
		}
		if (index >= nsizes) {
			long k = nsizes;
			nsizes = (index + 1) * 2;
			sizes = realloc(sizes, (size_t)nsizes * sizeof *sizes);
			ck_assert_ptr_nonnull(sizes);
			while (k < nsizes)
				sizes[k++] = 0;
		}
		if (type == 'a') {
			sizes[index] = size;
			total += size;
		} else if (type == 'r') {
			total += size - sizes[index];
			sizes[index] = size;
		} else if (index >= 0) {
			total -= sizes[index];
		}
		if (total > max)
			max = total;
	}
	fclose(fp);
	free(sizes);
	*peak = (uint64_t)max;
	return rc;
}

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* The imported trace through the engine with heap-buddy, at unit=16. */
static void engine_buddy(const char *file, const char *trace, uint64_t peak)
{
	const char *unit16 = vs_test_file(1, "unit16.trace", "");
	FILE *in = fopen(trace, "rb"), *out = fopen(unit16, "wb"), *rep;
	char line[512], err[1024], text[8192];
	vs_replay_config cfg;
	vs_trace_reader *rd;
	vs_replay *r;
	const vs_metrics *m;
	size_t n;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	while (fgets(line, sizeof line, in)) {
		if (strncmp(line, "arena ", 6) == 0) {
			line[strcspn(line, "\n")] = '\0';
			strcat(line, " unit=16\n");
		}
		fputs(line, out);
	}
	fclose(in);
	fclose(out);
	rd = vs_trace_open(unit16, err, sizeof err);
	ck_assert_msg(rd != NULL, "%s: %s", file, err);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find("heap-buddy");
	cfg.check_bytes = 0;
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s: %s", file, err);
	ck_assert_msg(vs_replay_run(r, 0) == 0, "%s: %s", file, vs_replay_error(r));
	ck_assert_msg(vs_replay_check_total(r) == 0, "%s: integrity", file);
	m = vs_replay_metrics(r, 0);
	/* The summary names its denominator and says when the trace was not
	 * served whole. */
	rep = tmpfile();
	ck_assert_ptr_nonnull(rep);
	vs_report_text(rep, r);
	rewind(rep);
	n = fread(text, 1, sizeof text - 1, rep);
	text[n] = '\0';
	fclose(rep);
	ck_assert_msg(strstr(text, "peak utilisation") && strstr(text, "high-water of this fixed arena; malloc lab "
		"divides by its sbrk-grown heap"), "%s: %s", file, text);
	if (listed(buddy_fails, sizeof buddy_fails / sizeof buddy_fails[0], file)) {
		ck_assert_msg(m->failures > 0, "%s: the buddy serves it whole now: update buddy_fails", file);
		ck_assert_msg(strstr(text, "INCOMPLETE: ") != NULL, "%s: %s", file, text);
		ck_assert_uint_le(m->peak_live, peak);
	} else {
		ck_assert_msg(m->failures == 0, "%s: heap-buddy failed %llu allocations", file,
			(unsigned long long)m->failures);
		ck_assert_msg(strstr(text, "INCOMPLETE") == NULL, "%s: %s", file, text);
		ck_assert_msg(m->peak_live == peak, "%s: engine peak live %llu, malloc lab %llu", file,
			(unsigned long long)m->peak_live, (unsigned long long)peak);
	}
	vs_replay_free(r);
	remove(unit16);
}

typedef struct block { vs_placement pl; uint32_t size; int live; } block;

/* The imported trace through heap-first-fit's own code, as the engine
 * calls it. */
static void direct_first_fit(const char *file, const char *trace, uint64_t peak)
{
	char err[512];
	vs_trace_reader *rd = vs_trace_open(trace, err, sizeof err);
	const vs_strategy *s = vs_strategy_find("heap-first-fit");
	const vs_trace_header *h;
	block *b = NULL;
	uint64_t nb = 0, cur = 0, top = 0, hw = 0, fails = 0;
	void *st;
	uint8_t *mem;
	vs_event ev;
	int trc;

	ck_assert_msg(rd != NULL, "%s: %s", file, err);
	ck_assert_ptr_nonnull(s);
	h = vs_trace_header_of(rd);
	st = calloc(1, s->state_size);
	mem = calloc(h->arenas[0].size, 1);
	ck_assert(st && mem);
	ck_assert_msg(s->init(st, &h->arenas[0], "", mem, err, sizeof err) == 0, "%s: %s", file, err);
	while ((trc = vs_trace_next(rd, &ev)) == 1) {
		if (ev.id >= nb) {
			uint64_t k = nb;
			nb = (ev.id + 1) * 2;
			b = realloc(b, nb * sizeof *b);
			ck_assert_ptr_nonnull(b);
			memset(b + k, 0, (nb - k) * sizeof *b);
		}
		if (ev.type == VS_EV_ALLOC) {
			vs_placement *pl = &b[ev.id].pl;
			ck_assert_msg(!b[ev.id].live, "%s: id %llu allocated twice", file, (unsigned long long)ev.id);
			memset(pl, 0, sizeof *pl);
			if (s->alloc(st, &ev.req, pl) != VS_OK) {
				fails++;
				continue;
			}
			ck_assert_msg((uint64_t)pl->block_offset + pl->block_size <= h->arenas[0].size &&
				pl->granted >= ev.req.size, "%s: id %llu placed badly", file, (unsigned long long)ev.id);
			b[ev.id].live = 1;
			b[ev.id].size = ev.req.size;
			cur += ev.req.size;
			if (cur > top)
				top = cur;
			if (pl->block_offset + pl->block_size > hw)
				hw = pl->block_offset + pl->block_size;
		} else if (ev.type == VS_EV_FREE) {
			ck_assert_msg(b[ev.id].live, "%s: free of id %llu, not live", file, (unsigned long long)ev.id);
			ck_assert_int_ge(s->free(st, &b[ev.id].pl), 0);
			b[ev.id].live = 0;
			cur -= b[ev.id].size;
		}
	}
	ck_assert_msg(trc == 0, "%s: %s", file, vs_trace_error(rd));
	vs_trace_close(rd);
	ck_assert_msg(fails == 0, "%s: heap-first-fit failed %llu allocations in the imported arena", file,
		(unsigned long long)fails);
	ck_assert_msg(top == peak, "%s: first fit's peak live %llu, malloc lab %llu", file, (unsigned long long)top,
		(unsigned long long)peak);
	/* headers keep the high-water above the payload */
	ck_assert_msg(peak == 0 || hw > peak, "%s: high-water %llu, peak %llu", file, (unsigned long long)hw,
		(unsigned long long)peak);
	free(st);
	free(mem);
	free(b);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .rep of one set: returns how many. */
static int run_set(const char *set, vs_rep_header want)
{
	char dir[1024], path[1200], file[256], err[1024], *names[256];
	const char *trace = vs_test_file(0, "imported.trace", "");
	DIR *d;
	struct dirent *e;
	int n = 0, i;
	size_t k;

	snprintf(dir, sizeof dir, "%s/%s", vs_test_workloads("malloclab"), set);
	d = opendir(dir);
	ck_assert_msg(d != NULL, "%s: cannot open", dir);
	while ((e = readdir(d)) && n < 256) {
		size_t l = strlen(e->d_name);
		if (l > 4 && strcmp(e->d_name + l - 4, ".rep") == 0)
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], by_name);
	for (i = 0; i < n; i++) {
		vs_rep_stats st;
		uint64_t peak;
		FILE *in, *out;
		int rc, mrc, refuse = -1;

		snprintf(file, sizeof file, "%s/%s", set, names[i]);
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		for (k = 0; k < sizeof refused / sizeof refused[0]; k++)
			if (strcmp(refused[k].file, file) == 0)
				refuse = (int)k;
		mrc = mdriver_peak(path, &peak);
		in = fopen(path, "rb");
		out = fopen(trace, "wb");
		ck_assert(in && out);
		err[0] = '\0';
		rc = vs_rep_import(in, file, out, NULL, &st, err, sizeof err);
		fclose(in);
		fclose(out);
		if (refuse >= 0) {
			ck_assert_msg(rc == -1 && mrc == -1, "%s: imported, but it has lines without a size", file);
			ck_assert_msg(strncmp(err, file, strlen(file)) == 0 &&
				strcmp(err + strlen(file), refused[refuse].error) == 0, "%s: error '%s'", file, err);
			continue;
		}
		ck_assert_msg(rc == 0, "%s", err);
		ck_assert_msg(mrc == 0, "%s: malloc lab's reading found a line without a size", file);
		ck_assert_msg(st.header == want, "%s: read as a %s header", file, vs_rep_header_name(st.header));
		ck_assert_msg((st.ops_read > st.ops) == listed(extra_ops, sizeof extra_ops / sizeof extra_ops[0], file),
			"%s: header %u ops, file %u", file, st.ops, st.ops_read);
		ck_assert_msg(st.peak_live == peak, "%s: import's peak live %llu, malloc lab %llu", file,
			(unsigned long long)st.peak_live, (unsigned long long)peak);
		ck_assert_msg(!st.size_given && st.arena_size == st.need && st.arena_size <= VS_REP_MAX_SIZE &&
			st.arena_size >= st.peak_live, "%s: arena %u for a need of %llu", file, (unsigned)st.arena_size,
			(unsigned long long)st.need);
		engine_buddy(file, trace, peak);
		direct_first_fit(file, trace, peak);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	remove(trace);
	return n;
}

START_TEST(cmu_set)
{
	int n = run_set("cmu", VS_REP_HEADER_CMU);

	ck_assert_msg(n >= 26, "only %d CMU traces", n);
}
END_TEST

START_TEST(csapp_set)
{
	int n = run_set("csapp", VS_REP_HEADER_CSAPP);

	ck_assert_msg(n >= 13, "only %d CS:APP traces", n);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("import_malloclab");
	TCase *tc = tcase_create("workloads");

	/* each set is one case of 10-25 s under the sanitizers on a loaded
	 * machine: a fifth of 120 s (docs/developing.md, Test suite time) */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, cmu_set);
	tcase_add_test(tc, csapp_set);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	vs_test_require(vs_test_workloads_missing("malloclab"));
	return vs_test_main(suite());
}
