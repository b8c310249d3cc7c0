/* SPDX-License-Identifier: Zlib */
/* cli_cycles.c - `vramsim cycles` on every console: the module a trace
 * goes to, the replay that builds the request list, and the tables both
 * consoles print (see cli_cycles.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_cycles.h"
#include "strategies/registry.h"
#include "vram/arena.h"

#define CMD "cycles"

/* ---- which module measures the trace -------------------------------------- */

#define DS_KINDS (VS_ARENA_BIT(VS_ARENA_DS_TEX) | VS_ARENA_BIT(VS_ARENA_DS_PLTT) | VS_ARENA_ANY_DS_2D)
#define GBA_KINDS (VS_ARENA_BIT(VS_ARENA_GBA_OBJ) | VS_ARENA_BIT(VS_ARENA_GBA_BG))

/* The DS's or the GBA's arena kinds a strategy manages: 1 DS only, 0 not. */
static int ds_strategy(const char *choice)
{
	char name[VS_NAME_MAX];
	const char *colon = strchr(choice, ':'), *eq = strchr(choice, '=');
	const vs_strategy *s;
	size_t n;

	if (eq && (!colon || eq < colon))
		choice = eq + 1; /* ARENA=NAME */
	colon = strchr(choice, ':');
	n = colon ? (size_t)(colon - choice) : strlen(choice);
	if (n >= sizeof name)
		return 0;
	memcpy(name, choice, n);
	name[n] = '\0';
	s = vs_strategy_find(name);
	return s && (s->arenas & DS_KINDS) && !(s->arenas & GBA_KINDS);
}

/* The arena kinds of a regular trace file (the named arena's, when given). */
static unsigned trace_kinds(const char *path, const char *arena)
{
	char err[256];
	struct stat st;
	vs_trace_reader *rd;
	const vs_trace_header *h;
	unsigned kinds = 0;
	int i;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !(rd = vs_trace_open(path, err, sizeof err)))
		return 0;
	h = vs_trace_header_of(rd);
	for (i = 0; i < h->narenas; i++)
		if (!arena || strcmp(h->arenas[i].name, arena) == 0)
			kinds |= VS_ARENA_BIT(h->arenas[i].kind);
	vs_trace_close(rd);
	return kinds;
}

/* The value of option opt (long, with or without '=', or its short form)
 * at argv[*i], stepping over it; NULL when argv[*i] is not that option. */
static const char *option_value(int argc, char **argv, int *i, const char *opt, const char *shrt)
{
	size_t n = strlen(opt);

	if (strncmp(argv[*i], opt, n) == 0 && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], opt) == 0 || (shrt && strcmp(argv[*i], shrt) == 0))
		return *i + 1 < argc ? argv[++*i] : NULL;
	return NULL;
}

const char *vs_cli_cycles_module(int argc, char **argv)
{
	static const char *const valued[] = { "--code", "--max-frames", "--plugin" };
	const char *strategy = NULL, *arena = NULL, *trace = NULL, *v;
	unsigned kinds;
	int i, operands = 0;
	size_t k;

	for (i = 1; i < argc; i++) {
		if (operands || argv[i][0] != '-' || !argv[i][1]) {
			if (!trace)
				trace = argv[i];
			continue;
		}
		if (strcmp(argv[i], "--") == 0)
			operands = 1;
		else if ((v = option_value(argc, argv, &i, "--strategy", "-s")) != NULL)
			strategy = v;
		else if ((v = option_value(argc, argv, &i, "--arena", NULL)) != NULL)
			arena = v;
		else
			for (k = 0; k < sizeof valued / sizeof valued[0]; k++)
				if (option_value(argc, argv, &i, valued[k], NULL))
					break;
	}
	if (strategy)
		return ds_strategy(strategy) ? "ds" : "gba";
	kinds = trace ? trace_kinds(trace, arena) : 0;
	return (kinds & DS_KINDS) && !(kinds & GBA_KINDS) ? "ds" : "gba";
}

int vs_cli_cycles_take(vs_cli_cycles_ask *a, const vs_cli_parser *p, int c)
{
	uint64_t v;

	switch (c) {
	case 's':
		/* one strategy a run, as for -s a,b: a second -s was taken and the first dropped unsaid */
		if (a->strategy)
			return vs_cli_usage_error(CMD, "--strategy %s after --strategy %s: one strategy at a time", p->arg,
				a->strategy);
		a->strategy = p->arg;
		return -1;
	case VS_CLI_CYCLES_ARENA:
		a->arena = p->arg;
		return -1;
	case VS_CLI_CYCLES_MAX_FRAMES:
		if (vs_cli_uint(p, 1, 0xFFFFFFFFu, &v))
			return VS_EXIT_USAGE;
		a->max_frames = (uint32_t)v;
		return -1;
	case VS_CLI_OPERAND:
		if (a->path)
			return vs_cli_usage_error("cycles", "one trace at a time (got '%s' and '%s')", a->path, p->arg);
		a->path = p->arg;
		return -1;
	default:
		return VS_CLI_NOT_SHARED;
	}
}

