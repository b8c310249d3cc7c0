/* SPDX-License-Identifier: Zlib */
/* script.c - scripted input for the viewer (tests, demos, measurements).
 *
 * A script is a text file of commands, one a line, run one per frame once
 * the whole trace is recorded. Input commands push real SDL events (key
 * presses, mouse moves, clicks, drags) so they take the same path as a
 * person's input; the rest inspect or save state. docs/viewer.md lists them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_int.h"

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

script *script_load(const char *path, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	script *sc;
	char buf[1024];

	if (!fp) {
		snprintf(err, errlen, "%s: cannot open the script", path);
		return NULL;
	}
	sc = calloc(1, sizeof *sc);
	if (!sc) {
		fclose(fp);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(sc->path, sizeof sc->path, "%s", path);
	while (fgets(buf, sizeof buf, fp)) {
		char **nl = realloc(sc->line, (size_t)(sc->n + 1) * sizeof *nl);
		size_t len = strcspn(buf, "\r\n");
		if (!nl)
			break;
		sc->line = nl;
		buf[len] = 0;
		sc->line[sc->n] = malloc(len + 1);
		if (!sc->line[sc->n])
			break;
		memcpy(sc->line[sc->n++], buf, len + 1);
	}
	fclose(fp);
	return sc;
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

static int fail(viewer *v, script *sc, const char *fmt, const char *a, long long x, long long y)
{
	char msg[512];

	snprintf(msg, sizeof msg, fmt, a, x, y);
	view_log(v, "%s:%d: %s", sc->path, sc->pc, msg);
	v->script_failed = 1;
	return 1;
}

static void state_line(viewer *v, char *buf, size_t len)
{
	int i;
	size_t k;

	snprintf(buf, len, "state event %llu frame %llu recorded %llu %s speed %g help %d size %dx%d hover",
		(unsigned long long)vs_timeline_at(v->tl), (unsigned long long)vs_timeline_frame_at(v->tl, vs_timeline_at(v->tl)),
		(unsigned long long)vs_timeline_recorded(v->tl), v->playing ? "playing" : "paused", view_speed(v), v->help,
		v->W, v->H);
	for (i = 0; i < v->nhover; i++) {
		k = strlen(buf);
		snprintf(buf + k, len - k, " | %s", v->hover[i]);
	}
}

/* Runs one command; returns 0 when it was not understood. */
static int run(viewer *v, script *sc, char *cmd)
{
	char word[64] = "", arg[512] = "";
	long long a = 0, b = 0, c = 0, d = 0;
	int n;

	n = sscanf(cmd, "%63s", word);
	if (n <= 0 || word[0] == '#')
		return 1;
	if (strcmp(word, "wait") == 0) {
		if (sscanf(cmd, "%*s %lld", &a) != 1 || a < 0)
			return 0;
		sc->wait = (int)a;
	} else if (strcmp(word, "key") == 0) {
		char *p = arg;
		Uint16 mod = 0;
		SDL_Keycode key;
		if (sscanf(cmd, "%*s %511s", arg) != 1)
			return 0;
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
			return fail(v, sc, "unknown key '%s'", p, 0, 0);
		push_key(v, key, mod);
	} else if (strcmp(word, "text") == 0) {
		if (sscanf(cmd, "%*s %511s", arg) != 1)
			return 0;
		push_text(v, arg);
	} else if (strcmp(word, "move") == 0) {
		if (sscanf(cmd, "%*s %lld %lld", &a, &b) != 2)
			return 0;
		push_motion(v, (int)a, (int)b, 0);
	} else if (strcmp(word, "click") == 0) {
		int x, y;
		if (sscanf(cmd, "%*s timeline %lld", &c) == 1 && c >= 0) {
			view_timeline_point(v, (uint64_t)c, &x, &y);
			a = x;
			b = y;
		} else if (sscanf(cmd, "%*s %lld %lld", &a, &b) != 2) {
			return 0;
		}
		push_motion(v, (int)a, (int)b, 0);
		push_button(v, (int)a, (int)b, 1);
		push_button(v, (int)a, (int)b, 0);
	} else if (strcmp(word, "drag") == 0) {
		int i, x, y;
		long long e0, e1;
		if (sscanf(cmd, "%*s timeline %lld %lld", &e0, &e1) == 2 && e0 >= 0 && e1 >= 0) {
			view_timeline_point(v, (uint64_t)e0, &x, &y);
			a = x;
			b = y;
			view_timeline_point(v, (uint64_t)e1, &x, &y);
			c = x;
			d = y;
		} else if (sscanf(cmd, "%*s %lld %lld %lld %lld", &a, &b, &c, &d) != 4) {
			return 0;
		}
		push_motion(v, (int)a, (int)b, 0);
		push_button(v, (int)a, (int)b, 1);
		for (i = 1; i <= 8; i++)
			push_motion(v, (int)(a + (c - a) * i / 8), (int)(b + (d - b) * i / 8), 1);
		push_button(v, (int)c, (int)d, 0);
	} else if (strcmp(word, "hover") == 0 || strcmp(word, "locate") == 0) {
		int x, y;
		if (sscanf(cmd, "%*s %lld %lld %lld", &a, &b, &c) != 3)
			return 0;
		if (view_unit_centre(v, (int)a - 1, (int)b, (uint32_t)c, &x, &y))
			return fail(v, sc, "%s: no such unit on screen (side %lld arena ...)", word, a, 0);
		if (word[0] == 'h')
			push_motion(v, x, y, 0);
		else
			view_log(v, "locate %lld %lld %lld %d %d", a, b, c, x, y);
	} else if (strcmp(word, "seek") == 0) {
		if (sscanf(cmd, "%*s %lld", &a) != 1 || a < 0)
			return 0;
		v->playing = 0;
		view_seek(v, (uint64_t)a);
	} else if (strcmp(word, "resize") == 0) {
		SDL_Event e;
		if (sscanf(cmd, "%*s %lld %lld", &a, &b) != 2 || a <= 0 || b <= 0)
			return 0;
		SDL_SetWindowSize(v->win, (int)a, (int)b);
		memset(&e, 0, sizeof e);
		e.type = SDL_WINDOWEVENT;
		e.window.windowID = SDL_GetWindowID(v->win);
		e.window.event = SDL_WINDOWEVENT_SIZE_CHANGED;
		e.window.data1 = (Sint32)a;
		e.window.data2 = (Sint32)b;
		push(&e);
	} else if (strcmp(word, "screenshot") == 0) {
		if (sscanf(cmd, "%*s %511s", arg) != 1)
			return 0;
		snprintf(v->shot_pending, sizeof v->shot_pending, "%s", arg);
	} else if (strcmp(word, "print") == 0) {
		char buf[2048];
		state_line(v, buf, sizeof buf);
		view_log(v, "%s", buf);
	} else if (strcmp(word, "expect") == 0) {
		char what[32] = "";
		if (sscanf(cmd, "%*s %31s", what) != 1)
			return 0;
		if (strcmp(what, "hover") == 0) {
			const char *text = strstr(cmd, "hover") + 5;
			char buf[2048];
			while (*text == ' ')
				text++;
			state_line(v, buf, sizeof buf);
			if (!strstr(strstr(buf, " hover"), text))
				return fail(v, sc, "expected hover text '%s'", text, 0, 0);
			return 1;
		}
		if (sscanf(cmd, "%*s %*s %lld", &a) != 1)
			return 0;
		if (strcmp(what, "event") == 0) {
			b = (long long)vs_timeline_at(v->tl);
		} else if (strcmp(what, "paused") == 0) {
			b = !v->playing;
		} else if (strcmp(what, "help") == 0) {
			b = v->help;
		} else if (strcmp(what, "width") == 0) {
			b = v->W;
		} else if (strcmp(what, "height") == 0) {
			b = v->H;
		} else if (strcmp(what, "recorded") == 0) {
			b = (long long)vs_timeline_recorded(v->tl);
		} else {
			return 0;
		}
		if (a != b)
			return fail(v, sc, "expected %s %lld, got %lld", what, a, b);
	} else if (strcmp(word, "quit") == 0) {
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
			fail(v, sc, "cannot read '%s'", cmd, 0, 0);
		return 1;
	}
	return 0;
}
