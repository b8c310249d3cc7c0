/* SPDX-License-Identifier: Zlib */
/* test_robust.c - bad input never crashes or hangs; every built-in strategy
 * replays random traces of every arena kind it manages without an
 * integrity error. Run under ASan/UBSan by tools/check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "engine/replay.h"
#include "strategies/registry.h"
#include "vram/arena.h"

static const char *const seed_trace =
	"vramsim-trace 1\n"
	"arena obj gba-obj mode=3\n"
	"arena bg gba-bg\n"
	"arena tex ds-tex banks=A0B1C2\n"
	"arena pal ds-pltt banks=E0F4\n"
	"arena heap ram size=64K unit=4\n"
	"alloc 1 obj sprite 32x16 8bpp tag=player at=0x06014000\n"
	"alloc 2 bg tile 77 8bpp affine cb=1\n"
	"alloc 3 bg map text 512x256\n"
	"alloc 4 tex tex 256x256 4x4 tag=t\n"
	"alloc 5 pal pltt 8 4c dir=high opt=1\n"
	"alloc 6 heap 1200 align=16 data=00ff10ab\n"
	"frame\nsave s\nfree 2\nrestore s heap\nreset obj\ninit heap\n";

/* Reads a trace from memory to the end or the first error. */
static int read_all(const char *text, size_t len)
{
	char err[1024];
	FILE *fp = fmemopen((void *)text, len, "rb");
	vs_trace_reader *r;
	vs_event ev;
	int rc = -1, n = 0;

	if (!fp)
		return -2;
	r = vs_trace_open_stream(fp, "fuzz", err, sizeof err);
	if (r) {
		while ((rc = vs_trace_next(r, &ev)) == 1 && n < 100000)
			n++;
		/* an error always says where */
		if (rc < 0)
			ck_assert_msg(strncmp(vs_trace_error(r), "fuzz:", 5) == 0, "%s", vs_trace_error(r));
		vs_trace_close(r);
	} else {
		ck_assert_msg(strncmp(err, "fuzz:", 5) == 0, "%s", err);
	}
	fclose(fp);
	return rc;
}

/* Thousands of mutated traces: flipped, inserted and deleted bytes, and
 * truncations. Each is read to its end or its first error. */
START_TEST(mutated_traces_never_crash)
{
	vs_rng rng = { 7 };
	size_t base = strlen(seed_trace);
	char *buf = malloc(base + 64);
	int i, ok = 0, bad = 0, n = (int)vs_test_soak(20000, 400000);
	static const char alphabet[] = " \t\n\r#=0123456789abcdefxXKM-:.,;/\x80\xff\x00allocfreetag";

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(read_all(seed_trace, base), 0);
	for (i = 0; i < n; i++) {
		size_t len = base, k, muts = 1 + vs_rng_below(&rng, 4);
		memcpy(buf, seed_trace, base);
		for (k = 0; k < muts; k++) {
			size_t at = vs_rng_below(&rng, (uint32_t)len);
			char c = alphabet[vs_rng_below(&rng, sizeof alphabet - 1)];
			switch (vs_rng_below(&rng, 4)) {
			case 0:
				buf[at] = c;
				break;
			case 1:
				memmove(buf + at + 1, buf + at, len - at);
				buf[at] = c;
				len++;
				break;
			case 2:
				memmove(buf + at, buf + at + 1, len - at - 1);
				len--;
				break;
			default:
				len = at;
				break;
			}
			if (len == 0 || len > base + 32)
				break;
		}
		if (read_all(buf, len) == 0)
			ok++;
		else
			bad++;
	}
	/* both outcomes occur: the mutations are not all harmless or all fatal */
	ck_assert_int_gt(ok, 100);
	ck_assert_int_gt(bad, 100);
	free(buf);
}
END_TEST

/* ---- every strategy on random traces ------------------------------------ */

static void quiet(void *ud, const char *line)
{
	(void)ud;
	(void)line;
}

static size_t random_request(vs_rng *rng, vs_arena_kind kind, char *out, size_t cap)
{
	static const char *const sprites[] = { "8x8", "16x16", "32x32", "64x64", "16x8", "32x16", "64x32", "8x16",
		"16x32", "32x64", "32x8", "8x32" };
	static const char *const fmts[] = { "a3i5", "4c", "16c", "256c", "4x4", "a5i3", "direct" };
	static const unsigned dims[] = { 8, 16, 32, 64, 128 };

	switch (kind) {
	case VS_ARENA_GBA_OBJ:
	case VS_ARENA_DS_OBJ:
		return (size_t)snprintf(out, cap, "sprite %s %s", sprites[vs_rng_below(rng, 12)],
			vs_rng_below(rng, 4) ? "4bpp" : "8bpp");
	case VS_ARENA_GBA_BG:
	case VS_ARENA_DS_BG:
		if (vs_rng_below(rng, 50) == 0)
			return (size_t)snprintf(out, cap, "map text 256x256");
		return (size_t)snprintf(out, cap, "tile %u %s", (unsigned)vs_rng_below(rng, 600),
			vs_rng_below(rng, 3) ? "4bpp" : "8bpp");
	case VS_ARENA_DS_TEX:
		return (size_t)snprintf(out, cap, "tex %ux%u %s", dims[vs_rng_below(rng, 5)], dims[vs_rng_below(rng, 5)],
			fmts[vs_rng_below(rng, 7)]);
	case VS_ARENA_DS_PLTT:
		return (size_t)snprintf(out, cap, "pltt %u", vs_rng_below(rng, 4) ? 16u * (1 + vs_rng_below(rng, 16)) : 4u);
	case VS_ARENA_DS_BG_EXTPAL:
	case VS_ARENA_DS_OBJ_EXTPAL:
		return (size_t)snprintf(out, cap, "pltt %u", 256u * (1 + vs_rng_below(rng, 2)));
	default:
		return (size_t)snprintf(out, cap, "%u align=%u", 1 + vs_rng_below(rng, vs_rng_below(rng, 8) ? 300 : 6000),
			1u << vs_rng_below(rng, 5));
	}
}

