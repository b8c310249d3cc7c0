/* SPDX-License-Identifier: Zlib */
/* viewer.c - the SDL2 window's loop and set-up: opens the trace and the
 * window, records the timeline a slice at a time, and each frame runs the
 * script or takes input, plays, composes and presents; messages, timings
 * and screenshots written.
 *
 * The other parts, sharing the state in viewer_int.h: view_layout.c (where
 * things are), view_draw.c (composing a frame), view_present.c (sending it
 * to the window), view_hover.c and view_fails.c (the hover lines and the
 * failure list), view_input.c (keys and mouse), script.c (scripted input)
 * and timeline.c (recording and seeking).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h> /* SDL_Init, SDL_Quit */

#include "base/in_file.h"
#include "viewer_int.h"
#include "base/out_file.h"
#include "base/text.h"
#include "render/png.h"

static const double speeds[] = {
	1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000,
	100000, 200000, 500000, 1000000
};
#define NSPEEDS ((int)(sizeof speeds / sizeof speeds[0]))
#define DEFAULT_SPEED 6 /* 100 events a second */

/* ---- messages, timings, the cursor ------------------------------------- */

/* A write to the log failed: the run ends (exit 2), and the log is
 * finished now, while errno still says why; later, another call would
 * have set it (out_file.h). */
static void log_failed(viewer *v)
{
	v->out_err[0] = '\0';
	vs_out_finish(v->o->log, 0, v->out_err, sizeof v->out_err); /* ferror: it says why */
	v->log_failed = 1;
	v->quit = 1;
}

void view_log(viewer *v, const char *fmt, ...)
{
	va_list ap;

	if (v->log_failed)
		return;
	va_start(ap, fmt);
	vfprintf(v->log, fmt, ap);
	va_end(ap);
	fputc('\n', v->log);
	if ((fflush(v->log) != 0 || ferror(v->log)) && v->o->log)
		log_failed(v);
}

void view_say(viewer *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof v->message, fmt, ap);
	va_end(ap);
	v->message_until = SDL_GetTicks() + 4000;
}

static double ms_since(uint64_t t0)
{
	return (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)SDL_GetPerformanceFrequency();
}

