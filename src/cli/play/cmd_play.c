/* SPDX-License-Identifier: Zlib */
/* cmd_play.c - `vramsim play`: a GBA or DS game in a window beside its live
 * VRAM maps, the session kept as a capture (docs/play.md).
 *
 * The game and its capture are the play session's (play/play.h); the
 * window is the viewer's in live mode (viewer/viewer.h), following the
 * capture's trace as it grows. This file joins them: the options, the
 * frames before the window opens (until the trace has its header), the
 * clock and the keys while it is open, and the files written at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <SDL.h> /* SDL_InitSubSystem; the audio device */

#include "base/in_file.h"
#include "base/out_file.h"
#include "cli/cli.h"
#include "cli/play/cmd_play.h"
#include "cli/play/play_keys.h"
#include "console/common/rom_kind.h"
#include "play/play.h"
#include "strategies/registry.h"
#include "viewer/viewer.h"

#define CMD "play"
#define FAST 4              /* fast forward: frames per frame */
#define PREROLL_MAX 3600u   /* frames the game may show nothing before the window gives up */

enum { O_INPUT = VS_CLI_LONG, O_STATE, O_STATES, O_KEYS_OUT, O_KEYMAP, O_SCALE, O_SIZE, O_SCRIPT, O_LOG, O_SHOTS,
	O_GRACE, O_SHEET, O_ARENAS, O_AUDIO };

