/* SPDX-License-Identifier: Zlib */
/* test_render.c - the renderer and `vramsim render`: PNGs decoded and
 * checked pixel by pixel, layouts' hit tests, history bounds, same bytes
 * twice, unwritable outputs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"
#include "render/render.h"
#include "strategies/registry.h"
#include "vram/arena.h"
#include "render/history.h"
#include "render/picture.h"
#include "render/window.h"

#define PIC_MARGIN 10 /* picture.c's margin: the heatmap rect starts there */

/* check's ck_assert reports every passing check to the parent (a message
 * written and read back); over every unit of an arena that was most of
 * this suite's time, so hot checks test first. */

static char outbuf[65536], errbuf[65536];

static const char *out_path(const char *name)
{
	static char buf[8][1024];
	static int k;
	char *p = buf[k++ & 7];
	snprintf(p, 1024, "%s/test_render_out", VS_BINARY_DIR);
	mkdir(p, 0777);
	snprintf(p, 1024, "%s/test_render_out/%s", VS_BINARY_DIR, name);
	return p;
}

#define cli(...) vs_test_cli(outbuf, sizeof outbuf, errbuf, sizeof errbuf, __VA_ARGS__)


static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* Runs a trace in process with a history (warnings unprinted). */
static vs_replay *replay_of(const char *path, const char *strategy, vs_history *hs)
{
	vs_replay_config cfg;
	char err[512];
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	vs_replay *r;
	int i;

	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.message = quiet;
	if (hs)
		vs_history_attach(hs, &cfg);
	for (i = 0; i < vs_trace_header_of(rd)->narenas; i++)
		cfg.strategy[i] = strategy ? vs_strategy_find(strategy) : NULL;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	return r;
}

/* Bounding box of the pixels of one colour above row ymax. */
static int bbox(const vs_image *im, uint32_t c, int ymax, int *x0, int *y0, int *x1, int *y1)
{
	int x, y, n = 0;

	*x0 = *y0 = 1 << 30;
	*x1 = *y1 = -1;
	for (y = 0; y < im->h && y < ymax; y++)
		for (x = 0; x < im->w; x++)
			if (vs_image_get(im, x, y) == c) {
				n++;
				if (x < *x0) *x0 = x;
				if (y < *y0) *y0 = y;
				if (x > *x1) *x1 = x;
				if (y > *y1) *y1 = y;
			}
	return n;
}

static int first_row_of_legend(const vs_image *im)
{
	/* the legend's first swatch is the "free"/tag row at the bottom; the map
	 * ends above the event strip, so search up to the strip's cursor line */
	int y;
	for (y = im->h - 1; y > 0; y--)
		if (vs_image_get(im, PIC_MARGIN, y) == VS_RGB_FREE && vs_image_get(im, PIC_MARGIN + 1, y) == VS_RGB_FREE &&
			vs_image_get(im, PIC_MARGIN, y - 1) != VS_RGB_FREE)
			break;
	return y;
}

START_TEST(occupancy_sprite_cells)
{
	/* a 16x16 4bpp sprite: 4 tiles of 32 bytes at tile 0 under first fit */
	const char *trace = vs_test_file(0, "render_occ.trace",
		"vramsim-trace 1\narena obj gba-obj mode=0\nalloc 1 sprite 16x16 4bpp tag=hero\nframe\n");
	const char *png = out_path("occ.png");
	uint32_t hero = vs_colour_tag_id(1); /* the first tag of the trace */
	vs_image im;
	int x0, y0, x1, y1, n, ylim;

	ck_assert_int_eq(cli("render %s --strategy gba-obj-first-fit --kind occupancy -o %s", trace, png), 0);
	ck_assert(strstr(outbuf, "wrote") != NULL);
	im = vs_test_png(png);
	ylim = first_row_of_legend(&im);
	n = bbox(&im, hero, ylim, &x0, &y0, &x1, &y1);
	/* 4 cells of 12x12 pixels and the 3 one-pixel gaps between them, closed
	 * because the cells belong to one allocation */
	ck_assert_int_eq(n, 4 * 12 * 12 + 3 * 12);
	ck_assert_int_eq(x1 - x0 + 1, 4 * 13 - 1);
	ck_assert_int_eq(y1 - y0 + 1, 12);
	/* tile 0 is the top-left cell: the panel frame is just outside it */
	ck_assert_uint_eq(vs_image_get(&im, x0 - 1, y0), VS_RGB_GRID);
	ck_assert_uint_eq(vs_image_get(&im, x0, y0 - 1), VS_RGB_GRID);
	/* tile 4 (right of the gap) and tile 32 (the row below) are free */
	ck_assert_uint_eq(vs_image_get(&im, x1 + 2, y0 + 5), VS_RGB_FREE);
	ck_assert_uint_eq(vs_image_get(&im, x1 + 1, y0 + 5), VS_RGB_GRID);
	ck_assert_uint_eq(vs_image_get(&im, x0 + 5, y1 + 2), VS_RGB_FREE);
	/* the last tile, 1023, is free too (31 cells right, 31 down) */
	ck_assert_uint_eq(vs_image_get(&im, x0 + 31 * 13 + 6, y0 + 31 * 13 + 6), VS_RGB_FREE);
	ck_assert_uint_eq(vs_image_get(&im, x0 + 32 * 13 - 1, y0 + 6), VS_RGB_GRID);
	vs_image_fini(&im);
}
END_TEST

START_TEST(occupancy_bitmap_mode_reserved)
{
	/* mode 3: tiles 0-511 hold the bitmap; the sprite lands at tile 512 */
	const char *trace = vs_test_file(1, "render_mode3.trace",
		"vramsim-trace 1\narena obj gba-obj mode=3\nalloc 1 sprite 8x8 4bpp tag=hero\n");
	const char *png = out_path("mode3.png");
	uint32_t hero = vs_colour_tag_id(1); /* the first tag of the trace */
	vs_image im;
	int x0, y0, x1, y1, n, x, y, ylim;

	ck_assert_int_eq(cli("render %s --strategy gba-obj-first-fit --kind occupancy -o %s", trace, png), 0);
	im = vs_test_png(png);
	ylim = first_row_of_legend(&im);
	n = bbox(&im, hero, ylim, &x0, &y0, &x1, &y1);
	ck_assert_int_eq(n, 12 * 12);
	/* 16 rows of reserved cells above it: 16 * 13 pixels up is the map's top */
	for (y = y0 - 16 * 13; y < y0 - 1; y += 13)
		for (x = x0; x < x0 + 32 * 13 - 1; x += 13) {
			uint32_t c = vs_image_get(&im, x + 1, y + 1);
			HOT_ASSERT(c == VS_RGB_RESERVED || c == vs_colour_unit_pixel(VS_UNIT_RESERVED, 0, 0, 0, 0),
				"cell at %d,%d is %08x, not the reserved mark", x, y, c);
		}
	ck_assert_uint_eq(vs_image_get(&im, x0, y0 - 16 * 13 - 1), VS_RGB_GRID); /* frame above tile 0 */
	/* both patterns of the hatch are there */
	ck_assert_uint_eq(vs_image_get(&im, x0 + 1, y0 - 16 * 13 + 3), vs_colour_unit_pixel(VS_UNIT_RESERVED, 0, 0, 1, 3));
	ck_assert_uint_eq(vs_image_get(&im, x0 + 1, y0 - 16 * 13 + 1), VS_RGB_RESERVED);
	/* the cell right of the sprite (tile 513) is free */
	ck_assert_uint_eq(vs_image_get(&im, x1 + 3, y0 + 3), VS_RGB_FREE);
	vs_image_fini(&im);
}
END_TEST

/* Eight 4 KiB sprites fill OBJ VRAM; the ninth (event 9) fails. */
static const char *full_trace(void)
{
	char text[2048];
	size_t len = 0;
	int i;

	len += (size_t)snprintf(text + len, sizeof text - len, "vramsim-trace 1\narena obj gba-obj mode=0\n");
	for (i = 1; i <= 9; i++)
		len += (size_t)snprintf(text + len, sizeof text - len, "alloc %d sprite 64x64 8bpp tag=big%d\n", i, i % 3);
	for (i = 0; i < 11; i++)
		len += (size_t)snprintf(text + len, sizeof text - len, "frame\n");
	return vs_test_file(2, "render_full.trace", text);
}

