/* SPDX-License-Identifier: Zlib */
/* test_cli.c - the vramsim command: exit codes, outputs, plug-ins, the
 * option syntax every command shares, completion. */
#include <stdio.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "support.h"

static char out[65536], err[65536];

#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

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
	ck_assert_ptr_null(strstr(err, "did you mean")); /* nothing near it */
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
	/* the state and the dump after it from one run (option_value_forms
	 * runs --at without --dump) */
	ck_assert_int_eq(cli("replay %s --at 4 --dump", quickstart()), 0);
	ck_assert_ptr_nonnull(strstr(out, "state after event 4"));
	ck_assert_ptr_nonnull(strstr(out, "live  0x06010000  64 bytes  id 3  sprite 8x16 4bpp  tag=coin  line 9"));
	ck_assert_ptr_nonnull(strstr(out, "free  0x06010080  32640 bytes"));
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
	/* options given on the command line: no place in the trace is named */
	ck_assert_ptr_null(strstr(err, ".trace:"));
	/* a trace's options belong to the strategy it names, not to another */
	{
		const char *opt = vs_test_file(5, "opt.trace", "vramsim-trace 1\narena obj gba-obj options=bogus:1\nalloc 1 32\n");
		ck_assert_int_eq(cli("replay %s", opt), 2);
		ck_assert_msg(strstr(err, "opt.trace:2:27: error: strategy 'gba-obj-map' refused arena 'obj': "
			"unknown option 'bogus'") != NULL, "%s", err);
		ck_assert_int_eq(cli("replay %s --strategy gba-obj-first-fit", opt), 0);
	}
	{
		const char *named = vs_test_file(5, "named.trace", "vramsim-trace 1\n# x\narena obj gba-obj strategy=nope\n");
		ck_assert_int_eq(cli("replay %s", named), 2);
		ck_assert_msg(strstr(err, "named.trace:3: error: arena 'obj' names unknown strategy 'nope'") != NULL, "%s",
			err);
	}
	{
		/* an init line's options are the trace's strategy's, as options= are;
		 * another strategy, or the command line's options, stay as set up */
		const char *in = vs_test_file(5, "init.trace", "vramsim-trace 1\narena obj gba-obj\n"
			"alloc 1 sprite 16x16 4bpp\ninit obj bogus=1\nalloc 2 sprite 16x16 4bpp\ninit obj\n"
			"alloc 3 sprite 16x16 4bpp\n");
		ck_assert_int_eq(cli("replay %s", in), 2);
		ck_assert_msg(strstr(err, "init.trace:4: error: strategy 'gba-obj-map' refused init") != NULL, "%s", err);
		ck_assert_int_eq(cli("replay %s --strategy gba-obj-first-fit", in), 0);
		ck_assert_int_eq(cli("replay %s --strategy gba-obj-compact:budget=7", in), 0);
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

/* The same command line with the value attached (--opt=value) or apart
 * (--opt value, -o value), and with options before or after operands. */
START_TEST(option_value_forms)
{
	static char first[65536];
	const char *forms[] = { "replay %s --at=4 --strategy=gba-obj-map", "replay %s --at 4 -s gba-obj-map",
		"replay --at 4 %s -sgba-obj-map", "replay -q --at 4 --strategy gba-obj-map %s" };
	size_t i;

	for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		ck_assert_int_eq(cli(forms[i], quickstart()), 0);
		ck_assert_ptr_nonnull(strstr(out, "state after event 4"));
		if (i == 0)
			snprintf(first, sizeof first, "%s", out);
		else
			ck_assert_str_eq(out, first);
	}
	ck_assert_int_eq(cli("compare %s --no-timing --format=csv -j2", quickstart()), 0);
	snprintf(first, sizeof first, "%s", out);
	ck_assert_int_eq(cli("compare --format csv --jobs 2 %s --no-timing", quickstart()), 0);
	ck_assert_str_eq(out, first);
	/* a value where none goes, none where one must */
	ck_assert_int_eq(cli("replay %s --json=1", quickstart()), 2);
	ck_assert_ptr_nonnull(strstr(err, "vramsim replay: --json takes no value"));
	ck_assert_int_eq(cli("replay %s --at", quickstart()), 2);
	ck_assert_ptr_nonnull(strstr(err, "vramsim replay: --at needs a value"));
}
END_TEST