/* ---- the replay that builds the list -------------------------------------- */

/* Applies --strategy (one choice; --arena names its arena) to cfg: 0, or
 * a usage error's exit status. */
static int choose(const vs_cli_cycles_ask *a, const vs_trace_header *h, vs_replay_config *cfg,
	char opts[][VS_OPTIONS_MAX])
{
	vs_cli_choices cs;
	char err[1024];
	int rc;

	if (!a->strategy)
		return 0;
	memset(&cs, 0, sizeof cs);
	rc = vs_cli_choices_add(CMD, &cs, a->strategy) || vs_cli_choices_split(CMD, &cs) ? VS_EXIT_USAGE : 0;
	if (!rc && cs.n != 1)
		rc = vs_cli_usage_error(CMD, "--strategy %s: one strategy at a time", a->strategy);
	if (!rc && a->arena && !cs.v[0].arena[0])
		snprintf(cs.v[0].arena, sizeof cs.v[0].arena, "%s", a->arena);
	if (!rc && vs_cli_apply_choices(cs.v, 1, h, cfg, opts, err, sizeof err))
		rc = vs_cli_usage_error(CMD, "%s", err);
	vs_cli_choices_free(&cs);
	return rc;
}

/* Says that no arena of the replay can be measured: the one asked for,
 * or any. */
static void no_build(const vs_cli_cycles_ask *a, const vs_trace_header *h, vs_replay *r,
	const vs_cycles_target *t, size_t nt)
{
	const vs_strategy *s = a->arena ? vs_replay_strategy(r, vs_trace_arena_index(h, a->arena)) : NULL;
	char list[512];

	vs_cycles_target_names(t, nt, list, sizeof list);
	if (a->strategy || s)
		fprintf(stderr, "vramsim cycles: %s has no %s build yet (%s builds: %s)\n",
			s ? s->name : a->strategy, a->console, a->console, list);
	else
		fprintf(stderr, "vramsim cycles: no arena of %s uses a strategy with a %s build (%s); "
			"choose one with --strategy\n", a->path, a->console, list);
}

vs_replay *vs_cli_cycles_open(const vs_cli_cycles_ask *a, vs_cycles_list *l, const vs_cycles_target *t,
	size_t nt, vs_replay_config *cfg, char opts[][VS_OPTIONS_MAX])
{
	char err[1024];
	const char *arena = a->arena;
	const vs_trace_header *h;
	vs_trace_reader *rd;
	vs_replay *r;
	int i;

	vs_replay_config_default(cfg);
	if (!(rd = vs_trace_open(a->path, err, sizeof err))) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	h = vs_trace_header_of(rd);
	if (a->arena && vs_trace_arena_index(h, a->arena) < 0) {
		vs_trace_close(rd);
		vs_cli_usage_error(CMD, "the trace has no arena '%s'", a->arena);
		return NULL;
	}
	if (choose(a, h, cfg, opts)) {
		vs_trace_close(rd);
		return NULL;
	}
	cfg->observer = vs_cycles_observe;
	cfg->observer_ud = l;
	/* --strategy alone measures the first arena it was given to */
	for (i = 0; !arena && a->strategy && i < h->narenas; i++)
		if (cfg->strategy[i])
			arena = h->arenas[i].name;
	/* a DS arena on the GBA: its DS rules (boundary=) are not the GBA
	 * build's, and every placement they move reads as the build's fault */
	for (i = 0; arena && strcmp(a->console, "GBA") == 0 && i < h->narenas; i++)
		if (strcmp(h->arenas[i].name, arena) == 0 && !(VS_ARENA_BIT(h->arenas[i].kind) & GBA_KINDS)) {
			vs_cli_usage_error(CMD, "arena '%s' is a DS arena (%s): the GBA build does not keep its rules; measure "
				"it on the DS (a strategy with a DS build: see 'vramsim cycles --help')", arena,
				vs_arena_kind_name(h->arenas[i].kind));
			vs_trace_close(rd);
			return NULL;
		}
	if (!(r = vs_replay_new(rd, cfg, err, sizeof err)))
		fprintf(stderr, "vramsim cycles: %s\n", err);
	else if (vs_cycles_list_aim(l, r, arena, t, nt) < 0) {
		no_build(a, h, r, t, nt);
		vs_replay_free(r);
		r = NULL;
	}
	return r;
}

