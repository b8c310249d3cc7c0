/* SPDX-License-Identifier: Zlib */
/* play_keys.c - the key map and the player's input for `vramsim play`
 * (play_keys.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "base/text.h"
#include "cli/play/play_keys.h"
#include "console/common/input_script.h"

static const char *const action_names[PLAY_ACTIONS] = { "pause", "step", "fast", "savestate", "write" };

void play_keymap_default(play_keymap *m)
{
	/* bit k of KEYINPUT: a b select start right left up down r l; then
	 * the DS's x y */
	static const SDL_Keycode keys[PLAY_KEYS] = {
		SDLK_x, SDLK_z, SDLK_BACKSPACE, SDLK_RETURN, SDLK_RIGHT, SDLK_LEFT, SDLK_UP, SDLK_DOWN, SDLK_s, SDLK_a,
		SDLK_d, SDLK_c
	};
	static const SDL_Keycode act[PLAY_ACTIONS] = { SDLK_SPACE, SDLK_PERIOD, SDLK_TAB, SDLK_F5, SDLK_F6 };
	int i;

	memset(m, 0, sizeof *m);
	for (i = 0; i < PLAY_KEYS; i++)
		m->key[i][0] = keys[i];
	for (i = 0; i < PLAY_ACTIONS; i++)
		m->action[i][0] = act[i];
}

const char *play_keymap_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	FILE *fp;
	int n;

	if (xdg && *xdg)
		n = snprintf(buf, len, "%s/vramsim/play-keys", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.config/vramsim/play-keys", home);
	else
		return NULL;
	if (n < 0 || (size_t)n >= len || !(fp = fopen(buf, "r")))
		return NULL;
	fclose(fp);
	return buf;
}

/* The keys a name binds: a console key's or an action's; NULL when the
 * name is neither. */
static SDL_Keycode *slots_of(play_keymap *m, const char *name)
{
	char key[16];
	int i;

	for (i = 0; i < PLAY_KEYS; i++) {
		vs_input_keys_name((uint16_t)(1u << i), key, sizeof key);
		if (strcmp(name, key) == 0)
			return m->key[i];
	}
	for (i = 0; i < PLAY_ACTIONS; i++)
		if (strcmp(name, action_names[i]) == 0)
			return m->action[i];
	return NULL;
}

static int bad(char *err, size_t errlen, const char *path, int line, size_t col, const char *fmt, const char *what)
{
	char msg[256];

	snprintf(msg, sizeof msg, fmt, what);
	snprintf(err, errlen, "%s:%d:%zu: error: %s", path, line, col + 1, msg);
	vs_text_escape_in_place(err, errlen);
	return -1;
}

/* One line `NAME = KEY [KEY...]` (a blank or comment line: nothing). */
static int read_line(play_keymap *m, char *s, const char *path, int line, char *err, size_t errlen)
{
	char *p = s, *name, *word;
	SDL_Keycode *slot;
	int n = 0;

	s[strcspn(s, "#\r\n")] = '\0';
	p += strspn(p, " \t");
	if (!*p)
		return 0;
	name = p;
	p += strcspn(p, " \t=");
	if (*p != '=')
		*p++ = '\0', p += strspn(p, " \t");
	if (*p != '=')
		return bad(err, errlen, path, line, (size_t)(p - s), "expected NAME = KEY, got '%s'", name);
	*p++ = '\0';
	if (!(slot = slots_of(m, name)))
		return bad(err, errlen, path, line, (size_t)(name - s), "'%s' is not a key (a b select start right "
			"left up down r l x y) or an action (pause step fast savestate write)", name);
	memset(slot, 0, sizeof(SDL_Keycode) * PLAY_BINDINGS);
	while (*(p += strspn(p, " \t"))) {
		SDL_Keycode k;
		char save;
		word = p;
		/* SDL names some keys in two words ("Keypad Enter"): '+' joins them */
		p += strcspn(p, " \t");
		save = *p;
		*p = '\0';
		for (char *q = word; *q; q++)
			if (*q == '+')
				*q = ' ';
		k = SDL_GetKeyFromName(word);
		if (k == SDLK_UNKNOWN)
			return bad(err, errlen, path, line, (size_t)(word - s), "unknown key '%s' (SDL's key names)", word);
		if (n == PLAY_BINDINGS)
			return bad(err, errlen, path, line, (size_t)(word - s), "more than 4 keys for '%s'", name);
		slot[n++] = k;
		*p = save;
	}
	if (!n)
		return bad(err, errlen, path, line, (size_t)(p - s), "no key for '%s'", name);
	return 0;
}

