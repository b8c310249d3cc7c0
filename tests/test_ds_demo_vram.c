/* SPDX-License-Identifier: Zlib */
/* test_ds_demo_vram.c - the DS demo's recorded trace against the emulated
 * DS's video memory (libretro-desmume through console/ds/ds_emu.h).
 *
 * The demo (src/console/ds/rom/ds_demo.c) is played frame by frame and
 * its record ring read after each frame, as `vramsim record` does. After
 * every frame: the demo's status block says frame F's step is done (step F
 * ends inside emulator frame F). At chosen frames, before and after each
 * event of the timeline (docs/ds.md), the trace so far is walked and:
 *  - VRAMCNT holds the demo's banks (I and D change at the remap);
 *  - every live allocation but the BG maps holds, where its at= and its
 *    arena's bank put it in the LCDC image, the replay's pattern for its id
 *    (the bytes the demo wrote before recording the line);
 *  - what is allocated is on screen: each live sprite is drawn by an OAM
 *    entry of its engine naming its tile, each BG map entry in view names a
 *    live tile, and each live texture is drawn by a polygon of the 3D list
 *    with its palette, as TEXIMAGE_PARAM and PLTT_BASE give them.
 * In the sanitizer tree a quarter of the frames run (ds_demo_run.h), and
 * the chosen frames within them are checked. Skipped without the ROM or the
 * DeSmuME core.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "ds_demo_run.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_emu.h"
#include "console/ds/ds_ring.h"
#include "trace/trace.h"

#define MAX_IDS 4096u

enum { OBJA, OBJB, BGA, BGB, TEX, PAL, ARENAS };

typedef struct alloc_at {
	uint8_t live, arena, map;
	uint32_t at, bytes;
} alloc_at;

typedef struct ctx {
	vs_test_text text; /* the trace so far */
	alloc_at a[MAX_IDS];
	const vs_ds_frame *f;
	uint32_t frame;
	int remapped;
} ctx;

static int sink(void *ud, const char *text, size_t len)
{
	ctx *c = ud;

	vs_test_put(&c->text, "%.*s", (int)len, text);
	return 0;
}