int vs_cli_cycles_replay(const vs_cli_cycles_ask *a, vs_cycles_list *l, vs_replay *r)
{
	const vs_arena *ar = vs_replay_arena(r, l->arena);
	int rc = vs_replay_run(r, 0);

	if (rc < 0 || l->failed) {
		fprintf(stderr, "%s%s%s\n", rc < 0 ? vs_replay_error(r) : a->path, rc < 0 ? "" : ": error: ",
			rc < 0 ? "" : l->err);
		return VS_EXIT_USAGE;
	}
	printf("cycles %s: arena %s (%s), strategy %s, %u calls measured", a->path, ar->decl.name,
		vs_arena_kind_name(ar->decl.kind), l->t->name, (unsigned)l->n);
	if (l->skipped)
		printf(" (%u requests the strategy refused without a call)", (unsigned)l->skipped);
	printf("\n");
	if (vs_replay_check_total(r)) {
		fprintf(stderr, "vramsim cycles: the host replay failed %llu integrity checks\n",
			(unsigned long long)vs_replay_check_total(r));
		return VS_EXIT_CHECK;
	}
	return VS_EXIT_OK;
}

/* ---- output ------------------------------------------------------------------ */

static double share(double cycles, uint32_t of)
{
	return 100.0 * cycles / of;
}

void vs_cli_cycles_print_ops(const vs_cycles_list *l, const vs_cycles_result *res, uint32_t frame)
{
	vs_cycles_op ops[4];
	int i, n = vs_cycles_ops(l, res, ops);

	if (n < 0)
		return;
	printf("%-6s %8s %9s %9s %9s %9s %11s %11s\n", "op", "calls", "mean", "median", "p99", "max",
		"mean/frame", "max/frame");
	for (i = 0; i < n; i++)
		printf("%-6s %8u %9.0f %9u %9u %9u %10.3f%% %10.3f%%\n", ops[i].name, (unsigned)ops[i].calls,
			ops[i].mean, (unsigned)ops[i].median, (unsigned)ops[i].p99, (unsigned)ops[i].max,
			share(ops[i].mean, frame), share(ops[i].max, frame));
}

void vs_cli_cycles_print_frames(const vs_cycles_list *l, const vs_cycles_result *res, const char *unit,
	uint32_t frame, uint32_t vblank)
{
	vs_cycles_frame w;

	if (!l->frames) {
		printf("frames: the trace has no frame markers\n");
		return;
	}
	vs_cycles_worst_frame(l, res, &w);
	printf("frames: %u markers; worst frame: after marker %u (its first call at line %llu): %llu "
		"allocator %s = %.2f%% of a frame (%u %s), %.2f%% of VBlank (%u %s)\n",
		(unsigned)l->frames, (unsigned)w.frame, (unsigned long long)w.line, (unsigned long long)w.cycles, unit,
		share((double)w.cycles, frame), frame, unit, share((double)w.cycles, vblank), vblank, unit);
}

const char *vs_cli_cycles_what(const vs_cycles_list *l, uint32_t i, char *buf, size_t len)
{
	static const char *const what[] = { "nop", "alloc", "free", "reset", "frame", "bank write" };
	uint8_t op = l->rq[i].op;

	if (op == VS_CYCLES_OP_ALLOC || op == VS_CYCLES_OP_FREE)
		snprintf(buf, len, "the %s of id %llu", what[op], (unsigned long long)l->calls[i].id);
	else
		snprintf(buf, len, "the %s", op <= VS_CYCLES_OP_BANK ? what[op] : "request");
	return buf;
}

/* An address in the arena for a message, or "nothing (failed)". */
static const char *where(char *buf, size_t len, const vs_arena_decl *a, uint32_t offset, int hit)
{
	if (offset == VS_CYCLES_NONE)
		snprintf(buf, len, "nothing (failed)");
	else
		snprintf(buf, len, "0x%08x%s", (unsigned)(a->base + offset), hit ? " (a hit)" : "");
	return buf;
}

uint32_t vs_cli_cycles_report_diffs(const vs_cli_cycles_ask *a, const vs_cycles_list *l,
	const vs_cycles_result *res, const vs_arena_decl *decl)
{
	uint32_t i, got, bad = 0;
	int hit;

	for (i = vs_cycles_next_diff(l, res, 0, &got, &hit); i < l->n;
		i = vs_cycles_next_diff(l, res, i + 1, &got, &hit)) {
		char g[48], h[48];

		if (bad++ >= 10)
			continue;
		if (l->rq[i].op == VS_CYCLES_OP_FREE) {
			fprintf(stderr, "%s:%llu: error: after the free of id %llu, the %s's allocations sit elsewhere than "
				"the host's (digest 0x%08x, the host's 0x%08x)\n", a->path, (unsigned long long)l->calls[i].line,
				(unsigned long long)l->calls[i].id, a->console, (unsigned)got, (unsigned)l->calls[i].digest);
			continue;
		}
		fprintf(stderr, "%s:%llu: error: id %llu: the %s placed it at %s, the host at %s\n", a->path,
			(unsigned long long)l->calls[i].line, (unsigned long long)l->calls[i].id, a->console,
			where(g, sizeof g, decl, got, hit),
			where(h, sizeof h, decl, l->calls[i].expect, l->calls[i].shared));
	}
	return bad;
}
