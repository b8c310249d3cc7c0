/* SPDX-License-Identifier: Zlib */
/* fuzz_budgets.c - budget files (compare --budgets). */
#include "fuzz_common.h"
#include "compare/compare.h"
#include "compare/budget.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[1024];
	vs_budget_list b;
	int fd;

	if (size > VS_FUZZ_MAX_INPUT || (fd = vs_fuzz_memfile(data, size, path, sizeof path)) < 0)
		return 0;
	memset(&b, 0, sizeof b);
	vs_budget_list_load(&b, path, err, sizeof err);
	vs_budget_list_free(&b);
	close(fd);
	return 0;
}
