/* SPDX-License-Identifier: Zlib */
/* test_viewer.c - the SDL2 viewer driven headless by scripted input.
 *
 * Runs with SDL's dummy video driver (no display needed; set
 * VS_TEST_VIDEODRIVER to try another, e.g. x11 under Xvfb). The script
 * steps, seeks by clicking and dragging on the timeline, jumps to a failure,
 * hovers, resizes and opens the help; screenshots are decoded and checked
 * against placements read from a replay run independently of the viewer.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "support.h"
#include "render/render.h"
#include "viewer/viewer.h"
#include "strategies/registry.h"
#include "vram/arena.h"
#include "viewer_run.h"

/* Events: 1 frame; 2 player 64x64 4bpp (64 tiles); 3 enemy 64x64 8bpp
 * (128 tiles); 4 frame; 5 free player; 6 frame; 7-13 seven more 8bpp
 * 64x64 sprites; 14 frame; 15 one more; 16 frame. gba-obj-map places at
 * multiples of the size, so 7-13 fill the memory and 15 fails; first fit
 * starts the enemy at tile 64, so 13 and 15 fail. */
static const char trace_text[] =
	"vramsim-trace 1\n"
	"arena obj gba-obj\n"
	"frame\n"
	"alloc 1 sprite 64x64 4bpp tag=player\n"
	"alloc 2 sprite 64x64 8bpp tag=enemy\n"
	"frame\n"
	"free 1\n"
	"frame\n"
	"alloc 3 sprite 64x64 8bpp tag=bg\n"
	"alloc 4 sprite 64x64 8bpp tag=bg\n"
	"alloc 5 sprite 64x64 8bpp tag=bg\n"
	"alloc 6 sprite 64x64 8bpp tag=bg\n"
	"alloc 7 sprite 64x64 8bpp tag=bg\n"
	"alloc 8 sprite 64x64 8bpp tag=bg\n"
	"alloc 9 sprite 64x64 8bpp tag=bg\n"
	"frame\n"
	"alloc 10 sprite 64x64 8bpp tag=late\n"
	"frame\n";

static const char *const strategies[2] = { "gba-obj-map", "gba-obj-first-fit" };

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static void use_headless_video(void)
{
	const char *d = getenv("VS_TEST_VIDEODRIVER");

	setenv("SDL_VIDEODRIVER", d && *d ? d : "dummy", 1);
}

/* A unit owned by the allocation with tag `tag` after `event` events, read
 * from a replay of its own; -1 if none. */
static int64_t unit_with_tag(const char *path, const char *strategy, uint64_t event, const char *tag)
{
	char err[512];
	vs_trace_reader *rd = vs_trace_open(path, err, sizeof err);
	vs_replay_config cfg;
	vs_replay *r;
	const vs_arena *a;
	uint32_t u;
	int64_t found = -1;

	ck_assert_ptr_nonnull(rd);
	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find(strategy);
	cfg.message = quiet;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_ptr_nonnull(r);
	vs_replay_run(r, event);
	a = vs_replay_arena(r, 0);
	/* a unit in the middle of its run, away from the hover outline */
	for (u = 1; u + 1 < a->nunits && found < 0; u++) {
		const vs_live *l = vs_replay_live_by_owner(r, vs_arena_owner_at(a, u));
		if (l && strcmp(vs_replay_tag_name(r, l->req.tag), tag) == 0 && vs_arena_owner_at(a, u - 1) == vs_arena_owner_at(a, u) &&
			vs_arena_owner_at(a, u + 1) == vs_arena_owner_at(a, u))
			found = u;
	}
	vs_replay_free(r);
	return found;
}

static void setup_opts(vs_viewer_opts *o, const char *trace, const char *script, FILE *log)
{
	int s;

	memset(o, 0, sizeof *o);
	o->trace = trace;
	o->nsides = 2;
	for (s = 0; s < 2; s++) {
		vs_replay_config_default(&o->cfg[s]);
		o->cfg[s].strategy[0] = vs_strategy_find(strategies[s]);
		o->cfg[s].message = quiet;
		snprintf(o->label[s], sizeof o->label[s], "%s", strategies[s]);
	}
	o->width = 1000;
	o->height = 700;
	o->script = script;
	viewer_outputs(o, log);
	o->shot_dir = VS_BINARY_DIR;
	/* every frame is also drawn in full: the incremental one must match */
	o->check_redraw = 1;
}

/* Reads the whole log: never empty. */
static char *slurp(FILE *fp)
{
	size_t n;
	char *s = vs_test_slurp_stream(fp, &n);

	ck_assert_uint_gt(n, 0);
	return s;
}