static void time_add(time_stats *t, double ms)
{
	t->last[t->n % VIEW_TIMES] = (float)ms;
	t->n++;
	t->sum += ms;
	if (ms > t->max)
		t->max = ms;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

/* 99th percentile of the last VIEW_TIMES samples. */
static double time_p99(const time_stats *t)
{
	static float tmp[VIEW_TIMES];
	size_t n = t->n < VIEW_TIMES ? (size_t)t->n : VIEW_TIMES;

	if (!n)
		return 0;
	memcpy(tmp, t->last, n * sizeof *tmp);
	qsort(tmp, n, sizeof *tmp, cmp_float);
	return tmp[n * 99 / 100];
}

uint64_t view_total(const viewer *v)
{
	uint64_t rec = vs_timeline_recorded(v->tl);

	if (vs_timeline_complete(v->tl))
		return rec;
	return v->est_events > rec ? v->est_events : rec;
}

double view_speed(const viewer *v)
{
	return speeds[v->speed_i];
}

/* One step faster (d 1) or slower (d -1), within the speeds there are. */
void view_speed_change(viewer *v, int d)
{
	if (v->speed_i + d >= 0 && v->speed_i + d < NSPEEDS)
		v->speed_i += d;
}

void view_seek(viewer *v, uint64_t event)
{
	uint64_t t0 = SDL_GetPerformanceCounter(), from = vs_timeline_at(v->tl);

	vs_timeline_seek(v->tl, event);
	/* single steps are the common case; time the jumps */
	if (event > from + 1 || event + 1 < from)
		time_add(&v->seek, ms_since(t0));
}

void view_step_to(viewer *v, uint64_t e)
{
	v->playing = 0;
	v->acc = 0;
	view_seek(v, e);
}

/* ---- screenshots ----------------------------------------------------- */

/* A screenshot that cannot be written: said in the window and the log,
 * and the run's error (exit 2), naming the script's line when a script
 * took it. */
static void shot_failed(viewer *v, const char *path, const char *why)
{
	char where[600] = "";

	if (v->sc)
		script_where(v->sc, where, sizeof where);
	snprintf(v->out_err, sizeof v->out_err, "%s%sscreenshot %s: %s", where, *where ? ": " : "", path, why);
	vs_text_escape_in_place(v->out_err, sizeof v->out_err); /* it quotes the script */
	view_say(v, "%s", v->out_err);
	view_log(v, "%s", v->out_err);
	v->shot_failed = 1;
}

/* A screenshot is written whole or not at all (base/out_file.h). A
 * script's are outputs of the run: each is written at its frame into the
 * caller's outputs (vs_viewer_outs), which commits them with its own when
 * the run succeeded, as render commits its pictures. One a person takes
 * with the key is committed at once. */
static int write_png(viewer *v, const char *path)
{
	static vs_out_file one;
	vs_viewer_outs *outs = v->o->outs;
	vs_out_file *f = v->sc ? &outs->f[outs->n] : &one;
	char err[VS_OUT_PATH_MAX + 1024];
	int ok;

	if (v->sc && (v->nshots == VS_VIEWER_SHOTS_MAX || outs->n == (int)(sizeof outs->f / sizeof outs->f[0]))) {
		snprintf(err, sizeof err, "more than %d screenshots in one script", VS_VIEWER_SHOTS_MAX);
		shot_failed(v, path, err);
		return -1;
	}
	if (vs_out_open(f, path, err, sizeof err)) {
		shot_failed(v, path, err);
		return -1;
	}
	ok = vs_png_write(f->fp, &v->canvas) == 0;
	err[0] = '\0';
	if (vs_out_finish(f, ok, err, sizeof err) || (!v->sc && vs_out_commit(f, 1, err, sizeof err))) {
		shot_failed(v, path, err[0] ? err : "the PNG could not be encoded");
		return -1;
	}
	if (v->sc) {
		v->nshots++;
		outs->n++;
	}
	view_say(v, "screenshot written: %s", path);
	view_log(v, "screenshot %s", path);
	return 0;
}

/* ---- the loop ---------------------------------------------------------- */

static uint64_t count_lines(const char *path)
{
	FILE *fp = vs_in_open(path, "rb");
	static char buf[1 << 16];
	uint64_t n = 0;
	size_t got;

	if (!fp)
		return 0;
	while ((got = fread(buf, 1, sizeof buf, fp)) > 0) {
		const char *p = buf, *end = buf + got;
		while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
			n++;
			p++;
		}
	}
	fclose(fp);
	return n;
}

/* Records for about budget_ms. */
static int record_some(viewer *v, double budget_ms)
{
	uint64_t t0 = SDL_GetPerformanceCounter();
	int rc = 1;

	while (rc == 1 && ms_since(t0) < budget_ms)
		rc = vs_timeline_record(v->tl, 512);
	v->record_ms += ms_since(t0);
	if (rc == 0) {
		int s;
		view_log(v, "recorded %llu events in %.0f ms; timeline %.1f MiB, %zu checkpoints per side",
			(unsigned long long)vs_timeline_recorded(v->tl), v->record_ms,
			(double)vs_timeline_bytes(v->tl) / 1048576.0, vs_timeline_checkpoints(v->tl));
		for (s = 0; s < v->nsides; s++)
			if (vs_timeline_error(v->tl, s))
				view_log(v, "side %d stopped: %s", s + 1, vs_timeline_error(v->tl, s));
	}
	return rc;
}

static void play(viewer *v, double dt)
{
	uint64_t at = vs_timeline_at(v->tl), rec = vs_timeline_recorded(v->tl), n;

	if (!v->playing)
		return;
	v->acc += speeds[v->speed_i] * dt;
	n = (uint64_t)v->acc;
	v->acc -= (double)n;
	if (!n)
		return;
	if (at + n >= rec) {
		n = rec - at;
		if (vs_timeline_complete(v->tl))
			v->playing = 0;
	}
	if (n)
		view_seek(v, at + n);
}