int play_keymap_load(play_keymap *m, const char *path, char *err, size_t errlen)
{
	FILE *fp = vs_in_open(path, "r");
	char buf[512];
	int line = 0, rc = 0;

	if (!fp) {
		snprintf(err, errlen, "%s: cannot open the key map: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && fgets(buf, sizeof buf, fp)) {
		line++;
		if (!strchr(buf, '\n') && !feof(fp))
			rc = bad(err, errlen, path, line, sizeof buf - 1, "%s", "line longer than 510 bytes");
		else
			rc = read_line(m, buf, path, line, err, errlen);
	}
	if (rc == 0 && ferror(fp)) {
		snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
		rc = -1;
	}
	fclose(fp);
	return rc;
}

/* ---- events ----------------------------------------------------------------- */

static int bound(const SDL_Keycode *slot, SDL_Keycode k)
{
	int i;

	for (i = 0; i < PLAY_BINDINGS; i++)
		if (slot[i] && slot[i] == k)
			return 1;
	return 0;
}

/* A key's bit from a controller button (SDL's mapping names buttons by an
 * Xbox pad's places; they go by name: SDL's X is the DS's X), 0 for none. */
static uint16_t button_key(Uint8 b)
{
	switch (b) {
	case SDL_CONTROLLER_BUTTON_A: return VS_KEY_A;
	case SDL_CONTROLLER_BUTTON_B: return VS_KEY_B;
	case SDL_CONTROLLER_BUTTON_BACK: return VS_KEY_SELECT;
	case SDL_CONTROLLER_BUTTON_START: return VS_KEY_START;
	case SDL_CONTROLLER_BUTTON_DPAD_RIGHT: return VS_KEY_RIGHT;
	case SDL_CONTROLLER_BUTTON_DPAD_LEFT: return VS_KEY_LEFT;
	case SDL_CONTROLLER_BUTTON_DPAD_UP: return VS_KEY_UP;
	case SDL_CONTROLLER_BUTTON_DPAD_DOWN: return VS_KEY_DOWN;
	case SDL_CONTROLLER_BUTTON_RIGHTSHOULDER: return VS_KEY_R;
	case SDL_CONTROLLER_BUTTON_LEFTSHOULDER: return VS_KEY_L;
	case SDL_CONTROLLER_BUTTON_X: return VS_KEY_X;
	case SDL_CONTROLLER_BUTTON_Y: return VS_KEY_Y;
	default: return 0;
	}
}

static void set_key(play_input *in, uint16_t bit, int down)
{
	if (down) {
		in->held |= bit;
		in->tapped |= bit;
		in->pressed = 1;
	} else {
		in->held &= (uint16_t)~bit;
	}
}

static int key_event(play_input *in, const SDL_KeyboardEvent *k, int *action)
{
	int down = k->type == SDL_KEYDOWN, i;

	for (i = 0; i < PLAY_KEYS; i++)
		if (bound(in->map->key[i], k->keysym.sym)) {
			set_key(in, (uint16_t)(1u << i), down);
			return 1;
		}
	for (i = 0; i < PLAY_ACTIONS; i++)
		if (bound(in->map->action[i], k->keysym.sym)) {
			if (i == PLAY_FAST)
				in->fast = down;
			else if (down && !k->repeat)
				*action = i;
			return 1;
		}
	return 0;
}

void play_input_placed(play_input *in, int x, int y, int scale)
{
	in->gx = x;
	in->gy = y;
	in->gk = scale > 0 ? scale : 1;
}

/* The touch screen's pixel under window point (x, y), clamped to it; 1
 * when the point is on it. */
static int touch_point(play_input *in, int x, int y, uint8_t *tx, uint8_t *ty)
{
	int k = in->gk > 0 ? in->gk : 1; /* not placed yet: no event comes before the window is laid out */
	int px = (x - in->gx) / k, py = (y - in->gy) / k - 192;
	int on = x >= in->gx && y >= in->gy && px < 256 && py >= 0 && py < 192;

	*tx = (uint8_t)(px < 0 ? 0 : px > 255 ? 255 : px);
	*ty = (uint8_t)(py < 0 ? 0 : py > 191 ? 191 : py);
	return on;
}

/* The left button on the touch screen is the stylus: down on it, dragged
 * (clamped to its edges), up. Elsewhere the mouse is the viewer's. */
static int mouse_event(play_input *in, const SDL_Event *e)
{
	uint8_t x, y;

	if (!in->touch_screen)
		return 0;
	if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT) {
		if (!touch_point(in, e->button.x, e->button.y, &x, &y))
			return 0;
		in->touching = in->touch_tapped = in->pressed = 1;
		in->tx = x, in->ty = y;
		return 1;
	}
	if (!in->touching)
		return 0;
	if (e->type == SDL_MOUSEMOTION) {
		touch_point(in, e->motion.x, e->motion.y, &in->tx, &in->ty);
		return 1;
	}
	if (e->type == SDL_MOUSEBUTTONUP && e->button.button == SDL_BUTTON_LEFT) {
		touch_point(in, e->button.x, e->button.y, &in->tx, &in->ty);
		in->touching = 0;
		return 1;
	}
	return 0;
}

int play_input_event(play_input *in, const SDL_Event *e, int *action)
{
	*action = -1;
	switch (e->type) {
	case SDL_MOUSEBUTTONDOWN:
	case SDL_MOUSEBUTTONUP:
	case SDL_MOUSEMOTION:
		return mouse_event(in, e);
	case SDL_KEYDOWN:
	case SDL_KEYUP:
		/* with ctrl or alt held a key is the viewer's */
		if (e->key.keysym.mod & (KMOD_CTRL | KMOD_ALT))
			return 0;
		return key_event(in, &e->key, action);
	case SDL_CONTROLLERDEVICEADDED:
		SDL_GameControllerOpen(e->cdevice.which);
		return 1;
	case SDL_CONTROLLERBUTTONDOWN:
	case SDL_CONTROLLERBUTTONUP:
		if (button_key(e->cbutton.button))
			set_key(in, button_key(e->cbutton.button), e->type == SDL_CONTROLLERBUTTONDOWN);
		return 1;
	default:
		return 0;
	}
}

vs_play_input play_input_frame(play_input *in)
{
	vs_play_input next;

	next.keys = in->held | in->tapped;
	next.touch = (uint8_t)(in->touching || in->touch_tapped);
	next.x = in->tx;
	next.y = in->ty;
	in->tapped = 0;
	in->touch_tapped = 0;
	return next;
}
