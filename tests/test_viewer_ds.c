/* SPDX-License-Identifier: Zlib */
/* test_viewer_ds.c - the viewer's layout for a trace of many arenas: the
 * DS capture of the demo ROM (six arenas) under SDL's dummy video driver.
 *
 * Every arena must be drawn (the one in focus as its full map, the others
 * as strips), with each focus, at the default size, with two sides and in a
 * small window; the panel labels the layout reports must not overlap, and
 * the hover must name the allocation under the mouse, read from a replay
 * run independently of the viewer.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "render/render.h"
#include "viewer/viewer.h"
#include "strategies/registry.h"
#include "vram/arena.h"
#include "viewer_run.h"

#define TRACE VS_SOURCE_DIR "/traces/captured/ds-demo-capture.trace"
#define NARENAS 6
#define AT 400 /* the event the session looks at */

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* A unit of arena `arena` in the middle of a live allocation's run after
 * AT events with the default strategies, and that allocation's id. */
static int64_t owned_unit(int arena, uint64_t *id)
{
	char err[512];
	vs_trace_reader *rd = vs_trace_open(TRACE, err, sizeof err);
	vs_replay_config cfg;
	vs_replay *r;
	const vs_arena *a;
	uint32_t u;
	int64_t found = -1;

	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	vs_replay_run(r, AT);
	a = vs_replay_arena(r, arena);
	for (u = 1; u + 1 < a->nunits && found < 0; u++) {
		const vs_live *l = vs_replay_live_by_owner(r, vs_arena_owner_at(a, u));
		if (l && vs_arena_owner_at(a, u - 1) == vs_arena_owner_at(a, u) &&
			vs_arena_owner_at(a, u + 1) == vs_arena_owner_at(a, u)) {
			found = u;
			*id = l->id;
		}
	}
	vs_replay_free(r);
	return found;
}

static void setup_opts(vs_viewer_opts *o, int nsides, int w, int h, const char *script, FILE *log)
{
	int s;

	memset(o, 0, sizeof *o);
	o->trace = TRACE;
	o->nsides = nsides;
	for (s = 0; s < nsides; s++) {
		vs_replay_config_default(&o->cfg[s]);
		o->cfg[s].message = quiet;
	}
	/* the second side: another OBJ strategy for both engines */
	if (nsides == 2)
		o->cfg[1].strategy[0] = o->cfg[1].strategy[1] = vs_strategy_find("gba-obj-first-fit");
	o->width = w;
	o->height = h;
	o->script = script;
	viewer_outputs(o, log);
	o->shot_dir = VS_BINARY_DIR;
	o->check_redraw = 1;
}

typedef struct pane {
	int side, arena, x, y, w, h, box_w, box_h;
	char kind[8];
} pane;

typedef struct label {
	int side, arena, x, y, w, h;
} label;

/* Checks the "pane" and "label" lines of layout report k (from 0) in the
 * log: every arena drawn, a full map for arena `focus` (or a strip when
 * focus_fits is 0) and strips for the others, labels apart and inside
 * their pane. The panes go to out (NARENAS per side). */
static void check_layout_in(const char *log, int k, int nsides, int focus, int focus_fits, pane *out)
{
	const char *p = log;
	label lb[64];
	int nl = 0, np = 0, i, j;

	for (i = 0; i <= k; i++) {
		p = strstr(p, "\npane 1 0 ");
		ck_assert_msg(p != NULL, "no layout report %d in:\n%s", k, log);
		p++;
	}
	while (np < nsides * NARENAS || !strncmp(p, "label ", 6)) {
		if (!strncmp(p, "pane ", 5)) {
			pane *q = &out[np++];
			char name[32];
			ck_assert_int_eq(sscanf(p, "pane %d %d %31s %7s %d %d %d %d in %d %d", &q->side, &q->arena, name, q->kind,
				&q->x, &q->y, &q->w, &q->h, &q->box_w, &q->box_h), 10);
			ck_assert_msg(strcmp(q->kind, "none") != 0, "arena %s is not drawn", name);
			ck_assert_msg(!strcmp(q->kind, q->arena == focus && focus_fits ? "map" : "strip"),
				"arena %d: %s with focus %d", q->arena, q->kind, focus);
		} else {
			ck_assert_msg(!strncmp(p, "label ", 6), "a layout report line: %.60s", p);
			ck_assert_int_lt(nl, 64);
			ck_assert_int_eq(sscanf(p, "label %d %d %d %d %d %d", &lb[nl].side, &lb[nl].arena, &lb[nl].x, &lb[nl].y,
				&lb[nl].w, &lb[nl].h), 6);
			nl++;
		}
		p = strchr(p, '\n');
		ck_assert_ptr_nonnull(p);
		p++;
	}
	ck_assert_int_eq(nl > 0, focus_fits);
	for (i = 0; i < nl; i++) {
		const pane *q = &out[(lb[i].side - 1) * NARENAS + lb[i].arena];
		ck_assert_msg(lb[i].x >= q->x && lb[i].x + lb[i].w <= q->x + q->box_w, "label %d outside its pane", i);
		for (j = i + 1; j < nl; j++)
			ck_assert_msg(lb[i].x >= lb[j].x + lb[j].w || lb[j].x >= lb[i].x + lb[i].w || lb[i].y >= lb[j].y + lb[j].h ||
				lb[j].y >= lb[i].y + lb[i].h, "labels %d and %d overlap (report %d)", i, j, k);
	}
}

static void check_layout(const char *log, int k, int nsides, int focus, pane *out)
{
	check_layout_in(log, k, nsides, focus, 1, out);
}

