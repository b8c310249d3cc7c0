/* SPDX-License-Identifier: Zlib */
/* viewer.c - the SDL2 window: plays a recorded timeline, seeks, hovers.
 *
 * Every frame is composed on the CPU into one RGBA canvas with the
 * renderer (arena maps, charts, text in its bitmap font) and uploaded to a
 * streaming texture. The canvas is also what a screenshot writes, so a
 * screenshot is the same with any video driver, or none that shows.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_int.h"
#include "vramsim/grow.h"
#include "vramsim/out_file.h"
#include "vramsim/text.h"

static const double speeds[] = {
	1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000,
	100000, 200000, 500000, 1000000
};
#define NSPEEDS ((int)(sizeof speeds / sizeof speeds[0]))
#define DEFAULT_SPEED 6 /* 100 events a second */

void view_log(viewer *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(v->log, fmt, ap);
	va_end(ap);
	fputc('\n', v->log);
	fflush(v->log);
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
static void view_speed_change(viewer *v, int d)
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

/* ---- screenshots ----------------------------------------------------- */

/* A screenshot is written whole or not at all (vramsim/out_file.h); one
 * that cannot be written makes the run end with an error. */
static int write_png(viewer *v, const char *path)
{
	static vs_out_file f;
	char err[1024];
	int ok;

	if (vs_out_open(&f, path, err, sizeof err)) {
		view_say(v, "screenshot: %s", err);
		view_log(v, "screenshot failed: %s", err);
		v->shot_failed = 1;
		return -1;
	}
	ok = vs_png_write(f.fp, &v->canvas) == 0;
	err[0] = '\0';
	if (vs_out_finish(&f, ok, err, sizeof err) || vs_out_commit(&f, 1, err, sizeof err)) {
		view_say(v, "screenshot: writing %s failed%s%s", path, err[0] ? ": " : "", err);
		view_log(v, "screenshot failed: writing %s failed%s%s", path, err[0] ? ": " : "", err);
		v->shot_failed = 1;
		return -1;
	}
	view_say(v, "screenshot written: %s", path);
	view_log(v, "screenshot %s", path);
	return 0;
}

static void screenshot_key(viewer *v)
{
	const char *dir = v->o->shot_dir ? v->o->shot_dir : ".";
	char path[1024];
	FILE *fp;

	/* first free name: vramsim-view-0001.png, ... */
	do {
		snprintf(path, sizeof path, "%s/vramsim-view-%04d.png", dir, ++v->shot_n);
		fp = fopen(path, "rb");
		if (fp)
			fclose(fp);
	} while (fp && v->shot_n < 9999);
	snprintf(v->shot_pending, sizeof v->shot_pending, "%s", path);
}

/* ---- input --------------------------------------------------------------- */

void view_step_to(viewer *v, uint64_t e)
{
	v->playing = 0;
	v->acc = 0;
	view_seek(v, e);
}

int input_go_frame(viewer *v, uint64_t n)
{
	uint64_t e = n ? vs_timeline_frame_event(v->tl, n) : 0;

	if (n && !e) {
		view_say(v, "no frame %llu: %s %llu frames", (unsigned long long)n,
			vs_timeline_complete(v->tl) ? "the trace has" : "recorded so far:",
			(unsigned long long)vs_timeline_frame_count(v->tl));
		return -1;
	}
	view_step_to(v, e);
	view_say(v, "frame %llu: event %llu", (unsigned long long)n, (unsigned long long)e);
	return 0;
}

static int all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s) && strlen(s) <= 19;
}

/* What a query looks for: 1 an id, 0 a tag (its number in key), -1 nothing
 * (said). what describes it. */