START_TEST(heatmap_failure_tick)
{
	const char *trace = full_trace();
	const char *png = out_path("heat.png");
	vs_history *hs = vs_history_new(0, 0);
	vs_replay *r = replay_of(trace, "gba-obj-first-fit", hs);
	vs_image im;
	vs_rect hr;
	int x, y, tick_x = -1, ticks = 0, expect;
	size_t nf;
	const uint64_t *f;

	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_int_eq(vs_history_finish(hs, r), 0);
	ck_assert_uint_eq(vs_history_events(hs), 20);
	f = vs_history_failures(hs, 0, &nf);
	ck_assert_uint_eq(nf, 1);
	ck_assert_uint_eq(f[0], 9);

	ck_assert_int_eq(cli("render %s --strategy gba-obj-first-fit --kind heatmap -o %s", trace, png), 0);
	im = vs_test_png(png);
	/* the failure tick: the only column of failure-red pixels outside the legend */
	for (x = 0; x < im.w; x++) {
		int red = 0;
		for (y = 0; y < im.h - 30; y++)
			red += vs_image_get(&im, x, y) == VS_RGB_FAIL;
		if (red) {
			ticks++;
			tick_x = x;
			ck_assert_int_ge(red, 5);
		}
	}
	ck_assert_int_eq(ticks, 1);
	hr = (vs_rect){ PIC_MARGIN, 0, im.w - 2 * PIC_MARGIN, 300 };
	ck_assert_int_eq(tick_x, vs_history_time_x(hs, hr, 9));
	/* by hand: the plot starts after an 8-digit address label and a gap
	 * (8 * 8 + 8 pixels) and ends before "100%" and a gap (4 * 8 + 8);
	 * event 9 of 20 is the pixel column whose events end at or after 9 */
	{
		int left = 8 * VS_FONT_W + 8, plot_w = im.w - 2 * PIC_MARGIN - left - (4 * VS_FONT_W + 8);
		expect = PIC_MARGIN + left + (9 * plot_w - 1) / 20;
	}
	ck_assert_int_eq(tick_x, expect);
	ck_assert_uint_eq(vs_history_time_event(hs, hr, expect), 9);
	vs_image_fini(&im);
	vs_replay_free(r);
	vs_history_free(hs);
}
END_TEST

START_TEST(same_bytes_twice)
{
	const char *trace = full_trace();
	const char *d1 = out_path("twice1"), *d2 = out_path("twice2");
	static const char *const kinds[] = { "occupancy", "heatmap", "chart" };
	char p1[1200], p2[1200], stem[256];
	int k;

	snprintf(stem, sizeof stem, "%s", strrchr(trace, '/') + 1);
	stem[strlen(stem) - 6] = '\0'; /* drop .trace */

	ck_assert_int_eq(cli("render %s --strategy gba-obj-first-fit --strategy gba-obj-buddy -o %s", trace, d1), 0);
	ck_assert_int_eq(cli("render %s --strategy gba-obj-first-fit --strategy gba-obj-buddy -o %s", trace, d2), 0);
	for (k = 0; k < 3; k++) {
		FILE *a, *b;
		int ca, cb;
		long n = 0;
		snprintf(p1, sizeof p1, "%s/%s-%s.png", d1, stem, kinds[k]);
		snprintf(p2, sizeof p2, "%s/%s-%s.png", d2, stem, kinds[k]);
		a = fopen(p1, "rb");
		b = fopen(p2, "rb");
		ck_assert_msg(a && b, "missing %s or %s", p1, p2);
		do {
			ca = getc(a);
			cb = getc(b);
			ck_assert_msg(ca == cb, "%s differs at byte %ld", kinds[k], n);
			n++;
		} while (ca != EOF);
		ck_assert_int_gt(n, 100);
		fclose(a);
		fclose(b);
	}
}
END_TEST

/* Two traces of the same events whose long names differ only at their
 * ends: a title too long for the picture kept its start and lost its end,
 * so their pictures were the same bytes. Its middle goes now. */
START_TEST(long_titles_keep_their_ends)
{
	char stem[200], a[1500], b[1500], cmd[4096];
	char *pa, *pb;
	size_t na, nb;
	FILE *fa, *fb;

	memset(stem, 'n', sizeof stem - 1);
	stem[sizeof stem - 1] = '\0';
	snprintf(a, sizeof a, "%s", vs_test_path("%s-first.trace", stem));
	snprintf(b, sizeof b, "%s", vs_test_path("%s-second.trace", stem));
	snprintf(cmd, sizeof cmd, "cp '%s' '%s' && cp '%s' '%s'", full_trace(), a, full_trace(), b);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(cli("render '%s' --kind chart -o '%s.png'", a, a), 0);
	ck_assert_int_eq(cli("render '%s' --kind chart -o '%s.png'", b, b), 0);
	snprintf(cmd, sizeof cmd, "%s.png", a);
	fa = fopen(cmd, "rb");
	snprintf(cmd, sizeof cmd, "%s.png", b);
	fb = fopen(cmd, "rb");
	ck_assert(fa && fb);
	pa = vs_test_slurp_stream(fa, &na);
	pb = vs_test_slurp_stream(fb, &nb);
	fclose(fa);
	fclose(fb);
	ck_assert(pa && pb);
	ck_assert_msg(na != nb || memcmp(pa, pb, na) != 0, "the two pictures are the same bytes");
	free(pa);
	free(pb);
}
END_TEST

/* A history too large for the memory there is (a limit on the address
 * space stands for it): said, exit 2, nothing written (it exited 2 without
 * a word). */
START_TEST(history_out_of_memory_said)
{
	vs_test_text t = { 0 };
	const char *trace, *png = out_path("huge.png");
	char cmd[2048], *said;
	int i;

	vs_test_put(&t, "vramsim-trace 1\n");
	for (i = 0; i < 16; i++)
		vs_test_put(&t, "arena a%d ram size=1M\n", i);
	for (i = 0; i < 32; i++)
		vs_test_put(&t, "alloc %d a%d 16\n", i, i % 16);
	trace = vs_test_file(0, "huge-history.trace", t.s);
	free(t.s);
	snprintf(cmd, sizeof cmd, "ulimit -v 1000000; '%s' render '%s' --kind chart --columns 8192 --rows 8192 -q -o '%s' "
		"2>'%s'", VS_VRAMSIM, trace, png, vs_test_path("huge.err"));
	i = system(cmd);
	said = vs_test_slurp(vs_test_path("huge.err"));
	ck_assert_ptr_nonnull(said);
	ck_assert_msg(WIFEXITED(i) && WEXITSTATUS(i) == 2, "status %d: %s", i, said);
	ck_assert_msg(strstr(said, "out of memory for the history of 16 arenas") != NULL, "%s", said);
	ck_assert(!vs_test_exists(png));
	free(said);
}
END_TEST

START_TEST(side_by_side)
{
	const char *trace = full_trace();
	const char *png = out_path("pair.png"), *one = out_path("one.png");
	vs_image a, b;

	ck_assert_int_eq(cli("render %s --strategy gba-obj-first-fit --kind chart -o %s", trace, one), 0);
	ck_assert_int_eq(cli("render %s --strategy gba-obj-first-fit --strategy gba-obj-buddy --kind chart -o %s",
		trace, png), 0);
	a = vs_test_png(one);
	b = vs_test_png(png);
	/* the left half of the pair is the single picture, pixel for pixel */
	ck_assert_int_eq(b.w, 2 * a.w + 2);
	ck_assert_int_eq(b.h, a.h);
	{
		int x, y;
		for (y = 0; y < a.h; y++)
			for (x = 0; x < a.w; x++)
				HOT_ASSERT(vs_image_get(&a, x, y) == vs_image_get(&b, x, y), "pixel %d,%d: %08x in the pair, %08x alone",
					x, y, vs_image_get(&b, x, y), vs_image_get(&a, x, y));
	}
	vs_image_fini(&a);
	vs_image_fini(&b);
}
END_TEST

