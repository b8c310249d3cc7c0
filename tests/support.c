/* SPDX-License-Identifier: Zlib */
/* support.c - shared helpers for the check-based suites. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"
#include "vramsim/strategy.h"
#include "trace/trace.h"
#include "strategies/registry.h"
#include "vram/request.h"
#include "render/png.h"

/* The process vs_test_main runs in: the temporary files of its cases (each
 * case a child of it, with a pid of its own) are named after it, so that
 * it can remove them all once every case has passed. */
static long run_pid;

/* buf gets VS_BINARY_DIR/tests/tmp-RUN-PID-, the start of every temporary
 * path: RUN for the clean-up, PID so that each case starts with none. */
static int temporary_prefix(char *buf, size_t cap)
{
	long pid = (long)getpid();

	return snprintf(buf, cap, "%s/tests/tmp-%ld-%ld-", VS_BINARY_DIR, run_pid ? run_pid : pid, pid);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* The files and folders of this run under tests/ removed (all passed), or
 * said to be kept for a look. */
static void temporaries_done(int keep)
{
	char dir[1024], prefix[64], path[1400];
	struct dirent *d;
	DIR *dp;

	snprintf(dir, sizeof dir, "%s/tests", VS_BINARY_DIR);
	snprintf(prefix, sizeof prefix, "tmp-%ld-", run_pid);
	if (keep) {
		printf("temporary files kept: %s/%s*\n", dir, prefix);
		return;
	}
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp)) != NULL)
		if (strncmp(d->d_name, prefix, strlen(prefix)) == 0) {
			snprintf(path, sizeof path, "%s/%s", dir, d->d_name);
			nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
		}
	closedir(dp);
}

/* The TCases vs_test_tcase_apart made, and what each lacks (NULL: nothing). */
static struct { const char *name, *missing; } needing[8];
static int nneeding;

void vs_test_require(const char *missing)
{
	if (!missing)
		return;
	printf("skipped: %s\n", missing);
	fflush(stdout);
	exit(VS_TEST_SKIP);
}

TCase *vs_test_tcase_apart(Suite *s, const char *name, const char *missing)
{
	TCase *tc = tcase_create(name);

	if (nneeding == (int)(sizeof needing / sizeof needing[0])) {
		fprintf(stderr, "vs_test_tcase_apart: more than %d in one suite\n", nneeding);
		exit(EXIT_FAILURE);
	}
	needing[nneeding].name = name;
	/* a copy: the helpers that say what is missing reuse their buffer */
	needing[nneeding++].missing = missing ? strdup(missing) : NULL;
	tcase_set_tags(tc, name);
	suite_add_tcase(s, tc);
	return tc;
}

/* Whether word is one of the space-separated words of list. */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

/* Whether check would run the TCase name (tagged with its name) under the
 * CK_RUN_CASE, CK_INCLUDE_TAGS and CK_EXCLUDE_TAGS it was given. */
static int selected(const char *name)
{
	const char *only = getenv("CK_RUN_CASE"), *in = getenv("CK_INCLUDE_TAGS"), *ex = getenv("CK_EXCLUDE_TAGS");

	return (!only || !*only || strcmp(only, name) == 0) && (!in || !*in || has_word(in, name)) &&
		!(ex && has_word(ex, name));
}

int vs_test_main(Suite *s)
{
	SRunner *sr;
	const char *ex = getenv("CK_EXCLUDE_TAGS"), *only = getenv("CK_RUN_CASE");
	char exclude[1024];
	int failed, skipped = 0, i;

	/* a selected case that cannot run is left out, and said so; the
	 * others still run, and a failure among them outranks the skip */
	snprintf(exclude, sizeof exclude, "%s", ex ? ex : "");
	for (i = 0; i < nneeding; i++)
		if (needing[i].missing && selected(needing[i].name)) {
			printf("skipped: %s: %s\n", needing[i].name, needing[i].missing);
			snprintf(exclude + strlen(exclude), sizeof exclude - strlen(exclude), " %s", needing[i].name);
			skipped = 1;
		}
	fflush(stdout);
	if (skipped && only && *only)
		return VS_TEST_SKIP; /* the one case asked for cannot run */
	run_pid = (long)getpid();
	sr = srunner_create(s);
	srunner_run_tagged(sr, NULL, NULL, NULL, exclude[0] ? exclude : NULL, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	temporaries_done(failed != 0);
	return failed ? EXIT_FAILURE : skipped ? VS_TEST_SKIP : EXIT_SUCCESS;
}

const char *vs_test_rom(const char *name)
{
	static char path[1024];
	const char *dir = getenv("VRAMSIM_GBA_ROM_DIR");

	snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : VS_BINARY_DIR "/gba", name);
	return path;
}

