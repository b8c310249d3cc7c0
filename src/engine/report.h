/* SPDX-License-Identifier: Zlib */
/* report.h - replay results as text and JSON, shared by the front ends. */
#ifndef VRAMSIM_REPORT_H
#define VRAMSIM_REPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "engine/replay.h"
#include "engine/results.h"

/* The summary of a finished (or stopped) replay, for people. */
void vs_report_text(FILE *fp, const vs_replay *r);
/* The same as a JSON object (caller frees with cJSON_Delete). */
cJSON *vs_report_json(const vs_replay *r);
/* Failures by kind as an object keyed by kind name, spaces as '_'
 * ("out_of_memory", "fragmented", ...). */
cJSON *vs_report_fail_kinds_json(const uint64_t fail[VS_FAIL_KINDS]);
/* The failed requests (the first VS_REPORT_FAILURES_SHOWN, then how many
 * more) and the per-tag table of each arena, for people. */
#define VS_REPORT_FAILURES_SHOWN 20
void vs_report_results_text(FILE *fp, const vs_replay *r, const vs_results *x);
/* The same into a run's JSON object: "failures" (every one kept),
 * "failures_total", and "tags" in each arena. */
void vs_report_results_json(cJSON *run, const vs_replay *r, const vs_results *x);
/* The state right now: metrics, live allocations by address, free extents. */
void vs_report_state(FILE *fp, const vs_replay *r);

#endif