START_TEST(unwritable_output)
{
	const char *trace = full_trace();
	const char *blocker = out_path("not-a-dir");
	char target[1200], dir[1200];
	FILE *fp = fopen(blocker, "w");
	int rc;

	ck_assert(fp != NULL);
	fputs("x", fp);
	fclose(fp);
	snprintf(target, sizeof target, "%s/pic.png", blocker);
	rc = cli("render %s --kind heatmap -o %s", trace, target);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(errbuf, "cannot write") && strstr(errbuf, "pic.png"), "stderr: %s", errbuf);
	ck_assert(!vs_test_exists(target));
	/* a directory that cannot be made */
	snprintf(dir, sizeof dir, "%s/sub", blocker);
	rc = cli("render %s -o %s", trace, dir);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(errbuf, "cannot make directory"), "stderr: %s", errbuf);
	/* a .png with every kind is a usage error, nothing written */
	rc = cli("render %s -o %s", trace, out_path("all.png"));
	ck_assert_int_eq(rc, 2);
	ck_assert(!vs_test_exists(out_path("all.png")));
	/* no temporary left behind in the output directory */
	snprintf(target, sizeof target, "%s/test_render_out", VS_BINARY_DIR);
	{
		DIR *d = opendir(target);
		struct dirent *de;
		ck_assert_ptr_nonnull(d);
		while ((de = readdir(d)) != NULL)
			ck_assert_msg(strstr(de->d_name, "tmp-") == NULL, "left behind: %s", de->d_name);
		closedir(d);
	}
}
END_TEST

START_TEST(usage_errors)
{
	const char *trace = full_trace();

	ck_assert_int_eq(cli("render %s --kind heatmap --at 3 -o %s", trace, out_path("x.png")), 2);
	ck_assert(strstr(errbuf, "--at") != NULL);
	ck_assert_int_eq(cli("render %s --kind bogus%s", trace, ""), 2);
	ck_assert_int_eq(cli("render %s --at 0%s", trace, ""), 2);
	ck_assert_int_eq(cli("render %s --at 2 --peak%s", trace, ""), 2);
	ck_assert_int_eq(cli("render --help%s%s", "", ""), 0);
	ck_assert(strstr(outbuf, "--peak") && strstr(outbuf, "--heat"));
	ck_assert(strstr(outbuf, "--from N|f:N") && strstr(outbuf, "--to N|f:N"));
}
END_TEST

/* Every unit's cell maps back to the unit: what the viewer's hover uses. */
static void check_layout(const char *kind_line)
{
	char text[256], err[512];
	const char *trace;
	vs_trace_reader *rd;
	const vs_arena_decl *d;
	vs_layout L;
	uint32_t u, nunits;
	int sizes[3][2] = { { 0, 0 }, { 1200, 900 }, { 500, 400 } }, k;

	snprintf(text, sizeof text, "vramsim-trace 1\n%s\n", kind_line);
	trace = vs_test_file(3, "render_layout.trace", text);
	rd = vs_trace_open(trace, err, sizeof err);
	ck_assert_msg(rd != NULL, "%s", err);
	d = &vs_trace_header_of(rd)->arenas[0];
	nunits = d->size / d->unit;
	for (k = 0; k < 3; k++) {
		ck_assert_int_eq(vs_layout_make(&L, d, sizes[k][0], sizes[k][1]), 0);
		if (sizes[k][0]) {
			ck_assert_int_le(L.w, sizes[k][0]);
			ck_assert_int_le(L.h, sizes[k][1]);
		}
		/* every unit of VRAM; every 97th of a big RAM and its last one */
		for (u = 0; u < nunits; u = u + (nunits > 65536 && u + 97 < nunits ? 97 : 1)) {
			vs_rect rc;
			int64_t back;
			HOT_CMP(vs_layout_unit_rect(&L, u, &rc), ==, 0);
			HOT_CMP(rc.x, >=, 0);
			HOT_CMP(rc.x + rc.w, <=, L.w);
			HOT_CMP(rc.y + rc.h, <=, L.h);
			back = vs_layout_unit_at(&L, rc.x + rc.w / 2, rc.y + rc.h / 2);
			HOT_CMP(back, >=, 0);
			/* cells of several units answer with their first unit */
			HOT_CMP(back, <=, (int64_t)u);
			HOT_CMP(back + (int64_t)L.panel[0].upc, >, (int64_t)u);
		}
		ck_assert_int_eq(vs_layout_unit_at(&L, -1, -1), -1);
	}
	vs_trace_close(rd);
}

START_TEST(layouts_round_trip)
{
	check_layout("arena obj gba-obj mode=0");
	check_layout("arena bg gba-bg mode=0");
	check_layout("arena bg gba-bg mode=3");
	check_layout("arena tex ds-tex");
	check_layout("arena pal ds-pltt banks=E0F4G5");
	check_layout("arena heap ram size=64K");
	check_layout("arena heap ram preset=ds-main");
}
END_TEST

START_TEST(bg_map_and_tiles)
{
	const char *trace = vs_test_file(4, "render_bg.trace",
		"vramsim-trace 1\narena bg gba-bg mode=0\n"
		"alloc 1 map text 256x256 tag=level\nalloc 2 tile 7 4bpp tag=level\n");
	vs_replay *r = replay_of(trace, NULL, NULL);
	vs_render_src src;
	vs_layout L;
	vs_image im;
	const vs_live *m = NULL, *t = NULL;
	const vs_arena *a;
	uint32_t u, c = vs_colour_tag_id(1);
	vs_rect rc;
	int y, lined = 0;

	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	a = vs_replay_arena(r, 0);
	for (u = 0; u < a->nunits; u++) {
		const vs_live *l = vs_replay_live_by_owner(r, vs_arena_owner_at(a, u));
		if (l && l->req.shape == VS_REQ_BGMAP)
			m = l;
		if (l && l->req.shape == VS_REQ_TILE)
			t = l;
	}
	ck_assert(m && t);
	vs_render_src_replay(&src, r, 0);
	ck_assert_int_eq(vs_layout_make(&L, &a->decl, 0, 0), 0);
	ck_assert_int_eq(vs_image_init(&im, L.w, L.h, VS_RGB_BG), 0);
	vs_render_arena(&im, 0, 0, &L, &src);
	/* the map's cells carry scan lines, the tile's cell is solid */
	ck_assert_int_eq(vs_layout_unit_rect(&L, m->pl.offset / 32, &rc), 0);
	for (y = 0; y < rc.h; y++) {
		uint32_t px = vs_image_get(&im, rc.x + 1, rc.y + y);
		ck_assert(px == c || px != VS_RGB_FREE);
		lined += px != c;
	}
	ck_assert_int_gt(lined, 0);
	ck_assert_int_eq(vs_layout_unit_rect(&L, t->pl.offset / 32, &rc), 0);
	for (y = 0; y < rc.h; y++)
		ck_assert_uint_eq(vs_image_get(&im, rc.x + 1, rc.y + y), c);
	vs_image_fini(&im);
	vs_replay_free(r);
}
END_TEST