static int find_query(viewer *v, const char *q, uint64_t *key, char *what, size_t len)
{
	vs_replay *r = vs_timeline_replay(v->tl, 0);
	const char *name = q, *t;
	uint32_t i;

	if (strncmp(q, "id=", 3) == 0 || (strncmp(q, "tag=", 4) != 0 && all_digits(q))) {
		if (q[0] == 'i')
			q += 3;
		if (!all_digits(q)) {
			view_say(v, "find: '%s' is not an id", q);
			return -1;
		}
		*key = strtoull(q, NULL, 10);
		snprintf(what, len, "id %llu", (unsigned long long)*key);
		return 1;
	}
	if (strncmp(q, "tag=", 4) == 0)
		name = q + 4;
	for (i = 1; (t = vs_replay_tag_name(r, i)) != NULL && *t; i++) {
		if (strcmp(t, name) == 0) {
			*key = i;
			snprintf(what, len, "tag %s", name);
			return 0;
		}
	}
	view_say(v, "find: no tag '%s' in the trace%s", name, vs_timeline_complete(v->tl) ? "" : " so far");
	return -1;
}

uint64_t input_find(viewer *v, const char *query, int dir)
{
	char what[VIEW_PROMPT_MAX + 8], q[VIEW_PROMPT_MAX];
	uint64_t key = 0, e;
	int by_id;

	/* query may be v->find itself (n, shift+n): copied through q */
	snprintf(q, sizeof q, "%s", query);
	snprintf(v->find, sizeof v->find, "%s", q);
	by_id = find_query(v, v->find, &key, what, sizeof what);
	if (by_id < 0)
		return 0;
	e = vs_timeline_find(v->tl, vs_timeline_at(v->tl), dir, by_id, key);
	if (!e) {
		view_say(v, "no %s alloc or free of %s%s", dir > 0 ? "later" : "earlier", what,
			vs_timeline_complete(v->tl) ? "" : " recorded yet");
		return 0;
	}
	view_step_to(v, e);
	view_say(v, "%s: %s at event %llu (n / shift+n: next / previous)", what,
		vs_timeline_event(v->tl, e)->type == VS_EV_ALLOC ? "alloc" : "free", (unsigned long long)e);
	return e;
}

static void open_prompt(viewer *v, int what)
{
	v->prompt = what;
	v->prompt_text[0] = '\0';
	v->prompt_swallow = 1;
}

static void prompt_done(viewer *v)
{
	char q[VIEW_PROMPT_MAX];
	int what = v->prompt;

	v->prompt = PROMPT_NONE;
	snprintf(q, sizeof q, "%s", v->prompt_text);
	if (!q[0])
		return;
	if (what == PROMPT_FIND)
		input_find(v, q, 1);
	else if (all_digits(q))
		input_go_frame(v, strtoull(q, NULL, 10));
	else
		view_say(v, "go to frame: '%s' is not a number", q);
}

/* Keys while the prompt is up: typed characters come as text input. */
static void prompt_key(viewer *v, const SDL_Keysym *k)
{
	size_t n = strlen(v->prompt_text);

	switch (k->sym) {
	case SDLK_ESCAPE:
		v->prompt = PROMPT_NONE;
		break;
	case SDLK_BACKSPACE:
		if (n)
			v->prompt_text[n - 1] = '\0';
		break;
	case SDLK_RETURN:
	case SDLK_KP_ENTER:
		prompt_done(v);
		break;
	default:
		break;
	}
}

static void prompt_type(viewer *v, const char *t)
{
	size_t n = strlen(v->prompt_text);

	for (; *t; t++) {
		if (*t < 32 || *t > 126 || n + 1 >= sizeof v->prompt_text)
			continue;
		v->prompt_text[n++] = *t;
		v->prompt_text[n] = '\0';
	}
}

