/* SPDX-License-Identifier: Zlib */
/* play_keys.h - `vramsim play`'s keys: the key map (a default, changed by a
 * small config file, docs/play.md) and SDL's keyboard, game controller and
 * mouse events turned into the console's keys, the DS stylus and session
 * actions. */
#ifndef VS_CLI_PLAY_KEYS_H
#define VS_CLI_PLAY_KEYS_H

#include <stddef.h>
#include <stdint.h>

/* SDL's parts, not SDL.h (viewer/viewer_int.h says why) */
#include <SDL_events.h>
#include <SDL_gamecontroller.h>

#include "play/play.h"

/* What a key does besides the console's keys. */
enum {
	PLAY_PAUSE,     /* pause / resume */
	PLAY_STEP,      /* one frame forward, paused */
	PLAY_FAST,      /* fast forward while held */
	PLAY_SAVESTATE, /* write a savestate */
	PLAY_WRITE,     /* write -o and --keys-out now */
	PLAY_ACTIONS
};

#define PLAY_KEYS 12     /* VS_KEY_A .. VS_KEY_L, then the DS's VS_KEY_X, VS_KEY_Y */
#define PLAY_BINDINGS 4  /* keyboard keys per console key or action */

typedef struct play_keymap {
	SDL_Keycode key[PLAY_KEYS][PLAY_BINDINGS];
	SDL_Keycode action[PLAY_ACTIONS][PLAY_BINDINGS];
} play_keymap;

/* The default map (docs/play.md). */
void play_keymap_default(play_keymap *m);
/* Reads a key map file over m: lines `NAME = KEY [KEY...]`, NAME a console
 * key (a b select start right left up down r l x y: x and y the DS's) or an
 * action (pause step fast savestate write), KEY as SDL names keys ("X", "Return", "Left", "F5"); '#'
 * starts a comment. A name given replaces its default keys. 0, or -1 with
 * "file:line:col: error: ..." in err. */
int play_keymap_load(play_keymap *m, const char *path, char *err, size_t errlen);
/* The default file when it exists: $XDG_CONFIG_HOME/vramsim/play-keys, or
 * ~/.config/vramsim/play-keys; NULL when there is none. */
const char *play_keymap_default_path(char *buf, size_t len);

/* The keys the player holds, from keyboard and controller events, and the
 * stylus from the mouse on the DS touch screen. */
typedef struct play_input {
	const play_keymap *map;
	uint16_t held;      /* console keys held now */
	uint16_t tapped;    /* pressed since the last frame: held for it even if let go */
	int fast;           /* the fast-forward key is held */
	int pressed;        /* a key or the stylus went down (the player takes over from a script) */
	/* the touch screen: where the picture is drawn (play_input_placed) */
	int touch_screen;   /* the game has one: the lower half of its picture */
	int gx, gy, gk;     /* the picture's top left corner in the window, its scale */
	int touching;       /* the left button went down on it and is held */
	int touch_tapped;   /* it went down since the last frame: the frame sees it even if let go */
	uint8_t tx, ty;     /* where the stylus is (or was last), in touch screen pixels */
} play_input;

/* An SDL event: 1 when it is the game's (a console key, a controller, the
 * mouse on the touch screen), with the action it asks for in *action (-1:
 * none). Controllers are opened as they are plugged in. */
int play_input_event(play_input *in, const SDL_Event *e, int *action);
/* Where the picture is now (vs_viewer_live.placed). */
void play_input_placed(play_input *in, int x, int y, int scale);
/* The keys and stylus for the next frame; forgets what was only tapped. */
vs_play_input play_input_frame(play_input *in);

#endif
