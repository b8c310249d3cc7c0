/* SPDX-License-Identifier: Zlib */
/* test_input_script.c - input scripts for headless runs: keys per frame, and
 * every malformed script refused with its file:line:col. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "console/common/input_script.h"

static int parse(const char *text, vs_input_script *s, char *err, size_t errlen)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "rb");
	int rc;

	ck_assert_ptr_nonnull(fp);
	rc = vs_input_script_read(fp, "in.keys", s, err, errlen);
	fclose(fp);
	return rc;
}

START_TEST(keys_by_frame)
{
	vs_input_script s;
	char err[256], names[64];

	ck_assert_msg(parse("\xEF\xBB\xBF# a title screen, then a walk\n"
		"120 start\r\n"
		"\n"
		"   240-250 right a # jump\n"
		"200-239\tright\n"
		"300-300 none\n"
		"4294967295 l r\n", &s, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(s.n, 5);
	ck_assert_uint_eq(vs_input_script_keys(&s, 0), 0);
	ck_assert_uint_eq(vs_input_script_keys(&s, 119), 0);
	ck_assert_uint_eq(vs_input_script_keys(&s, 120), VS_KEY_START);
	ck_assert_uint_eq(vs_input_script_keys(&s, 121), 0);
	ck_assert_uint_eq(vs_input_script_keys(&s, 200), VS_KEY_RIGHT);
	ck_assert_uint_eq(vs_input_script_keys(&s, 239), VS_KEY_RIGHT);
	ck_assert_uint_eq(vs_input_script_keys(&s, 240), VS_KEY_RIGHT | VS_KEY_A);
	ck_assert_uint_eq(vs_input_script_keys(&s, 250), VS_KEY_RIGHT | VS_KEY_A);
	ck_assert_uint_eq(vs_input_script_keys(&s, 251), 0);
	ck_assert_uint_eq(vs_input_script_keys(&s, 300), 0);
	ck_assert_uint_eq(vs_input_script_keys(&s, 4294967295u), VS_KEY_L | VS_KEY_R);
	vs_input_keys_name(VS_KEY_RIGHT | VS_KEY_A, names, sizeof names);
	ck_assert_str_eq(names, "a right");
	vs_input_keys_name(0, names, sizeof names);
	ck_assert_str_eq(names, "none");
	vs_input_script_free(&s);

	ck_assert_int_eq(parse("", &s, err, sizeof err), 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_uint_eq(vs_input_script_keys(&s, 5), 0);
}
END_TEST

START_TEST(bad_scripts_name_their_place)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "120 jump\n", "in.keys:1:5: error: unknown key 'jump'" },
		{ "1 a\n20-10 b\n", "in.keys:2:4: error: range ends (10) before it starts (20)" },
		{ "10-20 a\n# x\n15-30 b\n", "in.keys:3:1: error: frames 15-30 overlap the range on line 1 (10-20)" },
		{ "15-30 b\n10-15 a\n", "in.keys:2:1: error: frames 10-15 overlap the range on line 1 (15-30)" },
		{ "start 120\n", "in.keys:1:1: error: expected a frame number or a range N-M" },
		{ "120\n", "in.keys:1:4: error: no keys after the frames" },
		{ "4294967296 a\n", "in.keys:1:1: error: frame number past 4294967295" },
		{ "99999999999999999999999 a\n", "in.keys:1:1: error: frame number past 4294967295" },
		{ "12x a\n", "in.keys:1:3: error: expected a space after the frames" },
		{ "1- a\n", "in.keys:1:3: error: expected a frame number" },
		{ "5 none a\n", "in.keys:1:1: error: 'none' with other keys" },
		{ "5 a\n6 b\0c\n", "in.keys:2:4: error: NUL byte" },
		{ "5 A\n", "in.keys:1:3: error: unknown key 'A'" },
		/* lines ended by CR alone: read as one line, all but the first would be lost */
		{ "5 a\r6 b\r", "in.keys:1:4: error: carriage return inside a line" },
		/* the DS stylus: X 0-255, Y 0-191 */
		{ "5 touch 256,0\n", "in.keys:1:9: error: expected X,Y after touch" },
		{ "5 touch 10,192\n", "in.keys:1:9: error: expected X,Y after touch" },
		{ "5 touch 10\n", "in.keys:1:9: error: expected X,Y after touch" },
		{ "5 touch\n", "in.keys:1:8: error: expected X,Y after touch" },
		{ "5 touch 1,2x\n", "in.keys:1:12: error: expected a space after touch X,Y" },
		{ "5 touch 1,2 touch 3,4\n", "in.keys:1:13: error: touch twice in one range" },
		{ "5 none touch 1,2\n", "in.keys:1:1: error: 'none' with other keys" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		vs_input_script s;
		char err[256];
		size_t len = strlen(cases[i].text);
		FILE *fp;
		int rc;
		if (strstr(cases[i].want, "NUL"))
			len = 10; /* the text holds a NUL */
		fp = fmemopen((void *)cases[i].text, len, "rb");
		rc = vs_input_script_read(fp, "in.keys", &s, err, sizeof err);
		fclose(fp);
		ck_assert_msg(rc == -1, "case %zu accepted", i);
		ck_assert_msg(strncmp(err, cases[i].want, strlen(cases[i].want)) == 0, "case %zu: got '%s', want '%s'",
			i, err, cases[i].want);
		ck_assert_ptr_null(s.ranges);
	}
}
END_TEST