static const vs_cli_opt options[] = {
	{ "strategy", 's', "SPEC", "a strategy placing the same requests in a second column, as "
		"in 'vramsim view' (-s gba-obj-compact: OBJ; -s obj=A,bg=B)" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (.so)" },
	{ "output", 'o', "TRACE", "write the session's trace here on exit" },
	{ "keys-out", O_KEYS_OUT, "FILE", "write the keys the game got here on exit: an input script "
		"that 'vramsim capture --input' replays to the same trace" },
	{ "input", O_INPUT, "SCRIPT", "play these keys back; a key pressed takes over from there" },
	{ "state", O_STATE, "FILE", "start from this savestate of the ROM (mGBA's; DeSmuME's for a DS ROM)" },
	{ "states", O_STATES, "DIR", "where the savestate key writes (default .)" },
	{ "keymap", O_KEYMAP, "FILE", "the key map (default ~/.config/vramsim/play-keys if there)" },
	{ "audio", O_AUDIO, NULL, "play the game's sound (off by default; GBA only)" },
	{ "scale", O_SCALE, "N", "draw the game at N times its size (1-8; default: what fits)" },
	{ "size", O_SIZE, "WxH", "window size (default 1280x800)" },
	{ "grace", O_GRACE, "N", "capture's grace, in frames (1-600, default 3)" },
	{ "sheet", O_SHEET, NULL, "capture: the game loads whole sprite sheets (GBA only)" },
	{ "arenas", O_ARENAS, "obj|bg|obj,bg", "which arenas to capture (default both; GBA only)" },
	{ "script", O_SCRIPT, "FILE", "scripted window input, a game frame per line (tests)" },
	{ "log", O_LOG, "FILE", "timings and script output (default standard output)" },
	{ "shots", O_SHOTS, "DIR", "where screenshots go (default .)" },
	{ "quiet", 'q', NULL, "print nothing but errors" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "play GAME.gba|GAME.nds [-s STRATEGY]... [-o TRACE] [--keys-out FILE] [--input SCRIPT] [--state FILE]",
	"Plays GAME.gba in a window (libmgba, at the console's 59.73 frames a second,\n"
	"sound with --audio) beside the viewer's live maps of its OBJ and BG VRAM: who owns each tile\n"
	"now, the heatmap, live bytes, largest free run and fragmentation, failures.\n"
	"GAME.nds plays on DeSmuME (Debian's libretro-desmume, 59.83 frames a second,\n"
	"no sound): both screens, the touch screen below, beside the DS arenas capture\n"
	"writes (each engine's OBJ, BG and extended palettes, textures, texture palettes).\n"
	"What the maps show is capture's inference, run as the game plays (a few frames\n"
	"late: capture's delay). With -s a second column shows another strategy placing\n"
	"the same requests. Keys (docs/play.md): arrows, x a, z b, Return start,\n"
	"Backspace select, a l, s r, d x, c y (DS); the mouse on the touch screen is the\n"
	"stylus; space pause, . one frame, Tab fast forward, F5 savestate, F6 write the\n"
	"files now; q quit. Game controllers work through SDL's mapping. On exit the\n"
	"trace (-o) and the keys (--keys-out) are written; 'vramsim capture GAME --frames\n"
	"N --input KEYS' writes the same trace byte for byte.\n",
	options,
	"Headless: SDL_VIDEODRIVER=dummy with --script.\n"
	"The trace, the keys, the --log and a script's screenshots appear together on\n"
	"exit; an output that cannot be written stops it (exit 2) and none is made, but\n"
	"for a screenshot: the trace and keys are still written.\n"
	"exit: 0 closed, 1 a script expectation failed, 2 usage or input error, no\n"
	"display, no emulator core, an output that could not be written, the game\n"
	"crashed or quit (the trace and keys up to it are written), the emulator core\n"
	"itself crashed or hung (nothing written).\n",
	NULL, 0
};

typedef struct play_args {
	const char *rom, *out, *keys_out, *input, *state, *states, *keymap, *log_path;
	uint64_t scale, grace;
	int sheet, quiet, obj, bg, audio, arenas;
	vs_cli_choices cs;
	vs_viewer_opts *vo;
} play_args;

/* The window's side of the session. */
typedef struct live {
	vs_play *p;
	play_input in;
	play_keymap map;
	const char *rom, *states, *out, *keys_out;
	double acc;
	int paused, steps;
	char message[VS_OUT_PATH_MAX + 1100]; /* why the game stopped, a savestate written, a write that failed */
	int failed;          /* the session could not be written */
	int audio;           /* --audio: 1 asked for, 2 playing, -1 no device */
	SDL_AudioDeviceID dev;
	clock_t cpu0;        /* CPU time when the session opened */
} live;

static int window_size(const char *s, vs_viewer_opts *vo)
{
	unsigned w, h;
	char end;

	if (sscanf(s, "%ux%u%c", &w, &h, &end) != 2 || w < 160 || h < 120 || w > 8192 || h > 8192)
		return -1;
	vo->width = (int)w;
	vo->height = (int)h;
	return 0;
}

static int take_arenas(play_args *a, const char *s)
{
	a->obj = strcmp(s, "bg") != 0;
	a->bg = strcmp(s, "obj") != 0;
	if (strcmp(s, "obj") && strcmp(s, "bg") && strcmp(s, "obj,bg") && strcmp(s, "bg,obj"))
		return vs_cli_usage_error(CMD, "--arenas takes obj, bg or obj,bg (got '%s')", s);
	return -1;
}

/* One option or operand: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	play_args *a = ud;

	switch (c) {
	case 's':
		return vs_cli_choices_add(CMD, &a->cs, p->arg) ? VS_EXIT_USAGE : -1;
	case 'o': a->out = p->arg; return -1;
	case O_KEYS_OUT: a->keys_out = p->arg; return -1;
	case O_INPUT: a->input = p->arg; return -1;
	case O_STATE: a->state = p->arg; return -1;
	case O_STATES: a->states = p->arg; return -1;
	case O_KEYMAP: a->keymap = p->arg; return -1;
	case O_SCRIPT: a->vo->script = p->arg; return -1;
	case O_LOG: a->log_path = p->arg; return -1;
	case O_SHOTS: a->vo->shot_dir = p->arg; return -1;
	case O_SHEET: a->sheet = 1; return -1;
	case O_AUDIO: a->audio = 1; return -1;
	case 'q': a->quiet = 1; return -1;
	case O_ARENAS: a->arenas = 1; return take_arenas(a, p->arg);
	case O_SCALE: return vs_cli_uint(p, 1, 8, &a->scale) ? VS_EXIT_USAGE : -1;
	case O_GRACE: return vs_cli_uint(p, 1, VS_CAPTURE_WINDOW_MAX, &a->grace) ? VS_EXIT_USAGE : -1;
	case O_SIZE:
		return window_size(p->arg, a->vo) ? vs_cli_usage_error(CMD, "--size needs WxH, 160x120 to 8192x8192") : -1;
	}
	if (a->rom)
		return vs_cli_usage_error(CMD, "one ROM at a time (got '%s' and '%s')", a->rom, p->arg);
	a->rom = p->arg;
	return -1;
}

/* ---- the live source: the clock, the keys, the status line ---------------- */

static void save_state(live *l)
{
	char path[VS_OUT_PATH_MAX], err[1024];
	const char *base = strrchr(l->rom, '/') ? strrchr(l->rom, '/') + 1 : l->rom;
	int n = (int)strcspn(base, ".");

	/* mGBA's savestates are .ss files, DeSmuME's .dst */
	snprintf(path, sizeof path, "%s/%.*s-%u.%s", l->states ? l->states : ".", n, base, vs_play_frames(l->p),
		vs_play_has_touch(l->p) ? "dst" : "ss");
	if (vs_play_save_state(l->p, path, err, sizeof err) < 0)
		snprintf(l->message, sizeof l->message, "savestate: %s", err);
	else
		snprintf(l->message, sizeof l->message, "savestate written: %s (vramsim play --state)", path);
}

/* The write key: -o and --keys-out as they would be on exit now. */
static void write_now(live *l)
{
	char err[1024];

	if (!l->out && !l->keys_out)
		snprintf(l->message, sizeof l->message, "nothing to write: no -o TRACE or --keys-out FILE");
	else if (vs_play_write(l->p, l->out, l->keys_out, err, sizeof err) < 0)
		snprintf(l->message, sizeof l->message, "writing: %s", err);
	else
		snprintf(l->message, sizeof l->message, "written at frame %u: %s%s%s", vs_play_frames(l->p),
			l->out ? l->out : "", l->out && l->keys_out ? ", " : "", l->keys_out ? l->keys_out : "");
}

static int live_event(void *ud, const union SDL_Event *e)
{
	live *l = ud;
	int action, took = play_input_event(&l->in, e, &action);

	if (l->in.pressed && vs_play_scripted(l->p)) {
		vs_play_take_over(l->p);
		snprintf(l->message, sizeof l->message, "you took over from the input script at frame %u",
			vs_play_frames(l->p));
	}
	if (action == PLAY_PAUSE)
		l->paused = !l->paused;
	else if (action == PLAY_STEP)
		l->paused = 1, l->steps++;
	else if (action == PLAY_SAVESTATE)
		save_state(l);
	else if (action == PLAY_WRITE)
		write_now(l);
	return took;
}

/* Frames due after dt seconds (dt < 0: one, for scripted runs). */
static int frames_due(live *l, double dt)
{
	int n;

	if (l->paused) {
		n = l->steps;
		l->steps = 0;
		return n;
	}
	if (dt < 0)
		return l->in.fast ? FAST : 1;
	l->acc += dt * vs_play_fps(l->p) * (l->in.fast ? FAST : 1);
	n = (int)l->acc;
	l->acc -= n;
	/* a window that stalled does not make the game rush to catch up */
	if (n > 2 * FAST) {
		n = 2 * FAST;
		l->acc = 0;
	}
	return n;
}

#define AUDIO_RATE 48000
#define AUDIO_AHEAD (AUDIO_RATE / 8) /* samples queued at most: an eighth of a second late */

/* The sound of the frames just run to the audio device, opened the first
 * time (SDL has started by then). A device that cannot open is said once. */
static void play_audio(live *l)
{
	static int16_t buf[2 * 4096];
	size_t n = vs_play_audio(l->p, buf, 4096);
	SDL_AudioSpec want, have;

	if (l->audio == 1) {
		memset(&want, 0, sizeof want);
		want.freq = AUDIO_RATE;
		want.format = AUDIO_S16SYS;
		want.channels = 2;
		want.samples = 1024;
		if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0 || !(l->dev = SDL_OpenAudioDevice(NULL, 0, &want, &have, 0))) {
			snprintf(l->message, sizeof l->message, "no sound: %s", SDL_GetError());
			l->audio = -1;
			return;
		}
		SDL_PauseAudioDevice(l->dev, 0);
		l->audio = 2;
	}
	/* fast forward and a slow window drop sound rather than fall behind */
	if (l->audio == 2 && n && SDL_GetQueuedAudioSize(l->dev) < AUDIO_AHEAD * 4u)
		SDL_QueueAudio(l->dev, buf, (Uint32)(n * 4));
}

static int live_tick(void *ud, double dt)
{
	live *l = ud;
	int n = frames_due(l, dt), rc = 0;
	char err[1024];

	while (n-- > 0 && rc == 0) {
		vs_play_input in = play_input_frame(&l->in);
		rc = vs_play_frame(l->p, &in, err, sizeof err);
		if (rc < 0) {
			snprintf(l->message, sizeof l->message, "%s", err);
			l->failed = 1;
			return -1;
		}
	}
	if (l->audio > 0)
		play_audio(l);
	if (rc == 1)
		snprintf(l->message, sizeof l->message, "the game stopped: %s", vs_play_fault(l->p));
	return rc;
}

static const uint8_t *live_screen(void *ud)
{
	unsigned w, h;

	return vs_play_screen(((live *)ud)->p, &w, &h);
}

static void live_placed(void *ud, int x, int y, int scale)
{
	play_input_placed(&((live *)ud)->in, x, y, scale);
}

static void live_status(void *ud, char *buf, size_t len)
{
	live *l = ud;
	char keys[128];
	size_t n;

	vs_input_keys_name(l->in.held, keys, sizeof keys);
	n = strlen(keys);
	if (l->in.touching)
		snprintf(keys + n, sizeof keys - n, " touch %u,%u", (unsigned)l->in.tx, (unsigned)l->in.ty);
	if (l->message[0]) {
		snprintf(buf, len, "game frame %u  %s", vs_play_frames(l->p), l->message);
		return;
	}
	snprintf(buf, len, "game frame %u  %s%s  keys %s", vs_play_frames(l->p),
		vs_play_fault(l->p) ? "stopped" : l->paused ? "paused (space: run, .: a frame)" :
		l->in.fast ? "fast forward" : "running", vs_play_scripted(l->p) ? "  (input script)" : "", keys);
}

/* ---- before the window: the trace's header, the sides --------------------- */

/* Runs the game until its trace has a header (the arenas the views lay
 * out): a frame shown, plus capture's delay. 0, or 2 with the message said. */
static int preroll(live *l)
{
	static int16_t silence[2 * 4096];
	const vs_play_input none = { 0, 0, 0, 0 };
	char err[1024];
	uint32_t i;
	int rc = 0;

	for (i = 0; i < PREROLL_MAX && rc == 0 && !vs_play_live_ready(l->p); i++) {
		rc = vs_play_frame(l->p, &none, err, sizeof err);
		vs_play_audio(l->p, silence, 4096); /* before the window: not played */
	}
	if (rc < 0) {
		fprintf(stderr, "vramsim play: %s\n", err);
		return VS_EXIT_USAGE;
	}
	if (rc == 1)
		return 0; /* said at the end, with the files written */
	if (!vs_play_live_ready(l->p)) {
		fprintf(stderr, "vramsim play: %s: the game showed nothing in %u frames (forced blank): no VRAM to "
			"show yet; --state can start it later\n", l->rom, PREROLL_MAX);
		return VS_EXIT_USAGE;
	}
	return 0;
}

/* The choices "recorded", then -s's, then `extra`, split and grouped into
 * sides over the trace's header h. 0, or -1 (said). */
static int group(vs_cli_choices *all, const play_args *a, char extra[][VS_NAME_MAX + 16], int nextra,
	const vs_trace_header *h)
{
	int k;

	memset(all, 0, sizeof *all);
	if (vs_cli_choices_add(CMD, all, "recorded"))
		return -1;
	for (k = 0; k < a->cs.nraw; k++)
		if (vs_cli_choices_add(CMD, all, a->cs.raw[k]))
			return -1;
	for (k = 0; k < nextra; k++)
		if (vs_cli_choices_add(CMD, all, extra[k]))
			return -1;
	return vs_cli_choices_split(CMD, all) || vs_cli_choices_group(CMD, all, h, VS_VIEW_MAX_SIDES, "side") ? -1 : 0;
}

/* The arenas side 2 leaves out get `recorded` there too, so that the two
 * sides differ only where -s says: "ARENA=recorded" choices. */
static int fill_side2(const vs_cli_choices *all, const vs_trace_header *h, char extra[][VS_NAME_MAX + 16])
{
	unsigned mask = 0;
	int k, i, n = 0;

	for (k = all->first[1]; all->ngroups == 2 && k < all->first[2]; k++) {
		const vs_cmp_choice *c = &all->v[k];
		for (i = 0; i < h->narenas; i++)
			if (c->arena[0] ? strcmp(c->arena, h->arenas[i].name) == 0 :
				vs_strategy_manages(c->strategy, h->arenas[i].kind))
				mask |= 1u << i;
	}
	for (i = 0; all->ngroups == 2 && i < h->narenas; i++)
		if (!(mask & (1u << i)))
			snprintf(extra[n++], VS_NAME_MAX + 16, "%s=recorded", h->arenas[i].name);
	return n;
}

static void quiet_message(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

/* Side 1 the game's own placement (`recorded`), side 2 the choices of -s.
 * The replays' messages (divergences from the game's placement) are not
 * printed: the window shows failures. */
static int set_sides(play_args *a, const char *trace, vs_viewer_opts *vo)
{
	static char opts[VS_VIEW_MAX_SIDES][VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX];
	static char extra[VS_TRACE_MAX_ARENAS][VS_NAME_MAX + 16];
	vs_cli_choices all;
	char err[1024];
	vs_trace_reader *rd;
	const vs_trace_header *h;
	int s, n, rc = VS_EXIT_USAGE;

	if (!(rd = vs_trace_open(trace, err, sizeof err))) {
		fprintf(stderr, "vramsim play: %s\n", err);
		return VS_EXIT_USAGE;
	}
	h = vs_trace_header_of(rd);
	if (group(&all, a, extra, 0, h))
		goto done;
	if ((n = fill_side2(&all, h, extra)) > 0) {
		vs_cli_choices_free(&all);
		if (group(&all, a, extra, n, h))
			goto done;
	}
	vo->nsides = all.ngroups;
	for (s = 0; s < vo->nsides; s++) {
		vs_replay_config *cfg = &vo->cfg[s];
		const vs_cmp_choice *v = all.v + all.first[s];
		n = all.first[s + 1] - all.first[s];
		vs_replay_config_default(cfg);
		cfg->message = quiet_message;
		vs_cli_choices_label(v, n, vo->label[s], sizeof vo->label[s]);
		if (vs_cli_apply_choices(v, n, h, cfg, opts[s], err, sizeof err)) {
			rc = vs_cli_usage_error(CMD, "%s", err);
			goto done;
		}
	}
	rc = -1;
done:
	vs_trace_close(rd);
	vs_cli_choices_free(&all);
	return rc;
}

/* ---- the run ------------------------------------------------------------------ */

/* The speed of the whole (emulation, capture, the live maps, the window)
 * in CPU time, for docs/performance.md (tools/bench-play). */
static void cpu_report(const live *l, FILE *fp)
{
	double cpu = (double)(clock() - l->cpu0) / CLOCKS_PER_SEC, fps;

	if (cpu <= 0)
		return;
	fps = vs_play_frames(l->p) / cpu;
	fprintf(fp, "play: %u game frames in %.2f s of CPU: %.0f frames a second, %.1fx the console's %.2f\n",
		vs_play_frames(l->p), cpu, fps, fps / vs_play_fps(l->p), vs_play_fps(l->p));
}

/* The window, with its log when asked for, opened in outs, where the
 * window adds its screenshots. Returns the viewer's 0, 1 or 2 (said). */
static int window(play_args *a, vs_viewer_opts *vo, live *l, vs_viewer_outs *outs)
{
	char err[1024 + VS_OUT_PATH_MAX];
	int rc;

	vo->outs = outs;
	if (a->log_path) {
		if (vs_out_open(&outs->f[outs->n], a->log_path, err, sizeof err) != 0) {
			fprintf(stderr, "vramsim play: %s\n", err);
			return 2;
		}
		vo->log = &outs->f[outs->n++];
	}
	rc = vs_viewer_run(vo, err, sizeof err);
	if (!vo->log || rc != 2)
		cpu_report(l, vo->log ? vo->log->fp : stdout);
	if (rc != 2 && vo->log && vs_out_finish(vo->log, 1, err, sizeof err) != 0) {
		outs->log_failed = 1;
		rc = 2;
	}
	vo->log = NULL;
	if (rc == 2 && strcmp(err, "the game's session failed") != 0)
		fprintf(stderr, "vramsim play: %s\n", err);
	return rc;
}

/* Writes what was asked for, committed in one with the window's outputs
 * in outs (all or none), and says how the game ended. The window's
 * outputs (the log, the screenshots) are kept when it ended well (rc 0 or
 * 1); the session's trace and keys also when the game stopped or a
 * screenshot could not be written (docs/play.md), but not when the log
 * could not be. */
static int write_session(play_args *a, live *l, int rc, vs_viewer_outs *outs)
{
	char err[1024 + VS_OUT_PATH_MAX];
	int n = 0;

	if (l->failed) {
		vs_out_abort(outs->f, outs->n);
		fprintf(stderr, "vramsim play: %s\n", l->message);
		return VS_EXIT_USAGE;
	}
	if (rc == 2) {
		vs_out_abort(outs->f, outs->n);
		outs->n = 0;
		if (outs->log_failed)
			return VS_EXIT_USAGE; /* said; an output failed: none is made */
	}
	if (((a->out || a->keys_out) &&
		(n = vs_play_finish(l->p, a->out, a->keys_out, outs->f + outs->n, err, sizeof err)) < 0) ||
		vs_out_commit(outs->f, outs->n + n, err, sizeof err) != 0) {
		vs_out_abort(outs->f, outs->n);
		fprintf(stderr, "vramsim play: %s\n", err);
		return VS_EXIT_USAGE;
	}
	if (!a->quiet && (a->out || a->keys_out))
		fprintf(stderr, "vramsim play: %u frames%s%s%s%s\n", vs_play_frames(l->p), a->out ? "; trace: " : "",
			a->out ? a->out : "", a->keys_out ? "; keys: " : "", a->keys_out ? a->keys_out : "");
	if (vs_play_fault(l->p)) {
		fprintf(stderr, "vramsim play: %s%s\n", vs_play_fault(l->p),
			a->out || a->keys_out ? " (the session up to it is written)" : "");
		return VS_EXIT_USAGE;
	}
	return rc == 1 ? VS_EXIT_CHECK : rc == 2 ? VS_EXIT_USAGE : VS_EXIT_OK;
}

static int open_session(play_args *a, live *l, vs_input_script *script)
{
	vs_play_opts po;
	char err[1024], path[1024];
	const char *km = a->keymap ? a->keymap : play_keymap_default_path(path, sizeof path);

	play_keymap_default(&l->map);
	if (km && play_keymap_load(&l->map, km, err, sizeof err) < 0) {
		fprintf(stderr, "vramsim play: %s\n", err);
		return VS_EXIT_USAGE;
	}
	l->in.map = &l->map;
	memset(&po, 0, sizeof po);
	po.rom = a->rom;
	po.state = a->state;
	po.input = a->input ? script : NULL;
	vs_capture_options_default(&po.capture);
	if (a->grace)
		po.capture.grace = (uint32_t)a->grace;
	po.capture.sheet = a->sheet;
	po.capture.obj = a->obj;
	po.capture.bg = a->bg;
	po.audio_rate = a->audio ? AUDIO_RATE : 0;
	l->audio = a->audio;
	if (!(l->p = vs_play_open(&po, err, sizeof err))) {
		fprintf(stderr, "vramsim play: %s\n", err);
		return VS_EXIT_USAGE;
	}
	return -1;
}

static int checks(play_args *a, vs_input_script *script)
{
	char err[1024];
	int ds;

	if (!a->rom)
		return vs_cli_usage_error(CMD, "no ROM given");
	ds = vs_rom_kind_file(a->rom) == VS_ROM_KIND_DS;
	if (ds && (a->sheet || a->arenas || a->audio))
		return vs_cli_usage_error(CMD, "%s: a DS ROM: %s is for a GBA ROM (DS capture has no sheet rule, writes "
			"every DS arena, and play keeps no DS sound)", a->rom, a->sheet ? "--sheet" : a->arenas ? "--arenas" :
			"--audio");
	if (vs_viewer_no_display(a->vo, err, sizeof err)) {
		fprintf(stderr, "vramsim play: %s\n", err);
		return VS_EXIT_USAGE;
	}
	if (a->input && (vs_input_script_load(a->input, script, err, sizeof err) < 0 ||
		(!ds && vs_input_script_gba_only(script, a->input, err, sizeof err) < 0))) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	/* the outputs are written when the session ends: one that would
	 * replace an input (read later, or by the emulator) or the other
	 * output is refused now, before anyone plays */
	if (vs_in_note(a->rom) || (a->state && vs_in_note(a->state)) || (a->keymap && vs_in_note(a->keymap)) ||
		(a->vo->script && vs_in_note(a->vo->script))) {
		fprintf(stderr, "vramsim play: %s\n", strerror(errno));
		return VS_EXIT_USAGE;
	}
	if ((a->out && vs_out_check(a->out, err, sizeof err)) || (a->keys_out && vs_out_check(a->keys_out, err,
		sizeof err)) || (a->out && a->keys_out && vs_out_check_apart(a->out, a->keys_out, err, sizeof err))) {
		fprintf(stderr, "vramsim play: %s\n", err);
		return VS_EXIT_USAGE;
	}
	return -1;
}

/* The window over the session, once the trace has its header. Returns
 * the viewer's 0, 1 or 2. */
static int run_window(play_args *a, vs_viewer_opts *vo, live *l, vs_viewer_outs *outs)
{
	static vs_viewer_live src;
	unsigned w, h;
	int rc = set_sides(a, vs_play_live_path(l->p), vo);

	if (rc >= 0)
		return rc;
	memset(&src, 0, sizeof src);
	src.ud = l;
	vs_play_screen(l->p, &w, &h);
	src.screen_w = (int)w;
	src.screen_h = (int)h;
	src.scale = (int)a->scale;
	src.tick = live_tick;
	src.screen = live_screen;
	src.event = live_event;
	src.status = live_status;
	src.placed = live_placed;
	if (vs_play_has_touch(l->p))
		src.keys_hint = "arrows x z d c Return Backspace a s, the mouse on the touch screen";
	l->in.touch_screen = vs_play_has_touch(l->p);
	vo->live = &src;
	vo->trace = vs_play_live_path(l->p);
	vo->title = "vramsim play";
	vo->name = strrchr(a->rom, '/') ? strrchr(a->rom, '/') + 1 : a->rom;
	return window(a, vo, l, outs);
}

static int play(play_args *a, vs_viewer_opts *vo, vs_input_script *script)
{
	static live l;
	static vs_viewer_outs outs; /* the run's outputs, committed together */
	int rc;

	memset(&l, 0, sizeof l);
	memset(&outs, 0, sizeof outs);
	l.cpu0 = clock();
	l.rom = a->rom;
	l.states = a->states;
	l.out = a->out;
	l.keys_out = a->keys_out;
	if ((rc = checks(a, script)) >= 0 || (rc = open_session(a, &l, script)) >= 0)
		return rc;
	rc = preroll(&l);
	/* a game that crashed before the window opened is written as one that
	 * crashed in it; no window for another reason (no display), nothing */
	if (rc == 0 && !vs_play_fault(l.p))
		rc = run_window(a, vo, &l, &outs);
	if (rc < 2 || l.failed || vs_play_fault(l.p) || outs.shot_failed)
		rc = write_session(a, &l, rc, &outs);
	else
		vs_out_abort(outs.f, outs.n);
	vs_play_close(l.p);
	return rc;
}

int vs_cmd_play(int argc, char **argv)
{
	static vs_viewer_opts vo;
	vs_input_script script = { NULL, 0 };
	play_args a;
	int rc;

	memset(&vo, 0, sizeof vo);
	memset(&a, 0, sizeof a);
	a.vo = &vo;
	a.obj = a.bg = 1;
	rc = vs_cli_parse(&command, argc, argv, take, &a);
	if (rc < 0)
		rc = play(&a, &vo, &script);
	vs_cli_choices_free(&a.cs);
	vs_input_script_free(&script);
	return rc;
}
