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
#include "vramsim/compare.h"

#define CMD "compare"

static void help(void)
{
	printf(
		"usage: vramsim compare TRACE|DIR... [options]\n"
		"\n"
		"Replays each trace once per strategy and arena and prints one row per trace,\n"
		"arena and strategy: failures by kind, peak live bytes, peak and mean\n"
		"fragmentation, internal fragmentation and free extents at peak, high-water,\n"
		"smallest failed request, host ns per allocator call; then the best strategy\n"
		"per trace and arena, and why. A DIR stands for its *.trace files, by name.\n"
		"Traces run in parallel; rows come out in a fixed order.\n"
		"\n"
		"options:\n"
		"  -s, --strategy A,B,...     compare these (NAME[:OPTS] or ARENA=NAME[:OPTS]);\n"
		"                             default: every strategy that can manage each arena\n"
		"  --plugin PATH              load strategies from a plug-in (.so) first\n"
		"  -f, --format FMT           text (default), markdown, csv, json, junit\n"
		"  -o, --output FILE          write that format to FILE instead of standard output\n"
		"  --out FMT=FILE             also write FMT to FILE (repeatable; '-' is stdout)\n"
		"  --no-timing                leave out ns/op: output is the same bytes every run\n"
		"  -j, --jobs N               worker threads (default: every online core)\n"
		"budgets (exit 1 when any row breaks one):\n"
		"  --max-failures N           failed allocations\n"
		"  --max-peak-live BYTES      peak requested bytes live (N, 0xN, NK, NM)\n"
		"  --max-peak-frag F          peak fragmentation, 0 to 1\n"
		"  --max-high-water BYTES     highest end offset ever taken\n"
		"  --budgets FILE             per-trace budgets (format in docs/ci.md)\n"
		"baselines:\n"
		"  --write-baseline FILE      store this run's metrics (JSON)\n"
		"  --baseline FILE            exit 1 when a metric worsens beyond tolerance\n"
		"  --tolerance [METRIC=]RATIO[,ABS]\n"
		"                             a metric may grow to old*(1+RATIO)+ABS (default 0,0);\n"
		"                             METRIC: failures, peak_frag, mean_frag, internal_frag,\n"
		"                             high_water, peak_free_extents\n"
		"  --missing-fails            baseline rows absent from this run fail too\n"
		"other:\n"
		"  --no-checks                skip byte and hardware-rule checks (faster)\n"
		"  -v, --verbose              print every replay diagnostic (standard error)\n"
		"\n"
		"exit: 0 ok, 1 a budget or the baseline was broken or an integrity check failed,\n"
		"2 bad usage, unknown strategy, malformed trace, budget or baseline file, or an\n"
		"output that cannot be written (no output file is left half-written).\n");
}

typedef struct strlist {
	char **v;
	int n, cap;
} strlist;

static int push(strlist *l, const char *s)
{
	char *d;

	if (l->n == l->cap) {
		int ncap = l->cap ? l->cap * 2 : 16;
		char **nv = realloc(l->v, (size_t)ncap * sizeof *nv);
		if (!nv)
			return -1;
		l->v = nv;
		l->cap = ncap;
	}
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

/* A directory stands for its *.trace files, sorted by name. */
static int add_trace_arg(strlist *traces, const char *arg)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	strlist found = { NULL, 0, 0 };
	int i, rc = 0;

	if (strcmp(arg, "-") == 0)
		return vs_cli_usage_error(CMD, "traces are read several times: standard input ('-') cannot be one");
	if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode))
		return push(traces, arg) ? vs_cli_usage_error(CMD, "out of memory") : 0;
	d = opendir(arg);
	if (!d)
		return vs_cli_usage_error(CMD, "cannot read directory %s", arg);
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		char path[4096];
		if (e->d_name[0] == '.' || n < 7 || strcmp(e->d_name + n - 6, ".trace") != 0)
			continue;
		snprintf(path, sizeof path, "%s%s%s", arg, arg[strlen(arg) - 1] == '/' ? "" : "/", e->d_name);
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

/* Whether text up to ':' (or the end) names a strategy. */
static int names_strategy(const char *s)
{
	char name[VS_NAME_MAX + 1];
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);

	if (n == 0 || n > VS_NAME_MAX)
		return 0;
	memcpy(name, s, n);
	name[n] = '\0';
	return vs_strategy_find(name) != NULL;
}

/* Splits "a,b:x=1,y=2,ARENA=c" into choices. A piece KEY=VALUE right after a
 * piece with options, whose VALUE is no strategy name, continues those
 * options ("b:x=1,y=2"); otherwise KEY=VALUE is ARENA=STRATEGY. */
