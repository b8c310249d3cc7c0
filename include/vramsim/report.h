/* SPDX-License-Identifier: Zlib */
/* report.h - replay results as text and JSON, shared by the front ends. */
#ifndef VRAMSIM_REPORT_H
#define VRAMSIM_REPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "vramsim/replay.h"

/* The summary of a finished (or stopped) replay, for people. */
void vs_report_text(FILE *fp, const vs_replay *r);
/* The same as a JSON object (caller frees with cJSON_Delete). */
cJSON *vs_report_json(const vs_replay *r);
/* One arena's metrics as a JSON object. */
cJSON *vs_report_metrics_json(const vs_metrics *m);
/* The state right now: metrics, live allocations by address, free extents. */
void vs_report_state(FILE *fp, const vs_replay *r);

#endif
