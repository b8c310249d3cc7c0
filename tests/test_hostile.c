/* SPDX-License-Identifier: Zlib */
/* test_hostile.c - input and output paths treated as hostile: no crash, no
 * hang, no unbounded memory, nothing written outside what was asked, no
 * silent success on nonsense. One test per class of the issue "No input
 * that breaks it": output paths (devices, FIFOs, links, several files
 * together), text echoed in messages, budgets and baselines, plug-ins,
 * unbounded inputs, numbers and lengths, memory, render and viewer on empty
 * or extreme input. Run under ASan/UBSan by tools/check. */
#define _GNU_SOURCE /* setenv, mkfifo, symlink, getrusage, kill */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/compiler_hints.h"

#if defined(VS_ASAN)
size_t __sanitizer_get_current_allocated_bytes(void); /* libasan (sanitizer/allocator_interface.h) */
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

#include "support.h"
#include "compare/compare.h"
#include "compare/baseline.h"
#include "compare/budget.h"
#include "console/common/input_script.h"
#include "render/render.h"
#include "engine/replay.h"
#include "vramsim/strategy.h"
#include "base/text.h"
#include "strategies/registry.h"
#include "render/history.h"

static char out[65536], err[65536];

static size_t read_bytes(const char *path, char *buf, size_t cap);

#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

/* Runs vramsim with these arguments (NULL-terminated) directly, no shell
 * and no length limit in between. */
static int run_v(const char *const *args)
{
	char o[600], e[600];
	const char *argv[64];
	pid_t pid;
	int st, n = 0;

	snprintf(o, sizeof o, "%s/tests/hostile-%ld-out", VS_BINARY_DIR, (long)getpid());
	snprintf(e, sizeof e, "%s/tests/hostile-%ld-err", VS_BINARY_DIR, (long)getpid());
	argv[n++] = VS_VRAMSIM;
	while (args[n - 1] && n < 63) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fi = open("/dev/null", O_RDONLY);
		if (fo < 0 || fe < 0 || fi < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0 || dup2(fi, 0) < 0)
			_exit(126);
		execv(VS_VRAMSIM, (char *const *)argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	read_bytes(o, out, sizeof out);
	read_bytes(e, err, sizeof err);
	remove(o);
	remove(e);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *quickstart(void)
{
	static char path[512];

	snprintf(path, sizeof path, "%s/traces/obj-quickstart.trace", VS_SOURCE_DIR);
	return path;
}

/* A path in a directory of this test's own (slot 0-7), emptied first. */
static const char *dir_path(void)
{
	static char dir[512];
	char cmd[1200];

	snprintf(dir, sizeof dir, "%s/tests/hostile-%ld", VS_BINARY_DIR, (long)getpid());
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	ck_assert_int_eq(system(cmd), 0);
	return dir;
}

static const char *in_dir(const char *dir, int slot, const char *name)
{
	static char paths[8][1024];

	snprintf(paths[slot & 7], sizeof paths[0], "%s/%s", dir, name);
	return paths[slot & 7];
}

static void write_bytes(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "wb");

	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(data, 1, len, fp), len);
	ck_assert_int_eq(fclose(fp), 0);
}

