/* SPDX-License-Identifier: Zlib */
/* test_diff.c - `vramsim diff` on two traces with known differences and on
 * two strategies over one trace: signed deltas, tags, failures in one run
 * only, tolerances and exit codes, JSON read back. */
#define _GNU_SOURCE /* mkfifo */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "support.h"
#include "render/render.h"

/* Pixels of the two difference colours in a --png picture. */
static void count_colours(const char *path, int *red, int *blue)
{
	vs_image im = vs_test_png(path);
	int x, y;

	*red = *blue = 0;
	for (y = 0; y < im.h; y++)
		for (x = 0; x < im.w; x++) {
			uint32_t p = vs_image_get(&im, x, y);
			*red += p == 0xE04040FFu;
			*blue += p == 0x4080F0FFu;
		}
	vs_image_fini(&im);
}

static char out[1 << 16], err[1 << 14];

/* Before: the hero and a 16 KiB boss fit. After: the boss grew to 24 KiB
 * and a second hero sprite came in, so the boss no longer fits (line 6). */
static const char before[] = "vramsim-trace 1\narena obj gba-obj\n"
	"alloc 1 512 tag=hero\nalloc 2 8K tag=level\nfree 2\nalloc 3 16K tag=boss\nfree 3\n";
static const char after[] = "vramsim-trace 1\narena obj gba-obj\n"
	"alloc 1 512 tag=hero\nalloc 2 8K tag=level\nalloc 4 512 tag=hero\nalloc 3 24K tag=boss\nfree 3\n";

START_TEST(two_traces)
{
	const char *a = vs_test_file(0, "before.trace", before), *b = vs_test_file(1, "after.trace", after);
	char args[2048];
	cJSON *j, *m, *tags, *onlyb;

	snprintf(args, sizeof args, "diff '%s' '%s' -s gba-obj-first-fit -q", a, b);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 1);
	ck_assert_msg(strstr(out, "  failures                          0              1           +1  worse\n"), "%s", out);
	ck_assert_msg(strstr(out, "  high_water                    16896           9216        -7680  better\n"), "%s", out);
	ck_assert_msg(strstr(out, "  hero                            512           1024         +512          0          0\n"),
		"%s", out);
	ck_assert_msg(strstr(out, "  boss                          16384              0       -16384          0          1\n"),
		"%s", out);
	ck_assert_msg(strstr(out, "failures only in B"), "%s", out);
	ck_assert_msg(strstr(out, "  obj        6       0      3        boss         24576                    out of memory\n"), "%s", out);
	ck_assert_msg(strstr(out, "failures paired by id: 0 only in A, 1 only in B"), "%s", out);
	ck_assert_msg(strstr(out, "result: B is worse"), "%s", out);

	/* one more failure allowed: no worse */
	snprintf(args, sizeof args, "diff '%s' '%s' -s gba-obj-first-fit -q --tolerance failures=0,1 "
		"--tolerance high_water=1", a, b);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(out, "worse, within tolerance"), "%s", out);

	snprintf(args, sizeof args, "diff '%s' '%s' -s gba-obj-first-fit -q --json", a, b);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 1);
	j = cJSON_Parse(out);
	ck_assert_ptr_nonnull(j);
	m = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "arenas"), 0), "metrics");
	ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "failures"), "delta")->valueint, 1);
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "failures"), "verdict")->valuestring, "worse");
	tags = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "arenas"), 0), "tags");
	ck_assert_int_eq(cJSON_GetArraySize(tags), 2); /* hero and boss moved, level did not */
	onlyb = cJSON_GetObjectItem(j, "failures_only_in_b");
	ck_assert_int_eq(cJSON_GetArraySize(onlyb), 1);
	ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(onlyb, 0), "id")->valueint, 3);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "b_worse")));
	cJSON_Delete(j);

	/* the other way round B fails less, and only its high-water mark grows */
	snprintf(args, sizeof args, "diff '%s' '%s' -s gba-obj-first-fit -q --tolerance high_water=1", b, a);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(out, "result: B is no worse than A"), "%s", out);
}
END_TEST

