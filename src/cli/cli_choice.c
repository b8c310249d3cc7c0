/* SPDX-License-Identifier: Zlib */
/* cli_choice.c - strategy choices from --strategy, the same in replay,
 * compare, render and view: read, grouped into runs or sides, applied to a
 * replay configuration. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "base/grow.h"
#include "base/options.h"
#include "strategies/registry.h"
#include "vram/arena.h"

int vs_cli_choices_add(const char *cmd, vs_cli_choices *cs, const char *value)
{
	if (vs_grow_int(&cs->raw, sizeof *cs->raw, &cs->rawcap, (size_t)cs->nraw + 1, 8))
		return vs_cli_usage_error(cmd, "out of memory");
	cs->raw[cs->nraw++] = value;
	return 0;
}

void vs_cli_choices_free(vs_cli_choices *cs)
{
	free(cs->raw);
	free(cs->v);
	free(cs->first);
	memset(cs, 0, sizeof *cs);
}

/* Whether text up to ':' (or the end) names a strategy. */
static int names_strategy(const char *s)
{
	char name[VS_NAME_MAX + 1];
	size_t n = strcspn(s, ":");

	if (n == 0 || n > VS_NAME_MAX)
		return 0;
	memcpy(name, s, n);
	name[n] = '\0';
	return vs_strategy_find(name) != NULL;
}

int vs_cli_unknown_strategy(const char *cmd, const char *name)
{
	char near[256];
	vs_cli_near nr;
	size_t i;

	vs_cli_near_init(&nr, name);
	for (i = 0; i < vs_strategy_count(); i++)
		vs_cli_near_add(&nr, vs_strategy_at(i)->name);
	return vs_cli_usage_error(cmd, "unknown strategy '%s' (see 'vramsim strategies')%s", name,
		vs_cli_near_text(&nr, "", near, sizeof near));
}

/* One piece, "NAME[:OPTS]" or "ARENA=NAME[:OPTS]", into c. */
static int read_piece(const char *cmd, char *piece, vs_cmp_choice *c)
{
	char *eq = strchr(piece, '='), *colon = strchr(piece, ':'), *name = piece;

	memset(c, 0, sizeof *c);
	if (eq && (!colon || eq < colon)) {
		if (eq == piece || (size_t)(eq - piece) >= sizeof c->arena)
			return vs_cli_usage_error(cmd, "--strategy '%s': bad arena name", piece);
		memcpy(c->arena, piece, (size_t)(eq - piece));
		name = eq + 1;
	}
	colon = strchr(name, ':');
	if (colon == name || strcspn(name, ":") > VS_NAME_MAX || !*name)
		return vs_cli_usage_error(cmd, "--strategy '%s': expected NAME, NAME:OPTIONS or ARENA=NAME", piece);
	if (colon) {
		if (strlen(colon + 1) >= sizeof c->options)
			return vs_cli_usage_error(cmd, "--strategy '%s': options too long", piece);
		strcpy(c->options, colon + 1);
		*colon = '\0';
	}
	c->strategy = vs_strategy_find(name);
	return c->strategy ? 0 : vs_cli_unknown_strategy(cmd, name);
}

/* Appends ",KEY=VALUE" to the options of c. */
static int more_options(const char *cmd, vs_cmp_choice *c, const char *piece)
{
	size_t used = strlen(c->options);

	if (used + 1 + strlen(piece) >= sizeof c->options)
		return vs_cli_usage_error(cmd, "--strategy: options of %s too long", c->strategy->name);
	c->options[used] = ',';
	strcpy(c->options + used + 1, piece);
	return 0;
}

/* Splits one value "a,b:x=1,y=2,ARENA=c" into choices. A piece KEY=VALUE
 * right after a choice with options, whose VALUE is no strategy name,
 * continues those options ("b:x=1,y=2"); otherwise KEY=VALUE is
 * ARENA=STRATEGY. An empty value or piece ("", ",", "a,,b") names nothing
 * and is an error, as is an option key given twice to one choice, which
 * traces and budget files refuse too. */
static int split_value(const char *cmd, vs_cli_choices *cs, char *copy, const char *value)
{
	char *piece = copy, *next, why[128];
	int first = cs->n, k;

	for (; piece; piece = next) {
		char *eq, *colon;
		vs_cmp_choice *prev = cs->n > first ? &cs->v[cs->n - 1] : NULL;
		if ((next = strchr(piece, ',')))
			*next++ = '\0';
		if (!*piece)
			return vs_cli_usage_error(cmd, "--strategy '%s': an empty name (expected NAME[:OPTIONS] or "
				"ARENA=NAME[:OPTIONS], separated by commas)", value);
		eq = strchr(piece, '=');
		colon = strchr(piece, ':');
		if (eq && (!colon || eq < colon) && prev && prev->options[0] && !names_strategy(eq + 1)) {
			if (more_options(cmd, prev, piece))
				return -1;
			continue;
		}
		if (vs_grow_int(&cs->v, sizeof *cs->v, &cs->cap, (size_t)cs->n + 1, 8))
			return vs_cli_usage_error(cmd, "out of memory");
		if (read_piece(cmd, piece, &cs->v[cs->n]))
			return -1;
		cs->n++;
	}
	for (k = first; k < cs->n; k++)
		if (vs_option_check_repeats(cs->v[k].options, why, sizeof why))
			return vs_cli_usage_error(cmd, "--strategy '%s': %s: %s", value, cs->v[k].strategy->name, why);
	return 0;
}

