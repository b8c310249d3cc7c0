/* SPDX-License-Identifier: Zlib */
/* test_out_files.c - no run loses a file: an output is never one of the
 * run's inputs nor another of its outputs under another name (./x and x, a
 * symbolic link, a hard link), a run killed by a signal leaves no temporary
 * file and the old output as it was, and a failed write to standard output
 * fails the command. Every command's output options are tried, so a new
 * one that bypasses base/out_file.c shows here. */
#define _GNU_SOURCE /* symlink, link, kill */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support.h"
#include "base/compiler_hints.h"
#include "base/in_file.h"
#include "base/out_file.h"
#include "gen/gen.h"

static char out[65536], err[65536];

#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

#define TRACE VS_SOURCE_DIR "/traces/gba-sprite-churn-1.trace"

/* A fresh folder for one test, with a copy of TRACE as t.trace in it. */
static const char *folder(const char *name)
{
	static char dir[600];
	char cmd[1400];

	snprintf(dir, sizeof dir, "%s", vs_test_path("files-%s", name));
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && cp '%s' '%s/t.trace'", dir, dir, TRACE, dir);
	ck_assert_int_eq(system(cmd), 0);
	return dir;
}

static void remove_folder(const char *dir)
{
	char cmd[700];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* The names in dir, sorted, one a line. */
static const char *listing(const char *dir)
{
	static char names[4096];
	struct dirent **list;
	int n, i;
	size_t len = 0;

	n = scandir(dir, &list, NULL, alphasort);
	ck_assert_int_ge(n, 0);
	names[0] = '\0';
	for (i = 0; i < n; i++) {
		if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, ".."))
			len += (size_t)snprintf(names + len, sizeof names - len, "%s\n", list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return names;
}

static int same_bytes(const char *a, const char *b)
{
	char *x = vs_test_slurp(a), *y = vs_test_slurp(b);
	int same = x && y && strcmp(x, y) == 0;

	free(x);
	free(y);
	return same;
}

/* A disk that fills (a file size limit here, `ulimit -f`, its signal
 * ignored so writes fail with EFBIG): every output that fails names its
 * file and the reason, the old file is kept and no temporary is left.
 * compare --write-baseline and diff --png said "a write failed" and
 * "cannot write the picture", render also "PNG encoding failed". */
START_TEST(disk_full_named)
{
	static const struct { const char *args, *out; } runs[] = {
		{ "compare t.trace --no-timing --write-baseline b.json", "b.json" },
		{ "compare t.trace --no-timing -f json -o c.json", "c.json" },
		{ "diff t.trace -s gba-obj-map -s gba-obj-ends --png d.png", "d.png" },
		{ "render t.trace --kind chart -o r.png", "r.png" },
		{ "replay t.trace --events e.json", "e.json" },
	};
	const char *dir = folder("full");
	size_t r;

	ck_assert_int_eq(chdir(dir), 0);
	for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		char cmd[1200], want[256];
		int st;
		snprintf(cmd, sizeof cmd, "printf old > %s", runs[r].out);
		ck_assert_int_eq(system(cmd), 0);
		st = vs_test_cli_limited(1, err, sizeof err, "%s", runs[r].args);
		snprintf(want, sizeof want, "cannot write %s: File too large", runs[r].out);
		ck_assert_msg(st == 2, "%s: exit %d: %s", runs[r].args, st, err);
		ck_assert_msg(vs_test_count(err, want) == 1 && !strstr(err, "a write failed") && !strstr(err, "encoding"),
			"%s: %s", runs[r].args, err);
		ck_assert_msg(vs_test_holds(runs[r].out, "old"), "%s: the old file changed", runs[r].args);
		ck_assert_msg(!vs_test_temporary_left(runs[r].out), "%s: a temporary file left", runs[r].args);
	}
	ck_assert_int_eq(chdir(VS_BINARY_DIR), 0);
	remove_folder(dir);
}
END_TEST

/* Every command's outputs, each pair named as one file in another way:
 * refused before anything is written, and the folder as it was. */
