/* SPDX-License-Identifier: Zlib */
/* fuzz_baseline.c - baseline files (compare --baseline), as JSON text. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "compare/compare.h"
#include "compare/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], *text;
	vs_baseline b;

	if (size > VS_FUZZ_MAX_INPUT || !(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&b, 0, sizeof b);
	if (vs_baseline_parse(&b, text, "fuzz.json", err, sizeof err) == 0)
		vs_baseline_free(&b);
	free(text);
	return 0;
}
