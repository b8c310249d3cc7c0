/* SPDX-License-Identifier: Zlib */
/* script.c - scripted input for the viewer (tests, demos, measurements).
 *
 * A script is a text file of commands, one a line, run one per frame once
 * the whole trace is recorded. Input commands push real SDL events (key
 * presses, mouse moves, clicks, drags) so they take the same path as a
 * person's input; the rest inspect or save state. docs/viewer.md lists them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "base/out_file.h"
#include "viewer_int.h"
#include "base/grow.h"
#include "base/text.h"

struct script {
	char path[512];
	char **line;
	int n, pc;
	int wait;
};

void script_free(script *sc)
{
	int i;

	if (!sc)
		return;
	for (i = 0; i < sc->n; i++)
		free(sc->line[i]);
	free(sc->line);
	free(sc);
}

/* A script is read whole: bounded, so an endless file is an error. */
#define SCRIPT_MAX_LINES 100000
#define SCRIPT_LINE_MAX 1023

static int check_commands(const script *sc, char *err, size_t errlen);
static int check_shots(const script *sc, char *err, size_t errlen);

script *script_load(const char *path, char *err, size_t errlen)
{
	FILE *fp = vs_in_open(path, "r");
	script *sc;
	char buf[SCRIPT_LINE_MAX + 2];
	int cap = 0;

	if (!fp) {
		snprintf(err, errlen, "%s: cannot open the script", path);
		vs_text_escape_in_place(err, errlen);
		return NULL;
	}
	sc = calloc(1, sizeof *sc);
	if (!sc) {
		fclose(fp);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(sc->path, sizeof sc->path, "%s", path);
	for (;;) {
		size_t len;
		if (!fgets(buf, sizeof buf, fp))
			break;
		len = strlen(buf);
		if (sc->n == SCRIPT_MAX_LINES) {
			snprintf(err, errlen, "%s: more than %d lines", path, SCRIPT_MAX_LINES);
			goto bad;
		}
		/* fgets stops at a newline, the end or a full buffer: none of
		 * them, and a NUL byte ended the string early */
		if ((!len || buf[len - 1] != '\n') && len + 1 < sizeof buf && !feof(fp)) {
			snprintf(err, errlen, "%s:%d: NUL byte", path, sc->n + 1);
			goto bad;
		}
		if (len && buf[len - 1] != '\n' && !feof(fp)) {
			snprintf(err, errlen, "%s:%d: line longer than %d bytes", path, sc->n + 1, SCRIPT_LINE_MAX);
			goto bad;
		}
		if (sc->n == cap && vs_grow_int(&sc->line, sizeof *sc->line, &cap, (size_t)sc->n + 1, 64))
			goto nomem;
		len = strcspn(buf, "\r\n");
		buf[len] = 0;
		if (sc->n == 0 && len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
			memmove(buf, buf + 3, len - 2); /* a UTF-8 byte order mark */
		sc->line[sc->n] = malloc(strlen(buf) + 1);
		if (!sc->line[sc->n])
			goto nomem;
		memcpy(sc->line[sc->n++], buf, strlen(buf) + 1);
	}
	if (ferror(fp)) {
		snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
		goto bad;
	}
	fclose(fp);
	if (check_commands(sc, err, errlen) || check_shots(sc, err, errlen))
		goto checked;
	return sc;
nomem:
	snprintf(err, errlen, "out of memory");
bad:
	vs_text_escape_in_place(err, errlen);
	fclose(fp);
checked:
	script_free(sc);
	return NULL;
}

static void push(SDL_Event *e)
{
	SDL_PushEvent(e);
}

/* A key pressed (down 1), released (down 0) or both (down -1). */
static void push_key_as(viewer *v, SDL_Keycode key, Uint16 mod, int down)
{
	SDL_Event e;

	memset(&e, 0, sizeof e);
	e.type = SDL_KEYDOWN;
	e.key.windowID = SDL_GetWindowID(v->win);
	e.key.state = SDL_PRESSED;
	e.key.keysym.sym = key;
	e.key.keysym.scancode = SDL_GetScancodeFromKey(key);
	e.key.keysym.mod = mod;
	if (down != 0)
		push(&e);
	e.type = SDL_KEYUP;
	e.key.state = SDL_RELEASED;
	if (down <= 0)
		push(&e);
}

static void push_key(viewer *v, SDL_Keycode key, Uint16 mod)
{
	push_key_as(v, key, mod, -1);
}

static void push_text(viewer *v, const char *text)
{
	SDL_Event e;

	memset(&e, 0, sizeof e);
	e.type = SDL_TEXTINPUT;
	e.text.windowID = SDL_GetWindowID(v->win);
	snprintf(e.text.text, sizeof e.text.text, "%s", text);
	push(&e);
}

static void push_motion(viewer *v, int x, int y, int held)
{
	SDL_Event e;

	memset(&e, 0, sizeof e);
	e.type = SDL_MOUSEMOTION;
	e.motion.windowID = SDL_GetWindowID(v->win);
	e.motion.x = x;
	e.motion.y = y;
	e.motion.state = held ? SDL_BUTTON_LMASK : 0;
	push(&e);
}

static void push_button(viewer *v, int x, int y, int down)
{
	SDL_Event e;

	memset(&e, 0, sizeof e);
	e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
	e.button.windowID = SDL_GetWindowID(v->win);
	e.button.button = SDL_BUTTON_LEFT;
	e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
	e.button.clicks = 1;
	e.button.x = x;
	e.button.y = y;
	push(&e);
}

static void push_wheel(viewer *v, int dy, int dx)
{
	SDL_Event e;

	memset(&e, 0, sizeof e);
	e.type = SDL_MOUSEWHEEL;
	e.wheel.windowID = SDL_GetWindowID(v->win);
	e.wheel.x = dx;
	e.wheel.y = dy;
	e.wheel.direction = SDL_MOUSEWHEEL_NORMAL;
	push(&e);
}

/* Logs an error at the script's current line; returns 1 (the command was
 * read, and failed). */
static int fail(viewer *v, script *sc, const char *fmt, ...) VS_PRINTF(3, 4);
static int fail(viewer *v, script *sc, const char *fmt, ...)
{
	char msg[1280]; /* a script line is at most 1023 bytes */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	vs_text_escape_in_place(msg, sizeof msg); /* it quotes the script */
	view_log(v, "%s:%d: %s", sc->path, sc->pc, msg);
	v->script_failed = 1;
	return 1;
}

static void state_line(viewer *v, char *buf, size_t len)
{
	int i;
	size_t k;
	uint64_t lo, hi;

	layout_range(v, &lo, &hi);
	snprintf(buf, len, "state event %llu frame %llu recorded %llu %s speed %g help %d size %dx%d range %llu-%llu "
		"prompt %s'%s' find '%s' failures %d row %llu message '%s' hover",
		(unsigned long long)vs_timeline_at(v->tl), (unsigned long long)vs_timeline_frame_at(v->tl, vs_timeline_at(v->tl)),
		(unsigned long long)vs_timeline_recorded(v->tl), v->playing ? "playing" : "paused", view_speed(v), v->help,
		v->W, v->H, (unsigned long long)lo, (unsigned long long)hi,
		v->prompt == PROMPT_FRAME ? "frame " : v->prompt == PROMPT_FIND ? "find " : "", v->prompt_text, v->find,
		v->fails_open, v->fails_open ? (unsigned long long)v->fail_sel + 1 : 0ull, v->message);
	for (i = 0; i < v->nhover; i++) {
		k = strlen(buf);
		snprintf(buf + k, len - k, " | %s", v->hover[i]);
	}
	vs_text_escape_in_place(buf, len); /* it quotes typed text and the trace's tags */
}

#define MAX_WORDS 8

/* Splits cmd into at most MAX_WORDS words (in copy); rest[i] is where word
 * i starts in cmd. Returns the count, or MAX_WORDS + 1 for more. */
static int words_of(const char *cmd, char *copy, size_t cap, char **w, const char **rest)
{
	const char *p = cmd;
	size_t o = 0;
	int n = 0;

	for (;;) {
		size_t len;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return n;
		if (n == MAX_WORDS)
			return MAX_WORDS + 1;
		len = strcspn(p, " \t");
		if (o + len + 1 > cap)
			return MAX_WORDS + 1;
		memcpy(copy + o, p, len);
		copy[o + len] = '\0';
		w[n] = copy + o;
		rest[n++] = p;
		o += len + 1;
		p += len;
	}
}

/* The screenshots' paths, checked before the trace is recorded: a path
 * that cannot be written, or more screenshots than are kept open, stops
 * the run before any is taken. 0, or -1 with err. */
static int check_shots(const script *sc, char *err, size_t errlen)
{
	char copy[1100], *w[MAX_WORDS], why[VS_OUT_PATH_MAX + 1024];
	const char *rest[MAX_WORDS];
	int i, n = 0;

	for (i = 0; i < sc->n; i++) {
		if (words_of(sc->line[i], copy, sizeof copy, w, rest) != 2 || strcmp(w[0], "screenshot") != 0)
			continue;
		if (++n > VS_VIEWER_SHOTS_MAX)
			snprintf(why, sizeof why, "more than %d screenshots in one script", VS_VIEWER_SHOTS_MAX);
		else if (vs_out_check(w[1], why, sizeof why) == 0)
			continue;
		snprintf(err, errlen, "%s:%d: screenshot %s: %s", sc->path, i + 1, w[1], why);
		vs_text_escape_in_place(err, errlen); /* it quotes the script */
		return -1;
	}
	return 0;
}

void script_where(const script *sc, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%d", sc->path, sc->pc);
}

/* A whole number in [lo, hi], decimal: script values are bounded so no
 * arithmetic on them overflows. */
static int number(const char *s, long long lo, long long hi, long long *out)
{
	char *end;
	long long v;

	if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
		return 0;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return 0;
	*out = v;
	return 1;
}

#define COORD_MAX 100000LL        /* window pixels, either way */
#define EVENT_MAX 0x7FFFFFFFFFFFFFFFLL
#define WAIT_MAX 10000000LL       /* frames */
#define SIZE_MAX_PX 8192LL        /* a window side */
#define WHEEL_MAX 100LL           /* wheel clicks */

/* ---- the commands ------------------------------------------------------ */

/* A command line being run: its words, and the viewer and script it runs
 * on. A handler returns 0 when the words are not what its command takes
 * (logged as "cannot read"), 1 otherwise, also when it failed (fail()). */
typedef struct cmd_args {
	viewer *v;
	script *sc;
	int n;                       /* words; MAX_WORDS + 1: more */
	char *w[MAX_WORDS];          /* the words, from copy */
	const char *rest[MAX_WORDS]; /* where word i starts in the line */
	char copy[1100];
} cmd_args;

/* Two coordinates, X Y. */
static int coords(char *const *w, int *x, int *y)
{
	long long a, b;

	if (!number(w[0], -COORD_MAX, COORD_MAX, &a) || !number(w[1], -COORD_MAX, COORD_MAX, &b))
		return 0;
	*x = (int)a;
	*y = (int)b;
	return 1;
}

/* X Y; timeline E: where the timeline shows event E; game X Y: the
 * middle of pixel (X, Y) of the game's picture (vramsim play). */
static int point(viewer *v, char *const *w, int *x, int *y)
{
	long long e;

	if (strcmp(w[0], "timeline") == 0 && number(w[1], 0, EVENT_MAX, &e)) {
		layout_timeline_point(v, (uint64_t)e, x, y);
		return 1;
	}
	if (strcmp(w[0], "game") == 0 && v->live && coords(w + 1, x, y)) {
		*x = v->game.x + *x * v->game_scale + v->game_scale / 2;
		*y = v->game.y + *y * v->game_scale + v->game_scale / 2;
		return 1;
	}
	return coords(w, x, y);
}

/* SIDE ARENA UNIT, words 1 to 3 (SIDE from 1). */
static int unit_args(const cmd_args *a, long long *side, long long *arena, long long *unit)
{
	return number(a->w[1], 1, VS_VIEW_MAX_SIDES, side) && number(a->w[2], 0, VS_TRACE_MAX_ARENAS - 1, arena) &&
		number(a->w[3], 0, UINT32_MAX, unit);
}

static int run_wait(cmd_args *a)
{
	long long n;

	if (!number(a->w[1], 0, WAIT_MAX, &n))
		return 0;
	a->sc->wait = (int)n;
	return 1;
}

/* The modifiers before a key's name (shift+, ctrl+, in any order); returns
 * where the name starts. */
static const char *key_mods(const char *p, Uint16 *mod)
{
	for (;;) {
		if (strncmp(p, "shift+", 6) == 0) {
			*mod |= KMOD_LSHIFT;
			p += 6;
		} else if (strncmp(p, "ctrl+", 5) == 0) {
			*mod |= KMOD_LCTRL;
			p += 5;
		} else {
			return p;
		}
	}
}

/* key [shift+][ctrl+]NAME: the rest of the line, as SDL names some keys in
 * two words ("Keypad Enter"). */
static int run_key(cmd_args *a)
{
	char name[512];
	const char *p = a->rest[1];
	size_t len = strlen(p);
	Uint16 mod = 0;
	SDL_Keycode key;

	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
		len--;
	if (len >= sizeof name)
		return fail(a->v, a->sc, "key name longer than %d bytes", (int)sizeof name - 1);
	memcpy(name, p, len);
	name[len] = '\0';
	p = key_mods(name, &mod);
	if (strcmp(p, "?") == 0) {
		/* as a keyboard sends it: shift+slash, then the text */
		push_key(a->v, SDLK_SLASH, KMOD_LSHIFT);
		push_text(a->v, "?");
		return 1;
	}
	key = SDL_GetKeyFromName(p);
	if (key == SDLK_UNKNOWN)
		return fail(a->v, a->sc, "unknown key '%s'", p);
	push_key(a->v, key, mod);
	return 1;
}

/* keydown NAME / keyup NAME: a key held over frames (vramsim play's game
 * keys). */
static int run_key_hold(cmd_args *a)
{
	SDL_Keycode key = SDL_GetKeyFromName(a->w[1]);

	if (key == SDLK_UNKNOWN)
		return fail(a->v, a->sc, "unknown key '%s'", a->w[1]);
	push_key_as(a->v, key, 0, strcmp(a->w[0], "keydown") == 0);
	return 1;
}

static int run_text(cmd_args *a)
{
	SDL_Event e;

	if (strlen(a->w[1]) >= sizeof e.text.text)
		return fail(a->v, a->sc, "text longer than %d bytes", (int)sizeof e.text.text - 1);
	push_text(a->v, a->w[1]);
	return 1;
}

static int run_move(cmd_args *a)
{
	int x, y;

	if (!point(a->v, a->w + 1, &x, &y))
		return 0;
	push_motion(a->v, x, y, 0);
	return 1;
}

static int run_wheel(cmd_args *a)
{
	long long dy, dx = 0;

	if (!number(a->w[1], -WHEEL_MAX, WHEEL_MAX, &dy) || (a->n == 3 && !number(a->w[2], -WHEEL_MAX, WHEEL_MAX, &dx)))
		return 0;
	push_wheel(a->v, (int)dy, (int)dx);
	return 1;
}

static int run_frame(cmd_args *a)
{
	long long n;

	if (!number(a->w[1], 0, EVENT_MAX, &n))
		return 0;
	a->v->playing = 0;
	if (input_go_frame(a->v, (uint64_t)n))
		return fail(a->v, a->sc, "frame %lld: no such frame", n);
	return 1;
}

static int run_find(cmd_args *a)
{
	if (strlen(a->w[1]) >= VIEW_PROMPT_MAX)
		return fail(a->v, a->sc, "find: longer than %d bytes", VIEW_PROMPT_MAX - 1);
	a->v->playing = 0;
	input_find(a->v, a->w[1], 1);
	return 1;
}

static int run_click(cmd_args *a)
{
	int x, y;

	if (!point(a->v, a->w + 1, &x, &y))
		return 0;
	push_motion(a->v, x, y, 0);
	push_button(a->v, x, y, 1);
	push_button(a->v, x, y, 0);
	return 1;
}

/* mousedown POINT / mouseup POINT: the left button held over frames
 * (vramsim play's touch screen). */
static int run_mouse_hold(cmd_args *a)
{
	int x, y;

	if (!point(a->v, a->w + 1, &x, &y))
		return 0;
	push_motion(a->v, x, y, a->w[0][5] == 'u');
	push_button(a->v, x, y, a->w[0][5] == 'd');
	return 1;
}

/* drag X1 Y1 X2 Y2, or drag timeline E1 E2: press, eight moves, release. */
static int run_drag(cmd_args *a)
{
	int x0, y0, x1, y1, i;
	long long e0, e1;

	if (a->n == 4) {
		if (strcmp(a->w[1], "timeline") != 0 || !number(a->w[2], 0, EVENT_MAX, &e0) ||
			!number(a->w[3], 0, EVENT_MAX, &e1))
			return 0;
		layout_timeline_point(a->v, (uint64_t)e0, &x0, &y0);
		layout_timeline_point(a->v, (uint64_t)e1, &x1, &y1);
	} else if (!coords(a->w + 1, &x0, &y0) || !coords(a->w + 3, &x1, &y1)) {
		return 0;
	}
	push_motion(a->v, x0, y0, 0);
	push_button(a->v, x0, y0, 1);
	for (i = 1; i <= 8; i++)
		push_motion(a->v, (int)(x0 + (long long)(x1 - x0) * i / 8), (int)(y0 + (long long)(y1 - y0) * i / 8), 1);
	push_button(a->v, x1, y1, 0);
	return 1;
}

static int run_locate_failure(cmd_args *a)
{
	long long k;
	int x, y;

	if (!number(a->w[2], 1, EVENT_MAX, &k))
		return 0;
	if (fails_row_point(a->v, (size_t)(k - 1), &x, &y))
		return fail(a->v, a->sc, "locate failure %lld: that row is not shown", k);
	view_log(a->v, "locate failure %lld %d %d", k, x, y);
	return 1;
}

/* The screen point of the unit that words 1 to 3 name (u: side, arena,
 * unit). 1 when it is on screen; otherwise 0 with *rc what the command
 * returns: 0 on a bad number (its usage message), fail()'s value when the
 * unit is not on screen. */
static int unit_point(cmd_args *a, long long u[3], int *x, int *y, int *rc)
{
	*rc = 0;
	if (!unit_args(a, &u[0], &u[1], &u[2]))
		return 0;
	if (layout_unit_centre(a->v, (int)u[0] - 1, (int)u[1], (uint32_t)u[2], x, y)) {
		*rc = fail(a->v, a->sc, "%s: no such unit on screen (side %lld arena ...)", a->w[0], u[0]);
		return 0;
	}
	return 1;
}

static int run_locate(cmd_args *a)
{
	long long u[3];
	int x, y, rc;

	if (!unit_point(a, u, &x, &y, &rc))
		return rc;
	view_log(a->v, "locate %lld %lld %lld %d %d", u[0], u[1], u[2], x, y);
	return 1;
}

static int run_hover(cmd_args *a)
{
	long long u[3];
	int x, y, rc;

	if (!unit_point(a, u, &x, &y, &rc))
		return rc;
	push_motion(a->v, x, y, 0);
	return 1;
}

static int run_seek(cmd_args *a)
{
	long long e;

	if (!number(a->w[1], 0, EVENT_MAX, &e))
		return 0;
	/* as frame N: past the end is an error, not the last event instead */
	if ((uint64_t)e > vs_timeline_recorded(a->v->tl))
		return fail(a->v, a->sc, "seek %lld: no such event: %s %llu events", e,
			vs_timeline_complete(a->v->tl) ? "the trace has" : "recorded so far:",
			(unsigned long long)vs_timeline_recorded(a->v->tl));
	a->v->playing = 0;
	view_seek(a->v, (uint64_t)e);
	return 1;
}

/* The window is resized and told so, as a window manager would. */
static int run_resize(cmd_args *a)
{
	SDL_Event e;
	long long w, h;

	if (!number(a->w[1], 1, SIZE_MAX_PX, &w) || !number(a->w[2], 1, SIZE_MAX_PX, &h))
		return 0;
	SDL_SetWindowSize(a->v->win, (int)w, (int)h);
	memset(&e, 0, sizeof e);
	e.type = SDL_WINDOWEVENT;
	e.window.windowID = SDL_GetWindowID(a->v->win);
	e.window.event = SDL_WINDOWEVENT_SIZE_CHANGED;
	e.window.data1 = (Sint32)w;
	e.window.data2 = (Sint32)h;
	push(&e);
	return 1;
}

static int run_screenshot(cmd_args *a)
{
	viewer *v = a->v;

	if (strlen(a->w[1]) >= sizeof v->shot_pending)
		return fail(v, a->sc, "screenshot path longer than %d bytes", (int)sizeof v->shot_pending - 1);
	snprintf(v->shot_pending, sizeof v->shot_pending, "%s", a->w[1]);
	return 1;
}

/* layout: where the panes and panel labels are, in the log. */
static int run_layout(cmd_args *a)
{
	layout_report(a->v);
	return 1;
}

static int run_print(cmd_args *a)
{
	char buf[2048];

	state_line(a->v, buf, sizeof buf);
	view_log(a->v, "%s", buf);
	return 1;
}

/* expect hover TEXT: the hover lines in the state line have TEXT (the rest
 * of the line). */
static int run_expect_hover(cmd_args *a)
{
	const char *text = a->n >= 3 ? a->rest[2] : "";
	char buf[2048];

	state_line(a->v, buf, sizeof buf);
	if (!strstr(strstr(buf, " hover"), text))
		return fail(a->v, a->sc, "expected hover text '%s'", text);
	return 1;
}

static int run_expect_title(cmd_args *a)
{
	const char *text = a->n >= 3 ? a->rest[2] : "", *title = SDL_GetWindowTitle(a->v->win);

	if (!title || !strstr(title, text))
		return fail(a->v, a->sc, "expected the title to have '%s'", text);
	return 1;
}

static int run_expect_range(cmd_args *a)
{
	long long lo0, hi0;
	uint64_t lo, hi;

	if (!number(a->w[2], 0, EVENT_MAX, &lo0) || !number(a->w[3], 0, EVENT_MAX, &hi0))
		return 0;
	layout_range(a->v, &lo, &hi);
	if ((uint64_t)lo0 != lo || (uint64_t)hi0 != hi)
		return fail(a->v, a->sc, "expected range %lld-%lld, got %llu-%llu", lo0, hi0, (unsigned long long)lo,
			(unsigned long long)hi);
	return 1;
}

/* expect NAME N: one of the state's numbers. */
static int run_expect_value(cmd_args *a)
{
	const viewer *v = a->v;
	uint64_t at = vs_timeline_at(v->tl);
	const struct { const char *name; long long value; } state[] = {
		{ "event", (long long)at },
		{ "paused", !v->playing },
		{ "help", v->help },
		{ "width", v->W },
		{ "height", v->H },
		{ "recorded", (long long)vs_timeline_recorded(v->tl) },
		{ "frame", (long long)vs_timeline_frame_at(v->tl, at) },
		{ "row", v->fails_open ? (long long)v->fail_sel + 1 : 0 },
		{ "failures", v->fails_open },
	};
	long long want;
	size_t i;

	if (!number(a->w[2], -EVENT_MAX, EVENT_MAX, &want))
		return 0;
	for (i = 0; i < sizeof state / sizeof state[0]; i++)
		if (strcmp(a->w[1], state[i].name) == 0)
			break;
	if (i == sizeof state / sizeof state[0])
		return 0;
	if (want != state[i].value)
		return fail(a->v, a->sc, "expected %s %lld, got %lld", a->w[1], want, state[i].value);
	return 1;
}

static int run_quit(cmd_args *a)
{
	a->v->quit = 1;
	return 1;
}

/* however many words: the handler reads the rest of the line */
#define ANY_WORDS (MAX_WORDS + 1)

/* A command: its name (and second word, for the forms of expect and
 * locate), how many words follow those, and what runs it. The first entry
 * that matches runs; docs/viewer.md describes each. */
typedef struct cmd_spec {
	const char *name, *sub;
	int min, max;
	int (*run)(cmd_args *a);
} cmd_spec;

static const cmd_spec commands[] = {
	{ "wait", NULL, 1, 1, run_wait },
	{ "key", NULL, 1, MAX_WORDS - 1, run_key },
	{ "keydown", NULL, 1, 1, run_key_hold },
	{ "keyup", NULL, 1, 1, run_key_hold },
	{ "text", NULL, 1, 1, run_text },
	{ "move", NULL, 2, 3, run_move },
	{ "mousedown", NULL, 2, 3, run_mouse_hold },
	{ "mouseup", NULL, 2, 3, run_mouse_hold },
	{ "wheel", NULL, 1, 2, run_wheel },
	{ "frame", NULL, 1, 1, run_frame },
	{ "find", NULL, 1, 1, run_find },
	{ "click", NULL, 2, 3, run_click },
	{ "drag", NULL, 3, 4, run_drag },
	{ "locate", "failure", 1, 1, run_locate_failure },
	{ "locate", NULL, 3, 3, run_locate },
	{ "hover", NULL, 3, 3, run_hover },
	{ "seek", NULL, 1, 1, run_seek },
	{ "resize", NULL, 2, 2, run_resize },
	{ "screenshot", NULL, 1, 1, run_screenshot },
	{ "print", NULL, 0, 0, run_print },
	{ "layout", NULL, 0, 0, run_layout },
	{ "expect", "hover", 0, ANY_WORDS, run_expect_hover },
	{ "expect", "title", 0, ANY_WORDS, run_expect_title },
	{ "expect", "range", 2, 2, run_expect_range },
	{ "expect", NULL, 2, 2, run_expect_value },
	{ "quit", NULL, 0, 0, run_quit },
};

static const cmd_spec *command_of(const cmd_args *a)
{
	size_t i;

	for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		const cmd_spec *c = &commands[i];
		if (strcmp(a->w[0], c->name) == 0 && (!c->sub || (a->n >= 2 && strcmp(a->w[1], c->sub) == 0)))
			return c;
	}
	return NULL;
}

/* The command line's words a name, and as many words as it takes; NULL
 * when they are not one. */
static const cmd_spec *understood(const cmd_args *a)
{
	const cmd_spec *c = command_of(a);
	int nargs;

	if (!c)
		return NULL;
	/* more than MAX_WORDS words only where the rest of the line is taken */
	nargs = a->n - (c->sub ? 2 : 1);
	if (nargs < c->min || nargs > c->max || (a->n > MAX_WORDS && c->max != ANY_WORDS))
		return NULL;
	return c;
}

/* Every line a command it knows, checked when the script is read: a typo
 * stops the run before it starts (it ran on to a failure at its line,
 * exit 1, the outputs written). 0, or -1 with err. */
static int check_commands(const script *sc, char *err, size_t errlen)
{
	cmd_args a;
	int i;

	for (i = 0; i < sc->n; i++) {
		a.n = words_of(sc->line[i], a.copy, sizeof a.copy, a.w, a.rest);
		if (a.n == 0 || a.w[0][0] == '#' || understood(&a))
			continue;
		snprintf(err, errlen, "%s:%d: cannot read '%s'", sc->path, i + 1, sc->line[i]);
		vs_text_escape_in_place(err, errlen); /* it quotes the script */
		return -1;
	}
	return 0;
}

/* Runs one command; returns 0 when it was not understood. */
static int run(viewer *v, script *sc, const char *line)
{
	cmd_args a;
	const cmd_spec *c;

	a.v = v;
	a.sc = sc;
	a.n = words_of(line, a.copy, sizeof a.copy, a.w, a.rest);
	if (a.n == 0 || a.w[0][0] == '#')
		return 1;
	c = understood(&a);
	return c ? c->run(&a) : 0;
}

int script_step(viewer *v, script *sc)
{
	if (sc->wait > 0) {
		sc->wait--;
		return 1;
	}
	while (sc->pc < sc->n) {
		char *cmd = sc->line[sc->pc++];
		const char *p = cmd;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (!run(v, sc, cmd))
			fail(v, sc, "cannot read '%s'", cmd);
		return 1;
	}
	return 0;
}