/* The DS's keys x and y and its stylus; a GBA run refuses them with the
 * place of the first. */
START_TEST(ds_keys_and_touch)
{
	vs_input_script s;
	const vs_input_range *r;
	char err[256], names[64];

	ck_assert_msg(parse("0-9 a\n10-19 x y\n300-310 touch 128,96\n311 b touch 0,191 l\n", &s, err, sizeof err)
		== 0, "%s", err);
	ck_assert_uint_eq(vs_input_script_keys(&s, 12), VS_KEY_X | VS_KEY_Y);
	vs_input_keys_name(VS_KEY_X | VS_KEY_Y | VS_KEY_A, names, sizeof names);
	ck_assert_str_eq(names, "a x y");
	r = vs_input_script_at(&s, 305);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->keys, 0);
	ck_assert_uint_eq(r->touch, 1);
	ck_assert_uint_eq(r->touch_x, 128);
	ck_assert_uint_eq(r->touch_y, 96);
	r = vs_input_script_at(&s, 311);
	ck_assert_uint_eq(r->keys, VS_KEY_B | VS_KEY_L);
	ck_assert_uint_eq(r->touch_x, 0);
	ck_assert_uint_eq(r->touch_y, 191);
	ck_assert_ptr_null(vs_input_script_at(&s, 299));
	ck_assert_int_eq(vs_input_script_gba_only(&s, "in.keys", err, sizeof err), -1);
	ck_assert_str_eq(err, "in.keys:2:7: error: a DS key or touch in a GBA run (a GBA has a b select start right "
		"left up down r l)");
	vs_input_script_free(&s);
	/* the first DS word is named even after GBA keys on its line, and
	 * ranges are sorted by frame, not by line */
	ck_assert_int_eq(parse("50 a touch 1,1\n10 b y\n", &s, err, sizeof err), 0);
	ck_assert_int_eq(vs_input_script_gba_only(&s, "in.keys", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "in.keys:1:6: error:"));
	vs_input_script_free(&s);
	ck_assert_int_eq(parse("50 a start\n", &s, err, sizeof err), 0);
	ck_assert_int_eq(vs_input_script_gba_only(&s, "in.keys", err, sizeof err), 0);
	vs_input_script_free(&s);
}
END_TEST

/* CRLF line ends (a script saved on Windows) read as LF ones */
START_TEST(crlf_lines)
{
	static const char text[] = "5 a\r\n6 b # two\r\n";
	vs_input_script s;
	char err[256];
	FILE *fp = fmemopen((void *)text, sizeof text - 1, "rb");

	ck_assert_int_eq(vs_input_script_read(fp, "in.keys", &s, err, sizeof err), 0);
	fclose(fp);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_ne(vs_input_script_keys(&s, 5), 0);
	ck_assert_uint_ne(vs_input_script_keys(&s, 6), 0);
	ck_assert_uint_ne(vs_input_script_keys(&s, 5), vs_input_script_keys(&s, 6));
	vs_input_script_free(&s);
}
END_TEST

START_TEST(long_lines_and_many_ranges_are_bounded)
{
	vs_input_script s;
	char err[256], *text = malloc(9000), path[512];
	size_t n = 0;
	FILE *fp;
	int rc;

	memset(text, ' ', 8000);
	memcpy(text + 7990, "1 a\n", 5);
	ck_assert_int_eq(parse(text, &s, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "in.keys:1:4097: error: line longer than 4096 bytes") != NULL, "%s", err);
	free(text);

	/* one range more than the bound, read from a file */
	snprintf(path, sizeof path, "%s/tests/many.keys", VS_BINARY_DIR);
	fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	for (n = 0; n <= VS_INPUT_MAX_RANGES; n++)
		fprintf(fp, "%zu a\n", n);
	fclose(fp);
	rc = vs_input_script_load(path, &s, err, sizeof err);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(err, "many.keys:100001:1: error: more than 100000 ranges") != NULL, "%s", err);
	remove(path);
	ck_assert_int_eq(vs_input_script_load("/nonexistent/x.keys", &s, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "/nonexistent/x.keys: cannot read") != NULL, "%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("input_script");
	TCase *tc = tcase_create("input_script");

	tcase_add_test(tc, keys_by_frame);
	tcase_add_test(tc, bad_scripts_name_their_place);
	tcase_add_test(tc, crlf_lines);
	tcase_add_test(tc, ds_keys_and_touch);
	tcase_add_test(tc, long_lines_and_many_ranges_are_bounded);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