/* Keys that play, step and set the speed; 0 for the rest. */
static int play_key(viewer *v, const SDL_Keysym *k, int shift)
{
	uint64_t at = vs_timeline_at(v->tl), e;

	switch (k->sym) {
	case SDLK_SPACE:
		v->playing = !v->playing;
		v->acc = 0;
		if (v->playing && vs_timeline_complete(v->tl) && at >= vs_timeline_recorded(v->tl))
			view_seek(v, 0);
		break;
	case SDLK_RIGHT:
		if (shift) {
			e = vs_timeline_next_frame(v->tl, at);
			view_step_to(v, e ? e : vs_timeline_recorded(v->tl));
		} else {
			view_step_to(v, at + 1);
		}
		break;
	case SDLK_LEFT:
		if (shift)
			view_step_to(v, vs_timeline_prev_frame(v->tl, at));
		else
			view_step_to(v, at ? at - 1 : 0);
		break;
	case SDLK_PAGEDOWN:
		view_step_to(v, at + (shift ? 1000 : 100));
		break;
	case SDLK_PAGEUP:
		e = shift ? 1000 : 100;
		view_step_to(v, at > e ? at - e : 0);
		break;
	case SDLK_HOME:
		view_step_to(v, 0);
		break;
	case SDLK_END:
		view_step_to(v, vs_timeline_recorded(v->tl));
		break;
	case SDLK_UP:
	case SDLK_PLUS:
	case SDLK_EQUALS:
	case SDLK_KP_PLUS:
		view_speed_change(v, 1);
		break;
	case SDLK_DOWN:
	case SDLK_MINUS:
	case SDLK_KP_MINUS:
		view_speed_change(v, -1);
		break;
	default:
		return 0;
	}
	return 1;
}

/* Keys that search: failures, frames, tags and ids; 0 for the rest. */
static int search_key(viewer *v, const SDL_Keysym *k, int shift)
{
	uint64_t at = vs_timeline_at(v->tl), e;

	switch (k->sym) {
	case SDLK_f:
		if (k->mod & KMOD_CTRL) {
			open_prompt(v, PROMPT_FIND);
			break;
		}
		e = shift ? vs_timeline_prev_failure(v->tl, at) : vs_timeline_next_failure(v->tl, at);
		if (e)
			view_step_to(v, e);
		else
			view_say(v, "no %s failure%s", shift ? "earlier" : "later",
				vs_timeline_complete(v->tl) ? "" : " recorded yet");
		break;
	case SDLK_g:
		open_prompt(v, PROMPT_FRAME);
		break;
	case SDLK_SLASH:
		if (!shift)
			open_prompt(v, PROMPT_FIND);
		break;
	case SDLK_n:
		if (v->find[0])
			input_find(v, v->find, shift ? -1 : 1);
		else
			view_say(v, "nothing to find again: / finds a tag or id");
		break;
	default:
		return 0;
	}
	return 1;
}

/* Keys of the timeline's window: zoom, pan, the whole trace again; 0 for
 * the rest. */
static int zoom_key(viewer *v, const SDL_Keysym *k, int shift)
{
	uint64_t at = vs_timeline_at(v->tl), lo, hi;

	switch (k->sym) {
	case SDLK_z:
		/* around the cursor when it is shown, else the window's middle */
		layout_range(v, &lo, &hi);
		layout_zoom(v, at >= lo && at <= hi ? at : lo + (hi - lo) / 2, !shift);
		break;
	case SDLK_COMMA:
	case SDLK_PERIOD:
		layout_pan(v, (k->sym == SDLK_COMMA ? -1 : 1) * (shift ? 4 : 1));
		break;
	case SDLK_w:
		v->tl_lo = v->tl_span = 0;
		break;
	default:
		return 0;
	}
	return 1;
}

/* The other keys: the failure list, the charted arena, screenshots, help,
 * quit. */
static void other_key(viewer *v, const SDL_Keysym *k)
{
	switch (k->sym) {
	case SDLK_l:
		fails_toggle(v);
		break;
	case SDLK_TAB:
		if (v->narenas)
			v->chart_arena = (v->chart_arena + 1) % v->narenas;
		break;
	case SDLK_s:
	case SDLK_F12:
		screenshot_key(v);
		break;
	case SDLK_h:
	case SDLK_F1:
	case SDLK_QUESTION:
		v->help = 1;
		break;
	case SDLK_q:
	case SDLK_ESCAPE:
		v->quit = 1;
		break;
	default:
		break;
	}
}