START_TEST(two_outputs_one_file)
{
	static const char *const runs[] = {
		"replay t.trace --events %s --series %s",
		"compare t.trace -s gba-obj-first-fit --no-timing -o %s --write-baseline %s",
		"compare t.trace -s gba-obj-first-fit --no-timing --out csv=%s --out json=%s",
		"compare t.trace -s gba-obj-first-fit --no-timing -o %s --out csv=%s",
	};
	static const char *const names[][2] = {
		{ "x", "./x" }, { "x", "sub/../x" }, { "old", "old-link" }, { "old", "old-hard" },
	};
	const char *dir = folder("pairs");
	char before[4096];
	size_t r, k;

	ck_assert_int_eq(cli("gen sprite-churn --frames 2 -o '%s/old'", dir), 0);
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(mkdir("sub", 0777), 0);
	ck_assert_int_eq(symlink("old", "old-link"), 0);
	ck_assert_int_eq(link("old", "old-hard"), 0);
	snprintf(before, sizeof before, "%s", listing("."));
	/* how a name is told to be the same file is base/out_file.c's, the
	 * same for every command: the first command takes every way of naming
	 * it, the others one each in turn (a vramsim run for each pair would
	 * take the same paths again) */
	for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		for (k = 0; k < sizeof names / sizeof names[0]; k++) {
			char args[600];
			if (r > 0 && k != r % (sizeof names / sizeof names[0]))
				continue;
			snprintf(args, sizeof args, runs[r], names[k][0], names[k][1]);
			ck_assert_msg(cli("%s", args) == 2, "%s: exit 2 expected: %s", args, err);
			ck_assert_msg(strstr(err, "same file as"), "%s: %s", args, err);
			ck_assert_str_eq(listing("."), before);
			ck_assert(same_bytes("old", "old-hard"));
		}
	}
	ck_assert_int_eq(chdir(VS_BINARY_DIR), 0);
	remove_folder(dir);
}
END_TEST

/* Every command that reads a file and writes one, the output named as the
 * input (directly, by a link, by a hard link): refused, the input intact. */
START_TEST(output_is_an_input)
{
	static const char *const runs[] = {
		"replay %s --events %s",
		"replay %s --series %s",
		"compare %s -s gba-obj-first-fit --no-timing -o %s",
		"compare t.trace -s gba-obj-first-fit --no-timing --budgets %s --write-baseline %s",
		"compare t.trace -s gba-obj-first-fit --no-timing --baseline %s -o %s",
		"report %s -o %s",
		"diff %s -s gba-obj-first-fit -s gba-obj-compact --png %s",
		"import %s -o %s",
	};
	static const char *const as[] = { "%s", "./%s", "in-link", "in-hard" };
	const char *dir = folder("inputs");
	size_t r, k;

	ck_assert_int_eq(chdir(dir), 0);
	for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		const char *input = strstr(runs[r], "budgets") ? "b.txt" : strstr(runs[r], "baseline %s") ? "base.json"
			: strstr(runs[r], "import") ? "m.rep" : "t.trace";
		if (strcmp(input, "b.txt") == 0)
			ck_assert_int_eq(system("printf 'vramsim-budgets 1\\nmax-peak-live=1M\\n' > b.txt"), 0);
		if (strcmp(input, "base.json") == 0)
			ck_assert_int_eq(cli("compare t.trace -s gba-obj-first-fit --no-timing --write-baseline '%s/base.json'", dir), 0);
		if (strcmp(input, "m.rep") == 0)
			ck_assert_int_eq(system("printf '1000\\n1\\n2\\n1\\na 0 16\\nf 0\\n' > m.rep"), 0);
		unlink("in-link");
		unlink("in-hard");
		ck_assert_int_eq(symlink(input, "in-link"), 0);
		ck_assert_int_eq(link(input, "in-hard"), 0);
		ck_assert_int_eq(system("cp in-hard saved"), 0);
		/* the first command takes every way of naming its input, the
		 * others one each in turn: telling that an output is an input is
		 * base/in_file.c's, the same for every command */
		for (k = 0; k < sizeof as / sizeof as[0]; k++) {
			char name[64], args[600];
			if (r > 0 && k != r % (sizeof as / sizeof as[0]))
				continue;
			snprintf(name, sizeof name, as[k], input);
			snprintf(args, sizeof args, runs[r], input, name);
			ck_assert_msg(cli("%s", args) == 2, "%s: exit 2 expected: %s", args, err);
			ck_assert_msg(strstr(err, "which this run reads"), "%s: %s", args, err);
			ck_assert_msg(same_bytes(input, "saved"), "%s changed the input", args);
		}
	}
	ck_assert_int_eq(chdir(VS_BINARY_DIR), 0);
	remove_folder(dir);
}
END_TEST

