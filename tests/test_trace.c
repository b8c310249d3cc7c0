/* SPDX-License-Identifier: Zlib */
/* test_trace.c - trace format v1: the malformed corpus, round trips, streaming. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vram/hw.h"
#include "trace/trace.h"
#include "vram/request.h"
#include "vram/arena.h"

/* Reads every event; returns the error text (empty when the trace is valid).
 * Returns 0 when the error (if any) came from reading an event, -1 when
 * vs_trace_open refused the file. */
static int read_all(const char *path, char *err, size_t errlen, uint64_t *events)
{
	vs_trace_reader *r = vs_trace_open(path, err, errlen);
	vs_event ev;
	int rc;

	*events = 0;
	if (!r)
		return -1;
	err[0] = '\0';
	while ((rc = vs_trace_next(r, &ev)) == 1)
		(*events)++;
	if (rc < 0)
		snprintf(err, errlen, "%s", vs_trace_error(r));
	vs_trace_close(r);
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

START_TEST(malformed_corpus)
{
	char dir[512], path[1024], err[1024], line[512], out[4096], errout[4096], args[1200];
	struct dirent **names;
	int n = 0, i, count, cli_done[2] = { 0, 0 };

	snprintf(dir, sizeof dir, "%s/tests/malformed", VS_SOURCE_DIR);
	count = scandir(dir, &names, NULL, alphasort);
	ck_assert_int_ge(count, 0);
	for (i = 0; i < count; i++) {
		const struct dirent *e = names[i];
		FILE *fp;
		uint64_t events;
		const char *want;
		int from_event;
		if (!ends_with(e->d_name, ".trace"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		fp = fopen(path, "rb");
		ck_assert_ptr_nonnull(fp);
		if (!fgets(line, sizeof line, fp))
			line[0] = '\0';
		fclose(fp);
		line[strcspn(line, "\n")] = '\0';
		/* each file's first line says the error it must give */
		if (strcmp(e->d_name, "empty.trace") == 0)
			want = ":1:1: error: empty trace: expected the version line 'vramsim-trace 1'";
		else if (strncmp(line, "# expect: ", 10) == 0)
			want = line + 10;
		else
			ck_abort_msg("%s: first line must be '# expect: ...'", e->d_name);
		from_event = read_all(path, err, sizeof err, &events) == 0;
		ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strcmp(err + strlen(path), want) == 0,
			"%s:\n  want %s%s\n  got  %s", e->d_name, path, want, err);
		/* the command line says the same and exits 2. validate prints the
		 * reader's message from one of two places (vs_trace_open refused the
		 * file, or an event): the first file of each kind goes through it,
		 * a vramsim run for every file would take the same two again */
		if (!cli_done[from_event]) {
			snprintf(args, sizeof args, "validate '%s'", path);
			ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, errout, sizeof errout), 2);
			ck_assert_msg(strstr(errout, want) != NULL, "%s: CLI said %s", e->d_name, errout);
			cli_done[from_event] = 1;
		}
		n++;
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	ck_assert_int_ge(n, 40);
	ck_assert_msg(cli_done[0] && cli_done[1], "the corpus has files refused at open and at an event");
}
END_TEST

static const char *const rich =
	"vramsim-trace 1\n"
	"# every statement and key\n"
	"arena obj gba-obj mode=3 strategy=gba-obj-map\n"
	"arena bg gba-bg\n"
	"arena tex ds-tex banks=A0B1C2   # slot 3 unmapped\n"
	"arena pal ds-pltt banks=E0F4G5\n"
	"arena heap ram preset=ewram unit=4 options=cell:32;per:64\n"
	"alloc 1 obj sprite 32x16 8bpp tag=player at=0x06014000\n"
	"alloc 2 bg tile 77 4bpp\n"
	"alloc 3 bg map affine 256x256 tag=hud\n"
	"alloc 9 bg tile 5 8bpp affine tag=floor cb=1\n"
	"alloc 4 tex tex 256x256 4x4 tag=terrain\n"
	"alloc 5 pal pltt 4\n"
	"alloc 6 pal pltt 8 4c dir=high opt=1\n"
	"alloc 7 pal pltt 16 colours\n"
	"alloc 8 heap 1200 align=16 dir=low data=00ff10Ab\n"
	"alloc 18446744073709551615 heap bytes 2K\n"
	"frame\n"
	"save level1\n"
	"save boss pal\n"
	"free 2\n"
	"restore level1 heap\n"
	"reset obj\n"
	"reset\n"
	"init heap cell=32   per=64\n"
	"init obj\n";

static const char *const rich_canonical =
	"vramsim-trace 1\n"
	"arena obj gba-obj mode=3 strategy=gba-obj-map\n"
	"arena bg gba-bg\n"
	"arena tex ds-tex banks=A0B1C2\n"
	"arena pal ds-pltt banks=E0F4G5\n"
	"arena heap ram size=262144 base=0x2000000 unit=4 options=cell:32;per:64\n"
	"alloc 1 obj sprite 32x16 8bpp tag=player at=0x6014000\n"
	"alloc 2 bg tile 77 4bpp\n"
	"alloc 3 bg map affine 256x256 tag=hud\n"
	"alloc 9 bg tile 5 8bpp affine cb=1 tag=floor\n"
	"alloc 4 tex tex 256x256 4x4 tag=terrain\n"
	"alloc 5 pal pltt 4\n"
	"alloc 6 pal pltt 8 4c dir=high opt=1\n"
	"alloc 7 pal pltt 16\n"
	"alloc 8 heap 1200 align=16 dir=low data=00ff10ab\n"
	"alloc 18446744073709551615 heap 2048\n"
	"frame\n"
	"save level1\n"
	"save boss pal\n"
	"free 2\n"
	"restore level1 heap\n"
	"reset obj\n"
	"reset\n"
	"init heap cell=32 per=64\n"
	"init obj\n";

START_TEST(canonical_form)
{
	static char a[8192], b[8192];

	vs_test_reformat(rich, a, sizeof a);
	ck_assert_str_eq(a, rich_canonical);
	/* formatting a canonical trace changes nothing */
	vs_test_reformat(a, b, sizeof b);
	ck_assert_str_eq(a, b);
}
END_TEST

START_TEST(heaps_canonical)
{
	static char a[4096], b[4096];
	const char *in =
		"vramsim-trace 1\narena main ram size=64K\narena lvl ram size=32K\narena tiny ram size=4K\n"
		"heaps small=tiny keep-small=lvl default=main\nsearch any lvl main\n"
		"push lvl\nalloc 1 100\nalloc 2 any 300 tag=x\nalloc 3 main 50\npop lvl\n";

	vs_test_reformat(in, a, sizeof a);
	ck_assert_str_eq(a,
		"vramsim-trace 1\narena main ram size=65536\narena lvl ram size=32768\narena tiny ram size=4096\n"
		"heaps small=tiny default=main keep-small=lvl\nsearch any lvl main\n"
		"push lvl\nalloc 1 100\nalloc 2 any 300 tag=x\nalloc 3 main 50\npop lvl\n");
	vs_test_reformat(a, b, sizeof b);
	ck_assert_str_eq(a, b);
}
END_TEST

/* Every field of every event survives write + read. */
START_TEST(round_trip_events)
{
	static char text[8192];
	char err[1024];
	vs_trace_reader *r1, *r2;
	vs_event e1, e2;
	FILE *f1, *f2;
	int rc1, rc2, n = 0;
	uint8_t data1[64];
	char tag1[VS_TAG_MAX], name1[VS_STATE_NAME_MAX];

	vs_test_reformat(rich, text, sizeof text);
	f1 = fmemopen((void *)rich, strlen(rich), "rb");
	f2 = fmemopen(text, strlen(text), "rb");
	r1 = vs_trace_open_stream(f1, "a", err, sizeof err);
	r2 = vs_trace_open_stream(f2, "b", err, sizeof err);
	ck_assert_ptr_nonnull(r1);
	ck_assert_ptr_nonnull(r2);
	ck_assert_int_eq(memcmp(vs_trace_header_of(r1)->arenas, vs_trace_header_of(r2)->arenas,
		sizeof vs_trace_header_of(r1)->arenas), 0);
	for (;;) {
		rc1 = vs_trace_next(r1, &e1);
		if (rc1 == 1) {
			/* the reader's buffers are reused: keep copies */
			memcpy(data1, e1.data ? e1.data : data1, e1.data_len);
			snprintf(tag1, sizeof tag1, "%s", e1.tag);
			snprintf(name1, sizeof name1, "%s", e1.name ? e1.name : "");
		}
		rc2 = vs_trace_next(r2, &e2);
		ck_assert_int_eq(rc1, rc2);
		if (rc1 != 1)
			break;
		n++;
		ck_assert_int_eq(e1.type, e2.type);
		ck_assert_int_eq(e1.arena, e2.arena);
		ck_assert_uint_eq(e1.id, e2.id);
		ck_assert_int_eq(memcmp(&e1.req, &e2.req, sizeof e1.req), 0);
		ck_assert_str_eq(tag1, e2.tag);
		ck_assert_int_eq(e1.req.has_at, e2.req.has_at);
		ck_assert_uint_eq(e1.req.at, e2.req.at);
		ck_assert_uint_eq(e1.data_len, e2.data_len);
		ck_assert_int_eq(memcmp(data1, e2.data ? e2.data : data1, e1.data_len), 0);
		ck_assert_str_eq(name1, e2.name ? e2.name : "");
		if (e1.type == VS_EV_INIT)
			ck_assert_str_eq(e2.options, e1.arena == 4 ? "cell=32,per=64" : "");
	}
	ck_assert_int_eq(rc1, 0);
	ck_assert_int_eq(n, 19);
	vs_trace_close(r1);
	vs_trace_close(r2);
	fclose(f1);
	fclose(f2);
}
END_TEST

START_TEST(request_sizes)
{
	char err[1024];
	const char *text =
		"vramsim-trace 1\narena obj gba-obj\n"
		"alloc 1 sprite 8x8 4bpp\nalloc 2 sprite 64x64 8bpp\nalloc 3 sprite 32x16 4bpp\nalloc 4 sprite 8x32 8bpp\n";
	const uint32_t want[] = { 32, 4096, 256, 256 };
	FILE *f = fmemopen((void *)text, strlen(text), "rb");
	vs_trace_reader *r = vs_trace_open_stream(f, "m", err, sizeof err);
	vs_event ev;
	int i;

	ck_assert_ptr_nonnull(r);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(vs_trace_next(r, &ev), 1);
		ck_assert_uint_eq(ev.req.size, want[i]);
	}
	vs_trace_close(r);
	fclose(f);
	/* the hardware tables */
	ck_assert_uint_eq(vs_request_tex_bytes(VS_TEX_DIRECT, 128, 64), 16384);
	ck_assert_uint_eq(vs_request_tex_bytes(VS_TEX_4X4, 256, 256), 16384);
	ck_assert_uint_eq(vs_request_tex_index_bytes(VS_TEX_4X4, 256, 256), 8192);
	ck_assert_uint_eq(vs_request_tex_bytes(VS_TEX_4C, 8, 8), 16);
	ck_assert_uint_eq(vs_request_tex_bytes(VS_TEX_16C, 1024, 1024), 524288);
	ck_assert_uint_eq(vs_request_tex_bytes(VS_TEX_16C, 2048, 8), 0);
	ck_assert_uint_eq(vs_request_bgmap_bytes(0, 3), 8192);
	ck_assert_uint_eq(vs_request_bgmap_bytes(1, 0), 256);
	ck_assert_uint_eq(vs_request_sprite_bytes(VS_OBJ_WIDE, 3, 8), 2048);
}
END_TEST

