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

#include "viewer_int.h"
#include "vramsim/grow.h"
#include "vramsim/text.h"

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

script *script_load(const char *path, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	script *sc;
	char buf[SCRIPT_LINE_MAX + 2];
	int cap = 0;

	if (!fp) {
		snprintf(err, errlen, "%s: cannot open the script", path);
		vs_escape_in_place(err, errlen);
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
		snprintf(err, errlen, "%s: read error", path);
		goto bad;
	}
	fclose(fp);
	return sc;
nomem:
	snprintf(err, errlen, "out of memory");
bad:
	vs_escape_in_place(err, errlen);
	fclose(fp);
	script_free(sc);
	return NULL;
}

static void push(SDL_Event *e)
{
	SDL_PushEvent(e);
}

static void push_key(viewer *v, SDL_Keycode key, Uint16 mod)
{
	SDL_Event e;

	memset(&e, 0, sizeof e);
	e.type = SDL_KEYDOWN;
	e.key.windowID = SDL_GetWindowID(v->win);
	e.key.state = SDL_PRESSED;
	e.key.keysym.sym = key;
	e.key.keysym.scancode = SDL_GetScancodeFromKey(key);
	e.key.keysym.mod = mod;
	push(&e);
	e.type = SDL_KEYUP;
	e.key.state = SDL_RELEASED;
	push(&e);
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
static int fail(viewer *v, script *sc, const char *fmt, ...) VIEW_PRINTF(3, 4);
static int fail(viewer *v, script *sc, const char *fmt, ...)
{
	char msg[1280]; /* a script line is at most 1023 bytes */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	vs_escape_in_place(msg, sizeof msg); /* it quotes the script */
	view_log(v, "%s:%d: %s", sc->path, sc->pc, msg);
	v->script_failed = 1;
	return 1;
}

static void state_line(viewer *v, char *buf, size_t len)
{
	int i;
	size_t k;
	uint64_t lo, hi;

	view_range(v, &lo, &hi);
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
	vs_escape_in_place(buf, len); /* it quotes typed text and the trace's tags */
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

/* Runs one command; returns 0 when it was not understood. */
static int run(viewer *v, script *sc, char *cmd)
{
	char copy[1100], *w[MAX_WORDS];
	const char *rest[MAX_WORDS];
	long long a = 0, b = 0, c = 0, d = 0;
	int n = words_of(cmd, copy, sizeof copy, w, rest);

	if (n == 0 || w[0][0] == '#')
		return 1;
	/* expect hover / title take the rest of the line, however many words */
	if (n > MAX_WORDS && !(strcmp(w[0], "expect") == 0 && (strcmp(w[1], "hover") == 0 || strcmp(w[1], "title") == 0)))
		return 0;
	if (strcmp(w[0], "wait") == 0) {
		if (n != 2 || !number(w[1], 0, WAIT_MAX, &a))
			return 0;
		sc->wait = (int)a;
	} else if (strcmp(w[0], "key") == 0) {
		char name[512];
		const char *p;
		Uint16 mod = 0;
		SDL_Keycode key;
		size_t len;
		if (n < 2)
			return 0;
		/* the rest of the line: SDL names some keys in two words ("Page Up") */
		p = rest[1];
		len = strlen(p);
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len >= sizeof name)
			return fail(v, sc, "key name longer than %d bytes", (int)sizeof name - 1);
		memcpy(name, p, len);
		name[len] = '\0';
		p = name;
		for (;;) {
			if (strncmp(p, "shift+", 6) == 0) {
				mod |= KMOD_LSHIFT;
				p += 6;
			} else if (strncmp(p, "ctrl+", 5) == 0) {
				mod |= KMOD_LCTRL;
				p += 5;
			} else {
				break;
			}
		}
		if (strcmp(p, "?") == 0) {
			/* as a keyboard sends it: shift+slash, then the text */
			push_key(v, SDLK_SLASH, KMOD_LSHIFT);
			push_text(v, "?");
			return 1;
		}
		key = SDL_GetKeyFromName(p);
		if (key == SDLK_UNKNOWN)
			return fail(v, sc, "unknown key '%s'", p);
		push_key(v, key, mod);
	} else if (strcmp(w[0], "text") == 0) {
		SDL_Event e;
		if (n != 2)
			return 0;
		if (strlen(w[1]) >= sizeof e.text.text)
			return fail(v, sc, "text longer than %d bytes", (int)sizeof e.text.text - 1);
		push_text(v, w[1]);
	} else if (strcmp(w[0], "move") == 0) {
		int x, y;
		if (n == 3 && strcmp(w[1], "timeline") == 0 && number(w[2], 0, EVENT_MAX, &c)) {
			view_timeline_point(v, (uint64_t)c, &x, &y);
			a = x;
			b = y;
		} else if (n != 3 || !number(w[1], -COORD_MAX, COORD_MAX, &a) || !number(w[2], -COORD_MAX, COORD_MAX, &b)) {
			return 0;
		}
		push_motion(v, (int)a, (int)b, 0);
	} else if (strcmp(w[0], "wheel") == 0) {
		if ((n != 2 && n != 3) || !number(w[1], -WHEEL_MAX, WHEEL_MAX, &a) ||
			(n == 3 && !number(w[2], -WHEEL_MAX, WHEEL_MAX, &b)))
			return 0;
		push_wheel(v, (int)a, (int)b);
	} else if (strcmp(w[0], "frame") == 0) {
		if (n != 2 || !number(w[1], 0, EVENT_MAX, &a))
			return 0;
		v->playing = 0;
		if (view_go_frame(v, (uint64_t)a))
			return fail(v, sc, "frame %lld: no such frame", a);
	} else if (strcmp(w[0], "find") == 0) {
		if (n != 2)
			return 0;
		if (strlen(w[1]) >= VIEW_PROMPT_MAX)
			return fail(v, sc, "find: longer than %d bytes", VIEW_PROMPT_MAX - 1);
		v->playing = 0;
		view_find(v, w[1], 1);
	} else if (strcmp(w[0], "click") == 0) {
		int x, y;
		if (n == 3 && strcmp(w[1], "timeline") == 0 && number(w[2], 0, EVENT_MAX, &c)) {
			view_timeline_point(v, (uint64_t)c, &x, &y);
			a = x;
			b = y;
		} else if (n != 3 || !number(w[1], -COORD_MAX, COORD_MAX, &a) || !number(w[2], -COORD_MAX, COORD_MAX, &b)) {
			return 0;
		}
		push_motion(v, (int)a, (int)b, 0);
		push_button(v, (int)a, (int)b, 1);
		push_button(v, (int)a, (int)b, 0);
	} else if (strcmp(w[0], "drag") == 0) {
		int i, x, y;
		long long e0, e1;
		if (n == 4 && strcmp(w[1], "timeline") == 0 && number(w[2], 0, EVENT_MAX, &e0) &&
			number(w[3], 0, EVENT_MAX, &e1)) {
			view_timeline_point(v, (uint64_t)e0, &x, &y);
			a = x;
			b = y;
			view_timeline_point(v, (uint64_t)e1, &x, &y);
			c = x;
			d = y;
		} else if (n != 5 || !number(w[1], -COORD_MAX, COORD_MAX, &a) || !number(w[2], -COORD_MAX, COORD_MAX, &b) ||
			!number(w[3], -COORD_MAX, COORD_MAX, &c) || !number(w[4], -COORD_MAX, COORD_MAX, &d)) {
			return 0;
		}
		push_motion(v, (int)a, (int)b, 0);
		push_button(v, (int)a, (int)b, 1);
		for (i = 1; i <= 8; i++)
			push_motion(v, (int)(a + (c - a) * i / 8), (int)(b + (d - b) * i / 8), 1);
		push_button(v, (int)c, (int)d, 0);
	} else if (strcmp(w[0], "locate") == 0 && n == 3 && strcmp(w[1], "failure") == 0) {
		int x, y;
		if (!number(w[2], 1, EVENT_MAX, &a))
			return 0;
		if (view_fail_row_point(v, (size_t)(a - 1), &x, &y))
			return fail(v, sc, "locate failure %lld: that row is not shown", a);
		view_log(v, "locate failure %lld %d %d", a, x, y);
	} else if (strcmp(w[0], "hover") == 0 || strcmp(w[0], "locate") == 0) {
		int x, y;
		if (n != 4 || !number(w[1], 1, VS_VIEW_MAX_SIDES, &a) || !number(w[2], 0, VS_TRACE_MAX_ARENAS - 1, &b) ||
			!number(w[3], 0, UINT32_MAX, &c))
			return 0;
		if (view_unit_centre(v, (int)a - 1, (int)b, (uint32_t)c, &x, &y))
			return fail(v, sc, "%s: no such unit on screen (side %lld arena ...)", w[0], a);
		if (w[0][0] == 'h')
			push_motion(v, x, y, 0);
		else
			view_log(v, "locate %lld %lld %lld %d %d", a, b, c, x, y);
	} else if (strcmp(w[0], "seek") == 0) {
		if (n != 2 || !number(w[1], 0, EVENT_MAX, &a))
			return 0;
		v->playing = 0;
		view_seek(v, (uint64_t)a);
	} else if (strcmp(w[0], "resize") == 0) {
		SDL_Event e;
		if (n != 3 || !number(w[1], 1, SIZE_MAX_PX, &a) || !number(w[2], 1, SIZE_MAX_PX, &b))
			return 0;
		SDL_SetWindowSize(v->win, (int)a, (int)b);
		memset(&e, 0, sizeof e);
		e.type = SDL_WINDOWEVENT;
		e.window.windowID = SDL_GetWindowID(v->win);
		e.window.event = SDL_WINDOWEVENT_SIZE_CHANGED;
		e.window.data1 = (Sint32)a;
		e.window.data2 = (Sint32)b;
		push(&e);
	} else if (strcmp(w[0], "screenshot") == 0) {
		if (n != 2)
			return 0;
		if (strlen(w[1]) >= sizeof v->shot_pending)
			return fail(v, sc, "screenshot path longer than %d bytes", (int)sizeof v->shot_pending - 1);
		snprintf(v->shot_pending, sizeof v->shot_pending, "%s", w[1]);
	} else if (strcmp(w[0], "print") == 0) {
		char buf[2048];
		if (n != 1)
			return 0;
		state_line(v, buf, sizeof buf);
		view_log(v, "%s", buf);
	} else if (strcmp(w[0], "expect") == 0) {
		if (n >= 2 && strcmp(w[1], "hover") == 0) {
			const char *text = n >= 3 ? rest[2] : "";
			char buf[2048];
			state_line(v, buf, sizeof buf);
			if (!strstr(strstr(buf, " hover"), text))
				return fail(v, sc, "expected hover text '%s'", text);
			return 1;
		}
		if (n >= 2 && strcmp(w[1], "title") == 0) {
			const char *text = n >= 3 ? rest[2] : "", *title = SDL_GetWindowTitle(v->win);
			if (!title || !strstr(title, text))
				return fail(v, sc, "expected the title to have '%s'", text);
			return 1;
		}
		if (n == 4 && strcmp(w[1], "range") == 0) {
			uint64_t lo, hi;
			if (!number(w[2], 0, EVENT_MAX, &a) || !number(w[3], 0, EVENT_MAX, &b))
				return 0;
			view_range(v, &lo, &hi);
			if ((uint64_t)a != lo || (uint64_t)b != hi)
				return fail(v, sc, "expected range %lld-%lld, got %llu-%llu", a, b, (unsigned long long)lo,
					(unsigned long long)hi);
			return 1;
		}
		if (n != 3 || !number(w[2], -EVENT_MAX, EVENT_MAX, &a))
			return 0;
		if (strcmp(w[1], "event") == 0) {
			b = (long long)vs_timeline_at(v->tl);
		} else if (strcmp(w[1], "paused") == 0) {
			b = !v->playing;
		} else if (strcmp(w[1], "help") == 0) {
			b = v->help;
		} else if (strcmp(w[1], "width") == 0) {
			b = v->W;
		} else if (strcmp(w[1], "height") == 0) {
			b = v->H;
		} else if (strcmp(w[1], "recorded") == 0) {
			b = (long long)vs_timeline_recorded(v->tl);
		} else if (strcmp(w[1], "frame") == 0) {
			b = (long long)vs_timeline_frame_at(v->tl, vs_timeline_at(v->tl));
		} else if (strcmp(w[1], "row") == 0) {
			b = v->fails_open ? (long long)v->fail_sel + 1 : 0;
		} else if (strcmp(w[1], "failures") == 0) {
			b = v->fails_open;
		} else {
			return 0;
		}
		if (a != b)
			return fail(v, sc, "expected %s %lld, got %lld", w[1], a, b);
	} else if (strcmp(w[0], "quit") == 0) {
		if (n != 1)
			return 0;
		v->quit = 1;
	} else {
		return 0;
	}
	return 1;
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