/* A plug-in is an input like a trace: every command that loads one, each
 * of its outputs named as the shared object (by name, ./name, a symbolic
 * link, a hard link): refused, the plug-in intact. The viewer's log and a
 * screenshot of its script too, when this build has the viewer. */
START_TEST(plugin_is_an_input)
{
	static const char *const runs[] = {
		"compare t.trace --no-timing --plugin ./p.so -s top-down-fit -o %s",
		"compare t.trace --no-timing --plugin ./p.so -s top-down-fit --write-baseline %s",
		"compare t.trace --no-timing --plugin ./p.so -s top-down-fit --out csv=%s",
		"replay t.trace --plugin ./p.so -s top-down-fit --events %s",
		"replay t.trace --plugin ./p.so -s top-down-fit --series %s",
		"report t.trace --plugin ./p.so -s top-down-fit -o %s",
		"diff t.trace -s gba-obj-first-fit -s top-down-fit --plugin ./p.so --png %s",
		"view t.trace --plugin ./p.so -s top-down-fit --script quit.script --log %s",
		"view t.trace --plugin ./p.so -s top-down-fit --script shot.script",
	};
	static const char *const as[] = { "p.so", "./p.so", "p-link", "p-hard" };
	const char *dir = folder("plugin");
	char cmd[1400];
	size_t r;

	ck_assert_int_eq(chdir(dir), 0);
	snprintf(cmd, sizeof cmd, "cp '%s/top_down_fit.so' p.so && cp p.so saved && ln -s p.so p-link && "
		"ln p.so p-hard && printf 'quit\\n' > quit.script", VS_BINARY_DIR);
	ck_assert_int_eq(system(cmd), 0);
	setenv("SDL_VIDEODRIVER", "dummy", 1);
	for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		const char *name = as[r % (sizeof as / sizeof as[0])];
		char args[600];
		int rc;
		snprintf(cmd, sizeof cmd, "printf 'screenshot %s\\nquit\\n' > shot.script", name);
		ck_assert_int_eq(system(cmd), 0);
		snprintf(args, sizeof args, runs[r], name);
		rc = cli("%s", args);
		if (rc == 2 && strncmp(args, "view", 4) == 0 && strstr(err, "without"))
			continue; /* no view module in this build */
		ck_assert_msg(rc == 2, "%s: exit 2 expected: %s", args, err);
		/* a screenshot's reason is in the log, standard output */
		ck_assert_msg(strstr(err, "which this run reads") || strstr(out, "which this run reads"), "%s: %s%s", args,
			out, err);
		ck_assert_msg(same_bytes("p.so", "saved"), "%s changed the plug-in", args);
		ck_assert_msg(!vs_test_temporary_left("p.so"), "%s left a temporary file", args);
	}
	unsetenv("SDL_VIDEODRIVER");
	/* render names its pictures itself: the plug-in where one would go */
	ck_assert_int_eq(system("mkdir pics && cp p.so pics/t-chart.png"), 0);
	ck_assert_int_eq(cli("render t.trace --plugin ./pics/t-chart.png -s top-down-fit -q -o pics"), 2);
	ck_assert_msg(strstr(err, "which this run reads"), "render: %s", err);
	ck_assert(same_bytes("pics/t-chart.png", "saved"));
	ck_assert_str_eq(listing("pics"), "t-chart.png\n");
	ck_assert_int_eq(chdir(VS_BINARY_DIR), 0);
	remove_folder(dir);
}
END_TEST

/* An input given as '-' is the file standard input is, when it is one:
 * every command that reads '-' and writes a file, the output named as
 * that file (by name, ./name, the names of standard input, a hard link,
 * a symbolic link): refused, the file intact. */