/* The script sp run over trace headless, its exit wanted want: its log. */
static char *run_logged(const char *trace, const char *sp, int want)
{
	vs_viewer_opts o;
	FILE *log = tmpfile();
	char err[512], *text;

	ck_assert_ptr_nonnull(log);
	use_headless_video();
	setup_opts(&o, trace, sp, log);
	ck_assert_msg(viewer_run(&o, err, sizeof err) == want, "%s", err);
	text = slurp(log);
	fclose(log);
	return text;
}

/* "locate SIDE 0 UNIT X Y" from the log. */
static void located(const char *log, int side, int64_t unit, int *x, int *y)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof key, "locate %d 0 %lld ", side, (long long)unit);
	p = strstr(log, key);
	ck_assert_msg(p != NULL, "no '%s' in the log:\n%s", key, log);
	ck_assert_int_eq(sscanf(p + strlen(key), "%d %d", x, y), 2);
}

static vs_image shot(const char *name)
{
	char path[1024];

	snprintf(path, sizeof path, "%s/%s", VS_BINARY_DIR, name);
	return vs_test_png(path);
}

START_TEST(scripted_session)
{
	const char *trace = vs_test_file(0, "viewer.trace", trace_text);
	int64_t pa = unit_with_tag(trace, strategies[0], 2, "player");
	int64_t pb = unit_with_tag(trace, strategies[1], 2, "player");
	int64_t ea = unit_with_tag(trace, strategies[0], 3, "enemy");
	char script[4096], err[512];
	const char *sp;
	vs_viewer_opts o;
	FILE *log = tmpfile();
	char *text;
	vs_image at2, back1, help, failed, small;
	int xa, ya, xb, yb, xe, ye, rc;
	uint32_t player = vs_colour_tag_id(1), enemy = vs_colour_tag_id(2); /* in the order they first appear */

	ck_assert_int_ge(pa, 0);
	ck_assert_int_ge(pb, 0);
	ck_assert_int_ge(ea, 0);
	snprintf(script, sizeof script,
		"# every command takes a frame\n"
		"expect recorded 16\n"
		"expect event 0\n"
		"locate 1 0 %lld\n"
		"locate 2 0 %lld\n"
		"locate 1 0 %lld\n"
		"key Right\n"
		"key Right\n"
		"expect event 2\n"
		"screenshot %s/viewer-at2.png\n"
		"hover 1 0 %lld\n"
		"expect hover tag player\n"
		"expect hover allocated at trace line 4\n"
		"expect hover age 0 events\n"
		"key Left\n"
		"move 2 2\n"
		"expect event 1\n"
		"screenshot %s/viewer-back1.png\n"
		"key shift+Right\n"
		"expect event 4\n"
		"key shift+Left\n"
		"expect event 1\n"
		"click timeline 7\n"
		"expect event 7\n"
		"drag timeline 2 12\n"
		"expect event 12\n"
		"key f\n"
		"expect event 13\n"
		"key f\n"
		"expect event 15\n"
		"expect paused 1\n"
		"screenshot %s/viewer-failed.png\n"
		"key shift+f\n"
		"expect event 13\n"
		"key shift+f\n"
		"expect event 13\n"
		"key ?\n"
		"expect help 1\n"
		"screenshot %s/viewer-help.png\n"
		"key ?\n"
		"expect help 0\n"
		"key End\n"
		"expect event 16\n"
		"key Home\n"
		"key Up\n"
		"key Up\n"
		"key space\n"
		"wait 30\n"
		"expect paused 1\n"
		"expect event 16\n"
		"resize 640 480\n"
		"wait 1\n"
		"expect width 640\n"
		"screenshot %s/viewer-small.png\n"
		"quit\n",
		(long long)pa, (long long)pb, (long long)ea, VS_BINARY_DIR, (long long)pa, VS_BINARY_DIR, VS_BINARY_DIR,
		VS_BINARY_DIR, VS_BINARY_DIR);
	sp = vs_test_file(1, "viewer.script", script);
	use_headless_video();
	setup_opts(&o, trace, sp, log);
	rc = viewer_run(&o, err, sizeof err);
	text = slurp(log);
	ck_assert_msg(rc == 0, "viewer returned %d (%s); log:\n%s", rc, err, text);
	located(text, 1, pa, &xa, &ya);
	located(text, 2, pb, &xb, &yb);
	located(text, 1, ea, &xe, &ye);
	/* after event 2 the player's tiles have its colour on both sides */
	at2 = shot("viewer-at2.png");
	ck_assert_int_eq(at2.w, 1000);
	ck_assert_int_eq(at2.h, 700);
	ck_assert_uint_eq(vs_image_get(&at2, xa, ya), player);
	ck_assert_uint_eq(vs_image_get(&at2, xb, yb), player);
	/* the enemy came at event 3: not there yet */
	ck_assert_uint_eq(vs_image_get(&at2, xe, ye), VS_RGB_FREE);
	/* stepped back to event 1: free again */
	back1 = shot("viewer-back1.png");
	ck_assert_uint_eq(vs_image_get(&back1, xa, ya), VS_RGB_FREE);
	ck_assert_uint_eq(vs_image_get(&back1, xb, yb), VS_RGB_FREE);
	/* at the failure: player freed, enemy held */
	failed = shot("viewer-failed.png");
	ck_assert_uint_ne(vs_image_get(&failed, xa, ya), player);
	ck_assert_uint_eq(vs_image_get(&failed, xe, ye), enemy);
	/* help: the overlay darkens the screen; a framed panel in the middle */
	help = shot("viewer-help.png");
	{
		uint32_t before = vs_image_get(&failed, 997, 2), after = vs_image_get(&help, 997, 2);
		int x = 0;
		ck_assert_uint_eq(after >> 24, (before >> 24) / 4);
		ck_assert_uint_eq(after >> 16 & 255, (before >> 16 & 255) / 4);
		while (x < 500 && vs_image_get(&help, x, 350) != VS_RGB_TEXT)
			x++;
		ck_assert_int_lt(x, 500);
		ck_assert_int_gt(x, 10);
		ck_assert_uint_eq(vs_image_get(&help, x + 3, 350), 0x1A1D23FFu);
	}
	/* resized */
	small = shot("viewer-small.png");
	ck_assert_int_eq(small.w, 640);
	ck_assert_int_eq(small.h, 480);
	ck_assert_ptr_nonnull(strstr(text, "frames "));
	ck_assert_ptr_nonnull(strstr(text, "seeks "));
	vs_image_fini(&at2);
	vs_image_fini(&back1);
	vs_image_fini(&failed);
	vs_image_fini(&help);
	vs_image_fini(&small);
	free(text);
	fclose(log);
}
END_TEST

