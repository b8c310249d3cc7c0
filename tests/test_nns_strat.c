/* SPDX-License-Identifier: Zlib */
/* test_nns_strat.c - the NNS_Gfd strategy adapters: options and defaults,
 * request mapping (tex/pltt shapes, dir -> opt), status codes (retained,
 * lost, management), native save/restore, walk_free and dumps, and replays
 * through the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "vramsim/alloc/nns_gfd.h"
#include "vramsim/strategy.h"
#include "strategies/registry.h"
#include "vram/request.h"
#include "vram/arena.h"

typedef struct inst {
	const vs_strategy *s;
	void *st;
	vs_arena_decl d;
} inst;

static int open_inst(inst *in, const char *name, vs_arena_kind kind, const char *opts, char *err, size_t errlen)
{
	in->s = vs_strategy_find(name);
	ck_assert_ptr_nonnull(in->s);
	vs_arena_decl_default(&in->d, kind);
	in->st = calloc(1, in->s->state_size);
	ck_assert_ptr_nonnull(in->st);
	return in->s->init(in->st, &in->d, opts, NULL, err, errlen);
}

static void close_inst(inst *in)
{
	free(in->st);
}

static vs_request pltt(unsigned colours, int four, vs_dir dir)
{
	vs_request rq = vs_test_pltt_rq(colours, four);

	rq.dir = dir;
	return rq;
}

static int sum_extent(void *ud, uint32_t off, uint32_t size)
{
	(void)off;
	*(uint64_t *)ud += size;
	return 0;
}

static uint64_t free_bytes(inst *in)
{
	uint64_t n = 0;

	in->s->walk_free(in->st, sum_extent, &n);
	return n;
}

typedef struct textbuf { char s[4096]; size_t n; } textbuf;

static void to_buf(void *ud, const char *text)
{
	textbuf *t = ud;
	size_t n = strlen(text);

	if (t->n + n < sizeof t->s) {
		memcpy(t->s + t->n, text, n + 1);
		t->n += n;
	}
}

START_TEST(registered)
{
	static const char *const names[] = { "nns-frm-tex", "nns-frm-pltt", "nns-lnk-tex", "nns-lnk-pltt" };
	int i;

	for (i = 0; i < 4; i++) {
		const vs_strategy *s = vs_strategy_find(names[i]);
		ck_assert_ptr_nonnull(s);
		ck_assert(vs_strategy_manages(s, i % 2 ? VS_ARENA_DS_PLTT : VS_ARENA_DS_TEX));
		ck_assert(!vs_strategy_manages(s, i % 2 ? VS_ARENA_DS_TEX : VS_ARENA_DS_PLTT));
		ck_assert(s->flags & VS_STRAT_RELOCATABLE);
		ck_assert_int_eq((s->flags & VS_STRAT_NATIVE_STATE) != 0, i < 2);
		ck_assert_int_eq(s->save != NULL, i < 2);
		ck_assert_ptr_nonnull(s->dump);
	}
}
END_TEST

START_TEST(options)
{
	inst in;
	char err[256];

	ck_assert_int_eq(open_inst(&in, "nns-frm-tex", VS_ARENA_DS_TEX, "", err, sizeof err), 0);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->frm_tex.num_slot, 4);
	close_inst(&in);
	ck_assert_int_ne(open_inst(&in, "nns-frm-tex", VS_ARENA_DS_TEX, "slots=5", err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "slots"));
	close_inst(&in);
	ck_assert_int_ne(open_inst(&in, "nns-frm-tex", VS_ARENA_DS_TEX, "slot=2", err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "unknown option"));
	close_inst(&in);
	ck_assert_int_eq(open_inst(&in, "nns-frm-tex", VS_ARENA_DS_TEX, "slots=2", err, sizeof err), 0);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->frm_tex.num_slot, 2);
	close_inst(&in);

	/* defaults follow the bank mapping: only A and B mapped -> 2 slots */
	in.s = vs_strategy_find("nns-frm-tex");
	vs_arena_decl_default(&in.d, VS_ARENA_DS_TEX);
	in.d.ds_bank_slot[2] = in.d.ds_bank_slot[3] = 0xFF;
	in.st = calloc(1, in.s->state_size);
	ck_assert_int_eq(in.s->init(in.st, &in.d, "", NULL, err, sizeof err), 0);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->frm_tex.num_slot, 2);
	close_inst(&in);

	/* palette: default E only -> 0x10000 */
	ck_assert_int_eq(open_inst(&in, "nns-frm-pltt", VS_ARENA_DS_PLTT, "", err, sizeof err), 0);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->frm_pltt.size, 0x10000);
	close_inst(&in);
	ck_assert_int_eq(open_inst(&in, "nns-frm-pltt", VS_ARENA_DS_PLTT, "size=96K", err, sizeof err), 0);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->frm_pltt.size, 0x18000);
	close_inst(&in);
	ck_assert_int_ne(open_inst(&in, "nns-frm-pltt", VS_ARENA_DS_PLTT, "size=0x18008", err, sizeof err), 0);
	close_inst(&in);
	ck_assert_int_ne(open_inst(&in, "nns-frm-pltt", VS_ARENA_DS_PLTT, "size=12x", err, sizeof err), 0);
	close_inst(&in);

	/* linked-list texture: defaults and the NNS parameter rules */
	ck_assert_int_eq(open_inst(&in, "nns-lnk-tex", VS_ARENA_DS_TEX, "", err, sizeof err), 0);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->lnk_tex.size, 0x80000);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->lnk_tex.size4x4, 0x20000);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->lnk_tex.l.count, 64);
	close_inst(&in);
	ck_assert_int_eq(open_inst(&in, "nns-lnk-tex", VS_ARENA_DS_TEX, "size=0x80000,size4x4=0x30000,blocks=8",
		err, sizeof err), 0);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->lnk_tex.l.count, 8);
	close_inst(&in);
	ck_assert_int_ne(open_inst(&in, "nns-lnk-tex", VS_ARENA_DS_TEX, "size=0x2ffff,size4x4=0x20000",
		err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "refuses"));
	close_inst(&in);
	ck_assert_int_ne(open_inst(&in, "nns-lnk-tex", VS_ARENA_DS_TEX, "blocks=70000", err, sizeof err), 0);
	close_inst(&in);
	ck_assert_int_eq(open_inst(&in, "nns-lnk-pltt", VS_ARENA_DS_PLTT, "size=0x8000,blocks=3", err, sizeof err), 0);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->lnk_pltt.size, 0x8000);
	close_inst(&in);
}
END_TEST