const char *vs_test_rom_missing(const char *name, ...)
{
	static char msg[1200];
	const char *path = NULL;
	va_list ap;

	va_start(ap, name);
	for (; name; name = va_arg(ap, const char *)) {
		path = vs_test_rom(name);
		if (!vs_test_exists(path))
			break;
	}
	va_end(ap);
	if (!name)
		return NULL;
	snprintf(msg, sizeof msg, "%s was not built (install gcc-arm-none-eabi and rebuild)", path);
	return msg;
}

const char *vs_test_workloads(const char *set)
{
	static char path[1024];
	const char *dir = getenv("VRAMSIM_WORKLOADS_DIR");

	snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : VS_SOURCE_DIR "/../shared/workloads", set);
	return path;
}

const char *vs_test_workloads_missing(const char *set)
{
	static char msg[1200];
	const char *path = vs_test_workloads(set);

	if (vs_test_exists(path))
		return NULL;
	snprintf(msg, sizeof msg, "no %s: the third-party workloads live beside the checkout, in ../shared/workloads "
		"(or set VRAMSIM_WORKLOADS_DIR)", path);
	return msg;
}

const char *vs_test_program(const char *name)
{
	static char path[1024];
	const char *p = getenv("PATH"), *end;

	for (; p && *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		snprintf(path, sizeof path, "%.*s/%s", (int)(end - p), p, name);
		if (end > p && access(path, X_OK) == 0)
			return path;
	}
	return NULL;
}

const char *vs_test_path(const char *fmt, ...)
{
	static char paths[8][1024];
	static int slot;
	va_list ap;
	int n;

	slot = (slot + 1) % 8;
	n = temporary_prefix(paths[slot], sizeof paths[slot]);
	va_start(ap, fmt);
	vsnprintf(paths[slot] + n, sizeof paths[slot] - (size_t)n, fmt, ap);
	va_end(ap);
	return paths[slot];
}

int vs_test_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int vs_test_temporary_left(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[1024], prefix[512];
	struct dirent *d;
	DIR *dp;
	int found = 0;

	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	snprintf(prefix, sizeof prefix, "%s.tmp-", slash ? slash + 1 : path);
	dp = opendir(dir);
	ck_assert_ptr_nonnull(dp);
	while ((d = readdir(dp)) != NULL)
		found |= strncmp(d->d_name, prefix, strlen(prefix)) == 0;
	closedir(dp);
	return found;
}

const char *vs_test_file(int slot, const char *name, const char *text)
{
	static char paths[8][512];
	int n = temporary_prefix(paths[slot & 7], sizeof paths[0]);
	FILE *fp;

	snprintf(paths[slot & 7] + n, sizeof paths[0] - (size_t)n, "%s", name);
	fp = fopen(paths[slot & 7], "wb");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	return paths[slot & 7];
}

static void slurp(const char *path, char *buf, size_t cap)
{
	FILE *fp;
	size_t n = 0;

	if (cap == 0)
		return;
	fp = fopen(path, "rb");
	if (fp) {
		n = fread(buf, 1, cap - 1, fp);
		fclose(fp);
	}
	buf[n] = '\0';
	remove(path);
}

