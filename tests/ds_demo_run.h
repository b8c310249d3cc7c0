/* SPDX-License-Identifier: Zlib */
/* ds_demo_run.h - what the tests that run the DS demo ROM in DeSmuME's
 * libretro core share (test_ds_demo, test_ds_demo_cli): how many frames to run, and, in the sanitizer
 * tree, the core's own defects kept out of the reports.
 *
 * The core is not instrumented, but AddressSanitizer sees its heap: at exit
 * it frees an array with plain delete (alloc-dealloc-mismatch) and leaves
 * a few objects unreachable (leaks inside desmume_libretro.so). Neither is
 * vramsim's code; both are turned off for these programs alone, and for
 * the vramsim processes they start (ds_demo_sanitizer_env). Include this
 * file in one test program only once.
 */
#ifndef VS_TEST_DS_DEMO_RUN_H
#define VS_TEST_DS_DEMO_RUN_H

#include <stdio.h>
#include <stdlib.h>

#include "support.h"
#include "console/ds/rom/ds_demo.h"

#define DS_DEMO_ROM VS_BINARY_DIR "/ds/demo.nds"

/* Frames to run: the whole timeline and 10 more; in the sanitizer tree a
 * quarter (vs_test_soak), as the instrumented driver reads each frame's
 * 11 MB savestate about ten times slower. Checks of later frames are left
 * out there. */
static inline uint32_t ds_demo_frames(void)
{
	return vs_test_soak(DS_DEMO_FRAMES + 10u, DS_DEMO_FRAMES + 10u);
}

/* Read by the sanitizers' runtime at start-up, and nothing without one
 * (as in test_grow.c). */
const char *__asan_default_options(void);
const char *__lsan_default_suppressions(void);

const char *__asan_default_options(void)
{
	return "alloc_dealloc_mismatch=0";
}

const char *__lsan_default_suppressions(void)
{
	return "leak:desmume_libretro.so\n";
}

/* The same for the vramsim processes a test starts: added to what the
 * environment asks for already (cmake/flags.cmake sets ASAN_OPTIONS for
 * every test of a sanitizer tree). */
static inline void ds_demo_sanitizer_env(void)
{
	static char asan[1024], lsan[1024];
	const char *a = getenv("ASAN_OPTIONS"), *l = getenv("LSAN_OPTIONS");

	snprintf(asan, sizeof asan, "%s%salloc_dealloc_mismatch=0", a ? a : "", a && *a ? ":" : "");
	snprintf(lsan, sizeof lsan, "%s%ssuppressions=%s/tests/data/desmume.lsan", l ? l : "", l && *l ? ":" : "",
		VS_SOURCE_DIR);
	setenv("ASAN_OPTIONS", asan, 1);
	setenv("LSAN_OPTIONS", lsan, 1);
}

#endif