static size_t read_bytes(const char *path, char *buf, size_t cap)
{
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (!fp)
		return (size_t)-1;
	n = fread(buf, 1, cap - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return n;
}

/* How many entries of dir hold "tmp-" (temporary files left behind). */
static int temporaries(const char *dir)
{
	char cmd[1200];

	snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c tmp- >/dev/null", dir);
	return system(cmd) == 0;
}

/* Every byte printable, a newline or a tab, or part of valid UTF-8 that is
 * no control character: nothing in it can drive a terminal. */
static int printable(const char *s)
{
	size_t i = 0, n = strlen(s);

	while (i < n) {
		const unsigned char *u = (const unsigned char *)s + i;
		int len = vs_text_utf8_len(u, n - i);
		if (!len)
			return 0;
		if (len == 1 && ((u[0] < 0x20 && u[0] != '\n' && u[0] != '\t') || u[0] == 0x7F))
			return 0;
		if (len == 2 && u[0] == 0xC2 && u[1] <= 0x9F)
			return 0;
		i += (size_t)len;
	}
	return 1;
}

/* ---- output paths: devices, FIFOs, links, several files together ---------- */

/* A reader on a FIFO in a child: what it read goes to a file. */
static pid_t fifo_reader(const char *fifo, const char *into)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char buf[4096];
		int in = open(fifo, O_RDONLY), o = open(into, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ssize_t n;
		alarm(30);
		if (in < 0 || o < 0)
			_exit(1);
		while ((n = read(in, buf, sizeof buf)) > 0)
			if (write(o, buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	return pid;
}

START_TEST(output_paths)
{
	const char *dir = dir_path(), *canon = "vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp tag=a\n";
	const char *trace = in_dir(dir, 0, "t.trace"), *fifo = in_dir(dir, 1, "fifo"), *got = in_dir(dir, 2, "got");
	const char *target = in_dir(dir, 3, "target.trace"), *link = in_dir(dir, 4, "link.trace");
	char buf[4096], longpath[5200];
	struct stat st;
	pid_t pid;
	int status;

	write_bytes(trace, canon, strlen(canon));
	/* a FIFO is written through, and stays a FIFO */
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	pid = fifo_reader(fifo, got);
	ck_assert_int_eq(cli("fmt %s -o %s", trace, fifo), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	read_bytes(got, buf, sizeof buf);
	ck_assert_str_eq(buf, canon);
	/* a device is written through: /dev/full fails the write, exit 2, and is still the device */
	ck_assert_int_eq(cli("fmt %s -o /dev/full", trace), 2);
	ck_assert_msg(strstr(err, "cannot write /dev/full: No space left on device") != NULL, "%s", err);
	ck_assert_int_eq(stat("/dev/full", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	/* a link to a regular file: the file is replaced, the link stays a link, nothing left behind */
	write_bytes(target, "old\n", 4);
	ck_assert_int_eq(chmod(target, 0640), 0);
	ck_assert_int_eq(symlink("target.trace", link), 0);
	ck_assert_int_eq(cli("fmt %s -o %s", trace, link), 0);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	read_bytes(target, buf, sizeof buf);
	ck_assert_str_eq(buf, canon);
	ck_assert_int_eq(stat(target, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640); /* a replaced file keeps its permissions */
	ck_assert(!temporaries(dir));
	/* a link to nothing, a directory, a path too long: refused, nothing made */
	ck_assert_int_eq(symlink("nowhere.trace", in_dir(dir, 5, "dangling")), 0);
	ck_assert_int_eq(cli("fmt %s -o %s", trace, in_dir(dir, 5, "dangling")), 2);
	ck_assert_msg(strstr(err, "symbolic link to nothing") != NULL, "%s", err);
	ck_assert(!vs_test_exists(in_dir(dir, 6, "nowhere.trace")));
	ck_assert_int_eq(cli("fmt %s -o %s", trace, dir), 2);
	ck_assert_msg(strstr(err, "a directory") != NULL, "%s", err);
	memset(longpath, 'a', sizeof longpath - 1);
	longpath[sizeof longpath - 1] = '\0';
	memcpy(longpath, dir, strlen(dir));
	longpath[strlen(dir)] = '/';
	{
		const char *args[] = { "fmt", trace, "-o", longpath, NULL };
		ck_assert_int_eq(run_v(args), 2);
		ck_assert_msg(strstr(err, "at most 4095") != NULL, "%s", err);
	}
	ck_assert(!temporaries(dir));
}
END_TEST

/* render and compare write several files: all of them or none. */
START_TEST(several_outputs_all_or_none)
{
	const char *dir = dir_path(), *pics = in_dir(dir, 0, "pics");
	char path[2048], buf[64];

	/* the chart cannot be written (a link to /dev/full): no picture appears, the old heatmap stays */
	ck_assert_int_eq(mkdir(pics, 0777), 0);
	snprintf(path, sizeof path, "%s/obj-quickstart-chart.png", pics);
	ck_assert_int_eq(symlink("/dev/full", path), 0);
	snprintf(path, sizeof path, "%s/obj-quickstart-heatmap.png", pics);
	write_bytes(path, "old", 3);
	ck_assert_int_eq(cli("render %s -o %s", quickstart(), pics), 2);
	read_bytes(path, buf, sizeof buf);
	ck_assert_str_eq(buf, "old");
	snprintf(path, sizeof path, "%s/obj-quickstart-occupancy.png", pics);
	ck_assert(!vs_test_exists(path));
	ck_assert(!temporaries(pics));
	/* a picture path that is a directory is found before the replay: nothing written */
	snprintf(path, sizeof path, "%s/obj-quickstart-chart.png", pics);
	ck_assert_int_eq(remove(path), 0);
	ck_assert_int_eq(mkdir(path, 0777), 0);
	ck_assert_int_eq(cli("render %s -o %s", quickstart(), pics), 2);
	ck_assert_msg(strstr(err, "a directory") != NULL, "%s", err);
	snprintf(path, sizeof path, "%s/obj-quickstart-occupancy.png", pics);
	ck_assert(!vs_test_exists(path));
	/* and with every path fine, all three */
	ck_assert_int_eq(cli("render %s -o %s/all", quickstart(), dir), 0);
	snprintf(path, sizeof path, "%s/all/obj-quickstart-chart.png", dir);
	ck_assert(vs_test_exists(path));
	/* render that fails leaves no directory it made */
	ck_assert_int_eq(cli("render %s/none.trace -o %s/made", dir, dir), 2);
	snprintf(path, sizeof path, "%s/made", dir);
	ck_assert(!vs_test_exists(path));

	/* compare: the report to a file and the baseline, one of them fails: neither */
	ck_assert_int_eq(cli("compare %s --no-timing -o %s --write-baseline /dev/full", quickstart(),
		in_dir(dir, 1, "report.txt")), 2);
	ck_assert(!vs_test_exists(in_dir(dir, 1, "report.txt")));
	ck_assert_int_eq(cli("compare %s --no-timing -o %s --out json=%s", quickstart(), in_dir(dir, 1, "report.txt"),
		in_dir(dir, 2, "nodir/r.json")), 2);
	ck_assert(!vs_test_exists(in_dir(dir, 1, "report.txt")));
	/* the same path twice */
	ck_assert_int_eq(cli("compare %s --no-timing -o %s --out json=%s", quickstart(), in_dir(dir, 1, "report.txt"),
		in_dir(dir, 1, "report.txt")), 2);
	ck_assert(!vs_test_exists(in_dir(dir, 1, "report.txt")));
	ck_assert(!temporaries(dir));
}
END_TEST

/* ---- text from input echoed in messages ---------------------------------------- */

START_TEST(messages_escape_input)
{
	const char *dir = dir_path();
	static const char ctl[] = "vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp tag=a\x1b[2Jb\n";
	static const char bad[] = "vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp tag=\xff\xfe\n";
	static const char bom[] = "\xEF\xBB\xBFvramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 8x8 4bpp\n";
	static const char bombud[] = "\xEF\xBB\xBFvramsim-budgets 1\n* max-failures=100\n";
	static const char ctlbud[] = "vramsim-budgets 1\n* max-\x1b]0;x\x07=1\n";

	write_bytes(in_dir(dir, 0, "ctl.trace"), ctl, sizeof ctl - 1);
	ck_assert_int_eq(cli("validate %s", in_dir(dir, 0, "ctl.trace")), 2);
	ck_assert_msg(strstr(err, "ctl.trace:3:29: error: tag 'a\\x1b[2Jb' must be") != NULL, "%s", err);
	ck_assert(printable(err));
	write_bytes(in_dir(dir, 0, "bad.trace"), bad, sizeof bad - 1);
	ck_assert_int_eq(cli("validate %s", in_dir(dir, 0, "bad.trace")), 2);
	ck_assert_msg(strstr(err, "bad.trace:3:") && strstr(err, "invalid UTF-8"), "%s", err);
	ck_assert(printable(err));
	/* a file name with an escape sequence and a line break in it */
	ck_assert_int_eq(cli("replay '%s/a\x1b[31mb\nc\xff.trace'", dir), 2);
	ck_assert_msg(strstr(err, "a\\x1b[31mb\\x0ac\\xff.trace: cannot open") != NULL, "%s", err);
	ck_assert(printable(err));
	/* command-line values in usage errors */
	ck_assert_int_eq(cli("replay %s --strategy 'no\x1b[2Jpe'", quickstart()), 2);
	ck_assert_msg(strstr(err, "no\\x1b[2Jpe") != NULL, "%s", err);
	ck_assert(printable(err));
	ck_assert_int_eq(cli("'fr\x9b\x31mob'"), 2);
	ck_assert(printable(err));
	/* budget files */
	write_bytes(in_dir(dir, 1, "ctl.budgets"), ctlbud, sizeof ctlbud - 1);
	ck_assert_int_eq(cli("compare %s --budgets %s", quickstart(), in_dir(dir, 1, "ctl.budgets")), 2);
	ck_assert_msg(strstr(err, "unknown key 'max-\\x1b]0;x\\x07'") != NULL, "%s", err);
	ck_assert(printable(err));
	/* a byte order mark is accepted: traces, budget files, baselines */
	write_bytes(in_dir(dir, 2, "bom.trace"), bom, sizeof bom - 1);
	ck_assert_int_eq(cli("validate %s", in_dir(dir, 2, "bom.trace")), 0);
	write_bytes(in_dir(dir, 3, "bom.budgets"), bombud, sizeof bombud - 1);
	ck_assert_int_eq(cli("compare %s --no-timing --budgets %s", quickstart(), in_dir(dir, 3, "bom.budgets")), 0);
	ck_assert_int_eq(cli("compare %s --no-timing --write-baseline %s", quickstart(), in_dir(dir, 4, "base.json")), 0);
	{
		char text[1 << 16];
		size_t n = read_bytes(in_dir(dir, 4, "base.json"), text + 3, sizeof text - 3);
		memcpy(text, "\xEF\xBB\xBF", 3);
		write_bytes(in_dir(dir, 4, "base.json"), text, n + 3);
	}
	ck_assert_int_eq(cli("compare %s --no-timing --baseline %s", quickstart(), in_dir(dir, 4, "base.json")), 0);
	/* the escaping itself */
	{
		char e[64];
		vs_text_escape(e, sizeof e, "a\tb\nc\x7f\xc2\x9b\xe2\x82\xac\xed\xa0\x80", 14, 0);
		ck_assert_str_eq(e, "a\tb\\x0ac\\x7f\\xc2\\x9b\xe2\x82\xac\\xed\\xa0\\x80");
		vs_text_escape(e, 8, "\x1b\x1b\x1b", 3, 0);
		ck_assert_str_eq(e, "\\x1b");
	}
}
END_TEST

/* ---- budgets and baselines: marker, version, rules --------------------------- */

/* Found by tests/fuzz (fuzz_baseline): a baseline text shorter than a byte
 * order mark was compared past its end. Exact-size copies, so AddressSanitizer
 * sees any read past them. */
START_TEST(short_baseline_texts)
{
	static const char *const texts[] = { "", "\xEF", "\xEF\xBB", "{", "\xEF\xBB\xBF" };
	size_t i;

	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		size_t n = strlen(texts[i]) + 1;
		char *t = malloc(n), why[256];
		vs_baseline b;
		ck_assert_ptr_nonnull(t);
		memcpy(t, texts[i], n);
		ck_assert_int_eq(vs_baseline_parse(&b, t, "short.json", why, sizeof why), -1);
		ck_assert_ptr_nonnull(strstr(why, "short.json:1:"));
		free(t);
	}
}
END_TEST

START_TEST(budgets_and_baselines_need_their_marker)
{
	static const struct { const char *text, *says; } budgets[] = {
		{ "* max-failures=0\n", "not a vramsim budget file" },
		{ "vramsim-budgets 2\n* max-failures=0\n", "budget file version '2' is not supported" },
		{ "vramsim-budgets 99999999999999999999999\n* max-failures=0\n", "is not supported" },
		{ "vramsim-budgets\n* max-failures=0\n", "not a vramsim budget file" },
		{ "", "empty" },
		{ "# only a comment\n\n", "empty" },
		{ "vramsim-budgets 1\n# no rule\n", "no budget in the file" },
		{ "vramsim-budgets 1\n* max-failures=99999999999999999999\n", "is not a count" },
		{ "vramsim-budgets 1\n* max-peak-live=18446744073709551615M\n", "is not a byte count" },
		{ "vramsim-budgets 1\n* max-peak-live=17592186044415M\n", NULL },
		{ "vramsim-budgets 1\n* max-failures=1\0x\n", "NUL byte" },
	};
	static const struct { const char *text, *says; } bases[] = {
		{ "{\"rows\": [{\"trace\": \"t\", \"arena\": \"obj\", \"strategy\": \"s\", \"metrics\": {}}]}",
			"not a vramsim baseline" },
		{ "{\"vramsim_baseline\": 2, \"rows\": []}", "baseline version 2 is not supported" },
		{ "{\"vramsim_baseline\": \"1\", \"rows\": []}", "baseline version \"1\" is not supported" },
		{ "{\"vramsim_baseline\": 1, \"rows\": []}", "the baseline has no rows" },
		{ "{\"vramsim_baseline\": 1}", "no \"rows\" array" },
		{ "", "not valid JSON" },
		{ "{\"vramsim_baseline\": 1, \"rows\": [{\"trace\": \"t\", \"arena\": \"obj\", \"strategy\": \"s\", "
			"\"metrics\": {\"failures\": 1e30}}]}", "metric \"failures\" is not a whole number" },
		{ "{\"vramsim_baseline\": 1, \"rows\": [{\"trace\": \"t\", \"arena\": \"obj\", \"strategy\": \"s\", "
			"\"metrics\": {\"high_water\": 1e999}}]}", "metric \"high_water\"" },
		{ "{\"vramsim_baseline\": 1, \"rows\": [{\"trace\": \"t\", \"arena\": \"obj\", \"strategy\": \"s\", "
			"\"metrics\": {\"peak_frag\": 1.5}}]}", "from 0 to 1" },
		{ "{\"vramsim_baseline\": 1, \"rows\": [{\"trace\": \"t\\u001b[2J\", \"arena\": \"obj\", \"strategy\": \"s\", "
			"\"metrics\": {}}]}", "needs strings" },
	};
	const char *dir = dir_path(), *f = in_dir(dir, 0, "file");
	char why[2048];
	size_t i;

	/* Each file read by the loaders compare calls (vs_budget_list_load,
	 * vs_baseline_load), in this process; compare prints what they say and
	 * exits 2 whatever it is, which a vramsim run of the first file of
	 * each kind shows (a run for every file would take that path again). */
	for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
		size_t len = strlen(budgets[i].text);
		vs_budget_list b = { NULL, 0, 0 };
		if (i == sizeof budgets / sizeof budgets[0] - 1)
			len = sizeof "vramsim-budgets 1\n* max-failures=1\0x\n" - 1;
		write_bytes(f, budgets[i].text, len);
		why[0] = '\0';
		ck_assert_msg(vs_budget_list_load(&b, f, why, sizeof why) == (budgets[i].says ? -1 : 0), "budget %zu: %s",
			i, why);
		vs_budget_list_free(&b);
		if (budgets[i].says)
			ck_assert_msg(strstr(why, budgets[i].says) != NULL, "budget %zu: %s", i, why);
		if (i == 0) {
			ck_assert_int_eq(cli("compare %s --no-timing --budgets %s", quickstart(), f), 2);
			ck_assert_msg(strstr(err, budgets[i].says) != NULL, "budget %zu: %s", i, err);
		}
	}
	for (i = 0; i < sizeof bases / sizeof bases[0]; i++) {
		vs_baseline b;
		write_bytes(f, bases[i].text, strlen(bases[i].text));
		ck_assert_int_eq(vs_baseline_load(&b, f, why, sizeof why), -1);
		ck_assert_msg(strstr(why, bases[i].says) != NULL, "baseline %zu: %s", i, why);
		ck_assert(printable(why));
		if (i == 0) {
			ck_assert_int_eq(cli("compare %s --no-timing --baseline %s", quickstart(), f), 2);
			ck_assert_msg(strstr(err, bases[i].says) != NULL, "baseline %zu: %s", i, err);
			ck_assert(printable(err));
		}
	}
	/* a compare report is a baseline too */
	ck_assert_int_eq(cli("compare %s --no-timing -f json -o %s", quickstart(), f), 0);
	ck_assert_int_eq(cli("compare %s --no-timing --baseline %s", quickstart(), f), 0);
}
END_TEST

/* ---- plug-ins whose table is inconsistent --------------------------------------- */

static int op_init(void *st, const vs_arena_decl *a, const char *o, uint8_t *m, char *e, size_t n)
{
	(void)st, (void)a, (void)o, (void)m, (void)e, (void)n;
	return 0;
}
static int op_alloc(void *st, const vs_request *rq, vs_placement *p)
{
	(void)st, (void)rq, (void)p;
	return VS_ERR_NOSPACE;
}
static int op_free(void *st, const vs_placement *p)
{
	(void)st, (void)p;
	return VS_OK;
}
static void op_reset(void *st)
{
	(void)st;
}
static void op_walk(void *st, vs_extent_fn fn, void *ud)
{
	(void)st, (void)fn, (void)ud;
}
static int op_save(void *st, void *buf)
{
	(void)st, (void)buf;
	return 0;
}

#define GOOD(nm) { .abi = VS_STRATEGY_ABI, .name = nm, .summary = "fails everything", \
	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ), .state_size = 8, \
	.init = op_init, .alloc = op_alloc, .free = op_free, .reset = op_reset, .walk_free = op_walk }

/* The registry refuses what it cannot rely on, all of a table or none. */
START_TEST(plugin_tables_in_process)
{
	static vs_strategy bad[9] = { GOOD("hostile-ctl"), GOOD("hostile-sum"), GOOD("hostile-ops"), GOOD("hostile-ar"),
		GOOD("hostile-flags"), GOOD("hostile-save"), GOOD("hostile-state"), GOOD("Hostile-Case"),
		GOOD("hostile,comma") };
	static const vs_strategy good = GOOD("hostile-good"), good2 = GOOD("hostile-good");
	const vs_strategy *table[2];
	char e[512];
	size_t i, before = vs_strategy_count();

	bad[0].name = "hostile\x1b[2J";
	bad[1].summary = "sum\nmary";
	bad[2].free = NULL;
	bad[3].arenas = 1u << 30;
	bad[4].flags = 1u << 20;
	bad[5].save = op_save; /* no restore, no save_size */
	bad[6].state_size = (size_t)1 << 40;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		table[0] = &good;
		table[1] = &bad[i];
		ck_assert_int_eq(vs_strategy_register_all(table, 2, e, sizeof e), -1);
		ck_assert_msg(vs_text_clean(e, strlen(e)), "%zu: %s", i, e);
		/* all or none: the good one went in neither */
		ck_assert_uint_eq(vs_strategy_count(), before);
	}
	table[0] = &good;
	table[1] = NULL;
	ck_assert_int_eq(vs_strategy_register_all(table, 2, e, sizeof e), -1);
	ck_assert_ptr_nonnull(strstr(e, "NULL pointer"));
	table[1] = &good2;
	ck_assert_int_eq(vs_strategy_register_all(table, 2, e, sizeof e), -1);
	ck_assert_ptr_nonnull(strstr(e, "listed twice"));
	ck_assert_uint_eq(vs_strategy_count(), before);
	ck_assert_int_eq(vs_strategy_register_all(table, 1, e, sizeof e), 0);
	ck_assert_uint_eq(vs_strategy_count(), before + 1);
}
END_TEST

/* A plug-in whose table is chosen by $VS_HOSTILE_TABLE, built with the
 * compiler that built this tree. */
static const char plugin_src[] =
	"#include <stdlib.h>\n"
	"#include \"vramsim/strategy.h\"\n"
	"static int i_(void *s, const vs_arena_decl *a, const char *o, uint8_t *m, char *e, size_t n)\n"
	"{ (void)s; (void)a; (void)o; (void)m; (void)e; (void)n; return 0; }\n"
	"static int a_(void *s, const vs_request *r, vs_placement *p) { (void)s; (void)r; (void)p; return VS_ERR_NOSPACE; }\n"
	"static int f_(void *s, const vs_placement *p) { (void)s; (void)p; return VS_OK; }\n"
	"static void r_(void *s) { (void)s; }\n"
	"static void w_(void *s, vs_extent_fn f, void *u) { (void)s; (void)f; (void)u; }\n"
	"#define S(n, sum) { .abi = VS_STRATEGY_ABI, .name = n, .summary = sum, \\\n"
	"	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ), .state_size = 8, \\\n"
	"	.init = i_, .alloc = a_, .free = f_, .reset = r_, .walk_free = w_ }\n"
	"static const vs_strategy ok = S(\"plug-ok\", \"fine\"), ctl = S(\"plug\\033[2J\", \"x\"),\n"
	"	sum = S(\"plug-sum\", \"a\\nb\\033[31m\"), anon = S(0, \"no name\");\n"
	"static const vs_strategy *const one[] = { &ok }, *const holes[] = { &ok, 0, &ok },\n"
	"	*const named[] = { &ok, &ctl }, *const summed[] = { &sum }, *const nameless[] = { &ok, &anon };\n"
	"static const vs_plugin tables[] = {\n"
	"	{ VS_STRATEGY_ABI, \"fine\", 1, one },\n"
	"	{ VS_STRATEGY_ABI, \"holes\", 3, holes },\n"
	"	{ VS_STRATEGY_ABI, \"null\", 4, 0 },\n"
	"	{ VS_STRATEGY_ABI, \"empty\", 0, one },\n"
	"	{ VS_STRATEGY_ABI, \"huge\", (size_t)-1, one },\n"
	"	{ VS_STRATEGY_ABI, \"named\", 2, named },\n"
	"	{ VS_STRATEGY_ABI, \"summed\", 1, summed },\n"
	"	{ VS_STRATEGY_ABI, \"bad\\033]0;name\\007\", 1, one },\n"
	"	{ VS_STRATEGY_ABI + 7, \"abi\", 1, one },\n"
	"	{ VS_STRATEGY_ABI, \"nameless\", 2, nameless },\n"
	"};\n"
	"const vs_plugin *vramsim_plugin_v1(void);\n"
	"const vs_plugin *vramsim_plugin_v1(void)\n"
	"{ const char *t = getenv(\"VS_HOSTILE_TABLE\"); return t && *t == 'n' ? 0 : &tables[t ? atoi(t) : 0]; }\n";

/* The C compiler of this build tree, from its cache. */
static int compiler(char *cc, size_t len)
{
	char path[600], line[2048];
	FILE *fp;

	snprintf(path, sizeof path, "%s/CMakeCache.txt", VS_BINARY_DIR);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof line, fp))
		if (strncmp(line, "CMAKE_C_COMPILER:", 17) == 0 && strchr(line, '=')) {
			snprintf(cc, len, "%s", strchr(line, '=') + 1);
			cc[strcspn(cc, "\r\n")] = '\0';
			fclose(fp);
			return cc[0] ? 0 : -1;
		}
	fclose(fp);
	return -1;
}