START_TEST(ds_index_units_in_owner_colour)
{
	const char *trace = vs_test_file(5, "render_ds.trace",
		"vramsim-trace 1\narena tex ds-tex\nalloc 1 tex 64x64 4x4 tag=rock\n");
	vs_replay *r = replay_of(trace, NULL, NULL);
	vs_render_src src;
	vs_layout L;
	vs_image im;
	const vs_arena *a;
	uint32_t u, c = vs_colour_tag_id(1), idx = 0, data = 0;
	vs_rect rc;

	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	a = vs_replay_arena(r, 0);
	vs_render_src_replay(&src, r, 0);
	ck_assert_int_eq(vs_layout_make(&L, &a->decl, 0, 0), 0);
	ck_assert_int_eq(vs_image_init(&im, L.w, L.h, VS_RGB_BG), 0);
	vs_render_arena(&im, 0, 0, &L, &src);
	for (u = 0; u < a->nunits; u++) {
		if (vs_arena_kind_at(a, u) != VS_UNIT_INDEX && vs_arena_kind_at(a, u) != VS_UNIT_DATA)
			continue;
		HOT_CMP(vs_layout_unit_rect(&L, u, &rc), ==, 0);
		if (vs_arena_kind_at(a, u) == VS_UNIT_INDEX) {
			/* in slot 1, drawn in the texture's colour family */
			HOT_CMP(u, >=, 16384);
			HOT_CMP(u, <, 32768);
			HOT_CMP(vs_image_get(&im, rc.x, rc.y), ==, vs_colour_unit_pixel(VS_UNIT_INDEX, c, 0, rc.x - L.panel[1].x, rc.y - L.panel[1].y));
			idx++;
		} else {
			HOT_CMP(vs_image_get(&im, rc.x, rc.y), ==, c);
			data++;
		}
	}
	ck_assert_uint_eq(data * 8, 64 * 64 / 4);   /* 2 bpp texels */
	ck_assert_uint_eq(idx * 8, 64 * 64 / 8);    /* 1 byte index per 4x4 block: half the texel bytes */
	vs_image_fini(&im);
	vs_replay_free(r);
}
END_TEST

/* A long random trace through a 16-column history: bounded columns, the
 * last at the end, peaks equal to the replay's own metrics. */
START_TEST(history_bounded)
{
	char *text = malloc(1 << 20);
	size_t len = 0;
	vs_rng rng = { 77 };
	uint64_t live[512], nlive = 0, id = 1, maxlive = 0, l, g;
	double fr;
	int i, c;
	const char *trace;
	vs_history *hs = vs_history_new(16, 32);
	vs_replay *r;
	const vs_metrics *m;

	len += (size_t)snprintf(text + len, 1 << 20, "vramsim-trace 1\narena obj gba-obj mode=0\n");
	for (i = 0; i < 5000; i++) {
		if (nlive && (vs_rng_below(&rng, 2) || nlive == 512)) {
			uint32_t k = vs_rng_below(&rng, (uint32_t)nlive);
			len += (size_t)snprintf(text + len, (1 << 20) - len, "free %llu\n", (unsigned long long)live[k]);
			live[k] = live[--nlive];
		} else {
			len += (size_t)snprintf(text + len, (1 << 20) - len, "alloc %llu sprite 16x16 4bpp tag=t%u\n",
				(unsigned long long)id, vs_rng_below(&rng, 5));
			live[nlive++] = id++;
		}
	}
	trace = vs_test_file(6, "render_hist.trace", text);
	free(text);
	r = replay_of(trace, "gba-obj-first-fit", hs);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_int_eq(vs_history_finish(hs, r), 0);
	m = vs_replay_metrics(r, 0);
	ck_assert_int_le(vs_history_columns(hs), 16);
	ck_assert_int_ge(vs_history_columns(hs), 8);
	ck_assert_uint_eq(vs_history_column_event(hs, vs_history_columns(hs) - 1), 5000);
	for (c = 0; c < vs_history_columns(hs); c++) {
		if (c)
			ck_assert_uint_gt(vs_history_column_event(hs, c), vs_history_column_event(hs, c - 1));
		vs_history_column_metrics(hs, 0, c, &l, &g, &fr);
		if (l > maxlive)
			maxlive = l;
		ck_assert(fr >= 0 && fr <= 1);
	}
	ck_assert_uint_eq(maxlive, m->peak_live);
	ck_assert_uint_eq(vs_history_peak_frag_event(hs, 0), m->peak_frag_event);
	vs_replay_free(r);
	vs_history_free(hs);
}
END_TEST

/* The built-in font at 1:1: every glyph drawn, read back pixel by pixel and
 * compared with the table it was made from, and 'A' with a hand-written
 * copy of misc-fixed 8x13's. */
#include "render/font_8x13.h"
START_TEST(font_decoded_at_one_to_one)
{
	static const uint8_t a_glyph[13] = { 0x00, 0x00, 0x18, 0x24, 0x42, 0x42, 0x42, 0x7E, 0x42, 0x42, 0x42, 0x00, 0x00 };
	char text[96];
	vs_image im;
	int c, x, y;

	ck_assert_int_eq(VS_FONT_W, 8);
	ck_assert_int_ge(VS_FONT_H, 13);
	for (c = 32; c < 127; c++)
		text[c - 32] = (char)c;
	text[95] = '\0';
	ck_assert_int_eq(vs_image_init(&im, 95 * VS_FONT_W, VS_FONT_H, 0x000000FFu), 0);
	ck_assert_int_eq(vs_image_text(&im, 0, 0, text, 0xFFFFFFFFu, 1), 95 * VS_FONT_W);
	ck_assert_int_eq(vs_image_text_width(text, 1), 95 * VS_FONT_W);
	for (c = 0; c < 95; c++)
		for (y = 0; y < 13; y++) {
			uint8_t row = 0;
			for (x = 0; x < 8; x++)
				if (vs_image_get(&im, c * VS_FONT_W + x, y) == 0xFFFFFFFFu)
					row |= (uint8_t)(0x80u >> x);
			HOT_CMP(row, ==, font_8x13[c][y]);
			if (c == 'A' - 32)
				HOT_CMP(row, ==, a_glyph[y]);
		}
	vs_image_fini(&im);
}
END_TEST

/* A trace that ends empty is drawn at its peak of live bytes (tag pixels
 * present); --end draws the empty end. A RAM arena is drawn up to its
 * high-water mark, --whole draws all of it. */
START_TEST(empty_end_and_ram_crop)
{
	const char *t = vs_test_file(0, "empty-end.trace",
		"vramsim-trace 1\narena obj gba-obj\nalloc 1 sprite 32x32 4bpp tag=hero\nframe\nfree 1\n");
	const char *ram = vs_test_file(1, "ram-crop.trace",
		"vramsim-trace 1\narena heap ram size=1M\nalloc 1 4096 tag=a\nalloc 2 4096 tag=b\n");
	vs_image im, whole;
	int x0, y0, x1, y1;

	ck_assert_int_eq(cli("render '%s' --kind occupancy -o '%s' -q", t, out_path("empty-peak.png")), 0);
	im = vs_test_png(out_path("empty-peak.png"));
	ck_assert_int_eq(bbox(&im, vs_colour_tag_id(1), first_row_of_legend(&im), &x0, &y0, &x1, &y1) > 0, 1);
	vs_image_fini(&im);
	ck_assert_int_eq(cli("render '%s' --kind occupancy --end -o '%s' -q", t, out_path("empty-end.png")), 0);
	im = vs_test_png(out_path("empty-end.png"));
	ck_assert_int_eq(bbox(&im, vs_colour_tag_id(1), first_row_of_legend(&im), &x0, &y0, &x1, &y1), 0);
	vs_image_fini(&im);

	ck_assert_int_eq(cli("render '%s' --kind occupancy -o '%s' -q", ram, out_path("ram-crop.png")), 0);
	ck_assert_int_eq(cli("render '%s' --kind occupancy --whole -o '%s' -q", ram, out_path("ram-whole.png")), 0);
	im = vs_test_png(out_path("ram-crop.png"));
	whole = vs_test_png(out_path("ram-whole.png"));
	/* the same two allocations, drawn over more cells where less is shown */
	ck_assert_int_gt(bbox(&whole, vs_colour_tag_id(2), first_row_of_legend(&whole), &x0, &y0, &x1, &y1), 0);
	ck_assert_int_gt(bbox(&im, vs_colour_tag_id(2), first_row_of_legend(&im), &x0, &y0, &x1, &y1),
		4 * bbox(&whole, vs_colour_tag_id(2), first_row_of_legend(&whole), &x0, &y0, &x1, &y1));
	vs_image_fini(&im);
	vs_image_fini(&whole);
}
END_TEST