/* "--" ends the options: what follows is an operand even if it starts with '-'. */
START_TEST(double_dash_ends_options)
{
	char path[600];

	/* a trace named like an option, in the folder vramsim runs in */
	ck_assert_int_eq(chdir(VS_BINARY_DIR "/tests"), 0);
	snprintf(path, sizeof path, "-dash-%ld.trace", (long)getpid());
	ck_assert_int_eq(cli("fmt %s -o ./%s", quickstart(), path), 0);
	ck_assert_int_eq(cli("validate %s", path), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown option"));
	ck_assert_int_eq(cli("validate -- %s", path), 0);
	ck_assert_ptr_nonnull(strstr(out, "valid trace"));
	ck_assert_int_eq(cli("replay -s gba-obj-map -- %s --json", path), 2);
	ck_assert_ptr_nonnull(strstr(err, "one trace at a time"));
	remove(path);
}
END_TEST

START_TEST(did_you_mean)
{
	ck_assert_int_eq(cli("replya %s", quickstart()), 2);
	ck_assert_msg(strstr(err, "vramsim: unknown command 'replya'; did you mean 'replay'?") != NULL, "%s", err);
	/* a command near none: version_and_help's frobnicate */
	ck_assert_int_eq(cli("replay %s --stratgy gba-obj-map", quickstart()), 2);
	ck_assert_msg(strstr(err, "vramsim replay: unknown option '--stratgy'; did you mean '--strategy'?") != NULL,
		"%s", err);
	ck_assert_int_eq(cli("compare %s --no-timming", quickstart()), 2);
	ck_assert_msg(strstr(err, "did you mean '--no-timing'?") != NULL, "%s", err);
	ck_assert_int_eq(cli("replay %s -s gba-obj-mpa", quickstart()), 2);
	ck_assert_msg(strstr(err, "unknown strategy 'gba-obj-mpa'") && strstr(err, "did you mean 'gba-obj-map'?"),
		"%s", err);
	ck_assert_int_eq(cli("compare %s -s obj=gba-obj-budy", quickstart()), 2);
	ck_assert_msg(strstr(err, "did you mean 'gba-obj-buddy'?") != NULL, "%s", err);
	ck_assert_int_eq(cli("replay %s -s zzzzzzzz", quickstart()), 2);
	ck_assert_ptr_null(strstr(err, "did you mean"));
	/* a prefix shared by several options is ambiguous, not a guess */
	ck_assert_int_eq(cli("compare %s --max 1", quickstart()), 2);
	ck_assert_msg(strstr(err, "'--max' is ambiguous: --max-failures, --max-peak-live") != NULL, "%s", err);
	/* options belong after the command */
	ck_assert_int_eq(cli("--strategy=gba-obj-map replay %s", quickstart()), 2);
	ck_assert_msg(strstr(err, "options go after it") != NULL, "%s", err);
	ck_assert_int_eq(cli("--verison"), 2);
	ck_assert_msg(strstr(err, "did you mean '--version'?") != NULL, "%s", err);
}
END_TEST

START_TEST(help_command)
{
	static const char *const cmds[] = { "replay", "validate", "fmt", "strategies", "compare", "render", "view",
		"gen", "import", "cycles", "record" };
	static char want[65536];
	size_t i;

	ck_assert_int_eq(cli("--help"), 0);
	snprintf(want, sizeof want, "%s", out);
	ck_assert_int_eq(cli("help"), 0);
	ck_assert_str_eq(out, want);
	for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		int rc = cli("%s --help", cmds[i]);
		snprintf(want, sizeof want, "%s", out);
		ck_assert_int_eq(cli("help %s", cmds[i]), rc);
		ck_assert_str_eq(out, want);
	}
	ck_assert_int_eq(cli("help replya"), 2);
	ck_assert_msg(strstr(err, "unknown command 'replya'; did you mean 'replay'?") != NULL, "%s", err);
	ck_assert_int_eq(cli("help replay compare"), 2);
}
END_TEST

