/* SPDX-License-Identifier: Zlib */
/* fuzz_trace_replay.c - the trace reader, then a replay of what it accepts
 * under each arena's default strategy, with every check on. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "engine/replay.h"

#define MAX_ARENA_BYTES (4u << 20) /* bigger arenas are the soak's, not the fuzzer's */

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];
	FILE *fp;
	vs_trace_reader *rd;
	vs_replay_config cfg;
	vs_replay *r;
	const vs_trace_header *h;
	uint64_t total = 0;
	int i;

	if (size == 0 || size > VS_FUZZ_MAX_INPUT || !(fp = fmemopen((void *)data, size, "rb")))
		return 0;
	if (!(rd = vs_trace_open_stream(fp, "fuzz", err, sizeof err))) {
		fclose(fp);
		return 0;
	}
	h = vs_trace_header_of(rd);
	for (i = 0; i < h->narenas; i++)
		total += h->arenas[i].size;
	if (total > MAX_ARENA_BYTES) {
		vs_trace_close(rd);
		fclose(fp);
		return 0;
	}
	vs_replay_config_default(&cfg);
	cfg.message = quiet;
	if ((r = vs_replay_new(rd, &cfg, err, sizeof err)) != NULL) {
		vs_replay_run(r, 0);
		vs_replay_free(r);
	}
	fclose(fp);
	return 0;
}
