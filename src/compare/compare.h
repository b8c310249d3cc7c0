/* SPDX-License-Identifier: Zlib */
/* compare.h - strategies side by side: a trace x strategy matrix, ranked,
 * checked against budgets and a baseline, written in five formats.
 *
 * One row per trace, arena and strategy. Each row is its own replay (the
 * strategy on that arena, the other arenas on their usual strategy), run on
 * a pool of threads; rows come out in a fixed order (traces as given,
 * arenas as declared, strategies in registry or command-line order), so the
 * output is the same bytes on every run when timing is off. The registry
 * (and plug-ins) must be complete before vs_compare_run: workers only read it.
 * docs/ci.md describes the metrics, the ranking rule and the file formats.
 */
#ifndef VRAMSIM_COMPARE_H
#define VRAMSIM_COMPARE_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "engine/replay.h"

#define VS_CMP_LABEL_MAX (VS_NAME_MAX + VS_OPTIONS_MAX + 2)

/* A strategy to compare: on every arena it can manage (arena ""), or on the
 * arena of that name only. options "" means the trace's own. */
typedef struct vs_cmp_choice {
	char arena[VS_NAME_MAX];
	const vs_strategy *strategy;
	char options[VS_OPTIONS_MAX];
} vs_cmp_choice;

typedef struct vs_cmp_config {
	const char *const *traces;   /* paths */
	int ntraces;
	const vs_cmp_choice *choices;/* NULL/0: every strategy that manages each arena */
	int nchoices;
	int jobs;                    /* worker threads (0: every online core) */
	int timing;                  /* measure host ns per allocator call */
	int check_bytes, check_rules;/* as in vs_replay_config (1 by default) */
	/* Optional: called as each replay ends (done of total), from the
	 * thread that ran it, one call at a time. */
	void (*progress)(void *ud, int done, int total);
	void *progress_ud;
} vs_cmp_config;

void vs_cmp_config_default(vs_cmp_config *c);

typedef enum vs_cmp_status {
	VS_CMP_OK = 0,       /* replayed clean */
	VS_CMP_INTEGRITY,    /* replayed, an integrity check failed */
	VS_CMP_REFUSED,      /* the strategy refused the arena at set-up */
	VS_CMP_ERROR         /* the trace could not be replayed (malformed, no memory) */
} vs_cmp_status;

const char *vs_cmp_status_name(vs_cmp_status s);

typedef struct vs_cmp_row {
	char trace[1024];          /* the path as given, leading "./" dropped: the row's key */
	char arena[VS_NAME_MAX];
	char kind[16];
	char strategy[VS_CMP_LABEL_MAX]; /* NAME or NAME:OPTIONS */
	int explicit_choice;       /* named on the command line */
	vs_cmp_status status;
	char note[1024];           /* refusal or error text */
	vs_metrics m;              /* at the end of the trace */
	double peak_frag, mean_frag; /* rounded to 6 decimals (same on every machine) */
	/* captured at the first event where live bytes reached their peak */
	uint64_t peak_event;
	uint64_t peak_free_extents;
	uint64_t peak_largest_free;
	uint64_t peak_internal;    /* internal fragmentation: (granted - requested) + overhead of live allocations */
	uint64_t peak_overhead;    /* headers and padding of live allocations */
	/* host time of the strategy's alloc/free calls (timing on only) */
	uint64_t calls;
	double ns_per_op;
	char *messages;            /* diagnostics and integrity lines, or NULL */
	int rank;                  /* 1 = best of its trace and arena; 0: not ranked */
} vs_cmp_row;

/* The best row of one trace and arena, and why. */
typedef struct vs_cmp_best {
	int row;                   /* index in rows, -1: nothing ran clean */
	char trace[1024];
	char arena[VS_NAME_MAX];
	char why[512];
} vs_cmp_best;

typedef struct vs_cmp_result {
	vs_cmp_row *rows;
	int nrows;
	vs_cmp_best *best;
	int nbest;
	int timing;
} vs_cmp_result;