/* A pipe of 300,000 events replays through the reader a line at a time:
 * the reader's memory does not grow with the trace. */
START_TEST(streaming_reader)
{
	char err[1024];
	FILE *fp = tmpfile();
	vs_trace_reader *r;
	vs_event ev;
	uint64_t i, n = 0;

	ck_assert_ptr_nonnull(fp);
	fputs("vramsim-trace 1\narena heap ram size=64K\n", fp);
	for (i = 0; i < 100000; i++)
		fprintf(fp, "alloc %llu 64 tag=t%llu\nfree %llu\nframe\n", (unsigned long long)i,
			(unsigned long long)(i % 7), (unsigned long long)i);
	rewind(fp);
	r = vs_trace_open_stream(fp, "tmp", err, sizeof err);
	ck_assert_ptr_nonnull(r);
	while (vs_trace_next(r, &ev) == 1)
		n++;
	ck_assert_uint_eq(n, 300000);
	ck_assert_uint_eq(vs_trace_tag_count(r), 8); /* "" plus t0..t6 */
	ck_assert_str_eq(vs_trace_tag_name(r, 1), "t0");
	vs_trace_close(r);
	fclose(fp);
}
END_TEST

START_TEST(long_line_limit)
{
	char err[1024];
	FILE *fp = tmpfile();
	vs_trace_reader *r;
	vs_event ev;
	size_t i;

	ck_assert_ptr_nonnull(fp);
	fputs("vramsim-trace 1\narena heap ram size=1M\nalloc 1 512K data=", fp); /* 1 MiB less a little */
	for (i = 0; i < 511 * 1024; i++)
		fputs("ab", fp); /* a line just under 1 MiB: allowed */
	fputs("\nframe\n# ", fp);
	for (i = 0; i < VS_TRACE_LINE_MAX + 10; i++)
		fputc('x', fp);
	fputc('\n', fp);
	rewind(fp);
	r = vs_trace_open_stream(fp, "tmp", err, sizeof err);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(vs_trace_next(r, &ev), 1);
	ck_assert_uint_eq(ev.data_len, 511 * 1024);
	ck_assert_uint_eq(ev.data[12345], 0xab);
	ck_assert_int_eq(vs_trace_next(r, &ev), 1);
	ck_assert_int_eq(vs_trace_next(r, &ev), -1);
	ck_assert_msg(strstr(vs_trace_error(r), "tmp:5:1: error: line is longer than") != NULL, "%s",
		vs_trace_error(r));
	vs_trace_close(r);
	fclose(fp);
}
END_TEST

START_TEST(crlf_and_comments)
{
	char err[1024];
	const char *text = "# leading comment\r\n\r\nvramsim-trace 1 # trailing\r\narena obj gba-obj\r\n"
		"alloc 1 sprite 8x8 4bpp tag=a#b\r\n";
	FILE *f = fmemopen((void *)text, strlen(text), "rb");
	vs_trace_reader *r = vs_trace_open_stream(f, "m", err, sizeof err);
	vs_event ev;

	ck_assert_msg(r != NULL, "%s", err);
	/* '#' inside a token is not a comment: 'a#b' is a bad tag */
	ck_assert_int_eq(vs_trace_next(r, &ev), -1);
	ck_assert_str_eq(vs_trace_error(r), "m:5:29: error: tag 'a#b' must be 1-63 letters, digits or _-./:");
	vs_trace_close(r);
	fclose(f);
}
END_TEST