/* Time in frames when the trace has them: each column knows its frame. */
START_TEST(history_frames)
{
	const char *t = vs_test_file(0, "frames.trace",
		"vramsim-trace 1\narena obj gba-obj\nalloc 1 64\nframe\nalloc 2 64\nframe\nfree 1\nframe\nfree 2\n");
	vs_history *hs = vs_history_new(64, 16);
	vs_replay *r = replay_of(t, "gba-obj-first-fit", hs);
	int c;

	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_int_eq(vs_history_finish(hs, r), 0);
	ck_assert_uint_eq(vs_history_frames(hs), 3);
	ck_assert_uint_eq(vs_history_column_frame(hs, 0), 0);
	c = vs_history_columns(hs) - 1;
	ck_assert_uint_eq(vs_history_column_frame(hs, c), 3);
	for (c = 1; c < vs_history_columns(hs); c++)
		ck_assert_uint_ge(vs_history_column_frame(hs, c), vs_history_column_frame(hs, c - 1));
	vs_replay_free(r);
	vs_history_free(hs);
}
END_TEST

/* --colour-by: a 4bpp and an 8bpp sprite in their depth's colours, two
 * sizes in two size colours; the legend follows. */
START_TEST(colour_by)
{
	const char *t = vs_test_file(0, "colour-by.trace", "vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 8x8 4bpp tag=a\nalloc 2 sprite 64x64 8bpp tag=a\nframe\n");
	vs_live small, big;
	const char *name;
	uint32_t c4, c8, cs, cb;
	vs_image im;
	int x0, y0, x1, y1;

	memset(&small, 0, sizeof small);
	small.req.shape = VS_REQ_SPRITE;
	small.req.u.sprite.bpp = 4;
	small.req.size = 32;
	big = small;
	big.req.u.sprite.bpp = 8;
	big.req.size = 4096;
	c4 = vs_colour_live(&small, VS_COLOUR_BPP, 0);
	c8 = vs_colour_live(&big, VS_COLOUR_BPP, 0);
	cs = vs_colour_live(&small, VS_COLOUR_SIZE, 0);
	cb = vs_colour_live(&big, VS_COLOUR_SIZE, 0);
	ck_assert_uint_ne(c4, c8);
	ck_assert_uint_ne(cs, cb);
	ck_assert_int_eq(vs_colour_by_bin(VS_COLOUR_BPP, 1, &name, &c8), 3);
	ck_assert_str_eq(name, "8bpp");
	ck_assert_uint_eq(c8, vs_colour_live(&big, VS_COLOUR_BPP, 0));
	big.event = 10;
	ck_assert_uint_ne(vs_colour_live(&big, VS_COLOUR_AGE, 11), vs_colour_live(&big, VS_COLOUR_AGE, 10000));
	ck_assert_int_eq(vs_colour_by_parse("bpp"), VS_COLOUR_BPP);
	ck_assert_int_eq(vs_colour_by_parse("colour"), -1);

	ck_assert_int_eq(cli("render '%s' --kind occupancy --colour-by bpp -o '%s' -q", t, out_path("cb.png")), 0);
	im = vs_test_png(out_path("cb.png"));
	ck_assert_int_gt(bbox(&im, c4, first_row_of_legend(&im), &x0, &y0, &x1, &y1), 0);
	ck_assert_int_gt(bbox(&im, vs_colour_live(&big, VS_COLOUR_BPP, 0), first_row_of_legend(&im), &x0, &y0, &x1,
		&y1), 0);
	vs_image_fini(&im);
	/* by tag the two are one colour: the 4bpp colour is gone */
	ck_assert_int_eq(cli("render '%s' --kind occupancy -o '%s' -q", t, out_path("cb-tag.png")), 0);
	im = vs_test_png(out_path("cb-tag.png"));
	ck_assert_int_eq(bbox(&im, c4, first_row_of_legend(&im), &x0, &y0, &x1, &y1), 0);
	vs_image_fini(&im);
	ck_assert_int_eq(cli("render '%s' --colour-by %s -o x.png", t, "shade"), 2);
}
END_TEST

START_TEST(tag_colours_stable)
{
	/* FNV-1a of the name: fixed values, the same on every machine */
	/* tags by first appearance: the first 24 pairwise far apart, none the
	 * untagged grey, and a colour per tag past the table too */
	{
		uint32_t a, b;
		for (a = 1; a <= 24; a++) {
			uint32_t ca = vs_colour_tag_id(a);
			HOT_CMP(ca, !=, VS_RGB_UNTAGGED);
			HOT_CMP(ca & 0xFF, ==, 0xFF);
			for (b = a + 1; b <= 24; b++) {
				uint32_t cb = vs_colour_tag_id(b);
				int dr = (int)(ca >> 24) - (int)(cb >> 24), dg = (int)(ca >> 16 & 255) - (int)(cb >> 16 & 255);
				int db = (int)(ca >> 8 & 255) - (int)(cb >> 8 & 255);
				HOT_ASSERT(dr * dr + dg * dg + db * db >= 54 * 54, "tags %u and %u look alike", a, b);
			}
		}
		ck_assert_uint_eq(vs_colour_tag_id(0), VS_RGB_UNTAGGED);
		ck_assert_uint_ne(vs_colour_tag_id(25), vs_colour_tag_id(26));
	}
	ck_assert_uint_eq(vs_colour_tag("player"), vs_colour_tag("player"));
	ck_assert_uint_ne(vs_colour_tag("player"), vs_colour_tag("enemy"));
	ck_assert_uint_eq(vs_colour_tag(""), VS_RGB_UNTAGGED);
	ck_assert_uint_eq(vs_colour_tag(NULL), VS_RGB_UNTAGGED);
	ck_assert_uint_eq(vs_colour_tag("player") & 0xFF, 0xFF);
}
END_TEST


/* ---- windows: --from / --to -------------------------------------------- */

#include "render/history_impl.h"

/* The text drawn in colour c at (x, y), read back cell by cell against the
 * built-in font: up to n - 1 characters, trailing blanks dropped; a cell no
 * glyph matches ends it. */
static void read_text(const vs_image *im, int x, int y, uint32_t c, char *out, int n)
{
	int k, g, row, col, len = 0;

	for (k = 0; k < n - 1; k++) {
		uint8_t rows[VS_FONT_H];
		for (row = 0; row < VS_FONT_H; row++) {
			rows[row] = 0;
			for (col = 0; col < VS_FONT_W; col++)
				if (vs_image_get(im, x + k * VS_FONT_W + col, y + row) == c)
					rows[row] |= (uint8_t)(0x80u >> col);
		}
		for (g = 0; g < 95 && memcmp(rows, font_8x13[g], VS_FONT_H); g++)
			;
		if (g == 95)
			break;
		out[k] = (char)(32 + g);
		if (g)
			len = k + 1;
	}
	out[len] = '\0';
}

/* The first band's plot in a heatmap or chart PNG: left x, width, bottom y
 * (found by its frame, one pixel left of the plot). */
static void plot_of_png(const vs_image *im, int *px, int *pw, int *bottom)
{
	int y = 0;

	*px = PIC_MARGIN + VS__PLOT_LEFT;
	*pw = im->w - 2 * PIC_MARGIN - VS__PLOT_LEFT - VS__PLOT_RIGHT;
	while (y < im->h && vs_image_get(im, *px - 1, y) != VS_RGB_GRID)
		y++;
	while (y < im->h && vs_image_get(im, *px - 1, y) == VS_RGB_GRID)
		y++;
	*bottom = y - 1;
	ck_assert_int_lt(*bottom, im->h - 20);
}

/* Pixels of colour c inside the first band's plot. */
static int plot_pixels(const vs_image *im, uint32_t c)
{
	int px, pw, bottom, x, y, n = 0;

	plot_of_png(im, &px, &pw, &bottom);
	for (y = bottom - 1; y > 0 && vs_image_get(im, px - 1, y) == VS_RGB_GRID; y--)
		for (x = px; x < px + pw; x++)
			n += vs_image_get(im, x, y) == c;
	return n;
}

/* A heatmap or chart PNG read into im, with its first band's time labels:
 * the first tick's, and the ten characters at the plot's right end. */
static void time_labels(const char *png, vs_image *im, char *first, char *last, int n)
{
	int px, pw, bottom;

	*im = vs_test_png(png);
	plot_of_png(im, &px, &pw, &bottom);
	read_text(im, px, bottom + 3, VS_RGB_DIM, first, n);
	read_text(im, px + pw - 10 * VS_FONT_W, bottom + 3, VS_RGB_DIM, last, n);
}

