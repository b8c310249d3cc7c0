/* SPDX-License-Identifier: Zlib */
/* input_script.h - the keys a headless GBA or DS run holds, frame by frame.
 *
 * `vramsim record` and `vramsim capture` play a game without a player; an
 * input script says which keys are held on which frames. Plain text, one
 * range a line (docs/capture.md):
 *
 *   # title screen, then walk right and jump
 *   120 start
 *   200-239 right
 *   240-250 right a
 *   251-260 right
 *
 * Frames count from 0, the first frame the ROM runs; N-M is inclusive.
 * Ranges may come in any order but may not overlap. Keys: a b select start
 * right left up down r l, or none; on the DS also x y and `touch X,Y`
 * (the stylus on the touch screen, X 0-255, Y 0-191), which a GBA run
 * refuses (vs_input_script_gba_only). Errors name file:line:col. Lines are
 * at most 4096 bytes, scripts at most VS_INPUT_MAX_LINES lines and
 * VS_INPUT_MAX_RANGES ranges; a UTF-8 byte order mark is skipped.
 */
#ifndef VRAMSIM_INPUT_SCRIPT_H
#define VRAMSIM_INPUT_SCRIPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Key bits as the GBA's KEYINPUT numbers them (set: held), then the DS's
 * X and Y (bits 0 and 1 of its EXTKEYIN). */
enum {
	VS_KEY_A = 1u << 0, VS_KEY_B = 1u << 1, VS_KEY_SELECT = 1u << 2, VS_KEY_START = 1u << 3,
	VS_KEY_RIGHT = 1u << 4, VS_KEY_LEFT = 1u << 5, VS_KEY_UP = 1u << 6, VS_KEY_DOWN = 1u << 7,
	VS_KEY_R = 1u << 8, VS_KEY_L = 1u << 9, VS_KEY_X = 1u << 10, VS_KEY_Y = 1u << 11
};
#define VS_KEY_GBA_MASK 0x3FFu

#define VS_INPUT_MAX_RANGES 100000u /* a bound on memory for hostile scripts */
#define VS_INPUT_MAX_LINES 1000000u /* and on time: an endless file of comments ends */

typedef struct vs_input_range {
	uint32_t first, last; /* frames, inclusive */
	uint16_t keys;
	uint8_t touch;        /* the stylus is down at (touch_x, touch_y) */
	uint8_t touch_x, touch_y;
	uint16_t ds_col;      /* column of the first DS-only word (x, y, touch), or 0 */
	uint32_t line;        /* where the script said it */
} vs_input_range;

typedef struct vs_input_script {
	vs_input_range *ranges; /* sorted by frame, never overlapping */
	size_t n;
} vs_input_script;

/* Reads a script from a file / a stream (name for messages). Returns 0, or
 * -1 with "file:line:col: error: ..." in err and s left empty. */
int vs_input_script_load(const char *path, vs_input_script *s, char *err, size_t errlen);
int vs_input_script_read(FILE *fp, const char *name, vs_input_script *s, char *err, size_t errlen);
/* The keys held on a frame (0 when no range covers it). */
uint16_t vs_input_script_keys(const vs_input_script *s, uint32_t frame);
/* The range covering a frame, or NULL. */
const vs_input_range *vs_input_script_at(const vs_input_script *s, uint32_t frame);
/* For a GBA run: 0, or -1 with "name:line:col: error: ..." naming the
 * first DS-only key or touch the script holds. */
int vs_input_script_gba_only(const vs_input_script *s, const char *name, char *err, size_t errlen);
/* Writes the keys as the script names them ("right a"; "none"). */
void vs_input_keys_name(uint16_t keys, char *buf, size_t len);
void vs_input_script_free(vs_input_script *s);

#endif