/* Reads "state ..." lines of print from the log, in order. */
static const char *state_line(const char *log, int k)
{
	const char *p = log;

	while ((p = strstr(p, "state event ")) != NULL && k-- > 0)
		p++;
	ck_assert_msg(p != NULL, "not enough state lines in:\n%s", log);
	return p;
}

/* Zoom and pan, go to frame N, find by tag or id, the failure list, the
 * title: through keys, the wheel, prompts and script commands, checked
 * with expect (a mismatch fails the run), print and a screenshot. Events:
 * frames at 1, 4, 6, 14, 16; player alloc 2, free 5; id 9 at 13; failures
 * at 13 (first fit) and 15 (both). */
START_TEST(navigation)
{
	const char *trace = vs_test_file(0, "viewer.trace", trace_text);
	char script[4096], err[512], *text;
	const char *sp, *st;
	vs_viewer_opts o;
	FILE *log = tmpfile();
	vs_image open_, closed;
	int rc, x, y, x2, y2;

	snprintf(script, sizeof script,
		"expect title viewer.trace\n"
		"expect title side 1: gba-obj-map | side 2: gba-obj-first-fit\n"
		"# go to frame N: the prompt (g, digits, Enter) and the command\n"
		"key g\n"
		"text 3\n"
		"print\n"
		"key q\n"
		"key Return\n"
		"expect frame 3\n"
		"expect event 6\n"
		"key g\n"
		"text 7\n"
		"key Escape\n"
		"expect event 6\n"
		"frame 4\n"
		"expect event 14\n"
		"key g\n"
		"text 0\n"
		"key Return\n"
		"expect event 0\n"
		"# find: a tag, again forward, none later, back; an id; tag=\n"
		"key /\n"
		"text player\n"
		"key Return\n"
		"expect event 2\n"
		"key n\n"
		"expect event 5\n"
		"key n\n"
		"expect event 5\n"
		"print\n"
		"key shift+n\n"
		"expect event 2\n"
		"find 9\n"
		"expect event 13\n"
		"key ctrl+f\n"
		"text tag=late\n"
		"key Return\n"
		"expect event 15\n"
		"find nosuchtag\n"
		"print\n"
		"# zoom and pan with keys; a click maps into the window\n"
		"seek 8\n"
		"key z\n"
		"expect range 4 12\n"
		"key .\n"
		"expect range 6 14\n"
		"key shift+.\n"
		"expect range 8 16\n"
		"click timeline 0\n"
		"expect event 8\n"
		"click timeline 12\n"
		"expect event 12\n"
		"print\n"
		"key ,\n"
		"expect range 6 14\n"
		"key shift+z\n"
		"expect range 0 16\n"
		"# the wheel on the timeline: zoom at the pointer, sideways pans\n"
		"move timeline 4\n"
		"wheel 1\n"
		"expect range 2 10\n"
		"wheel 0 1\n"
		"expect range 4 12\n"
		"# the window follows a cursor that leaves it\n"
		"key End\n"
		"wait 1\n"
		"expect range 8 16\n"
		"wheel -1\n"
		"expect range 0 16\n"
		"key z\n"
		"key w\n"
		"expect range 0 16\n"
		"# the failure list: opens on the first failure from the cursor\n"
		"key Home\n"
		"key l\n"
		"expect failures 1\n"
		"expect row 1\n"
		"expect event 0\n"
		"key Down\n"
		"expect row 2\n"
		"expect event 15\n"
		"key Up\n"
		"expect event 13\n"
		"key End\n"
		"expect row 2\n"
		"locate failure 1\n"
		"locate failure 2\n"
		"screenshot %s/viewer-fails.png\n"
		"print\n"
		"key Escape\n"
		"expect failures 0\n"
		"expect event 15\n"
		"screenshot %s/viewer-nofails.png\n"
		"quit\n",
		VS_BINARY_DIR, VS_BINARY_DIR);
	sp = vs_test_file(1, "viewer-nav.script", script);
	use_headless_video();
	setup_opts(&o, trace, sp, log);
	rc = viewer_run(&o, err, sizeof err);
	text = slurp(log);
	ck_assert_msg(rc == 0, "viewer returned %d (%s); log:\n%s", rc, err, text);
	/* the prompt shows what is typed; q typed into it did not quit */
	st = state_line(text, 0);
	ck_assert_msg(strncmp(strstr(st, "prompt "), "prompt frame '3'", 16) == 0, "%s", st);
	st = state_line(text, 1);
	ck_assert_msg(strstr(st, "find 'player'") && strstr(st, "message 'no later alloc or free of tag player'"), "%s", st);
	st = state_line(text, 2);
	ck_assert_msg(strstr(st, "message 'find: no tag 'nosuchtag' in the trace'") && strstr(st, "event 15 "), "%s", st);
	st = state_line(text, 3);
	ck_assert_msg(strstr(st, "range 8-16") && strstr(st, "event 12 "), "%s", st);
	st = state_line(text, 4);
	ck_assert_msg(strstr(st, "failures 1 row 2") && strstr(st, "event 15 "), "%s", st);
	/* the list is drawn: row 1 as a row, row 2 selected; gone when closed */
	{
		const char *p = strstr(text, "locate failure 1 ");
		ck_assert_ptr_nonnull(p);
		ck_assert_int_eq(sscanf(p, "locate failure 1 %d %d", &x, &y), 2);
		p = strstr(text, "locate failure 2 ");
		ck_assert_ptr_nonnull(p);
		ck_assert_int_eq(sscanf(p, "locate failure 2 %d %d", &x2, &y2), 2);
		ck_assert_int_gt(y2, y);
	}
	open_ = shot("viewer-fails.png");
	closed = shot("viewer-nofails.png");
	ck_assert_uint_eq(vs_image_get(&open_, x, y), 0x1A1D23FFu);
	ck_assert_uint_eq(vs_image_get(&open_, x2, y2), 0x2F3540FFu);
	ck_assert_uint_ne(vs_image_get(&closed, x, y), 0x1A1D23FFu);
	ck_assert_uint_ne(vs_image_get(&closed, x2, y2), 0x2F3540FFu);
	vs_image_fini(&open_);
	vs_image_fini(&closed);
	free(text);
	fclose(log);
}
END_TEST

