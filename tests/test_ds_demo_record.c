/* SPDX-License-Identifier: Zlib */
/* test_ds_demo_record.c - `vramsim record` on the DS demo ROM
 * (src/console/ds/rom/ds_demo.c) writes the timeline the demo promises
 * (ds_demo.h, docs/ds.md "The demo ROM"):
 *  - the arena lines, in order;
 *  - 330 frames, nothing after the script's end;
 *  - each arena's calls only at the frames the timeline gives them: the
 *    set-up, the sprite churn every 4th (engine A) and 8th (engine B)
 *    frame, the BG tile swaps at 60 and 240, the texture changes at 120,
 *    150, 210 and 270, the remap at 180 (after every engine B sprite is
 *    gone: `vramcnt I 0x80`, `vramcnt D 0x84`), engine A's clear at 300;
 *  - a swapped BG tile comes back at a freed tile's place;
 *  - the allocation counts of this deterministic run, pinned;
 *  - the trace replays under `recorded` with no integrity error.
 * In the sanitizer tree a quarter of the frames run (ds_demo_run.h): the
 * checks that need the whole run are left out there. Skipped when the ROM
 * or the ds module (`vramsim record GAME.nds`) was not built.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "ds_demo_run.h"
#include "trace/trace.h"

#define DS_MODULE VS_BINARY_DIR "/vramsim-ds.so"
#define MAX_IDS 4096u

enum { OBJA, OBJB, BGA, BGB, TEX, PAL, ARENAS };

static char out[1 << 16], err[1 << 16];
#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

/* What the walk over the trace gathers. */
typedef struct demo_run {
	uint32_t frames;                     /* `frame` lines */
	uint32_t allocs[ARENAS], frees[ARENAS], failed;
	uint32_t setup_allocs[ARENAS];       /* in frame 0 */
	uint32_t live[ARENAS];
	uint32_t last_event_frame;
	uint32_t vramcnt_frame[2];
	uint8_t vramcnt_bank[2], vramcnt_value[2], vramcnts;
	int8_t arena_of[MAX_IDS];            /* by id: the arena of a live allocation, -1 none */
	uint32_t at_of[MAX_IDS];
	uint32_t freed_bg_at[2][4];          /* the BG tiles freed by each swap */
	uint32_t freed_bg, swapped_back;
} demo_run;

/* The frames the timeline lets arena a have calls in (ds_demo.h). */
static int frame_allowed(int a, uint32_t f)
{
	if (f == 0)
		return 1;
	switch (a) {
	case OBJA:
		return (f % DS_DEMO_SPRITE_A_EVERY == 0 && f < DS_DEMO_SPRITE_A_CLEAR) || f == DS_DEMO_SPRITE_A_CLEAR;
	case OBJB:
		return f == DS_DEMO_REMAP ||
			(f % DS_DEMO_SPRITE_B_EVERY == 0 && f <= DS_DEMO_SPRITE_B_LAST &&
				(f < DS_DEMO_REMAP - 4u || f > DS_DEMO_REMAP + 4u));
	case BGA:
		return f == DS_DEMO_BG_A_SWAP;
	case BGB:
		return f == DS_DEMO_BG_B_SWAP;
	default:
		return f == DS_DEMO_TEX_SWAP || f == DS_DEMO_TEX_4C || f == DS_DEMO_TEX_SWAP2 || f == DS_DEMO_TEX_SWAP3;
	}
}

static void on_alloc(demo_run *d, const vs_event *ev)
{
	int a = ev->arena;

	HOT_CMP(ev->id, <, MAX_IDS);
	HOT_ASSERT(frame_allowed(a, d->frames), "line %llu: an allocation in arena %d at frame %u",
		(unsigned long long)ev->line, a, d->frames);
	if (ev->req.has_at != VS_AT_ADDR) {
		d->failed++;
		return;
	}
	d->allocs[a]++;
	if (d->frames == 0)
		d->setup_allocs[a]++;
	d->live[a]++;
	d->arena_of[ev->id] = (int8_t)a;
	d->at_of[ev->id] = ev->req.at;
	if ((a == BGA || a == BGB) && d->frames > 0) {
		uint32_t i, s = a == BGB;

		for (i = 0; i < 4; i++)
			d->swapped_back += d->freed_bg_at[s][i] == ev->req.at;
	}
}

static void on_free(demo_run *d, const vs_event *ev)
{
	int a;

	HOT_CMP(ev->id, <, MAX_IDS);
	a = d->arena_of[ev->id];
	HOT_ASSERT(a >= 0, "line %llu: free of %llu, not live", (unsigned long long)ev->line,
		(unsigned long long)ev->id);
	HOT_ASSERT(frame_allowed(a, d->frames), "line %llu: a free in arena %d at frame %u",
		(unsigned long long)ev->line, a, d->frames);
	if (a == BGA || a == BGB)
		d->freed_bg_at[a == BGB][d->freed_bg++ % 4] = d->at_of[ev->id];
	d->frees[a]++;
	d->live[a]--;
	d->arena_of[ev->id] = -1;
}

