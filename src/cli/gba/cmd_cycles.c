/* SPDX-License-Identifier: Zlib */
/* cmd_cycles.c - `vramsim cycles`: what each allocator call costs on the
 * GBA's CPU.
 *
 * The trace is replayed on the host (the usual replay, with its checks);
 * every call the host made into the chosen arena's strategy becomes a
 * request for the "cycles" GBA program, which replays them in libmgba with
 * the same allocator source built for the ARM7TDMI and times each call with
 * the hardware timers. The placements the GBA returned must equal the
 * host's; the cycle counts are summarised per operation and per frame.
 *
 * The host half of that (the request encoding, the list, the statistics)
 * is src/console/gba/gba_cycles_host.h; this file parses the options and
 * prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "cli/cli.h"
#include "cli/cli_cycles.h"
#include "console/gba/gba_cycles_host.h"
#include "vram/arena.h"

int vs_cmd_cycles(int argc, char **argv);

/* ---- output ------------------------------------------------------------------ */

static double share(double cycles, uint32_t of)
{
	return 100.0 * cycles / of;
}

/* One row of the moves table: calls, mean, median, max, max / VBlank and
 * the model's mean and max for the same moves. */
static void moves_row(const char *name, const vs_gba_cycles_moves_row *r)
{
	printf("%-6s %8u %9.0f %9u %9u %10.2f%% %11.0f %10u\n", name, (unsigned)r->n, r->mean,
		(unsigned)r->median, (unsigned)r->max, share(r->max, VS_GBA_VBLANK_CYCLES), r->model_mean,
		(unsigned)r->model_max);
}

/* The moves carried out by DMA3 on the GBA: per request that moved
 * sprites and per frame, measured beside the cost model (docs/gba.md). */
static void print_moves(const vs_gba_cycles_list *l, const vs_gba_result *mres, const vs_gba_cycles_info *info)
{
	vs_gba_cycles_moves m;

	if (vs_gba_cycles_moves_of(l, mres, info, &m))
		return;
	printf("moves: %u sprites moved by DMA3 inside VRAM in %u calls, %llu words (32-bit); "
		"measured %llu cycles, the model %llu (%u a word + %u a move): measured / model %.3f\n",
		(unsigned)m.moves, (unsigned)m.calls, (unsigned long long)m.words, (unsigned long long)m.measured,
		(unsigned long long)m.model, VS_CYCLES_MOVE_WORD, VS_CYCLES_MOVE_EACH, m.ratio);
	printf("DMA3 measured at start-up: VRAM to VRAM %.2f cycles a word + %.0f a transfer (model %u); "
		"ROM to VRAM %.2f a word + %.0f (model %u)\n", m.vram_word, m.vram_each, VS_CYCLES_MOVE_WORD,
		m.rom_word, m.rom_each, VS_CYCLES_UPLOAD_WORD);
	if (!m.calls)
		return;
	printf("%-6s %8s %9s %9s %9s %11s %11s %10s\n", "moves", "calls", "mean", "median", "max", "max/VBlank",
		"model mean", "model max");
	moves_row("call", &m.call);
	if (l->frames)
		moves_row("frame", &m.frame);
}

/* Names the first ten requests after which the GBA's sprites sit elsewhere
 * than the host's. Returns how many there are. */
static uint32_t report_moved_diffs(const vs_gba_cycles_list *l, const vs_gba_result *mres, const char *trace)
{
	uint32_t i, bad = 0;

	for (i = vs_gba_cycles_next_moved_diff(l, mres, 0); i < l->n;
		i = vs_gba_cycles_next_moved_diff(l, mres, i + 1)) {
		char w[64];

		if (bad++ >= 10)
			continue;
		fprintf(stderr, "%s:%llu: error: after %s (and its %u moves on the host), the GBA's sprites "
			"sit elsewhere than the host's\n", trace, (unsigned long long)l->calls[i].line,
			vs_cli_cycles_what(l, i, w, sizeof w), (unsigned)l->calls[i].nmoves);
	}
	return bad;
}

/* ---- the command -------------------------------------------------------------- */

#define CMD "cycles"

static void gba_notes(FILE *fp, int part)
{
	char list[256], status[1536];

	if (part != 1)
		return;
	vs_gba_cycles_target_list(list, sizeof list);
	vs_gba_status(status, sizeof status);
	fprintf(fp, "\n"
		"strategies with a GBA build: %s\n"
		"needs: libmgba (libmgba-dev) and arm-none-eabi-gcc (gcc-arm-none-eabi) at build\n"
		"time; VRAMSIM_GBA_ROM_DIR overrides where the cycles ROMs are found.\n"
		"%s", list, status);
}

enum { O_CODE = VS_CLI_CYCLES_OWN };