/* A failed expectation is reported with its line and makes the run return 1. */
START_TEST(expect_fails)
{
	const char *trace = vs_test_file(0, "viewer.trace", trace_text);
	const char *sp = vs_test_file(1, "viewer-bad.script", "key Right\nexpect event 5\nwait -1\nquit\n");
	const char *typo = vs_test_file(2, "viewer-typo.script", "key Right\nexpect event 1\nfrobnicate\nquit\n");
	vs_viewer_opts o;
	char err[512], *text = run_logged(trace, sp, 1);

	ck_assert_msg(strstr(text, "viewer-bad.script:2: expected event 5, got 1") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "viewer-bad.script:3: cannot read 'wait -1'") != NULL, "%s", text);
	free(text);
	/* a line that is no command stops the script before it runs (it ran on
	 * to the line, exit 1, with its outputs written) */
	setup_opts(&o, trace, typo, NULL);
	ck_assert_int_eq(viewer_run(&o, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "viewer-typo.script:3: cannot read 'frobnicate'") != NULL, "%s", err);
}
END_TEST

/* seek past the last event is an error at its line, as frame N past the
 * last frame is (it went to the last event instead); the cursor stays. */
START_TEST(seek_past_end)
{
	const char *trace = vs_test_file(0, "viewer.trace", trace_text);
	const char *sp = vs_test_file(1, "viewer-seek.script", "seek 2\nseek 17\nexpect event 2\nseek 16\n"
		"expect event 16\nquit\n");
	char *text = run_logged(trace, sp, 1);

	ck_assert_msg(strstr(text, "viewer-seek.script:2: seek 17: no such event: the trace has 16 events") != NULL, "%s",
		text);
	ck_assert_msg(strstr(text, "expected") == NULL, "%s", text);
	free(text);
}
END_TEST