/* A tile's charblock and affine flag reach the placement rule. */
START_TEST(tile_reach_rule)
{
	vs_arena_decl d;
	vs_request rq;
	char why[256];

	vs_arena_decl_default(&d, VS_ARENA_GBA_BG);
	memset(&rq, 0, sizeof rq);
	rq.shape = VS_REQ_TILE;
	rq.u.tile.bpp = 8;
	rq.u.tile.affine = 1;
	rq.u.tile.cb1 = 1; /* charblock 0: affine tiles 0-255 = [0, 16K) */
	ck_assert_int_eq(vs_hw_check(&d, &rq, 0x3FC0, 64, why, sizeof why), 0);
	ck_assert_int_eq(vs_hw_check(&d, &rq, 0x4000, 64, why, sizeof why), -1);
	rq.u.tile.cb1 = 2; /* charblock 1 */
	ck_assert_int_eq(vs_hw_check(&d, &rq, 0x4000, 64, why, sizeof why), 0);
	ck_assert_int_eq(vs_hw_check(&d, &rq, 0x3FC0, 64, why, sizeof why), -1);
	rq.u.tile.affine = 0;
	rq.u.tile.bpp = 4;  /* text 4bpp from charblock 1: [16K, 48K) */
	ck_assert_int_eq(vs_hw_check(&d, &rq, 0xBFE0, 32, why, sizeof why), 0);
	ck_assert_int_eq(vs_hw_check(&d, &rq, 0xC000, 32, why, sizeof why), -1);
	rq.u.tile.cb1 = 0;  /* not given: most favourable */
	ck_assert_int_eq(vs_hw_check(&d, &rq, 0xC000, 32, why, sizeof why), 0);
}
END_TEST

/* ---- the reader's plain-line path against its full checks --------------- */

/* Reads text (a header, then one event line) and writes what came out: the
 * canonical event, or the error. */
static void one_event(const char *line, char *out, size_t cap)
{
	char text[2048], err[1024];
	FILE *in, *o;
	vs_trace_reader *r;
	vs_event ev;
	int rc;

	snprintf(text, sizeof text, "vramsim-trace 1\narena obj gba-obj\narena heap ram size=64K\nframe\n%s\n", line);
	in = fmemopen(text, strlen(text), "rb");
	ck_assert_ptr_nonnull(in);
	r = vs_trace_open_stream(in, "p", err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(vs_trace_next(r, &ev), 1); /* the frame: the line under test is not the first event */
	o = fmemopen(out, cap, "w");
	ck_assert_ptr_nonnull(o);
	rc = vs_trace_next(r, &ev);
	if (rc == 1)
		vs_trace_write_event(o, vs_trace_header_of(r), &ev);
	else
		fprintf(o, "%d %s", rc, rc < 0 ? vs_trace_error(r) : "");
	fclose(o);
	vs_trace_close(r);
	fclose(in);
}

/* A line of plain ASCII is cut in one pass; any other byte in it (here a
 * UTF-8 comment) sends it through the UTF-8 check and the tokenizer. Both
 * must give the same event or the same error, column for column. */
START_TEST(plain_path_agrees_with_full_checks)
{
	static const char *const lines[] = {
		"alloc 1 obj sprite 32x16 8bpp tag=player",
		"alloc 2\tobj  sprite\t\t8x8 4bpp   tag=a.b-c_d/e:f",
		"  free 7  ",
		"alloc 3 heap 0x10 align=16 data=00ff",
		"alloc 4 heap 18446744073709551615",
		"alloc 4 heap 18446744073709551616",
		"alloc 4 heap 0xFFFFFFFFFFFFFFFF0",
		"alloc 5 heap 12K",
		"alloc 6 heap 12Q",
		"alloc 18446744073709551615 heap 1",
		"free 99999999999999999999x",
		"free 0x",
		"free",
		"frame 1",
		"alloc 1 obj sprite 32x16 8bpp tag=a#b",
		"alloc 1 obj sprite 8x8 4bpp tag=x\x01y",
		"alloc 1 obj sprite 8x8 4bpp tag=x\ry",
		"a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5 6 7",
		"a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5 6",
		"bogus statement",
		/* the quick forms, and lines just outside them */
		"frame", "frame x", "free 19", "free 0019", "free 1234567890123456789", "free 12345678901234567890",
		"free 99999999999999999999", "free 5 6", "free -1", "free 5x", "free  5",
	};
	char plain[1200], slow[1200], with[1024];
	size_t i;

	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		one_event(lines[i], plain, sizeof plain);
		snprintf(with, sizeof with, "%s # caf\xC3\xA9", lines[i]); /* a comment only the full path takes */
		one_event(with, slow, sizeof slow);
		ck_assert_msg(strcmp(plain, slow) == 0, "line %zu:\n  plain %s\n  full  %s", i, plain, slow);
	}
	one_event(lines[17], plain, sizeof plain);
	ck_assert_str_eq(plain, "-1 p:5:65: error: too many fields on one line (at most 32)");
	one_event(lines[15], plain, sizeof plain);
	ck_assert_msg(strstr(plain, "p:5:33: error: tag 'x\\x01y' must") != NULL, "%s", plain);
	one_event(lines[5], plain, sizeof plain);
	ck_assert_str_eq(plain, "-1 p:5:14: error: size: 18446744073709551616 does not fit in 32 bits");
	one_event("free 0019\r", plain, sizeof plain);
	ck_assert_str_eq(plain, "free 19\n");
	one_event("frame\r", plain, sizeof plain);
	ck_assert_str_eq(plain, "frame\n");
	one_event("free 99999999999999999999", plain, sizeof plain);
	ck_assert_str_eq(plain, "-1 p:5:6: error: free: id '99999999999999999999' is not a 64-bit number");
}
END_TEST

/* Lines of every length across the reader's 64 KiB blocks, CRLF and LF,
 * tabs, long comments, and a last line without a newline. */