START_TEST(stdin_is_an_input)
{
	static const char *const runs[] = {
		"replay - --events %s",
		"replay - --series %s",
		"replay -q - --events %s --series -",
		"import - -o %s",
	};
	static const char *const as[] = { "%s", "./%s", "/proc/self/fd/0", "/dev/stdin", "in-hard", "in-link" };
	static const size_t pick[] = { 0, 3, 4, 0 }; /* the name each command after the first takes */
	const char *dir = folder("stdin");
	size_t r, k;

	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(system("printf '20000\\n2\\n3\\n1\\na 0 100\\na 1 200\\nf 0\\n' > m.rep"), 0);
	for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		const char *input = strstr(runs[r], "import") ? "m.rep" : "t.trace";
		unlink("in-link");
		unlink("in-hard");
		ck_assert_int_eq(symlink(input, "in-link"), 0);
		ck_assert_int_eq(link(input, "in-hard"), 0);
		ck_assert_int_eq(system("cp in-hard saved"), 0);
		/* the first command takes every name, the others one each */
		for (k = 0; k < sizeof as / sizeof as[0]; k++) {
			char name[64], args[600];
			if (r > 0 && k != pick[r])
				continue;
			snprintf(name, sizeof name, as[k], input);
			snprintf(args, sizeof args, runs[r], name);
			ck_assert_msg(cli("%s <'%s'", args, input) == 2, "%s <%s: exit 2 expected: %s", args, input, err);
			ck_assert_msg(strstr(err, "it is standard input, which this run reads"), "%s <%s: %s", args, input,
				err);
			ck_assert_msg(same_bytes(input, "saved"), "%s <%s changed the input", args, input);
			ck_assert_msg(!vs_test_temporary_left(input), "%s <%s left a temporary file", args, input);
		}
	}
	ck_assert_int_eq(chdir(VS_BINARY_DIR), 0);
	remove_folder(dir);
}
END_TEST

/* Standard output as an output, appended to a file the run reads: every
 * command that writes '-' (or standard output when no -o is given),
 * refused before anything is written, the input intact. */
START_TEST(stdout_is_an_input)
{
	static const struct { const char *args, *input; } runs[] = {
		{ "fmt t.trace", "t.trace" }, { "fmt t.trace -o -", "t.trace" }, { "fmt - <t.trace", "t.trace" },
		{ "replay t.trace -q --events -", "t.trace" }, { "replay t.trace -q --series -", "t.trace" },
		{ "import m.rep", "m.rep" }, { "import - -o - <m.rep", "m.rep" },
	};
	const char *dir = folder("stdout");
	size_t r;

	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(system("printf '20000\\n2\\n3\\n1\\na 0 100\\na 1 200\\nf 0\\n' > m.rep"), 0);
	for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "cp %s saved", runs[r].input);
		ck_assert_int_eq(system(cmd), 0);
		ck_assert_msg(cli("%s >>%s", runs[r].args, runs[r].input) == 2, "%s >>%s: exit 2 expected: %s",
			runs[r].args, runs[r].input, err);
		ck_assert_msg(strstr(err, "cannot write standard output: it is ") && strstr(err, ", which this run reads"),
			"%s >>%s: %s", runs[r].args, runs[r].input, err);
		ck_assert_msg(same_bytes(runs[r].input, "saved"), "%s >>%s changed the input", runs[r].args,
			runs[r].input);
	}
	ck_assert_int_eq(chdir(VS_BINARY_DIR), 0);
	remove_folder(dir);
}
END_TEST

/* The one output that may be its input: fmt rewriting a trace in place
 * (the whole trace is read before the file is replaced). */
START_TEST(fmt_in_place)
{
	const char *dir = folder("fmt");
	char path[700], want[700];

	snprintf(path, sizeof path, "%s/t.trace", dir);
	snprintf(want, sizeof want, "%s/want", dir);
	ck_assert_int_eq(cli("fmt '%s' -o '%s'", TRACE, want), 0);
	ck_assert_int_eq(cli("fmt '%s' -o '%s'", path, path), 0);
	ck_assert(same_bytes(path, want));
	ck_assert_int_eq(unlink(want), 0);
	ck_assert_str_eq(listing(dir), "t.trace\n");
	remove_folder(dir);
}
END_TEST