START_TEST(two_strategies_one_trace)
{
	char args[2048];
	int red, blue;

	snprintf(args, sizeof args, "diff '%s/traces/gba-boss-fight-1.trace' -s gba-obj-first-fit -s gba-obj-buddy -q",
		VS_SOURCE_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 1);
	ck_assert_msg(strstr(out, "B traces") || strstr(out, "obj=gba-obj-buddy"), "%s", out);
	ck_assert_msg(strstr(out, "failures paired by line: 1 only in A, 1 only in B"), "%s", out);
	ck_assert_msg(strstr(out, "  obj        9028    3169   2984     boss         sprite 64x64 4bpp        fragmented"),
		"%s", out);
	ck_assert_msg(strstr(out, "  obj        9030    3169   2986     boss         sprite 32x32 8bpp        fragmented"),
		"%s", out);
	snprintf(args, sizeof args, "diff '%s/traces/gba-boss-fight-1.trace' -s gba-obj-first-fit -s gba-obj-buddy -q "
		"--png '%s/diff.png'", VS_SOURCE_DIR, VS_BINARY_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 1);
	count_colours(VS_BINARY_DIR "/diff.png", &red, &blue);
	ck_assert_int_gt(red, 1000);
	ck_assert_int_gt(blue, 1000);
	/* the same strategy on both sides: nothing moved, nothing coloured */
	snprintf(args, sizeof args, "diff '%s/traces/gba-boss-fight-1.trace' -s gba-obj-buddy -s gba-obj-buddy -q "
		"--png '%s/diff.png'", VS_SOURCE_DIR, VS_BINARY_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	ck_assert_msg(strstr(out, "failures paired by line: 0 only in A, 0 only in B"), "%s", out);
	count_colours(VS_BINARY_DIR "/diff.png", &red, &blue);
	ck_assert_int_eq(red + blue, 0);
}
END_TEST

START_TEST(bad_usage)
{
	const char *a = vs_test_file(0, "before.trace", before);
	char args[2048];

	snprintf(args, sizeof args, "diff '%s'", a);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "one trace needs two sides"), "%s", err);
	snprintf(args, sizeof args, "diff '%s' '%s' '%s'", a, a, a);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	snprintf(args, sizeof args, "diff '%s' '%s' --match address", a, a);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	snprintf(args, sizeof args, "diff '%s' '%s' --tolerance nonsense=1", a, a);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	snprintf(args, sizeof args, "diff '%s' '%s'", a, vs_test_file(1, "bad.trace", "vramsim-trace 1\nalloc\n"));
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "bad.trace:2:"), "%s", err);
	/* a picture of the difference of other memories: a GBA sprite arena
	 * against a DS texture arena of one arena each (it was drawn, exit 0,
	 * the two arenas' labels over each other) */
	snprintf(args, sizeof args, "diff '%s' '%s' -q --png '%s'", VS_SOURCE_DIR "/traces/obj-quickstart.trace",
		vs_test_file(1, "tex.trace", "vramsim-trace 1\narena t ds-tex\nalloc 1 tex 8x8 16c\n"),
		vs_test_path("other.png"));
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "A and B have other arenas"), "%s", err);
	ck_assert(!vs_test_exists(vs_test_path("other.png")));
}
END_TEST

/* --png of a window: the two traces agree up to event 2, differ from 3. */
START_TEST(png_window)
{
	const char *a = vs_test_file(0, "before.trace", before), *b = vs_test_file(1, "after.trace", after);
	char args[2048];
	int red, blue;

	snprintf(args, sizeof args, "diff '%s' '%s' -q --png '%s/diff-win.png' --to 2", a, b, VS_BINARY_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 1);
	count_colours(VS_BINARY_DIR "/diff-win.png", &red, &blue);
	ck_assert_int_eq(red + blue, 0);
	snprintf(args, sizeof args, "diff '%s' '%s' -q --png '%s/diff-win.png' --from 3", a, b, VS_BINARY_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 1);
	count_colours(VS_BINARY_DIR "/diff-win.png", &red, &blue);
	ck_assert_int_gt(red, 1000);
	/* the figures are the whole runs' either way */
	ck_assert_msg(strstr(out, "B is worse"), "%s", out);
	snprintf(args, sizeof args, "diff '%s' '%s' -q --from 3", a, b);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "--from and --to choose the window of the --png picture"), "%s", err);
	snprintf(args, sizeof args, "diff '%s' '%s' -q --png '%s/diff-win2.png' --from 9", a, b, VS_BINARY_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "side A") && strstr(err, "--from 9 is past the trace's end: it has 5 events"), "%s",
		err);
	ck_assert_int_ne(access(VS_BINARY_DIR "/diff-win2.png", F_OK), 0);
	snprintf(args, sizeof args, "diff '%s' '%s' -q --png '%s/diff-win2.png' --from f:1", a, b, VS_BINARY_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "no frame statements"), "%s", err);
}
END_TEST