START_TEST(lines_across_blocks)
{
	char err[1024];
	FILE *fp = tmpfile();
	vs_trace_reader *r;
	vs_event ev;
	uint64_t i, n = 0, lines = 2;
	const uint64_t count = 20000;

	ck_assert_ptr_nonnull(fp);
	fputs("vramsim-trace 1\narena heap ram size=1M\n", fp);
	for (i = 0; i < count; i++) {
		/* the tag's length walks through 1-63 so line ends fall everywhere */
		unsigned k, len = (unsigned)(i % 63) + 1;
		fprintf(fp, "alloc %llu%s%llu tag=", (unsigned long long)i, i % 3 ? " " : "\t",
			(unsigned long long)(i % 500 + 1));
		for (k = 0; k < len; k++)
			fputc('a' + (int)((i + k) % 26), fp);
		fputs(i % 2 ? "\r\n" : "\n", fp);
		lines++;
		if (i % 1000 == 999) {
			/* a comment line longer than a block */
			fputs("#", fp);
			for (k = 0; k < 70000; k++)
				fputc(k % 80 ? 'c' : ' ', fp);
			fputs("\n", fp);
			lines++;
		}
	}
	fputs("free 5", fp); /* no final newline */
	lines++;
	rewind(fp);
	r = vs_trace_open_stream(fp, "b", err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	while (vs_trace_next(r, &ev) == 1) {
		if (n < count) {
			unsigned len = (unsigned)(n % 63) + 1;
			HOT_ASSERT(ev.type == VS_EV_ALLOC && ev.id == n && ev.req.size == n % 500 + 1 &&
				strlen(ev.tag) == len && ev.tag[0] == 'a' + (int)(n % 26) &&
				ev.tag[len - 1] == 'a' + (int)((n + len - 1) % 26), "event %llu", (unsigned long long)n);
		}
		n++;
	}
	ck_assert_str_eq(vs_trace_error(r), "");
	ck_assert_uint_eq(n, count + 1);
	ck_assert_int_eq(ev.type, VS_EV_FREE);
	ck_assert_uint_eq(ev.id, 5);
	ck_assert_uint_eq(ev.line, lines);
	vs_trace_close(r);
	fclose(fp);
}
END_TEST

/* A NUL byte, in a token or a comment, deep in a file: named by line and column. */
START_TEST(nul_bytes_named)
{
	static const char *const tails[] = { "free 1\0 ", "free 1 # a\0b", "fr\0ee 1" };
	static const char *const want[] = { "n:1003:7: error: NUL byte in trace text",
		"n:1003:11: error: NUL byte in trace text", "n:1003:3: error: NUL byte in trace text" };
	static const size_t tlen[] = { 8, 12, 7 };
	size_t t;

	for (t = 0; t < 3; t++) {
		char err[1024];
		FILE *fp = tmpfile();
		vs_trace_reader *r;
		vs_event ev;
		int i, rc;

		ck_assert_ptr_nonnull(fp);
		fputs("vramsim-trace 1\narena heap ram size=1M\n", fp);
		for (i = 0; i < 1000; i++)
			fprintf(fp, "alloc %d 100 tag=filler_to_cross_a_block_boundary_%d\n", i, i);
		fwrite(tails[t], 1, tlen[t], fp);
		fputs("\nframe\n", fp);
		rewind(fp);
		r = vs_trace_open_stream(fp, "n", err, sizeof err);
		ck_assert_msg(r != NULL, "%s", err);
		while ((rc = vs_trace_next(r, &ev)) == 1)
			;
		ck_assert_int_eq(rc, -1);
		ck_assert_str_eq(vs_trace_error(r), want[t]);
		vs_trace_close(r);
		fclose(fp);
	}
}
END_TEST

/* ---- the reader's fast path against the full path ---------------------- */

/* Every field of an event (the request byte for byte: both paths start it
 * from zero), or the error: what the two paths must agree on. */
static void describe(vs_trace_reader *r, int rc, const vs_event *ev, char *out, size_t cap)
{
	const unsigned char *q = (const unsigned char *)&ev->req;
	size_t i, n;

	if (rc != 1) {
		snprintf(out, cap, "rc %d %s", rc, rc < 0 ? vs_trace_error(r) : "");
		return;
	}
	n = (size_t)snprintf(out, cap, "%s line %llu arena %d id %llu tag '%s' data %u route %d search %u name %s "
		"options %s req", vs_trace_event_name(ev->type), (unsigned long long)ev->line, ev->arena,
		(unsigned long long)ev->id, ev->tag, (unsigned)ev->data_len, ev->route, (unsigned)ev->search_len,
		ev->name ? ev->name : "-", ev->options ? ev->options : "-");
	for (i = 0; i < sizeof ev->req && n + 3 < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, " %02x", q[i]);
	for (i = 0; i < ev->search_len && n + 4 < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, " s%u", (unsigned)ev->search[i]);
	for (i = 0; i < ev->data_len && i < 8 && n + 3 < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, " d%02x", ev->data[i]);
}

/* Reads text (len bytes) and describes its last event, or the error, or the
 * end: the event under test is on the text's last line. */
static void last_event(const char *text, size_t len, char *out, size_t cap)
{
	char err[1024];
	FILE *in = fmemopen((void *)text, len, "rb");
	vs_trace_reader *r;
	vs_event ev;
	int rc, last = 0;

	ck_assert_ptr_nonnull(in);
	r = vs_trace_open_stream(in, "f", err, sizeof err);
	if (!r) {
		snprintf(out, cap, "open %s", err);
		fclose(in);
		return;
	}
	memset(&ev, 0, sizeof ev);
	while ((rc = vs_trace_next(r, &ev)) == 1)
		last = 1;
	describe(r, rc < 0 || !last ? rc : 1, &ev, out, cap);
	vs_trace_close(r);
	fclose(in);
}

/* text[0, at) read again without its last newline: the same event as want
 * (from its arena on), the line at the end of the trace. */
static void same_without_newline(const char *text, size_t at, const char *want, size_t i, size_t j)
{
	char got[2048];

	while (at > 0 && (text[at - 1] == '\n' || text[at - 1] == '\r'))
		at--;
	last_event(text, at, got, sizeof got);
	ck_assert_msg(strcmp(strstr(want, " arena"), strstr(got, " arena")) == 0,
		"line %zu cut at %zu, no newline:\n  want %s\n  got  %s", i, j, want, got);
}

/* Lines the fast path reads, and lines just outside it: read as they are and
 * with a comment after them (which only the full path takes), they must give
 * the same event, field for field, or the same error. */
START_TEST(fast_path_agrees_with_full_path)
{
	static const char *const heads[] = {
		"vramsim-trace 1\narena obj gba-obj\nalloc 900 sprite 8x8 4bpp tag=player\n",
		"vramsim-trace 1\narena bg gba-bg\nalloc 900 tile 1 4bpp tag=player\n",
		"vramsim-trace 1\narena tex ds-tex\nalloc 900 tex 8x8 4c tag=player\n",
		"vramsim-trace 1\narena pal ds-pltt\nalloc 900 pltt 16 tag=player\n",
		"vramsim-trace 1\narena heap ram size=1M\nalloc 900 8 tag=player\nalloc 901 8 tag=a.b-c_d/e:f\n",
		"vramsim-trace 1\narena obj gba-obj\narena tex ds-tex\narena heap ram size=64K\nalloc 900 heap 8 tag=player\n",
		"vramsim-trace 1\narena heap ram size=64K\nheaps\nalloc 900 8 tag=player\n",
		"vramsim-trace 1\narena sprite gba-obj\nalloc 900 sprite 8x8 4bpp tag=player\n",
		"vramsim-trace 1\narena tile gba-bg\nalloc 900 tile 1 4bpp\n",
	};
	static const char *const lines[] = {
		"frame", "frame\r", "frame ", "frame x", "frames", "fram", "free 7", "free 7\r", "free 0", "free 007",
		"free 1234567890123456789", "free 12345678901234567890", "free 99999999999999999999", "free 0x1F",
		"free 7 8", "free 7x", "free -1", "free", "free ", "free  7", "free\t7", " free 7", "free 7\r\r",
		"alloc 1 sprite 32x16 4bpp tag=player", "alloc 1 sprite 64x64 8bpp", "alloc 1 obj sprite 8x32 4bpp",
		"alloc 1 sprite 8x64 4bpp", "alloc 1 sprite 16x16 2bpp", "alloc 1 sprite 16x16 4bppx",
		"alloc 1 sprite 016x0016 4bpp", "alloc 1 sprite 4096x8 4bpp", "alloc 1 sprite 99999x8 4bpp",
		"alloc 1 sprite 16x16 4bpp tag=nobody", "alloc 1 sprite 16x16 4bpp tag=play", "alloc 1 sprite 16x16 4bpp tag=players",
		"alloc 1 sprite 16x16 4bpp tag=player align=32", "alloc 1 sprite 16x16 4bpp align=32 tag=player",
		"alloc 1 sprite 16x16 4bpp tag=", "alloc 1 sprite 16x16 4bpp tag=player at=0x06010000",
		"alloc 1 sprite 16x16 4bpp tag=a.b-c_d/e:f", "alloc 1 sprite 16x16 4bpp tag=player#",
		"alloc 1 sprite 16x16 4bpp tag=pl\xC3\xA9yer", "alloc 1 sprite 16x16 4bpp  tag=player",
		"alloc 1 tile 5 4bpp", "alloc 1 tile 5 8bpp affine", "alloc 1 tile 0x5 4bpp", "alloc 1 tile 5 4bpp cb=1",
		"alloc 1 bg tile 5 8bpp tag=player", "alloc 1 tile 5 4bpp tag=player", "alloc 1 tile 4294967296 4bpp",
		"alloc 1 tile 0 4bpp", "alloc 1 tile tile 5 4bpp", "alloc 1 tile 5 4bpp\r",
		"alloc 1 tex 64x32 16c tag=player", "alloc 1 tex tex 8x8 4x4", "alloc 1 tex 1024x1024 direct",
		"alloc 1 tex 2048x8 4c", "alloc 1 tex 12x8 4c", "alloc 1 tex 8x8 4C", "alloc 1 tex 8x8 a3i5",
		"alloc 1 tex 8x8 a5i3", "alloc 1 tex 8x8 256c", "alloc 1 tex 8x8", "alloc 1 tex 4x4 4x4",
		"alloc 1 pltt 16 tag=player", "alloc 1 pal pltt 4", "alloc 1 pltt 4 4c", "alloc 1 pltt 16 colours",
		"alloc 1 pltt 0", "alloc 1 pltt 49152", "alloc 1 pltt 49153",
		"alloc 1 100", "alloc 1 100 tag=player", "alloc 1 heap 100 tag=player", "alloc 1 0", "alloc 1 12K",
		"alloc 1 999999999", "alloc 1 1000000000", "alloc 1 4294967296", "alloc 1 bytes 100", "alloc 1 0x40",
		"alloc 1 heap", "alloc 1", "alloc", "alloc 1 nothing 5", "alloc 1 obj 100", "alloc 1 tex 100",
		"alloc 18446744073709551615 100", "alloc 99999999999999999999 100", "alloc x 100", "alloc  1 100",
		"alloc 1 100 tag=player search=heap", "alloc 1 heap 100 data=00ff", "alloc 1 100 # c",
		"allocate 1 100", "alloc\t1 100", "bogus", "move 1 to=0x06010000", "reset",
	};
	static char text[4096], with[4096], a[2048], b[2048];
	size_t h, i, n = 0;

	for (h = 0; h < sizeof heads / sizeof heads[0]; h++)
		for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
			const char *l = lines[i];
			size_t ll = strlen(l), cr = ll && l[ll - 1] == '\r';
			int tl = snprintf(text, sizeof text, "%s%s\n", heads[h], l);
			/* the comment goes before a final CR, which ends the line either way */
			int wl = snprintf(with, sizeof with, "%s%.*s # c%s\n", heads[h], (int)(ll - cr), l, cr ? "\r" : "");
			last_event(text, (size_t)tl, a, sizeof a);
			last_event(with, (size_t)wl, b, sizeof b);
			HOT_ASSERT(strcmp(a, b) == 0, "head %zu line '%s':\n  fast %s\n  full %s", h, l, a, b);
			if (strncmp(a, "alloc", 5) == 0 || strncmp(a, "free", 4) == 0 || strncmp(a, "frame", 5) == 0)
				n++;
		}
	ck_assert_uint_ge(n, 200); /* most lines make events somewhere */
	/* and what they make is right, not merely the same */
	snprintf(text, sizeof text, "%salloc 1 sprite 32x16 4bpp tag=player\n", heads[0]);
	last_event(text, strlen(text), b, sizeof b);
	ck_assert_msg(strncmp(b, "alloc line 4 arena 0 id 1 tag 'player' ", 39) == 0, "%s", b);
	snprintf(text, sizeof text, "%sfree 99999999999999999999\n", heads[0]);
	last_event(text, strlen(text), b, sizeof b);
	ck_assert_str_eq(b, "rc -1 f:4:6: error: free: id '99999999999999999999' is not a 64-bit number");
}
END_TEST

