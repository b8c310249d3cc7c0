/* SPDX-License-Identifier: Zlib */
/* cli_opt.h - the one option parser of the vramsim commands. A table per
 * command feeds getopt_long, --help's option list, shell completion and the
 * "did you mean" of a mistyped option, so the four never disagree.
 * Plain C and getopt only: the modules (SDL2, libmgba) link it too. */
#ifndef VS_CLI_OPT_H
#define VS_CLI_OPT_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

/* One option. key is its short letter, or VS_CLI_LONG and up for options
 * with a long name only. arg names its value ("N", "PATH"; "a|b|c" for one
 * of those words, which completion offers); NULL when it takes none. In
 * help, '\n' starts a continuation line. A row with no name and a help is a
 * heading in the list; a row with neither ends the table. */
typedef struct vs_cli_opt {
	const char *name;
	int key;
	const char *arg;
	const char *help;
} vs_cli_opt;

/* Whether o is the row that ends a table (a NULL table is empty). */
static inline int vs_cli_opt_end(const vs_cli_opt *o)
{
	return !o || (!o->name && !o->help);
}

enum {
	VS_CLI_LONG = 256,
	/* --plugin PATH: the parser loads the plug-in itself */
	VS_CLI_PLUGIN = 0x7000,
};

/* A command: what its --help says around the generated option list. */
typedef struct vs_cli_cmd {
	const char *name;     /* "replay"; NULL for vramsim itself */
	const char *usage;    /* after "usage: vramsim " */
	const char *about;    /* paragraphs before the options */
	const vs_cli_opt *opts;
	const char *tail;     /* after the options: exit status */
	/* Text made at run time: part 0 after about, part 1 after the options. */
	void (*more)(FILE *fp, int part);
	int in_order;         /* options end at the first operand (vramsim itself) */
} vs_cli_cmd;

#define VS_CLI_MAX_OPTS 48

typedef struct vs_cli_parser {
	const vs_cli_cmd *cmd;
	int argc;
	char **argv;
	struct option lo[VS_CLI_MAX_OPTS + 2];
	char so[3 * VS_CLI_MAX_OPTS + 8];
	int done;               /* getopt has finished: operands remain */
	int at;                 /* argv index of the operand returned */
	const vs_cli_opt *opt;  /* the option returned */
	const char *arg;        /* its value, or the operand */
	int status;             /* the exit status when VS_CLI_STOP comes */
} vs_cli_parser;

enum { VS_CLI_END = -1, VS_CLI_OPERAND = -2, VS_CLI_STOP = -3 };

/* The option of that key in cmd's table (--help for 'h'), or NULL. */
const vs_cli_opt *vs_cli_opt_find(const vs_cli_cmd *cmd, int key);

/* Starts parsing argv[1..argc) for cmd; argv[0] is the command's name. */
void vs_cli_begin(vs_cli_parser *p, const vs_cli_cmd *cmd, int argc, char **argv);
/* The next option's key (value in p->arg), VS_CLI_OPERAND (p->arg), or
 * VS_CLI_END. VS_CLI_STOP means return p->status: --help was printed, or a
 * usage error was, or a shell completion (argv[1] "--vs-complete"). */
int vs_cli_next(vs_cli_parser *p);

/* The usual loop: reads argv with cmd's table and calls take for each
 * option and operand (c: the key, or VS_CLI_OPERAND), which returns -1 to
 * go on or an exit status to stop at. Returns -1 when every argument was
 * taken, else the exit status (0 after --help). */
typedef int vs_cli_take_fn(void *ud, const vs_cli_parser *p, int c);
/* What a taker of options several commands share (vs_cli_emu_take,
 * vs_cli_cycles_take) returns for a key that is not one of them: the
 * command's own take goes on with it. */
#define VS_CLI_NOT_SHARED (-2)
int vs_cli_parse(const vs_cli_cmd *cmd, int argc, char **argv, vs_cli_take_fn *take, void *ud);

void vs_cli_help(const vs_cli_cmd *cmd, FILE *fp);

/* Reads p->arg as a whole number, decimal or 0x hex, from min to max;
 * vs_cli_bytes also takes a K or M suffix. 0, or -1 after a usage error
 * naming the option. */
int vs_cli_uint(const vs_cli_parser *p, uint64_t min, uint64_t max, uint64_t *out);
int vs_cli_bytes(const vs_cli_parser *p, uint64_t min, uint64_t max, uint64_t *out);
/* The same without a message: 0 or -1. */
int vs_cli_parse_uint(const char *s, int suffix, uint64_t *out);

/* "Did you mean": offer every candidate, then read the closest ones
 * (edit distance at most max(2, len/3), or the word starts them). */
typedef struct vs_cli_near {
	const char *word;
	int best;
	int n;
	const char *names[3];
} vs_cli_near;

void vs_cli_near_init(vs_cli_near *nr, const char *word);
void vs_cli_near_add(vs_cli_near *nr, const char *name);
/* "; did you mean 'a' or 'b'?", or "" when nothing was close. */
const char *vs_cli_near_text(const vs_cli_near *nr, const char *prefix, char *buf, size_t len);

/* Completion (cli_complete.c): prints one candidate a line for the last of
 * words, the arguments of cmd typed so far; nothing where a file goes. */
void vs_cli_complete(const vs_cli_cmd *cmd, int n, char **words);

#endif