/* Plans and runs the matrix. Returns 0, or -1 with err (a trace that will not
 * open, a named strategy that manages none of a trace's arenas). Rows that
 * failed in a worker carry VS_CMP_ERROR and their message in note. */
int vs_compare_run(const vs_cmp_config *cfg, vs_cmp_result *res, char *err, size_t errlen);
void vs_cmp_result_free(vs_cmp_result *res);
/* Ranks the rows of each trace and arena (done by vs_compare_run; exposed for
 * results built by hand). The rule: fewest failures, then lowest peak
 * fragmentation, then lowest high-water, then least internal fragmentation
 * at peak, then the earlier row. Only VS_CMP_OK rows are ranked. */
void vs_cmp_rank(vs_cmp_result *res);

/* ---- budgets ----------------------------------------------------------- */

typedef enum vs_budget_kind {
	VS_BUDGET_FAILURES = 0,  /* max-failures N */
	VS_BUDGET_PEAK_LIVE,     /* max-peak-live BYTES */
	VS_BUDGET_PEAK_FRAG,     /* max-peak-frag F (0..1) */
	VS_BUDGET_HIGH_WATER,    /* max-high-water BYTES */
	VS_BUDGET_KINDS
} vs_budget_kind;

const char *vs_budget_kind_name(vs_budget_kind k); /* "max-failures", ... */

typedef struct vs_budget {
	vs_budget_kind kind;
	double limit;
	char trace[512];         /* glob on the trace key or its base name; "" = all */
	char arena[VS_NAME_MAX]; /* glob; "" = all */
	char strategy[VS_NAME_MAX * 2]; /* glob on the name (or label); "" = all */
	char origin[600];        /* "--max-failures" or "FILE:LINE" */
} vs_budget;

typedef struct vs_budgets {
	vs_budget *v;
	int n, cap;
} vs_budgets;

/* One budget checked against one row. */
typedef struct vs_budget_check {
	int row, budget;
	int broken;
	double actual;
} vs_budget_check;

typedef struct vs_budget_report {
	vs_budget_check *v;
	int n, broken;
} vs_budget_report;

/* Parses a budget value for kind ("12", "0x8000", "32K", "0.25"). Returns 0
 * or -1 with err. */
int vs_budget_value(vs_budget_kind kind, const char *text, double *out, char *err, size_t errlen);
int vs_budgets_add(vs_budgets *b, const vs_budget *x);
/* Reads a budget file (format in docs/ci.md): a first line
 * "vramsim-budgets 1", then at least one budget line; at most 100000 lines
 * of 4095 bytes. Returns 0, or -1 with "FILE:LINE:COL: error: ..." in err. */
#define VS_BUDGETS_MARKER "vramsim-budgets"
#define VS_BUDGETS_VERSION 1
int vs_budgets_load(vs_budgets *b, const char *path, char *err, size_t errlen);
void vs_budgets_free(vs_budgets *b);
/* Checks every budget against every row it matches (rows that replayed). */
int vs_budgets_check(const vs_budgets *b, const vs_cmp_result *res, vs_budget_report *out);
void vs_budget_report_free(vs_budget_report *r);

/* ---- baselines ---------------------------------------------------------- */

/* Metrics a baseline compares; lower is better for each. */
typedef enum vs_cmp_metric {
	VS_MET_FAILURES = 0,
	VS_MET_PEAK_FRAG,
	VS_MET_MEAN_FRAG,
	VS_MET_INTERNAL,
	VS_MET_HIGH_WATER,
	VS_MET_PEAK_EXTENTS,
	VS_MET_KINDS
} vs_cmp_metric;

const char *vs_cmp_metric_name(vs_cmp_metric k); /* the JSON key: "failures", "peak_frag", ... */
double vs_cmp_metric_value(const vs_cmp_row *r, vs_cmp_metric k);

/* A worsening passes while new <= old * (1 + ratio) + abs. */
typedef struct vs_tolerance { double ratio, abs; } vs_tolerance;
/* "RATIO[,ABS]" or "METRIC=RATIO[,ABS]" applied to tol[VS_MET_KINDS]. */
int vs_tolerance_parse(vs_tolerance *tol, const char *text, char *err, size_t errlen);