/* Builds the plug-in source text as DIR/NAME.so (slot 1 of in_dir) with
 * the compiler that built this tree. */
static const char *build_plugin(const char *dir, const char *text, const char *name)
{
	char cc[1024], cmd[4096], file[256];
	const char *src, *so;

	/* the build tree that built this suite has one: not finding it is a bug */
	ck_assert_msg(compiler(cc, sizeof cc) == 0, "no CMAKE_C_COMPILER in %s/CMakeCache.txt", VS_BINARY_DIR);
	snprintf(file, sizeof file, "%s.c", name);
	src = in_dir(dir, 0, file);
	write_bytes(src, text, strlen(text));
	snprintf(file, sizeof file, "%s.so", name);
	so = in_dir(dir, 1, file);
	snprintf(cmd, sizeof cmd, "'%s' -shared -fPIC -I'%s/include' -o '%s' '%s'", cc, VS_SOURCE_DIR, so, src);
	ck_assert_int_eq(system(cmd), 0);
	return so;
}

START_TEST(plugin_tables_loaded)
{
	static const struct { const char *says; } tables[] = {
		{ NULL }, { "NULL pointer" }, { "at a NULL pointer" }, { "lists 0 strategies" },
		{ "lists 18446744073709551615 strategies" }, { "strategy name 'plug\\x1b[2J'" }, { "the summary" },
		{ "the plug-in's name" }, { "plug-in ABI" }, { "strategy 2 of 2 has no name (its name is NULL)" },
		/* "n": the entry point returns no table */
		{ "vramsim_plugin_v1() returned no table (NULL)" },
	};
	const char *so = build_plugin(dir_path(), plugin_src, "hostile");
	char idx[8];
	size_t i;

	for (i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		snprintf(idx, sizeof idx, "%zu", i);
		setenv("VS_HOSTILE_TABLE", i + 1 == sizeof tables / sizeof tables[0] ? "n" : idx, 1);
		if (!tables[i].says) {
			ck_assert_int_eq(cli("strategies --plugin %s", so), 0);
			ck_assert_ptr_nonnull(strstr(out, "plug-ok"));
			continue;
		}
		ck_assert_int_eq(cli("strategies --plugin %s", so), 2);
		ck_assert_msg(strstr(err, tables[i].says) != NULL, "table %zu: %s", i, err);
		ck_assert_msg(printable(err), "table %zu: %s", i, err);
		/* replay loads plug-ins as strategies does and stops the same way
		 * whichever table is bad: the first bad one shows it */
		if (i == 1)
			ck_assert_int_eq(cli("replay %s --plugin %s -s plug-ok", quickstart(), so), 2);
	}
	unsetenv("VS_HOSTILE_TABLE");
}
END_TEST

