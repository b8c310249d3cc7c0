/* SPDX-License-Identifier: Zlib */
/* libnds_vram_block.h - the vramBlock_* block allocator of libnds's videoGL
 * (devkitPro libnds source/arm9/videoGL.c at 6194b32, BlocksDS libnds
 * source/arm9/video/videoGL.c at 716fecd: the same algorithm in both).
 *
 * Every block, free or used, is a node kept twice linked: by address
 * (link 0/1) and with the blocks of its own kind (link 2/3: the free list,
 * the used list). A search (examine) is a first fit over the free list from
 * an address, with alignment padding, stepping over the banks that are not
 * mapped for textures / palettes or that glLockVRAMBank locked: it reads the
 * bank registers at every call, as libnds does. An allocation then commits
 * exactly the spot last examined, splitting its free block into up to three
 * pieces; a handle names the used block, reused last-in first-out.
 *
 * Addresses are the CPU's LCDC addresses (VRAM_A = 0x06800000), as in
 * libnds, because the library's defects depend on them (0 is its NULL).
 *
 * Where libnds mallocs a node this model takes one from the pool in the
 * caller's struct (LIBNDS_VRAM_BLOCK_BYTES(nodes)); links are node indices,
 * so a memcpy of the struct is a snapshot. With `fixed` set the defects
 * described in docs/ds-homebrew.md are corrected: padding and
 * locked-bank arithmetic that wraps, and a free list that stays empty once
 * the space was full.
 *
 * Freestanding: no host headers, no allocation.
 */
#ifndef VRAMSIM_ALLOC_LIBNDS_VRAM_BLOCK_H
#define VRAMSIM_ALLOC_LIBNDS_VRAM_BLOCK_H

#include <stddef.h>
#include <stdint.h>

/* LCDC addresses of the banks (include/nds/arm9/video.h). */
#define LIBNDS_VRAM_A 0x06800000u
#define LIBNDS_VRAM_B 0x06820000u
#define LIBNDS_VRAM_C 0x06840000u
#define LIBNDS_VRAM_D 0x06860000u
#define LIBNDS_VRAM_E 0x06880000u
#define LIBNDS_VRAM_F 0x06890000u
#define LIBNDS_VRAM_G 0x06894000u
#define LIBNDS_VRAM_H 0x06898000u
#define LIBNDS_VRAM_I 0x068A0000u

#define LIBNDS_VB_NIL 0xFFFFu

/* What the allocator reads of the hardware and of videoGL's globals at each
 * search: VRAMCNT of banks A-I, and glLockVRAMBank's masks (lock[0] bit i:
 * bank A+i; lock[1] bit i: bank E+i). A bank takes part only when
 * (VRAMCNT & 0x83) == 0x83 (enabled, MST 3) and it is not locked. */
typedef struct libnds_vb_regs {
	uint8_t vramcnt[9];
	uint8_t lock[2];
} libnds_vb_regs;

typedef struct libnds_vb_node {
	uint32_t addr;    /* AddrSet */
	uint32_t size;    /* blockSize */
	uint16_t index;   /* indexOut: the handle of a used block, 0 for a free one */
	uint16_t link[4]; /* node[]: 0/1 previous/next by address, 2/3 previous/next of the same kind */
	/* The two DynamicArrays, as arrays parallel to the pool: */
	uint16_t ptr;     /* blockPtrs[i]: the node handle i names (NIL: none) */
	uint16_t stack;   /* deallocBlocks[i]: the stack of freed handles */
	uint16_t pool;    /* model: next node not in use */
} libnds_vb_node;

enum { LIBNDS_VB_FAIL_NONE = 0, LIBNDS_VB_FAIL_POOL = 1 };

typedef struct libnds_vram_block {
	uint32_t start, end;          /* [startAddr, endAddr) */
	uint16_t first_block, first_empty, first_alloc;
	uint16_t last_examined;       /* lastExamined: the free block of the last examine */
	uint32_t last_addr, last_size; /* lastExaminedAddr, lastExaminedSize */
	uint32_t block_count;         /* next new handle */
	uint32_t dealloc_count;       /* freed handles on the stack (entries 1..count) */
	uint32_t ptrs_cur, stack_cur; /* the DynamicArrays' cur_size, for the RAM the real code holds */
	uint16_t cap;                 /* nodes in the pool (also the handle limit) */
	uint16_t unused;              /* first node not in use */
	uint16_t nodes_live;          /* nodes in use (libnds: malloc'd s_SingleBlock) */
	uint8_t fixed;                /* correct the defects */
	uint8_t fail;                 /* LIBNDS_VB_FAIL_POOL: the last call ran out of pool */
	libnds_vb_node node[];
} libnds_vram_block;

#define LIBNDS_VRAM_BLOCK_BYTES(nodes) (sizeof(libnds_vram_block) + (size_t)(nodes) * sizeof(libnds_vb_node))
/* Bytes of the structures libnds mallocs on the ARM9 (32-bit pointers). */
#define LIBNDS_VB_ARM_BLOCK 56u /* s_vramBlock */
#define LIBNDS_VB_ARM_NODE 28u  /* s_SingleBlock */

/* vramBlock_Construct / vramBlock_init over [start, end) with a pool of
 * nodes (2 to 0xFFFE). */
void libnds_vram_block_init(libnds_vram_block *mb, uint16_t nodes, uint32_t start, uint32_t end, int fixed);
/* vramBlock_deallocateAll: everything free again, handles from 1. */
void libnds_vram_block_deallocate_all(libnds_vram_block *mb);
/* vramBlock_examineSpecial: the first place at or after addr where size
 * bytes aligned to 1 << align fit, or 0. Remembers it for
 * allocate_special. */
uint32_t libnds_vram_block_examine(libnds_vram_block *mb, const libnds_vb_regs *regs, uint32_t addr,
	uint32_t size, unsigned align);
/* vramBlock_allocateSpecial: commits the place the last examine found
 * (addr and size must be its); returns the handle, or 0. */
uint32_t libnds_vram_block_allocate_special(libnds_vram_block *mb, uint32_t addr, uint32_t size);
/* vramBlock_allocateBlock: examine from the first free block, then
 * allocate. Returns the handle, or 0. */
uint32_t libnds_vram_block_allocate(libnds_vram_block *mb, const libnds_vb_regs *regs, uint32_t size,
	unsigned align);
/* vramBlock_deallocateBlock: 1 when index named a used block, else 0. */
int libnds_vram_block_deallocate(libnds_vram_block *mb, uint32_t index);
/* vramBlock_getAddr / vramBlock_getSize: 0 for an index naming nothing. */
uint32_t libnds_vram_block_addr(const libnds_vram_block *mb, uint32_t index);
uint32_t libnds_vram_block_size(const libnds_vram_block *mb, uint32_t index);

/* Every block in address order: fn(ud, addr, size, handle); handle 0 is a
 * free block. Stops when fn returns non-zero. */
typedef int (*libnds_vb_block_fn)(void *ud, uint32_t addr, uint32_t size, uint32_t handle);
void libnds_vram_block_walk(const libnds_vram_block *mb, libnds_vb_block_fn fn, void *ud);
/* Bytes the real code would hold in malloc'd memory: the container, the
 * nodes and the two DynamicArrays. */
uint32_t libnds_vram_block_ram(const libnds_vram_block *mb);

#endif