/* fmt's -o naming its input by another name: the input's own entry (./x,
 * a symbolic link to it, the input given by a link) is rewritten in place,
 * where every such name sees the result; another hard link of it is
 * refused (the rename would split the link and leave the input as it was),
 * both names kept as they were. '-' may be rewritten too. */
START_TEST(fmt_other_names)
{
	static const struct {
		const char *in, *out;
		int rc;
	} runs[] = {
		{ "s.trace", "h.trace", 2 },
		{ "h.trace", "./s.trace", 2 },
		{ "./h.trace", "s.trace", 2 },
		{ "l.trace", "h.trace", 2 },
		{ "s.trace", "./s.trace", 0 },
		{ "s.trace", "l.trace", 0 },
		{ "l.trace", "s.trace", 0 },
		{ "sub/../s.trace", "s.trace", 0 },
	};
	const char *dir = folder("fmt-names");
	struct stat a, b;
	size_t r;

	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(mkdir("sub", 0777), 0);
	ck_assert_int_eq(cli("fmt t.trace -o want"), 0);
	ck_assert_int_eq(symlink("s.trace", "l.trace"), 0);
	for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		unlink("s.trace");
		unlink("h.trace");
		ck_assert_int_eq(system("cp t.trace s.trace && ln s.trace h.trace"), 0);
		ck_assert_int_eq(cli("fmt %s -o %s", runs[r].in, runs[r].out), runs[r].rc);
		if (runs[r].rc) {
			ck_assert_msg(strstr(err, "which this run reads"), "fmt %s -o %s: %s", runs[r].in, runs[r].out, err);
			ck_assert(same_bytes("s.trace", "t.trace"));
		} else {
			ck_assert_msg(same_bytes("s.trace", "want"), "fmt %s -o %s", runs[r].in, runs[r].out);
			ck_assert(same_bytes("l.trace", "want"));
		}
		/* refused: still one file; rewritten: s.trace a new one, h.trace the old */
		ck_assert_int_eq(stat("s.trace", &a), 0);
		ck_assert_int_eq(stat("h.trace", &b), 0);
		ck_assert_int_eq(a.st_ino == b.st_ino, runs[r].rc != 0);
		ck_assert(same_bytes("h.trace", "t.trace"));
		ck_assert_msg(!vs_test_temporary_left("s.trace"), "fmt %s -o %s left a temporary file", runs[r].in,
			runs[r].out);
	}
	/* standard input has no name to tell a hard link by: -o names the file replaced */
	ck_assert_int_eq(system("cp t.trace s.trace && printf '# a comment fmt drops\\n' >> s.trace"), 0);
	ck_assert_int_eq(cli("fmt - -o s.trace <s.trace"), 0);
	ck_assert(same_bytes("s.trace", "want"));
	ck_assert_int_eq(chdir(VS_BINARY_DIR), 0);
	remove_folder(dir);
}
END_TEST

/* An input opened after its output was: the commit refuses it. */
START_TEST(late_input_refused_at_commit)
{
	const char *dir = folder("late");
	char path[700], e[1200];
	vs_out_file f;
	FILE *in;

	snprintf(path, sizeof path, "%s/t.trace", dir);
	ck_assert_int_eq(vs_out_open(&f, path, e, sizeof e), 0);
	fputs("replaced", f.fp);
	in = vs_in_open(path, "rb");
	ck_assert_ptr_nonnull(in);
	fclose(in);
	ck_assert_int_eq(vs_out_finish(&f, 1, e, sizeof e), 0);
	ck_assert_int_eq(vs_out_commit(&f, 1, e, sizeof e), -1);
	ck_assert_msg(strstr(e, "which this run reads"), "%s", e);
	ck_assert(same_bytes(path, TRACE));
	ck_assert_str_eq(listing(dir), "t.trace\n");
	remove_folder(dir);
}
END_TEST

/* Waits (at most 20 s) until dir holds a temporary file. */
static int temporary_appears(const char *dir)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	int i;

	for (i = 0; i < 1000; i++) {
		if (strstr(listing(dir), ".tmp-"))
			return 1;
		nanosleep(&tick, NULL);
	}
	return 0;
}

/* Killed while it writes: the temporary file goes, the old file stays,
 * and the process dies of the signal (its parent sees why). A crash's
 * signals too; under AddressSanitizer a fault is the sanitizer's to report,
 * and only abort is left at its default. */
