/* SPDX-License-Identifier: Zlib */
/* cli_opt.c - getopt_long driven by a command's option table; its --help,
 * its usage errors and numbers read from option values. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "strategies/plugin.h"
#include "strategies/registry.h"

#define COMPLETE_ARG "--vs-complete"

static const vs_cli_opt help_opt = { "help", 'h', NULL, "show this help" };

const vs_cli_opt *vs_cli_opt_find(const vs_cli_cmd *cmd, int key)
{
	const vs_cli_opt *o;

	for (o = cmd->opts; !vs_cli_opt_end(o); o++)
		if (o->name && o->key == key)
			return o;
	return key == 'h' ? &help_opt : NULL;
}

void vs_cli_begin(vs_cli_parser *p, const vs_cli_cmd *cmd, int argc, char **argv)
{
	const vs_cli_opt *o;
	size_t n = 0, k = 0;

	memset(p, 0, sizeof *p);
	p->cmd = cmd;
	p->argc = argc;
	p->argv = argv;
	if (cmd->in_order)
		p->so[k++] = '+';
	p->so[k++] = ':'; /* a missing value returns ':', told apart from '?' */
	for (o = cmd->opts; !vs_cli_opt_end(o); o++) {
		if (!o->name)
			continue;
		if (n == VS_CLI_MAX_OPTS) {
			/* a table too long for the parser: a bug, caught by any run */
			fprintf(stderr, "vramsim %s: more than %d options\n", cmd->name, VS_CLI_MAX_OPTS);
			abort();
		}
		p->lo[n].name = o->name;
		p->lo[n].has_arg = o->arg ? required_argument : no_argument;
		p->lo[n++].val = o->key;
		if (o->key < VS_CLI_LONG) {
			p->so[k++] = (char)o->key;
			if (o->arg)
				p->so[k++] = ':';
		}
	}
	p->lo[n].name = help_opt.name;
	p->lo[n].val = 'h';
	p->so[k] = 'h';
	/* getopt keeps its state in globals: 0 makes GNU getopt start afresh */
	optind = 0;
	opterr = 0;
	if (argc > 1 && strcmp(argv[1], COMPLETE_ARG) == 0) {
		vs_cli_complete(cmd, argc - 2, argv + 2);
		p->done = 2;
	}
}

/* A long option getopt did not know: none or several start with it. */
static int unknown_long(const vs_cli_cmd *cmd, const char *w)
{
	const vs_cli_opt *o;
	const char *eq = strchr(w, '=');
	int len = eq ? (int)(eq - w) : (int)strlen(w), n = 0;
	char list[256] = "", near[256], word[128];
	vs_cli_near nr;

	for (o = cmd->opts; !vs_cli_opt_end(o); o++) {
		size_t used = strlen(list);
		if (!o->name || strncmp(o->name, w, (size_t)len) != 0)
			continue;
		snprintf(list + used, sizeof list - used, "%s--%s", n++ ? ", " : "", o->name);
	}
	if (n > 1)
		return vs_cli_usage_error(cmd->name, "option '--%.*s' is ambiguous: %s", len, w, list);
	snprintf(word, sizeof word, "%.*s", len, w);
	vs_cli_near_init(&nr, word);
	for (o = cmd->opts; !vs_cli_opt_end(o); o++)
		if (o->name)
			vs_cli_near_add(&nr, o->name);
	vs_cli_near_add(&nr, help_opt.name);
	vs_cli_near_text(&nr, "--", near, sizeof near);
	if (!cmd->name && !*near)
		return vs_cli_usage_error(NULL, "'--%s' comes before the command: options go after it "
			"('vramsim COMMAND --%s')", w, w);
	return vs_cli_usage_error(cmd->name, "unknown option '--%s'%s", word, near);
}

/* An option's value was missing or not wanted, or the option is unknown. */
static int bad_option(vs_cli_parser *p, int c)
{
	const vs_cli_cmd *cmd = p->cmd;
	const vs_cli_opt *o = optopt ? vs_cli_opt_find(cmd, optopt) : NULL;

	if (c == ':')
		return vs_cli_usage_error(cmd->name, "--%s needs a value (%s)", o->name, o->arg);
	if (o)
		return vs_cli_usage_error(cmd->name, "--%s takes no value", o->name);
	if (!optopt)
		return unknown_long(cmd, p->argv[optind - 1] + 2);
	if (!cmd->name)
		return vs_cli_usage_error(NULL, "'-%c' comes before the command: options go after it", optopt);
	return vs_cli_usage_error(cmd->name, "unknown option '-%c'", optopt);
}