/* A key goes to what is open over the frame (help, the prompt, the
 * failure list), else to the first group that has it. */
static void on_key(viewer *v, const SDL_Keysym *k)
{
	int shift = (k->mod & KMOD_SHIFT) != 0;

	if (v->help) {
		/* '?' arrives as text too: that toggles, so its key is left alone */
		if (k->sym != SDLK_LSHIFT && k->sym != SDLK_RSHIFT && k->sym != SDLK_SLASH && k->sym != SDLK_QUESTION)
			v->help = 0;
		return;
	}
	if (v->prompt) {
		prompt_key(v, k);
		return;
	}
	if (v->fails_open && fails_key(v, k))
		return;
	if (!play_key(v, k, shift) && !search_key(v, k, shift) && !zoom_key(v, k, shift))
		other_key(v, k);
}

/* Text input: the prompt's, or '?' for the help. */
static void on_text(viewer *v, const char *text)
{
	if (v->prompt) {
		/* the key that opened the prompt sends its text too */
		if (!v->prompt_swallow || (strcmp(text, "g") != 0 && strcmp(text, "/") != 0 && strcmp(text, "f") != 0))
			prompt_type(v, text);
		v->prompt_swallow = 0;
	} else if (strcmp(text, "?") == 0) {
		v->help = !v->help;
	}
}

/* Whether the mouse is on the timeline (or close to it). */
static int on_timeline(const viewer *v)
{
	return rect_inside(rect_inflate(v->timeline, 4), v->mx, v->my);
}

static void seek_at_mouse(viewer *v)
{
	int s;

	if (v->dragging == 1) {
		uint64_t e = layout_time_event(v, v->mx);
		view_seek(v, e);
	} else if (v->dragging >= 2) {
		s = v->dragging - 2;
		view_seek(v, vs_render_time_event(vs_timeline_render_history(v->tl, s), v->sp[s].chart, v->mx));
	}
}

/* A press: the left button on a row of the failure list goes there; on
 * the timeline or a chart it seeks and starts a drag. Any other button
 * (or any press while the help is up) closes the help. */
static void on_press(viewer *v, const SDL_MouseButtonEvent *b)
{
	int s;

	v->mx = b->x;
	v->my = b->y;
	v->mouse_in = 1;
	if (b->button != SDL_BUTTON_LEFT || v->help) {
		v->help = 0;
		return;
	}
	if (fails_click(v))
		return;
	if (on_timeline(v))
		v->dragging = 1;
	for (s = 0; s < v->nsides; s++)
		if (rect_inside(v->sp[s].chart, v->mx, v->my))
			v->dragging = 2 + s;
	if (v->dragging) {
		v->playing = 0;
		seek_at_mouse(v);
	}
}

/* The wheel scrolls the failure list under it; on the timeline up / down
 * zoom and sideways (or shift) pans; elsewhere it steps. */
static void on_wheel(viewer *v, const SDL_MouseWheelEvent *w)
{
	int dy = w->y, dx = w->x;

	if (fails_wheel(v, w->y))
		return;
	if (on_timeline(v)) {
		if (w->direction == SDL_MOUSEWHEEL_FLIPPED) {
			dy = -dy;
			dx = -dx;
		}
		if (SDL_GetModState() & KMOD_SHIFT) {
			dx = -dy;
			dy = 0;
		}
		if (dy)
			layout_zoom(v, layout_time_event(v, v->mx), dy > 0);
		if (dx)
			layout_pan(v, dx > 0 ? 1 : -1);
		return;
	}
	if (w->y) {
		uint64_t at = vs_timeline_at(v->tl);
		view_step_to(v, w->y > 0 ? (at ? at - 1 : 0) : at + 1);
	}
}

