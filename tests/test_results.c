/* SPDX-License-Identifier: Zlib */
/* test_results.c - every call's result out of `vramsim replay`: the event
 * log (JSON Lines), the series (CSV), the failed requests and the per-tag
 * table, each read back field by field from hand-made traces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine/results.h"

#include "support.h"
#include "vram/arena.h"

static char out[1 << 16], err[1 << 14];

/* OBJ (gba-obj-map) and BG (gba-bg-tiles) with tags, a tile hit, a failure,
 * frames, and a trailing event after the last frame. */
static const char mixed[] =
	"vramsim-trace 1\n"
	"arena obj gba-obj\n"
	"arena bg gba-bg\n"
	"alloc 1 obj 16K tag=boss\n"                 /* event 1, line 4 */
	"alloc 2 obj 512 tag=hero\n"                 /* 2 */
	"frame\n"                                    /* 3: frame 1 */
	"alloc 3 bg tile 7 4bpp tag=level\n"         /* 4: loaded */
	"alloc 4 bg tile 7 4bpp tag=level\n"         /* 5: a hit */
	"alloc 5 obj 16K tag=boss\n"                 /* 6: fails (16K + 512 taken) */
	"frame\n"                                    /* 7: frame 2 */
	"free 2\n"                                   /* 8 */
	"free 3\n"                                   /* 9: one of two references */
	"frame\n"                                    /* 10: frame 3 */
	"free 9\n";                                  /* 11: unknown id, a diagnostic */

static cJSON *line_json(const char *text, int n)
{
	const char *p = text;
	char buf[4096];
	size_t len;

	while (n-- > 0 && p)
		if ((p = strchr(p, '\n')))
			p++;
	ck_assert_ptr_nonnull(p);
	len = strcspn(p, "\n");
	ck_assert_uint_lt(len, sizeof buf);
	memcpy(buf, p, len);
	buf[len] = '\0';
	return cJSON_Parse(buf);
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);

	ck_assert_msg(cJSON_IsNumber(v), "no number '%s'", key);
	return v->valuedouble;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);

	ck_assert_msg(cJSON_IsString(v), "no string '%s'", key);
	return v->valuestring;
}

START_TEST(event_log)
{
	const char *t = vs_test_file(0, "mixed.trace", mixed);
	char args[1024];
	cJSON *o;
	int n = 0;
	const char *p;

	snprintf(args, sizeof args, "replay '%s' -s obj=gba-obj-map,bg=gba-bg-tiles --events - -q", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	for (p = out; (p = strchr(p, '\n')); p++)
		n++;
	ck_assert_int_eq(n, 11); /* one line per event */
	ck_assert_ptr_nonnull(strstr(err, "failed requests (1)")); /* the summary went to stderr */

	o = line_json(out, 0);
	ck_assert_uint_eq(num(o, "event"), 1);
	ck_assert_uint_eq(num(o, "line"), 4);
	ck_assert_uint_eq(num(o, "frame"), 0);
	ck_assert_str_eq(str(o, "kind"), "alloc");
	ck_assert_str_eq(str(o, "arena"), "obj");
	ck_assert_str_eq(str(o, "tag"), "boss");
	ck_assert_str_eq(str(o, "status"), "ok");
	ck_assert_uint_eq(num(o, "bytes"), 16384);
	ck_assert_uint_eq(num(o, "offset"), 0);
	ck_assert_uint_eq(num(o, "address"), 0x06010000);
	ck_assert_uint_eq(num(o, "granted"), 16384);
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(o, "hit")));
	cJSON_Delete(o);

	o = line_json(out, 4); /* the second reference of tile 7: a hit, same block */
	ck_assert_str_eq(str(o, "arena"), "bg");
	ck_assert_str_eq(str(o, "request"), "tile 7 4bpp");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(o, "hit")));
	ck_assert_uint_eq(num(o, "frame"), 1);
	ck_assert_uint_eq(num(o, "key"), num(o, "offset") / 32); /* the manager's RAM index */
	cJSON_Delete(o);

	o = line_json(out, 5); /* the failure, with the arena's free space then */
	ck_assert_str_eq(str(o, "status"), "no space");
	ck_assert_int_eq((int)num(o, "code"), -1);
	ck_assert_uint_eq(num(o, "key"), 0);
	ck_assert_str_eq(str(o, "failure"), "out of memory");
	ck_assert_uint_eq(num(o, "free_bytes"), 32768 - 16384 - 512);
	ck_assert_uint_eq(num(o, "largest_free"), 16384 - 512);
	ck_assert_ptr_null(cJSON_GetObjectItem(o, "offset"));
	cJSON_Delete(o);

	o = line_json(out, 6);
	ck_assert_str_eq(str(o, "kind"), "frame");
	ck_assert_uint_eq(num(o, "frame"), 2);
	cJSON_Delete(o);

	o = line_json(out, 8); /* one release of two: the tile stays */
	ck_assert_str_eq(str(o, "kind"), "free");
	ck_assert_str_eq(str(o, "tag"), "level");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(o, "released")));
	cJSON_Delete(o);

	o = line_json(out, 7);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(o, "released")));
	ck_assert_uint_eq(num(o, "address"), 0x06010000 + 16384);
	cJSON_Delete(o);

	o = line_json(out, 10); /* a diagnostic, with its line */
	ck_assert_str_eq(str(o, "status"), "invalid");
	ck_assert_msg(strstr(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "diagnostics"), 0)->valuestring,
		"mixed.trace:14: warning: unknown id: free of id 9"), "%s", out);
	cJSON_Delete(o);
}
END_TEST