static const vs_cli_opt options[] = {
	{ "strategy", 's', "NAME", "the strategy to measure, NAME[:OPTS] (default: the arena's)" },
	{ "arena", VS_CLI_CYCLES_ARENA, "NAME", "the arena to measure (default: the first whose strategy has a GBA build)" },
	{ "code", O_CODE, "thumb|arm|both", "Thumb code in ROM (default, as games build), ARM code "
		"in IWRAM, or both" },
	{ "max-frames", VS_CLI_CYCLES_MAX_FRAMES, "N", "stop the emulated GBA after N frames (default: one per "
		"call, plus 120)" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (host side only)" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "cycles TRACE [--strategy NAME] [options]",
	"Replays TRACE on the host, then replays the same allocator calls on an emulated\n"
	"GBA (libmgba, no BIOS, no window) with the allocator code built for the ARM7TDMI,\n"
	"timing every call with timer 0 (prescaler 1) cascading into timer 1. Prints the\n"
	"cycles per call by operation (mean, median, 99th percentile, max, and as a share\n"
	"of a 280,896-cycle frame) and, for traces with frame markers, the worst frame's\n"
	"allocator cycles as a share of the frame and of VBlank (83,776 cycles). The\n"
	"placements the GBA returned must equal the host replay's.\n"
	"\n"
	"An allocator that moves sprites (gba-obj-compact) also gets each frame marker\n"
	"(its frame call); the GBA carries out every move by DMA3 inside VRAM, timed\n"
	"apart from the calls, checks the bytes of every sprite moved, and must leave\n"
	"every sprite where the host's replay has it after each call. The moves' cycles\n"
	"per call and per frame are printed beside the cost model's (4 cycles a word\n"
	"and 64 a move), with DMA3's cost per word as measured at start-up.\n"
	"\n"
	"A DS trace (its arenas all DS ones, or a DS strategy or arena named) is\n"
	"measured on an emulated DS instead: 'vramsim cycles DS.trace --help'.\n",
	options,
	"exit: 0 measured and equal, 1 the GBA's placements differ from the host's or a\n"
	"check failed, 2 bad usage, a malformed trace, no emulator or no ROM.\n",
	gba_notes, 0
};

typedef struct cycles_opts {
	vs_cli_cycles_ask ask; /* the options both consoles take */
	int code_lo, code_hi;
} cycles_opts;

/* One option or operand into o: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	cycles_opts *o = ud;
	int rc = vs_cli_cycles_take(&o->ask, p, c);

	if (rc != VS_CLI_NOT_SHARED)
		return rc;
	/* O_CODE */
	if (strcmp(p->arg, "thumb") == 0)
		o->code_lo = o->code_hi = VS_GBA_CODE_THUMB_ROM;
	else if (strcmp(p->arg, "arm") == 0)
		o->code_lo = o->code_hi = VS_GBA_CODE_ARM_IWRAM;
	else if (strcmp(p->arg, "both") == 0)
		o->code_lo = VS_GBA_CODE_THUMB_ROM, o->code_hi = VS_GBA_CODE_ARM_IWRAM;
	else
		return vs_cli_usage_error(CMD, "--code: '%s' is not thumb, arm or both", p->arg);
	return -1;
}

static int parse(int argc, char **argv, cycles_opts *o)
{
	int rc;

	memset(o, 0, sizeof *o);
	o->ask.console = "GBA";
	o->code_lo = o->code_hi = VS_GBA_CODE_THUMB_ROM;
	if ((rc = vs_cli_parse(&command, argc, argv, take, o)) >= 0)
		return rc;
	return o->ask.path ? -1 : vs_cli_usage_error(CMD, "no trace given");
}

/* Says why measuring failed: a check on the GBA (exit 1) or no run. */
static int measure_failed(const vs_gba_cycles_list *l, const vs_gba_cycles_info *info, const char *trace,
	const char *err)
{
	char w[64];

	if (info->error != VS_GBA_E_BYTES || info->error_index > l->n) {
		fprintf(stderr, "vramsim cycles: %s\n", err);
		return VS_EXIT_USAGE;
	}
	/* a check on the GBA failed: a difference like the others */
	if (info->error_index == l->n)
		fprintf(stderr, "%s: error: at the end, a live sprite's bytes in the GBA's VRAM are not "
			"those written\n", trace);
	else
		fprintf(stderr, "%s:%llu: error: after %s, a sprite's bytes in the GBA's VRAM are not those "
			"written before it moved\n", trace, (unsigned long long)l->calls[info->error_index].line,
			vs_cli_cycles_what(l, info->error_index, w, sizeof w));
	return VS_EXIT_CHECK;
}

