/* SPDX-License-Identifier: Zlib */
/* test_ds_bundled.c - traces/captured/ds-demo-capture.trace is what its command
 * (traces/README.md) writes today: `vramsim capture build/ds/demo.nds
 * --frames 340` on the DS demo ROM gives the bundled file byte for byte,
 * but the ROM's SHA-256, which depends on the cross-compiler that built
 * the ROM (another arm-none-eabi-gcc may give another hash and the same
 * events). In the sanitizer tree, where each frame's savestate costs about
 * ten times as much, a quarter of the frames are captured and their
 * statements (not the comments, whose counts cover the whole run) are
 * those of the bundled file up to 10 frames before the shorter run's end
 * (capture writes a frame's events at most max(grace, lookback) = 4
 * frames late).
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

/* Cuts text, in place, to its statements up to its n-th `frame` line. */
static void statements_until_frame(char *text, unsigned n)
{
	char *r = text, *w = text, *end;
	unsigned frames = 0;

	while (*r && frames < n) {
		end = strchr(r, '\n');
		end = end ? end + 1 : r + strlen(r);
		if (*r != '#') {
			frames += strncmp(r, "frame\n", 6) == 0;
			memmove(w, r, (size_t)(end - r));
			w += end - r;
		}
		r = end;
	}
	*w = 0;
	ck_assert_uint_eq(frames, n);
}

START_TEST(the_bundled_capture_is_what_its_command_writes)
{
	const char *now = vs_test_path("ds-demo-capture.trace");
	unsigned frames = vs_test_soak(FRAMES, FRAMES);
	char *want, *got;
	size_t i;

	ck_assert_msg(cli("capture '%s' --frames %u -o '%s' --quiet", ROM, frames, now) == 0, "%s", err);
	want = vs_test_slurp(BUNDLED);
	got = vs_test_slurp(now);
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	mask_rom_hash(want);
	mask_rom_hash(got);
	if (frames < FRAMES) {
		statements_until_frame(want, frames - 10u);
		statements_until_frame(got, frames - 10u);
	}
	for (i = 0; want[i] && want[i] == got[i]; i++)
		;
	ck_assert_msg(want[i] == got[i], "the capture differs from %s at byte %zu:\n%.200s\n---- bundled:\n%.200s",
		BUNDLED, i, got + (i > 100 ? i - 100 : 0), want + (i > 100 ? i - 100 : 0));
	/* a capture of a game, not an empty one: the first textures and, over
	 * the whole run, the remap and a later texture */
	ck_assert_ptr_nonnull(strstr(got, " tex tex 32x32 256c "));
	if (frames == FRAMES) {
		ck_assert_ptr_nonnull(strstr(got, "\nvramcnt D 0x84\nvramcnt I 0x80\ninit obj-b\n"));
		ck_assert_ptr_nonnull(strstr(got, " tex tex 64x64 256c "));
	}
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