START_TEST(series)
{
	const char *t = vs_test_file(0, "mixed.trace", mixed);
	char args[1024], path[1024];
	char *csv;

	snprintf(path, sizeof path, "%s/results-series.csv", VS_BINARY_DIR);
	snprintf(args, sizeof args, "replay '%s' -s obj=gba-obj-map,bg=gba-bg-tiles --series '%s' -q", t, path);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	csv = vs_test_slurp(path);
	ck_assert_ptr_nonnull(csv);
	/* frame 1 sums the two allocations before it; frame 4 is the free after
	 * the last frame statement */
	ck_assert_str_eq(csv,
		"frame,arena,live,granted,free,largest_free,free_extents,fragmentation,allocations,frees,failures,"
		"bytes_loaded,bytes_moved\n"
		"1,obj,16896,16896,15872,15872,1,0.000000,2,0,0,16896,0\n"
		"1,bg,0,0,65472,65472,1,0.000000,0,0,0,0,0\n"
		"2,obj,16896,16896,15872,15872,1,0.000000,0,0,1,0,0\n"
		"2,bg,32,32,65440,65440,1,0.000000,2,0,0,32,0\n"
		"3,obj,16384,16384,16384,16384,1,0.000000,0,1,0,0,0\n"
		"3,bg,32,32,65440,65440,1,0.000000,0,1,0,0,0\n"
		"4,obj,16384,16384,16384,16384,1,0.000000,0,0,0,0,0\n"
		"4,bg,32,32,65440,65440,1,0.000000,0,0,0,0,0\n");
	free(csv);

	/* a game's move counts in its frame's row and on its log line */
	t = vs_test_file(1, "move.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 64 at=0x06010000\n"
		"alloc 2 128 at=0x06010040\nfree 1\nmove 2 to=0x06010000\nframe\n");
	snprintf(args, sizeof args, "replay '%s' -s recorded --series - -q", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(out, "\n1,obj,128,128,32640,32640,1,0.000000,2,1,0,192,128\n"), "%s", out);
	snprintf(args, sizeof args, "replay '%s' -s recorded --events - -q", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(out, "\"kind\":\"move\",\"arena\":\"obj\",\"id\":2,\"request\":\"128\",\"bytes\":128,"
		"\"status\":\"ok\",\"code\":0,\"offset\":0,\"address\":100728832"), "%s", out);
	ck_assert_msg(strstr(out, "\"moves\":1,\"moved_bytes\":128"), "%s", out);

	/* no frames: a row per event */
	t = vs_test_file(1, "noframes.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 64\nalloc 2 64\nfree 1\n");
	snprintf(args, sizeof args, "replay '%s' --series - -q", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_str_eq(out,
		"event,arena,live,granted,free,largest_free,free_extents,fragmentation,allocations,frees,failures,"
		"bytes_loaded,bytes_moved\n"
		"1,obj,64,64,32704,32704,1,0.000000,1,0,0,64,0\n"
		"2,obj,128,128,32640,32640,1,0.000000,1,0,0,64,0\n"
		"3,obj,64,64,32704,32640,2,0.001957,0,1,0,0,0\n");
}
END_TEST

START_TEST(failures_and_tags)
{
	char trace[8192], args[1024];
	const char *t;
	cJSON *j, *fl, *tags;
	int i, n = 0;

	/* 25 failures: the text shows 20 and counts the rest, JSON has all */
	n += snprintf(trace + n, sizeof trace - (size_t)n, "vramsim-trace 1\narena obj gba-obj\nalloc 1 32K tag=all\n");
	for (i = 0; i < 25; i++)
		n += snprintf(trace + n, sizeof trace - (size_t)n, "alloc %d 64 tag=%s\n", 2 + i, i % 2 ? "odd" : "even");
	n += snprintf(trace + n, sizeof trace - (size_t)n, "free 1\nalloc 99 64 tag=odd\n");
	t = vs_test_file(0, "fails.trace", trace);
	snprintf(args, sizeof args, "replay '%s' -q", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(out, "failed requests (25)"), "%s", out);
	ck_assert_msg(strstr(out, "  4       0      obj        2        even         64                             64        0        0        -  out of memory\n"), "%s", out);
	ck_assert_msg(strstr(out, "... and 5 more (every one in --json or --events)"), "%s", out);
	ck_assert_msg(strstr(out, "tags in arena obj"), "%s", out);
	ck_assert_msg(strstr(out, "  all                       0      32768        1        0        1\n"), "%s", out);
	ck_assert_msg(strstr(out, "  odd                      64         64        1       12        0\n"), "%s", out);
	ck_assert_msg(strstr(out, "  even                      0          0        0       13        0\n"), "%s", out);

	snprintf(args, sizeof args, "replay '%s' -q --json", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	j = cJSON_Parse(out);
	ck_assert_ptr_nonnull(j);
	fl = cJSON_GetObjectItem(j, "failures");
	ck_assert_int_eq(cJSON_GetArraySize(fl), 25);
	ck_assert_uint_eq(num(j, "failures_total"), 25);
	ck_assert_uint_eq(num(cJSON_GetArrayItem(fl, 24), "line"), 28);
	ck_assert_uint_eq(num(cJSON_GetArrayItem(fl, 24), "id"), 26);
	ck_assert_str_eq(str(cJSON_GetArrayItem(fl, 24), "tag"), "even");
	ck_assert_str_eq(str(cJSON_GetArrayItem(fl, 24), "kind"), "out of memory");
	ck_assert_uint_eq(num(cJSON_GetArrayItem(fl, 24), "free_bytes"), 0);
	tags = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "arenas"), 0), "tags");
	ck_assert_int_eq(cJSON_GetArraySize(tags), 3);
	ck_assert_str_eq(str(cJSON_GetArrayItem(tags, 1), "tag"), "even");
	ck_assert_uint_eq(num(cJSON_GetArrayItem(tags, 1), "failures"), 13);
	ck_assert_uint_eq(num(cJSON_GetArrayItem(tags, 2), "live_bytes"), 64);
	cJSON_Delete(j);
}
END_TEST

