/* SPDX-License-Identifier: Zlib */
/* fuzz_selftest.c - a harness with a planted defect, for the test that
 * fuzz_replay.c finds one, says which input and keeps it (CMakeLists.txt
 * here): a trace with a NUL byte in its first line aborts. */
#include <stdlib.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i;

	for (i = 0; i < size && data[i] != '\n'; i++)
		if (data[i] == 0 && size > 8 && data[0] == 'v')
			abort();
	return 0;
}