/* Every option a command takes is in its --help: both come from its table. */
START_TEST(help_lists_every_option)
{
	static const char *const cmds[] = { "replay", "validate", "fmt", "strategies", "compare", "render", "view",
		"gen", "import", "cycles", "record" };
	static char opts[sizeof out];
	size_t i;

	for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char *o, *save = NULL;
		ck_assert_int_eq(cli("complete -- %s --", cmds[i]), 0);
		snprintf(opts, sizeof opts, "%s", out);
		if (cli("%s --help", cmds[i]) != 0)
			continue; /* a module this build has not */
		ck_assert_ptr_nonnull(strstr(opts, "--help\n"));
		for (o = strtok_r(opts, "\n", &save); o; o = strtok_r(NULL, "\n", &save))
			ck_assert_msg(strstr(out, o) != NULL, "%s --help does not list %s", cmds[i], o);
	}
}
END_TEST

/* An option of several commands has the same short form in each (--quiet
 * is -q, --strategy -s: record and capture had no -q, import no -s), read
 * from every command's --help. */
START_TEST(options_same_short_form_everywhere)
{
	static const char *const cmds[] = { "replay", "validate", "fmt", "strategies", "diff", "compare", "render",
		"view", "report", "gen", "import", "cycles", "record", "record x.nds", "capture", "capture x.nds", "play" };
	static struct { char name[40]; char shortf; const char *cmd; } seen[200];
	size_t i, n = 0, k;

	for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char *line, *save = NULL;
		if (cli("%s --help", cmds[i]) != 0)
			continue; /* a module this build has not */
		for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char shortf = 0, name[40];
			const char *p = line + strspn(line, " ");
			if (p == line)
				continue; /* option lines are indented */
			if (p[0] == '-' && p[1] != '-' && p[2] == ',' && p[3] == ' ') {
				shortf = p[1];
				p += 4;
			}
			if (p[0] != '-' || p[1] != '-' || sscanf(p + 2, "%39[a-z0-9-]", name) != 1)
				continue;
			for (k = 0; k < n && strcmp(seen[k].name, name) != 0; k++)
				;
			if (k == n) {
				ck_assert_uint_lt(n, sizeof seen / sizeof seen[0]);
				snprintf(seen[n].name, sizeof seen[n].name, "%s", name);
				seen[n].shortf = shortf;
				seen[n++].cmd = cmds[i];
				continue;
			}
			ck_assert_msg(seen[k].shortf == shortf, "--%s: '%c' in %s, '%c' in %s", name,
				seen[k].shortf ? seen[k].shortf : ' ', seen[k].cmd, shortf ? shortf : ' ', cmds[i]);
		}
	}
	ck_assert_uint_gt(n, 20); /* the help was read */
}
END_TEST

/* A comma list and repeated --strategy name the same choices. */
START_TEST(strategy_lists)
{
	static char first[65536];
	const char *ds = VS_SOURCE_DIR "/traces/ds-stream.trace";

	ck_assert_int_eq(cli("replay %s --json -s gba-obj-map,gba-obj-buddy", quickstart()), 0);
	snprintf(first, sizeof first, "%s", out);
	ck_assert_int_eq(cli("replay %s --json -s gba-obj-map -s gba-obj-buddy", quickstart()), 0);
	ck_assert_str_eq(out, first);
	ck_assert_int_eq(cli("compare %s --no-timing -s gba-obj-map,gba-obj-buddy", quickstart()), 0);
	snprintf(first, sizeof first, "%s", out);
	ck_assert_int_eq(cli("compare %s --no-timing -s gba-obj-map --strategy=gba-obj-buddy", quickstart()), 0);
	ck_assert_str_eq(out, first);
	ck_assert_ptr_nonnull(strstr(out, "gba-obj-buddy"));
	/* KEY=VALUE after a choice with options continues them */
	ck_assert_int_eq(cli("replay %s --json -s tex=nns-lnk-tex:size=0x80000,size4x4=0x40000,pal=nns-frm-pltt", ds), 0);
	snprintf(first, sizeof first, "%s", out);
	ck_assert_int_eq(cli("replay %s --json -s tex=nns-lnk-tex:size=0x80000,size4x4=0x40000 -s pal=nns-frm-pltt", ds),
		0);
	ck_assert_str_eq(out, first);
	ck_assert_ptr_nonnull(strstr(out, "\"nns-frm-pltt\""));
	ck_assert_int_eq(cli("compare %s --no-timing -s tex=nns-lnk-tex:size=0x80000,size4x4=0x40000,pal=nns-frm-pltt",
		ds), 0);
	ck_assert_ptr_nonnull(strstr(out, "nns-lnk-tex:size=0x80000,size4x4=0x40000"));
	ck_assert_ptr_nonnull(strstr(out, "nns-frm-pltt"));
}
END_TEST

