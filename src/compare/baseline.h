/* SPDX-License-Identifier: Zlib */
/* baseline.h - baselines: a comparison's metrics (compare.h) stored, and a
 * later run checked against them within tolerances. docs/ci.md describes
 * the file format.
 */
#ifndef VRAMSIM_COMPARE_BASELINE_H
#define VRAMSIM_COMPARE_BASELINE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "compare/compare.h"

/* A worsening passes while new <= old * (1 + ratio) + abs: per metric, in
 * the check against a baseline (compare --tolerance) and in `vramsim diff`,
 * which takes the same --tolerance. */
typedef struct vs_baseline_tolerance { double ratio, abs; } vs_baseline_tolerance;
/* "RATIO[,ABS]" or "METRIC=RATIO[,ABS]" applied to tol[VS_MET_KINDS]. */
int vs_baseline_tolerance_parse(vs_baseline_tolerance *tol, const char *text, char *err, size_t errlen);

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

/* The baseline document of a result (no timing): {"vramsim_baseline": 1, "rows": [...]}.
 * Written only when vs_baseline_unreadable finds no row. */
cJSON *vs_baseline_json(const vs_cmp_result *res);
/* The first row stored in a baseline whose key the reader would refuse (a
 * trace, arena or strategy name with a control character or bytes that are
 * not UTF-8: it takes printable names only), or -1 when there is none. */
int vs_baseline_unreadable(const vs_cmp_result *res);
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

int vs_baseline_check(const vs_baseline *b, const vs_cmp_result *res, const vs_baseline_tolerance tol[VS_MET_KINDS],
	vs_baseline_report *out);
void vs_baseline_report_free(vs_baseline_report *r);

#endif