static void walk_trace(ctx *c)
{
	char err[1024];
	FILE *fp = fmemopen(c->text.s, c->text.len, "rb");
	vs_trace_reader *rd;
	vs_event ev;
	int rc;

	ck_assert_ptr_nonnull(fp);
	rd = vs_trace_open_stream(fp, "demo", err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	memset(c->a, 0, sizeof c->a);
	c->remapped = 0;
	while ((rc = vs_trace_next(rd, &ev)) > 0) {
		if (ev.type == VS_EV_ALLOC && ev.req.has_at == VS_AT_ADDR) {
			HOT_CMP(ev.id, <, MAX_IDS);
			c->a[ev.id] = (alloc_at){ 1, (uint8_t)ev.arena, ev.req.shape == VS_REQ_BGMAP, ev.req.at,
				ev.req.size };
		} else if (ev.type == VS_EV_FREE) {
			c->a[ev.id].live = 0;
		} else if (ev.type == VS_EV_VRAMCNT) {
			c->remapped = 1;
		}
	}
	ck_assert_msg(rc == 0, "%s", vs_trace_error(rd));
	vs_trace_close(rd);
	fclose(fp);
}

/* Where an allocation's first byte is in the LCDC image. */
static uint32_t lcdc_of(const ctx *c, const alloc_at *x)
{
	switch (x->arena) {
	case OBJA: return VS_DS_LCDC_B + (x->at - 0x06400000u);
	case OBJB: return (c->remapped ? VS_DS_LCDC_D : VS_DS_LCDC_I) + (x->at - 0x06600000u);
	case BGA: return VS_DS_LCDC_F + (x->at - 0x06000000u);
	case BGB: return VS_DS_LCDC_C + (x->at - 0x06200000u);
	case TEX: return VS_DS_LCDC_A + x->at;
	default: return VS_DS_LCDC_E + x->at;
	}
}

/* The replay's bytes for id (replay_records.c), as the demo writes them. */
static void check_pattern(const ctx *c, uint32_t id, const alloc_at *x)
{
	uint64_t z = (uint64_t)id * 0x9E3779B97F4A7C15ull;
	uint32_t w0 = (uint32_t)(z >> 32) ^ (uint32_t)z, i, at = lcdc_of(c, x), bad = UINT32_MAX;

	HOT_CMP(at + x->bytes, <=, VS_DS_LCDC_BYTES);
	for (i = 0; i < x->bytes && bad == UINT32_MAX; i++) {
		uint32_t w = w0 + (i / 4) * 0x9E3779B1u;

		if (c->f->lcdc[at + i] != (uint8_t)(w >> (8 * (i % 4))))
			bad = i;
	}
	HOT_ASSERT(bad == UINT32_MAX, "frame %u: id %u (arena %u, at=0x%08x) byte %u differs", c->frame, id,
		x->arena, x->at, bad);
}

static int oam_names(const ctx *c, int engine, uint32_t tile)
{
	const uint8_t *o = c->f->oam + 0x400 * engine;
	int i;

	for (i = 0; i < 128; i++) {
		uint16_t a0 = (uint16_t)(o[8 * i] | o[8 * i + 1] << 8);
		uint16_t a2 = (uint16_t)(o[8 * i + 4] | o[8 * i + 5] << 8);

		if ((a0 & 0x0300u) != 0x0200u && (a2 & 0x3FFu) == tile)
			return 1;
	}
	return 0;
}

static int polygon_draws(const ctx *c, uint32_t tex_at, uint32_t pal_at, int four)
{
	uint32_t i;

	for (i = 0; i < c->f->polys_n; i++)
		if ((c->f->polys[i].tex_param & 0xFFFFu) << 3 == tex_at &&
			c->f->polys[i].tex_palette << (four ? 3 : 4) == pal_at)
			return 1;
	return 0;
}

/* Each BG map entry in view names a live tile of its engine. */
static void check_map(const ctx *c, uint32_t map_id)
{
	const alloc_at *m = &c->a[map_id];
	uint32_t k, id;

	for (k = 0; k < 32u * 24u; k++) {
		uint32_t at = lcdc_of(c, m) + 2 * k;
		uint32_t tile = c->f->lcdc[at] | (uint32_t)c->f->lcdc[at + 1] << 8, found = 0;

		for (id = 1; id < MAX_IDS && !found; id++)
			found = c->a[id].live && c->a[id].arena == m->arena && !c->a[id].map &&
				(c->a[id].at & 0xFFFFu) == tile * 32u;
		if (!found)
			ck_abort_msg("frame %u: map %u entry %u names tile %u, not a live one", c->frame, map_id, k,
				tile);
	}
}

static void check_frame(ctx *c)
{
	uint32_t id, pal_id;

	walk_trace(c);
	ck_assert_uint_eq(c->f->vramcnt[0], DS_DEMO_VRAMCNT_A);
	ck_assert_uint_eq(c->f->vramcnt[1], DS_DEMO_VRAMCNT_B);
	ck_assert_uint_eq(c->f->vramcnt[2], DS_DEMO_VRAMCNT_C);
	ck_assert_uint_eq(c->f->vramcnt[3], c->remapped ? DS_DEMO_VRAMCNT_D1 : DS_DEMO_VRAMCNT_D0);
	ck_assert_uint_eq(c->f->vramcnt[4], DS_DEMO_VRAMCNT_E);
	ck_assert_uint_eq(c->f->vramcnt[5], DS_DEMO_VRAMCNT_F);
	ck_assert_uint_eq(c->f->vramcnt[8], c->remapped ? DS_DEMO_VRAMCNT_I1 : DS_DEMO_VRAMCNT_I0);
	for (id = 1; id < MAX_IDS; id++) {
		const alloc_at *x = &c->a[id];

		if (!x->live)
			continue;
		if (x->map) {
			check_map(c, id);
			continue;
		}
		check_pattern(c, id, x);
		if (x->arena == OBJA || x->arena == OBJB)
			HOT_ASSERT(oam_names(c, x->arena, (x->at & 0xFFFFFu) / (x->arena == OBJA ? 128u : 32u)),
				"frame %u: sprite %u at 0x%08x is in no OAM entry", c->frame, id, x->at);
		if (x->arena == TEX) {
			/* the demo allocates each texture's palette right after it */
			pal_id = id + 1;
			HOT_ASSERT(c->a[pal_id].live && c->a[pal_id].arena == PAL, "texture %u has no palette", id);
			HOT_ASSERT(polygon_draws(c, x->at, c->a[pal_id].at, c->a[pal_id].bytes == 8),
				"frame %u: texture %u at 0x%x is on no polygon (%u in the list)", c->frame, id, x->at,
				c->f->polys_n);
		}
	}
}

START_TEST(recorded_allocations_are_in_vram_and_on_screen)
{
	static const uint32_t at[] = { 1, 59, 60, 119, 120, 150, 179, 180, 181, 200, 240, 270, 300, 330 };
	vs_ds_play play = { ds_demo_frames(), NULL, NULL, NULL, NULL };
	ctx *c = calloc(1, sizeof *c);
	char err[1024];
	vs_ds_emu *e = vs_ds_play_open(DS_DEMO_ROM, &play, err, sizeof err);
	vs_ds_ring ring;
	uint32_t i, next = 0;

	ck_assert_ptr_nonnull(c);
	ck_assert_msg(e != NULL, "%s", err);
	vs_ds_ring_init(&ring);
	for (i = 0; i < play.frames; i++) {
		const ds_demo_status *st;
		uint32_t steps = i + 1 < DS_DEMO_FRAMES ? i + 1 : DS_DEMO_FRAMES;

		HOT_ASSERT(vs_ds_play_frame(e, &play, i, err, sizeof err) == 0, "%s", err);
		HOT_ASSERT(vs_ds_ring_step(&ring, vs_ds_emu_main_ram(e), VS_DS_MAIN_RAM_BYTES, i, sink, c, err,
			sizeof err) == 0, "%s", err);
		st = (const ds_demo_status *)(vs_ds_emu_main_ram(e) + (DS_DEMO_STATUS_ADDR - 0x02000000u));
		/* step F ends in emulator frame F */
		if (st->magic != DS_DEMO_MAGIC || st->busy || st->steps != steps ||
			st->done != (steps == DS_DEMO_FRAMES))
			ck_abort_msg("frame %u: status magic 0x%08x busy %u steps %u done %u", i + 1, st->magic,
				st->busy, st->steps, st->done);
		if (next < sizeof at / sizeof at[0] && at[next] == i + 1) {
			c->f = vs_ds_emu_frame(e);
			c->frame = i + 1;
			check_frame(c);
			next++;
		}
	}
	if (play.frames > DS_DEMO_FRAMES)
		ck_assert_uint_eq(next, sizeof at / sizeof at[0]);
	else
		ck_assert_uint_ge(next, 3);
	vs_ds_ring_free(&ring);
	vs_ds_emu_close(e);
	free(c->text.s);
	free(c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ds_demo_vram");
	TCase *tc = tcase_create("core");

	char err[1024];

	vs_test_require(vs_test_exists(DS_DEMO_ROM) ? NULL
		: DS_DEMO_ROM " was not built (install gcc-arm-none-eabi and rebuild)");
	vs_test_require(vs_ds_core_available(err, sizeof err) == 0 ? NULL : err);
	tcase_add_test(tc, recorded_allocations_are_in_vram_and_on_screen);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