START_TEST(frm_tex_adapter)
{
	inst in;
	char err[256];
	vs_placement a, b, c;
	vs_request rq;
	nns_frm_tex_state saved;

	ck_assert_int_eq(open_inst(&in, "nns-frm-tex", VS_ARENA_DS_TEX, "slots=4", err, sizeof err), 0);
	ck_assert_uint_eq(free_bytes(&in), 0x80000);
	rq = vs_test_tex_rq(VS_TEX_4X4, 256, 256); /* 0x4000 texel bytes */
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &a), VS_OK);
	ck_assert_uint_eq(a.offset, 0);
	ck_assert_uint_eq(a.granted, 0x4000);
	ck_assert_uint_eq(a.key, nns_tex_key_make(0, 0x4000, true));
	/* the texel bytes and the index half come off the free space */
	ck_assert_uint_eq(free_bytes(&in), 0x80000 - 0x6000);
	rq = vs_test_tex_rq(VS_TEX_16C, 128, 64);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &b), VS_OK);
	ck_assert_uint_eq(b.offset, 0x80000 - 0x1000);
	ck_assert_uint_eq(in.s->save_size, sizeof(nns_frm_tex_state));
	ck_assert_int_eq(in.s->save(in.st, &saved), 0);
	rq = vs_test_tex_rq(VS_TEX_DIRECT, 256, 256);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &c), VS_OK);
	ck_assert_uint_eq(c.offset, 0x40000);
	ck_assert_int_eq(in.s->free(in.st, &c), VS_RETAINED);
	ck_assert_int_eq(in.s->restore(in.st, &saved), 0);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &c), VS_OK);
	ck_assert_uint_eq(c.offset, 0x40000);
	/* plain bytes are textures too; sprites are not */
	memset(&rq, 0, sizeof rq);
	rq.size = 100;
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &c), VS_OK);
	ck_assert_uint_eq(c.granted, 112);
	rq.shape = VS_REQ_SPRITE;
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &c), VS_ERR_UNSUPPORTED);
	/* too big */
	rq = vs_test_tex_rq(VS_TEX_DIRECT, 1024, 1024);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &c), VS_ERR_NOSPACE);
	in.s->reset(in.st);
	ck_assert_uint_eq(free_bytes(&in), 0x80000);
	close_inst(&in);
}
END_TEST