static void on_window(viewer *v, const SDL_WindowEvent *w)
{
	if (w->event == SDL_WINDOWEVENT_SIZE_CHANGED || w->event == SDL_WINDOWEVENT_RESIZED) {
		if (layout_resize(v, w->data1, w->data2))
			v->quit = 2;
	} else if (w->event == SDL_WINDOWEVENT_LEAVE) {
		v->mouse_in = 0;
	} else if (w->event == SDL_WINDOWEVENT_EXPOSED) {
		v->show_all = 1;
	}
}

static void input_event(viewer *v, const SDL_Event *e)
{
	switch (e->type) {
	case SDL_QUIT:
		v->quit = 1;
		break;
	case SDL_KEYDOWN:
		on_key(v, &e->key.keysym);
		break;
	case SDL_TEXTINPUT:
		on_text(v, e->text.text);
		break;
	case SDL_KEYUP:
		v->prompt_swallow = 0;
		break;
	case SDL_MOUSEMOTION:
		v->mx = e->motion.x;
		v->my = e->motion.y;
		v->mouse_in = 1;
		if (v->dragging)
			seek_at_mouse(v);
		break;
	case SDL_MOUSEBUTTONDOWN:
		on_press(v, &e->button);
		break;
	case SDL_MOUSEBUTTONUP:
		if (e->button.button == SDL_BUTTON_LEFT)
			v->dragging = 0;
		break;
	case SDL_MOUSEWHEEL:
		on_wheel(v, &e->wheel);
		break;
	case SDL_WINDOWEVENT:
		on_window(v, &e->window);
		break;
	default:
		break;
	}
}

/* ---- the loop ---------------------------------------------------------- */