/* A --strategy value that names nothing ("", ",", an empty piece) or
 * gives one option key twice is a usage error in every command that
 * takes the list: one reader, cli_choice.c. */
START_TEST(strategy_lists_refused)
{
	static const char *const cmds[] = { "replay %s", "compare %s --no-timing", "render %s -o %s", "diff %s" };
	static const struct { const char *value, *says; } bad[] = {
		{ "''", "--strategy '': an empty name" },
		{ ",", "--strategy ',': an empty name" },
		{ "gba-obj-map,", "--strategy 'gba-obj-map,': an empty name" },
		{ ",gba-obj-map", "an empty name" },
		{ "gba-obj-map,,gba-obj-snug", "an empty name" },
		{ "gba-obj-compact:budget=1,", "an empty name" },
		{ "gba-obj-compact:budget=1,budget=2", "--strategy 'gba-obj-compact:budget=1,budget=2': gba-obj-compact: "
			"option 'budget' given twice" },
		{ "obj=gba-obj-compact:budget=1,x=2,budget=1", "option 'budget' given twice" },
	};
	char cmd[1024], line[2048];
	const char *png = vs_test_path("refused.png");
	size_t c, i;

	for (c = 0; c < sizeof cmds / sizeof cmds[0]; c++)
		for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			snprintf(cmd, sizeof cmd, cmds[c], quickstart(), png);
			snprintf(line, sizeof line, "%s -s %s", cmd, bad[i].value);
			ck_assert_msg(cli("%s", line) == 2, "%s: exit 2 expected: %s", line, err);
			ck_assert_msg(strstr(err, bad[i].says) != NULL, "%s: '%s' should say '%s'", line, err, bad[i].says);
			ck_assert_msg(!vs_test_exists(png), "%s: wrote %s", line, png);
		}
	/* the forms that name something still work */
	ck_assert_int_eq(cli("replay %s -s gba-obj-compact:budget=1", quickstart()), 0);
	ck_assert_int_eq(cli("replay %s -s obj=gba-obj-compact:budget=1", quickstart()), 0);
}
END_TEST