START_TEST(frm_pltt_adapter)
{
	inst in;
	char err[256];
	vs_placement p;
	vs_request rq;
	nns_frm_pltt_state saved;

	ck_assert_int_eq(open_inst(&in, "nns-frm-pltt", VS_ARENA_DS_PLTT, "size=0x18000", err, sizeof err), 0);
	rq = pltt(16, 0, VS_DIR_LOW);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &p), VS_OK);
	ck_assert_uint_eq(p.offset, 0);
	rq = pltt(16, 0, VS_DIR_HIGH);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &p), VS_OK);
	ck_assert_uint_eq(p.offset, 0x18000 - 32);
	/* no direction: the raw opt word, 0 = from high */
	rq = pltt(16, 0, VS_DIR_ANY);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &p), VS_OK);
	ck_assert_uint_eq(p.offset, 0x18000 - 64);
	rq.opt = 1;
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &p), VS_OK);
	ck_assert_uint_eq(p.offset, 0x20);
	ck_assert_int_eq(in.s->save(in.st, &saved), 0);
	/* 4-colour from high above 0x10000 fails */
	rq = pltt(4, 1, VS_DIR_HIGH);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &p), VS_ERR_NOSPACE);
	rq = pltt(4, 1, VS_DIR_LOW);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &p), VS_OK);
	ck_assert_uint_eq(p.offset, 0x40);
	ck_assert_uint_eq(p.granted, 8);
	ck_assert_int_eq(in.s->free(in.st, &p), VS_RETAINED);
	ck_assert_int_eq(in.s->restore(in.st, &saved), 0);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &p), VS_OK);
	ck_assert_uint_eq(p.offset, 0x40);
	ck_assert_uint_eq(free_bytes(&in), 0x18000 - 0x48 - 0x40);
	close_inst(&in);
}
END_TEST