static int parse_choices(const strlist *specs, vs_cmp_choice **out, int *nout)
{
	vs_cmp_choice *v = NULL;
	int n = 0, cap = 0, k;

	for (k = 0; k < specs->n; k++) {
		char *copy = malloc(strlen(specs->v[k]) + 1), *piece, *save = NULL;
		if (!copy)
			goto oom;
		strcpy(copy, specs->v[k]);
		for (piece = strtok_r(copy, ",", &save); piece; piece = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(piece, '='), *colon = strchr(piece, ':'), *name = piece;
			vs_cmp_choice *c;
			size_t nl;
			if (eq && (!colon || eq < colon) && n > 0 && v[n - 1].options[0] && !names_strategy(eq + 1)) {
				size_t used = strlen(v[n - 1].options);
				if (used + 1 + strlen(piece) >= sizeof v[n - 1].options) {
					int rc = vs_cli_usage_error(CMD, "--strategy: options of %s too long",
						v[n - 1].strategy->name);
					free(copy);
					free(v);
					return rc;
				}
				v[n - 1].options[used] = ',';
				strcpy(v[n - 1].options + used + 1, piece);
				continue;
			}
			if (n == cap) {
				vs_cmp_choice *nv = realloc(v, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *nv);
				if (!nv) {
					free(copy);
					goto oom;
				}
				v = nv;
			}
			c = &v[n];
			memset(c, 0, sizeof *c);
			if (eq && (!colon || eq < colon)) {
				if ((size_t)(eq - piece) >= sizeof c->arena || eq == piece) {
					free(copy);
					free(v);
					return vs_cli_usage_error(CMD, "--strategy '%s': bad arena name", piece);
				}
				memcpy(c->arena, piece, (size_t)(eq - piece));
				name = eq + 1;
			}
			colon = strchr(name, ':');
			nl = colon ? (size_t)(colon - name) : strlen(name);
			if (nl == 0 || nl > VS_NAME_MAX) {
				free(copy);
				free(v);
				return vs_cli_usage_error(CMD, "--strategy '%s': expected NAME, NAME:OPTIONS or ARENA=NAME", piece);
			}
			if (colon) {
				if (strlen(colon + 1) >= sizeof c->options) {
					free(copy);
					free(v);
					return vs_cli_usage_error(CMD, "--strategy '%s': options too long", piece);
				}
				strcpy(c->options, colon + 1);
				*colon = '\0';
			}
			c->strategy = vs_strategy_find(name);
			if (!c->strategy) {
				int rc = vs_cli_usage_error(CMD, "unknown strategy '%s' (see 'vramsim strategies')", name);
				free(copy);
				free(v);
				return rc;
			}
			n++;
		}
		free(copy);
	}
	*out = v;
	*nout = n;
	return 0;
oom:
	free(v);
	return vs_cli_usage_error(CMD, "out of memory");
}

typedef struct output {
	int fmt;
	const char *path;
	FILE *fp;
	char tmp[4200];
} output;

#define MAX_OUTPUTS 16

static int parse_int(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 1 || v > 4096)
		return -1;
	*out = (int)v;
	return 0;
}

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
			fprintf(stderr, "vramsim compare: %s %s %s: %s\n", r->trace, r->arena, r->strategy, r->note);
	}
}