/* Outputs are written whole or not at all, and never for a run that stops. */
START_TEST(outputs_all_or_none)
{
	const char *bad = vs_test_file(0, "bad.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 64\nalloc x\n");
	char args[2048], ev[1024], se[1024];
	FILE *fp;

	snprintf(ev, sizeof ev, "%s/results-ev.jsonl", VS_BINARY_DIR);
	snprintf(se, sizeof se, "%s/results-se.csv", VS_BINARY_DIR);
	remove(ev);
	fp = fopen(se, "w");
	ck_assert_ptr_nonnull(fp);
	fputs("old\n", fp);
	fclose(fp);
	snprintf(args, sizeof args, "replay '%s' --events '%s' --series '%s'", bad, ev, se);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_null(fopen(ev, "r"));
	{
		char *kept = vs_test_slurp(se);
		ck_assert_str_eq(kept, "old\n");
		free(kept);
	}
	snprintf(args, sizeof args, "replay '%s' --events - --series -", bad);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_nonnull(strstr(err, "cannot both be standard output"));
	snprintf(args, sizeof args, "replay '%s' -s gba-obj-map,gba-obj-buddy --events '%s'", bad, ev);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_nonnull(strstr(err, "--events and --series take one run"));
}
END_TEST

/* What if the allocator could move: 32 sprites of 1 KiB fill OBJ VRAM, every
 * other one goes, and a 2 KiB request fails with 16 KiB free: the cheapest
 * place holds one 1 KiB sprite. */