static void walk(const char *path, demo_run *d)
{
	char e[1024];
	vs_trace_reader *rd = vs_trace_open(path, e, sizeof e);
	vs_event ev;
	int rc;

	ck_assert_msg(rd != NULL, "%s", e);
	memset(d, 0, sizeof *d);
	memset(d->arena_of, -1, sizeof d->arena_of);
	while ((rc = vs_trace_next(rd, &ev)) > 0) {
		if (ev.type == VS_EV_FRAME) {
			d->frames++;
			continue;
		}
		d->last_event_frame = d->frames;
		if (d->frames == DS_DEMO_SPRITE_A_CLEAR && ev.type == VS_EV_FREE)
			HOT_CMP(d->arena_of[ev.id], ==, OBJA);
		if (ev.type == VS_EV_ALLOC)
			on_alloc(d, &ev);
		else if (ev.type == VS_EV_FREE)
			on_free(d, &ev);
		else if (ev.type == VS_EV_VRAMCNT) {
			HOT_CMP(d->vramcnts, <, 2);
			HOT_CMP(d->live[OBJB], ==, 0); /* the sprites went first */
			d->vramcnt_frame[d->vramcnts] = d->frames;
			d->vramcnt_bank[d->vramcnts] = ev.bank;
			d->vramcnt_value[d->vramcnts++] = ev.vramcnt;
		} else
			ck_abort_msg("line %llu: an event the demo never records (%d)", (unsigned long long)ev.line,
				(int)ev.type);
	}
	ck_assert_msg(rc == 0, "%s", vs_trace_error(rd));
	vs_trace_close(rd);
}

START_TEST(record_writes_the_timeline)
{
	static const char arenas[] = "vramsim-trace 1\n"
		"arena obja ds-obj banks=B0 boundary=128 strategy=libnds-sprite\n"
		"arena objb ds-obj engine=b banks=I0 strategy=gba-obj-first-fit\n"
		"arena bga ds-bg banks=F0\n"
		"arena bgb ds-bg engine=b\n"
		"arena tex ds-tex banks=A0 strategy=nns-lnk-tex\n"
		"arena pal ds-pltt strategy=nns-lnk-pltt\n"
		"alloc ";
	static const uint32_t allocs[ARENAS] = { 43, 25, 13, 13, 8, 8 }, frees[ARENAS] = { 43, 20, 4, 4, 3, 3 };
	static const uint32_t setup[ARENAS] = { 4, 2, 9, 9, 3, 3 };
	const char *trace = vs_test_path("demo.trace");
	demo_run *d = calloc(1, sizeof *d);
	uint32_t frames = ds_demo_frames();
	char *text;
	int a;

	ck_assert_ptr_nonnull(d);
	ck_assert_msg(cli("record %s --frames %u -o %s", DS_DEMO_ROM, frames, trace) == 0, "%s%s", out, err);
	text = vs_test_slurp(trace);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(strncmp(text, arenas, sizeof arenas - 1) == 0, "%.600s", text);
	walk(trace, d);
	if (frames <= DS_DEMO_FRAMES) {
		/* a sanitizer tree's shorter run: the timeline held as far as it went */
		ck_assert_uint_eq(d->frames, frames);
		ck_assert_uint_eq(d->failed, 0);
		free(text);
		remove(trace);
		free(d);
		return;
	}
	ck_assert_ptr_nonnull(strstr(text, "\n# end of the script\n"));
	free(text);
	ck_assert_uint_eq(d->frames, DS_DEMO_FRAMES);
	ck_assert_uint_eq(d->last_event_frame, DS_DEMO_SPRITE_B_LAST);
	ck_assert_uint_eq(d->failed, 0);
	for (a = 0; a < ARENAS; a++) {
		ck_assert_msg(d->allocs[a] == allocs[a] && d->frees[a] == frees[a] && d->setup_allocs[a] == setup[a],
			"arena %d: %u allocations (%u at set-up), %u frees", a, d->allocs[a], d->setup_allocs[a],
			d->frees[a]);
	}
	ck_assert_uint_eq(d->live[OBJA], 0);
	ck_assert_uint_eq(d->vramcnts, 2);
	ck_assert(d->vramcnt_frame[0] == DS_DEMO_REMAP && d->vramcnt_bank[0] == 8 &&
		d->vramcnt_value[0] == DS_DEMO_VRAMCNT_I1);
	ck_assert(d->vramcnt_frame[1] == DS_DEMO_REMAP && d->vramcnt_bank[1] == 3 &&
		d->vramcnt_value[1] == DS_DEMO_VRAMCNT_D1);
	ck_assert_uint_eq(d->freed_bg, 8);
	ck_assert_uint_eq(d->swapped_back, 8);

	ck_assert_msg(cli("replay %s --strategy recorded", trace) == 0, "%s%s", out, err);
	ck_assert_ptr_nonnull(strstr(out, "frames 330"));
	remove(trace);
	free(d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ds_demo_record");
	TCase *tc = tcase_create("core");

	ds_demo_sanitizer_env();
	vs_test_require(!vs_test_exists(DS_DEMO_ROM)
		? DS_DEMO_ROM " was not built (install gcc-arm-none-eabi and rebuild)"
		: !vs_test_exists(DS_MODULE) ? "the ds module (vramsim record GAME.nds) was not built" : NULL);
	tcase_add_test(tc, record_writes_the_timeline);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
