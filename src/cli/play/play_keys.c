/* SPDX-License-Identifier: Zlib */
/* play_keys.c - the key map and the player's input for `vramsim play`
 * (play_keys.h). */
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
	/* bit k of KEYINPUT: a b select start right left up down r l */
	static const SDL_Keycode gba[PLAY_GBA_KEYS] = {
		SDLK_x, SDLK_z, SDLK_BACKSPACE, SDLK_RETURN, SDLK_RIGHT, SDLK_LEFT, SDLK_UP, SDLK_DOWN, SDLK_s, SDLK_a
	};
	static const SDL_Keycode act[PLAY_ACTIONS] = { SDLK_SPACE, SDLK_PERIOD, SDLK_TAB, SDLK_F5, SDLK_F6 };
	int i;

	memset(m, 0, sizeof *m);
	for (i = 0; i < PLAY_GBA_KEYS; i++)
		m->gba[i][0] = gba[i];
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

/* The keys a name binds: a GBA key's or an action's; NULL when the name is
 * neither. */
static SDL_Keycode *slots_of(play_keymap *m, const char *name)
{
	char key[16];
	int i;

	for (i = 0; i < PLAY_GBA_KEYS; i++) {
		vs_input_keys_name((uint16_t)(1u << i), key, sizeof key);
		if (strcmp(name, key) == 0)
			return m->gba[i];
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
		return bad(err, errlen, path, line, (size_t)(name - s), "'%s' is not a GBA key (a b select start right "
			"left up down r l) or an action (pause step fast savestate write)", name);
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
		snprintf(err, errlen, "%s: cannot open the key map", path);
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
		snprintf(err, errlen, "%s: read error", path);
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

/* A GBA key's bit from a controller button (SDL's mapping names buttons
 * by an Xbox pad's places), 0 for none. */
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

	for (i = 0; i < PLAY_GBA_KEYS; i++)
		if (bound(in->map->gba[i], k->keysym.sym)) {
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

int play_input_event(play_input *in, const SDL_Event *e, int *action)
{
	*action = -1;
	switch (e->type) {
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

uint16_t play_input_frame(play_input *in)
{
	uint16_t keys = in->held | in->tapped;

	in->tapped = 0;
	return keys;
}
