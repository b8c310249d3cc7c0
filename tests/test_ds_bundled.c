/* SPDX-License-Identifier: Zlib */
/* test_ds_bundled.c - traces/captured/ds-demo-capture.trace is what its command
 * (traces/README.md) writes today: `vramsim capture build/ds/demo.nds
 * --frames 340` on the DS demo ROM gives the bundled file byte for byte,
 * but the ROM's SHA-256, which depends on the cross-compiler that built
 * the ROM (another arm-none-eabi-gcc may give another hash and the same
 * events).
 * Skipped when the ROM, the ds module or the emulator core is missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "console/ds/ds_core.h"

#define ROM VS_BINARY_DIR "/ds/demo.nds"
#define DS_MODULE VS_BINARY_DIR "/vramsim-ds.so"
#define BUNDLED VS_SOURCE_DIR "/traces/captured/ds-demo-capture.trace"
#define FRAMES 340u /* the demo's whole script (330 frames) and 10 more */

static char out[1 << 16], err[1 << 16];
#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

/* The 64 hex digits after "SHA-256 " on the ROM line become zeros. */
static void mask_rom_hash(char *text)
{
	char *p = strstr(text, "\n# ROM: ");
	char *end = p ? strchr(p + 1, '\n') : NULL;

	ck_assert_msg(p && end, "no ROM line");
	p = strstr(p, "SHA-256 ");
	ck_assert_msg(p && p < end && end - (p + 8) == 64, "no SHA-256 on the ROM line");
	memset(p + 8, '0', 64);
}

START_TEST(the_bundled_capture_is_what_its_command_writes)
{
	const char *now = vs_test_path("ds-demo-capture.trace");
	char *want, *got;
	size_t i;

	ck_assert_msg(cli("capture '%s' --frames %u -o '%s' --quiet", ROM, FRAMES, now) == 0, "%s", err);
	want = vs_test_slurp(BUNDLED);
	got = vs_test_slurp(now);
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	mask_rom_hash(want);
	mask_rom_hash(got);
	for (i = 0; want[i] && want[i] == got[i]; i++)
		;
	ck_assert_msg(want[i] == got[i], "the capture differs from %s at byte %zu:\n%.200s\n---- bundled:\n%.200s",
		BUNDLED, i, got + (i > 100 ? i - 100 : 0), want + (i > 100 ? i - 100 : 0));
	/* a capture of a game, not an empty one: the remap and the textures */
	ck_assert_ptr_nonnull(strstr(got, "\nvramcnt D 0x84\nvramcnt I 0x80\ninit obj-b\n"));
	ck_assert_ptr_nonnull(strstr(got, " tex tex 64x64 256c "));
	free(want);
	free(got);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ds_bundled");
	TCase *tc = tcase_create("core");
	char why[512];

	/* the core is not loaded here (only vramsim runs it): its file is enough */
	snprintf(why, sizeof why, "no DeSmuME libretro core at %s (install libretro-desmume)", vs_ds_core_path());
	vs_test_require(!vs_test_exists(ROM) ? ROM " was not built (install gcc-arm-none-eabi and rebuild)"
		: !vs_test_exists(DS_MODULE) ? "the ds module (vramsim capture GAME.nds) was not built"
		: !vs_test_exists(vs_ds_core_path()) ? why : NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_bundled_capture_is_what_its_command_writes);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