/* The screenshot key writes a PNG of the window into the shots folder. */
START_TEST(screenshot_key)
{
	const char *trace = vs_test_file(0, "viewer.trace", trace_text);
	const char *sp = vs_test_file(1, "viewer-key.script", "key End\nkey s\nwait 1\nquit\n");
	vs_viewer_opts o;
	FILE *log = tmpfile();
	char err[512], *text, *p, path[1024];
	vs_image im;

	use_headless_video();
	setup_opts(&o, trace, sp, log);
	o.width = 800;
	o.height = 600;
	ck_assert_int_eq(viewer_run(&o, err, sizeof err), 0);
	text = slurp(log);
	p = strstr(text, "screenshot ");
	ck_assert_msg(p != NULL, "%s", text);
	ck_assert_int_eq(sscanf(p, "screenshot %1023s", path), 1);
	ck_assert_ptr_nonnull(strstr(path, "vramsim-view-"));
	im = vs_test_png(path);
	ck_assert_int_eq(im.w, 800);
	ck_assert_int_eq(im.h, 600);
	vs_image_fini(&im);
	remove(path);
	free(text);
	fclose(log);
}
END_TEST

/* Frames are drawn incrementally (only regions whose inputs changed) and
 * only changed pixels are sent: through a long random session, under both
 * ways of showing frames, every frame equals one drawn in full and the
 * window got every change (--check-redraw checks both and fails the run);
 * frames where nothing changes send nothing. */
