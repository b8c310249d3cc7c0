/* SPDX-License-Identifier: Zlib */
/* test_cli.c - the vramsim command: exit codes, outputs, plug-ins. */
#include <stdarg.h>
#include <stdio.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "support.h"

static char out[65536], err[65536];

static int cli(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cli(const char *fmt, ...)
{
	char args[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	return vs_test_run_cli(args, out, sizeof out, err, sizeof err);
}

static const char *quickstart(void)
{
	static char path[512];

	snprintf(path, sizeof path, "%s/traces/obj-quickstart.trace", VS_SOURCE_DIR);
	return path;
}

START_TEST(version_and_help)
{
	static const char *const cmds[] = { "replay", "validate", "fmt", "strategies" };
	size_t i;

	ck_assert_int_eq(cli("--version"), 0);
	ck_assert_msg(strncmp(out, "vramsim ", 8) == 0, "%s", out);
	ck_assert_int_eq(cli("--help"), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: vramsim"));
	for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		ck_assert_int_eq(cli("%s --help", cmds[i]), 0);
		ck_assert_msg(strstr(out, "usage: vramsim ") != NULL, "%s --help: %s", cmds[i], out);
	}
	ck_assert_int_eq(cli("%s", ""), 2);
	ck_assert_int_eq(cli("frobnicate"), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown command 'frobnicate'"));
	ck_assert_int_eq(cli("replay --frob x"), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown option '--frob'"));
	ck_assert_int_eq(cli("replay"), 2);
	ck_assert_ptr_nonnull(strstr(err, "no trace given"));
}
END_TEST

START_TEST(replay_summary_and_json)
{
	cJSON *o, *a, *m;

	ck_assert_int_eq(cli("replay %s --strategy gba-obj-map", quickstart()), 0);
	ck_assert_ptr_nonnull(strstr(out, "arena obj: gba-obj, 32768 bytes at 0x06010000"));
	ck_assert_ptr_nonnull(strstr(out, "allocations     11 ok, 0 failed"));
	ck_assert_ptr_nonnull(strstr(out, "integrity       ok"));
	ck_assert_str_eq(err, "");

	ck_assert_int_eq(cli("replay %s --json", quickstart()), 0);
	o = cJSON_Parse(out);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq((int)cJSON_GetObjectItem(o, "events")->valuedouble, 17);
	a = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "arenas"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(a, "strategy")->valuestring, "gba-obj-map");
	m = cJSON_GetObjectItem(a, "metrics");
	ck_assert_int_eq((int)cJSON_GetObjectItem(m, "allocations")->valuedouble, 11);
	ck_assert_int_eq((int)cJSON_GetObjectItem(m, "live_bytes")->valuedouble, 7872);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(o, "ok")));
	cJSON_Delete(o);
}
END_TEST

START_TEST(replay_at_event)
{
	ck_assert_int_eq(cli("replay %s --at 4", quickstart()), 0);
	ck_assert_ptr_nonnull(strstr(out, "state after event 4"));
	ck_assert_ptr_nonnull(strstr(out, "live  0x06010000  64 bytes  id 3  sprite 8x16 4bpp  tag=coin  line 9"));
	ck_assert_ptr_nonnull(strstr(out, "free  0x06010080  32640 bytes"));
	ck_assert_int_eq(cli("replay %s --at 4 --dump", quickstart()), 0);
	ck_assert_ptr_nonnull(strstr(out, "   0 UCUC....."));
	ck_assert_int_eq(cli("replay %s --at 0", quickstart()), 2);
}
END_TEST

START_TEST(exit_codes)
{
	const char *misuse = vs_test_file(0, "misuse.trace",
		"vramsim-trace 1\narena obj gba-obj\nalloc 1 32\nfree 7\n");
	const char *bad = vs_test_file(1, "bad.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 9x9 4bpp\n");

	/* misuse is a warning, counted; --strict makes it fatal */
	ck_assert_int_eq(cli("replay %s", misuse), 0);
	ck_assert_ptr_nonnull(strstr(err, "misuse.trace:4: warning: unknown id: free of id 7"));
	ck_assert_ptr_nonnull(strstr(out, "diagnostics     1 (unknown id 1)"));
	ck_assert_int_eq(cli("replay %s --quiet", misuse), 0);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(cli("replay %s --strict", misuse), 1);
	ck_assert_ptr_nonnull(strstr(err, "misuse.trace:4: error: unknown id"));
	/* malformed input */
	ck_assert_int_eq(cli("replay %s", bad), 2);
	ck_assert_ptr_nonnull(strstr(err, "bad.trace:3:16: error: sprite: no OAM shape is 9x9 pixels"));
	ck_assert_int_eq(cli("validate %s", bad), 2);
	ck_assert_int_eq(cli("replay /nonexistent/x.trace"), 2);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.trace: cannot open"));
	/* unknown strategy, and one that cannot manage the arena */
	ck_assert_int_eq(cli("replay %s --strategy nope", misuse), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown strategy 'nope'"));
	ck_assert_int_eq(cli("replay %s --strategy obj=nope", misuse), 2);
	ck_assert_int_eq(cli("replay %s --strategy bg=gba-obj-map", misuse), 2);
	ck_assert_ptr_nonnull(strstr(err, "the trace has no arena 'bg'"));
	ck_assert_int_eq(cli("replay %s --strategy gba-obj-map:bogus=1", misuse), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown option 'bogus'"));
	/* a trace's options belong to the strategy it names, not to another */
	{
		const char *opt = vs_test_file(5, "opt.trace", "vramsim-trace 1\narena obj gba-obj options=bogus:1\nalloc 1 32\n");
		ck_assert_int_eq(cli("replay %s", opt), 2);
		ck_assert_ptr_nonnull(strstr(err, "strategy 'gba-obj-map' refused arena 'obj': unknown option 'bogus'"));
		ck_assert_int_eq(cli("replay %s --strategy gba-obj-first-fit", opt), 0);
	}
	ck_assert_int_eq(cli("validate %s", misuse), 0);
	ck_assert_ptr_nonnull(strstr(out, "valid trace, version 1, 1 arena, 2 events"));
}
END_TEST

START_TEST(fmt_writes_whole_files_only)
{
	char path[600], target[700];
	const char *messy = vs_test_file(2, "messy.trace",
		"# a comment\nvramsim-trace   1\narena obj gba-obj mode=0\n\nalloc 1 sprite 8x8 4bpp tag=a  # x\nfree 0x1\n");
	const char *broken = vs_test_file(3, "broken.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 32\nfree\n");
	struct stat st;
	FILE *fp;

	ck_assert_int_eq(cli("fmt %s", messy), 0);
	ck_assert_str_eq(out, "vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp tag=a\nfree 1\n");
	/* formatting in place */
	snprintf(path, sizeof path, "%s", messy);
	ck_assert_int_eq(cli("fmt %s -o %s", path, path), 0);
	fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq((int)fread(out, 1, sizeof out - 1, fp), (int)strlen("vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp tag=a\nfree 1\n"));
	fclose(fp);
	/* a malformed trace leaves no output file behind */
	snprintf(target, sizeof target, "%s.out", broken);
	remove(target);
	ck_assert_int_eq(cli("fmt %s -o %s", broken, target), 2);
	ck_assert_ptr_nonnull(strstr(err, "broken.trace:4:5: error: free: expected 'free ID'"));
	ck_assert_int_ne(stat(target, &st), 0);
	/* an unwritable output path is an error, exit 2 */
	ck_assert_int_eq(cli("fmt %s -o /nonexistent-dir/x.trace", messy), 2);
	ck_assert_ptr_nonnull(strstr(err, "cannot write /nonexistent-dir/x.trace"));
}
END_TEST

START_TEST(strategies_list)
{
	ck_assert_int_eq(cli("strategies"), 0);
	ck_assert_ptr_nonnull(strstr(out, "gba-obj-map"));
	ck_assert_ptr_nonnull(strstr(out, "gba-obj*"));
	ck_assert_int_eq(cli("strategies --plugin %s", VS_EXAMPLE_PLUGIN), 0);
	ck_assert_ptr_nonnull(strstr(out, "top-down-fit           gba-obj            example plug-in"));
}
END_TEST

START_TEST(plugin_replay)
{
	const char *t = vs_test_file(4, "plug.trace",
		"vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp\nalloc 2 sprite 16x16 8bpp\n");

	ck_assert_int_eq(cli("replay %s --plugin %s --strategy top-down-fit --at 2", t, VS_EXAMPLE_PLUGIN), 0);
	/* top down: the 32-byte sprite takes the last tile, the 8bpp one the last even run */
	ck_assert_msg(strstr(out, "live  0x06017fe0  32 bytes  id 1") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "live  0x06017ec0  256 bytes  id 2") != NULL, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "integrity       ok"));
	ck_assert_int_eq(cli("replay %s --plugin /nonexistent/p.so", t), 2);
	ck_assert_ptr_nonnull(strstr(err, "cannot load plug-in"));
	ck_assert_int_eq(cli("replay %s --plugin %s/traces/obj-quickstart.trace", t, VS_SOURCE_DIR), 2);
	ck_assert_int_eq(cli("replay %s --plugin %s --strategy top-down-fit:x=1", t, VS_EXAMPLE_PLUGIN), 2);
	ck_assert_ptr_nonnull(strstr(err, "top-down-fit takes no options"));
}
END_TEST

START_TEST(stdin_trace)
{
	char cmd[1024];
	int st;

	snprintf(cmd, sizeof cmd, "%s replay - < %s > /dev/null 2>&1", VS_VRAMSIM, quickstart());
	st = system(cmd);
	ck_assert_int_eq(WEXITSTATUS(st), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("vramsim");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, version_and_help);
	tcase_add_test(tc, replay_summary_and_json);
	tcase_add_test(tc, replay_at_event);
	tcase_add_test(tc, exit_codes);
	tcase_add_test(tc, fmt_writes_whole_files_only);
	tcase_add_test(tc, strategies_list);
	tcase_add_test(tc, plugin_replay);
	tcase_add_test(tc, stdin_trace);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