static int option(vs_cli_parser *p, int c)
{
	char err[512];

	if (c == ':' || c == '?') {
		p->status = bad_option(p, c);
		return VS_CLI_STOP;
	}
	if (c == 'h') {
		vs_cli_help(p->cmd, stdout);
		p->status = VS_EXIT_OK;
		return VS_CLI_STOP;
	}
	p->opt = vs_cli_opt_find(p->cmd, c);
	p->arg = optarg;
	if (c != VS_CLI_PLUGIN)
		return c;
	if (vs_plugin_load(optarg, err, sizeof err)) {
		fprintf(stderr, "vramsim %s: %s\n", p->cmd->name, err);
		p->status = VS_EXIT_USAGE;
		return VS_CLI_STOP;
	}
	return vs_cli_next(p);
}

int vs_cli_next(vs_cli_parser *p)
{
	int c;

	if (p->done == 2)
		return VS_CLI_STOP;
	if (!p->done) {
		optopt = 0;
		c = getopt_long(p->argc, p->argv, p->so, p->lo, NULL);
		if (c != -1)
			return option(p, c);
		p->done = 1;
		p->at = optind - 1;
	}
	p->opt = NULL;
	if (++p->at >= p->argc)
		return VS_CLI_END;
	p->arg = p->argv[p->at];
	return VS_CLI_OPERAND;
}

int vs_cli_parse(const vs_cli_cmd *cmd, int argc, char **argv, vs_cli_take_fn *take, void *ud)
{
	vs_cli_parser p;
	int c, rc;

	vs_cli_begin(&p, cmd, argc, argv);
	while ((c = vs_cli_next(&p)) != VS_CLI_END)
		if ((rc = c == VS_CLI_STOP ? p.status : take(ud, &p, c)) >= 0)
			return rc;
	return -1;
}

/* ---- help ------------------------------------------------------------- */

static size_t left_len(const vs_cli_opt *o)
{
	return 2 + (o->key < VS_CLI_LONG ? 4 : 0) + 2 + strlen(o->name) + (o->arg ? 1 + strlen(o->arg) : 0);
}

#define HELP_WIDTH 79

/* Prints text from column col, wrapped between words before HELP_WIDTH;
 * a '\n' in text breaks the line too. n: the cursor's column now. */
static void print_wrapped(FILE *fp, const char *w, int col, int n)
{
	int fresh = 1; /* nothing written on this line from col on */

	while (*w) {
		int len = (int)strcspn(w, " \n");
		if (!fresh && n + 1 + len > HELP_WIDTH) {
			fputc('\n', fp);
			n = 0;
			fresh = 1;
		}
		n += fprintf(fp, "%*s%.*s", fresh ? col - n : 1, "", len, w);
		fresh = 0;
		w += len;
		w += strspn(w, " ");
		if (*w == '\n') {
			fputc('\n', fp);
			n = 0;
			fresh = 1;
			w++;
		}
	}
	fputc('\n', fp);
}