START_TEST(incremental_redraw)
{
	static char trace_buf[200000], script[60000];
	static const char *const tags[] = { "hero", "enemy", "shot", "fx" };
	static const char *const sizes[] = { "8x8", "16x16", "32x32", "16x8", "32x64", "64x64" };
	vs_rng rng = { 0x5eedu };
	size_t n = 0, m = 0;
	uint32_t live[64], nlive = 0, next = 1, i;
	const char *trace, *sp;
	int mode;

	n += (size_t)snprintf(trace_buf + n, sizeof trace_buf - n, "vramsim-trace 1\narena obj gba-obj\n");
	for (i = 0; i < 1500; i++) {
		uint32_t k = vs_rng_below(&rng, 10);
		if (k == 0) {
			n += (size_t)snprintf(trace_buf + n, sizeof trace_buf - n, "frame\n");
		} else if (k < 5 && nlive) {
			uint32_t j = vs_rng_below(&rng, nlive);
			n += (size_t)snprintf(trace_buf + n, sizeof trace_buf - n, "free %u\n", (unsigned)live[j]);
			live[j] = live[--nlive];
		} else if (nlive < 64) {
			n += (size_t)snprintf(trace_buf + n, sizeof trace_buf - n, "alloc %u sprite %s %s tag=%s\n",
				(unsigned)next, sizes[vs_rng_below(&rng, 6)], vs_rng_below(&rng, 2) ? "4bpp" : "8bpp",
				tags[vs_rng_below(&rng, 4)]);
			live[nlive++] = next++;
		}
	}
	trace = vs_test_file(0, "viewer-redraw.trace", trace_buf);
	m += (size_t)snprintf(script + m, sizeof script - m, "key Up\nkey Up\nkey space\n");
	/* 60 commands of 16 kinds: every kind at least once (the seed's draws,
	 * counted: 1 to 7 of each), on the maps, the timeline, the help, the
	 * failure list and the prompts; every frame is checked, and each costs
	 * 20 ms of CPU in the sanitizer tree, twice (both modes) */
	for (i = 0; i < 60; i++) {
		uint32_t k = vs_rng_below(&rng, 16);
		if (k < 5)
			m += (size_t)snprintf(script + m, sizeof script - m, "hover %u 0 %u\n",
				(unsigned)(1 + vs_rng_below(&rng, 2)), (unsigned)vs_rng_below(&rng, 1024));
		else if (k == 5)
			m += (size_t)snprintf(script + m, sizeof script - m, "move %u %u\n",
				(unsigned)vs_rng_below(&rng, 1000), (unsigned)vs_rng_below(&rng, 700));
		else if (k == 6)
			m += (size_t)snprintf(script + m, sizeof script - m, "click timeline %u\n",
				(unsigned)vs_rng_below(&rng, 1600));
		else if (k == 7)
			m += (size_t)snprintf(script + m, sizeof script - m, "drag timeline %u %u\n",
				(unsigned)vs_rng_below(&rng, 1600), (unsigned)vs_rng_below(&rng, 1600));
		else if (k == 8)
			m += (size_t)snprintf(script + m, sizeof script - m, "key %s\n",
				vs_rng_below(&rng, 2) ? "Left" : "shift+Right");
		else if (k == 9)
			m += (size_t)snprintf(script + m, sizeof script - m, "key ?\nwait 2\nkey ?\n");
		else if (k == 10)
			m += (size_t)snprintf(script + m, sizeof script - m, "key space\nwait 3\n");
		else if (k == 11)
			m += (size_t)snprintf(script + m, sizeof script - m, "key Tab\nkey f\n");
		else if (k == 12)
			m += (size_t)snprintf(script + m, sizeof script - m, "key %s\n",
				vs_rng_below(&rng, 3) ? "z" : vs_rng_below(&rng, 2) ? "shift+z" : ".");
		else if (k == 13)
			m += (size_t)snprintf(script + m, sizeof script - m, "move timeline %u\nwheel %d %d\n",
				(unsigned)vs_rng_below(&rng, 1600), (int)vs_rng_below(&rng, 3) - 1, (int)vs_rng_below(&rng, 3) - 1);
		else if (k == 14)
			m += (size_t)snprintf(script + m, sizeof script - m, "key l\nkey Down\nwait 2\nkey Down\nkey l\n");
		else
			m += (size_t)snprintf(script + m, sizeof script - m, "key g\ntext %u\nkey Return\nkey /\ntext %s\nkey Return\n",
				(unsigned)vs_rng_below(&rng, 200), tags[vs_rng_below(&rng, 4)]);
	}
	m += (size_t)snprintf(script + m, sizeof script - m,
		"resize 700 500\nhover 1 0 5\nwait 2\nresize 1000 700\nkey Home\n"
		"# paused, the mouse still: nothing to send\nmove 3 3\nwait 40\nquit\n");
	ck_assert_uint_lt(m, sizeof script - 1);
	sp = vs_test_file(1, "viewer-redraw.script", script);
	use_headless_video();
	for (mode = 1; mode <= 2; mode++) {
		vs_viewer_opts o;
		FILE *log = tmpfile();
		char err[512], *text, *p;
		unsigned long long frames = 0, presents = 0, bad = 1, checked = 0;
		int rc;

		setup_opts(&o, trace, sp, log);
		o.present = mode;
		rc = viewer_run(&o, err, sizeof err);
		text = slurp(log);
		ck_assert_msg(rc == 0, "mode %d: viewer returned %d (%s); log:\n%s", mode, rc, err, text);
		p = strstr(text, "frames ");
		ck_assert_ptr_nonnull(p);
		ck_assert_int_eq(sscanf(p, "frames %llu", &frames), 1);
		p = strstr(text, "presents ");
		ck_assert_ptr_nonnull(p);
		ck_assert_int_eq(sscanf(p, "presents %llu", &presents), 1);
		p = strstr(text, "redraw check: ");
		ck_assert_ptr_nonnull(p);
		ck_assert_int_eq(sscanf(p, "redraw check: %llu of %llu", &bad, &checked), 2);
		ck_assert_msg(bad == 0, "%s", text);
		ck_assert_uint_eq(checked, frames);
		ck_assert_msg(frames > 100, "frames %llu", frames);
		/* at least the 40 still frames at the end sent nothing */
		ck_assert_msg(presents + 40 <= frames, "presents %llu of %llu frames", presents, frames);
		ck_assert_ptr_nonnull(strstr(text, mode == 2 ? "window framebuffer" : "renderer "));
		free(text);
		fclose(log);
	}
}
END_TEST

/* An environment variable set or unset for a while, then put back. */
typedef struct saved_env {
	const char *name;
	char value[1024];
	int had;
} saved_env;

static void env_save(saved_env *e, const char *name)
{
	const char *v = getenv(name);

	e->name = name;
	e->had = v != NULL;
	snprintf(e->value, sizeof e->value, "%s", v ? v : "");
}

static void env_restore(const saved_env *e)
{
	if (e->had)
		setenv(e->name, e->value, 1);
	else
		unsetenv(e->name);
}

/* No display and no --script: exit 2 saying so, instead of running with
 * nothing to show the window on (no X11 or Wayland display with the
 * default driver, or a driver that shows nothing); with --script the same
 * runs headless. */
