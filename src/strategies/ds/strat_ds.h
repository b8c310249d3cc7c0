/* SPDX-License-Identifier: Zlib */
/* strat_ds.h - internal: helpers the DS texture and palette adapters share. */
#ifndef VS_SIM_STRAT_DS_H
#define VS_SIM_STRAT_DS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vramsim/strategy.h"

#define VS_DS_TEX_SLOT 0x20000u
#define VS_DS_PLTT_SLOT 0x4000u

/* Texture request: bytes and the 4x4 flag. Returns VS_OK or
 * VS_ERR_UNSUPPORTED (a shape that is not a texture or plain bytes). */
int vs_ds_tex_request(const vs_request *rq, uint32_t *bytes, bool *is4x4);
/* Palette request: bytes and the 4-colour flag. */
int vs_ds_pltt_request(const vs_request *rq, uint32_t *bytes, bool *four);

/* An NNS_Gfd texture (palette) allocation for a request, through g's
 * current manager: VS_ERR_MANAGEMENT when a linked-list manager is out of
 * blocks, VS_ERR_NOSPACE for any other refusal. */
struct nns_gfd_ctx;
int vs_ds_nns_tex_alloc(struct nns_gfd_ctx *g, const vs_request *rq, vs_placement *out);
int vs_ds_nns_pltt_alloc(struct nns_gfd_ctx *g, const vs_request *rq, vs_placement *out);

/* NightFox's Lib (strat_nflib_sprite.c, both adapters' state): the bytes a
 * request asks NF for, VS_OK, or the status the adapter refuses it with
 * before any call (its shape; the 3D one without bank B at slot 1). NF's
 * books with where arena offset 0 lies and NF's max (the cycles program's
 * set-up). */
struct nflib_sprite;
int vs_nflib_request(const void *st, const vs_request *rq, uint32_t *bytes);
const struct nflib_sprite *vs_nflib_books(const void *st, uint32_t *origin, uint32_t *max);

/* libnds videoGL (strat_libnds_tex.c, strat_libnds_pltt.c): a texture
 * request as glTexImage2D's type and size fields, or (bytes != 0) plain
 * bytes given as an 8 bpp texture; a palette request as glColorTableEXT's
 * width in colours and the 4-colour flag. VS_OK or the refusal. */
int vs_libnds_tex_request(const vs_request *rq, unsigned *type, unsigned *sx, unsigned *sy, uint32_t *bytes);
int vs_libnds_pltt_request(const vs_request *rq, uint32_t *width, int *four);

/* Bytes of texture (palette) space mapped contiguously from address 0. */
uint32_t vs_ds_tex_mapped_bytes(const vs_arena_decl *a);
uint32_t vs_ds_pltt_mapped_bytes(const vs_arena_decl *a);

/* A vs_print_fn adapter usable as the allocators' print callback. */
typedef struct vs_ds_print {
	vs_print_fn print;
	void *ud;
} vs_ds_print;
void vs_ds_print_cb(void *ud, const char *text);

/* For the bit-per-unit managers (a set bit is a free unit): calls fn for
 * each free run, and prints the runs as "  0xADDR  0xSIZE" lines. */
void vs_ds_walk_free_bits(const uint32_t *w, uint32_t units, uint32_t unit, vs_extent_fn fn, void *ud);
void vs_ds_dump_free_bits(const uint32_t *w, uint32_t units, uint32_t unit, vs_print_fn print, void *ud);

#endif