/* Frames 0-4: "early" lives in frames 0-1 and again in frame 4, "late" in
 * frames 2-3; the ninth 4 KiB sprite fails at event 9 (frame 0). */
static const char *window_trace(void)
{
	char text[2048];
	size_t len = 0;
	int i;

	len += (size_t)snprintf(text + len, sizeof text - len, "vramsim-trace 1\narena obj gba-obj mode=0\n");
	for (i = 1; i <= 9; i++) /* events 1-9 */
		len += (size_t)snprintf(text + len, sizeof text - len, "alloc %d sprite 64x64 8bpp tag=early\n", i);
	len += (size_t)snprintf(text + len, sizeof text - len, "frame\n"); /* 10: frame 1 */
	for (i = 1; i <= 8; i++) /* 11-18 */
		len += (size_t)snprintf(text + len, sizeof text - len, "free %d\n", i);
	len += (size_t)snprintf(text + len, sizeof text - len, "frame\n"  /* 19: frame 2 */
		"alloc 10 sprite 32x32 4bpp tag=late\n"                        /* 20 */
		"frame\n"                                                       /* 21: frame 3 */
		"free 10\n"                                                     /* 22 */
		"frame\n"                                                       /* 23: frame 4 */
		"alloc 11 sprite 64x64 8bpp tag=early\n");                      /* 24 */
	return vs_test_file(7, "render_window.trace", text);
}

/* Seven events, no frame statements. */
static const char *events_trace(void)
{
	return vs_test_file(8, "render_window_ev.trace", "vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 512\nalloc 2 512\nalloc 3 512\nfree 1\nfree 2\nalloc 4 1K\nfree 3\n");
}

static vs_history *window_history(const char *from, const char *to, int columns)
{
	vs_history *hs = vs_history_new(columns, 32);
	vs_window w;
	vs_replay *r;
	char err[256];

	ck_assert_msg(vs_window_parse(&w, from, to, err, sizeof err) == 0, "%s", err);
	vs_history_set_window(hs, &w);
	r = replay_of(window_trace(), "gba-obj-first-fit", hs);
	ck_assert_int_eq(vs_replay_run(r, 0), 0);
	ck_assert_int_eq(vs_history_finish(hs, r), 0);
	ck_assert_msg(vs_history_window_check(hs, err, sizeof err) == 0, "%s", err);
	vs_replay_free(r);
	return hs;
}

/* The history of a window: its events, columns inside it, failures and
 * peaks from it alone. */
START_TEST(window_history_bounds)
{
	vs_history *hs = window_history("f:2", "f:3", 0);
	char buf[64];
	size_t nf;
	int c;

	/* frame 2 opens with its frame statement (19), frame 4's (23) closes it */
	ck_assert_uint_eq(vs_history_first_event(hs), 19);
	ck_assert_uint_eq(vs_history_last_event(hs), 22);
	ck_assert_uint_eq(vs_history_events(hs), 24);
	ck_assert_uint_eq(vs_history_frames(hs), 4);
	ck_assert_int_gt(vs_history_columns(hs), 0);
	for (c = 0; c < vs_history_columns(hs); c++) {
		ck_assert_uint_ge(vs_history_column_event(hs, c), 19);
		ck_assert_uint_le(vs_history_column_event(hs, c), 22);
		ck_assert_uint_ge(vs_history_column_frame(hs, c), 2);
		ck_assert_uint_le(vs_history_column_frame(hs, c), 3);
	}
	ck_assert_uint_eq(vs_history_column_event(hs, vs_history_columns(hs) - 1), 22);
	vs_history_failures(hs, 0, &nf);
	ck_assert_uint_eq(nf, 0);                               /* event 9 is before it */
	ck_assert_uint_eq(vs_history_peak_live_event(hs, 0), 20); /* not event 8's 32 KiB */
	vs_history_window_describe(hs, buf, sizeof buf);
	ck_assert_str_eq(buf, "frames 2-3");
	/* the x axis starts at the window: its first event at the left edge */
	ck_assert_int_eq(vs_history_time_x(hs, (vs_rect){ 0, 0, 1000, 300 }, 18), VS__PLOT_LEFT);
	ck_assert_int_eq(vs_history_time_x(hs, (vs_rect){ 0, 0, 1000, 300 }, 22), 1000 - VS__PLOT_RIGHT - 1);
	vs_history_free(hs);

	hs = window_history("5", "12", 0);
	ck_assert_uint_eq(vs_history_first_event(hs), 5);
	ck_assert_uint_eq(vs_history_last_event(hs), 12);
	vs_history_failures(hs, 0, &nf);
	ck_assert_uint_eq(nf, 1);
	ck_assert_uint_eq(vs_history_peak_live_event(hs, 0), 8);
	vs_history_window_describe(hs, buf, sizeof buf);
	ck_assert_str_eq(buf, "events 5-12");
	vs_history_free(hs);

	/* bounded as without a window: 4 columns, merged, the last at its end */
	hs = window_history("2", "20", 4);
	ck_assert_int_le(vs_history_columns(hs), 4);
	ck_assert_uint_eq(vs_history_column_event(hs, vs_history_columns(hs) - 1), 20);
	ck_assert_uint_ge(vs_history_column_event(hs, 0), 2);
	vs_history_free(hs);

	/* open ends: from frame 3 to the end, up to event 3 */
	hs = window_history("f:3", NULL, 0);
	ck_assert_uint_eq(vs_history_first_event(hs), 21);
	ck_assert_uint_eq(vs_history_last_event(hs), 24);
	vs_history_free(hs);
	hs = window_history(NULL, "3", 0);
	ck_assert_uint_eq(vs_history_first_event(hs), 1);
	ck_assert_uint_eq(vs_history_last_event(hs), 3);
	vs_history_free(hs);
}
END_TEST

/* The decoded heatmap of a window: the first tick reads its start, the
 * last its span, and "early", alive only outside it, leaves no colour. */
START_TEST(window_heatmap_decoded)
{
	const char *trace = window_trace();
	const char *png = out_path("window-heat.png"), *whole = out_path("window-whole.png");
	uint32_t early = vs_colour_tag_id(1), late = vs_colour_tag_id(2);
	char first[32], last[32];
	vs_image im;

	ck_assert_int_eq(cli("render %s --kind heatmap --from f:2 --to f:3 -q -o %s", trace, png), 0);
	time_labels(png, &im, first, last, sizeof first);
	ck_assert_str_eq(first, "2");
	ck_assert_str_eq(last, "frames 2-3");
	ck_assert_int_eq(plot_pixels(&im, early), 0);
	ck_assert_int_gt(plot_pixels(&im, late), 0);
	vs_image_fini(&im);

	/* the same in events, on a frame trace: ticks still in frames */
	ck_assert_int_eq(cli("render %s --kind heatmap --from 19 --to 22 -q -o %s", trace, png), 0);
	time_labels(png, &im, first, last, sizeof first);
	ck_assert_str_eq(first, "2");
	ck_assert_int_eq(plot_pixels(&im, early), 0);
	vs_image_fini(&im);

	/* without the window "early" is there, and the axis starts at 0 */
	ck_assert_int_eq(cli("render %s --kind heatmap -q -o %s", trace, whole), 0);
	time_labels(whole, &im, first, last, sizeof first);
	ck_assert_str_eq(first, "0");
	ck_assert_int_gt(plot_pixels(&im, early), 0);
	vs_image_fini(&im);
}
END_TEST

/* A trace without frames: ticks in events from the window's first. */
START_TEST(window_chart_events_decoded)
{
	const char *trace = events_trace();
	const char *png = out_path("window-chart.png");
	char first[32], last[32];
	vs_image im;

	ck_assert_int_eq(cli("render %s --kind chart --from 3 --to 5 -q -o %s", trace, png), 0);
	time_labels(png, &im, first, last, sizeof first);
	ck_assert_str_eq(first, "3");
	ck_assert_str_eq(last, "events 3-5");
	vs_image_fini(&im);
}
END_TEST