START_TEST(no_display)
{
	const char *trace = vs_test_file(0, "viewer.trace", trace_text);
	const char *sp = vs_test_file(1, "viewer-nodisplay.script", "key End\nexpect event 16\nquit\n");
	char args[2048], out[4096], err[4096];
	saved_env drv, dpy, way;

	env_save(&drv, "SDL_VIDEODRIVER");
	env_save(&dpy, "DISPLAY");
	env_save(&way, "WAYLAND_DISPLAY");
	unsetenv("SDL_VIDEODRIVER");
	unsetenv("DISPLAY");
	setenv("WAYLAND_DISPLAY", "", 1);
	snprintf(args, sizeof args, "view %s", trace);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "vramsim view: no display") && strstr(err, "--script"), "%s", err);
	setenv("SDL_VIDEODRIVER", "dummy", 1);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "'dummy' shows no window") && strstr(err, "--script"), "%s", err);
	snprintf(args, sizeof args, "view %s --script %s", trace, sp);
	ck_assert_msg(vs_test_run_cli(args, out, sizeof out, err, sizeof err) == 0, "%s%s", out, err);
	env_restore(&drv);
	env_restore(&dpy);
	env_restore(&way);
}
END_TEST

/* The command line: usage errors exit 2, a failed expectation exits 1. */
START_TEST(command_line)
{
	const char *trace = vs_test_file(0, "viewer.trace", trace_text);
	const char *sp = vs_test_file(1, "viewer-cli.script", "expect event 3\nquit\n");
	char args[2048], out[4096], err[4096];

	use_headless_video();
	ck_assert_int_eq(vs_test_run_cli("view", out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_nonnull(strstr(err, "no trace"));
	snprintf(args, sizeof args, "view %s -s gba-obj-map -s gba-obj-buddy -s gba-obj-snug", trace);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	snprintf(args, sizeof args, "view %s -s no-such-strategy", trace);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_nonnull(strstr(err, "no-such-strategy"));
	snprintf(args, sizeof args, "view %s --script %s", trace, sp);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 1);
	ck_assert_ptr_nonnull(strstr(out, "expected event 3, got 0"));
	ck_assert_int_eq(vs_test_run_cli("view --help", out, sizeof out, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(out, "--strategy"));
	ck_assert_ptr_nonnull(strstr(out, "--present"));
	snprintf(args, sizeof args, "view %s --present sideways", trace);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_nonnull(strstr(err, "--present"));
	snprintf(args, sizeof args, "view %s --present framebuffer --check-redraw --script %s", trace, sp);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 1);
	ck_assert_ptr_nonnull(strstr(out, "window framebuffer"));
	ck_assert_ptr_nonnull(strstr(out, "redraw check: 0 of"));
}
END_TEST

/* A script's screenshots are outputs of the run: all appear when it runs
 * to its end (exit 0, or 1 for a failed expectation, with the log), none
 * when one cannot be written (exit 2: standard error names the script's
 * line, the path and why; an earlier screenshot and the log are not made,
 * and ones already there are kept as they were). A path that cannot be
 * written is found before the trace is recorded; one that fails as it is
 * written (a full device, a path taken twice) ends the run there. */
START_TEST(screenshots_together)
{
	static const struct { const char *second, *msg; } bad[] = {
		{ "%s/none/y.png", ":3: screenshot %s/none/y.png: cannot write %s/none/y.png: No such file or directory" },
		{ "/dev/full", ":3: screenshot /dev/full: cannot write /dev/full: No space left on device" },
		{ "%s/good.png", ":3: screenshot %s/good.png: cannot write %s/good.png: it is the same file as" },
	};
	char trace[1024], dir[1024], good[1100], log[1100], second[1100], script[4096], msg[4096], args[8192];
	char out[4096], err[8192], *text;
	size_t k;
	int i, n;

	snprintf(trace, sizeof trace, "%s", vs_test_file(0, "viewer.trace", trace_text));
	snprintf(dir, sizeof dir, "%s", vs_test_path("shots"));
	ck_assert_int_eq(mkdir(dir, 0777), 0);
	snprintf(good, sizeof good, "%s/good.png", dir);
	snprintf(log, sizeof log, "%s/v.log", dir);
	use_headless_video();
	for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		snprintf(second, sizeof second, bad[k].second, dir);
		snprintf(msg, sizeof msg, bad[k].msg, dir, dir);
		snprintf(script, sizeof script, "seek 3\nscreenshot %s\nscreenshot %s\nquit\n", good, second);
		snprintf(args, sizeof args, "view %s --script %s --log %s", trace, vs_test_file(1, "shots.script", script),
			log);
		ck_assert_msg(vs_test_run_cli(args, out, sizeof out, err, sizeof err) == 2, "%s", err);
		ck_assert_msg(strstr(err, "shots.script") && strstr(err, msg), "%s\nwanted %s", err, msg);
		ck_assert_msg(!vs_test_exists(good), "%s: the screenshot before the failed one was kept", second);
		ck_assert(!vs_test_exists(log));
		ck_assert(!vs_test_temporary_left(good));
	}
	/* ones there before stay as they were */
	{
		FILE *fp = fopen(good, "w");
		ck_assert_ptr_nonnull(fp);
		fputs("old\n", fp);
		fclose(fp);
		fp = fopen(log, "w");
		ck_assert_ptr_nonnull(fp);
		fputs("old\n", fp);
		fclose(fp);
	}
	snprintf(script, sizeof script, "seek 3\nscreenshot %s\nscreenshot /dev/full\nquit\n", good);
	snprintf(args, sizeof args, "view %s --script %s --log %s", trace, vs_test_file(1, "shots.script", script), log);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert(vs_test_holds(good, "old\n") && vs_test_holds(log, "old\n"));
	/* more than the screenshots kept open: refused before the run */
	n = 0;
	for (i = 0; i <= 32; i++)
		n += snprintf(script + n, sizeof script - (size_t)n, "screenshot %s/s%d.png\n", dir, i);
	snprintf(args, sizeof args, "view %s --script %s", trace, vs_test_file(1, "shots.script", script));
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "shots.script:33: screenshot") && strstr(err, "more than 32 screenshots"), "%s", err);
	ck_assert(!vs_test_exists(vs_test_path("shots/s0.png")));
	/* a run to the end, an expectation failed: the screenshots and the log */
	snprintf(script, sizeof script, "seek 3\nscreenshot %s\nkey s\nexpect event 4\nquit\n", good);
	snprintf(args, sizeof args, "view %s --script %s --log %s --shots %s", trace,
		vs_test_file(1, "shots.script", script), log, dir);
	ck_assert_msg(vs_test_run_cli(args, out, sizeof out, err, sizeof err) == 1, "%s", err);
	{
		vs_image im = vs_test_png(good);
		vs_image_fini(&im);
		snprintf(second, sizeof second, "%s/vramsim-view-0001.png", dir);
		im = vs_test_png(second);
		vs_image_fini(&im);
	}
	text = vs_test_slurp(log);
	ck_assert_msg(strstr(text, "shots.script:4: expected event 4, got 3"), "%s", text);
	free(text);
}
END_TEST