void view_live_tick(viewer *v, double dt)
{
	uint64_t before = vs_timeline_recorded(v->tl), at = vs_timeline_at(v->tl);
	int rc = 0;

	if (!v->live_ended) {
		rc = v->live->tick(v->live->ud, dt);
		if (rc < 0) {
			v->quit = 3;
			return;
		}
		v->live_ended = rc == 1;
	}
	while ((rc = vs_timeline_record(v->tl, 4096)) == 1)
		;
	if (rc < 0)
		view_say(v, "out of memory while recording");
	/* the cursor at the newest event follows the game */
	if (at == before && vs_timeline_recorded(v->tl) != at)
		view_seek(v, vs_timeline_recorded(v->tl));
}

static void report_times(viewer *v)
{
	view_log(v, "frames %llu: compose mean %.2f ms, p99 %.2f ms, max %.2f ms; whole frame mean %.2f ms, p99 %.2f ms",
		(unsigned long long)v->compose.n, v->compose.n ? v->compose.sum / (double)v->compose.n : 0.0,
		time_p99(&v->compose), v->compose.max, v->frame.n ? v->frame.sum / (double)v->frame.n : 0.0,
		time_p99(&v->frame));
	view_log(v, "present (upload and show): mean %.2f ms, p99 %.2f ms, max %.2f ms",
		v->present.n ? v->present.sum / (double)v->present.n : 0.0, time_p99(&v->present), v->present.max);
	view_log(v, "presents %llu, sending %.1f%% of the window's pixels on average",
		(unsigned long long)v->presents,
		v->presents && v->W && v->H ? 100.0 * (double)v->sent_px / (double)v->presents / ((double)v->W * v->H) : 0.0);
	if (v->o->check_redraw)
		view_log(v, "redraw check: %llu of %llu frames differed from a full redraw",
			(unsigned long long)v->check_bad, (unsigned long long)v->frames);
	view_log(v, "seeks %llu: mean %.3f ms, p99 %.3f ms, max %.3f ms",
		(unsigned long long)v->seek.n, v->seek.n ? v->seek.sum / (double)v->seek.n : 0.0, time_p99(&v->seek),
		v->seek.max);
}

static void loop(viewer *v)
{
	uint64_t last = SDL_GetPerformanceCounter();
	int scripted = v->sc != NULL, busy = 1;
	Uint32 shown = 0;

	while (!v->quit) {
		uint64_t t0 = SDL_GetPerformanceCounter(), tc, sent;
		double dt = (double)(t0 - last) / (double)SDL_GetPerformanceFrequency();
		SDL_Event e;

		last = t0;
		if (scripted && v->live) {
			/* a game frame per window frame, the script's input first */
			dt = 1.0 / 60.0;
			if (!script_step(v, v->sc))
				break;
		} else if (scripted) {
			/* deterministic: the script starts once all is recorded and
			 * every frame is 1/60 s */
			dt = 1.0 / 60.0;
			if (!vs_timeline_complete(v->tl)) {
				if (record_some(v, 1e9) < 0)
					break;
			} else if (!script_step(v, v->sc)) {
				break;
			}
		} else if (!v->live && !vs_timeline_complete(v->tl)) {
			if (record_some(v, v->playing ? 6.0 : 10.0) < 0) {
				view_say(v, "out of memory while recording");
				v->playing = 0;
			}
		}
		while (SDL_PollEvent(&e)) {
			input_event(v, &e);
			busy = 1;
		}
		if (v->quit)
			break;
		if (v->live) {
			view_live_tick(v, scripted ? -1.0 : dt);
			if (v->quit)
				break;
		}
		play(v, dt);
		layout_follow(v);
		/* nothing moves: leave the last picture up (half a second at most,
		 * so timed messages still go away) */
		if (!scripted && !busy && !v->playing && vs_timeline_complete(v->tl) &&
			!SDL_TICKS_PASSED(SDL_GetTicks(), shown + 500)) {
			SDL_Delay(10);
			continue;
		}
		busy = 0;
		shown = SDL_GetTicks();
		tc = SDL_GetPerformanceCounter();
		draw_compose(v, 0);
		time_add(&v->compose, ms_since(tc));
		if (v->o->check_redraw)
			draw_check_frame(v);
		if (v->shot_pending[0]) {
			int failed = write_png(v, v->shot_pending) != 0;
			v->shot_pending[0] = 0;
			if (failed && scripted)
				break; /* the run failed: nothing of it will be kept */
		}
		tc = SDL_GetPerformanceCounter();
		sent = v->presents;
		present_frame(v);
		time_add(&v->present, ms_since(tc));
		if (v->o->check_redraw && v->shown.px &&
			memcmp(v->shown.px, v->canvas.px, (size_t)v->W * (size_t)v->H * 4) && !v->check_bad++)
			view_log(v, "redraw check: frame %llu: the window was not sent every change",
				(unsigned long long)v->frames);
		v->frames++;
		if (!scripted && !(SDL_GetWindowFlags(v->win) & SDL_WINDOW_SHOWN))
			SDL_Delay(16);
		/* 60 a second when no vsync wait did it */
		if (!scripted && (!v->vsync || sent == v->presents)) {
			double spent = ms_since(t0);
			if (spent < 16.0)
				SDL_Delay((Uint32)(16.0 - spent));
		}
		time_add(&v->frame, ms_since(t0));
	}
}