START_TEST(what_if_moved)
{
	static char trace[8192];
	char args[1024];
	const char *t;
	cJSON *j, *f, *a;
	int i, n = 0;

	n += snprintf(trace + n, sizeof trace - (size_t)n, "vramsim-trace 1\narena obj gba-obj\n");
	for (i = 0; i < 32; i++)
		n += snprintf(trace + n, sizeof trace - (size_t)n, "alloc %d 1K\n", i);
	for (i = 0; i < 32; i += 2)
		n += snprintf(trace + n, sizeof trace - (size_t)n, "free %d\n", i);
	n += snprintf(trace + n, sizeof trace - (size_t)n, "alloc 100 2K\nfree 1\nalloc 101 960\nalloc 102 64\n"
		"alloc 103 3K\n");
	t = vs_test_file(0, "whatif.trace", trace);
	snprintf(args, sizeof args, "replay '%s' -s gba-obj-first-fit -q --json", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	j = cJSON_Parse(out);
	ck_assert_ptr_nonnull(j);
	f = cJSON_GetObjectItem(j, "failures");
	ck_assert_int_eq(cJSON_GetArraySize(f), 2);
	ck_assert_str_eq(str(cJSON_GetArrayItem(f, 0), "kind"), "fragmented");
	ck_assert_uint_eq(num(cJSON_GetArrayItem(f, 0), "bytes_to_move"), 1024);
	/* with id 1 gone, 960 and 64 bytes take the start of the 3 KiB run and
	 * 2 KiB stay free after them: a 3 KiB request moves either the two small
	 * ones or the 1 KiB sprite after the run, 1024 bytes each way */
	ck_assert_uint_eq(num(cJSON_GetArrayItem(f, 1), "bytes_to_move"), 1024);
	a = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "arenas"), 0);
	ck_assert_uint_eq(num(a, "fragmentation_failures"), 2);
	ck_assert_uint_eq(num(a, "bytes_to_move"), 2048);
	cJSON_Delete(j);
	snprintf(args, sizeof args, "replay '%s' -s gba-obj-first-fit -q", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(out, "what if arena obj could move allocations: its 2 fragmentation failures needed at "
		"least 2048 bytes moved\n"), "%s", out);
}
END_TEST

/* Progress goes to standard error: on a terminal after a second, or from
 * the start with VRAMSIM_PROGRESS=always; never with -q, never otherwise. */
