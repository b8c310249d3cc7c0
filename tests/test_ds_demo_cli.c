/* SPDX-License-Identifier: Zlib */
/* test_ds_demo_cli.c - `vramsim record` and `vramsim capture` on the DS
 * demo ROM (src/console/ds/rom/ds_demo.c), one run of each.
 *
 * record writes the timeline the demo promises (ds_demo.h, docs/ds.md "The
 * demo ROM"):
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
 * capture of the same frames, the command of the bundled capture
 * (traces/captured/ds-demo-capture.trace, traces/README.md):
 *  - is the bundled file, but the ROM's SHA-256 (cross-compiler's);
 *  - the header names the ROM (title, game code, SHA-256) and declares the
 *    arenas with the banks the demo maps;
 *  - at every frame, the live sprites of both engines, textures and texture
 *    palettes (arena, address, request) are exactly those the demo's own
 *    trace has live, one frame later (record's frame F is what follows
 *    its F-th `frame` line: the demo's step for snapshot F);
 *  - the remap (bank I to LCDC, D to engine B OBJ) comes as `vramcnt`
 *    lines after the frees of engine B's sprites;
 *  - the trace replays under `recorded` with no integrity error.
 * In the sanitizer tree a quarter of the frames run (ds_demo_run.h): the
 * checks that need the whole run are left out there. test_ds_demo checks
 * the same frames in one process, against VRAM. Skipped when the ROM, the
 * ds module or the emulator core is missing.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "ds_demo_run.h"
#include "trace/trace.h"
#include "console/ds/ds_core.h"

#define ROM DS_DEMO_ROM
#define DS_MODULE VS_BINARY_DIR "/vramsim-ds.so"
#define MAX_IDS 4096u
#define BUNDLED VS_SOURCE_DIR "/traces/captured/ds-demo-capture.trace"
#define MAX_LIVE 256u

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

/* A live allocation as both traces name it. */
typedef struct item {
	int arena;       /* index into names below */
	uint32_t at, size, shape;
} item;

typedef struct frame_set {
	item v[MAX_LIVE];
	uint32_t n;
} frame_set;

/* The arenas compared, by the names each trace gives them. */
static const char *const cap_names[] = { "obj-a", "obj-b", "tex", "pltt" };
static const char *const rec_names[] = { "obja", "objb", "tex", "pal" };

static int item_cmp(const void *x, const void *y)
{
	const item *a = x, *b = y;

	if (a->arena != b->arena)
		return a->arena - b->arena;
	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	return a->size < b->size ? -1 : a->size > b->size;
}

/* Each frame's live allocations in the compared arenas, sorted; the frames
 * written to sets (at most max). Returns the `frame` lines. */
static uint32_t live_per_frame(const char *path, const char *const names[4], frame_set *sets, uint32_t max)
{
	static item live_by_id[4096];
	static uint8_t used[4096];
	int map[16];
	char e[1024];
	vs_trace_reader *rd = vs_trace_open(path, e, sizeof e);
	const vs_trace_header *h;
	vs_event ev;
	uint32_t frames = 0, i;
	int rc, a, k;

	ck_assert_msg(rd != NULL, "%s", e);
	h = vs_trace_header_of(rd);
	for (a = 0; a < h->narenas; a++)
		for (map[a] = -1, k = 0; k < 4; k++)
			if (strcmp(h->arenas[a].name, names[k]) == 0)
				map[a] = k;
	memset(used, 0, sizeof used);
	while ((rc = vs_trace_next(rd, &ev)) > 0) {
		if (ev.type == VS_EV_ALLOC && map[ev.arena] >= 0) {
			ck_assert_uint_lt(ev.id, 4096);
			live_by_id[ev.id].arena = map[ev.arena];
			live_by_id[ev.id].at = ev.req.at;
			live_by_id[ev.id].size = ev.req.size;
			live_by_id[ev.id].shape = ev.req.shape;
			used[ev.id] = 1;
		} else if (ev.type == VS_EV_FREE && ev.id < 4096) {
			used[ev.id] = 0;
		} else if (ev.type == VS_EV_FRAME) {
			if (frames < max) {
				frame_set *s = &sets[frames];
				s->n = 0;
				for (i = 0; i < 4096; i++)
					if (used[i] && s->n < MAX_LIVE)
						s->v[s->n++] = live_by_id[i];
				qsort(s->v, s->n, sizeof *s->v, item_cmp);
			}
			frames++;
		}
	}
	ck_assert_msg(rc == 0, "%s", vs_trace_error(rd));
	vs_trace_close(rd);
	return frames;
}

