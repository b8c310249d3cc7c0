/* SPDX-License-Identifier: Zlib */
/* play_keys.h - `vramsim play`'s keys: the key map (a default, changed by a
 * small config file, docs/play.md) and SDL's keyboard and game controller
 * events turned into GBA keys and session actions. */
#ifndef VS_CLI_PLAY_KEYS_H
#define VS_CLI_PLAY_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include <SDL.h>

/* What a key does besides the GBA's keys. */
enum {
	PLAY_PAUSE,     /* pause / resume */
	PLAY_STEP,      /* one frame forward, paused */
	PLAY_FAST,      /* fast forward while held */
	PLAY_SAVESTATE, /* write a savestate */
	PLAY_WRITE,     /* write -o and --keys-out now */
	PLAY_ACTIONS
};

#define PLAY_GBA_KEYS 10 /* VS_KEY_A .. VS_KEY_L */
#define PLAY_BINDINGS 4  /* keyboard keys per GBA key or action */

typedef struct play_keymap {
	SDL_Keycode gba[PLAY_GBA_KEYS][PLAY_BINDINGS];
	SDL_Keycode action[PLAY_ACTIONS][PLAY_BINDINGS];
} play_keymap;

/* The default map (docs/play.md). */
void play_keymap_default(play_keymap *m);
/* Reads a key map file over m: lines `NAME = KEY [KEY...]`, NAME a GBA key
 * (a b select start right left up down r l) or an action (pause step fast
 * savestate write), KEY as SDL names keys ("X", "Return", "Left", "F5"); '#'
 * starts a comment. A name given replaces its default keys. 0, or -1 with
 * "file:line:col: error: ..." in err. */
int play_keymap_load(play_keymap *m, const char *path, char *err, size_t errlen);
/* The default file when it exists: $XDG_CONFIG_HOME/vramsim/play-keys, or
 * ~/.config/vramsim/play-keys; NULL when there is none. */
const char *play_keymap_default_path(char *buf, size_t len);

/* The keys the player holds, from keyboard and controller events. */
typedef struct play_input {
	const play_keymap *map;
	uint16_t held;      /* GBA keys held now */
	uint16_t tapped;    /* pressed since the last frame: held for it even if let go */
	int fast;           /* the fast-forward key is held */
	int pressed;        /* a GBA key went down (the player takes over from a script) */
} play_input;

/* An SDL event: 1 when it is the game's (a GBA key, a controller), with the
 * action it asks for in *action (-1: none). Controllers are opened as they
 * are plugged in. */
int play_input_event(play_input *in, const SDL_Event *e, int *action);
/* The keys for the next frame; forgets what was only tapped. */
uint16_t play_input_frame(play_input *in);

#endif