static uint64_t count_lines(const char *path)
{
	FILE *fp = fopen(path, "rb");
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

/* The window's framebuffer (X11: shared memory): the changed rectangles
 * are converted into it and only they are sent. */
static int present_surface(viewer *v, SDL_Rect *r, int n)
{
	SDL_Surface *ws = SDL_GetWindowSurface(v->win);
	int i, bpp, m = 0;

	if (!ws)
		return -1;
	bpp = ws->format->BytesPerPixel;
	if (SDL_MUSTLOCK(ws) && SDL_LockSurface(ws))
		return -1;
	for (i = 0; i < n; i++) {
		SDL_Rect c = r[i];
		if (c.x + c.w > ws->w)
			c.w = ws->w - c.x;
		if (c.y + c.h > ws->h)
			c.h = ws->h - c.y;
		if (c.w <= 0 || c.h <= 0)
			continue;
		SDL_ConvertPixels(c.w, c.h, SDL_PIXELFORMAT_RGBA32,
			v->canvas.px + ((size_t)c.y * (size_t)v->canvas.w + (size_t)c.x) * 4, v->canvas.w * 4,
			ws->format->format, (uint8_t *)ws->pixels + (size_t)c.y * (size_t)ws->pitch + (size_t)c.x * (size_t)bpp,
			ws->pitch);
		r[m++] = c;
	}
	if (SDL_MUSTLOCK(ws))
		SDL_UnlockSurface(ws);
	return m ? SDL_UpdateWindowSurfaceRects(v->win, r, m) : 0;
}

#define TILE_W 64
#define TILE_H 16

/* One tile row's changed pixels, in 64-pixel column chunks: runs of changed
 * chunks become rectangles (cut to the rows that changed); shown is brought
 * up to date. Returns the rectangles added, or -1 when out of room. */
static int refine_band(viewer *v, int x0, int x1, int y0, int y1, int n)
{
	const size_t stride = (size_t)v->W * 4;
	int cx = x0, y, run_x = -1, run_ylo = 0, run_yhi = 0;

	for (;;) {
		int ce = x1 - cx < TILE_W ? x1 : cx + TILE_W, ylo = -1, yhi = -1;
		for (y = y0; y < y1 && cx < x1; y++) {
			size_t off = (size_t)y * stride + (size_t)cx * 4;
			if (memcmp(v->canvas.px + off, v->shown.px + off, (size_t)(ce - cx) * 4)) {
				if (ylo < 0)
					ylo = y;
				yhi = y;
			}
		}
		if (ylo >= 0) {
			if (run_x < 0) {
				run_x = cx;
				run_ylo = ylo;
				run_yhi = yhi;
			} else {
				run_ylo = ylo < run_ylo ? ylo : run_ylo;
				run_yhi = yhi > run_yhi ? yhi : run_yhi;
			}
			cx = ce;
			continue;
		}
		if (run_x >= 0) {
			SDL_Rect *r;
			if (n == VIEW_MAX_SEND)
				return -1;
			r = &v->send[n++];
			r->x = run_x;
			r->y = run_ylo;
			r->w = cx - run_x;
			r->h = run_yhi - run_ylo + 1;
			for (y = r->y; y < r->y + r->h; y++)
				memcpy(v->shown.px + (size_t)y * stride + (size_t)r->x * 4,
					v->canvas.px + (size_t)y * stride + (size_t)r->x * 4, (size_t)r->w * 4);
			run_x = -1;
		}
		if (cx >= x1)
			return n;
		cx = ce;
	}
}

/* The dirty regions narrowed to what differs from the window's picture
 * (a region drawn again is often mostly the same pixels: a moved cursor,
 * a few changed tiles). Returns how many rectangles are in v->send. */
static int refine(viewer *v, const SDL_Rect *d, int nd)
{
	int i, n = 0, y;

	for (i = 0; i < nd; i++)
		for (y = d[i].y; y < d[i].y + d[i].h; y += TILE_H) {
			int y1 = y + TILE_H < d[i].y + d[i].h ? y + TILE_H : d[i].y + d[i].h;
			n = refine_band(v, d[i].x, d[i].x + d[i].w, y, y1, n);
			if (n < 0)
				return -1;
		}
	return n;
}

/* Sends the canvas's changed parts to the window; nothing when nothing
 * changed (the picture stays up). */
static void present_frame(viewer *v)
{
	SDL_Rect all, *r = v->send;
	int n, i;

	all.x = all.y = 0;
	all.w = v->W;
	all.h = v->H;
	if (!v->shown.px || v->shown.w != v->W || v->shown.h != v->H) {
		vs_image_fini(&v->shown);
		if (vs_image_init(&v->shown, v->W, v->H, VS_RGB_BG))
			v->shown.px = NULL;
		v->show_all = 1;
	}
	if (v->show_all || !v->shown.px) {
		n = -1;
	} else if (v->dirty_all) {
		n = refine(v, &all, 1);
	} else {
		n = refine(v, v->dirty, v->ndirty);
	}
	v->ndirty = 0;
	v->dirty_all = 0;
	v->show_all = 0;
	if (n < 0) {
		/* everything */
		if (v->shown.px)
			memcpy(v->shown.px, v->canvas.px, (size_t)v->W * (size_t)v->H * 4);
		r = &all;
		n = 1;
	}
	if (!n)
		return;
	for (i = 0; i < n; i++)
		v->sent_px += (uint64_t)r[i].w * (uint64_t)r[i].h;
	v->presents++;
	if (v->present_mode == VIEW_PRESENT_SURFACE) {
		if (present_surface(v, r, n))
			v->show_all = 1;
		return;
	}
	if (!v->ren || !v->tex)
		return;
	for (i = 0; i < n; i++)
		SDL_UpdateTexture(v->tex, &r[i], v->canvas.px + ((size_t)r[i].y * (size_t)v->canvas.w + (size_t)r[i].x) * 4,
			v->canvas.w * 4);
	/* the texture covers the window: no clear */
	SDL_RenderCopy(v->ren, v->tex, NULL, NULL);
	SDL_RenderPresent(v->ren);
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
		if (scripted) {
			/* deterministic: the script starts once all is recorded and
			 * every frame is 1/60 s */
			dt = 1.0 / 60.0;
			if (!vs_timeline_complete(v->tl)) {
				if (record_some(v, 1e9) < 0)
					break;
			} else if (!script_step(v, v->sc)) {
				break;
			}
		} else if (!vs_timeline_complete(v->tl)) {
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
			write_png(v, v->shot_pending);
			v->shot_pending[0] = 0;
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

#ifdef _WIN32
#define VIEW_GLAPI __stdcall
#else
#define VIEW_GLAPI
#endif

/* Whether the renderer is OpenGL drawn by the CPU (Mesa's llvmpipe under
 * Xvfb or without a GPU): its full-window texture draw and buffer swap
 * take 10-15 ms a frame, where the window's framebuffer sends only what
 * changed. */
static int software_gl(SDL_Renderer *ren)
{
	typedef const unsigned char *(VIEW_GLAPI *get_string_fn)(unsigned);
	SDL_RendererInfo ri;
	get_string_fn gs;
	void *fn;
	const char *name;

	if (SDL_GetRendererInfo(ren, &ri) || strncmp(ri.name, "opengl", 6) != 0 || !SDL_GL_GetCurrentContext())
		return 0;
	fn = SDL_GL_GetProcAddress("glGetString");
	if (!fn)
		return 0;
	memcpy(&gs, &fn, sizeof gs);
	name = (const char *)gs(0x1F01); /* GL_RENDERER */
	return name && (strstr(name, "llvmpipe") || strstr(name, "softpipe") || strstr(name, "Software") ||
		strstr(name, "swrast"));
}

/* The way frames reach the window (opts present): a texture of an
 * SDL_Renderer (vsync when asked and the driver has it), or the window's
 * framebuffer when the renderer would draw on the CPU anyway. */
static int present_open(viewer *v, int w, int h, char *err, size_t errlen)
{
	const vs_viewer_opts *o = v->o;
	Uint32 rflags = o->no_vsync || o->script ? 0 : SDL_RENDERER_PRESENTVSYNC;
	SDL_RendererInfo ri;
	const char *why = "";

	v->present_mode = o->present == 2 ? VIEW_PRESENT_SURFACE : VIEW_PRESENT_TEXTURE;
	if (v->present_mode == VIEW_PRESENT_TEXTURE) {
		v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_ACCELERATED | rflags);
		if (!v->ren)
			v->ren = SDL_CreateRenderer(v->win, -1, rflags);
		if (!v->ren)
			v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_SOFTWARE);
		if (!v->ren && o->present == 1) {
			snprintf(err, errlen, "cannot create a renderer: %s", SDL_GetError());
			return 2;
		}
		if (o->present == 0 && v->ren) {
			SDL_GetRendererInfo(v->ren, &ri);
			if (ri.flags & SDL_RENDERER_SOFTWARE || strcmp(ri.name, "software") == 0)
				why = " (the renderer draws in software)";
			else if (software_gl(v->ren))
				why = " (OpenGL is drawn in software)";
		}
		if (*why || !v->ren) {
			if (v->ren)
				SDL_DestroyRenderer(v->ren);
			v->ren = NULL;
			v->present_mode = VIEW_PRESENT_SURFACE;
		}
	}
	if (v->present_mode == VIEW_PRESENT_SURFACE) {
		/* the driver's own framebuffer (X11: shared memory), not one
		 * emulated with a renderer texture */
		SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
		if (!SDL_GetWindowSurface(v->win)) {
			if (o->present == 2) {
				snprintf(err, errlen, "the window has no framebuffer: %s", SDL_GetError());
				return 2;
			}
			/* auto: back to a renderer */
			SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, NULL);
			v->present_mode = VIEW_PRESENT_TEXTURE;
			why = "";
			v->ren = SDL_CreateRenderer(v->win, -1, rflags);
			if (!v->ren)
				v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_SOFTWARE);
			if (!v->ren) {
				snprintf(err, errlen, "cannot create a renderer: %s", SDL_GetError());
				return 2;
			}
		}
	}
	SDL_GetWindowSize(v->win, &w, &h);
	if (layout_resize(v, w, h)) {
		snprintf(err, errlen, "out of memory for a %dx%d canvas", w, h);
		return 2;
	}
	memset(&ri, 0, sizeof ri);
	ri.name = "none";
	if (v->ren)
		SDL_GetRendererInfo(v->ren, &ri);
	v->vsync = v->ren && (ri.flags & SDL_RENDERER_PRESENTVSYNC);
	if (v->present_mode == VIEW_PRESENT_SURFACE)
		view_log(v, "view: %s, %d side%s, video %s, window framebuffer%s, %dx%d", o->trace, v->nsides,
			v->nsides > 1 ? "s" : "", SDL_GetCurrentVideoDriver(), why, w, h);
	else
		view_log(v, "view: %s, %d side%s, video %s, renderer %s%s, %dx%d", o->trace, v->nsides,
			v->nsides > 1 ? "s" : "", SDL_GetCurrentVideoDriver(), ri.name,
			v->vsync ? " (vsync)" : "", w, h);
	return 0;
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
	snprintf(t + strlen(t), sizeof t - strlen(t), " - vramsim view");
	vs_escape_in_place(t, sizeof t);
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
static int no_display(const vs_viewer_opts *o, char *err, size_t errlen)
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