int vs_test_run_cli(const char *args, char *out, size_t outcap, char *err, size_t errcap)
{
	char o[512], e[512], *cmd;
	int no = temporary_prefix(o, sizeof o), ne = temporary_prefix(e, sizeof e);
	size_t len;
	int st;

	snprintf(o + no, sizeof o - (size_t)no, "out");
	snprintf(e + ne, sizeof e - (size_t)ne, "err");
	/* sized to fit: a command cut short would run something else */
	len = strlen(VS_VRAMSIM) + strlen(args) + strlen(o) + strlen(e) + 48;
	cmd = malloc(len);
	ck_assert_ptr_nonnull(cmd);
	/* the shell's own redirections first: a redirection in args (`>&-`)
	 * is then the command's last word on that descriptor */
	snprintf(cmd, len, "exec >'%s' 2>'%s' </dev/null; %s %s", o, e, VS_VRAMSIM, args);
	st = system(cmd);
	free(cmd);
	slurp(o, out, outcap);
	slurp(e, err, errcap);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* fmt and ap as printf makes them, in memory the caller frees. */
static char *formatted(const char *fmt, va_list ap)
{
	va_list again;
	char *text;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	ck_assert_int_ge(n, 0);
	text = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(text);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	return text;
}

int vs_test_cli(char *out, size_t outcap, char *err, size_t errcap, const char *fmt, ...)
{
	va_list ap;
	char *args;
	int rc;

	va_start(ap, fmt);
	args = formatted(fmt, ap);
	va_end(ap);
	rc = vs_test_run_cli(args, out, outcap, err, errcap);
	free(args);
	return rc;
}

int vs_test_holds(const char *path, const char *text)
{
	char *got = vs_test_slurp(path);
	int same = got && strcmp(got, text) == 0;

	free(got);
	return same;
}

int vs_test_count(const char *text, const char *needle)
{
	size_t len = strlen(needle);
	int n = 0;

	for (; (text = strstr(text, needle)) != NULL; text += len)
		n++;
	return n;
}

int vs_test_count_lines(const char *text, const char *prefix)
{
	size_t len = strlen(prefix);
	const char *p;
	int n = 0;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += strncmp(p, prefix, len) == 0;
	return n;
}

int vs_test_cli_limited(unsigned blocks, char *err, size_t errcap, const char *fmt, ...)
{
	char st_path[600], err_path[600], *args, *cmd, *text;
	va_list ap;
	size_t len;
	int n, st;

	va_start(ap, fmt);
	args = formatted(fmt, ap);
	va_end(ap);
	/* not vs_test_path's slots: a caller may hold paths from them */
	n = temporary_prefix(st_path, sizeof st_path);
	snprintf(st_path + n, sizeof st_path - (size_t)n, "limited-status");
	n = temporary_prefix(err_path, sizeof err_path);
	snprintf(err_path + n, sizeof err_path - (size_t)n, "limited-stderr");
	/* the limit binds the command, not what keeps its messages: they go
	 * through a pipe to a cat outside it; XFSZ ignored, so a write past the
	 * limit fails with EFBIG instead of killing it */
	len = strlen(VS_VRAMSIM) + strlen(args) + strlen(st_path) + strlen(err_path) + 128;
	cmd = malloc(len);
	ck_assert_ptr_nonnull(cmd);
	snprintf(cmd, len, "(trap '' XFSZ; ulimit -f %u; '%s' %s 2>&1 >/dev/null </dev/null; echo $? >'%s') | cat >'%s'",
		blocks, VS_VRAMSIM, args, st_path, err_path);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	free(args);
	text = vs_test_slurp(st_path);
	ck_assert_ptr_nonnull(text);
	st = atoi(text);
	free(text);
	text = vs_test_slurp(err_path);
	ck_assert_ptr_nonnull(text);
	snprintf(err, errcap, "%s", text);
	free(text);
	remove(st_path);
	remove(err_path);
	return st;
}

void vs_test_put(vs_test_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		ck_assert_int_ge(n, 0);
		if (t->s && t->len + (size_t)n < t->cap)
			break;
		t->cap = t->cap ? 2 * t->cap : 1 << 16;
		while (t->cap <= t->len + (size_t)n)
			t->cap *= 2;
		t->s = realloc(t->s, t->cap);
		ck_assert_ptr_nonnull(t->s);
	}
	t->len += (size_t)n;
}

uint32_t vs_rng_next(vs_rng *r)
{
	/* splitmix64: small, good enough for test sequences */
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

uint32_t vs_rng_below(vs_rng *r, uint32_t n)
{
	return n ? (uint32_t)(((uint64_t)vs_rng_next(r) * n) >> 32) : 0;
}

unsigned vs_test_soak(unsigned normal, unsigned longer)
{
	const char *e = getenv("VRAMSIM_SOAK");

	if (e && *e && strcmp(e, "0") != 0)
		return longer;
#ifdef VS_TEST_SANITIZED
	/* instrumented code runs several times slower: the sanitizers look
	 * for memory and UB errors, which a quarter of the steps still reach */
	return normal >= 4 ? normal / 4 : 1;
#else
	return normal;
#endif
}

char *vs_test_slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf;

	ck_assert_msg(fp != NULL, "cannot read %s", path);
	buf = vs_test_slurp_stream(fp, NULL);
	fclose(fp);
	return buf;
}