/* NUL bytes and other bytes of no line's business inside lines the fast
 * path would otherwise take: the full path's errors, at its columns. */
START_TEST(fast_path_leaves_odd_bytes)
{
	static const char head[] = "vramsim-trace 1\narena heap ram size=1M\nalloc 900 8 tag=player\n";
	static const struct { const char *l; size_t len; const char *want; } cases[] = {
		{ "free 1\0", 7, "rc -1 f:4:7: error: NUL byte in trace text" },
		{ "fr\0ee 1", 7, "rc -1 f:4:3: error: NUL byte in trace text" },
		{ "alloc 1 8 tag=player\0", 21, "rc -1 f:4:21: error: NUL byte in trace text" },
		{ "alloc 1 8\0 tag=player", 21, "rc -1 f:4:10: error: NUL byte in trace text" },
		{ "frame\0", 6, "rc -1 f:4:6: error: NUL byte in trace text" },
		{ "free 1\xFF", 7, "rc -1 f:4:7: error: invalid UTF-8" },
		{ "alloc 1 8 tag=play\x01r", 20, "rc -1 f:4:15: error: tag 'play\\x01r' must be 1-63 letters, digits or _-./:" },
	};
	static char text[256], out[1024];
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memcpy(text, head, sizeof head - 1);
		memcpy(text + sizeof head - 1, cases[i].l, cases[i].len);
		memcpy(text + sizeof head - 1 + cases[i].len, "\nframe\n", 7);
		last_event(text, sizeof head - 1 + cases[i].len + 7, out, sizeof out);
		ck_assert_msg(strcmp(out, cases[i].want) == 0, "case %zu: %s", i, out);
	}
}
END_TEST

/* The block ends in the middle of a fast line at every byte of it: the first
 * read fills the reader's 256 KiB buffer, so a long comment line puts the
 * line under test across the block's end at the chosen byte. */
START_TEST(fast_lines_across_the_block_end)
{
	static const char head[] = "vramsim-trace 1\narena obj gba-obj\nalloc 900 sprite 8x8 4bpp tag=player\n";
	static const char *const lines[] = { "alloc 123 sprite 16x16 8bpp tag=player\r\n", "free 77\r\n",
		"frame\r\n", "alloc 5 sprite 32x8 4bpp\n", "free 1234567890123456789\n" };
	const size_t block = 4u << 16, cap = block + 256;
	char *text = malloc(cap), want[2048], got[2048];
	size_t i, j;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		size_t ll = strlen(lines[i]), at, n;
		char one[512];
		/* what the line alone gives, after the same header */
		n = (size_t)snprintf(one, sizeof one, "%s%s", head, lines[i]);
		last_event(one, n, want, sizeof want);
		ck_assert_msg(strncmp(want, "rc", 2) != 0, "%s", want);
		for (j = 0; j <= ll; j++) {
			/* the line starts j bytes before the block's end */
			memcpy(text, head, sizeof head - 1);
			at = sizeof head - 1;
			text[at++] = '#';
			while (at < block - j - 1)
				text[at++] = 'c';
			text[at++] = '\n';
			memcpy(text + at, lines[i], ll);
			at += ll;
			last_event(text, at, got, sizeof got);
			/* the line number is one more: the comment line */
			ck_assert_msg(strstr(want, " line 4 ") && strstr(got, " line 5 "), "j %zu: %s", j, got);
			ck_assert_msg(strcmp(strstr(want, " arena"), strstr(got, " arena")) == 0,
				"line %zu cut at %zu:\n  want %s\n  got  %s", i, j, want, got);
			same_without_newline(text, at, want, i, j);
		}
	}
	free(text);
}
END_TEST

