/* SPDX-License-Identifier: Zlib */
/* cmd_cycles.c - `vramsim cycles DS.trace`: what each allocator call costs
 * on the DS's ARM9, as DeSmuME's interpreter times it.
 *
 * The trace is replayed on the host (the usual replay, with its checks);
 * every call the host made into the chosen arena's strategy becomes a
 * request for the "cycles" DS program (src/console/ds/rom/ds_cycles9.c),
 * which replays them in the DeSmuME libretro core with the same allocator
 * source built for the ARM946E-S and times each call with the DS timers.
 * The placements the DS returned must equal the host's. What the
 * emulator's timing is worth: docs/on-target.md, "The DS".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/in_file.h"
#include "cli/cli.h"
#include "cli/cli_cycles.h"
#include "cli/ds/ds_cmds.h"
#include "console/ds/ds_cycles_host.h"

#define CMD "cycles"

static void ds_notes(FILE *fp, int part)
{
	char list[512], rom[1024], err[512];
	FILE *f;

	if (part != 1)
		return;
	vs_ds_cycles_target_list(list, sizeof list);
	fprintf(fp, "\nstrategies with a DS build: %s\n", list);
	vs_ds_cli_status(fp, part);
	if (!vs_ds_cycles_rom(rom, sizeof rom, err, sizeof err))
		fprintf(fp, "this build: %s\n", err);
	else {
		f = vs_in_open_file(rom, err, sizeof err);
		if (f)
			fclose(f);
		fprintf(fp, "this build: DS cycles ROM: %s%s\n", rom, f ? "" : " (missing: build the "
			"vs_ds_rom_cycles target or set VRAMSIM_DS_ROM_DIR)");
	}
}

static const vs_cli_opt options[] = {
	{ "strategy", 's', "NAME", "the strategy to measure, NAME[:OPTS] (default: the arena's)" },
	{ "arena", VS_CLI_CYCLES_ARENA, "NAME", "the arena to measure (default: the first whose strategy has a DS build)" },
	{ "max-frames", VS_CLI_CYCLES_MAX_FRAMES, "N", "stop the emulated DS after N frames (default: 300, plus one "
		"for every 8 calls)" },
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (host side only)" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "cycles DS.trace [--strategy NAME] [options]",
	"Replays a DS trace on the host, then replays the same allocator calls on an\n"
	"emulated DS (the DeSmuME libretro core, interpreter, no BIOS, no window) with the\n"
	"allocator code built for the ARM946E-S, running uncached from main RAM, timing\n"
	"every call with timer 0 (F/1, 33.513982 MHz: 2 ARM9 cycles a tick) cascading\n"
	"into timer 1. Prints the ticks per call by operation (mean, median, 99th\n"
	"percentile, max, and as a share of a 560,190-tick frame) and, for traces with\n"
	"frame markers, the worst frame's allocator ticks as a share of the frame and of\n"
	"VBlank (151,230 ticks). The placements the DS returned must equal the host\n"
	"replay's. DeSmuME models neither the ARM9's caches nor its bus exactly: take the\n"
	"ticks as an estimate that ranks allocators, not as the hardware's count\n"
	"(docs/on-target.md). A trace whose arenas are all DS arenas, or a DS\n"
	"strategy or arena named, comes here; anything else goes to the GBA.\n",
	options,
	"exit: 0 measured and equal, 1 the DS's placements differ from the host's or the\n"
	"host replay failed a check, 2 bad usage, a malformed trace, no emulator core or\n"
	"no ROM.\n",
	ds_notes, 0
};

/* One option or operand: -1 to go on, or an exit status (every option is
 * one both consoles take). */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	return vs_cli_cycles_take(ud, p, c);
}

/* Whether the cycles ROM is missing: 0 when it is there. (A missing core
 * is said when the emulator starts, after the replay: loading it to look
 * costs more than a replay that goes wrong.) */