/* The log is an output of the run with the screenshots: a write to it
 * that fails (a full disk; here a file size limit) ends the run with exit
 * 2 and the log's path and the real reason on standard error, and no
 * screenshot is made, one there before kept (they were renamed into place
 * before the log failed, which was said with an errno left by some other
 * call: "No such file or directory"). */
START_TEST(log_write_fails)
{
	char trace[1024], a[1100], b[1100], log[1100], script[16384], err[4096];
	int i, n, st;

	snprintf(trace, sizeof trace, "%s", vs_test_file(0, "viewer.trace", trace_text));
	snprintf(a, sizeof a, "%s", vs_test_path("limited-a.png"));
	snprintf(b, sizeof b, "%s", vs_test_path("limited-b.png"));
	snprintf(log, sizeof log, "%s", vs_test_path("limited.log"));
	n = snprintf(script, sizeof script, "screenshot %s\nseek 5\nscreenshot %s\n", a, b);
	for (i = 0; i < 300; i++)
		n += snprintf(script + n, sizeof script - (size_t)n, "seek %d\nprint\n", 1 + i % 16);
	snprintf(script + n, sizeof script - (size_t)n, "quit\n");
	vs_test_file(1, "limited.script", script);
	ck_assert_str_eq(vs_test_file(2, "limited-a.png", "old\n"), a);
	use_headless_video();
	/* 64 blocks of 512 bytes: the screenshots of a small window fit, the
	 * log of 300 state lines does not */
	st = vs_test_cli_limited(64, err, sizeof err, "view '%s' --size 320x240 --script '%s' --log '%s' -q", trace,
		vs_test_path("limited.script"), log);
	ck_assert_msg(st == 2, "exit %d: %s", st, err);
	ck_assert_msg(strstr(err, "cannot write") && strstr(err, "limited.log: File too large"), "%s", err);
	ck_assert_msg(vs_test_count(err, "\n") == 1, "%s", err);
	ck_assert(vs_test_holds(a, "old\n"));
	ck_assert(!vs_test_exists(b));
	ck_assert(!vs_test_exists(log));
	ck_assert(!vs_test_temporary_left(a) && !vs_test_temporary_left(b) && !vs_test_temporary_left(log));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("viewer");
	TCase *tc = tcase_create("scripted");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, scripted_session);
	tcase_add_test(tc, navigation);
	tcase_add_test(tc, expect_fails);
	tcase_add_test(tc, seek_past_end);
	tcase_add_test(tc, screenshot_key);
	tcase_add_test(tc, screenshots_together);
	tcase_add_test(tc, log_write_fails);
	tcase_add_test(tc, incremental_redraw);
	tcase_add_test(tc, command_line);
	tcase_add_test(tc, no_display);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(suite());
}