/* The window's title: the trace and each side's strategies (ARENA=NAME
 * for each arena when there are several). */
static void set_title(viewer *v)
{
	char t[1024];
	int s, a;

	snprintf(t, sizeof t, "%s - ", v->trace_name);
	for (s = 0; s < v->nsides; s++) {
		vs_replay *r = vs_timeline_replay(v->tl, s);
		if (v->nsides > 1)
			snprintf(t + strlen(t), sizeof t - strlen(t), "%sside %d: ", s ? " | " : "", s + 1);
		for (a = 0; a < v->narenas; a++) {
			if (v->narenas > 1)
				snprintf(t + strlen(t), sizeof t - strlen(t), "%s%s=", a ? "," : "",
					vs_timeline_arena(v->tl, s, a)->decl.name);
			snprintf(t + strlen(t), sizeof t - strlen(t), "%s", vs_replay_strategy(r, a)->name);
		}
	}
	snprintf(t + strlen(t), sizeof t - strlen(t), " - %s", v->o->title ? v->o->title : "vramsim view");
	vs_text_escape_in_place(t, sizeof t);
	SDL_SetWindowTitle(v->win, t);
}

static int set(const char *name)
{
	const char *s = getenv(name);

	return s && *s;
}

/* Without a script nobody drives the viewer but a person at a window: with
 * nothing to show it on, say so instead of running unseen. Before SDL
 * starts: the default driver and no X11 or Wayland display. */
int vs_viewer_no_display(const vs_viewer_opts *o, char *err, size_t errlen)
{
#if !defined(_WIN32) && !defined(__APPLE__) && !defined(__ANDROID__)
	if (!o->script && !set("SDL_VIDEODRIVER") && !set("DISPLAY") && !set("WAYLAND_DISPLAY")) {
		snprintf(err, errlen, "no display: DISPLAY and WAYLAND_DISPLAY are not set, so the window would show "
			"nowhere; run it in an X11 or Wayland session, or headless with --script FILE and "
			"SDL_VIDEODRIVER=offscreen (or dummy)");
		return 1;
	}
#else
	(void)o;
	(void)err;
	(void)errlen;
#endif
	return 0;
}

/* After SDL starts: a driver that shows nothing, and no script. */
static int invisible_driver(const vs_viewer_opts *o, char *err, size_t errlen)
{
	const char *d = SDL_GetCurrentVideoDriver();

	if (o->script || !d || (strcmp(d, "dummy") != 0 && strcmp(d, "offscreen") != 0))
		return 0;
	snprintf(err, errlen, "the video driver '%s' shows no window and there is no --script to drive it; "
		"unset SDL_VIDEODRIVER to use the display, or give --script FILE", d);
	return 1;
}

/* SDL, the window, its title and the way frames reach it. Returns 0, or 2
 * with err said. */