/* A plug-in that places well (first fit over OBJ tiles) but answers one
 * call wrongly, chosen by $VS_HOSTILE_CALL. */
static const char calls_src[] =
	"#include <limits.h>\n"
	"#include <stdint.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"#include \"vramsim/strategy.h\"\n"
	"typedef struct { uint8_t used[1024]; char how[16]; } st_t;\n"
	"static int is(const void *s, const char *how) { return !strcmp(((const st_t *)s)->how, how); }\n"
	"static int i_(void *st, const vs_arena_decl *a, const char *o, uint8_t *m, char *e, size_t n)\n"
	"{ st_t *s = st; const char *h = getenv(\"VS_HOSTILE_CALL\"); (void)a; (void)o; (void)m;\n"
	"  memset(s, 0, sizeof *s); strncpy(s->how, h ? h : \"\", sizeof s->how - 1);\n"
	"  if (!is(s, \"init-err\")) return 0;\n"
	"  memset(e, 'x', n); e[0] = 033; return -1; }\n" /* unterminated, with an escape */
	"static int a_(void *st, const vs_request *r, vs_placement *p)\n"
	"{ st_t *s = st; uint32_t n = (r->size + 31) / 32, i, k;\n"
	"  uint32_t step = r->shape == VS_REQ_SPRITE && r->u.sprite.bpp == 8 ? 2 : 1;\n"
	"  for (i = 0; n && i + n <= 1024; i += step) {\n"
	"    for (k = 0; k < n && !s->used[i + k]; k++) ;\n"
	"    if (k < n) continue;\n"
	"    memset(s->used + i, 1, n); p->offset = i * 32; p->granted = n * 32; p->key = i;\n"
	"    return is(s, \"alloc7\") ? 7 : is(s, \"alloc-100\") ? -100 : is(s, \"allocmin\") ? INT_MIN : VS_OK; }\n"
	"  return VS_ERR_NOSPACE; }\n"
	"static int f_(void *st, const vs_placement *p)\n"
	"{ st_t *s = st; memset(s->used + p->offset / 32, 0, p->granted / 32);\n"
	"  return is(s, \"free7\") ? 7 : is(s, \"free-99\") ? -99 : VS_OK; }\n"
	"static void r_(void *st) { memset(((st_t *)st)->used, 0, 1024); }\n"
	"static void w_(void *s, vs_extent_fn f, void *u) { (void)s; (void)f; (void)u; }\n"
	"static void d_(void *s, vs_print_fn p, void *u) { (void)s; p(u, 0); p(u, \"dumped\\n\"); }\n"
	"static size_t m_(void *s, vs_move *o, size_t max) { (void)o; (void)max; return is(s, \"moves\") ? SIZE_MAX : 0; }\n"
	"static size_t l_(void *s, uint32_t *o, size_t max)\n"
	"{ (void)o; (void)max; return is(s, \"released\") ? SIZE_MAX : 0; }\n"
	"static const vs_strategy calls = { .abi = VS_STRATEGY_ABI, .name = \"plug-calls\", .summary = \"first fit\",\n"
	"	.arenas = VS_ARENA_BIT(VS_ARENA_GBA_OBJ), .flags = VS_STRAT_NO_MEM, .state_size = sizeof(st_t),\n"
	"	.init = i_, .alloc = a_, .free = f_, .reset = r_, .walk_free = w_, .dump = d_, .moves = m_,\n"
	"	.released = l_ };\n"
	"static const vs_strategy *const one[] = { &calls };\n"
	"static const vs_plugin plugin = { VS_STRATEGY_ABI, \"calls\", 1, one };\n"
	"const vs_plugin *vramsim_plugin_v1(void);\n"
	"const vs_plugin *vramsim_plugin_v1(void) { return &plugin; }\n";

/* What a loaded strategy answers is not trusted either: a status vs_status
 * does not define is an integrity error naming the call and the code, a
 * NULL or an unterminated message handed back is tolerated, a list too long
 * to hold names the strategy; and the file itself is looked at before
 * dlopen (no FIFO, loaded once however often given). */
START_TEST(plugin_calls_loaded)
{
	static const struct { const char *how, *says; int rc; } calls[] = {
		{ "", NULL, 0 },
		{ "alloc7", "integrity: bad status: event 1, strategy plug-calls: alloc returned 7, which is no vs_status", 1 },
		{ "alloc-100", "alloc returned -100, which is no vs_status", 1 },
		{ "allocmin", "alloc returned -2147483648, which is no vs_status", 1 },
		{ "free7", "free returned 7, which is no vs_status", 1 },
		{ "free-99", "free returned -99, which is no vs_status", 1 },
		{ "init-err", "strategy 'plug-calls' refused arena 'obj': \\x1bxxx", 2 },
		{ "moves", "error: strategy 'plug-calls': its moves() said there are 18446744073709551615", 2 },
		{ "released", "error: strategy 'plug-calls': its released() said there are 18446744073709551615", 2 },
	};
	const char *dir = dir_path(), *so = build_plugin(dir, calls_src, "calls"), *fifo = in_dir(dir, 2, "fifo.so");
	const char *link = in_dir(dir, 3, "link.so");
	size_t i;

	for (i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		setenv("VS_HOSTILE_CALL", calls[i].how, 1);
		ck_assert_msg(cli("replay %s --plugin %s -s plug-calls", quickstart(), so) == calls[i].rc, "%s: %s",
			calls[i].how, err);
		if (calls[i].says)
			ck_assert_msg(strstr(err, calls[i].says) != NULL, "%s: %s", calls[i].how, err);
		ck_assert_msg(printable(err), "%s: %s", calls[i].how, err);
		/* init's unterminated message is read to errlen - 1 = 511 bytes, the
		 * escape and 510 x, and no further (ASan sees the read past it) */
		if (!strcmp(calls[i].how, "init-err"))
			ck_assert_int_le(vs_test_count(strstr(err, "\\x1b") + 4, "x"), 510);
		/* told once, as what it is: no "refused to free id 18: ?", no "out of memory" */
		ck_assert_msg(!strstr(err, "refused") || calls[i].rc == 2, "%s: %s", calls[i].how, err);
		ck_assert_msg(!strstr(err, "out of memory"), "%s: %s", calls[i].how, err);
	}
	/* a dump that hands print NULL goes on */
	setenv("VS_HOSTILE_CALL", "", 1);
	ck_assert_msg(cli("replay %s --plugin %s -s plug-calls --dump", quickstart(), so) == 0, "%s", err);
	ck_assert_msg(strstr(out, "dumped\n") != NULL, "%s", out);
	unsetenv("VS_HOSTILE_CALL");
	/* one file given twice, by any name, is loaded once */
	ck_assert_int_eq(symlink(so, link), 0);
	ck_assert_msg(cli("strategies --plugin %s --plugin %s --plugin %s", so, link, so) == 0, "%s", err);
	ck_assert_int_eq(vs_test_count(out, "plug-calls"), 1);
	/* no regular file: refused before dlopen, which would wait on a FIFO */
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(cli("strategies --plugin %s", fifo), 2);
	ck_assert_msg(strstr(err, "fifo.so: cannot load plug-in: not a regular file") != NULL, "%s", err);
	ck_assert_int_eq(cli("strategies --plugin %s/", dir), 2);
	ck_assert_msg(strstr(err, "cannot load plug-in: not a regular file") != NULL, "%s", err);
}
END_TEST

/* ---- unbounded inputs ------------------------------------------------------------ */

START_TEST(unbounded_inputs)
{
	const char *dir = dir_path(), *traces = in_dir(dir, 0, "traces");
	char path[2048];
	FILE *fp;
	int i;

	/* a map of endless size */
	ck_assert_int_eq(cli("gen side-scroller --frames 2 --map 0=/dev/zero -o %s", in_dir(dir, 1, "g.trace")), 2);
	ck_assert_msg(strstr(err, "a map is at most 4194304 cells") != NULL, "%s", err);
	ck_assert(!vs_test_exists(in_dir(dir, 1, "g.trace")));
	/* a raw map of an odd size: its last byte was dropped unsaid */
	{
		static unsigned char cells[2 * 32 * 32 + 1];
		memset(cells, 1, sizeof cells);
		for (i = 1; i < (int)sizeof cells; i += 2)
			cells[i] = 0;
		write_bytes(in_dir(dir, 2, "odd.bin"), (const char *)cells, sizeof cells);
		ck_assert_int_eq(cli("gen side-scroller --frames 2 --map 0=%s --map-width 32 -o %s", in_dir(dir, 2, "odd.bin"),
			in_dir(dir, 1, "g.trace")), 2);
		ck_assert_msg(strstr(err, "2049 bytes: a raw map is 16-bit cells") != NULL, "%s", err);
		ck_assert(!vs_test_exists(in_dir(dir, 1, "g.trace")));
		write_bytes(in_dir(dir, 2, "odd.bin"), (const char *)cells, sizeof cells - 1);
		ck_assert_msg(cli("gen side-scroller --frames 2 --map 0=%s --map-width 32 -o %s", in_dir(dir, 2, "odd.bin"),
			in_dir(dir, 1, "g.trace")) == 0, "%s", err);
	}
	/* a FIFO among the traces of a directory given to compare: refused, no hang */
	ck_assert_int_eq(mkdir(traces, 0777), 0);
	snprintf(path, sizeof path, "%s/a.trace", traces);
	write_bytes(path, "vramsim-trace 1\narena obj gba-obj\n", 34);
	snprintf(path, sizeof path, "%s/b.trace", traces);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(cli("compare %s --no-timing", traces), 2);
	ck_assert_msg(strstr(err, "not a FIFO (") && strstr(err, "b.trace)"), "%s", err);
	/* and a FIFO given to render or view, which read a trace more than once */
	ck_assert_int_eq(cli("render %s -o %s", path, dir), 2);
	ck_assert_msg(strstr(err, "not a FIFO") != NULL, "%s", err);
	/* endless budget files and baselines */
	ck_assert_int_eq(cli("compare %s --budgets /dev/zero", quickstart()), 2);
	ck_assert_ptr_nonnull(strstr(err, "NUL byte"));
	ck_assert_int_eq(cli("compare %s --baseline /dev/zero", quickstart()), 2);
	ck_assert_msg(strstr(err, "at most 64 MiB") != NULL, "%s", err);
	fp = fopen(in_dir(dir, 2, "long.budgets"), "w");
	ck_assert_ptr_nonnull(fp);
	for (i = 0; i < 100001; i++)
		fputs("#\n", fp);
	fclose(fp);
	ck_assert_int_eq(cli("compare %s --budgets %s", quickstart(), in_dir(dir, 2, "long.budgets")), 2);
	ck_assert_msg(strstr(err, "more than 100000 lines") != NULL, "%s", err);
	/* an endless input script (one of blank lines ends too) */
	{
		size_t n = VS_INPUT_MAX_LINES + 1;
		char *blank = malloc(n), e[512];
		vs_input_script sc;
		FILE *mem;
		ck_assert_ptr_nonnull(blank);
		memset(blank, '\n', n);
		mem = fmemopen(blank, n, "rb");
		ck_assert_int_eq(vs_input_script_read(mem, "blank", &sc, e, sizeof e), -1);
		ck_assert_msg(strstr(e, "more than 1000000 lines") != NULL, "%s", e);
		fclose(mem);
		free(blank);
		mem = fopen("/dev/zero", "rb");
		ck_assert_int_eq(vs_input_script_read(mem, "zero", &sc, e, sizeof e), -1);
		fclose(mem);
	}
	/* a trace of endless bytes: one line too long, not a hang */
	ck_assert_int_eq(cli("validate /dev/zero"), 2);
	ck_assert_ptr_nonnull(strstr(err, "longer than"));
}
END_TEST

