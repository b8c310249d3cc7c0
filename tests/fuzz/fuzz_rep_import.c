/* SPDX-License-Identifier: Zlib */
/* fuzz_rep_import.c - `vramsim import`: malloc-lab .rep traces (CS:APP,
 * CMU, short form) to trace text. */
#include "fuzz_common.h"
#include "trace/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];
	FILE *in, *out;
	vs_rep_options opt;
	vs_rep_stats st;

	if (size == 0 || size > VS_FUZZ_MAX_INPUT || !(in = fmemopen((void *)data, size, "rb")))
		return 0;
	if (!(out = fopen("/dev/null", "w"))) {
		fclose(in);
		return 0;
	}
	memset(&opt, 0, sizeof opt);
	vs_rep_import(in, "fuzz.rep", out, &opt, &st, err, sizeof err);
	fclose(out);
	fclose(in);
	return 0;
}
