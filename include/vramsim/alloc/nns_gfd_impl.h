/* SPDX-License-Identifier: Zlib */
/* nns_gfd_impl.h - internal to the NNS_Gfd managers: the linked-list
 * mechanism both linked-list managers share (nns_lnk.c) and the number
 * formatting the dumps use (nns_gfd.c). Not part of the managers' API.
 */
#ifndef VRAMSIM_ALLOC_NNS_GFD_IMPL_H
#define VRAMSIM_ALLOC_NNS_GFD_IMPL_H

#include "vramsim/alloc/nns_gfd.h"

/* Every block of the work range into the pool, in array order; free lists empty. */
void nns_lnk_clear(nns_gfd_ctx *g, nns_lnk_lists *l);
/* Takes a pool block for [addr, addr+size) and puts it at the head of
 * free list `list`. false when the pool is empty. */
bool nns_lnk_add(nns_gfd_ctx *g, nns_lnk_lists *l, int list, uint32_t addr, uint32_t size);
/* First-fit with alignment align (0 or 1: none). NNS_GFD_FAIL_NONE with
 * *addr on success, else NNS_GFD_FAIL_SPACE or NNS_GFD_FAIL_BLOCKS. */
int nns_lnk_alloc(nns_gfd_ctx *g, nns_lnk_lists *l, int list, uint32_t size, uint32_t align,
	uint32_t *addr);
/* Frees [addr, addr+size): one merge pass, then a pool block at the head.
 * false when the pool was empty (the region is lost). */
bool nns_lnk_free(nns_gfd_ctx *g, nns_lnk_lists *l, int list, uint32_t addr, uint32_t size);
/* Merge-all, as run at reset. */
void nns_lnk_merge_all(nns_gfd_ctx *g, nns_lnk_lists *l, int list);
/* Calls fn per free block from the head; returns the sum of their sizes. */
uint32_t nns_lnk_walk(const nns_gfd_ctx *g, const nns_lnk_lists *l, int list,
	nns_lnk_block_fn fn, void *ud);

/* Dump text: "0x" plus `digits` hex digits, or decimal; into buf, returns the end. */
char *nns_gfd_fmt_hex(char *p, uint32_t v, unsigned digits);
char *nns_gfd_fmt_dec(char *p, uint32_t v, unsigned width);
char *nns_gfd_fmt_str(char *p, const char *s);
/* Percentage used * 10 (one decimal), 0 when total is 0. */
uint32_t nns_gfd_permille(uint32_t used, uint32_t total);
/* "ddd.d%" from a permille value. */
char *nns_gfd_fmt_percent(char *p, uint32_t permille);
/* The linked-list dump shared by texture and palette: free blocks then usage. */
void nns_lnk_dump_blocks(const nns_gfd_ctx *g, const nns_lnk_lists *l, int list,
	const char *title, nns_gfd_print_fn print, void *ud, uint32_t *free_sum);
void nns_lnk_dump_usage(uint32_t free_sum, uint32_t reserved, nns_gfd_print_fn print, void *ud);

#endif
