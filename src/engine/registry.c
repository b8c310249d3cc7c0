/* SPDX-License-Identifier: Zlib */
/* registry.c - the table of strategies: built-ins, then plug-ins. */
#include <stdio.h>
#include <string.h>

#include "vramsim/strategy.h"
#include "../strategies/strategies.h"

#define MAX_EXTRA 64

static const vs_strategy *extra[MAX_EXTRA];
static size_t nextra;

static const vs_strategy *const *const families[] = {
	vs_strategies_gba, vs_strategies_ds, vs_strategies_heap, vs_strategies_recorded
};

static size_t builtin_count(void)
{
	size_t n = 0, f, i;

	for (f = 0; f < sizeof families / sizeof families[0]; f++)
		for (i = 0; families[f][i]; i++)
			n++;
	return n;
}

size_t vs_strategy_count(void)
{
	return builtin_count() + nextra;
}

const vs_strategy *vs_strategy_at(size_t idx)
{
	size_t f, i;

	for (f = 0; f < sizeof families / sizeof families[0]; f++)
		for (i = 0; families[f][i]; i++)
			if (idx-- == 0)
				return families[f][i];
	return idx < nextra ? extra[idx] : NULL;
}

const vs_strategy *vs_strategy_find(const char *name)
{
	size_t i, n = vs_strategy_count();

	for (i = 0; i < n; i++) {
		const vs_strategy *s = vs_strategy_at(i);
		if (strcmp(s->name, name) == 0)
			return s;
	}
	return NULL;
}

int vs_strategy_manages(const vs_strategy *s, vs_arena_kind kind)
{
	return (s->arenas & VS_ARENA_BIT(kind)) != 0;
}

int vs_strategy_refuses(const vs_strategy *s, const vs_arena_decl *d, char *why, size_t whylen)
{
	char can[256] = "";
	size_t i, n = vs_strategy_count(), len = 0;

	if (d->kind != VS_ARENA_GBA_OBJ || !d->gba_obj_2d || (s->flags & VS_STRAT_OBJ_2D))
		return 0;
	for (i = 0; i < n && len < sizeof can; i++) {
		const vs_strategy *c = vs_strategy_at(i);
		if ((c->flags & VS_STRAT_OBJ_2D) && vs_strategy_manages(c, d->kind))
			len += (size_t)snprintf(can + len, sizeof can - len, "%s%s", len ? ", " : "", c->name);
	}
	snprintf(why, whylen, "strategy '%s' places sprites for 1D OBJ mapping only, and arena '%s' declares 2D "
		"mapping (map=2d), where a sprite takes a rectangle of the 32x32 tile matrix; strategies for 2D: %s",
		s->name, d->name, len ? can : "none");
	return 1;
}

const vs_strategy *vs_strategy_default(vs_arena_kind kind)
{
	/* Each memory's default is the system its public description uses:
	 * 'Gameboy Advance Resource Management' for the GBA, the NITRO-System
	 * "VRAM Managers" document for the DS, The Simpsons: Hit & Run's Doug
	 * Lea heap for RAM. */
	static const char *const names[VS_ARENA_KIND_COUNT] = {
		"gba-obj-map", "gba-bg-tiles", "nns-lnk-tex", "nns-lnk-pltt", "heap-dlmalloc"
	};
	const vs_strategy *s = (unsigned)kind < VS_ARENA_KIND_COUNT ? vs_strategy_find(names[kind]) : NULL;
	size_t i, n = vs_strategy_count();

	if (s)
		return s;
	for (i = 0; i < n; i++)
		if (vs_strategy_manages(vs_strategy_at(i), kind))
			return vs_strategy_at(i);
	return NULL;
}

const vs_strategy *vs_strategy_default_for(const vs_arena_decl *d)
{
	const vs_strategy *s = vs_strategy_default(d->kind);
	char why[8];
	size_t i, n = vs_strategy_count();

	/* The kind's default may not take this arena (a 2D obj arena): the
	 * first strategy that does. */
	if (!s || !vs_strategy_refuses(s, d, why, sizeof why))
		return s;
	for (i = 0; i < n; i++) {
		const vs_strategy *c = vs_strategy_at(i);
		if (vs_strategy_manages(c, d->kind) && !vs_strategy_refuses(c, d, why, sizeof why))
			return c;
	}
	return s;
}

int vs_strategy_register(const vs_strategy *s, char *err, size_t errlen)
{
	if (!s || s->abi != VS_STRATEGY_ABI) {
		snprintf(err, errlen, "strategy table has ABI %u, vramsim speaks %u",
			s ? (unsigned)s->abi : 0u, (unsigned)VS_STRATEGY_ABI);
		return -1;
	}
	if (!s->name || !*s->name || !s->init || !s->alloc || !s->free || !s->reset || !s->walk_free) {
		snprintf(err, errlen, "strategy '%s' lacks a name or a required operation",
			s->name ? s->name : "(null)");
		return -1;
	}
	if (vs_strategy_find(s->name)) {
		snprintf(err, errlen, "a strategy named '%s' is already registered", s->name);
		return -1;
	}
	if (nextra == MAX_EXTRA) {
		snprintf(err, errlen, "too many plug-in strategies (at most %d)", MAX_EXTRA);
		return -1;
	}
	extra[nextra++] = s;
	return 0;
}

static const char *const status_names[] = {
	"lost", "invalid", "unsupported", "rule", "management", "no space", "ok", "retained"
};

const char *vs_status_name(int status)
{
	return status >= VS_ERR_LOST && status <= VS_RETAINED ? status_names[status - VS_ERR_LOST] : "?";
}