/* ---- numbers past 64 bits, values and names too long ------------------------------ */

START_TEST(numbers_and_lengths)
{
	static const char *const too_big[] = {
		"render %s --at 18446744073709551616",
		"render %s --frame 99999999999999999999999",
		"compare %s --max-failures 18446744073709551616",
		"compare %s --max-high-water 0x10000000000000000",
		"compare %s --max-peak-live 18446744073709551615K",
		"compare %s --tolerance 1e999",
		"compare %s -j 18446744073709551617",
		"replay %s --at 18446744073709551616",
	};
	static const char *const traces[] = {
		"vramsim-trace 1\narena obj gba-obj\nalloc 18446744073709551616 32\n",
		"vramsim-trace 1\narena r ram size=4294967296\n",
		"vramsim-trace 1\narena r ram size=64K\nalloc 1 0x100000000\n",
		"vramsim-trace 1\narena r ram size=64K\nalloc 1 4194304M\n",
		"vramsim-trace 99999999999999999999\narena r ram\n",
	};
	const char *dir = dir_path();
	char big[6000];
	size_t i;

	for (i = 0; i < sizeof too_big / sizeof too_big[0]; i++) {
		char fmt[256];
		snprintf(fmt, sizeof fmt, too_big[i], quickstart());
		ck_assert_msg(cli("%s", fmt) == 2, "%s: %s", fmt, err);
	}
	ck_assert_int_eq(cli("gen sprite-churn --seed 18446744073709551616"), 2);
	/* a K suffix must not wrap a number past 64 bits back into range */
	ck_assert_int_eq(cli("replay %s/traces/ds-levels.trace --strategy pal=nns-lnk-pltt:size=18014398509481985K",
		VS_SOURCE_DIR), 2);
	ck_assert_msg(strstr(err, "want a number from 0 to") != NULL, "%s", err);
	ck_assert_int_eq(cli("replay %s/traces/gba-side-scroller-1.trace --strategy "
		"gba-bg-tiles-split:bytes4=18014398509481985K", VS_SOURCE_DIR), 2);
	ck_assert_msg(strstr(err, "option bytes4=18014398509481985K: want a number from 64 to 32768") != NULL, "%s", err);
	ck_assert_int_eq(cli("gen side-scroller --map-width 99999999999999999999999"), 2);
	for (i = 0; i < sizeof traces / sizeof traces[0]; i++) {
		const char *t = vs_test_file(0, "big.trace", traces[i]);
		ck_assert_msg(cli("validate %s", t) == 2, "%s", traces[i]);
	}
	/* values and names longer than a limit: refused, never cut */
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	big[300] = '\0';
	ck_assert_int_eq(cli("replay %s --strategy gba-obj-map:%s", quickstart(), big), 2);
	ck_assert_ptr_nonnull(strstr(err, "options too long"));
	ck_assert_int_eq(cli("replay %s --strategy %s", quickstart(), big), 2);
	ck_assert_int_eq(cli("replay %s --%s", quickstart(), big), 2);
	ck_assert_int_eq(cli("render %s --arena %s -o %s", quickstart(), big, dir), 2);
	{
		/* an option value past what a strategy reads: refused, not cut into a number */
		const char *t = vs_test_file(1, "heap.trace", "vramsim-trace 1\narena r ram size=64K\nalloc 1 16\n");
		char split[400];
		snprintf(split, sizeof split, "1/1/1/1/1/1/1/%0200d1", 0);
		ck_assert_int_eq(cli("replay %s --strategy heap-pow2-pools:split=%s", t, split), 2);
		ck_assert_msg(strstr(err, "(too long)") != NULL, "%s", err);
	}
	big[300] = 'x';
	big[1100] = '\0';
	ck_assert_int_eq(cli("compare %s", big), 2); /* a trace path over 1023 bytes */
	ck_assert_ptr_nonnull(strstr(err, "at most 1023 bytes"));
	big[1100] = 'x';
	big[5000] = '\0';
	{
		char path[6700];
		const char *gen[] = { "gen", "sprite-churn", "--frames", "1", "-o", path, NULL };
		const char *cmp[] = { "compare", quickstart(), "--no-timing", "-o", path, NULL };
		snprintf(path, sizeof path, "%s/%s", dir, big);
		ck_assert_int_eq(run_v(gen), 2);
		ck_assert_msg(strstr(err, "at most 4095") != NULL, "%s", err);
		ck_assert_int_eq(run_v(cmp), 2);
		ck_assert_msg(strstr(err, "at most 4095") != NULL, "%s", err);
	}
	ck_assert(!temporaries(dir));
}
END_TEST

/* ---- memory bounded by live allocations ------------------------------------------- */

/* Bytes of heap in use now: exact where the allocator tells (ASan's
 * quarantine would make resident memory grow with frees alone), else the
 * peak resident size. */
static long heap_kib(void)
{
#if defined(VS_ASAN)
	return (long)(__sanitizer_get_current_allocated_bytes() / 1024);
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 m = mallinfo2();
	return (long)((m.uordblks + m.hblkhd) / 1024);
#else
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
#endif
}

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* Hundreds of thousands of failing requests, never freed (the game got
 * nothing): the replay's memory does not grow with them, nor the history
 * render keeps. */
START_TEST(memory_bounded_by_live_allocations)
{
	enum { N = 600000, EARLY = 100000 };
	size_t cap = (size_t)N * 24 + 64, len;
	char *text = malloc(cap), e[512];
	vs_trace_reader *rd;
	vs_replay_config cfg;
	vs_history *hs;
	vs_replay *r;
	FILE *fp;
	long early;
	int i;

	ck_assert_ptr_nonnull(text);
	len = (size_t)snprintf(text, cap, "vramsim-trace 1\narena r ram size=4K\n");
	for (i = 1; i <= N; i++)
		len += (size_t)snprintf(text + len, cap - len, "alloc %d 65536\n", i);
	fp = fmemopen(text, len, "rb");
	ck_assert_ptr_nonnull(fp);
	rd = vs_trace_open_stream(fp, "fails", e, sizeof e);
	ck_assert_msg(rd != NULL, "%s", e);
	vs_replay_config_default(&cfg);
	cfg.message = quiet;
	hs = vs_history_new(64, 16);
	ck_assert_ptr_nonnull(hs);
	vs_history_attach(hs, &cfg);
	r = vs_replay_new(rd, &cfg, e, sizeof e);
	ck_assert_msg(r != NULL, "%s", e);
	ck_assert_int_ge(vs_replay_run(r, EARLY), 0);
	early = heap_kib();
	ck_assert_int_ge(vs_replay_run(r, 0), 0);
	ck_assert_uint_eq(vs_replay_metrics(r, 0)->failures, N);
	ck_assert_int_eq(vs_history_finish(hs, r), 0);
	ck_assert_uint_eq(vs_history_failure_count(hs, 0), N);
	{
		size_t nf;
		vs_history_failures(hs, 0, &nf);
		ck_assert_uint_le(nf, 65536);
	}
	/* an id table of every failure would be tens of MiB by now */
	ck_assert_msg(heap_kib() - early < 8 * 1024, "grew %ld KiB from event %d to %d", heap_kib() - early, EARLY, N);
	vs_replay_free(r);
	vs_history_free(hs);
	fclose(fp);
	free(text);

	/* distinct tags: bounded by a documented limit, exit 2 naming the line */
	{
		const char *dir = dir_path(), *t = in_dir(dir, 0, "tags.trace");
		FILE *tf = fopen(t, "w");
		ck_assert_ptr_nonnull(tf);
		fputs("vramsim-trace 1\narena r ram size=1M\n", tf);
		for (i = 1; i <= 70000; i++)
			fprintf(tf, "alloc %d 4 tag=t%d\nfree %d\n", i, i, i);
		fclose(tf);
		ck_assert_int_eq(cli("validate %s", t), 2);
		ck_assert_msg(strstr(err, "tags.trace:131075:") && strstr(err, "more than 65536 distinct tags"), "%s", err);
	}
	/* distinct state names too (each save keeps a state): 4096 of them
	 * saved over and over replay, one more is refused at its column */
	{
		const char *dir = dir_path(), *t = in_dir(dir, 0, "states.trace");
		FILE *tf = fopen(t, "w");
		ck_assert_ptr_nonnull(tf);
		fputs("vramsim-trace 1\narena r ram size=1M\nalloc 1 64\n", tf);
		for (i = 0; i < 40000; i++)
			fprintf(tf, "save s%d\n", i % 4096);
		fputs("alloc 2 64\nrestore s7\nfree 2\n", tf); /* id 2 went with the restore */
		fclose(tf);
		ck_assert_int_eq(cli("replay %s", t), 0);
		ck_assert_msg(strstr(out, "free of id 2, which is not live") || strstr(err, "free of id 2, which is not live"),
			"%s%s", out, err);
		tf = fopen(t, "a");
		ck_assert_ptr_nonnull(tf);
		fputs("save another-name\n", tf);
		fclose(tf);
		ck_assert_int_eq(cli("validate %s", t), 2);
		ck_assert_msg(strstr(err, "states.trace:40007:6: error: more than 4096 distinct state names"), "%s", err);
	}
}
END_TEST