static void print_opt(FILE *fp, const vs_cli_opt *o, int col)
{
	int n;

	if (o->key < VS_CLI_LONG)
		n = fprintf(fp, "  -%c, --%s%s%s", o->key, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	else
		n = fprintf(fp, "  --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	if (n >= col) {
		fputc('\n', fp);
		n = 0;
	}
	print_wrapped(fp, o->help, col, n);
}

void vs_cli_help(const vs_cli_cmd *cmd, FILE *fp)
{
	const vs_cli_opt *o;
	size_t col = left_len(&help_opt);

	for (o = cmd->opts; !vs_cli_opt_end(o); o++)
		if (o->name && left_len(o) > col && left_len(o) < 30)
			col = left_len(o);
	fprintf(fp, "usage: vramsim %s\n", cmd->usage);
	if (cmd->about)
		fprintf(fp, "\n%s", cmd->about);
	if (cmd->more)
		cmd->more(fp, 0);
	fprintf(fp, "\noptions:\n");
	for (o = cmd->opts; !vs_cli_opt_end(o); o++)
		if (o->name)
			print_opt(fp, o, (int)col + 2);
		else
			fprintf(fp, "%s\n", o->help);
	print_opt(fp, &help_opt, (int)col + 2);
	if (cmd->more)
		cmd->more(fp, 1);
	if (cmd->tail)
		fprintf(fp, "\n%s", cmd->tail);
}

/* ---- numbers ------------------------------------------------------------ */

int vs_cli_parse_uint(const char *s, int suffix, uint64_t *out)
{
	uint64_t v, scale = 1;
	char *end;
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	/* strtoull would take "-1" (as a huge number) and leading blanks */
	if (hex ? !isxdigit((unsigned char)s[2]) : !isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoull(s, &end, hex ? 16 : 10);
	if (errno)
		return -1;
	if (suffix && (*end == 'K' || *end == 'k'))
		scale = 1024, end++;
	else if (suffix && (*end == 'M' || *end == 'm'))
		scale = 1024 * 1024, end++;
	if (*end || v > UINT64_MAX / scale)
		return -1;
	*out = v * scale;
	return 0;
}

static int number(const vs_cli_parser *p, int suffix, uint64_t min, uint64_t max, uint64_t *out)
{
	if (vs_cli_parse_uint(p->arg, suffix, out) == 0 && *out >= min && *out <= max)
		return 0;
	if (max == UINT64_MAX)
		vs_cli_usage_error(p->cmd->name, "--%s: '%s' is not a number (%llu or more)", p->opt->name, p->arg,
			(unsigned long long)min);
	else
		vs_cli_usage_error(p->cmd->name, "--%s: '%s' is not a number from %llu to %llu%s", p->opt->name, p->arg,
			(unsigned long long)min, (unsigned long long)max, suffix ? " (K and M suffixes)" : "");
	return -1;
}

int vs_cli_uint(const vs_cli_parser *p, uint64_t min, uint64_t max, uint64_t *out)
{
	return number(p, 0, min, max, out);
}

int vs_cli_bytes(const vs_cli_parser *p, uint64_t min, uint64_t max, uint64_t *out)
{
	return number(p, 1, min, max, out);
}

/* ---- did you mean --------------------------------------------------------- */

/* Edit distance with adjacent transpositions ("replya"), capped at 99. */
static int distance(const char *a, const char *b)
{
	int d[3][64], i, j, la = (int)strlen(a), lb = (int)strlen(b);

	if (la > 62 || lb > 62)
		return 99;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		int *row = d[i % 3], *up = d[(i - 1) % 3], *up2 = d[(i + 1) % 3];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1], v = up[j - 1] + cost;
			if (up[j] + 1 < v)
				v = up[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && up2[j - 2] + 1 < v)
				v = up2[j - 2] + 1;
			row[j] = v;
		}
	}
	return d[la % 3][lb];
}

void vs_cli_near_init(vs_cli_near *nr, const char *word)
{
	memset(nr, 0, sizeof *nr);
	nr->word = word;
	nr->best = 99;
}

void vs_cli_near_add(vs_cli_near *nr, const char *name)
{
	int len = (int)strlen(nr->word), d = distance(nr->word, name);

	if (len >= 3 && strncmp(name, nr->word, (size_t)len) == 0)
		d = 1; /* the start of a longer name is as close as a typo */
	if (d > (len / 3 > 2 ? len / 3 : 2) || d > nr->best)
		return;
	if (d < nr->best) {
		nr->best = d;
		nr->n = 0;
	}
	if (nr->n < 3)
		nr->names[nr->n++] = name;
}

const char *vs_cli_near_text(const vs_cli_near *nr, const char *prefix, char *buf, size_t len)
{
	size_t used;
	int i;

	buf[0] = '\0';
	if (!nr->n)
		return buf;
	used = (size_t)snprintf(buf, len, "; did you mean");
	for (i = 0; i < nr->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s'%s%s'", i == 0 ? " " : i + 1 < nr->n ? ", " : " or ",
			prefix, nr->names[i]);
	if (used < len)
		snprintf(buf + used, len - used, "?");
	return buf;
}