/* A line that starts like a fast one but runs on past the longest line, and
 * at the end of a trace the last event stays where the caller has it. */
START_TEST(fast_path_long_line_and_end)
{
	char err[1024];
	FILE *fp = tmpfile();
	vs_trace_reader *r;
	vs_event ev;
	size_t i;

	ck_assert_ptr_nonnull(fp);
	fputs("vramsim-trace 1\narena heap ram size=1M\nalloc 1 8\nfree ", fp);
	for (i = 0; i < 1000; i++)
		fputc('0', fp);
	fputs("1\nfree ", fp);
	for (i = 0; i < VS_TRACE_LINE_MAX; i++)
		fputc('0', fp);
	fputs("2\n", fp);
	rewind(fp);
	r = vs_trace_open_stream(fp, "L", err, sizeof err);
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_int_eq(vs_trace_next(r, &ev), 1);
	ck_assert_int_eq(vs_trace_next(r, &ev), 1); /* 1000 zeros and a 1: the full path reads it */
	ck_assert_int_eq(ev.type, VS_EV_FREE);
	ck_assert_uint_eq(ev.id, 1);
	ck_assert_int_eq(vs_trace_next(r, &ev), -1);
	ck_assert_str_eq(vs_trace_error(r), "L:5:1: error: line is longer than 1048576 bytes");
	vs_trace_close(r);
	fclose(fp);

	{
		static const char text[] = "vramsim-trace 1\narena heap ram size=1M\nalloc 1 8\nfree 1\n\n# done\n";
		FILE *in = fmemopen((void *)text, sizeof text - 1, "rb");
		ck_assert_ptr_nonnull(in);
		r = vs_trace_open_stream(in, "e", err, sizeof err);
		ck_assert_msg(r != NULL, "%s", err);
		ck_assert_int_eq(vs_trace_next(r, &ev), 1);
		ck_assert_int_eq(vs_trace_next(r, &ev), 1);
		ck_assert_int_eq(vs_trace_next(r, &ev), 0);
		ck_assert_int_eq(ev.type, VS_EV_FREE); /* untouched by the end */
		ck_assert_uint_eq(ev.id, 1);
		ck_assert_uint_eq(ev.line, 4);
		vs_trace_close(r);
		fclose(in);
	}
}
END_TEST

/* Tags the fast path finds by their bytes as one word (up to 7 bytes),
 * and longer ones it looks up by name: after one another, prefixes of one
 * another, seen before or not, with odd bytes, each line the same event
 * (its tag included) as the full path gives. */
START_TEST(fast_tags_agree_with_full_path)
{
	static const char *const tags[] = {
		"a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh", "abcdefghi", "ui", "enemy",
		"player", "bullet", "particle", "x.y/z:w", "A_B-9", "pl#ay", "pl\xC3\xA9y", "b c", "",
	};
	static char head[4096], text[8192], with[8192], a[2048], b[2048];
	size_t i, j, tl, n = 0;

	/* the first 15 (good names) seen through the full path, then each tag
	 * used after them (j = 1) or with no tag seen before it (j = 0) */
	tl = (size_t)snprintf(head, sizeof head, "vramsim-trace 1\narena obj gba-obj\n");
	for (i = 0; i < 15; i++)
		tl += (size_t)snprintf(head + tl, sizeof head - tl, "alloc %zu 8 tag=%s # c\n", 100 + i, tags[i]);
	for (j = 0; j < 2; j++)
		for (i = 0; i < sizeof tags / sizeof tags[0]; i++) {
			size_t h = j ? tl : (size_t)strlen("vramsim-trace 1\narena obj gba-obj\n");
			memcpy(text, head, h);
			size_t t2 = h + (size_t)snprintf(text + h, sizeof text - h, "alloc 1 8 tag=%s\n", tags[i]);
			size_t w2 = h;
			memcpy(with, text, h);
			w2 += (size_t)snprintf(with + h, sizeof with - h, "alloc 1 8 tag=%s # c\n", tags[i]);
			last_event(text, t2, a, sizeof a);
			last_event(with, w2, b, sizeof b);
			ck_assert_msg(strcmp(a, b) == 0, "tag '%s' (seen %zu):\n  fast %s\n  full %s", tags[i], j, a, b);
			if (strncmp(a, "alloc", 5) == 0) {
				char want[64];
				snprintf(want, sizeof want, " tag '%s' ", tags[i]);
				ck_assert_msg(strstr(a, want) != NULL, "tag '%s': %s", tags[i], a);
				n++;
			}
		}
	ck_assert_uint_ge(n, 2 * 15);
}
END_TEST

/* Sprite and texture sides are read as one of 8, 16, ... 1024, not as
 * numbers: each side the fast path takes or leaves, and near misses, the
 * same event or error as the full path gives (a comment after the line
 * sends it there). */
START_TEST(fast_sides_agree_with_full_path)
{
	static const char *const sides[] = {
		"8", "16", "32", "64", "128", "256", "512", "1024", "1", "2", "3", "5", "6", "4", "0", "9", "10", "12",
		"18", "25", "31", "33", "51", "62", "65", "80", "08", "016", "102", "120", "129", "160", "250", "257",
		"320", "511", "640", "1020", "1025", "1280", "2048", "5120", "10240", "x", "",
	};
	static const struct { const char *head, *req, *tail[3]; } kinds[] = {
		{ "vramsim-trace 1\narena obj gba-obj\nalloc 900 sprite 8x8 4bpp tag=player\n", "sprite",
			{ " 4bpp", " 8bpp tag=player", " 2bpp" } },
		{ "vramsim-trace 1\narena tex ds-tex\nalloc 900 tex 8x8 4c tag=player\n", "tex tex", /* arena, then request */
			{ " 4x4", " direct tag=player", " 4c5" } },
	};
	static char text[512], with[512], a[2048], b[2048];
	size_t c, i, j, k, n = 0;

	for (c = 0; c < sizeof kinds / sizeof kinds[0]; c++)
		for (i = 0; i < sizeof sides / sizeof sides[0]; i++)
			for (j = 0; j < sizeof sides / sizeof sides[0]; j++)
				for (k = 0; k < 3 && (i < 8 || j < 8); k++) { /* a good side one way at least */
					int tl = snprintf(text, sizeof text, "%salloc 1 %s %sx%s%s\n", kinds[c].head, kinds[c].req,
						sides[i], sides[j], kinds[c].tail[k]);
					int wl = snprintf(with, sizeof with, "%salloc 1 %s %sx%s%s # c\n", kinds[c].head,
						kinds[c].req, sides[i], sides[j], kinds[c].tail[k]);
					last_event(text, (size_t)tl, a, sizeof a);
					last_event(with, (size_t)wl, b, sizeof b);
					HOT_ASSERT(strcmp(a, b) == 0, "line '%s %sx%s%s':\n  fast %s\n  full %s", kinds[c].req,
						sides[i], sides[j], kinds[c].tail[k], a, b);
					n += strncmp(a, "alloc", 5) == 0;
				}
	/* at least: the four sprite sides both ways at two depths, the eight
	 * texture sides both ways in two formats (4x4 is 1024 at most) */
	ck_assert_uint_ge(n, 4 * 4 * 2 + 8 * 8 + 8 * 8);
	/* and the right ones: 64x32 at 8bpp, a 1024x8 direct texture */
	snprintf(text, sizeof text, "%salloc 1 sprite 64x32 8bpp\n", kinds[0].head);
	last_event(text, strlen(text), a, sizeof a);
	snprintf(with, sizeof with, "%salloc 1 sprite 64x32 8bpp # c\n", kinds[0].head);
	last_event(with, strlen(with), b, sizeof b);
	ck_assert_str_eq(a, b);
	ck_assert_msg(strncmp(a, "alloc line 4 arena 0 id 1 ", 26) == 0, "%s", a);
	snprintf(text, sizeof text, "%salloc 1 tex tex 1024x8 direct\n", kinds[1].head);
	last_event(text, strlen(text), a, sizeof a);
	snprintf(with, sizeof with, "%salloc 1 tex tex 1024x8 direct # c\n", kinds[1].head);
	last_event(with, strlen(with), b, sizeof b);
	ck_assert_str_eq(a, b);
	ck_assert_msg(strncmp(a, "alloc line 4 arena 0 id 1 ", 26) == 0, "%s", a);
}
END_TEST