/* `vramsim record` of the whole timeline to trace, checked. */
static void record_writes_the_timeline(const char *trace)
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
	free(d);
}

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

/* The capture is the bundled one (traces/captured/ds-demo-capture.trace,
 * made by the same command: traces/README.md) byte for byte, but the ROM's
 * SHA-256, which depends on the cross-compiler that built the ROM. In the
 * sanitizer tree's shorter run, its statements (not the comments, whose
 * counts cover the whole run) are the bundled file's up to 10 frames before
 * its end (capture writes a frame's events at most max(grace, lookback) = 4
 * frames late). */
static void is_the_bundled_capture(const char *cap, uint32_t frames)
{
	char *want = vs_test_slurp(BUNDLED), *got = vs_test_slurp(cap);
	size_t i;

	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	mask_rom_hash(want);
	mask_rom_hash(got);
	if (frames <= DS_DEMO_FRAMES) {
		statements_until_frame(want, frames - 10u);
		statements_until_frame(got, frames - 10u);
	}
	for (i = 0; want[i] && want[i] == got[i]; i++)
		;
	ck_assert_msg(want[i] == got[i], "the capture differs from %s at byte %zu:\n%.200s\n---- bundled:\n%.200s",
		BUNDLED, i, got + (i > 100 ? i - 100 : 0), want + (i > 100 ? i - 100 : 0));
	free(want);
	free(got);
}

/* `vramsim capture` of the whole timeline (the command of the bundled
 * capture), against the record, frame for frame. */
static void capture_matches_the_record(const char *rec)
{
	const char *cap = vs_test_path("demo-capture.trace");
	uint32_t frames = ds_demo_frames(), nc, nr, f, compared = 0, sprites = 0, textures = 0;
	frame_set *cs = calloc(frames + 2, sizeof *cs), *rs = calloc(frames + 2, sizeof *rs);
	char *text, *remap, *p = NULL;

	ck_assert(cs && rs);
	ck_assert_msg(cli("capture '%s' --frames %u -o '%s' --quiet", ROM, frames, cap) == 0, "%s", err);
	is_the_bundled_capture(cap, frames);
	text = vs_test_slurp(cap);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(strstr(text, "# ROM: title \"VRAMSIM-DEMO\", game code VSDM, SHA-256 ") != NULL, "%.300s", text);
	ck_assert_ptr_nonnull(strstr(text, "\narena obj-a ds-obj boundary=128 bmp=2d-128\n"
		"arena obj-b ds-obj engine=b banks=I0 bmp=2d-128\narena bg-a ds-bg banks=F0\narena bg-b ds-bg engine=b\n"
		"arena tex ds-tex banks=A0\narena pltt ds-pltt\n"));
	/* the remap: engine B's sprites freed, then the banks */
	remap = strstr(text, "\nvramcnt D 0x84\nvramcnt I 0x80\ninit obj-b\n");
	ck_assert_msg((remap != NULL) == (frames > DS_DEMO_REMAP), "the remap in the capture: %d", remap != NULL);
	for (p = remap; p && p > text && p[-1] != '\n'; p--)
		;
	ck_assert_msg(!p || strncmp(p, "free ", 5) == 0, "%.80s", p);
	nc = live_per_frame(cap, cap_names, cs, frames + 2);
	nr = live_per_frame(rec, rec_names, rs, frames + 2);
	ck_assert_uint_eq(nc, frames);
	/* record's frame lines end with the demo's script */
	ck_assert_uint_ge(nr, frames < DS_DEMO_FRAMES ? frames : DS_DEMO_FRAMES);
	for (f = 0; f + 1 < nr && f < nc; f++) {
		uint32_t i;
		ck_assert_msg(cs[f].n == rs[f + 1].n, "frame %u: %u live captured, %u recorded", f, cs[f].n, rs[f + 1].n);
		for (i = 0; i < cs[f].n; i++) {
			const item *x = &cs[f].v[i], *y = &rs[f + 1].v[i];
			ck_assert_msg(x->arena == y->arena && x->at == y->at && x->size == y->size && x->shape == y->shape,
				"frame %u: captured %s 0x%x (%u bytes), recorded %s 0x%x (%u bytes)", f, cap_names[x->arena],
				(unsigned)x->at, (unsigned)x->size, cap_names[y->arena], (unsigned)y->at, (unsigned)y->size);
			sprites += x->arena < 2;
			textures += x->arena == 2;
		}
		compared++;
	}
	ck_assert_uint_ge(compared, (frames < DS_DEMO_FRAMES ? frames : DS_DEMO_FRAMES) - 1u);
	ck_assert_uint_gt(sprites, frames * 5u);
	ck_assert_uint_gt(textures, frames * 3u / 2u);
	/* the game's own placement replays clean */
	ck_assert_msg(cli("replay '%s' --strategy recorded", cap) == 0, "%s%s", out, err);
	free(text);
	free(cs);
	free(rs);
	remove(cap);
}