START_TEST(progress)
{
	static char trace[1 << 18];
	char args[1024];
	const char *t;
	int i, n = 0;

	n += snprintf(trace + n, sizeof trace - (size_t)n, "vramsim-trace 1\narena obj gba-obj\n");
	for (i = 0; i < 5000; i++)
		n += snprintf(trace + n, sizeof trace - (size_t)n, "alloc %d 32\nfree %d\n", i, i);
	t = vs_test_file(0, "progress.trace", trace);
	snprintf(args, sizeof args, "replay '%s'", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_ptr_null(strstr(err, "events/s"));
	setenv("VRAMSIM_PROGRESS", "always", 1);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "\rreplay: ") && strstr(err, "%, 4096 events, "), "%s", err);
	ck_assert_msg(strstr(err, "\r\033[K"), "the progress line is cleared: %s", err);
	ck_assert_ptr_nonnull(strstr(out, "events 10000"));
	snprintf(args, sizeof args, "replay '%s' -q", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_ptr_null(strstr(err, "events/s"));
	/* the other long commands: render, diff, compare (replays done of all) */
	snprintf(args, sizeof args, "render '%s' --kind chart -o '%s/progress.png'", t, VS_BINARY_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "\rrender: ") && strstr(err, "%, 4096 events, "), "%s", err);
	snprintf(args, sizeof args, "diff '%s' -s gba-obj-map -s gba-obj-buddy", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "\rdiff: A: ") && strstr(err, "\rdiff: B: "), "%s", err);
	snprintf(args, sizeof args, "compare '%s' -j1 --no-timing", t);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "\rcompare: 1 of ") && strstr(err, " replays, "), "%s", err);
	unsetenv("VRAMSIM_PROGRESS");
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_ptr_null(strstr(err, "replays/s"));
}
END_TEST

/* The unit-by-unit search the run-based one replaced, kept as its model: a
 * window [lo, hi) slides over every unit; walls reset it, and an owner's
 * units right after a wall count afresh (the old search carried the owner
 * over the wall: a corner no bundled trace reaches). */
typedef struct unit_map {
	uint32_t *owner;
	uint8_t *kind;
} unit_map;

static int unit_fill(void *ud, const vs_own_run *run)
{
	unit_map *m = ud;
	uint32_t i;

	for (i = 0; i < run->count; i++)
		m->owner[run->first + i] = run->owner;
	memset(m->kind + run->first, (int)run->kind, run->count);
	return 0;
}

/* m: room for the arena's units, filled here (the caller's, kept from one
 * failure to the next: a fresh million-unit map for each was most of the
 * suite's time under ASan, in page faults). */
static uint64_t model_to_move(const vs_replay *r, int a, uint64_t size, unit_map m)
{
	const vs_arena *A = vs_replay_arena(r, a);
	uint64_t n = (size + A->decl.unit - 1) / A->decl.unit, best = VS_MOVE_UNKNOWN, cost = 0, free_units;
	uint32_t lo = 0, hi = 0, u;

	vs_arena_runs(A, 0, A->nunits, unit_fill, &m);
	free_units = vs_replay_metrics(r, a)->free_bytes / A->decl.unit;
	for (u = 0; u < A->nunits; u++) {
		uint32_t o = m.owner[u];
		const vs_live *l = o == VS_OWNER_NONE ? NULL : vs_replay_live_by_owner(r, o);
		if (o == VS_OWNER_HW || o == VS_OWNER_ALLOC || m.kind[u] == VS_UNIT_RETAINED ||
			(o != VS_OWNER_NONE && (!l || l->retained))) {
			lo = hi = u + 1;
			cost = 0;
			continue;
		}
		if (o != VS_OWNER_NONE && (u == lo || m.owner[u - 1] != o))
			cost += l->pl.granted;
		hi = u + 1;
		while (hi - lo > n) {
			uint32_t ol = m.owner[lo];
			if (ol != VS_OWNER_NONE && (lo + 1 >= hi || m.owner[lo + 1] != ol))
				cost -= vs_replay_live_by_owner(r, ol)->pl.granted;
			lo++;
		}
		if (hi - lo == n && cost < best && cost / A->decl.unit <= free_units)
			best = cost;
	}
	return best;
}

/* Random churn until 25 requests have failed with enough free bytes: each
 * one's bytes to move equal the unit-by-unit model's,
 * in OBJ tiles and in RAM heaps (boundary tags, a record table, bins) of
 * more than 1,048,576 bytes. */
