/* SPDX-License-Identifier: Zlib */
/* view_input.c - what keys, text, the mouse and the window's events do:
 * play, step, seek, go to a frame, find a tag or id (through the status
 * line's prompt), zoom and pan the timeline, open the panels, screenshots.
 * A script's input takes the same way (script.c pushes SDL events).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "viewer_int.h"
#include "render/history.h"

/* ---- go to a frame, find a tag or id ----------------------------------- */

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

/* ---- the prompt ---------------------------------------------------------- */

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

/* ---- keys ------------------------------------------------------------------ */

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

/* s or F12: the next free name in the screenshot folder; the loop writes
 * it once the frame is drawn. */
static void screenshot_key(viewer *v)
{
	const char *dir = v->o->shot_dir ? v->o->shot_dir : ".";
	char path[1024];
	FILE *fp;

	/* first free name: vramsim-view-0001.png, ... */
	do {
		snprintf(path, sizeof path, "%s/vramsim-view-%04d.png", dir, ++v->shot_n);
		fp = vs_in_open(path, "rb");
		if (fp)
			fclose(fp);
	} while (fp && v->shot_n < 9999);
	snprintf(v->shot_pending, sizeof v->shot_pending, "%s", path);
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
			layout_focus(v, (v->chart_arena + 1) % v->narenas);
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

/* ---- text, the mouse, the window ------------------------------------------- */

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
		view_seek(v, vs_history_time_event(vs_timeline_render_history(v->tl, s), v->sp[s].chart, v->mx));
	}
}

/* A press: the left button on a row of the failure list goes there; on
 * the timeline or a chart it seeks and starts a drag. Any other button
 * (or any press while the help is up) closes the help. */
/* A click on an arena shown as a strip (its title or strip) gives it the
 * full map. Returns 1 when it did. */
static int focus_at_mouse(viewer *v)
{
	int s, a;

	for (s = 0; s < v->nsides; s++)
		for (a = 0; a < v->narenas; a++) {
			const arena_pane *ap = &v->sp[s].ar[a];
			if (ap->compact && (rect_inside(ap->title, v->mx, v->my) || rect_inside(ap->map, v->mx, v->my))) {
				layout_focus(v, a);
				return 1;
			}
		}
	return 0;
}

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
	if (focus_at_mouse(v))
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

void input_event(viewer *v, const SDL_Event *e)
{
	/* live mode: the game's keys first, but not what a prompt types */
	if (v->live && !v->prompt && !v->help && v->live->event(v->live->ud, e))
		return;
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