START_TEST(record_and_capture_of_the_demo)
{
	const char *rec = vs_test_path("demo-record.trace");

	record_writes_the_timeline(rec);
	capture_matches_the_record(rec);
	remove(rec);
}
END_TEST

/* Usage errors and a file that is not a DS ROM: exit 2, the output file
 * left as it was. */
START_TEST(bad_input_leaves_no_trace)
{
	const char *bad = vs_test_file(0, "not-a-rom.nds", "this is no cartridge header\n");
	const char *trace = vs_test_file(1, "kept.trace", "vramsim-trace 1\narena obj gba-obj\n");
	char *kept;

	ck_assert_int_eq(cli("capture '%s' -o '%s'", ROM, trace), 2);
	ck_assert_ptr_nonnull(strstr(err, "--frames"));
	ck_assert_int_eq(cli("capture '%s' --frames 5 --lookback 601 -o '%s'", ROM, trace), 2);
	ck_assert_int_eq(cli("capture '%s' --frames 5 -o '%s'", bad, trace), 2);
	ck_assert_msg(strstr(err, "not-a-rom.nds") != NULL, "%s", err);
	kept = vs_test_slurp(trace);
	ck_assert_str_eq(kept, "vramsim-trace 1\narena obj gba-obj\n");
	free(kept);
	remove(bad);
	remove(trace);
	/* standard output closed or full: said once, exit 2 (the trace went
	 * into a file of the run's own that took its number, exit 0, before) */
	{
		const char *const cmds[] = { "record", "capture" };
		size_t i;
		for (i = 0; i < 2; i++) {
			ck_assert_int_eq(cli("%s '%s' --frames 10 -o - >&-", cmds[i], ROM), 2);
			ck_assert_msg(vs_test_count(err, "cannot write standard output: Bad file descriptor") == 1, "%s", err);
			ck_assert_int_eq(cli("%s '%s' --frames 10 -o - >/dev/full", cmds[i], ROM), 2);
			ck_assert_msg(vs_test_count(err, "cannot write standard output") == 1, "%s", err);
		}
	}
	/* the recording's temporary file that fills: its name and the reason
	 * (it said "demo.nds: error writing the trace", naming the ROM) */
	ck_assert_int_eq(vs_test_cli_limited(2, err, sizeof err, "record '%s' --frames 60 -o '%s'", ROM, trace), 2);
	ck_assert_msg(strstr(err, "cannot write the recording's unnamed temporary file") && strstr(err, "File too large") &&
		!strstr(err, "demo.nds:"), "%s", err);
	ck_assert(!vs_test_exists(trace));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ds_demo_cli");
	TCase *tc = tcase_create("core");
	char why[512];

	/* the core is not loaded here (only vramsim runs it): its file is enough */
	snprintf(why, sizeof why, "no DeSmuME libretro core at %s (install libretro-desmume)", vs_ds_core_path());
	ds_demo_sanitizer_env();
	vs_test_require(!vs_test_exists(ROM) ? ROM " was not built (install gcc-arm-none-eabi and rebuild)"
		: !vs_test_exists(DS_MODULE) ? "the ds module (vramsim record|capture GAME.nds) was not built"
		: !vs_test_exists(vs_ds_core_path()) ? why : NULL);
	tcase_add_test(tc, record_and_capture_of_the_demo);
	tcase_add_test(tc, bad_input_leaves_no_trace);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