/* A standard stream the caller closed (`>&-`, `<&-`): its use fails, said
 * once, exit 2; no file the run opens takes its number (an output landing
 * in the run's own spool or trace, exit 0, before). */
START_TEST(closed_standard_streams)
{
	const char *trace = VS_SOURCE_DIR "/traces/obj-quickstart.trace";
	const char *rep = vs_test_file(0, "s.rep", "20000\n2\n3\n1\na 0 100\na 1 200\nf 0\n");
	const struct { const char *cmd, *in; } writes[] = { { "fmt %s -o -", trace }, { "replay %s --events - -q", trace },
		{ "gen side-scroller --frames 20 -o -%s", "" }, { "import %s -o -", rep },
		{ "compare %s --no-timing -f csv", trace } };
	size_t i;

	for (i = 0; i < sizeof writes / sizeof writes[0]; i++) {
		char args[1024];
		snprintf(args, sizeof args, writes[i].cmd, writes[i].in);
		ck_assert_msg(cli("%s >&-", args) == 2, "%s: exit %d: %s", args, cli("%s >&-", args), err);
		ck_assert_msg(vs_test_count(err, "cannot write standard output: Bad file descriptor") == 1, "%s: %s", args, err);
		ck_assert_msg(cli("%s >/dev/full", args) == 2, "%s", args);
		ck_assert_msg(vs_test_count(err, "cannot write standard output") == 1, "%s: %s", args, err);
	}
	ck_assert_int_eq(cli("validate - <&-"), 2);
	ck_assert_msg(strstr(err, "<stdin>") != NULL, "%s", err);
}
END_TEST

/* ---- render and viewer on empty arenas, empty traces, extreme values --------- */

START_TEST(render_and_view_extremes)
{
	static const char *const traces[] = {
		"vramsim-trace 1\narena o gba-obj\narena b gba-bg\narena t ds-tex banks=A0\narena p ds-pltt banks=E0\n",
		"vramsim-trace 1\narena t ds-tex\narena p ds-pltt\n", /* no banks: nothing usable */
		"vramsim-trace 1\narena o gba-obj mode=3\nframe\nframe\n",
		"vramsim-trace 1\narena r ram size=64K\nalloc 1 1M\nalloc 2 2M\n", /* failures only */
	};
	static const char *const modes[] = { "", "--peak", "--peak-frag", "--at 99999999999", "--frame 18446744073709551615",
		"--columns 4 --rows 4", "--columns 8192 --rows 8192 --kind heatmap" };
	const char *dir = dir_path();
	char script[2048];
	size_t i, k;

	for (i = 0; i < sizeof traces / sizeof traces[0]; i++) {
		const char *t = vs_test_file(0, "empty.trace", traces[i]);
		for (k = 0; k < sizeof modes / sizeof modes[0]; k++) {
			int rc = cli("render %s %s -o %s/r%zu-%zu", t, modes[k], dir, i, k);
			int past = strncmp(modes[k], "--at", 4) == 0 || strncmp(modes[k], "--frame", 7) == 0;
			/* an event or frame past the end: an error, no picture */
			ck_assert_msg(rc == (past ? 2 : 0), "trace %zu, %s: exit %d: %s", i, modes[k], rc, err);
			ck_assert_msg(!past || strstr(err, "is past the trace's end"), "%s", err);
			ck_assert_msg(!strstr(err, "runtime error") && !strstr(err, "Sanitizer"), "%s", err);
		}
	}

	/* the viewer, when this build has it: extreme script values are refused or clamped, never UB */
	setenv("SDL_VIDEODRIVER", "dummy", 1);
	snprintf(script, sizeof script,
		"move 99999 -99999\nmove 9999999999999999999999 1\nclick timeline 9223372036854775807\n"
		"drag timeline 0 9223372036854775807\ndrag -100000 -100000 100000 100000\nhover 2 15 4294967295\n"
		"locate 1 0 4294967295\nseek 9223372036854775807\nseek 0\nresize 1 1\nresize 2048 2048\n"
		"resize 99999 99999\nwait -1\nwait 99999999999\nkey shift+ctrl+Nope\ntext %040d\n"
		"expect event -9223372036854775807\nexpect width 99999999999999999999999999\nprint\nquit\n", 0);
	for (i = 0; i < 2; i++) {
		const char *t = vs_test_file(0, "empty.trace", traces[i]);
		const char *sc = vs_test_file(1, "extreme.script", script);
		int rc = cli("view %s --script %s", t, sc);
		if (rc == 2 && strstr(err, "without"))
			return; /* no view module in this build */
		ck_assert_msg(rc == 1, "exit %d: %s", rc, err);
		ck_assert_msg(!strstr(err, "runtime error") && !strstr(err, "Sanitizer"), "%s", err);
		ck_assert_ptr_nonnull(strstr(out, "cannot read 'move 9999999999999999999999 1'"));
		ck_assert_ptr_nonnull(strstr(out, "cannot read 'wait -1'"));
		ck_assert_ptr_nonnull(strstr(out, "text longer than 31 bytes"));
	}
	/* a screenshot that cannot be written: an error, exit 2 */
	{
		const char *t = vs_test_file(0, "empty.trace", traces[0]);
		const char *sc = vs_test_file(1, "shot.script", "screenshot /nonexistent-dir/shot.png\nquit\n");
		ck_assert_int_eq(cli("view %s --script %s", t, sc), 2);
		ck_assert_msg(strstr(err, "shot.script:1: screenshot /nonexistent-dir/shot.png: cannot write "
			"/nonexistent-dir/shot.png") != NULL, "%s", err);
		sc = vs_test_file(1, "shot.script", "screenshot /dev/full\nquit\n");
		ck_assert_int_eq(cli("view %s --script %s", t, sc), 2);
		ck_assert_msg(strstr(err, "shot.script:1: screenshot /dev/full: cannot write /dev/full") != NULL, "%s",
			err);
	}
}
END_TEST

/* A folder given where a file is read, as every kind of input: exit 2 and
 * a message naming it and the reason (a budget and a baseline said "read
 * failed", a view script "read error", with no reason). */
START_TEST(inputs_that_are_folders)
{
	static const char *const runs[] = {
		"replay %s", "validate %s", "fmt %s", "diff %s %s", "import %s", "report %s -o %s/r.html",
		"compare --budget %s %s", "compare --baseline %s %s", "view --script %s %s", "cycles %s",
		"record %s.gba --frames 5 -o %s/o.trace", "capture %s.gba --frames 5 -o %s/o.trace",
		"record %s.nds --frames 5 -o %s/o.trace",
	};
	static const char *const folders[] = { "in", "game.gba", "game.nds" };
	const char *dir = dir_path(), *trace = quickstart();
	char folder[600], run[2000];
	size_t i;

	for (i = 0; i < sizeof folders / sizeof folders[0]; i++) {
		snprintf(folder, sizeof folder, "%s/%s", dir, folders[i]);
		ck_assert_int_eq(mkdir(folder, 0755), 0);
	}
	setenv("SDL_VIDEODRIVER", "dummy", 1);
	for (i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		const char *second = strstr(runs[i], "-o") ? dir : trace;
		int rc;
		/* a ROM's name ends in .gba or .nds: those runs get folder game */
		snprintf(folder, sizeof folder, "%s/%s", dir, strstr(runs[i], "%s.") ? "game" : "in");
		snprintf(run, sizeof run, runs[i], folder, second);
		rc = cli("%s", run);
		if (rc == 2 && strstr(err, "without"))
			continue; /* a module this build does not have */
		ck_assert_msg(rc == 2, "%s: exit %d: %s", run, rc, err);
		ck_assert_msg(strstr(err, "Is a directory") || strstr(err, "not a regular file"), "%s: %s", run, err);
		ck_assert_msg(strstr(err, dir) != NULL, "%s: the folder is not named: %s", run, err);
	}
}
END_TEST

/* A ROM, savestate, cycles ROM, DS core or module that is a FIFO is refused
 * at once (nothing writes to these: open and dlopen waited for ever), and
 * the ROM-kind probe of `complete` never opens one. Each run is under
 * `timeout 10`, so a hang fails here rather than stopping the suite. */