START_TEST(signals_leave_nothing)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGABRT,
#if !defined(VS_ASAN)
		SIGSEGV, SIGBUS, SIGILL, SIGFPE,
#endif
	};
	const char *dir = folder("signals");
	char target[700];
	size_t i;

	snprintf(target, sizeof target, "%s/t.trace", dir);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		pid_t pid = fork();
		int st;
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			signal(sigs[i], SIG_DFL);
			execl(VS_VRAMSIM, VS_VRAMSIM, "gen", "side-scroller", "--frames", "10000000", "-o", target,
				(char *)NULL);
			_exit(127);
		}
		ck_assert_msg(temporary_appears(dir), "no temporary file appeared: %s", listing(dir));
		kill(pid, sigs[i]);
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i], "signal %d: status %d", sigs[i], st);
		ck_assert_str_eq(listing(dir), "t.trace\n");
		ck_assert(same_bytes(target, TRACE));
	}
	remove_folder(dir);
}
END_TEST

/* straight to the kernel, as emu_guard.c's does: LeakSanitizer's hook on
 * _exit would report what the child leaves and exit 1 */
static void last_word(int sig)
{
	syscall(SYS_exit_group, sig == SIGABRT ? 3 : 4);
}

/* A crash while code the run does not own runs (vs_out_on_fault, an
 * emulator guard's hook): the temporary file goes, then the hook ends the
 * process; without the hook the process dies of the signal. */
START_TEST(fault_hook_has_the_last_word)
{
	const char *dir = folder("fault");
	char target[700], e[256];
	int hooked;

	snprintf(target, sizeof target, "%s/t.trace", dir);
	for (hooked = 0; hooked < 2; hooked++) {
		pid_t pid = fork();
		int st;
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			vs_out_file f;
			/* replacing: cases before this one in the process (CK_FORK=no)
			 * noted inputs whose inodes the folders here may reuse */
			if (vs_out_open_replacing(&f, target, e, sizeof e) || fputs("half", f.fp) < 0) {
				fprintf(stderr, "%s\n", e);
				_exit(1);
			}
			if (hooked)
				vs_out_on_fault(last_word);
			abort();
		}
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		if (hooked)
			ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 3, "status %d", st);
		else
			ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "status %d", st);
		ck_assert_str_eq(listing(dir), "t.trace\n");
		ck_assert(same_bytes(target, TRACE));
	}
	remove_folder(dir);
}
END_TEST

/* Writes a trace of n alloc-free pairs in a 1 MiB heap to path. */
static void write_churn(const char *path, int n)
{
	FILE *fp = fopen(path, "w");
	int i;

	ck_assert_ptr_nonnull(fp);
	fputs("vramsim-trace 1\narena heap ram size=1M\n", fp);
	for (i = 1; i <= n; i++)
		fprintf(fp, "alloc %d %d\nfree %d\n", i, 16 + i % 4000, i);
	ck_assert_int_eq(fclose(fp), 0);
}

/* render's folder for its pictures, made by the run, goes when a signal
 * stops it before the pictures are in (it stayed behind, empty). The run
 * is stopped (SIGSTOP) as soon as its folder is there, then sent SIGTERM
 * and let go on, so the signal always lands mid-run; a run that finished
 * before it could be stopped is tried again on a trace twice as long. */
START_TEST(render_folder_goes_on_signal)
{
	struct timespec tick = { 0, 1000 * 1000 };
	const char *dir = folder("render");
	char trace[700], pics[700];
	struct stat st;
	int n, i, status = 0;

	snprintf(trace, sizeof trace, "%s/big.trace", dir);
	snprintf(pics, sizeof pics, "%s/pics", dir);
	for (n = 100000; n <= 800000; n *= 2) {
		pid_t pid;

		write_churn(trace, n);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			signal(SIGTERM, SIG_DFL);
			execl(VS_VRAMSIM, VS_VRAMSIM, "render", trace, "-q", "-o", pics, (char *)NULL);
			_exit(127);
		}
		for (i = 0; i < 10000 && stat(pics, &st) != 0; i++)
			nanosleep(&tick, NULL);
		ck_assert_msg(i < 10000, "render made no folder");
		kill(pid, SIGSTOP);
		ck_assert_int_eq(waitpid(pid, &status, WUNTRACED), pid);
		if (WIFSTOPPED(status)) {
			kill(pid, SIGTERM);
			kill(pid, SIGCONT);
			ck_assert_int_eq(waitpid(pid, &status, 0), pid);
			ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status %d", status);
			ck_assert_str_eq(listing(dir), "big.trace\nt.trace\n");
			break;
		}
		/* done before it could be stopped: its pictures are all there */
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
		ck_assert_int_eq(stat(pics, &st), 0);
		remove_folder(pics);
	}
	ck_assert_msg(n <= 800000, "render always finished before it could be stopped");
	remove_folder(dir);
}
END_TEST

