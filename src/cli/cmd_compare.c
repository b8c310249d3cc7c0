/* SPDX-License-Identifier: Zlib */
/* cmd_compare.c - `vramsim compare`: strategies side by side on traces, with
 * budgets and a baseline, for people and for CI. The work is in
 * src/compare/; this file reads options and writes files.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "progress.h"
#include "compare/compare.h"
#include "compare/baseline.h"
#include "compare/budget.h"
#include "base/grow.h"

#define CMD "compare"

enum {
	O_OUT = VS_CLI_LONG, O_NO_TIMING, O_BUDGETS, O_WRITE_BASELINE, O_BASELINE, O_TOLERANCE, O_MISSING_FAILS,
	O_NO_CHECKS, O_CHANGES_ONLY, O_TIMING, O_FULL_BYTES, O_MAX /* O_MAX + k: the budget of kind k */
};

static const vs_cli_opt options[] = {
	{ "strategy", 's', "A,B,...", "compare these (NAME[:OPTS] or ARENA=NAME[:OPTS]; "
		"repeatable); default: every strategy that can manage each arena" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (.so) first" },
	{ "format", 'f', "FMT", "text (default), markdown, csv, json, junit" },
	{ "output", 'o', "FILE", "write that format to FILE instead of standard output" },
	{ "out", O_OUT, "FMT=FILE", "also write FMT to FILE (repeatable; '-' is stdout)" },
	{ "no-timing", O_NO_TIMING, NULL, "leave out ns/op: output is the same bytes every run" },
	{ "timing", O_TIMING, NULL, "measure ns/op (the default, except with --changes-only)" },
	{ "jobs", 'j', "N", "worker threads (default: every online core)" },
	{ NULL, 0, NULL, "budgets (exit 1 when any row breaks one, or one matches no row):" },
	{ "max-failures", O_MAX + VS_BUDGET_FAILURES, "N", "failed allocations" },
	{ "max-peak-live", O_MAX + VS_BUDGET_PEAK_LIVE, "BYTES", "peak requested bytes live (N, 0xN, NK, NM)" },
	{ "max-peak-frag", O_MAX + VS_BUDGET_PEAK_FRAG, "F", "peak fragmentation, 0 to 1" },
	{ "max-high-water", O_MAX + VS_BUDGET_HIGH_WATER, "BYTES", "highest end offset ever taken" },
	{ "budgets", O_BUDGETS, "FILE", "per-trace budgets (format in docs/ci.md)" },
	{ NULL, 0, NULL, "baselines:" },
	{ "write-baseline", O_WRITE_BASELINE, "FILE", "store this run's metrics (JSON)" },
	{ "baseline", O_BASELINE, "FILE", "exit 1 when a metric worsens beyond tolerance" },
	{ "tolerance", O_TOLERANCE, "[METRIC=]RATIO[,ABS]", "a metric may grow to old*(1+RATIO)+ABS (default 0,0); "
		"METRIC: failures, peak_frag, mean_frag, internal_frag, high_water, peak_free_extents" },
	{ "missing-fails", O_MISSING_FAILS, NULL, "baseline rows absent from this run fail too" },
	{ "changes-only", O_CHANGES_ONLY, NULL, "-f markdown or text shows only what changed against --baseline "
		"(verdict, regressions, improvements, new and missing rows; markdown folds the full table in): a "
		"pull-request comment; implies --no-timing unless --timing" },
	{ NULL, 0, NULL, "other:" },
	{ "no-checks", O_NO_CHECKS, NULL, "skip byte and hardware-rule checks (faster)" },
	{ "full-bytes", O_FULL_BYTES, NULL, "write and compare every byte of every allocation, also for the "
		"heaps whose stores the replay sees (slower; docs/heaps.md, Checks)" },
	{ "verbose", 'v', NULL, "print every replay diagnostic (standard error)" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "compare TRACE|DIR... [options]",
	"Replays each trace once per strategy and arena and prints one row per trace,\n"
	"arena and strategy: failures by kind, peak live bytes, peak and mean\n"
	"fragmentation, internal fragmentation and free extents at peak, high-water,\n"
	"smallest failed request, host ns per allocator call; then the best strategy\n"
	"per trace and arena, and why. A DIR stands for its *.trace files, by name.\n"
	"Each file is given once: its path is its rows' key. Traces run in parallel;\n"
	"rows come out in a fixed order.\n",
	options,
	"exit: 0 ok, 1 a budget or the baseline was broken, a budget matched no row or an\n"
	"integrity check failed, 2 bad usage, unknown strategy, malformed trace, budget\n"
	"or baseline file, an output that cannot be written (no output file is left\n"
	"half-written), or a --write-baseline row whose name --baseline could not read\n"
	"back (control characters, bytes not UTF-8: nothing is written).\n",
	NULL, 0
};

typedef struct strlist {
	char **v;
	int n, cap;
} strlist;

static int push(strlist *l, const char *s)
{
	char *d;

	if (l->n == l->cap && vs_grow_int(&l->v, sizeof *l->v, &l->cap, (size_t)l->n + 1, 16))
		return -1;
	d = malloc(strlen(s) + 1);
	if (!d)
		return -1;
	strcpy(d, s);
	l->v[l->n++] = d;
	return 0;
}

static void strlist_free(strlist *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Trace paths are row keys (vs_cmp_row.trace): never cut. */
#define TRACE_PATH_MAX VS_CMP_TRACE_MAX
/* A bound on what one directory operand may bring. */
#define MAX_DIR_TRACES 10000

/* A trace is read once per strategy: '-', a FIFO or a device would be
 * read once, then hang or run dry (vs_cli_rereadable refuses them). 0, or a
 * usage error's status. */
static int add_trace_file(strlist *traces, const char *path)
{
	int rc;

	if (strlen(path) > TRACE_PATH_MAX)
		return vs_cli_usage_error(CMD, "a trace path is at most %d bytes (got %zu)", TRACE_PATH_MAX, strlen(path));
	if ((rc = vs_cli_rereadable(CMD, path, "compare reads each trace once for each strategy")) != 0)
		return rc;
	return push(traces, path) ? vs_cli_usage_error(CMD, "out of memory") : 0;
}

/* A directory stands for its *.trace files, sorted by name. */
static int add_trace_arg(strlist *traces, const char *arg)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	strlist found = { NULL, 0, 0 };
	int i, rc = 0;

	if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode))
		return add_trace_file(traces, arg);
	d = opendir(arg);
	if (!d)
		return vs_cli_usage_error(CMD, "cannot read directory %s", arg);
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		char path[TRACE_PATH_MAX + 1];
		int len;
		if (e->d_name[0] == '.' || n < 7 || strcmp(e->d_name + n - 6, ".trace") != 0)
			continue;
		if (found.n == MAX_DIR_TRACES) {
			rc = vs_cli_usage_error(CMD, "directory %s holds more than %d *.trace files", arg, MAX_DIR_TRACES);
			break;
		}
		len = snprintf(path, sizeof path, "%s%s%s", arg, arg[strlen(arg) - 1] == '/' ? "" : "/", e->d_name);
		if (len < 0 || len > TRACE_PATH_MAX) {
			rc = vs_cli_usage_error(CMD, "%s/%s: a trace path is at most %d bytes", arg, e->d_name, TRACE_PATH_MAX);
			break;
		}
		if ((rc = vs_cli_rereadable(CMD, path, "compare reads each trace once for each strategy")) != 0)
			break;
		if (push(&found, path)) {
			rc = vs_cli_usage_error(CMD, "out of memory");
			break;
		}
	}
	closedir(d);
	if (!rc && found.n == 0)
		rc = vs_cli_usage_error(CMD, "directory %s holds no *.trace files", arg);
	if (found.n)
		qsort(found.v, (size_t)found.n, sizeof *found.v, by_name);
	for (i = 0; !rc && i < found.n; i++)
		if (push(traces, found.v[i]))
			rc = vs_cli_usage_error(CMD, "out of memory");
	strlist_free(&found);
	return rc;
}