START_TEST(inputs_that_are_fifos)
{
	static const char *const runs[] = {
		"record %s/game --frames 5 -o %s/o.trace", "capture %s/game.gba --frames 5 -o %s/o.trace",
		"record %s/game.nds --frames 5 -o %s/o.trace", "capture %s/game.nds --frames 5 -o %s/o.trace",
	};
	static const char *const fifos[] = { "game", "game.gba", "game.nds", "cycles-thumb.gba", "cycles.nds",
		"vramsim-ds.so" };
	const char *dir = dir_path();
	char path[600], run[2000];
	size_t i;
	int rc;

	for (i = 0; i < sizeof fifos / sizeof fifos[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, fifos[i]);
		ck_assert_int_eq(mkfifo(path, 0600), 0);
	}
	/* tab completion of a FIFO's next word: nothing read, at once */
	ck_assert_int_eq(cli("--version >/dev/null && exec timeout 10 %s complete -- record %s/game ''", VS_VRAMSIM,
		dir), 0);
	for (i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		snprintf(run, sizeof run, runs[i], dir, dir);
		rc = cli("--version >/dev/null && exec timeout 10 %s %s", VS_VRAMSIM, run);
		if (rc == 2 && strstr(err, "without"))
			continue; /* a module this build does not have */
		ck_assert_msg(rc == 2, "%s: exit %d: %s", run, rc, err);
		ck_assert_msg(strstr(err, "/game") && strstr(err, ": cannot read: not a regular file"), "%s: %s", run, err);
	}
	/* the environment's paths: the cycles ROMs, a module's folder */
	rc = cli("--version >/dev/null && VRAMSIM_GBA_ROM_DIR=%s exec timeout 10 %s cycles %s", dir, VS_VRAMSIM,
		quickstart());
	if (!(rc == 2 && strstr(err, "without"))) {
		ck_assert_msg(rc == 2, "gba cycles: exit %d: %s", rc, err);
		ck_assert_msg(strstr(err, "cycles-thumb.gba: cannot read: not a regular file"), "%s", err);
	}
	rc = cli("--version >/dev/null && VRAMSIM_DS_ROM_DIR=%s exec timeout 10 %s cycles %s/traces/ds-sprites.trace",
		dir, VS_VRAMSIM, VS_SOURCE_DIR);
	ck_assert_msg(rc == 2, "ds cycles: exit %d: %s", rc, err);
	ck_assert_msg(strstr(err, "cycles.nds: cannot read: not a regular file"), "%s", err);
	rc = cli("--version >/dev/null && VRAMSIM_MODULE_DIR=%s exec timeout 10 %s record %s/game.nds --frames 5 "
		"-o %s/o.trace", dir, VS_VRAMSIM, dir, dir);
	ck_assert_msg(rc == 2, "module: exit %d: %s", rc, err);
	ck_assert_msg(strstr(err, "cannot load the ds module") &&
		strstr(err, "vramsim-ds.so: cannot read: not a regular file"), "%s", err);
}
END_TEST

/* An input path of any length: the message keeps its reason and the path's
 * end (its file name), the front dropped and marked. A path over 1023
 * bytes gave 1024 bytes of path and nothing after it. */
START_TEST(long_paths_keep_the_reason)
{
	static const char *const runs[] = {
		"replay %s.trace", "validate %s.trace", "fmt %s.trace", "render %s.trace -o %s", "report %s.trace -o %s.html",
		"diff %s %s.trace", "cycles %s.trace", "view --script %s.trace %s.trace", "gen side-scroller --map 0=%s.csv",
		"record %s.gba --frames 5 -o %s/o.trace", "capture %s.nds --frames 5 -o %s/o.trace", "import %s.rep",
		"fmt %s -o %s.trace",
	};
	const char *dir = dir_path(), *trace = quickstart();
	char longp[1400], run[4000];
	size_t i, n;
	int rc;

	n = (size_t)snprintf(longp, sizeof longp, "%s", dir);
	while (n < 1200)
		n += (size_t)snprintf(longp + n, sizeof longp - n, "/%s", "no-such-folder-of-forty-bytes-in-a-row");
	snprintf(longp + n, sizeof longp - n, "/in");
	setenv("SDL_VIDEODRIVER", "dummy", 1);
	for (i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		/* the long path is the input, or the output where the input is the trace */
		int out_only = strncmp(runs[i], "fmt %s -o", 9) == 0, second_in = strncmp(runs[i], "diff", 4) == 0;
		snprintf(run, sizeof run, runs[i], out_only || second_in ? trace : longp, out_only || second_in ? longp :
			strstr(runs[i], "view") ? longp : dir);
		rc = cli("%s", run);
		if (rc == 2 && strstr(err, "without"))
			continue; /* a module this build does not have */
		ck_assert_msg(rc == 2, "%s: exit %d: %s", runs[i], rc, err);
		ck_assert_msg(strstr(err, "No such file or directory\n"), "%s: no reason: %s", runs[i], err);
		ck_assert_msg(strstr(err, "no-such-folder-of-forty-bytes-in-a-row/in"), "%s: the path's end is not named: %s",
			runs[i], err);
		if (strncmp(runs[i], "import", 6) != 0) /* import prints it whole, straight to standard error */
			ck_assert_msg(strstr(err, VS_TEXT_CUT) && strlen(err) < 1000, "%s: %s", runs[i], err);
	}
	/* the shortening itself: whole characters, escapes included */
	{
		char e[24];
		ck_assert_uint_eq(vs_text_path(e, sizeof e, "/a/b/c.trace"), 12);
		ck_assert_str_eq(e, "/a/b/c.trace");
		vs_text_path(e, 10, "/aaaa/bb\xc3\xa9/c");
		ck_assert_str_eq(e, "...bb\xc3\xa9/c");
		vs_text_path(e, 7, "/aaaa/bb\xc3\xa9/c"); /* 3 bytes would split the character */
		ck_assert_str_eq(e, ".../c");
		vs_text_path(e, 10, "/aaaa/b\x1b/c");
		ck_assert_str_eq(e, "...\\x1b/c");
		vs_text_path(e, 9, "/aaaa/b\x1b/c"); /* never part of an escape */
		ck_assert_str_eq(e, ".../c");
		vs_text_path_msg(e, sizeof e, "/aaaa/bbbb/c", "cannot %s", "open");
		ck_assert_str_eq(e, ".../bbbb/c: cannot open");
	}
}
END_TEST

/* After a test that passed: its directory goes (one that failed keeps it). */
/* ---- names from the user in outputs ------------------------------------------ */

/* A copy of the quickstart trace at path. */
static void quickstart_at(const char *path)
{
	static char text[1 << 16];
	size_t n = read_bytes(quickstart(), text, sizeof text);

	ck_assert_uint_lt(n, sizeof text - 1);
	write_bytes(path, text, n);
}

/* Trace file names that would forge lines, markup or invalid documents;
 * the last three differ in one byte that JUnit once turned into a space. */
static const char *const hostile_names[] = {
	"x\nresult: ok\n.trace", "e\x1b[31m\r\x07\x7f.trace", "bad-\xff\xfe.trace", "c\xc2\x85.trace",
	"bt`<details>**result: ok**`.trace", "m\x01.trace", "m\x02.trace", "m .trace",
};
#define NHOSTILE ((int)(sizeof hostile_names / sizeof hostile_names[0]))

/* How many lines of text begin with prefix and hold needle. */
static int lines_with(const char *text, const char *prefix, const char *needle)
{
	int n = 0;

	while (*text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text);
		char line[4096];
		snprintf(line, sizeof line, "%.*s", (int)len, text);
		n += strncmp(line, prefix, strlen(prefix)) == 0 && strstr(line, needle) != NULL;
		text += len + (end != NULL);
	}
	return n;
}

/* Valid UTF-8 without a raw control character but newline and tab: what
 * JSON needs (DEL and U+0080-U+009F may stay as they are there). */
static int json_text(const char *s)
{
	size_t i = 0, n = strlen(s);

	while (i < n) {
		int len = vs_text_utf8_len((const unsigned char *)s + i, n - i);
		if (!len || ((unsigned char)s[i] < 0x20 && s[i] != '\n' && s[i] != '\t'))
			return 0;
		i += (size_t)len;
	}
	return 1;
}