typedef struct vs_baseline_row {
	char trace[1024];
	char arena[VS_NAME_MAX];
	char strategy[VS_CMP_LABEL_MAX];
	double v[VS_MET_KINDS];
	int has[VS_MET_KINDS];
} vs_baseline_row;

typedef struct vs_baseline {
	vs_baseline_row *rows;
	int n;
} vs_baseline;

/* The baseline document of a result (no timing): {"vramsim_baseline": 1, "rows": [...]}. */
cJSON *vs_baseline_json(const vs_cmp_result *res);
/* Reads a baseline (or a `compare --format json` document): JSON of at
 * most VS_BASELINE_MAX_BYTES with "vramsim_baseline": 1 (or
 * "vramsim_compare": 1) and at least one row; counts are whole numbers
 * below 2^64, fractions 0 to 1. Returns 0, or -1 with
 * "FILE[:LINE:COL]: error: ..." in err. */
#define VS_BASELINE_VERSION 1
#define VS_BASELINE_MAX_BYTES (64 << 20)
int vs_baseline_load(vs_baseline *b, const char *path, char *err, size_t errlen);
int vs_baseline_parse(vs_baseline *b, const char *text, const char *name, char *err, size_t errlen);
void vs_baseline_free(vs_baseline *b);

typedef enum vs_finding_kind {
	VS_FIND_REGRESSION = 0, /* worse beyond tolerance: fails */
	VS_FIND_WORSE,          /* worse within tolerance: passes, reported */
	VS_FIND_IMPROVED,
	VS_FIND_NEW,            /* a row the baseline lacks */
	VS_FIND_MISSING         /* a baseline row this run lacks */
} vs_finding_kind;

typedef struct vs_finding {
	vs_finding_kind kind;
	int row;                /* result row, or -1 (missing) */
	int base;               /* baseline row, or -1 (new) */
	vs_cmp_metric metric;   /* regression / worse / improved */
	double old_v, new_v, allowed;
} vs_finding;

typedef struct vs_baseline_report {
	vs_finding *v;
	int n;
	int regressions, improvements, worse, added, missing;
	int compared_rows;
} vs_baseline_report;

int vs_baseline_check(const vs_baseline *b, const vs_cmp_result *res, const vs_tolerance tol[VS_MET_KINDS],
	vs_baseline_report *out);
void vs_baseline_report_free(vs_baseline_report *r);

/* ---- output -------------------------------------------------------------- */

typedef enum vs_cmp_format {
	VS_FMT_TEXT = 0, VS_FMT_MARKDOWN, VS_FMT_CSV, VS_FMT_JSON, VS_FMT_JUNIT, VS_FMT_COUNT
} vs_cmp_format;

/* "text", "markdown" (or "md"), "csv", "json", "junit"; -1 when unknown. */
int vs_cmp_format_parse(const char *name);
const char *vs_cmp_format_name(vs_cmp_format f); /* "text", ...; "?" when unknown */

typedef struct vs_cmp_report {
	const vs_cmp_result *res;
	const vs_budgets *budgets;          /* may be NULL */
	const vs_budget_report *budget_rep; /* may be NULL */
	const vs_baseline *baseline;        /* may be NULL */
	const vs_baseline_report *base_rep; /* may be NULL */
	int missing_fails;                  /* missing baseline rows count as failures */
	int changes_only;                   /* text and Markdown: only what changed against the
	                                     * baseline (needs base_rep), the full table folded
	                                     * away (Markdown) or left out (text); other formats
	                                     * are written whole */
} vs_cmp_report;

/* Whether the report passes: no integrity failure, no broken budget, no
 * regression (nor missing row when missing_fails). */
int vs_cmp_report_ok(const vs_cmp_report *rep);
/* Writes the report in a format. Returns 0, or -1 on an output error (or
 * changes_only without base_rep). */
int vs_cmp_write(FILE *fp, const vs_cmp_report *rep, vs_cmp_format fmt);

#endif