/* A random trace for one arena: allocations, frees of live ids (and of a
 * few failed ones), frames, saves, restores and a reset. */
static char *random_trace(vs_rng *rng, vs_arena_kind kind, size_t *len)
{
	static const char *const decl[] = { "gba-obj", "gba-bg", "ds-tex", "ds-pltt", "ram size=64K", "ds-obj", "ds-bg",
		"ds-bg-extpal", "ds-obj-extpal" };
	size_t cap = 1 << 20, n = 0;
	char *t = malloc(cap), req[64];
	uint64_t live[256], next = 1;
	int nlive = 0, i, saved = 0;

	ck_assert_ptr_nonnull(t);
	n += (size_t)snprintf(t + n, cap - n, "vramsim-trace 1\narena a %s\n", decl[kind]);
	for (i = 0; i < 3000; i++) {
		uint32_t r = vs_rng_below(rng, 100);
		if (r < 3) {
			n += (size_t)snprintf(t + n, cap - n, "frame\n");
		} else if (r == 3) {
			n += (size_t)snprintf(t + n, cap - n, "save s\n");
			saved = 1;
		} else if (r == 4 && saved && vs_rng_below(rng, 4) == 0) {
			/* after a restore the ids made since the save are gone: forget all */
			n += (size_t)snprintf(t + n, cap - n, "restore s\n");
			nlive = 0;
		} else if (r == 5 && vs_rng_below(rng, 10) == 0) {
			n += (size_t)snprintf(t + n, cap - n, "reset\n");
			nlive = 0;
		} else if (nlive && (r < 50 || nlive == 256)) {
			int k = (int)vs_rng_below(rng, (uint32_t)nlive);
			n += (size_t)snprintf(t + n, cap - n, "free %llu\n", (unsigned long long)live[k]);
			live[k] = live[--nlive];
		} else {
			random_request(rng, kind, req, sizeof req);
			n += (size_t)snprintf(t + n, cap - n, "alloc %llu %s\n", (unsigned long long)next, req);
			live[nlive++] = next++;
		}
	}
	*len = n;
	return t;
}

START_TEST(every_strategy_on_random_traces)
{
	size_t i, n = vs_strategy_count();
	int kind, tested = 0;

	for (i = 0; i < n; i++) {
		const vs_strategy *s = vs_strategy_at(i);
		for (kind = 0; kind < VS_ARENA_KIND_COUNT; kind++) {
			vs_rng rng = { 1000 + i * 8 + (uint64_t)kind };
			char err[1024], *text;
			size_t len;
			FILE *fp;
			vs_trace_reader *rd;
			vs_replay_config cfg;
			vs_replay *r;
			int rc;

			/* `recorded` places by addresses these traces lack: its own
			 * random runs are in test_recorded */
			if (!vs_strategy_manages(s, (vs_arena_kind)kind) || (s->flags & VS_STRAT_NEEDS_AT))
				continue;
			text = random_trace(&rng, (vs_arena_kind)kind, &len);
			fp = fmemopen(text, len, "rb");
			rd = vs_trace_open_stream(fp, s->name, err, sizeof err);
			ck_assert_msg(rd != NULL, "%s", err);
			vs_replay_config_default(&cfg);
			cfg.strategy[0] = s;
			cfg.message = quiet;
			r = vs_replay_new(rd, &cfg, err, sizeof err);
			ck_assert_msg(r != NULL, "%s: %s", s->name, err);
			rc = vs_replay_run(r, 0);
			ck_assert_msg(rc == 0, "%s: %s", s->name, vs_replay_error(r));
			ck_assert_msg(vs_replay_check_total(r) == 0, "%s on %s: %llu integrity errors", s->name,
				vs_arena_kind_name((vs_arena_kind)kind), (unsigned long long)vs_replay_check_total(r));
			/* only the strategy's own refusals and frees of failed allocations
			 * may be diagnosed: the trace frees only what it allocated */
			ck_assert_uint_eq(vs_replay_diag_count(r, VS_DIAG_UNKNOWN_ID), 0);
			ck_assert_uint_eq(vs_replay_diag_count(r, VS_DIAG_DOUBLE_FREE), 0);
			ck_assert_uint_eq(vs_replay_diag_count(r, VS_DIAG_DUPLICATE_ID), 0);
			vs_replay_free(r);
			fclose(fp);
			free(text);
			tested++;
		}
	}
	ck_assert_int_ge(tested, 20);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("robust");
	TCase *tc = tcase_create("robust");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, mutated_traces_never_crash);
	tcase_add_test(tc, every_strategy_on_random_traces);
	suite_add_tcase(s, tc);
	return vs_test_main(s);
}