/* A pane's rectangle in the screenshot has something drawn. */
static void check_drawn(const vs_image *im, const pane *q)
{
	int x, y, n = 0;

	for (y = q->y; y < q->y + q->h && y < im->h; y++)
		for (x = q->x; x < q->x + q->w && x < im->w; x++) {
			const uint8_t *px = im->px + ((size_t)y * im->w + x) * 4;
			uint32_t c = (uint32_t)px[0] << 24 | (uint32_t)px[1] << 16 | (uint32_t)px[2] << 8 | 0xFFu;
			n += c != VS_RGB_BG;
		}
	ck_assert_msg(n > q->w * q->h / 4, "pane of arena %d side %d mostly empty (%d pixels)", q->arena, q->side, n);
}

/* Runs a script (%s: the binary dir, as often as it says); returns the
 * log. */
static char *run(int nsides, int w, int h, const char *script)
{
	vs_viewer_opts o;
	FILE *log = tmpfile();
	char err[512], *text;
	const char *sp = vs_test_file(1, "viewer-ds.script", script);
	int rc;
	size_t n;

	setenv("SDL_VIDEODRIVER", getenv("VS_TEST_VIDEODRIVER") ? getenv("VS_TEST_VIDEODRIVER") : "dummy", 1);
	setup_opts(&o, nsides, w, h, sp, log);
	rc = viewer_run(&o, err, sizeof err);
	text = vs_test_slurp_stream(log, &n);
	fclose(log);
	ck_assert_msg(rc == 0, "viewer returned %d (%s); log:\n%s", rc, err, text);
	ck_assert_msg(strstr(text, "redraw check: 0 of") != NULL, "incremental frames differed:\n%s", text);
	return text;
}

static vs_image shot(const char *name)
{
	char path[1024];

	snprintf(path, sizeof path, "%s/%s", VS_BINARY_DIR, name);
	return vs_test_png(path);
}

/* The default size, one side: each arena in focus in turn (Tab), all drawn;
 * a click on a strip focuses it; hovers in the full map and in a strip. */
START_TEST(every_arena)
{
	uint64_t tex_id = 0, pltt_id = 0;
	int64_t tex_u = owned_unit(4, &tex_id), pltt_u = owned_unit(5, &pltt_id);
	char script[2048], expect[96], click[64];
	pane panes[NARENAS], again[NARENAS];
	vs_image im;
	char *text;
	int a;

	ck_assert_int_ge(tex_u, 0);
	ck_assert_int_ge(pltt_u, 0);
	snprintf(script, sizeof script,
		"seek %d\nlayout\nscreenshot %s/viewer-ds.png\n"
		"key tab\nlayout\nkey tab\nlayout\nkey tab\nlayout\nkey tab\nlayout\n"
		"hover 1 4 %lld\nexpect hover owner id %llu \nexpect hover tex 0x\n"
		"key tab\nlayout\nhover 1 4 0\nexpect hover tex 0x\nkey tab\nlayout\n"
		"hover 1 5 %lld\nexpect hover pltt 0x\n"
		"quit\n", AT, VS_BINARY_DIR, (long long)tex_u, (unsigned long long)tex_id, (long long)pltt_u);
	text = run(1, 1280, 800, script);
	for (a = 0; a < NARENAS; a++)
		check_layout(text, a, 1, a, a ? again : panes);
	check_layout(text, NARENAS, 1, 0, again);
	im = shot("viewer-ds.png");
	for (a = 0; a < NARENAS; a++)
		check_drawn(&im, &panes[a]);
	vs_image_fini(&im);
	free(text);
	/* a click on the tex strip gives it the map */
	snprintf(click, sizeof click, "click %d %d\n", panes[4].x + 5, panes[4].y + 5);
	snprintf(script, sizeof script, "seek %d\n%slayout\nquit\n", AT, click);
	text = run(1, 1280, 800, script);
	check_layout(text, 0, 1, 4, again);
	snprintf(expect, sizeof expect, "pane 1 4 tex map");
	ck_assert_ptr_nonnull(strstr(text, expect));
	free(text);
}
END_TEST

/* Two sides at the default size, and a small window: every arena drawn,
 * the labels shortened where they would overlap, the hover naming a
 * shortened label in full. */
START_TEST(two_sides_and_small)
{
	pane panes[2 * NARENAS];
	char script[1024];
	char *text;
	vs_image im;
	int a;

	snprintf(script, sizeof script,
		"seek %d\nlayout\nscreenshot %s/viewer-ds-two.png\nresize 640 480\nlayout\n"
		"key tab\nkey tab\nlayout\nhover 2 2 0\nexpect hover in bank F @06000000 +16K\n"
		"key tab\nkey tab\nlayout\nquit\n", AT, VS_BINARY_DIR);
	text = run(2, 1280, 800, script);
	check_layout(text, 0, 2, 0, panes);
	im = shot("viewer-ds-two.png");
	for (a = 0; a < 2 * NARENAS; a++)
		check_drawn(&im, &panes[a]);
	vs_image_fini(&im);
	check_layout(text, 1, 2, 0, panes);
	/* bg-a's bank label is cut to fit; tex has no room for its full map */
	check_layout(text, 2, 2, 2, panes);
	ck_assert_ptr_nonnull(strstr(text, " 48 13 F +16K\n"));
	check_layout_in(text, 3, 2, 4, 0, panes);
	free(text);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("viewer_ds");
	TCase *tc = tcase_create("layout");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_arena);
	tcase_add_test(tc, two_sides_and_small);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