/* vramsim run by the shell after prefix (a pipe into it, a writer of a
 * FIFO started), stopped after 30 s: exit 124 is a hang. out and err as
 * vs_test_run_cli gives them. */
static int shell(const char *prefix, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int shell(const char *prefix, const char *fmt, ...)
{
	char args[2048], cmd[8192], o[1024], e[1024], *text;
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(o, sizeof o, "%s", vs_test_path("once.out"));
	snprintf(e, sizeof e, "%s", vs_test_path("once.err"));
	snprintf(cmd, sizeof cmd, "%s timeout 30 %s %s >'%s' 2>'%s'", prefix, VS_VRAMSIM, args, o, e);
	st = system(cmd);
	text = vs_test_slurp(o);
	snprintf(out, sizeof out, "%s", text);
	free(text);
	text = vs_test_slurp(e);
	snprintf(err, sizeof err, "%s", text);
	free(text);
	ck_assert(st != -1 && WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* Each of two traces is read once, so either may be a pipe or a FIFO (diff
 * read each twice: a FIFO hung, a pipe was "empty"); a trace both sides
 * read, one trace or one input given twice, is refused up front when it
 * cannot be read again, never hangs nor passes for an empty trace. */
START_TEST(traces_read_once)
{
	char a[1024], b[1024], ff[1024], feed[4096], files[sizeof out];

	/* copies: shell() takes paths of its own from the same slots */
	snprintf(a, sizeof a, "%s", vs_test_file(0, "before.trace", before));
	snprintf(b, sizeof b, "%s", vs_test_file(1, "after.trace", after));
	snprintf(ff, sizeof ff, "%s", vs_test_path("diff.fifo"));

	ck_assert_int_eq(vs_test_cli(files, sizeof files, err, sizeof err, "diff '%s' '%s' -q", a, b), 1);
	snprintf(feed, sizeof feed, "cat '%s' |", a);
	ck_assert_msg(shell(feed, "diff - '%s' -q", b) == 1, "%s", err);
	ck_assert_str_eq(out + strcspn(out, "\n"), files + strcspn(files, "\n")); /* the first line names A */
	snprintf(feed, sizeof feed, "cat '%s' |", b);
	ck_assert_msg(shell(feed, "diff '%s' - -q", a) == 1, "%s", err);
	ck_assert_int_eq(mkfifo(ff, 0600), 0);
	snprintf(feed, sizeof feed, "(timeout 30 cat '%s' >'%s' 2>/dev/null </dev/null &);", a, ff);
	ck_assert_msg(shell(feed, "diff '%s' '%s' -q", ff, b) == 1, "%s", err);
	ck_assert_msg(strstr(out, "result: B is worse"), "%s", out);
	/* read twice: refused before anything is read (no writer is needed) */
	snprintf(feed, sizeof feed, "cat '%s' |", a);
	ck_assert_int_eq(shell(feed, "diff - -q -s gba-obj-first-fit -s gba-obj-buddy"), 2);
	ck_assert_msg(strstr(err, "both sides read it: give a file, not '-'"), "%s", err);
	ck_assert_int_eq(shell(feed, "diff - - -q"), 2);
	ck_assert_msg(strstr(err, "A and B are one trace, read once for each: give a file, not '-'"), "%s", err);
	ck_assert_int_eq(shell(feed, "diff - /dev/stdin -q"), 2);
	ck_assert_msg(strstr(err, "not a FIFO (/dev/stdin)"), "%s", err);
	ck_assert_int_eq(shell("", "diff '%s' -q -s gba-obj-first-fit -s gba-obj-buddy", ff), 2);
	ck_assert_msg(strstr(err, "give a regular file, not a FIFO"), "%s", err);
	ck_assert_int_eq(shell("", "diff '%s' '%s' -q", ff, ff), 2);
	ck_assert_msg(strstr(err, "A and B are one trace") && strstr(err, "not a FIFO"), "%s", err);
	/* a regular file given twice is read twice, as before */
	ck_assert_int_eq(vs_test_cli(out, sizeof out, err, sizeof err, "diff '%s' '%s' -q", a, a), 0);
}
END_TEST

static Suite *diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("cli");

	tcase_add_test(tc, two_traces);
	tcase_add_test(tc, two_strategies_one_trace);
	tcase_add_test(tc, bad_usage);
	tcase_add_test(tc, png_window);
	tcase_add_test(tc, traces_read_once);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(diff_suite());
}
