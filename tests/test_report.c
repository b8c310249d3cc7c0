/* SPDX-License-Identifier: Zlib */
/* test_report.c - `vramsim report`: one self-contained HTML file, read
 * back as text and loaded in a real headless browser (Debian's chromium):
 * every section there, every picture decoded, nothing fetched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"

static char out[1 << 16], err[1 << 14];

/* Debian's chromium, on $PATH. */
static const char *chromium(void)
{
	const char *p = vs_test_program("chromium");

	return p ? p : vs_test_program("chromium-browser");
}

static char *make_report(const char *name)
{
	static char path[1024];
	char args[2048];

	snprintf(path, sizeof path, "%s/%s", VS_BINARY_DIR, name);
	snprintf(args, sizeof args, "report '%s/traces/gba-sprite-churn-1.trace' '%s/traces/ds-levels.trace' "
		"-s gba-obj-first-fit -o '%s' -q --title 'Sprites & <levels>'", VS_SOURCE_DIR, VS_SOURCE_DIR, path);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	return vs_test_slurp(path);
}

START_TEST(self_contained)
{
	char *h = make_report("report-text.html");
	const char *p;
	int imgs = 0;

	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(strstr(h, "<title>Sprites &amp; &lt;levels&gt;</title>"));
	ck_assert_ptr_nonnull(strstr(h, "<section id=\"comparison\">"));
	ck_assert_ptr_nonnull(strstr(h, "<section class=\"trace\" id=\"trace-1\">"));
	ck_assert_ptr_nonnull(strstr(h, "<section class=\"trace\" id=\"trace-2\">"));
	ck_assert_ptr_nonnull(strstr(h, "Arena obj (gba-obj), strategy gba-obj-first-fit"));
	ck_assert_ptr_nonnull(strstr(h, "<h3>Failed requests (4)</h3>"));
	ck_assert_ptr_nonnull(strstr(h, "fragmented: enough bytes free, no run large enough"));
	/* nothing from elsewhere, no script */
	ck_assert_ptr_null(strstr(h, "http:"));
	ck_assert_ptr_null(strstr(h, "https:"));
	ck_assert_ptr_null(strstr(h, "<script"));
	for (p = h; (p = strstr(p, "<img ")); p++) {
		ck_assert_msg(strncmp(strstr(p, "src=\""), "src=\"data:image/png;base64,iVBORw0KGgo", 38) == 0,
			"an image that is not an embedded PNG");
		imgs++;
	}
	/* per trace: an occupancy per arena, a heatmap, a chart */
	ck_assert_int_eq(imgs, (1 + 2) + (2 + 2));
	free(h);
}
END_TEST

/* The page in a real browser: a copy with a probe script (the report has
 * none) counts decoded and broken pictures and the sections, and writes
 * them into the page, which chromium dumps; the same run takes a
 * screenshot of the page (one browser run for both: each costs 3 s of
 * CPU). */
START_TEST(in_a_browser)
{
	const char *browser = chromium();
	char *h, *end, cmd[4096], probe[1024], shot[1024];
	FILE *fp;
	size_t n;
	static char dom[1 << 22];

	ck_assert_ptr_nonnull(browser);
	h = make_report("report-browser.html");
	ck_assert_ptr_nonnull(h);
	end = strstr(h, "</body>");
	ck_assert_ptr_nonnull(end);
	snprintf(probe, sizeof probe, "%s/report-probe.html", VS_BINARY_DIR);
	fp = fopen(probe, "w");
	ck_assert_ptr_nonnull(fp);
	fwrite(h, 1, (size_t)(end - h), fp);
	fputs("<script>window.addEventListener('load',function(){var i=document.images,ok=0,bad=0,k;"
		"for(k=0;k<i.length;k++){if(i[k].complete&&i[k].naturalWidth>0&&i[k].naturalWidth==+i[k].getAttribute('width'))ok++;"
		"else bad++;}var d=document.createElement('div');d.id='probe';d.textContent='images='+ok+' broken='+bad+"
		"' sections='+document.querySelectorAll('section').length+' tables='+"
		"document.querySelectorAll('table').length;document.body.appendChild(d);});</script></body></html>\n", fp);
	fclose(fp);
	free(h);
	snprintf(shot, sizeof shot, "%s/report-shot.png", VS_BINARY_DIR);
	remove(shot);
	snprintf(cmd, sizeof cmd, "'%s' --headless --no-sandbox --disable-gpu --no-first-run --virtual-time-budget=10000 "
		"--window-size=1400,2000 --screenshot='%s' --dump-dom 'file://%s' 2>/dev/null", browser, shot, probe);
	fp = popen(cmd, "r");
	ck_assert_ptr_nonnull(fp);
	n = fread(dom, 1, sizeof dom - 1, fp);
	dom[n] = '\0';
	ck_assert_int_eq(pclose(fp), 0);
	ck_assert_msg(strstr(dom, "<div id=\"probe\">images=7 broken=0 sections=3 tables="), "%.2000s",
		strstr(dom, "probe") ? strstr(dom, "probe") : dom);

	/* and the screenshot of the report: a real PNG of the page */
	h = vs_test_slurp(shot);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(memcmp(h, "\x89PNG", 4), 0);
	free(h);
}
END_TEST