char *vs_test_slurp_stream(FILE *fp, size_t *len)
{
	char *buf;
	long n;
	size_t got;

	fflush(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	ck_assert_int_ge(n, 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	got = fread(buf, 1, (size_t)n, fp);
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}

void vs_test_reformat(const char *text, char *buf, size_t cap)
{
	char err[1024];
	FILE *in = fmemopen((void *)text, strlen(text), "rb");
	FILE *out = fmemopen(buf, cap, "wb");
	vs_trace_reader *r;
	vs_event ev;
	int rc;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	r = vs_trace_open_stream(in, "mem", err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(vs_trace_write_header(out, vs_trace_header_of(r)), 0);
	while ((rc = vs_trace_next(r, &ev)) == 1)
		ck_assert_int_eq(vs_trace_write_event(out, vs_trace_header_of(r), &ev), 0);
	ck_assert_msg(rc == 0, "%s", vs_trace_error(r));
	vs_trace_close(r);
	fclose(in);
	fputc('\0', out);
	fclose(out);
}

static void quiet_line(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

vs_replay *vs_test_replay_recorded(const char *name, FILE *in)
{
	char err[1024];
	vs_trace_reader *rd = in ? vs_trace_open_stream(in, name, err, sizeof err) : vs_trace_open(name, err, sizeof err);
	vs_replay_config cfg;
	vs_replay *r;
	int i;

	ck_assert_msg(rd != NULL, "%s", err);
	vs_replay_config_default(&cfg);
	for (i = 0; i < vs_trace_header_of(rd)->narenas; i++)
		cfg.strategy[i] = vs_strategy_find("recorded");
	cfg.message = quiet_line;
	r = vs_replay_new(rd, &cfg, err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_msg(vs_replay_run(r, 0) == 0, "%s: %s", name, vs_replay_error(r));
	ck_assert_msg(vs_replay_check_total(r) == 0, "%s: integrity errors under recorded", name);
	return r;
}

static void collect_message(void *ud, const char *line)
{
	vs_test_replay *x = ud;
	int n = snprintf(x->msgs + x->mlen, sizeof x->msgs - x->mlen, "%s\n", line);

	if (n > 0 && x->mlen + (size_t)n < sizeof x->msgs)
		x->mlen += (size_t)n;
}

vs_replay *vs_test_replay_open(vs_test_replay *x, const char *text, const char *name, vs_replay_config *cfg,
	char *err, size_t errlen)
{
	vs_trace_reader *rd;

	memset(x, 0, sizeof *x);
	x->in = fmemopen((void *)text, strlen(text), "rb");
	ck_assert_ptr_nonnull(x->in);
	rd = vs_trace_open_stream(x->in, name, err, errlen);
	ck_assert_msg(rd != NULL, "%s", err);
	cfg->message = collect_message;
	cfg->message_ud = x;
	x->r = vs_replay_new(rd, cfg, err, errlen);
	return x->r;
}

void vs_test_replay_close(vs_test_replay *x)
{
	vs_replay_free(x->r);
	fclose(x->in);
	x->r = NULL;
	x->in = NULL;
}

vs_replay *vs_test_replay_run(vs_test_replay *x, const char *strategy, const char *text, const char *options)
{
	char err[512];
	vs_replay_config cfg;

	vs_replay_config_default(&cfg);
	cfg.strategy[0] = vs_strategy_find(strategy);
	cfg.options[0] = options;
	ck_assert_msg(cfg.strategy[0] != NULL, "no strategy %s", strategy);
	ck_assert_msg(vs_test_replay_open(x, text, "b.trace", &cfg, err, sizeof err) != NULL, "%s", err);
	x->rc = vs_replay_run(x->r, 0);
	ck_assert_msg(x->rc == 0, "%s", vs_replay_error(x->r));
	ck_assert_msg(vs_replay_check_total(x->r) == 0, "%s", x->msgs);
	return x->r;
}

typedef struct live_where { uint64_t id; int arena; long offset; } live_where;

static void find_live(void *ud, const vs_live *l)
{
	live_where *w = ud;

	if (l->id != w->id)
		return;
	w->arena = (int)l->arena;
	if (!l->retained)
		w->offset = (long)l->pl.offset;
}

int vs_test_arena_of(vs_replay *r, uint64_t id)
{
	live_where w = { id, -1, -1 };

	vs_replay_live_walk(r, find_live, &w);
	return w.arena;
}

long vs_test_offset_of(vs_replay *r, uint64_t id)
{
	live_where w = { id, -1, -1 };

	vs_replay_live_walk(r, find_live, &w);
	return w.offset;
}

static vs_request shaped(vs_req_shape shape)
{
	vs_request rq;

	memset(&rq, 0, sizeof rq);
	rq.shape = shape;
	return rq;
}

/* The size from the shape; 0 for a shape the hardware has not (as the
 * hardware tables say), which tests of the rules ask for on purpose. */
static vs_request sized(vs_request rq)
{
	if (vs_request_derive_size(&rq) != 0)
		rq.size = 0;
	return rq;
}

vs_request vs_test_sprite_rq(unsigned shape, unsigned size, unsigned bpp)
{
	vs_request rq = shaped(VS_REQ_SPRITE);

	rq.u.sprite.shape = (uint8_t)shape;
	rq.u.sprite.size = (uint8_t)size;
	rq.u.sprite.bpp = (uint8_t)bpp;
	return sized(rq);
}

vs_request vs_test_tile_rq(uint32_t rom, unsigned bpp)
{
	vs_request rq = shaped(VS_REQ_TILE);

	rq.u.tile.rom = rom;
	rq.u.tile.bpp = (uint8_t)bpp;
	return sized(rq);
}

vs_request vs_test_map_rq(unsigned affine, unsigned size)
{
	vs_request rq = shaped(VS_REQ_BGMAP);

	rq.u.bgmap.affine = (uint8_t)affine;
	rq.u.bgmap.size = (uint8_t)size;
	return sized(rq);
}

vs_request vs_test_tex_rq(unsigned format, unsigned width, unsigned height)
{
	vs_request rq = shaped(VS_REQ_TEX);

	rq.u.tex.format = (uint8_t)format;
	rq.u.tex.width = (uint16_t)width;
	rq.u.tex.height = (uint16_t)height;
	return sized(rq);
}

vs_request vs_test_pltt_rq(unsigned colours, int four)
{
	vs_request rq = shaped(VS_REQ_PLTT);

	rq.u.pltt.colours = (uint16_t)colours;
	rq.u.pltt.four = (uint8_t)four;
	return sized(rq);
}

vs_gba_frame *vs_test_frame_new(unsigned dispcnt)
{
	vs_gba_frame *f = calloc(1, sizeof *f);
	unsigned i;

	ck_assert_ptr_nonnull(f);
	f->io[VS_IO_DISPCNT] = (uint16_t)dispcnt;
	for (i = 0; i < 128; i++)
		f->oam[i * 8 + 1] = 0x02; /* attr0 bit 9 without bit 8: hidden */
	return f;
}

void vs_test_put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

void vs_test_oam_obj(vs_gba_frame *f, unsigned i, unsigned tile, unsigned shape, unsigned size, unsigned flags,
	unsigned x, unsigned y)
{
	vs_test_put16(f->oam + i * 8, (y & 0xFFu) | flags | shape << 14);
	vs_test_put16(f->oam + i * 8 + 2, (x & 0x1FFu) | size << 14);
	vs_test_put16(f->oam + i * 8 + 4, tile & 0x3FFu);
}

void vs_test_oam_hide(vs_gba_frame *f, unsigned i)
{
	vs_test_put16(f->oam + i * 8, 0x0200); /* attr0 bit 9 without bit 8 */
}

vs_image vs_test_png(const char *path)
{
	char err[512];
	vs_image im;

	memset(&im, 0, sizeof im);
	ck_assert_msg(vs_png_read(path, &im, err, sizeof err) == 0, "%s", err);
	return im;
}

void vs_test_core_crash(int on)
{
	static char was[1024];
	static int had;
	char asan[1100];

	if (on) {
		const char *a = getenv("ASAN_OPTIONS");
		had = a != NULL;
		snprintf(was, sizeof was, "%s", a ? a : "");
		snprintf(asan, sizeof asan, "%s%shandle_segv=0", was, was[0] ? ":" : "");
		setenv("ASAN_OPTIONS", asan, 1);
		setenv("VRAMSIM_EMU_GUARD_FAULT", "2", 1);
		return;
	}
	if (had)
		setenv("ASAN_OPTIONS", was, 1);
	else
		unsetenv("ASAN_OPTIONS");
	unsetenv("VRAMSIM_EMU_GUARD_FAULT");
}