/* Reads `head` then `line` alone and with a comment after it (which only
 * the full path takes): the same event, field for field, or the same
 * error. Returns 1 when the line made an event. */
static int agree(const char *head, const char *line)
{
	static char text[4096], with[4096], a[2048], b[2048];
	size_t ll = strlen(line), cr = ll && line[ll - 1] == '\r';
	int tl = snprintf(text, sizeof text, "%s%s\n", head, line);
	int wl = snprintf(with, sizeof with, "%s%.*s # c%s\n", head, (int)(ll - cr), line, cr ? "\r" : "");

	last_event(text, (size_t)tl, a, sizeof a);
	last_event(with, (size_t)wl, b, sizeof b);
	ck_assert_msg(strcmp(a, b) == 0, "line '%s':\n  fast %s\n  full %s", line, a, b);
	return strncmp(a, "rc", 2) != 0;
}

/* Numbers are read eight digits at a time, then eight more, then one by
 * one: every length from 1 to 21 digits (8, 9, 16, 17, 19 and 20 at the
 * edges), with leading zeros, the largest ids and the first that do not
 * fit, in each place the fast path reads a number: last on the line,
 * followed by each byte that may or may not end one, and inside it. */
START_TEST(fast_numbers_agree_with_full_path)
{
	static const char *const heads[] = {
		"vramsim-trace 1\narena heap ram size=1M\nalloc 900 8 tag=player\n",
		"vramsim-trace 1\narena bg gba-bg\nalloc 900 tile 1 4bpp tag=player\n",
		"vramsim-trace 1\narena pal ds-pltt\nalloc 900 pltt 16 tag=player\n",
	};
	/* the head, and the line: %s the number, then (last) the end */
	static const struct { int head, last; const char *form; } forms[] = {
		{ 0, 1, "free %s%s" }, { 0, 1, "alloc 1 %s%s" }, { 2, 1, "alloc 1 pltt %s%s" },
		{ 0, 0, "alloc %s 8" }, { 0, 0, "alloc %sx 8" }, { 0, 0, "alloc %s\t8" },
		{ 0, 0, "alloc 1 heap %s tag=player" }, { 1, 0, "alloc 1 tile %s 4bpp" },
		{ 1, 0, "alloc 1 tile %s_4bpp" }, { 2, 0, "alloc 1 pltt %s tag=player" },
	};
	static const char *const ends[] = { "", "\r", " ", "x", "K" };
	static const char *const special[] = {
		"18446744073709551615", "18446744073709551616", "99999999999999999999", "4294967295", "4294967296",
		"999999999", "1000000000", "0000000000000000000001", "000000000000000000001", "00000000", "00000001",
		"10000000", "99999999", "100000000", "0x10", "49152", "49153", "0",
	};
	char num[64], line[256];
	size_t f, e, len, i, k, made = 0;

	for (f = 0; f < sizeof forms / sizeof forms[0]; f++)
		for (e = 0; e < (forms[f].last ? sizeof ends / sizeof ends[0] : 1); e++) {
			const char *head = heads[forms[f].head];
			for (len = 1; len <= 21; len++)
				for (k = 0; k < 3; k++) {
					/* 123...: every digit counts; 0...07: leading zeros; 9...9 */
					for (i = 0; i < len; i++)
						num[i] = (char)(k == 0 ? '0' + (i + 1) % 10 : k == 1 ? (i + 1 < len ? '0' : '7') : '9');
					num[len] = '\0';
					snprintf(line, sizeof line, forms[f].form, num, ends[e]);
					made += (size_t)agree(head, line);
				}
			for (i = 0; i < sizeof special / sizeof special[0]; i++) {
				snprintf(line, sizeof line, forms[f].form, special[i], ends[e]);
				made += (size_t)agree(head, line);
			}
		}
	ck_assert_uint_ge(made, 7 * 9); /* up to 9 digits, at least, where a space follows */
	/* and the values are right, not merely the same on both paths */
	{
		static const struct { const char *line; uint64_t id; uint32_t size; } want[] = {
			{ "alloc 12345678 8", 12345678u, 8 },
			{ "alloc 123456789 87654321", 123456789u, 87654321u },
			{ "alloc 1234567890123456 999999999", 1234567890123456ull, 999999999u },
			{ "alloc 12345678901234567 00000012", 12345678901234567ull, 12 },
			{ "alloc 18446744073709551615 1", 18446744073709551615ull, 1 },
			{ "alloc 00000000000000000042 7", 42, 7 },
		};
		char err[1024], text[256];
		for (i = 0; i < sizeof want / sizeof want[0]; i++) {
			int n = snprintf(text, sizeof text, "%s%s\n", heads[0], want[i].line);
			FILE *in = fmemopen(text, (size_t)n, "rb");
			vs_trace_reader *r;
			vs_event ev;
			ck_assert_ptr_nonnull(in);
			r = vs_trace_open_stream(in, "n", err, sizeof err);
			ck_assert_msg(r != NULL, "%s", err);
			ck_assert_int_eq(vs_trace_next(r, &ev), 1);
			ck_assert_int_eq(vs_trace_next(r, &ev), 1);
			ck_assert_msg(ev.id == want[i].id && ev.req.size == want[i].size, "'%s': id %llu size %u",
				want[i].line, (unsigned long long)ev.id, (unsigned)ev.req.size);
			vs_trace_close(r);
			fclose(in);
		}
	}
}
END_TEST

/* A number cut by the block's end at every byte, with and without the rest
 * of its line, and a last line without a newline after it. The reader
 * moves a cut line to the start of its buffer and reads the rest after it:
 * the bytes past what it read are then old ones, here digits and newlines
 * (the trace starts with comments of a digit), which it must not take for
 * the last number's. */