/* A choice for an arena already chosen starts a second run. */
START_TEST(replay_two_runs)
{
	const char *misuse = vs_test_file(0, "runs.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 32\nfree 7\n");
	char cmd[2048];
	cJSON *o, *run;

	ck_assert_int_eq(cli("replay %s -s gba-obj-map -s gba-obj-buddy", quickstart()), 0);
	ck_assert_ptr_nonnull(strstr(out, "== run 1 of 2: gba-obj-map\ntrace "));
	ck_assert_ptr_nonnull(strstr(out, "\n\n== run 2 of 2: gba-obj-buddy\ntrace "));
	ck_assert_ptr_nonnull(strstr(out, "strategy gba-obj-map"));
	ck_assert_ptr_nonnull(strstr(out, "strategy gba-obj-buddy"));
	ck_assert_int_eq(cli("replay %s -s gba-obj-map,gba-obj-buddy --json", quickstart()), 0);
	o = cJSON_Parse(out);
	ck_assert(cJSON_IsArray(o));
	ck_assert_int_eq(cJSON_GetArraySize(o), 2);
	run = cJSON_GetArrayItem(o, 1);
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(run, "arenas"), 0),
		"strategy")->valuestring, "gba-obj-buddy");
	cJSON_Delete(o);
	/* one run: the single object, as always */
	ck_assert_int_eq(cli("replay %s -s gba-obj-buddy --json", quickstart()), 0);
	o = cJSON_Parse(out);
	ck_assert(cJSON_IsObject(o));
	cJSON_Delete(o);
	/* the worst exit status of the runs; standard input cannot be read twice */
	ck_assert_int_eq(cli("replay %s --strict -s gba-obj-map,gba-obj-buddy", misuse), 1);
	snprintf(cmd, sizeof cmd, "%s replay - -s gba-obj-map,gba-obj-buddy < %s 2>&1 | grep -q \"give a file, not '-'\"",
		VS_VRAMSIM, quickstart());
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(number_ranges)
{
	ck_assert_int_eq(cli("replay %s --at 99999999999999999999999", quickstart()), 2);
	ck_assert_ptr_nonnull(strstr(err, "--at: '99999999999999999999999' is not a number"));
	ck_assert_int_eq(cli("replay %s --at 4x", quickstart()), 2);
	ck_assert_int_eq(cli("replay %s --at -4", quickstart()), 2);
	ck_assert_int_eq(cli("replay %s --at 0x4", quickstart()), 0);
	ck_assert_int_eq(cli("compare %s -j 4097", quickstart()), 2);
	ck_assert_ptr_nonnull(strstr(err, "--jobs: '4097' is not a number from 1 to 4096"));
	ck_assert_int_eq(cli("gen sprite-churn --frames 10000001"), 2);
	ck_assert_int_eq(cli("gen sprite-churn --seed 18446744073709551616"), 2);
	ck_assert_int_eq(cli("import - --size 4097M"), 2);
	ck_assert_ptr_nonnull(strstr(err, "--size: '4097M' is not a number"));
	ck_assert_int_eq(cli("render %s --columns 9000", quickstart()), 2);
}
END_TEST

/* `vramsim complete`, which the bash script asks: commands, options and
 * strategy names from the tables and the registry. */