static const struct {
	const char *arena, *strategy;
	unsigned max;
} whatif_cases[] = {
	{ "gba-obj", "gba-obj-first-fit", 4096 },
	{ "gba-obj", "gba-obj-buddy", 4096 },
	{ "ram size=1200000", "heap-first-fit", 60000 },
	{ "ram size=1200000", "heap-tracking", 60000 },
	{ "ram size=1200000", "heap-dlmalloc", 60000 },
};

START_TEST(what_if_matches_model)
{
	static char trace[1 << 20];
	char why[256], name[64];
	vs_test_replay t;
	vs_replay_config cfg;
	vs_results *x;
	unit_map m;
	uint64_t live[256], seed = 0x9E3779B97F4A7C15ull * (uint64_t)(_i + 1), fails = 0, checked = 0, seen;
	int n, nlive = 0, id = 1, step, rc = 1;

	n = snprintf(trace, sizeof trace, "vramsim-trace 1\narena a %s strategy=%s\n", whatif_cases[_i].arena,
		whatif_cases[_i].strategy);
	for (step = 0; step < 3000; step++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		if (nlive == 256 || (nlive && (seed >> 33) % 100 < 45)) {
			int k = (int)((seed >> 20) % (uint64_t)nlive);
			n += snprintf(trace + n, sizeof trace - (size_t)n, "free %llu\n", (unsigned long long)live[k]);
			live[k] = live[--nlive];
		} else {
			unsigned size = 32u + (unsigned)((seed >> 40) % whatif_cases[_i].max);
			n += snprintf(trace + n, sizeof trace - (size_t)n, "alloc %d %u\n", id, size);
			live[nlive++] = (uint64_t)id++;
		}
		ck_assert_int_lt(n, (int)sizeof trace - 64);
	}
	x = vs_results_new(NULL, NULL);
	ck_assert_ptr_nonnull(x);
	vs_replay_config_default(&cfg);
	vs_results_attach(x, &cfg);
	snprintf(name, sizeof name, "whatif-%d.trace", _i);
	ck_assert_ptr_nonnull(vs_test_replay_open(&t, trace, name, &cfg, why, sizeof why));
	m.owner = malloc((size_t)vs_replay_arena(t.r, 0)->nunits * sizeof *m.owner);
	m.kind = malloc(vs_replay_arena(t.r, 0)->nunits);
	ck_assert(m.owner && m.kind);
	while (checked < 25 && (rc = vs_replay_step(t.r)) > 0) {
		const vs_failure *f;
		seen = vs_results_failure_total(x);
		if (seen == fails)
			continue;
		fails = seen;
		f = vs_results_failure(x, vs_results_failure_count(x) - 1);
		if (f->kind != VS_FAIL_FRAGMENTED)
			continue;
		ck_assert_msg(f->to_move == model_to_move(t.r, 0, f->req.size, m), "%s line %llu: %llu bytes to move, "
			"the model says %llu", whatif_cases[_i].strategy, (unsigned long long)f->line,
			(unsigned long long)f->to_move, (unsigned long long)model_to_move(t.r, 0, f->req.size, m));
		checked++;
	}
	ck_assert_int_ge(rc, 0);
	ck_assert_msg(checked == 25, "%s: only %llu fragmentation failures", whatif_cases[_i].strategy,
		(unsigned long long)checked);
	free(m.owner);
	free(m.kind);
	vs_test_replay_close(&t);
	vs_results_free(x);
}
END_TEST

static Suite *results_suite(void)
{
	Suite *s = suite_create("results");
	TCase *tc = tcase_create("replay");

	tcase_add_test(tc, event_log);
	tcase_add_test(tc, series);
	tcase_add_test(tc, failures_and_tags);
	tcase_add_test(tc, outputs_all_or_none);
	tcase_add_test(tc, progress);
	tcase_add_test(tc, what_if_moved);
	tcase_add_loop_test(tc, what_if_matches_model, 0, (int)(sizeof whatif_cases / sizeof whatif_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(results_suite());
}
