/* SPDX-License-Identifier: Zlib */
/* fuzz_replay.c - a harness of tests/fuzz run without libFuzzer: every
 * input of its seed corpus, then a fixed number of mutations of them (bits
 * flipped, bytes set, inserted and deleted, ranges copied, two inputs
 * spliced, tokens of the harness's dictionary put in). The mutations come
 * from the generators' random stream with a fixed seed, so a run is the
 * same on every machine and a failure is repeated by running it again.
 *
 * ctest runs one per harness in every tree, the sanitizer tree included, so
 * each CI run checks every harness on a few thousand inputs with gcc alone;
 * tools/fuzz runs the same harnesses under libFuzzer, guided by coverage, for
 * as long as one likes (docs/fuzzing.md).
 *
 *   fuzz_replay_NAME CORPUS [--dict FILE] [--inputs N] [--seed S] [--write K FILE]
 *
 * --write K FILE writes mutated input K (as a failure names it) to FILE
 * instead of running anything, to give it to the harness or to libFuzzer.
 */
#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "gen/gen_rng.h"

#define MAX_SEEDS 256
#define MAX_TOKENS 256

typedef struct blob {
	uint8_t *data;
	size_t size;
} blob;

static blob seeds[MAX_SEEDS], tokens[MAX_TOKENS];
static int nseeds, ntokens;

/* what runs now, for the abort handler */
static volatile long current = -1;
static uint8_t *current_data;
static volatile size_t current_size;
static const char *crash_path = "fuzz_replay.crash";

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz_replay: %s: %s\n", path, what);
	exit(2);
}

static void *grab(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory", "-");
	return p;
}

static blob read_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	blob b = { grab(VS_FUZZ_MAX_INPUT), 0 };

	if (!fp)
		die("cannot open", path);
	b.size = fread(b.data, 1, VS_FUZZ_MAX_INPUT, fp);
	if (ferror(fp))
		die("cannot read", path);
	fclose(fp);
	return b;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file of the folder, by name (the order, and so the run, is fixed). */
static void read_corpus(const char *dir)
{
	char *names[MAX_SEEDS], path[4096];
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0, i;

	if (!d)
		die("cannot open the corpus folder", dir);
	while ((e = readdir(d)) != NULL && n < MAX_SEEDS) {
		if (e->d_name[0] == '.')
			continue;
		names[n] = grab(strlen(e->d_name) + 1);
		strcpy(names[n++], e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], by_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		seeds[nseeds++] = read_file(path);
		free(names[i]);
	}
	if (nseeds == 0)
		die("no inputs in the corpus folder", dir);
}

static int hex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* libFuzzer's dictionary format: one "token" a line (a name= before it
 * allowed), \\, \" and \xNN escapes, # comments. */
static void read_dict(const char *path)
{
	char line[1024];
	FILE *fp = fopen(path, "r");

	if (!fp)
		die("cannot open", path);
	while (fgets(line, sizeof line, fp) && ntokens < MAX_TOKENS) {
		char *q = strchr(line, '"');
		blob t = { grab(sizeof line), 0 };

		if (line[0] == '#' || !q) {
			free(t.data);
			continue;
		}
		for (q++; *q && *q != '"'; q++) {
			if (*q == '\\' && q[1] == 'x' && hex(q[2]) >= 0 && hex(q[3]) >= 0) {
				t.data[t.size++] = (uint8_t)(hex(q[2]) * 16 + hex(q[3]));
				q += 3;
			} else {
				if (*q == '\\' && q[1])
					q++;
				t.data[t.size++] = (uint8_t)*q;
			}
		}
		tokens[ntokens++] = t;
	}
	fclose(fp);
}

/* Puts len bytes at pos of b (size n, room VS_FUZZ_MAX_INPUT), as far as
 * they fit. Returns the new size. */
static size_t insert(uint8_t *b, size_t n, size_t pos, const uint8_t *src, size_t len)
{
	if (len > VS_FUZZ_MAX_INPUT - n)
		len = VS_FUZZ_MAX_INPUT - n;
	memmove(b + pos + len, b + pos, n - pos);
	memmove(b + pos, src, len);
	return n + len;
}