static int open_window(viewer *v, char *err, size_t errlen)
{
	const vs_viewer_opts *o = v->o;
	int w = o->width ? o->width : 1280, h = o->height ? o->height : 800;

	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		snprintf(err, errlen, "no display: cannot start SDL video (%s); to run headless give --script FILE "
			"and set SDL_VIDEODRIVER=offscreen or dummy", SDL_GetError());
		return 2;
	}
	if (invisible_driver(o, err, errlen))
		return 2;
	/* game controllers for the game; none is no error */
	if (o->live && SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0)
		view_log(v, "no game controllers: %s", SDL_GetError());
	v->win = SDL_CreateWindow("vramsim view", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, w, h,
		SDL_WINDOW_RESIZABLE);
	if (!v->win) {
		snprintf(err, errlen, "cannot open a window: %s", SDL_GetError());
		return 2;
	}
	set_title(v);
	return present_open(v, w, h, err, errlen);
}

/* The run's exit code once the window closed: 2 for a failed resize or
 * screenshot (said in err), 1 when a script expectation or the redraw
 * check failed. */
static int exit_code(const viewer *v, char *err, size_t errlen)
{
	if (v->quit == 2) {
		snprintf(err, errlen, "out of memory on resize");
		return 2;
	}
	if (v->quit == 3) {
		snprintf(err, errlen, "the game's session failed");
		return 2;
	}
	if (v->shot_failed || v->log_failed) {
		snprintf(err, errlen, "%s", v->out_err);
		return 2;
	}
	return v->script_failed || v->check_bad ? 1 : 0;
}

/* Everything the run opened, whatever got opened. */
static void close_all(viewer *v)
{
	int s, a;

	if (v->tex)
		SDL_DestroyTexture(v->tex);
	if (v->ren)
		SDL_DestroyRenderer(v->ren);
	if (v->win)
		SDL_DestroyWindow(v->win);
	SDL_Quit();
	vs_image_fini(&v->canvas);
	vs_image_fini(&v->check);
	vs_image_fini(&v->shown);
	for (s = 0; s < VS_VIEW_MAX_SIDES; s++) {
		vs_image_fini(&v->sp[s].chart_img);
		for (a = 0; a < VS_TRACE_MAX_ARENAS; a++) {
			free(v->sp[s].ar[a].snap);
		}
	}
	free(v->fail_rows);
	vs_timeline_free(v->tl);
	script_free(v->sc);
	v->tl = NULL;
	v->sc = NULL;
}

int vs_viewer_run(const vs_viewer_opts *o, char *err, size_t errlen)
{
	static viewer vv;
	viewer *v = &vv;
	const char *base;
	int rc;

	memset(v, 0, sizeof *v);
	if (vs_viewer_no_display(o, err, errlen))
		return 2;
	v->o = o;
	v->log = o->log ? o->log->fp : stdout;
	v->nsides = o->nsides;
	v->speed_i = DEFAULT_SPEED;
	v->hover_side = -1;
	base = strrchr(o->trace, '/');
	snprintf(v->trace_name, sizeof v->trace_name, "%s", o->name ? o->name : base ? base + 1 : o->trace);
	if (o->script) {
		v->sc = script_load(o->script, err, errlen);
		if (!v->sc)
			return 2;
		v->shots0 = o->outs->n;
	}
	v->tl = vs_timeline_open(o->trace, o->nsides, o->cfg, err, errlen);
	if (!v->tl) {
		script_free(v->sc);
		return 2;
	}
	v->narenas = vs_timeline_arena_count(v->tl);
	v->live = o->live;
	if (v->live)
		vs_timeline_follow(v->tl, 1);
	else
		v->est_events = count_lines(o->trace);
	rc = open_window(v, err, errlen);
	if (!rc) {
		SDL_StartTextInput();
		loop(v);
		report_times(v);
		rc = exit_code(v, err, errlen);
	}
	/* a script's screenshots appear when it ran to its end, passed (0) or
	 * not (1), with the caller's outputs; with an error (2), none does */
	if (o->outs && rc == 2) {
		vs_out_abort(o->outs->f + v->shots0, v->nshots);
		o->outs->n -= v->nshots;
		o->outs->shot_failed = v->shot_failed && !v->log_failed;
		o->outs->log_failed = v->log_failed;
	}
	close_all(v);
	return rc;
}