int vs_cli_choices_split(const char *cmd, vs_cli_choices *cs)
{
	int k, rc = 0;

	for (k = 0; k < cs->nraw && !rc; k++) {
		char *copy = malloc(strlen(cs->raw[k]) + 1);
		if (!copy)
			return vs_cli_usage_error(cmd, "out of memory");
		strcpy(copy, cs->raw[k]);
		rc = split_value(cmd, cs, copy, cs->raw[k]);
		free(copy);
	}
	return rc;
}

void vs_cli_choices_label(const vs_cmp_choice *v, int n, char *buf, size_t len)
{
	size_t used = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < n && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s%s%s", k ? "," : "", v[k].arena,
			v[k].arena[0] ? "=" : "", v[k].strategy->name, v[k].options[0] ? ":" : "", v[k].options);
}

/* The arenas of h that c is for, one bit each; 0 with a message in err
 * when there are none. */
static unsigned covers(const vs_cmp_choice *c, const vs_trace_header *h, char *err, size_t errlen)
{
	char label[VS_CMP_LABEL_MAX + VS_NAME_MAX];
	unsigned mask = 0;
	int i;

	vs_cli_choices_label(c, 1, label, sizeof label);
	if (c->arena[0]) {
		i = vs_trace_arena_index(h, c->arena);
		if (i < 0)
			snprintf(err, errlen, "--strategy %s: the trace has no arena '%s'", label, c->arena);
		else if (!vs_strategy_manages(c->strategy, h->arenas[i].kind))
			snprintf(err, errlen, "--strategy %s: %s cannot manage arena '%s' of kind %s", label,
				c->strategy->name, c->arena, vs_arena_kind_name(h->arenas[i].kind));
		else
			mask = 1u << i;
		return mask;
	}
	for (i = 0; i < h->narenas; i++)
		if (vs_strategy_manages(c->strategy, h->arenas[i].kind))
			mask |= 1u << i;
	if (!mask)
		snprintf(err, errlen, "--strategy %s manages none of this trace's arenas", label);
	return mask;
}

int vs_cli_choices_group(const char *cmd, vs_cli_choices *cs, const vs_trace_header *h, int max, const char *what)
{
	char err[1024], label[VS_CMP_LABEL_MAX + VS_NAME_MAX];
	unsigned taken = 0;
	int k;

	free(cs->first);
	cs->first = malloc((size_t)(cs->n + 2) * sizeof *cs->first);
	if (!cs->first)
		return vs_cli_usage_error(cmd, "out of memory");
	cs->first[0] = 0;
	cs->ngroups = 1;
	for (k = 0; k < cs->n; k++) {
		unsigned m = covers(&cs->v[k], h, err, sizeof err);
		if (!m)
			return vs_cli_usage_error(cmd, "%s", err);
		if (m & taken) {
			/* an arena chosen twice: the choice starts the next group */
			vs_cli_choices_label(&cs->v[k], 1, label, sizeof label);
			if (cs->ngroups == max)
				return vs_cli_usage_error(cmd, "--strategy %s: at most %d strategies per arena (%d %ss)", label,
					max, max, what);
			cs->first[cs->ngroups++] = k;
			taken = 0;
		}
		taken |= m;
	}
	cs->first[cs->ngroups] = cs->n;
	return 0;
}

const vs_cmp_choice *vs_cli_choices_of(const vs_cli_choices *cs, int g, int *n)
{
	*n = cs->first ? cs->first[g + 1] - cs->first[g] : 0;
	return *n ? cs->v + cs->first[g] : NULL; /* no choices: v is NULL, and NULL + 0 is undefined */
}

int vs_cli_apply_choices(const vs_cmp_choice *v, int n, const vs_trace_header *h, vs_replay_config *cfg,
	char opts[][VS_OPTIONS_MAX], char *err, size_t errlen)
{
	int k, i;

	for (k = 0; k < n; k++) {
		unsigned m = covers(&v[k], h, err, errlen);
		if (!m)
			return -1;
		for (i = 0; i < h->narenas; i++) {
			if (!(m & 1u << i))
				continue;
			cfg->strategy[i] = v[k].strategy;
			snprintf(opts[i], VS_OPTIONS_MAX, "%s", v[k].options);
			cfg->options[i] = opts[i];
		}
	}
	return 0;
}