/* One change to b (size n). Returns the new size. */
static size_t mutate_once(gen_rng *r, uint8_t *b, size_t n)
{
	uint8_t tmp[64];
	size_t pos = gen_rng_below(r, (uint32_t)n + 1u), len;
	const blob *o;

	switch (gen_rng_below(r, 8)) {
	case 0: /* a bit flipped */
		if (n)
			b[pos % n] ^= (uint8_t)(1u << gen_rng_below(r, 8));
		return n;
	case 1: /* a byte set, often to a value formats treat specially */
		if (n) {
			static const uint8_t special[] = { 0, 0xFF, 0x7F, 0x80, '\n', ' ', '=', '0', '9', '-' };
			b[pos % n] = gen_rng_below(r, 2) ? special[gen_rng_below(r, sizeof special)]
				: (uint8_t)gen_rng_next32(r);
		}
		return n;
	case 2: /* bytes inserted */
		len = 1 + gen_rng_below(r, 8);
		for (size_t i = 0; i < len; i++)
			tmp[i] = (uint8_t)gen_rng_next32(r);
		return insert(b, n, pos, tmp, len);
	case 3: /* a range deleted */
		len = gen_rng_below(r, (uint32_t)(n - pos) + 1u);
		memmove(b + pos, b + pos + len, n - pos - len);
		return n - len;
	case 4: /* a range of the input copied elsewhere in it */
		if (!n)
			return n;
		{
			size_t from = gen_rng_below(r, (uint32_t)n);
			len = 1 + gen_rng_below(r, (uint32_t)(n - from < sizeof tmp ? n - from : sizeof tmp));
			memcpy(tmp, b + from, len);
		}
		return insert(b, n, pos, tmp, len);
	case 5: /* cut short */
		return pos;
	case 6: /* a piece of another seed spliced in */
		o = &seeds[gen_rng_below(r, (uint32_t)nseeds)];
		if (!o->size)
			return n;
		{
			size_t from = gen_rng_below(r, (uint32_t)o->size);
			len = 1 + gen_rng_below(r, (uint32_t)(o->size - from));
			return insert(b, n, pos, o->data + from, len);
		}
	default: /* a dictionary token, or a number written in text */
		if (ntokens) {
			o = &tokens[gen_rng_below(r, (uint32_t)ntokens)];
			return insert(b, n, pos, o->data, o->size);
		}
		len = (size_t)snprintf((char *)tmp, sizeof tmp, "%u", gen_rng_next32(r) >> gen_rng_below(r, 32));
		return insert(b, n, pos, tmp, len);
	}
}

/* Mutated input k: a seed, changed 1-8 times. Input k is the same for a
 * seed whatever the count of inputs run. */
static size_t make_input(uint64_t seed, long k, uint8_t *b)
{
	gen_rng r = { seed * 0x100000001B3ull + (uint64_t)k };
	const blob *s = &seeds[gen_rng_below(&r, (uint32_t)nseeds)];
	size_t n = s->size;
	uint32_t changes = 1 + gen_rng_below(&r, 8);

	memcpy(b, s->data, n);
	while (changes--)
		n = mutate_once(&r, b, n);
	return n;
}

/* On abort (a sanitizer's report, a failed assert): which input, and the
 * input itself in crash_path. Async-signal-safe calls only. */
static void on_abort(int sig)
{
	char msg[96] = "fuzz_replay: failed on mutated input ";
	size_t len = strlen(msg);
	char digits[24];
	int nd = 0;
	long k = current;
	int fd;

	if (k < 0) {
		const char seedmsg[] = "a seed input";
		memcpy(msg + len, seedmsg, sizeof seedmsg - 1);
		len += sizeof seedmsg - 1;
	} else {
		do
			digits[nd++] = (char)('0' + k % 10);
		while ((k /= 10) > 0);
		while (nd)
			msg[len++] = digits[--nd];
	}
	msg[len++] = '\n';
	if (write(2, msg, len) < 0) {
		/* nothing more can be said */
	}
	fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		if (write(fd, current_data, current_size) < 0) {
			/* the message above is what is left */
		}
		close(fd);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The harness on a copy of exactly n bytes, as libFuzzer gives it, so the
 * sanitizer sees a read past the end. */
static void run_one(const uint8_t *b, size_t n)
{
	uint8_t *exact = grab(n);

	memcpy(exact, b, n);
	current_size = n;
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
}

int main(int argc, char **argv)
{
	const char *corpus = NULL, *write_to = NULL;
	long inputs = 2000, write_k = -1, k;
	uint64_t seed = 1;
	uint8_t *b;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dict") && i + 1 < argc)
			read_dict(argv[++i]);
		else if (!strcmp(argv[i], "--inputs") && i + 1 < argc)
			inputs = strtol(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--write") && i + 2 < argc) {
			write_k = strtol(argv[++i], NULL, 10);
			write_to = argv[++i];
		} else if (argv[i][0] != '-' && !corpus)
			corpus = argv[i];
		else
			die("usage: fuzz_replay_NAME CORPUS [--dict FILE] [--inputs N] [--seed S] [--write K FILE]",
				argv[i]);
	}
	if (!corpus)
		die("no corpus folder given", argv[0]);
	/* Keep freed memory: harnesses allocate arenas of megabytes per input,
	 * and handing them back to the system and faulting them in again costs
	 * far more than the harness (glibc; ASan's allocator ignores it). */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	read_corpus(corpus);
	b = current_data = grab(VS_FUZZ_MAX_INPUT);
	if (write_to) {
		FILE *fp = fopen(write_to, "wb");
		size_t n = make_input(seed, write_k, b);

		if (!fp || fwrite(b, 1, n, fp) != n || fclose(fp) != 0)
			die("cannot write", write_to);
		return 0;
	}
	signal(SIGABRT, on_abort);
	for (i = 0; i < nseeds; i++) {
		memcpy(b, seeds[i].data, seeds[i].size);
		run_one(b, seeds[i].size);
	}
	for (k = 0; k < inputs; k++) {
		size_t n = make_input(seed, k, b);

		current = k;
		run_one(b, n);
	}
	printf("fuzz_replay: %d seeds and %ld mutated inputs, seed %llu: no failure\n", nseeds, inputs,
		(unsigned long long)seed);
	for (i = 0; i < nseeds; i++)
		free(seeds[i].data);
	for (i = 0; i < ntokens; i++)
		free(tokens[i].data);
	free(b);
	return 0;
}