/* Occupancy in a window: at its end by default, at the peak inside it with
 * --peak; an --at outside it is refused. */
START_TEST(window_occupancy)
{
	const char *trace = window_trace();
	const char *png = out_path("window-occ.png");
	uint32_t early = vs_colour_tag_id(1), late = vs_colour_tag_id(2);
	vs_image im;
	int x0, y0, x1, y1;

	/* the peak inside frames 2-3 is "late" alone (event 20): 16 tiles in a row */
	ck_assert_int_eq(cli("render %s --kind occupancy --peak --from f:2 --to f:3 -q -o %s", trace, png), 0);
	im = vs_test_png(png);
	ck_assert_int_eq(bbox(&im, early, first_row_of_legend(&im), &x0, &y0, &x1, &y1), 0);
	ck_assert_int_eq(bbox(&im, late, first_row_of_legend(&im), &x0, &y0, &x1, &y1), 16 * 12 * 12 + 15 * 12);
	vs_image_fini(&im);
	/* the window's end (event 22) is empty: its peak again, not the trace's */
	ck_assert_int_eq(cli("render %s --kind occupancy --from f:2 --to f:3 -q -o %s", trace, png), 0);
	im = vs_test_png(png);
	ck_assert_int_eq(bbox(&im, early, first_row_of_legend(&im), &x0, &y0, &x1, &y1), 0);
	ck_assert_int_gt(bbox(&im, late, first_row_of_legend(&im), &x0, &y0, &x1, &y1), 0);
	vs_image_fini(&im);
	/* events 1-8: its end is full of "early" */
	ck_assert_int_eq(cli("render %s --kind occupancy --to 8 -q -o %s", trace, png), 0);
	im = vs_test_png(png);
	ck_assert_int_gt(bbox(&im, early, first_row_of_legend(&im), &x0, &y0, &x1, &y1), 1024 * 12 * 12 - 1);
	vs_image_fini(&im);
	ck_assert_int_eq(cli("render %s --kind occupancy --from 19 --at 9 -q -o x.png", trace), 2);
	ck_assert_msg(strstr(errbuf, "--at 9 is outside the window (events 19-24)"), "%s", errbuf);
	ck_assert_int_eq(cli("render %s --kind occupancy --from f:2 --frame 1 -q -o x.png", trace), 2);
	ck_assert_msg(strstr(errbuf, "outside the window"), "%s", errbuf);
}
END_TEST

/* A window render refuses, found as render finds it: by vs_window_parse,
 * or past the trace's end by the history's check after the replay. */
static void window_refused(const char *trace, const char *from, const char *to, const char *msg)
{
	char err[256] = "";
	vs_window w;
	int rc = vs_window_parse(&w, from, to, err, sizeof err);

	if (rc == 0) {
		vs_history *hs = vs_history_new(0, 0);
		vs_replay *r;

		vs_history_set_window(hs, &w);
		r = replay_of(trace, "gba-obj-first-fit", hs);
		ck_assert_int_eq(vs_replay_run(r, 0), 0);
		ck_assert_int_eq(vs_history_finish(hs, r), 0);
		rc = vs_history_window_check(hs, err, sizeof err);
		vs_replay_free(r);
		vs_history_free(hs);
	}
	ck_assert_msg(rc != 0 && strstr(err, msg), "--from %s --to %s: %d '%s'", from ? from : "-", to ? to : "-", rc,
		err);
}

/* Bad windows: exit 2 with a message saying what is wrong. Each kind of
 * refusal (the window's syntax, the trace's end, a trace without frames)
 * goes through the command once; the other windows are refused by the
 * same two functions the command calls, in process (a vramsim process
 * each cost 0.1 s of CPU in the sanitizer tree). */
START_TEST(window_errors)
{
	const char *trace = window_trace();
	const char *noframes = events_trace();
	static const struct { const char *from, *to, *msg; } bad[] = {
		{ "f:3", "f:1", "--from f:3 is after --to f:1" },
		{ "f:1", "9", "both ends in events (N) or both in frames (f:N)" },
		{ "25", NULL, "--from 25 is past the trace's end: it has 24 events" },
		{ "f:5", NULL, "--from f:5 is past the trace's end: it has frames 0 to 4" },
		{ "1x", NULL, "--from: '1x' is not an event number N or a frame f:N" },
		{ NULL, "f:-1", "--to: 'f:-1' is not an event number N or a frame f:N" },
		{ "0", NULL, "--from: events count from 1" },
		{ "99999999999999999999", NULL, "is not an event number" },
	};
	size_t k;

	ck_assert_int_eq(cli("render %s --from 9 --to 3 -q -o %s", trace, out_path("window-bad")), 2);
	ck_assert_msg(strstr(errbuf, "--from 9 is after --to 3"), "%s", errbuf);
	ck_assert_int_eq(cli("render %s --to 99 -q -o %s", trace, out_path("window-bad")), 2);
	ck_assert_msg(strstr(errbuf, "--to 99 is past the trace's end: it has 24 events"), "%s", errbuf);
	ck_assert_int_eq(cli("render %s --from f:0 -q -o %s", noframes, out_path("window-bad")), 2);
	ck_assert_msg(strstr(errbuf, "the trace has no frame statements"), "%s", errbuf);
	ck_assert(!vs_test_exists(out_path("window-bad")));
	for (k = 0; k < sizeof bad / sizeof bad[0]; k++)
		window_refused(trace, bad[k].from, bad[k].to, bad[k].msg);
}
END_TEST

/* An event or frame past the trace's end, in every command that takes one
 * (render's --at and --frame, replay's --at, the --to of report and diff
 * --png): exit 2 saying how long the trace is, and no output made or
 * replaced; render and replay printed it and exited 0 with a picture or
 * the state of the end. The last event and frame are still fine. */
START_TEST(positions_past_the_end)
{
	static const struct { const char *args, *msg, *ext; } past[] = {
		{ "render %s -q --at 25 --kind occupancy -o %s", "--at 25 is past the trace's end: it has 24 events", "png" },
		{ "render %s -q --frame 5 --kind occupancy -o %s", "--frame 5 is past the trace's end: it has 4 frame", "png" },
		{ "render %s -q -s gba-obj-first-fit -s gba-obj-buddy --at 25 --kind occupancy -o %s", "--at 25 is past", "png" },
		{ "render %s -q --from 3 --at 99 --kind occupancy -o %s", "--at 99 is past the trace's end", "png" },
		{ "replay %s -q --at 25 --series %s", "--at 25 is past the trace's end: it has 24 events", "csv" },
		{ "report %s --to 25 -o %s", "--to 25 is past the trace's end: it has 24 events", "html" },
		{ "diff %s -q -s gba-obj-first-fit -s gba-obj-buddy --to f:5 --png %s", "--to f:5 is past the trace's end", "png" },
	};
	char trace[1024], old[1024], dir[1024], name[64];
	size_t k;
	char *text;

	snprintf(trace, sizeof trace, "%s", window_trace());
	for (k = 0; k < sizeof past / sizeof past[0]; k++) {
		const char *fresh = vs_test_path("past-end-%zu.%s", k, past[k].ext);
		snprintf(name, sizeof name, "past-end-old.%s", past[k].ext);
		snprintf(old, sizeof old, "%s", vs_test_file(1, name, "old\n"));
		ck_assert_msg(cli(past[k].args, trace, fresh) == 2, "%s: %s%s", past[k].args, outbuf, errbuf);
		ck_assert_msg(strstr(errbuf, past[k].msg), "%s: %s", past[k].args, errbuf);
		ck_assert_msg(!vs_test_exists(fresh), "%s: %s was written", past[k].args, fresh);
		ck_assert_int_eq(cli(past[k].args, trace, old), 2);
		text = vs_test_slurp(old);
		ck_assert_msg(strcmp(text, "old\n") == 0, "%s: the old output was replaced", past[k].args);
		free(text);
		ck_assert(!vs_test_temporary_left(old));
	}
	/* --kind all into a folder: not made */
	snprintf(dir, sizeof dir, "%s", vs_test_path("past-end-dir"));
	ck_assert_int_eq(cli("render %s -q --at 25 -o %s", trace, dir), 2);
	ck_assert(!vs_test_exists(dir));
	/* the last event and the last frame */
	ck_assert_msg(cli("render %s -q --at 24 --kind occupancy -o %s", trace, vs_test_path("last.png")) == 0, "%s",
		errbuf);
	ck_assert_msg(cli("render %s -q --frame 4 --kind occupancy -o %s", trace, vs_test_path("last.png")) == 0, "%s",
		errbuf);
	ck_assert_msg(cli("replay %s -q --at 24", trace) == 0, "%s", errbuf);
}
END_TEST