START_TEST(names_stay_inert_in_outputs)
{
	const char *dir = dir_path();
	char path[1024], n[1024], doc[1 << 16];
	int i;

	snprintf(n, sizeof n, "%s/n", dir);
	ck_assert_int_eq(mkdir(n, 0777), 0);
	for (i = 0; i < NHOSTILE; i++) {
		snprintf(path, sizeof path, "%s/%s", n, hostile_names[i]);
		quickstart_at(path);
	}
	/* text: one row and one best line a trace, one result line */
	ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing", n), 0);
	ck_assert_msg(printable(out), "%s", out);
	ck_assert_int_eq(vs_test_count_lines(out, "result:"), 1);
	ck_assert_int_eq(vs_test_count_lines(out, "best "), NHOSTILE);
	ck_assert_int_eq(lines_with(out, n, " gba-obj-map "), NHOSTILE);
	ck_assert_msg(strstr(out, "/n/x\\x0aresult: ok\\x0a.trace ") &&
		strstr(out, "/n/e\\x1b[31m\\x0d\\x07\\x7f.trace ") && strstr(out, "/n/bad-\\xff\\xfe.trace ") &&
		strstr(out, "/n/c\\xc2\\x85.trace "), "%s", out);
	/* Markdown: one table row a trace; a backtick closes no code span */
	ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing -f markdown", n), 0);
	ck_assert_msg(printable(out), "%s", out);
	ck_assert_int_eq(vs_test_count_lines(out, "| "), NHOSTILE + 1);
	ck_assert_int_eq(vs_test_count_lines(out, "- "), NHOSTILE);
	ck_assert_int_eq(vs_test_count_lines(out, "result:"), 0);
	snprintf(path, sizeof path, "\n- ``%s/bt`<details>**result: ok**`.trace`` obj: **gba-obj-map** - ", n);
	ck_assert_msg(strstr(out, path) != NULL, "%s", out);
	snprintf(path, sizeof path, "\n| %s/bt\\`\\<details\\>\\*\\*result: ok\\*\\*\\`.trace | obj |", n);
	ck_assert_msg(strstr(out, path) != NULL, "%s", out);
	ck_assert_int_eq(vs_test_count(out, "\\\\x0a"), 2); /* the table cell: \x0a shown, its backslash escaped */
	/* JSON: valid UTF-8, a bad byte as U+FFFD, a control character as \u00NN */
	snprintf(path, sizeof path, "%s/c.json", dir);
	ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing -f json -o %s", n, path), 0);
	ck_assert_uint_lt(read_bytes(path, doc, sizeof doc), sizeof doc - 1);
	ck_assert(json_text(doc));
	ck_assert_ptr_nonnull(strstr(doc, "/n/bad-\xEF\xBF\xBD\xEF\xBF\xBD.trace\""));
	ck_assert_ptr_nonnull(strstr(doc, "/n/x\\nresult: ok\\n.trace\""));
	ck_assert_ptr_nonnull(strstr(doc, "/n/m\\u0001.trace\""));
	/* JUnit: well-formed (no byte XML refuses), every trace a suite of its own */
	snprintf(path, sizeof path, "%s/c.xml", dir);
	ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing -f junit -o %s", n, path), 0);
	ck_assert_uint_lt(read_bytes(path, doc, sizeof doc), sizeof doc - 1);
	ck_assert_msg(printable(doc), "%s", doc);
	ck_assert_int_eq(vs_test_count_lines(doc, "  <testsuite name="), NHOSTILE);
	ck_assert_int_eq(vs_test_count(doc, "/n/m\\x01.trace\""), 1);
	ck_assert_int_eq(vs_test_count(doc, "/n/m\\x02.trace\""), 1);
	ck_assert_int_eq(vs_test_count(doc, "/n/m .trace\""), 1);
	ck_assert_int_eq(vs_test_count(doc, "/n/bad-\\xff\\xfe.trace\""), 1);
	/* --changes-only: the new rows, one line each */
	snprintf(path, sizeof path, "%s/b.json", dir);
	ck_assert_int_eq(cli("compare %s -s gba-obj-map --no-timing --write-baseline %s", quickstart(), path), 0);
	ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing --baseline %s --changes-only", n, path), 0);
	ck_assert_msg(printable(out), "%s", out);
	ck_assert_int_eq(vs_test_count_lines(out, "result:"), 1);
	snprintf(path, sizeof path, "  %s/", n);
	ck_assert_int_eq(lines_with(out, path, " gba-obj-map"), NHOSTILE);
	snprintf(path, sizeof path, "%s/b.json", dir);
	ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing --baseline %s --changes-only -f markdown", n, path),
		0);
	ck_assert_msg(printable(out), "%s", out);
	snprintf(path, sizeof path, "| %s/", n);
	ck_assert_int_eq(lines_with(out, path, "gba-obj-map"), 2 * NHOSTILE); /* new rows, the full table */
	ck_assert_int_eq(vs_test_count(out, "</details>"), 1); /* the full table's fold */
}
END_TEST

START_TEST(names_stay_inert_in_budgets_and_commands)
{
	const char *dir = dir_path();
	char path[1024], bud[1024], trace[1024];
	static const char budgets[] = "vramsim-budgets 1\n*\x1b[2J* max-high-water=1K\n*zz\xff* max-failures=0\n";

	snprintf(trace, sizeof trace, "%s/x\x1b[2J\nresult: ok\n.trace", dir);
	quickstart_at(trace);
	snprintf(bud, sizeof bud, "%s/b\nresult: ok\n.txt", dir);
	write_bytes(bud, budgets, sizeof budgets - 1);
	/* budget globs and file names: in the text and Markdown outputs and on stderr */
	ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing --budgets '%s'", trace, bud), 1);
	ck_assert_msg(printable(out), "%s", out);
	ck_assert_int_eq(vs_test_count_lines(out, "result:"), 1);
	ck_assert_int_eq(vs_test_count_lines(out, "  BROKEN "), 1);
	ck_assert_int_eq(vs_test_count_lines(out, "  NO ROW "), 1);
	ck_assert_msg(strstr(out, "/b\\x0aresult: ok\\x0a.txt:3; trace *zz\\xff*): matched no row\n") != NULL, "%s", out);
	ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing --budgets '%s' -f markdown", trace, bud), 1);
	ck_assert_msg(printable(out), "%s", out);
	ck_assert_int_eq(vs_test_count_lines(out, "- :x: "), 2);
	ck_assert_int_eq(vs_test_count_lines(out, "result:"), 0);
	snprintf(path, sizeof path, "%s/c.json", dir);
	ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing --budgets '%s' -f json -o %s", trace, bud, path), 1);
	ck_assert_msg(printable(err), "%s", err);
	ck_assert_int_eq(vs_test_count_lines(err, "vramsim compare: budget "), 2);
	ck_assert_int_eq(vs_test_count_lines(err, "result:"), 0);
	/* a strategy's options */
	ck_assert_int_eq(cli("compare '%s' -s 'gba-obj-compact:budget=3\nresult: ok' --no-timing", trace), 2);
	ck_assert_msg(printable(err), "%s", err);
	ck_assert_int_eq(vs_test_count_lines(err, "result:"), 0);
	ck_assert_int_eq(vs_test_count_lines(err, "vramsim compare: "), 2);
	/* replay, diff and render print paths */
	ck_assert_int_eq(cli("replay '%s'", trace), 0);
	ck_assert_msg(printable(out), "%s", out);
	ck_assert_int_eq(vs_test_count_lines(out, "result:"), 0);
	ck_assert_msg(strstr(out, "trace ") == out && strstr(out, "/x\\x1b[2J\\x0aresult: ok\\x0a.trace\n"), "%s", out);
	ck_assert_int_eq(cli("diff %s '%s'", quickstart(), trace), 0);
	ck_assert_msg(printable(out), "%s", out);
	ck_assert_int_eq(vs_test_count_lines(out, "result: ok"), 0);
	ck_assert_ptr_nonnull(strstr(out, "/x\\x1b[2J\\x0aresult: ok\\x0a.trace: obj=gba-obj-map\n"));
	snprintf(path, sizeof path, "%s/bad-\xff.trace", dir);
	quickstart_at(path);
	ck_assert_int_eq(cli("diff %s '%s' --json", quickstart(), path), 0);
	ck_assert(json_text(out));
	ck_assert_ptr_nonnull(strstr(out, "/bad-\xEF\xBF\xBD.trace: obj=gba-obj-map\""));
	ck_assert_int_eq(cli("render %s --kind chart -o '%s/r\nresult: ok.png'", quickstart(), dir), 0);
	ck_assert_msg(printable(out), "%s", out);
	ck_assert_int_eq(vs_test_count_lines(out, "result:"), 0);
	ck_assert_ptr_nonnull(strstr(out, "/r\\x0aresult: ok.png\n"));
}
END_TEST

/* A baseline written is one --baseline reads back: a name it would refuse
 * is refused when writing, and nothing is written. */
START_TEST(baseline_names_read_back)
{
	static const char *const names[] = {
		"bell\x07", "cr\r", "lf\n", "esc\x1b", "del\x7f", "nel\xc2\x85", "bad\xff", "plain `<*|>`",
	};
	const char *dir = dir_path();
	char sub[1024], path[1024], base[1024];
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		int plain = i == sizeof names / sizeof names[0] - 1;
		snprintf(sub, sizeof sub, "%s/%zu", dir, i);
		ck_assert_int_eq(mkdir(sub, 0777), 0);
		snprintf(path, sizeof path, "%s/%s.trace", sub, names[i]);
		quickstart_at(path);
		snprintf(base, sizeof base, "%s/b%zu.json", dir, i);
		ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing --write-baseline %s", sub, base),
			(plain ? 0 : 2));
		ck_assert_int_eq(vs_test_exists(base), plain);
		ck_assert_msg(printable(err), "%s", err);
		if (!plain) {
			ck_assert_int_eq(vs_test_count_lines(err, "vramsim compare: --write-baseline: "), 1);
			ck_assert_msg(strstr(err, "nothing written\n") != NULL, "%s", err);
			ck_assert_str_eq(out, "");
			continue;
		}
		ck_assert_int_eq(cli("compare '%s' -s gba-obj-map --no-timing --baseline %s", sub, base), 0);
		ck_assert_ptr_nonnull(strstr(out, "baseline: 1 rows compared, 0 regressions"));
	}
}
END_TEST

static void remove_dir(void)
{
	char cmd[1200];

	snprintf(cmd, sizeof cmd, "rm -rf '%s/tests/hostile-%ld'", VS_BINARY_DIR, (long)getpid());
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove the test's directory\n");
}

static Suite *suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *tc = tcase_create("hostile");
	/* a vramsim run for each of 28 renders and 5 views: under the
	 * sanitizers half the suite's time, so a ctest test of its own */
	TCase *extremes = vs_test_tcase_apart(s, "extremes", NULL);

	tcase_set_timeout(tc, 120);
	tcase_set_timeout(extremes, 120);
	tcase_add_checked_fixture(tc, NULL, remove_dir);
	tcase_add_checked_fixture(extremes, NULL, remove_dir);
	tcase_add_test(tc, output_paths);
	tcase_add_test(tc, closed_standard_streams);
	tcase_add_test(tc, several_outputs_all_or_none);
	tcase_add_test(tc, messages_escape_input);
	tcase_add_test(tc, names_stay_inert_in_outputs);
	tcase_add_test(tc, names_stay_inert_in_budgets_and_commands);
	tcase_add_test(tc, baseline_names_read_back);
	tcase_add_test(tc, budgets_and_baselines_need_their_marker);
	tcase_add_test(tc, short_baseline_texts);
	tcase_add_test(tc, plugin_tables_in_process);
	tcase_add_test(tc, plugin_tables_loaded);
	tcase_add_test(tc, plugin_calls_loaded);
	tcase_add_test(tc, unbounded_inputs);
	tcase_add_test(tc, numbers_and_lengths);
	tcase_add_test(tc, memory_bounded_by_live_allocations);
	tcase_add_test(tc, inputs_that_are_folders);
	tcase_add_test(tc, inputs_that_are_fifos);
	tcase_add_test(tc, long_paths_keep_the_reason);
	tcase_add_test(extremes, render_and_view_extremes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