START_TEST(fast_numbers_across_the_block_end)
{
	static const char head[] = "vramsim-trace 1\narena heap ram size=1M\nalloc 900 8 tag=player\n";
	static const char *const lines[] = { "free 12345678\n", "free 1234567890123456\n", "free 12345678901234567\n",
		"free 1234567890123456789\r\n", "alloc 12345678 123456789 tag=player\n", "free 7\n" };
	/* after the line: nothing, or a last line of 6, 7 or 8 bytes (the old
	 * bytes past it start at each place in a comment) */
	static const char *const tails[] = { "", "free 1", "free 12", "free 123" };
	const size_t block = 4u << 16, cap = block + 512;
	char *text = malloc(cap), want[2048], got[2048], one[512];
	size_t i, j, t, at, pre, n;

	ck_assert_ptr_nonnull(text);
	/* comments of a digit, then the header */
	for (pre = 0; pre < 300; pre += 3)
		memcpy(text + pre, "#9\n", 3);
	memcpy(text + pre, head, sizeof head - 1);
	pre += sizeof head - 1;
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++)
		for (t = 0; t < sizeof tails / sizeof tails[0]; t++) {
			size_t ll = strlen(lines[i]), tl = strlen(tails[t]);
			n = (size_t)snprintf(one, sizeof one, "%s%s%s", head, lines[i], tails[t]);
			last_event(one, n, want, sizeof want);
			ck_assert_msg(strncmp(want, "rc", 2) != 0, "%s", want);
			for (j = 0; j <= ll; j++) {
				/* the line starts j bytes before the block's end */
				at = pre;
				text[at++] = '#';
				while (at < block - j - 1)
					text[at++] = 'c';
				text[at++] = '\n';
				memcpy(text + at, lines[i], ll);
				memcpy(text + at + ll, tails[t], tl);
				at += ll + tl;
				last_event(text, at, got, sizeof got);
				ck_assert_msg(strstr(got, tl ? " line 106 " : " line 105 ") != NULL, "j %zu: %s", j, got);
				ck_assert_msg(strcmp(strstr(want, " arena"), strstr(got, " arena")) == 0,
					"line %zu cut at %zu, then '%s':\n  want %s\n  got  %s", i, j, tails[t], want, got);
				if (!tl)
					same_without_newline(text, at, want, i, j);
			}
		}
	free(text);
}
END_TEST

/* Tags of 8 bytes are found by their word as shorter ones are: known or
 * not, as prefixes of one another, with each byte that may follow them. */
START_TEST(fast_tags_of_eight_bytes)
{
	static const char head[] = "vramsim-trace 1\narena heap ram size=1M\nalloc 900 8 tag=particle # c\n"
		"alloc 901 8 tag=abcdefgh # c\nalloc 902 8 tag=abcdefg # c\nalloc 903 8 tag=abcdefghijklmnop # c\n"
		"alloc 904 8 tag=12345678 # c\n";
	static const char *const tags[] = { "particle", "abcdefgh", "abcdefg", "abcdefghi", "abcdefghijklmnop",
		"abcdefghijklmno", "bcdefgh", "abcdefgH", "particl", "particles", "12345678", "1234567", "Particle" };
	static const char *const ends[] = { "", "\r", " align=4", "!", "\t", ":", "#" };
	char line[256];
	size_t i, e, made = 0;

	for (i = 0; i < sizeof tags / sizeof tags[0]; i++)
		for (e = 0; e < sizeof ends / sizeof ends[0]; e++) {
			snprintf(line, sizeof line, "alloc 1 8 tag=%s%s", tags[i], ends[e]);
			made += (size_t)agree(head, line);
		}
	ck_assert_uint_ge(made, 5 * 3);
	/* the right tag, not merely the same on both paths */
	{
		char text[1024], out[2048];
		int n = snprintf(text, sizeof text, "%salloc 1 8 tag=particle\n", head);
		last_event(text, (size_t)n, out, sizeof out);
		ck_assert_msg(strstr(out, " tag 'particle' ") != NULL, "%s", out);
		n = snprintf(text, sizeof text, "%salloc 1 8 tag=abcdefgh\n", head);
		last_event(text, (size_t)n, out, sizeof out);
		ck_assert_msg(strstr(out, " tag 'abcdefgh' ") != NULL, "%s", out);
	}
}
END_TEST

/* Arena names of up to 7 bytes are matched with the space after them as
 * one word, longer ones byte by byte: names of 1 to 9 and 31 bytes, names
 * that begin other names, one arena or several, named or not. */
START_TEST(fast_arena_names_agree_with_full_path)
{
	static const char *const names[] = { "o", "obj", "sprite", "objects", "objects1", "objects12",
		"a234567890123456789012345678901" };
	static const char *const lines[] = {
		"alloc 1 %s sprite 8x8 4bpp", "alloc 1 %s sprite 8x8 4bpp tag=player", "alloc 1 sprite 8x8 4bpp",
		"alloc 1 %sx sprite 8x8 4bpp", "alloc 1 %s  sprite 8x8 4bpp", "alloc 1 %s", "alloc 1 %s 8x8 4bpp",
		"alloc 1 %s\tsprite 8x8 4bpp", "alloc 1 %s 100", "alloc 1 %s tex 8x8 4c", "alloc 1 x%s sprite 8x8 4bpp",
		"alloc 1 %s_100", "alloc 1 %s:sprite 8x8 4bpp", "alloc 1 %s_ sprite 8x8 4bpp",
	};
	char head[512], line[256], other[64];
	size_t i, k, l, made = 0;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		for (k = 0; k < 3; k++) {
			/* one arena; a second one named as the first and a byte more
			 * (or "b" when that is too long); one a byte less (or "p") */
			size_t nl = strlen(names[i]);
			if (k == 1 && nl < 31)
				snprintf(other, sizeof other, "%s2", names[i]);
			else if (k == 2 && nl > 1)
				snprintf(other, sizeof other, "%.*s", (int)(nl - 1), names[i]);
			else
				snprintf(other, sizeof other, "%s", k == 1 ? "b" : "p");
			if (k == 0)
				snprintf(head, sizeof head, "vramsim-trace 1\narena %s gba-obj\nalloc 900 sprite 8x8 4bpp tag=player\n",
					names[i]);
			else
				snprintf(head, sizeof head, "vramsim-trace 1\narena %s gba-obj\narena %s ds-tex\n"
					"alloc 900 %s sprite 8x8 4bpp tag=player\n", names[i], other, names[i]);
			for (l = 0; l < sizeof lines / sizeof lines[0]; l++) {
				snprintf(line, sizeof line, lines[l], names[i]);
				made += (size_t)agree(head, line);
				snprintf(line, sizeof line, lines[l], other);
				made += (size_t)agree(head, line);
			}
		}
	ck_assert_uint_ge(made, 7 * 3 * 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("format");
	/* Each of these opens a reader for every line it tries, thousands of
	 * them; under the sanitizers each reader's 768 KiB of buffers is mapped
	 * and faulted in afresh (45 s of CPU for the suite, 31 s of it system
	 * time), so they are two ctest tests of their own. */
	TCase *sides = vs_test_tcase_apart(s, "fast_sides", NULL);
	TCase *numbers = vs_test_tcase_apart(s, "fast_numbers", NULL);

	tcase_set_timeout(tc, 120);
	tcase_set_timeout(sides, 120);
	tcase_set_timeout(numbers, 120);
	tcase_add_test(tc, malformed_corpus);
	tcase_add_test(tc, canonical_form);
	tcase_add_test(tc, heaps_canonical);
	tcase_add_test(tc, round_trip_events);
	tcase_add_test(tc, request_sizes);
	tcase_add_test(tc, tile_reach_rule);
	tcase_add_test(tc, streaming_reader);
	tcase_add_test(tc, long_line_limit);
	tcase_add_test(tc, crlf_and_comments);
	tcase_add_test(tc, plain_path_agrees_with_full_checks);
	tcase_add_test(tc, lines_across_blocks);
	tcase_add_test(tc, nul_bytes_named);
	tcase_add_test(numbers, fast_path_agrees_with_full_path);
	tcase_add_test(tc, fast_path_leaves_odd_bytes);
	tcase_add_test(tc, fast_lines_across_the_block_end);
	tcase_add_test(tc, fast_path_long_line_and_end);
	tcase_add_test(sides, fast_sides_agree_with_full_path);
	tcase_add_test(tc, fast_tags_agree_with_full_path);
	tcase_add_test(numbers, fast_numbers_agree_with_full_path);
	tcase_add_test(numbers, fast_numbers_across_the_block_end);
	tcase_add_test(tc, fast_tags_of_eight_bytes);
	tcase_add_test(numbers, fast_arena_names_agree_with_full_path);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
