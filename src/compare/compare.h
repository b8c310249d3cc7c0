/* SPDX-License-Identifier: Zlib */
/* compare.h - strategies side by side: a trace x strategy matrix, ranked,
 * checked against budgets (budget.h) and a baseline (baseline.h), written in
 * five formats.
 *
 * One row per trace, arena and strategy. Each row is its own replay (the
 * strategy on that arena, the other arenas on their usual strategy), run on
 * a pool of threads; rows come out in a fixed order (traces as given,
 * arenas as declared, strategies in registry or command-line order), so the
 * output is the same bytes on every run when timing is off. The registry
 * (and plug-ins) must be complete before vs_cmp_run: workers only read it.
 * docs/ci.md describes the metrics, the ranking rule and the file formats.
 */
#ifndef VRAMSIM_COMPARE_H
#define VRAMSIM_COMPARE_H

#include <stdint.h>
#include <stdio.h>

#include "engine/replay.h"

#define VS_CMP_LABEL_MAX (VS_NAME_MAX + VS_OPTIONS_MAX + 2)
/* The bytes of a row's trace key at most: a trace path longer is refused,
 * never cut, so that two traces never share a key. */
#define VS_CMP_TRACE_MAX 1023

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
	/* the path as given, leading "./" dropped (with the slashes after it):
	 * the row's key, one per file */
	char trace[VS_CMP_TRACE_MAX + 1];
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
	char trace[VS_CMP_TRACE_MAX + 1];
	char arena[VS_NAME_MAX];
	char why[512];
} vs_cmp_best;

/* An arena of a trace that no row compared: the strategies named manage
 * none of its kind. Said in every format, never passed over in silence. */
typedef struct vs_cmp_unmatched {
	char trace[VS_CMP_TRACE_MAX + 1];
	char arena[VS_NAME_MAX];
	char kind[32];
} vs_cmp_unmatched;

typedef struct vs_cmp_result {
	vs_cmp_row *rows;
	int nrows;
	vs_cmp_best *best;
	int nbest;
	vs_cmp_unmatched *unmatched;
	int nunmatched, unmatched_cap;
	int timing;
} vs_cmp_result;

/* Plans and runs the matrix. Returns 0, or -1 with err (a trace that will not
 * open, a trace path over VS_CMP_TRACE_MAX bytes, one file given twice by
 * any names, a named strategy that manages none of a trace's arenas). Rows that
 * failed in a worker carry VS_CMP_ERROR and their message in note. */
int vs_cmp_run(const vs_cmp_config *cfg, vs_cmp_result *res, char *err, size_t errlen);
void vs_cmp_result_free(vs_cmp_result *res);
/* Ranks the rows of each trace and arena (done by vs_cmp_run; exposed for
 * results built by hand). The rule: fewest failures, then lowest peak
 * fragmentation, then lowest high-water, then least internal fragmentation
 * at peak, then the earlier row. Only VS_CMP_OK rows are ranked. */
void vs_cmp_rank(vs_cmp_result *res);

/* ---- metrics ------------------------------------------------------------ */

/* Metrics a baseline (baseline.h) compares; lower is better for each. */
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

/* ---- output -------------------------------------------------------------- */

typedef enum vs_cmp_format {
	VS_FMT_TEXT = 0, VS_FMT_MARKDOWN, VS_FMT_CSV, VS_FMT_JSON, VS_FMT_JUNIT, VS_FMT_COUNT
} vs_cmp_format;

/* "text", "markdown" (or "md"), "csv", "json", "junit"; -1 when unknown. */
int vs_cmp_format_parse(const char *name);
const char *vs_cmp_format_name(vs_cmp_format f); /* "text", ...; "?" when unknown */

/* What a report shows besides the rows: budget.h's and baseline.h's types,
 * which are built on this header's. */
struct vs_budget_list;
struct vs_budget_report;
struct vs_baseline;
struct vs_baseline_report;

typedef struct vs_cmp_report {
	const vs_cmp_result *res;
	const struct vs_budget_list *budgets;          /* may be NULL */
	const struct vs_budget_report *budget_rep;     /* may be NULL */
	const struct vs_baseline *baseline;            /* may be NULL */
	const struct vs_baseline_report *base_rep;     /* may be NULL */
	int missing_fails;                             /* missing baseline rows count as failures */
	int changes_only;                              /* text and Markdown: only what changed against
	                                                * the baseline (needs base_rep), the full
	                                                * table folded away (Markdown) or left out
	                                                * (text); other formats are written whole */
} vs_cmp_report;

/* Whether the report passes: no integrity failure, no broken budget, no
 * regression (nor missing row when missing_fails). Arenas not compared do
 * not fail it, but its result line says "incomplete", not "ok". */
int vs_cmp_report_ok(const vs_cmp_report *rep);
/* Writes the report in a format. Returns 0, or -1 on an output error (or
 * changes_only without base_rep). */
int vs_cmp_write(FILE *fp, const vs_cmp_report *rep, vs_cmp_format fmt);

#endif