START_TEST(completion)
{
	static const struct { const char *words, *want; } cases[] = {
		{ "re", "replay\nrender\nreport\nrecord\n" },
		{ "help st", "strategies\n" },
		{ "replay x --st", "--strategy\n--strict\n" },
		{ "replay x -s gba-obj-b", "gba-obj-best-fit-end\ngba-obj-buddy\n" },
		{ "compare x --strategy=obj=gba-obj-bu", "--strategy=obj=gba-obj-buddy\n" },
		{ "compare x -s gba-obj-map,gba-obj-bu", "gba-obj-map,gba-obj-buddy\n" },
		{ "render x --heat o", "owner\noccupancy\n" },
		/* file names: the shell's */
		{ "replay tr", "" },
		{ "replay -- --st", "" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_int_eq(cli("complete -- %s", cases[i].words), 0);
		ck_assert_msg(strcmp(out, cases[i].want) == 0, "complete -- %s: %s", cases[i].words, out);
	}
	/* a plug-in named earlier on the line adds its strategies */
	ck_assert_int_eq(cli("complete -- replay --plugin %s -s top", VS_EXAMPLE_PLUGIN), 0);
	ck_assert_str_eq(out, "top-down-fit\n");
}
END_TEST

/* The bash script asks the binary and hands bash the part after '='. */
START_TEST(bash_completion_script)
{
	char cmd[2048];
	FILE *fp;
	size_t n;

	snprintf(cmd, sizeof cmd, "bash -c 'source %s/src/cli/vramsim.bash-completion; COMP_LINE=\"vramsim replay x "
		"--strategy=gba-obj-m\"; COMP_POINT=${#COMP_LINE}; _vramsim %s gba-obj-m \"\"; echo \"${COMPREPLY[*]}\"' "
		"2>&1", VS_SOURCE_DIR, VS_VRAMSIM);
	fp = popen(cmd, "r");
	ck_assert_ptr_nonnull(fp);
	n = fread(out, 1, sizeof out - 1, fp);
	out[n] = '\0';
	if (pclose(fp) != 0 && strstr(out, "not found"))
		return; /* no bash here */
	ck_assert_str_eq(out, "gba-obj-map\n");
}
END_TEST

/* Defects found by trying it: gen's DS generators without --frames, and
 * render's output names. */
START_TEST(small_defects)
{
	char dir[600], path[800], cmd[1400];
	struct stat st;

	/* ds-levels and ds-stream run their default frames, as their help says */
	ck_assert_int_eq(cli("gen --help"), 0);
	ck_assert_ptr_nonnull(strstr(out, "ds-levels "));
	ck_assert_ptr_nonnull(strstr(out, "(default 2400 frames)"));
	ck_assert_ptr_nonnull(strstr(out, "(default 2000 frames)"));
	{
		static const struct { const char *gen; int frames; } g[] = { { "ds-levels", 2400 }, { "ds-stream", 2000 } };
		size_t i, n;
		char *text = malloc(1 << 22);
		FILE *fp;
		ck_assert_ptr_nonnull(text);
		for (i = 0; i < 2; i++) {
			snprintf(path, sizeof path, "%s", vs_test_path("%s.trace", g[i].gen));
			ck_assert_int_eq(cli("gen %s -o %s", g[i].gen, path), 0);
			fp = fopen(path, "rb");
			ck_assert_ptr_nonnull(fp);
			n = fread(text, 1, (1 << 22) - 1, fp);
			text[n] = '\0';
			fclose(fp);
			remove(path);
			ck_assert_int_eq(vs_test_count_lines(text, "frame\n"), g[i].frames);
			ck_assert_ptr_nonnull(strstr(text, "alloc "));
		}
		free(text);
	}

	snprintf(dir, sizeof dir, "%s", vs_test_path("render"));
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", dir, dir);
	ck_assert_int_eq(system(cmd), 0);
	/* -o x.jpg is no directory to make: refused, nothing made */
	snprintf(path, sizeof path, "%s/x.jpg", dir);
	ck_assert_int_eq(cli("render %s -o %s", quickstart(), path), 2);
	ck_assert_ptr_nonnull(strstr(err, "render writes PNG"));
	ck_assert_int_ne(stat(path, &st), 0);
	/* but x.d/ is, and a trailing '/' makes no "//" */
	ck_assert_int_eq(cli("render %s --kind chart -o %s/x.d/", quickstart(), dir), 0);
	snprintf(path, sizeof path, "wrote %s/x.d/obj-quickstart-chart.png\n", dir);
	ck_assert_str_eq(out, path);
	ck_assert_ptr_null(strstr(out, "//"));
	/* one kind into a directory: the picture goes inside it */
	ck_assert_int_eq(cli("render %s --kind heatmap -o %s/x.d", quickstart(), dir), 0);
	snprintf(path, sizeof path, "%s/x.d/obj-quickstart-heatmap.png", dir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	/* a .PNG is a picture name in any case */
	snprintf(path, sizeof path, "%s/X.PNG", dir);
	ck_assert_int_eq(cli("render %s --kind occupancy -o %s", quickstart(), path), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("vramsim");
	/* a vramsim run for each command's and option's help: under the
	 * sanitizers 40% of the suite's time, so a ctest test of its own */
	TCase *help = vs_test_tcase_apart(s, "help", NULL);

	tcase_set_timeout(tc, 120);
	tcase_set_timeout(help, 120);
	tcase_add_test(tc, version_and_help);
	tcase_add_test(tc, replay_summary_and_json);
	tcase_add_test(tc, replay_at_event);
	tcase_add_test(tc, exit_codes);
	tcase_add_test(tc, fmt_writes_whole_files_only);
	tcase_add_test(tc, strategies_list);
	tcase_add_test(tc, plugin_replay);
	tcase_add_test(tc, stdin_trace);
	tcase_add_test(tc, option_value_forms);
	tcase_add_test(tc, double_dash_ends_options);
	tcase_add_test(tc, did_you_mean);
	tcase_add_test(help, help_command);
	tcase_add_test(help, help_lists_every_option);
	tcase_add_test(help, options_same_short_form_everywhere);
	tcase_add_test(tc, strategy_lists);
	tcase_add_test(tc, strategy_lists_refused);
	tcase_add_test(tc, replay_two_runs);
	tcase_add_test(tc, number_ranges);
	tcase_add_test(tc, completion);
	tcase_add_test(tc, bash_completion_script);
	tcase_add_test(tc, small_defects);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