int vs_cmd_compare(int argc, char **argv)
{
	strlist traces = { NULL, 0, 0 }, specs = { NULL, 0, 0 }, budget_files = { NULL, 0, 0 };
	vs_cmp_config cfg;
	vs_cmp_choice *choices = NULL;
	int nchoices = 0;
	vs_budgets budgets = { NULL, 0, 0 };
	vs_budget_report brep = { NULL, 0, 0 };
	vs_baseline base = { NULL, 0 };
	vs_baseline_report baserep;
	vs_tolerance tol[VS_MET_KINDS];
	vs_cmp_result res;
	vs_cmp_report rep;
	output outs[MAX_OUTPUTS];
	int nouts = 0, main_fmt = VS_FMT_TEXT, i, k, status = VS_EXIT_USAGE, verbose = 0, have_res = 0;
	const char *main_path = "-", *baseline_path = NULL, *write_baseline = NULL;
	char err[2048];
	FILE *bfp = NULL;
	char btmp[4200];

	vs_cmp_config_default(&cfg);
	memset(tol, 0, sizeof tol);
	memset(&rep, 0, sizeof rep);
	memset(&baserep, 0, sizeof baserep);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int c = vs_cli_common_option(CMD, argc, argv, &i);
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (c < 0)
			goto done;
		if (c > 0)
			continue;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			help();
			status = VS_EXIT_OK;
			goto done;
		}
		if (strcmp(a, "--no-timing") == 0) {
			cfg.timing = 0;
			continue;
		}
		if (strcmp(a, "--no-checks") == 0) {
			cfg.check_bytes = cfg.check_rules = 0;
			continue;
		}
		if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
			verbose = 1;
			continue;
		}
		if (strncmp(a, "-j", 2) == 0 && a[2] >= '0' && a[2] <= '9') {
			if (parse_int(a + 2, &cfg.jobs)) {
				vs_cli_usage_error(CMD, "-j: '%s' is not a thread count (1 to 4096)", a + 2);
				goto done;
			}
			continue;
		}
		if (strcmp(a, "--missing-fails") == 0) {
			rep.missing_fails = 1;
			continue;
		}
		if (a[0] == '-' && a[1]) {
			/* every other option takes a value */
			if (strcmp(a, "--strategy") && strcmp(a, "-s") && strcmp(a, "--format") && strcmp(a, "-f") &&
				strcmp(a, "--output") && strcmp(a, "-o") && strcmp(a, "--out") && strcmp(a, "--jobs") &&
				strcmp(a, "-j") && strcmp(a, "--budgets") && strcmp(a, "--baseline") &&
				strcmp(a, "--write-baseline") && strcmp(a, "--tolerance") && strncmp(a, "--max-", 6)) {
				vs_cli_usage_error(CMD, "unknown option '%s'", a);
				goto done;
			}
			if (!val) {
				vs_cli_usage_error(CMD, "%s needs a value", a);
				goto done;
			}
			i++;
		}
		if (strcmp(a, "--strategy") == 0 || strcmp(a, "-s") == 0) {
			if (push(&specs, val))
				goto oom;
		} else if (strcmp(a, "--format") == 0 || strcmp(a, "-f") == 0) {
			if ((main_fmt = vs_cmp_format_parse(val)) < 0) {
				vs_cli_usage_error(CMD, "unknown format '%s' (text, markdown, csv, json, junit)", val);
				goto done;
			}
		} else if (strcmp(a, "--output") == 0 || strcmp(a, "-o") == 0) {
			main_path = val;
		} else if (strcmp(a, "--out") == 0) {
			const char *eq = strchr(val, '=');
			char name[16];
			if (!eq || !eq[1] || (size_t)(eq - val) >= sizeof name) {
				vs_cli_usage_error(CMD, "--out %s: expected FORMAT=FILE", val);
				goto done;
			}
			snprintf(name, sizeof name, "%.*s", (int)(eq - val), val);
			if (nouts == MAX_OUTPUTS - 1) {
				vs_cli_usage_error(CMD, "too many --out options");
				goto done;
			}
			outs[nouts].fmt = vs_cmp_format_parse(name);
			outs[nouts].path = eq + 1;
			if (outs[nouts].fmt < 0) {
				vs_cli_usage_error(CMD, "--out %s: unknown format '%s' (text, markdown, csv, json, junit)", val,
					name);
				goto done;
			}
			nouts++;
		} else if (strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) {
			if (parse_int(val, &cfg.jobs)) {
				vs_cli_usage_error(CMD, "--jobs: '%s' is not a thread count (1 to 4096)", val);
				goto done;
			}
		} else if (strcmp(a, "--budgets") == 0) {
			if (push(&budget_files, val))
				goto oom;
		} else if (strcmp(a, "--baseline") == 0) {
			baseline_path = val;
		} else if (strcmp(a, "--write-baseline") == 0) {
			write_baseline = val;
		} else if (strcmp(a, "--tolerance") == 0) {
			if (vs_tolerance_parse(tol, val, err, sizeof err)) {
				vs_cli_usage_error(CMD, "%s", err);
				goto done;
			}
		} else if (strncmp(a, "--max-", 6) == 0) {
			vs_budget b;
			memset(&b, 0, sizeof b);
			for (k = 0; k < VS_BUDGET_KINDS; k++)
				if (strcmp(a + 2, vs_budget_kind_name((vs_budget_kind)k)) == 0)
					break;
			if (k == VS_BUDGET_KINDS) {
				vs_cli_usage_error(CMD, "unknown option '%s'", a);
				goto done;
			}
			b.kind = (vs_budget_kind)k;
			if (vs_budget_value(b.kind, val, &b.limit, err, sizeof err)) {
				vs_cli_usage_error(CMD, "%s", err);
				goto done;
			}
			snprintf(b.origin, sizeof b.origin, "%s", a);
			if (vs_budgets_add(&budgets, &b))
				goto oom;
		} else if (add_trace_arg(&traces, a)) {
			goto done;
		}
	}
	if (!traces.n) {
		vs_cli_usage_error(CMD, "no trace given");
		goto done;
	}
	if (parse_choices(&specs, &choices, &nchoices))
		goto done;
	for (i = 0; i < budget_files.n; i++) {
		if (vs_budgets_load(&budgets, budget_files.v[i], err, sizeof err)) {
			fprintf(stderr, "%s\n", err);
			goto done;
		}
	}
	if (baseline_path && vs_baseline_load(&base, baseline_path, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		goto done;
	}

	cfg.traces = (const char *const *)traces.v;
	cfg.ntraces = traces.n;
	cfg.choices = choices;
	cfg.nchoices = nchoices;
	if (vs_compare_run(&cfg, &res, err, sizeof err)) {
		fprintf(stderr, "%s%s\n", strstr(err, "error:") ? "" : "vramsim compare: ", err);
		goto done;
	}
	have_res = 1;
	print_messages(&res, verbose);
	for (i = 0; i < res.nrows; i++) {
		const vs_cmp_row *r = &res.rows[i];
		if (r->status == VS_CMP_ERROR || (r->status == VS_CMP_REFUSED && r->explicit_choice)) {
			fprintf(stderr, "vramsim compare: %s, nothing written\n",
				r->status == VS_CMP_ERROR ? "a trace could not be replayed" : "a strategy named refused an arena");
			goto done;
		}
	}
	if (budgets.n && vs_budgets_check(&budgets, &res, &brep))
		goto oom;
	if (baseline_path && vs_baseline_check(&base, &res, tol, &baserep))
		goto oom;
	rep.res = &res;
	rep.budgets = budgets.n ? &budgets : NULL;
	rep.budget_rep = budgets.n ? &brep : NULL;
	rep.baseline = baseline_path ? &base : NULL;
	rep.base_rep = baseline_path ? &baserep : NULL;

	/* Every output is written to a temporary file and renamed into place only
	 * when all of them were written whole. */
	outs[nouts].fmt = main_fmt;
	outs[nouts].path = main_path;
	nouts++;
	{
		int ok = 1, opened = 0;
		for (i = 0; i < nouts && ok; i++, opened++)
			if (!(outs[i].fp = vs_cli_out_open(outs[i].path, outs[i].tmp, sizeof outs[i].tmp)))
				ok = 0;
		if (ok && write_baseline && !(bfp = vs_cli_out_open(write_baseline, btmp, sizeof btmp)))
			ok = 0;
		for (i = 0; i < opened && ok; i++)
			if (vs_cmp_write(outs[i].fp, &rep, (vs_cmp_format)outs[i].fmt) || fflush(outs[i].fp))
				ok = 0;
		if (ok && bfp) {
			cJSON *o = vs_baseline_json(&res);
			char *s = o ? cJSON_Print(o) : NULL;
			if (!s || fputs(s, bfp) < 0 || fputc('\n', bfp) < 0 || fflush(bfp))
				ok = 0;
			free(s);
			cJSON_Delete(o);
		}
		for (i = 0; i < opened; i++)
			if (outs[i].fp && vs_cli_out_close(outs[i].fp, outs[i].path, outs[i].tmp, ok))
				ok = 0;
		if (bfp && vs_cli_out_close(bfp, write_baseline, btmp, ok))
			ok = 0;
		if (!ok) {
			fprintf(stderr, "vramsim compare: output not written\n");
			goto done;
		}
	}
	status = vs_cmp_report_ok(&rep) ? VS_EXIT_OK : VS_EXIT_CHECK;
	if (status == VS_EXIT_CHECK && (main_fmt != VS_FMT_TEXT || strcmp(main_path, "-") != 0)) {
		/* the table went elsewhere: say on stderr why the run failed */
		for (i = 0; rep.budget_rep && i < brep.n; i++)
			if (brep.v[i].broken) {
				const vs_budget *b = &budgets.v[brep.v[i].budget];
				const vs_cmp_row *r = &res.rows[brep.v[i].row];
				fprintf(stderr, "vramsim compare: budget broken: %s %s %s: %s %.6g, actual %.6g (%s)\n", r->trace,
					r->arena, r->strategy, vs_budget_kind_name(b->kind), b->limit, brep.v[i].actual, b->origin);
			}
		if (rep.base_rep && baserep.regressions)
			fprintf(stderr, "vramsim compare: %d baseline regression%s\n", baserep.regressions,
				baserep.regressions == 1 ? "" : "s");
	}
	goto done;
oom:
	fprintf(stderr, "vramsim compare: out of memory\n");
	status = VS_EXIT_USAGE;
done:
	if (have_res)
		vs_cmp_result_free(&res);
	vs_budget_report_free(&brep);
	vs_baseline_report_free(&baserep);
	vs_baseline_free(&base);
	vs_budgets_free(&budgets);
	free(choices);
	strlist_free(&traces);
	strlist_free(&specs);
	strlist_free(&budget_files);
	return status;
}