START_TEST(lnk_adapters)
{
	inst in;
	char err[256];
	vs_placement a, b, c;
	vs_request rq;
	textbuf t;

	ck_assert_int_eq(open_inst(&in, "nns-lnk-pltt", VS_ARENA_DS_PLTT, "size=0x18000,blocks=1", err, sizeof err), 0);
	rq = pltt(4, 1, VS_DIR_ANY);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &a), VS_OK);
	ck_assert_uint_eq(a.offset, 0);
	/* 16-byte alignment needs a block for the padding: none left */
	rq = pltt(16, 0, VS_DIR_ANY);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &b), VS_ERR_MANAGEMENT);
	rq = pltt(4, 1, VS_DIR_ANY);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &b), VS_OK);
	ck_assert_uint_eq(b.offset, 8);
	/* freeing a with nothing to merge and no block: lost */
	ck_assert_int_eq(in.s->free(in.st, &a), VS_ERR_LOST);
	ck_assert_int_eq(in.s->free(in.st, &b), VS_OK);
	ck_assert_uint_eq(free_bytes(&in), 0x18000 - 8);
	in.s->reset(in.st);
	ck_assert_uint_eq(free_bytes(&in), 0x18000);
	/* a 4-colour palette the first fit puts past 0x10000 fails */
	rq = pltt(0x8000 / 2, 0, VS_DIR_ANY);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &a), VS_OK);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &b), VS_OK);
	rq = pltt(4, 1, VS_DIR_ANY);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &c), VS_ERR_NOSPACE);
	ck_assert_uint_eq(((nns_gfd_ctx *)in.st)->last_fail, NNS_GFD_FAIL_FOUR);
	t.n = 0;
	t.s[0] = 0;
	in.s->dump(in.st, to_buf, &t);
	ck_assert_ptr_nonnull(strstr(t.s, "  0x10000  0x08000\n"));
	close_inst(&in);

	ck_assert_int_eq(open_inst(&in, "nns-lnk-tex", VS_ARENA_DS_TEX, "", err, sizeof err), 0);
	/* the index table of slot 1 is not free space */
	ck_assert_uint_eq(free_bytes(&in), 0x80000 - 0x10000);
	rq = vs_test_tex_rq(VS_TEX_4X4, 512, 512);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &a), VS_OK);
	ck_assert_uint_eq(a.offset, 0);
	ck_assert_uint_eq(a.key >> 31, 1);
	rq = vs_test_tex_rq(VS_TEX_256C, 256, 256);
	ck_assert_int_eq(in.s->alloc(in.st, &rq, &b), VS_OK);
	ck_assert_uint_eq(b.offset, 0x30000);
	ck_assert_int_eq(in.s->free(in.st, &a), VS_OK);
	ck_assert_int_eq(in.s->free(in.st, &b), VS_OK);
	ck_assert_uint_eq(free_bytes(&in), 0x70000);
	t.n = 0;
	t.s[0] = 0;
	in.s->dump(in.st, to_buf, &t);
	ck_assert_ptr_nonnull(strstr(t.s, "free blocks, 4x4 textures:\n  address  size\n  0x00000  0x20000\n"));
	close_inst(&in);
}
END_TEST

/* Replays through the command line: the 4x4 index data is checked against
 * everything else by the replay engine's ownership map. */
START_TEST(replay_cli)
{
	static const char trace[] =
		"vramsim-trace 1\n"
		"arena tex ds-tex\n"
		"arena pal ds-pltt\n"
		"alloc 1 tex tex 256x256 4x4 tag=terrain\n"
		"alloc 2 tex tex 128x64 16c tag=hero\n"
		"alloc 3 pal pltt 16 tag=hero\n"
		"alloc 4 pal pltt 4 tag=ui\n"
		"save level\n"
		"alloc 5 tex tex 512x512 4x4\n"
		"alloc 6 tex tex 128x128 256c\n"
		"alloc 7 pal pltt 256\n"
		"free 5\n"
		"restore level\n"
		"alloc 8 tex tex 512x512 4x4\n"
		"free 1\n";
	static const char *const strats[] = {
		"--strategy tex=nns-lnk-tex --strategy pal=nns-lnk-pltt",
		"--strategy tex=nns-frm-tex --strategy pal=nns-frm-pltt",
		"--strategy tex=nns-lnk-tex:size=0x80000,size4x4=0x40000,blocks=4 --strategy pal=nns-frm-pltt:size=0x4000",
	};
	static char out[16384], err[4096];
	char args[1024];
	const char *path = vs_test_file(0, "ds.trace", trace);
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(args, sizeof args, "replay '%s' %s --dump", path, strats[i]);
		ck_assert_int_eq(vs_test_run_cli(args, out, sizeof out, err, sizeof err), 0);
		ck_assert_ptr_nonnull(strstr(out, "integrity       ok"));
		ck_assert_ptr_nonnull(strstr(out, "diagnostics     0"));
	}
	ck_assert_ptr_nonnull(strstr(out, "linked-list texture VRAM manager"));
	ck_assert_ptr_nonnull(strstr(out, "frame palette VRAM manager"));
}
END_TEST

static Suite *nns_strat_suite(void)
{
	Suite *s = suite_create("nns_strat");
	TCase *tc = tcase_create("adapters");

	tcase_add_test(tc, registered);
	tcase_add_test(tc, options);
	tcase_add_test(tc, frm_tex_adapter);
	tcase_add_test(tc, frm_pltt_adapter);
	tcase_add_test(tc, lnk_adapters);
	tcase_add_test(tc, replay_cli);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return vs_test_main(nns_strat_suite());
}