typedef struct output {
	int fmt;
	const char *path;
} output;

#define MAX_OUTPUTS 16

static void print_messages(const vs_cmp_result *res, int verbose)
{
	int i;

	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		if (r->messages && (verbose || r->status == VS_CMP_INTEGRITY))
			fputs(r->messages, stderr);
		if (r->status == VS_CMP_ERROR)
			fprintf(stderr, "%s\n", r->note);
		else if (r->status == VS_CMP_REFUSED && (r->explicit_choice || verbose))
			vs_cli_say(CMD, "%s %s %s: %s", r->trace, r->arena, r->strategy, r->note);
	}
}

typedef struct compare_opts {
	strlist traces, budget_files;
	vs_cli_choices cs;
	vs_cmp_config cfg;
	vs_budget_list budgets;
	vs_baseline_tolerance tol[VS_MET_KINDS];
	output outs[MAX_OUTPUTS];
	int nouts, main_fmt, verbose, missing_fails, changes_only;
	int timing;                /* --timing 1, --no-timing 0, neither -1 */
	const char *main_path, *baseline_path, *write_baseline;
} compare_opts;

static int out_of_memory(void)
{
	fprintf(stderr, "vramsim compare: out of memory\n");
	return VS_EXIT_USAGE;
}

/* --out FMT=FILE */
static int add_output(compare_opts *o, const char *val)
{
	const char *eq = strchr(val, '=');
	char name[16];

	if (!eq || !eq[1] || (size_t)(eq - val) >= sizeof name)
		return vs_cli_usage_error(CMD, "--out %s: expected FORMAT=FILE", val);
	snprintf(name, sizeof name, "%.*s", (int)(eq - val), val);
	if (o->nouts == MAX_OUTPUTS - 1)
		return vs_cli_usage_error(CMD, "too many --out options");
	o->outs[o->nouts].fmt = vs_cmp_format_parse(name);
	o->outs[o->nouts].path = eq + 1;
	if (o->outs[o->nouts].fmt < 0)
		return vs_cli_usage_error(CMD, "--out %s: unknown format '%s' (text, markdown, csv, json, junit)", val,
			name);
	o->nouts++;
	return -1;
}