START_TEST(bad_usage)
{
	char args[2048];

	snprintf(args, sizeof args, "report '%s/traces/gba-sprite-churn-1.trace'", VS_SOURCE_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_ptr_nonnull(strstr(err, "-o FILE.html is required"));
	snprintf(args, sizeof args, "report '%s' -o '%s/report-none.html'",
		vs_test_file(0, "bad.trace", "vramsim-trace 1\narena obj gba-obj\nalloc 1 64\nalloc\n"), VS_BINARY_DIR);
	remove(VS_BINARY_DIR "/report-none.html");
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_int_ne(access(VS_BINARY_DIR "/report-none.html", F_OK), 0); /* nothing left behind */
	snprintf(args, sizeof args, "report '%s/traces/gba-sprite-churn-1.trace' -o /nonexistent/r.html", VS_SOURCE_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
}
END_TEST

/* --from/--to: the pictures of a window, said so; bad windows exit 2. */
START_TEST(window)
{
	char args[2048], *h;

	snprintf(args, sizeof args, "report '%s/traces/gba-sprite-churn-1.trace' --from f:100 --to f:300 -q "
		"-o '%s/report-window.html'", VS_SOURCE_DIR, VS_BINARY_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
	h = vs_test_slurp(VS_BINARY_DIR "/report-window.html");
	ck_assert_ptr_nonnull(h);
	ck_assert_msg(strstr(h, "The pictures show frames 100-300 (events 211-771)"), "no window line");
	ck_assert_ptr_nonnull(strstr(h, "Occupancy at the peak of live bytes in frames 100-300 (event "));
	ck_assert_ptr_nonnull(strstr(h, "alt=\"heatmap of "));
	ck_assert_ptr_nonnull(strstr(h, "trace, frames 100-300\""));
	free(h);
	snprintf(args, sizeof args, "report '%s/traces/gba-sprite-churn-1.trace' '%s/traces/heap-manager.trace' "
		"--from f:100 -q -o '%s/report-window2.html'", VS_SOURCE_DIR, VS_SOURCE_DIR, VS_BINARY_DIR);
	remove(VS_BINARY_DIR "/report-window2.html");
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "heap-manager.trace: the trace has no frame statements"), "%s", err);
	ck_assert_int_ne(access(VS_BINARY_DIR "/report-window2.html", F_OK), 0);
	snprintf(args, sizeof args, "report '%s/traces/gba-sprite-churn-1.trace' --from 30 --to 20 -q "
		"-o '%s/report-window2.html'", VS_SOURCE_DIR, VS_BINARY_DIR);
	ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 2);
	ck_assert_msg(strstr(err, "--from 30 is after --to 20"), "%s", err);
}
END_TEST

/* Names whose bytes mostly become \xNN once escaped: two traces that
 * differ only in their file names keep them in every heading, cell and alt
 * text, and a long title its end. The HTML escaper cut every text at 2047
 * bytes escaped, the pictures' alt texts at 511 bytes of path. */
START_TEST(long_escaped_names_whole)
{
	char dir[1024], args[4096], title[700], *h, *src = vs_test_slurp(VS_SOURCE_DIR "/traces/obj-quickstart.trace");
	const char *html = vs_test_path("long-names.html");
	const char *needles[] = { "/a.trace</h2>", "/b.trace</h2>", "/a.trace</td>", "/b.trace</td>",
		"/a.trace\" width=", "/b.trace\" width=" };
	size_t i, n;
	FILE *fp;

	ck_assert_ptr_nonnull(src);
	n = (size_t)snprintf(dir, sizeof dir, "%s", vs_test_path("long-names"));
	ck_assert_int_eq(mkdir(dir, 0777), 0);
	for (i = 0; i < 3; i++) {
		dir[n++] = '/';
		memset(dir + n, '\x01', 200);
		n += 200;
		dir[n] = '\0';
		ck_assert_int_eq(mkdir(dir, 0777), 0);
	}
	for (i = 0; i < 2; i++) {
		snprintf(dir + n, sizeof dir - n, "/%c.trace", "ab"[i]);
		ck_assert_ptr_nonnull(fp = fopen(dir, "w"));
		fputs(src, fp);
		ck_assert_int_eq(fclose(fp), 0);
	}
	dir[n] = '\0';
	memset(title, '\x01', 600);
	snprintf(title + 600, sizeof title - 600, "END");
	snprintf(args, sizeof args, "report '%s/a.trace' '%s/b.trace' -s gba-obj-map -q --title '%s' -o '%s'", dir, dir,
		title, html);
	ck_assert_msg(vs_test_run_cli(args, out, sizeof out, err, sizeof err) == 0, "%s", err);
	ck_assert_ptr_nonnull(h = vs_test_slurp(html));
	for (i = 0; i < sizeof needles / sizeof needles[0]; i++)
		ck_assert_msg(vs_test_count(h, needles[i]) == (i < 4 ? 1 : 2), "%s: %d", needles[i], vs_test_count(h,
			needles[i]));
	ck_assert_int_eq(vs_test_count(h, "\\x01END</title>"), 1);
	ck_assert_int_eq(vs_test_count(h, "\\x01END</h1>"), 1);
	free(h);
	free(src);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("html");
	TCase *browser = vs_test_tcase_apart(s, "browser",
		chromium() ? NULL : "no chromium on $PATH (tools/install-deps installs it)");

	tcase_set_timeout(tc, 120);
	tcase_set_timeout(browser, 120);
	tcase_add_test(tc, self_contained);
	tcase_add_test(browser, in_a_browser);
	tcase_add_test(tc, bad_usage);
	tcase_add_test(tc, window);
	tcase_add_test(tc, long_escaped_names_whole);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(report_suite());
}