/* A run with standard output (or -o) on a full disk: exit 2 and one
 * message naming the output and the reason, none empty ("vramsim gen: ",
 * a generator's write error said without a word) and none twice (a
 * command's own, then main's last check). */
static void full_disk_said_once(const char *run, const char *output)
{
	char cmd[1400], want[128], *said, *at, *line;
	const char *e = vs_test_path("stderr");
	int st, times = 0;

	snprintf(cmd, sizeof cmd, "%s %s >/dev/full 2>'%s'", VS_VRAMSIM, run, e);
	st = system(cmd);
	said = vs_test_slurp(e);
	ck_assert_ptr_nonnull(said);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s: exit 2 expected: %s", run, said);
	snprintf(want, sizeof want, "cannot write %s: No space left on device\n", output);
	for (at = said; (at = strstr(at, want)) != NULL; at++)
		times++;
	ck_assert_msg(times == 1, "%s: '%s' said %d times: %s", run, want, times, said);
	for (line = strtok(said, "\n"); line; line = strtok(NULL, "\n"))
		ck_assert_msg(line[strlen(line) - 1] != ' ' && !strstr(line, "write failed"), "%s: '%s'", run, line);
	free(said);
	unlink(e);
}

/* Standard output on a full disk: the command fails and says so, once;
 * so does every generator and the importer. */
START_TEST(stdout_write_fails)
{
	static const char *const runs[] = {
		"replay " TRACE, "compare " TRACE " -s gba-obj-first-fit --no-timing", "fmt " TRACE, "strategies",
		"--help", "--version", "validate " TRACE, "diff " TRACE " " TRACE, "replay -q --events - " TRACE,
	};
	const char *rep = vs_test_file(1, "t.rep", "0\n2\n3\n1\na 0 16\na 1 8\nf 0\n");
	char run[1200];
	size_t i;

	if (access("/dev/full", W_OK) != 0) {
		vs_test_require("/dev/full");
		return;
	}
	for (i = 0; i < sizeof runs / sizeof runs[0]; i++)
		full_disk_said_once(runs[i], "standard output");
	for (i = 0; i < vs_generator_count(); i++) {
		snprintf(run, sizeof run, "gen %s --frames 60", vs_generator_at(i)->name);
		full_disk_said_once(run, "standard output");
		snprintf(run, sizeof run, "gen %s --frames 60 -o /dev/full", vs_generator_at(i)->name);
		full_disk_said_once(run, "/dev/full");
	}
	snprintf(run, sizeof run, "import '%s'", rep);
	full_disk_said_once(run, "standard output");
	snprintf(run, sizeof run, "import '%s' -o /dev/full", rep);
	full_disk_said_once(run, "/dev/full");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("out_files");
	TCase *tc = tcase_create("out_files");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, two_outputs_one_file);
	tcase_add_test(tc, output_is_an_input);
	tcase_add_test(tc, plugin_is_an_input);
	tcase_add_test(tc, stdin_is_an_input);
	tcase_add_test(tc, stdout_is_an_input);
	tcase_add_test(tc, disk_full_named);
	tcase_add_test(tc, fmt_in_place);
	tcase_add_test(tc, fmt_other_names);
	tcase_add_test(tc, late_input_refused_at_commit);
	tcase_add_test(tc, fault_hook_has_the_last_word);
	tcase_add_test(tc, signals_leave_nothing);
	tcase_add_test(tc, stdout_write_fails);
	tcase_add_test(tc, render_folder_goes_on_signal);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