/* --max-KIND VALUE */
static int add_budget(compare_opts *o, const vs_cli_parser *p, int kind)
{
	vs_budget b;
	char err[512];

	memset(&b, 0, sizeof b);
	b.kind = (vs_budget_kind)kind;
	if (vs_budget_value(b.kind, p->arg, &b.limit, err, sizeof err))
		return vs_cli_usage_error(CMD, "%s", err);
	snprintf(b.origin, sizeof b.origin, "--%s", p->opt->name);
	return vs_budget_list_add(&o->budgets, &b) ? out_of_memory() : -1;
}

/* One option or operand into o: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	compare_opts *o = ud;
	char err[2048];
	uint64_t v;

	switch (c) {
	case 's':
		return vs_cli_choices_add(CMD, &o->cs, p->arg) ? VS_EXIT_USAGE : -1;
	case 'f':
		if ((o->main_fmt = vs_cmp_format_parse(p->arg)) < 0)
			return vs_cli_usage_error(CMD, "unknown format '%s' (text, markdown, csv, json, junit)", p->arg);
		return -1;
	case 'o':
		o->main_path = p->arg;
		return -1;
	case O_OUT:
		return add_output(o, p->arg);
	case O_NO_TIMING:
	case O_TIMING:
		o->timing = c == O_TIMING;
		return -1;
	case O_CHANGES_ONLY:
		o->changes_only = 1;
		return -1;
	case 'j':
		if (vs_cli_uint(p, 1, 4096, &v))
			return VS_EXIT_USAGE;
		o->cfg.jobs = (int)v;
		return -1;
	case O_BUDGETS:
		return push(&o->budget_files, p->arg) ? out_of_memory() : -1;
	case O_WRITE_BASELINE:
		o->write_baseline = p->arg;
		return -1;
	case O_BASELINE:
		o->baseline_path = p->arg;
		return -1;
	case O_TOLERANCE:
		return vs_baseline_tolerance_parse(o->tol, p->arg, err, sizeof err) ? vs_cli_usage_error(CMD, "%s", err) : -1;
	case O_MISSING_FAILS:
		o->missing_fails = 1;
		return -1;
	case O_NO_CHECKS:
		o->cfg.check_bytes = o->cfg.check_rules = 0;
		return -1;
	case O_FULL_BYTES:
		if (o->cfg.check_bytes) /* --no-checks wins */
			o->cfg.check_bytes = VS_BYTES_FULL;
		return -1;
	case 'v':
		o->verbose = 1;
		return -1;
	case VS_CLI_OPERAND:
		return add_trace_arg(&o->traces, p->arg) ? VS_EXIT_USAGE : -1;
	}
	return add_budget(o, p, c - O_MAX);
}