/* ---- no two labels overlap ------------------------------------------- */

#define MAX_BOXES 4096

typedef struct boxes {
	int n;
	vs_rect r[MAX_BOXES];
	vs_box_kind kind[MAX_BOXES];
	char what[MAX_BOXES][40];
} boxes;

static void note_box(void *ud, const vs_image *im, vs_rect r, vs_box_kind kind, const char *what)
{
	boxes *b = ud;

	(void)im;
	if (b->n == MAX_BOXES)
		return;
	b->r[b->n] = r;
	b->kind[b->n] = kind;
	snprintf(b->what[b->n], sizeof b->what[0], "%s", what);
	b->n++;
}

/* Boxes that overlap another or leave the image; the first in msg. */
static int bad_boxes(const boxes *b, const vs_image *im, char *msg, size_t len)
{
	int i, j, bad = 0;

	for (i = 0; i < b->n; i++) {
		vs_rect p = b->r[i];
		if (p.x < 0 || p.y < 0 || p.x + p.w > im->w || p.y + p.h > im->h) {
			if (!bad++)
				snprintf(msg, len, "'%s' (%d,%d %dx%d) leaves the %dx%d image", b->what[i], p.x, p.y, p.w, p.h,
					im->w, im->h);
			continue;
		}
		for (j = i + 1; j < b->n; j++) {
			vs_rect q = b->r[j];
			if (p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h && !bad++)
				snprintf(msg, len, "'%s' (%d,%d %dx%d) overlaps '%s' (%d,%d %dx%d)", b->what[i], p.x, p.y, p.w,
					p.h, b->what[j], q.x, q.y, q.w, q.h);
		}
	}
	return bad;
}

static void check_picture(boxes *b, vs_image *im, const char *name, const char *kind)
{
	char msg[512];

	ck_assert_int_lt(b->n, MAX_BOXES);
	ck_assert_msg(b->n > 3, "%s %s: only %d boxes", name, kind, b->n);
	ck_assert_msg(bad_boxes(b, im, msg, sizeof msg) == 0, "%s %s: %s", name, kind, msg);
	vs_image_fini(im);
	b->n = 0;
}

/* Every picture of a trace (window: NULL or from, to), drawn as render
 * draws it, with every box it drew checked. */
static void check_layout_of(boxes *b, const char *name, const char *from, const char *to)
{
	char path[1024], err[256];
	vs_history *hs = vs_history_new(0, 0);
	vs_render_src src[VS_TRACE_MAX_ARENAS];
	vs_window w;
	vs_replay *r;
	vs_image im;
	int i;

	snprintf(path, sizeof path, "%s/traces/%s", VS_SOURCE_DIR, name);
	ck_assert_int_eq(vs_window_parse(&w, from, to, err, sizeof err), 0);
	vs_history_set_window(hs, &w);
	r = replay_of(path, NULL, hs);
	ck_assert_int_ge(vs_replay_run(r, 0), 0);
	ck_assert_int_eq(vs_history_finish(hs, r), 0);
	ck_assert_msg(vs_history_window_check(hs, err, sizeof err) == 0, "%s", err);
	vs_image_box_hook(note_box, b);
	ck_assert_int_eq(vs_picture_heatmap(&im, hs, VS_HEAT_OWNER, "a trace - a strategy - heatmap"), 0);
	check_picture(b, &im, name, "heatmap");
	ck_assert_int_eq(vs_picture_heatmap(&im, hs, VS_HEAT_OCCUPANCY, "a trace - a strategy - heatmap"), 0);
	check_picture(b, &im, name, "occupancy heatmap");
	ck_assert_int_eq(vs_picture_chart(&im, hs, "a trace - a strategy - chart"), 0);
	check_picture(b, &im, name, "chart");
	for (i = 0; i < vs_replay_arena_count(r); i++)
		vs_render_src_replay(&src[i], r, i);
	ck_assert_int_eq(vs_picture_occupancy(&im, src, vs_replay_arena_count(r), "occupancy", hs), 0);
	check_picture(b, &im, name, "occupancy");
	vs_image_box_hook(NULL, NULL);
	vs_replay_free(r);
	vs_history_free(hs);
}

START_TEST(labels_never_overlap)
{
	boxes *b = calloc(1, sizeof *b);
	vs_image im;
	char msg[512];

	ck_assert_ptr_nonnull(b);
	check_layout_of(b, "gba-sprite-churn-1.trace", NULL, NULL);      /* OBJ, frames, failures */
	check_layout_of(b, "gba-sprite-churn-1.trace", "f:1000", "f:1500"); /* a window */
	check_layout_of(b, "gba-level-change-1.trace", "2000", "6000");
	check_layout_of(b, "ds-levels.trace", NULL, NULL);               /* DS texture and palette */
	check_layout_of(b, "heap-manager.trace", NULL, NULL);            /* seven RAM heaps */
	check_layout_of(b, "heap-malloclab-mix.trace", NULL, NULL);
	/* the check can fail: two labels drawn on top of each other */
	vs_image_box_hook(note_box, b);
	ck_assert_int_eq(vs_image_init(&im, 100, 40, VS_RGB_BG), 0);
	vs_image_text(&im, 2, 2, "first", VS_RGB_TEXT, 1);
	vs_image_text(&im, 30, 10, "second", VS_RGB_TEXT, 1);
	vs_image_text(&im, 90, 25, "out", VS_RGB_TEXT, 1);
	vs_image_box_hook(NULL, NULL);
	ck_assert_int_eq(bad_boxes(b, &im, msg, sizeof msg), 2);
	ck_assert_msg(strstr(msg, "'first'") && strstr(msg, "overlaps 'second'"), "%s", msg);
	vs_image_fini(&im);
	free(b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("render");
	TCase *tc = tcase_create("render");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, occupancy_sprite_cells);
	tcase_add_test(tc, occupancy_bitmap_mode_reserved);
	tcase_add_test(tc, heatmap_failure_tick);
	tcase_add_test(tc, same_bytes_twice);
	tcase_add_test(tc, long_titles_keep_their_ends);
	tcase_add_test(tc, side_by_side);
	tcase_add_test(tc, unwritable_output);
	tcase_add_test(tc, usage_errors);
	tcase_add_test(tc, layouts_round_trip);
	tcase_add_test(tc, bg_map_and_tiles);
	tcase_add_test(tc, ds_index_units_in_owner_colour);
	tcase_add_test(tc, history_bounded);
	tcase_add_test(tc, tag_colours_stable);
	tcase_add_test(tc, font_decoded_at_one_to_one);
	tcase_add_test(tc, empty_end_and_ram_crop);
	tcase_add_test(tc, history_frames);
	tcase_add_test(tc, colour_by);
	tcase_add_test(tc, window_history_bounds);
	tcase_add_test(tc, window_heatmap_decoded);
	tcase_add_test(tc, window_chart_events_decoded);
	tcase_add_test(tc, window_occupancy);
	tcase_add_test(tc, window_errors);
	tcase_add_test(tc, positions_past_the_end);
	tcase_add_test(tc, labels_never_overlap);
	suite_add_tcase(s, tc);
	/* the sanitizers' runtime needs more address space than the limit leaves */
	tc = vs_test_tcase_apart(s, "memory_limit", getenv("ASAN_OPTIONS") ? "a limit on the address space stops "
		"the sanitizers' runtime" : NULL);
	tcase_add_test(tc, history_out_of_memory_said);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