static int run_code(const vs_cli_cycles_ask *ask, const vs_gba_cycles_list *l, int code, const vs_arena_decl *a,
	uint32_t max_frames)
{
	char err[1024];
	uint32_t bad;
	vs_gba_result *res, *mres;
	vs_gba_cycles_info info;

	if (vs_gba_cycles_measure(l, code, max_frames, &res, &info, err, sizeof err))
		return measure_failed(l, &info, ask->path, err);
	printf("\nGBA: ARM7TDMI at 16.78 MHz, %s, WAITCNT=0x%04x, timing overhead %u/%u/%u cycles "
		"(2/3/4-argument call) subtracted; %u frames emulated\n",
		info.code == VS_GBA_CODE_ARM_IWRAM ? "allocator code ARM in IWRAM" : "allocator code Thumb in ROM",
		(unsigned)info.waitcnt, (unsigned)info.overhead, (unsigned)info.overhead3, (unsigned)info.overhead4,
		(unsigned)info.frames);
	if (vs_gba_cycles_split(l, res, &mres)) {
		fprintf(stderr, "vramsim cycles: out of memory\n");
		free(res);
		return VS_EXIT_USAGE;
	}
	vs_cli_cycles_print_ops(l, res, VS_GBA_FRAME_CYCLES);
	vs_cli_cycles_print_frames(l, res, "cycles", VS_GBA_FRAME_CYCLES, VS_GBA_VBLANK_CYCLES);
	if (mres)
		print_moves(l, mres, &info);
	bad = vs_cli_cycles_report_diffs(ask, l, res, a);
	if (mres)
		bad += report_moved_diffs(l, mres, ask->path);
	if (bad)
		printf("placements: %u of the GBA's allocations differ from the host replay\n", (unsigned)bad);
	else
		printf("placements: the GBA's equal the host replay's (%u calls%s)\n", (unsigned)l->n,
			mres ? ", and every sprite's place after each call and its moves" : "");
	free(res);
	free(mres);
	return bad ? VS_EXIT_CHECK : VS_EXIT_OK;
}

/* The cycles ROMs for the code asked for: 0 when all are there. */
static int roms_missing(const cycles_opts *o)
{
	char rom[1024], err[1024];
	FILE *fp;
	int i;

	for (i = o->code_lo; i <= o->code_hi; i++) {
		if (!vs_gba_cycles_rom(i, rom, sizeof rom, err, sizeof err)) {
			fprintf(stderr, "vramsim cycles: %s\n", err);
			return -1;
		}
		if (vs_in_regular(rom, "a cycles ROM", err, sizeof err)) { /* a FIFO there is said, not waited on */
			fprintf(stderr, "vramsim cycles: %s\n", err);
			return -1;
		}
		if (!(fp = vs_in_open(rom, "rb"))) {
			fprintf(stderr, "vramsim cycles: no cycles ROM at %s: build the vs_gba_roms target "
				"(needs gcc-arm-none-eabi) or set VRAMSIM_GBA_ROM_DIR\n", rom);
			return -1;
		}
		fclose(fp);
	}
	return 0;
}

/* Replays the trace on the host, then the calls on the GBA for each code
 * placement asked for. Returns the exit status. */
static int measure(const cycles_opts *o, vs_gba_cycles_list *l, vs_replay *r)
{
	const vs_cli_cycles_ask *ask = &o->ask;
	const vs_arena *a;
	int i, status = vs_cli_cycles_replay(ask, l, r);

	if (status == VS_EXIT_USAGE)
		return status;
	a = vs_replay_arena(r, l->arena);
	for (i = o->code_lo; i <= o->code_hi; i++) {
		int s = run_code(ask, l, i, &a->decl, ask->max_frames);

		if (s > status)
			status = s;
		if (s == VS_EXIT_USAGE)
			break;
	}
	return status;
}

int vs_cmd_cycles(int argc, char **argv)
{
	cycles_opts o;
	vs_replay_config cfg;
	char opts[VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX];
	const vs_cycles_target *t;
	size_t nt;
	vs_gba_cycles_list *l;
	vs_replay *r;
	int rc;

	if ((rc = parse(argc, argv, &o)) >= 0)
		return rc;
	if (roms_missing(&o))
		return VS_EXIT_USAGE;
	if (!(l = vs_gba_cycles_list_new())) {
		fprintf(stderr, "vramsim cycles: out of memory\n");
		return VS_EXIT_USAGE;
	}
	t = vs_gba_cycles_targets(&nt);
	r = vs_cli_cycles_open(&o.ask, l, t, nt, &cfg, opts);
	rc = r ? measure(&o, l, r) : VS_EXIT_USAGE;
	vs_replay_free(r);
	vs_cycles_list_free(l);
	return rc;
}
