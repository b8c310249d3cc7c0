/* SPDX-License-Identifier: Zlib */
/* budget.h - budgets: limits on a compared row's metrics, from flags
 * (--max-failures, ...) or a budget file, checked against a vs_cmp_result
 * (compare.h). docs/ci.md describes the file format.
 */
#ifndef VRAMSIM_COMPARE_BUDGET_H
#define VRAMSIM_COMPARE_BUDGET_H

#include <stddef.h>

#include "compare/compare.h"

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

/* The budgets of a run: every flag and every budget file line. */
typedef struct vs_budget_list {
	vs_budget *v;
	int n, cap;
} vs_budget_list;

/* One budget checked against one row. */
typedef struct vs_budget_check {
	int row, budget;
	int broken;
	double actual;
} vs_budget_check;

typedef struct vs_budget_report {
	vs_budget_check *v;
	int n, broken;
	/* the budgets (indices in the list) that matched no row: a rule that
	 * checked nothing fails the report, as a broken one does */
	int *unmatched;
	int nunmatched;
} vs_budget_report;

/* Parses a budget value for kind ("12", "0x8000", "32K", "0.25"). Returns 0
 * or -1 with err. */
int vs_budget_value(vs_budget_kind kind, const char *text, double *out, char *err, size_t errlen);
int vs_budget_list_add(vs_budget_list *b, const vs_budget *x);
/* Reads a budget file (format in docs/ci.md): a first line
 * "vramsim-budgets 1", then at least one budget line; at most 100000 lines
 * of 4095 bytes. Returns 0, or -1 with "FILE:LINE:COL: error: ..." in err. */
#define VS_BUDGETS_MARKER "vramsim-budgets"
#define VS_BUDGETS_VERSION 1
int vs_budget_list_load(vs_budget_list *b, const char *path, char *err, size_t errlen);
void vs_budget_list_free(vs_budget_list *b);
/* "max-failures 0 (FILE:LINE; trace GLOB, arena GLOB, strategy GLOB)": a
 * budget named with what it selects, for one that matched no row. */
void vs_budget_describe(const vs_budget *b, char *buf, size_t len);
/* Checks every budget against every row it matches (rows that replayed),
 * and lists the budgets that match none. */
int vs_budget_list_check(const vs_budget_list *b, const vs_cmp_result *res, vs_budget_report *out);
void vs_budget_report_free(vs_budget_report *r);

#endif