int vs_viewer_run(const vs_viewer_opts *o, char *err, size_t errlen)
{
	static viewer vv;
	viewer *v = &vv;
	const char *base;
	int rc = 0, w = o->width ? o->width : 1280, h = o->height ? o->height : 800, s, a;

	memset(v, 0, sizeof *v);
	if (no_display(o, err, errlen))
		return 2;
	v->o = o;
	v->log = o->log ? o->log : stdout;
	v->nsides = o->nsides;
	v->speed_i = DEFAULT_SPEED;
	v->hover_side = -1;
	base = strrchr(o->trace, '/');
	snprintf(v->trace_name, sizeof v->trace_name, "%s", base ? base + 1 : o->trace);
	if (o->script) {
		v->sc = script_load(o->script, err, errlen);
		if (!v->sc)
			return 2;
	}
	v->tl = vs_timeline_open(o->trace, o->nsides, o->cfg, err, errlen);
	if (!v->tl) {
		script_free(v->sc);
		return 2;
	}
	v->narenas = vs_timeline_arena_count(v->tl);
	v->est_events = count_lines(o->trace);
	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		snprintf(err, errlen, "no display: cannot start SDL video (%s); to run headless give --script FILE "
			"and set SDL_VIDEODRIVER=offscreen or dummy", SDL_GetError());
		rc = 2;
		goto out;
	}
	if (invisible_driver(o, err, errlen)) {
		rc = 2;
		goto out;
	}
	v->win = SDL_CreateWindow("vramsim view", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, w, h,
		SDL_WINDOW_RESIZABLE);
	if (!v->win) {
		snprintf(err, errlen, "cannot open a window: %s", SDL_GetError());
		rc = 2;
		goto out;
	}
	set_title(v);
	rc = present_open(v, w, h, err, errlen);
	if (rc)
		goto out;
	SDL_StartTextInput();
	loop(v);
	report_times(v);
	if (v->quit == 2) {
		snprintf(err, errlen, "out of memory on resize");
		rc = 2;
	} else if (v->shot_failed) {
		snprintf(err, errlen, "a screenshot could not be written");
		rc = 2;
	} else if (v->script_failed || v->check_bad) {
		rc = 1;
	}
out:
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
	return rc;
}