static int missing(void)
{
	char rom[1024], err[1024];
	FILE *fp;

	if (!vs_ds_cycles_rom(rom, sizeof rom, err, sizeof err)) {
		fprintf(stderr, "vramsim cycles: %s\n", err);
		return -1;
	}
	if (vs_in_regular(rom, "the DS cycles ROM", err, sizeof err)) { /* a FIFO there is said, not waited on */
		fprintf(stderr, "vramsim cycles: %s\n", err);
		return -1;
	}
	if (!(fp = vs_in_open(rom, "rb"))) {
		fprintf(stderr, "vramsim cycles: no DS cycles ROM at %s: build the vs_ds_rom_cycles target "
			"(needs gcc-arm-none-eabi) or set VRAMSIM_DS_ROM_DIR\n", rom);
		return -1;
	}
	fclose(fp);
	return 0;
}

/* Runs the list on the DS and prints what it answered. */
static int run_ds(const vs_cli_cycles_ask *o, const vs_cycles_list *l, const vs_arena_decl *a)
{
	char err[1024];
	vs_cycles_result *res;
	vs_ds_cycles_info info;
	uint32_t bad;

	if (vs_ds_cycles_measure(l, o->max_frames, &res, &info, err, sizeof err)) {
		fprintf(stderr, "vramsim cycles: %s\n", err);
		return VS_EXIT_USAGE;
	}
	printf("\nDS: ARM946E-S at 67.03 MHz in DeSmuME 0.9.11 (interpreter; no cache model, approximate bus "
		"timing), allocator code ARM in main RAM, uncached; timer ticks at 33.513982 MHz (2 ARM9 cycles "
		"each), timing overhead %u/%u/%u ticks (2/3/4-argument call) subtracted; %u frames emulated, "
		"%u request chunks\n", (unsigned)info.overhead2, (unsigned)info.overhead3, (unsigned)info.overhead4,
		(unsigned)info.frames, (unsigned)info.chunks);
	vs_cli_cycles_print_ops(l, res, VS_DS_FRAME_TICKS);
	vs_cli_cycles_print_frames(l, res, "ticks", VS_DS_FRAME_TICKS, VS_DS_VBLANK_TICKS);
	bad = vs_cli_cycles_report_diffs(o, l, res, a);
	if (bad)
		printf("placements: %u of the DS's allocations differ from the host replay\n", (unsigned)bad);
	else
		printf("placements: the DS's equal the host replay's (%u calls)\n", (unsigned)l->n);
	free(res);
	return bad ? VS_EXIT_CHECK : VS_EXIT_OK;
}

int vs_cmd_ds_cycles(int argc, char **argv)
{
	vs_cli_cycles_ask o;
	vs_replay_config cfg;
	char opts[VS_TRACE_MAX_ARENAS][VS_OPTIONS_MAX];
	const vs_cycles_target *t;
	vs_cycles_list *l;
	vs_replay *r;
	size_t nt;
	int rc, s;

	memset(&o, 0, sizeof o);
	o.console = "DS";
	if ((rc = vs_cli_parse(&command, argc, argv, take, &o)) >= 0)
		return rc;
	if (!o.path)
		return vs_cli_usage_error(CMD, "no trace given");
	if (missing())
		return VS_EXIT_USAGE;
	if (!(l = vs_ds_cycles_list_new())) {
		fprintf(stderr, "vramsim cycles: out of memory\n");
		return VS_EXIT_USAGE;
	}
	t = vs_ds_cycles_targets(&nt);
	r = vs_cli_cycles_open(&o, l, t, nt, &cfg, opts);
	rc = r ? vs_cli_cycles_replay(&o, l, r) : VS_EXIT_USAGE;
	if (rc != VS_EXIT_USAGE) {
		s = run_ds(&o, l, &vs_replay_arena(r, l->arena)->decl);
		rc = s > rc ? s : rc;
	}
	vs_replay_free(r);
	vs_cycles_list_free(l);
	return rc;
}
