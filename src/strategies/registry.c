/* SPDX-License-Identifier: Zlib */
/* registry.c - the table of strategies: built-ins, then plug-ins. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vramsim/strategy.h"
#include "base/text.h"
#include "strategies/strategies.h"
#include "strategies/registry.h"

#define MAX_EXTRA VS_PLUGIN_MAX_STRATEGIES

static const vs_strategy *extra[MAX_EXTRA];
static vs_strategy upgraded[MAX_EXTRA]; /* older-ABI tables in today's layout */
static size_t nextra;

/* The bytes of a table of each ABI: the fields that version has. */
static size_t abi_bytes(uint32_t abi)
{
	return abi == 1 ? offsetof(vs_strategy, ram) : abi == 2 ? offsetof(vs_strategy, vramcnt) :
		abi == 3 ? offsetof(vs_strategy, released) : sizeof(vs_strategy);
}

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

/* Names strategies had before, with the name each has now: the old name
 * still finds it, with a warning each time (no flag to share between
 * compare's threads). */
static const struct { const char *old, *now, *why; } renamed[] = {
	{ "gba-obj-best-fit", "gba-obj-best-fit-end",
		"it carves from the END of the chosen range; Butano's own manager is butano-sprite-tiles" },
};

const vs_strategy *vs_strategy_find(const char *name)
{
	size_t i, n = vs_strategy_count();

	for (i = 0; i < n; i++) {
		const vs_strategy *s = vs_strategy_at(i);
		if (strcmp(s->name, name) == 0)
			return s;
	}
	for (i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
		if (strcmp(renamed[i].old, name) == 0) {
			fprintf(stderr, "vramsim: warning: strategy '%s' is now '%s' (%s)\n", renamed[i].old,
				renamed[i].now, renamed[i].why);
			return vs_strategy_find(renamed[i].now);
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

	if ((d->kind != VS_ARENA_GBA_OBJ && d->kind != VS_ARENA_DS_OBJ) || !d->gba_obj_2d ||
	    (s->flags & VS_STRAT_OBJ_2D))
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
		"gba-obj-map", "gba-bg-tiles", "nns-lnk-tex", "nns-lnk-pltt", "heap-dlmalloc",
		"libnds-sprite", "recorded", "recorded", "recorded"
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

/* A name as the command line takes it: lower-case letters, digits and
 * -_. (no ',', ':' or '=', which --strategy splits on), from a letter or digit. */
static int name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n >= VS_NAME_MAX || name[0] == '-' || name[0] == '_' || name[0] == '.')
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'))
			return 0;
	}
	return 1;
}

#define STATE_MAX (64u << 20) /* state or saved state a strategy may ask for */

/* Everything vramsim relies on in a table it did not build. */
static int check(const vs_strategy *s, char *err, size_t errlen)
{
	const uint32_t known_flags = VS_STRAT_RELOCATABLE | VS_STRAT_NATIVE_STATE | VS_STRAT_NEEDS_AT | VS_STRAT_OBJ_2D |
		VS_STRAT_NO_MEM | VS_STRAT_REALLOC | VS_STRAT_FREE_MOVES | VS_STRAT_HELD_FIXED;
	char shown[96];

	if (!s || s->abi < VS_STRATEGY_ABI_OLDEST || s->abi > VS_STRATEGY_ABI) {
		snprintf(err, errlen, "strategy table has ABI %u, vramsim speaks %u to %u",
			s ? (unsigned)s->abi : 0u, (unsigned)VS_STRATEGY_ABI_OLDEST, (unsigned)VS_STRATEGY_ABI);
		return -1;
	}
	if (!name_ok(s->name)) {
		vs_text_escape(shown, sizeof shown, s->name, strnlen(s->name, 64), 0);
		snprintf(err, errlen, "strategy name '%s' is not 1-%d lower-case letters, digits or -_. "
			"(from a letter or digit)", shown, VS_NAME_MAX - 1);
		return -1;
	}
	if (!s->summary || strnlen(s->summary, 512) == 512 || !vs_text_clean(s->summary, strlen(s->summary))) {
		snprintf(err, errlen, "strategy '%s': the summary is missing, longer than 511 bytes, or holds control "
			"characters or bytes that are not UTF-8", s->name);
		return -1;
	}
	if (!s->init || !s->alloc || !s->free || !s->reset || !s->walk_free) {
		snprintf(err, errlen, "strategy '%s' lacks a required operation (init, alloc, free, reset, walk_free)",
			s->name);
		return -1;
	}
	if (!s->arenas || (s->arenas >> VS_ARENA_KIND_COUNT)) {
		snprintf(err, errlen, "strategy '%s': arenas 0x%x names no arena kind, or kinds that do not exist",
			s->name, (unsigned)s->arenas);
		return -1;
	}
	if (s->flags & ~known_flags) {
		snprintf(err, errlen, "strategy '%s': unknown flags 0x%x", s->name, (unsigned)(s->flags & ~known_flags));
		return -1;
	}
	if (s->state_size > STATE_MAX || s->save_size > STATE_MAX) {
		snprintf(err, errlen, "strategy '%s' asks for more than %u MiB of state", s->name, STATE_MAX >> 20);
		return -1;
	}
	if (!s->save != !s->restore || (s->save && !s->save_size) || (!s->save && s->save_size) ||
		((s->flags & VS_STRAT_NATIVE_STATE) && !s->save)) {
		snprintf(err, errlen, "strategy '%s': save, restore and save_size come together (and native state "
			"needs them)", s->name);
		return -1;
	}
	return 0;
}

int vs_strategy_register_all(const vs_strategy *const *v, size_t n, char *err, size_t errlen)
{
	size_t i, k;

	if (n > MAX_EXTRA - nextra) {
		snprintf(err, errlen, "too many plug-in strategies (at most %d in all; %zu more asked, %zu taken)",
			MAX_EXTRA, n, nextra);
		return -1;
	}
	for (i = 0; i < n; i++) {
		/* a NULL name could not be shown in any message below */
		if (!v[i] || !v[i]->name) {
			snprintf(err, errlen, "strategy %zu of %zu %s", i + 1, n,
				v[i] ? "has no name (its name is NULL)" : "is a NULL pointer");
			return -1;
		}
		if (check(v[i], err, errlen))
			return -1;
		if (vs_strategy_find(v[i]->name)) {
			snprintf(err, errlen, "a strategy named '%s' is already registered", v[i]->name);
			return -1;
		}
		for (k = 0; k < i; k++)
			if (strcmp(v[k]->name, v[i]->name) == 0) {
				snprintf(err, errlen, "strategy '%s' is listed twice", v[i]->name);
				return -1;
			}
	}
	for (i = 0; i < n; i++, nextra++) {
		if (v[i]->abi == VS_STRATEGY_ABI) {
			extra[nextra] = v[i];
			continue;
		}
		/* read only the fields that version has: the table may end there */
		memset(&upgraded[nextra], 0, sizeof upgraded[nextra]);
		memcpy(&upgraded[nextra], v[i], abi_bytes(v[i]->abi));
		upgraded[nextra].abi = VS_STRATEGY_ABI;
		extra[nextra] = &upgraded[nextra];
	}
	return 0;
}

int vs_strategy_register(const vs_strategy *s, char *err, size_t errlen)
{
	return vs_strategy_register_all(&s, 1, err, errlen);
}

static const char *const status_names[] = {
	"lost", "invalid", "unsupported", "rule", "management", "no space", "ok", "retained"
};

const char *vs_strategy_status_name(int status)
{
	return status >= VS_ERR_LOST && status <= VS_RETAINED ? status_names[status - VS_ERR_LOST] : "?";
}
