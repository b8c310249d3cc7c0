/* SPDX-License-Identifier: Zlib */
/* test_ds_capture_demo.c - `vramsim capture` on the DS demo ROM
 * (src/console/ds/rom/ds_demo.c), checked against what the demo itself
 * says it did (`vramsim record` on the same ROM):
 *  - the header names the ROM (title, game code, SHA-256) and declares the
 *    arenas with the banks the demo maps;
 *  - at every frame, the live sprites of both engines, textures and texture
 *    palettes (arena, address, request) are exactly those the demo's own
 *    trace has live, one frame later (record's frame F is what follows
 *    its F-th `frame` line: the demo's step for snapshot F);
 *  - the remap (bank I to LCDC, D to engine B OBJ) comes as `vramcnt`
 *    lines after the frees of engine B's sprites;
 *  - the trace replays under `recorded` with no integrity error.
 * Skipped when the ROM, the ds module or the emulator core is missing.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "trace/trace.h"
#include "console/ds/ds_core.h"
#include "console/ds/rom/ds_demo.h"

#define ROM VS_BINARY_DIR "/ds/demo.nds"
#define DS_MODULE VS_BINARY_DIR "/vramsim-ds.so"
#define RUN_FRAMES 190u /* past the remap at 180 (a quarter in a sanitizer build: vs_test_soak) */
#define MAX_LIVE 256u

static char out[1 << 16], err[1 << 16];
#define cli(...) vs_test_cli(out, sizeof out, err, sizeof err, __VA_ARGS__)

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

START_TEST(capture_matches_the_demos_own_trace)
{
	const char *cap = vs_test_path("demo-capture.trace"), *rec = vs_test_path("demo-record.trace");
	uint32_t frames = vs_test_soak(RUN_FRAMES, RUN_FRAMES), nc, nr, f, compared = 0, sprites = 0, textures = 0;
	frame_set *cs = calloc(frames + 2, sizeof *cs), *rs = calloc(frames + 2, sizeof *rs);
	char *text, *remap, *p = NULL;

	ck_assert(cs && rs);
	ck_assert_msg(cli("capture '%s' --frames %u -o '%s' --quiet", ROM, frames, cap) == 0, "%s", err);
	ck_assert_msg(cli("record '%s' --frames %u -o '%s' --quiet", ROM, frames + 1u, rec) == 0, "%s", err);
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
	ck_assert_uint_ge(nr, frames);
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
	ck_assert_uint_ge(compared, frames - 1u);
	ck_assert_uint_gt(sprites, frames * 5u);
	ck_assert_uint_gt(textures, frames * 3u / 2u);
	/* the game's own placement replays clean */
	ck_assert_msg(cli("replay '%s' --strategy recorded", cap) == 0, "%s%s", out, err);
	free(text);
	free(cs);
	free(rs);
	remove(cap);
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
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ds_capture_demo");
	TCase *tc = tcase_create("core");
	char why[512];

	/* the core is not loaded here (only vramsim runs it): its file is enough */
	snprintf(why, sizeof why, "no DeSmuME libretro core at %s (install libretro-desmume)", vs_ds_core_path());
	/* the DeSmuME core's delete of what it made with new[] is allowed by
	 * vramsim's own ASan defaults (src/cli/main.c) */

	vs_test_require(!vs_test_exists(ROM) ? ROM " was not built (install gcc-arm-none-eabi and rebuild)"
		: !vs_test_exists(DS_MODULE) ? "the ds module (vramsim capture GAME.nds) was not built"
		: !vs_test_exists(vs_ds_core_path()) ? why : NULL);
	/* two emulator runs: about 8 s of CPU here, 30 under ASan (starting the
	 * core and its 11 MB savestates through the sanitizer's memcpy) */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, capture_matches_the_demos_own_trace);
	tcase_add_test(tc, bad_input_leaves_no_trace);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
