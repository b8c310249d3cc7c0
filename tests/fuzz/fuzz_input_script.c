/* SPDX-License-Identifier: Zlib */
/* fuzz_input_script.c - input scripts (vramsim record/capture --input),
 * then the keys of every frame they name. */
#include "fuzz_common.h"
#include "console/common/input_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], keys[128];
	vs_input_script s;
	FILE *fp;
	uint32_t f;

	if (size == 0 || size > VS_FUZZ_MAX_INPUT || !(fp = fmemopen((void *)data, size, "rb")))
		return 0;
	memset(&s, 0, sizeof s);
	if (vs_input_script_read(fp, "fuzz.input", &s, err, sizeof err) == 0) {
		for (f = 0; f < 4096; f += 7)
			vs_input_keys_name(vs_input_script_keys(&s, f), keys, sizeof keys);
		vs_input_script_free(&s);
	}
	fclose(fp);
	return 0;
}