static int parse(int argc, char **argv, compare_opts *o)
{
	int rc = vs_cli_parse(&command, argc, argv, take, o);

	if (rc >= 0)
		return rc;
	if (!o->traces.n)
		return vs_cli_usage_error(CMD, "no trace given");
	if (o->changes_only && o->main_fmt != VS_FMT_MARKDOWN && o->main_fmt != VS_FMT_TEXT)
		return vs_cli_usage_error(CMD, "--changes-only goes with -f markdown or -f text, not -f %s (--out %s=FILE "
			"writes it whole beside the short report)", vs_cmp_format_name(o->main_fmt),
			vs_cmp_format_name(o->main_fmt));
	if (o->changes_only && !o->baseline_path)
		return vs_cli_usage_error(CMD, "--changes-only needs --baseline FILE: it shows what changed against one");
	/* a comment that changes on every push only for the clock is noise */
	o->cfg.timing = o->timing >= 0 ? o->timing : !o->changes_only;
	return vs_cli_choices_split(CMD, &o->cs) ? VS_EXIT_USAGE : -1;
}

/* Budget files and the baseline: -1 when read, else an exit status. */
static int load_inputs(compare_opts *o, vs_baseline *base)
{
	char err[2048];
	int i;

	for (i = 0; i < o->budget_files.n; i++) {
		if (vs_budget_list_load(&o->budgets, o->budget_files.v[i], err, sizeof err)) {
			fprintf(stderr, "%s\n", err);
			return VS_EXIT_USAGE;
		}
	}
	if (o->baseline_path && vs_baseline_load(base, o->baseline_path, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	return -1;
}

/* A row that could not be replayed, or a named strategy refused: nothing
 * is written then. */
static int unusable(const vs_cmp_result *res)
{
	int i;

	for (i = 0; i < res->nrows; i++) {
		const vs_cmp_row *r = &res->rows[i];
		if (r->status == VS_CMP_ERROR || (r->status == VS_CMP_REFUSED && r->explicit_choice)) {
			fprintf(stderr, "vramsim compare: %s, nothing written\n",
				r->status == VS_CMP_ERROR ? "a trace could not be replayed" : "a strategy named refused an arena");
			return 1;
		}
	}
	return 0;
}

/* --write-baseline of a row the reader would refuse: said, and nothing is
 * written (a baseline written is one --baseline reads back, row for row). */
static int unreadable(const compare_opts *o, const vs_cmp_result *res)
{
	int i = o->write_baseline ? vs_baseline_unreadable(res) : -1;

	if (i < 0)
		return 0;
	vs_cli_say(CMD, "--write-baseline: %s %s %s: --baseline reads back only names in UTF-8 without control "
		"characters; rename it; nothing written",
		res->rows[i].trace, res->rows[i].arena, res->rows[i].strategy);
	return 1;
}

static int write_baseline(FILE *fp, const vs_cmp_result *res)
{
	cJSON *j = vs_baseline_json(res);
	char *s = j ? cJSON_Print(j) : NULL;
	int ok = s && fputs(s, fp) >= 0 && fputc('\n', fp) >= 0 && fflush(fp) == 0;

	free(s);
	cJSON_Delete(j);
	return ok;
}

/* Every output is opened first, then written (regular files to temporary
 * files), and all are renamed into place together or none is. */
static int write_outputs(compare_opts *o, const vs_cmp_report *rep)
{
	static vs_out_file files[MAX_OUTPUTS + 1];
	const char *paths[MAX_OUTPUTS + 1];
	vs_cmp_report main_rep;
	int ok = 1, i, n = o->nouts + 1, nf = n;

	o->outs[o->nouts].fmt = o->main_fmt;
	o->outs[o->nouts].path = o->main_path;
	for (i = 0; i < n; i++)
		paths[i] = o->outs[i].path;
	if (o->write_baseline)
		paths[nf++] = o->write_baseline;
	if (vs_cli_outs_open(files, paths, nf)) {
		fprintf(stderr, "vramsim compare: output not written\n");
		return 0;
	}
	main_rep = *rep;
	main_rep.changes_only = o->changes_only; /* the -f output only: --out files are whole */
	for (i = 0; i < n && ok; i++)
		if (vs_cmp_write(files[i].fp, i == o->nouts ? &main_rep : rep, (vs_cmp_format)o->outs[i].fmt) ||
			fflush(files[i].fp))
			ok = 0;
	if (ok && o->write_baseline)
		ok = write_baseline(files[n].fp, rep->res);
	if (vs_cli_outs_close(files, nf, ok))
		ok = 0;
	if (!ok)
		fprintf(stderr, "vramsim compare: output not written\n");
	return ok;
}

/* The table went elsewhere: say on stderr why the run failed. */
static void say_why(const vs_cmp_report *rep)
{
	int i;

	for (i = 0; rep->budget_rep && i < rep->budget_rep->n; i++)
		if (rep->budget_rep->v[i].broken) {
			const vs_budget *b = &rep->budgets->v[rep->budget_rep->v[i].budget];
			const vs_cmp_row *r = &rep->res->rows[rep->budget_rep->v[i].row];
			vs_cli_say(CMD, "budget broken: %s %s %s: %s %.6g, actual %.6g (%s)", r->trace, r->arena, r->strategy,
				vs_budget_kind_name(b->kind), b->limit, rep->budget_rep->v[i].actual, b->origin);
		}
	for (i = 0; rep->budget_rep && i < rep->budget_rep->nunmatched; i++) {
		char buf[1600];
		vs_budget_describe(&rep->budgets->v[rep->budget_rep->unmatched[i]], buf, sizeof buf);
		vs_cli_say(CMD, "budget matched no row: %s", buf);
	}
	if (rep->base_rep && rep->base_rep->regressions)
		fprintf(stderr, "vramsim compare: %d baseline regression%s\n", rep->base_rep->regressions,
			rep->base_rep->regressions == 1 ? "" : "s");
}

/* Budgets and baseline checked against res, the outputs written. */
static int report(compare_opts *o, const vs_cmp_result *res, vs_baseline *base)
{
	vs_budget_report brep = { NULL, 0, 0, NULL, 0 };
	vs_baseline_report baserep;
	vs_cmp_report rep;
	int status = VS_EXIT_USAGE;

	memset(&rep, 0, sizeof rep);
	memset(&baserep, 0, sizeof baserep);
	rep.missing_fails = o->missing_fails;
	if ((o->budgets.n && vs_budget_list_check(&o->budgets, res, &brep)) ||
		(o->baseline_path && vs_baseline_check(base, res, o->tol, &baserep))) {
		out_of_memory();
		goto done;
	}
	rep.res = res;
	rep.budgets = o->budgets.n ? &o->budgets : NULL;
	rep.budget_rep = o->budgets.n ? &brep : NULL;
	rep.baseline = o->baseline_path ? base : NULL;
	rep.base_rep = o->baseline_path ? &baserep : NULL;
	if (!write_outputs(o, &rep))
		goto done;
	status = vs_cmp_report_ok(&rep) ? VS_EXIT_OK : VS_EXIT_CHECK;
	if (status == VS_EXIT_CHECK && (o->main_fmt != VS_FMT_TEXT || strcmp(o->main_path, "-") != 0))
		say_why(&rep);
done:
	vs_budget_report_free(&brep);
	vs_baseline_report_free(&baserep);
	return status;
}

static void on_progress(void *ud, int done, int total)
{
	vs_progress_update(ud, (uint64_t)done, (uint64_t)total, (uint64_t)done);
}

static int run(compare_opts *o)
{
	vs_progress pg;
	vs_baseline base = { NULL, 0 };
	vs_cmp_result res;
	char err[2048];
	int status = load_inputs(o, &base);

	o->cfg.traces = (const char *const *)o->traces.v;
	o->cfg.ntraces = o->traces.n;
	o->cfg.choices = o->cs.v;
	o->cfg.nchoices = o->cs.n;
	vs_progress_start(&pg, "compare", 0);
	pg.runs = 1;
	if (pg.on) {
		o->cfg.progress = on_progress;
		o->cfg.progress_ud = &pg;
	}
	if (status < 0 && vs_cmp_run(&o->cfg, &res, err, sizeof err)) {
		vs_progress_end(&pg);
		fprintf(stderr, "%s%s\n", strstr(err, "error:") ? "" : "vramsim compare: ", err);
		status = VS_EXIT_USAGE;
	} else if (status < 0) {
		vs_progress_end(&pg);
		print_messages(&res, o->verbose);
		status = unusable(&res) || unreadable(o, &res) ? VS_EXIT_USAGE : report(o, &res, &base);
		vs_cmp_result_free(&res);
	}
	o->cfg.progress = NULL; /* pg goes with this frame */
	o->cfg.progress_ud = NULL;
	vs_baseline_free(&base);
	return status;
}

int vs_cmd_compare(int argc, char **argv)
{
	compare_opts o;
	int status;

	memset(&o, 0, sizeof o);
	vs_cmp_config_default(&o.cfg);
	o.main_fmt = VS_FMT_TEXT;
	o.main_path = "-";
	o.timing = -1;
	status = parse(argc, argv, &o);
	if (status < 0)
		status = run(&o);
	vs_budget_list_free(&o.budgets);
	vs_cli_choices_free(&o.cs);
	strlist_free(&o.traces);
	strlist_free(&o.budget_files);
	return status;
}
