/* SPDX-License-Identifier: Zlib */
/* ds_cycles.h - the protocol between the host and the "cycles" DS program
 * (ARM9 side, src/console/ds/rom/ds_cycles9.c).
 *
 * Shared by both sides (freestanding: only <stdint.h>). The program boots
 * from cycles.nds, times an empty call of each shape, puts its magic in
 * the mailbox at VS_DS_CYC_MAILBOX in main RAM and waits. Between frames
 * the host reads main RAM from the emulator's savestate, writes a chunk of
 * requests (console/common/cycles_proto.h) into the mailbox and bumps
 * `go`; the program replays the chunk through one allocator, timing every
 * call with timer 0 (prescaler F/1, 33.513982 MHz) cascading into timer 1,
 * writes one result per request and sets `taken` to `go`. The first chunk
 * initialises the allocator with parameter set 0; a reset request names
 * the set it re-initialises with (arg + 1).
 *
 * Everything is little-endian 32-bit words, as both CPUs see them.
 */
#ifndef VRAMSIM_DS_CYCLES_H
#define VRAMSIM_DS_CYCLES_H

#include <stdint.h>

#include "console/common/cycles_proto.h"
#include "vramsim/alloc/nflib_sprite.h"

#define VS_DS_CYC_MAGIC 0x43445356u   /* "VSDC" */
#define VS_DS_CYC_VERSION 1u
#define VS_DS_CYC_MAILBOX 0x02200000u /* 2 MiB into main RAM, above the program */
#define VS_DS_CYC_CHUNK 8192u         /* requests a chunk */
#define VS_DS_CYC_SLOTS 4096u         /* live handles the program keeps */
#define VS_DS_CYC_SETS 256u           /* parameter sets: the first init's, then the resets' */

/* The timers' clock, the ARM9's half (GBATEK "DS Timers"), and a frame
 * and its VBlank in it: 263 lines of 2,130 ticks, 71 of them VBlank. */
#define VS_DS_TIMER_HZ 33513982u
#define VS_DS_FRAME_TICKS 560190u
#define VS_DS_VBLANK_TICKS 151230u

/* Allocators the program carries (mailbox `strategy`), their parameter
 * sets, and their request encoding (flags beside arg):
 *  - nns-lnk-tex: set {size, size4x4, blocks}; nns-lnk-pltt: {size,
 *    blocks}; nns-frm-tex: {slots}; nns-frm-pltt: {size}. alloc arg =
 *    bytes, flags VS_DS_CYC_F_4X4 (4x4 texel / 4-colour palette) and
 *    VS_DS_CYC_F_LOW (NNS_GFD_ALLOC_FROM_LOW); result = the key (0 fails:
 *    answered VS_CYCLES_NONE). A reset calls the manager's reset; an init
 *    (VS_CYCLES_F_INIT) NNS_GfdInit...Manager again.
 *  - ds-tex-pair, ds-pltt-split: set {mapped slots}; alloc arg = bytes,
 *    flags VS_DS_CYC_F_4X4 (4x4 / 4-colour); result = the address.
 *  - libnds-sprite: set {mapping, fixes}; alloc arg = pixels, flags = the
 *    colour format (LIBNDS_COLOR_*); result = the byte offset. While the
 *    model is hung the program answers VS_CYCLES_NONE uncalled, as the
 *    host adapter does.
 *  - nitro-engine-tex: set {max textures, bank flags, execution mode,
 *    fixes} (NE_TextureSystemReset's); alloc arg = format | width << 4 |
 *    height << 16 (NE_MaterialTexLoad), or with VS_DS_CYC_F_BYTES the bytes
 *    (with VS_DS_CYC_F_4X4: a 4x4 block's texel bytes);
 *    nitro-engine-pltt: set {max palettes}; alloc arg = colours
 *    (NE_PaletteLoad). Result = the offset from VRAM_A (VRAM_E); a reset
 *    resets the system with the set it was initialised with.
 *  - nflib-sprite, nflib-sprite3d: set {base, max, flags, origin}
 *    (nflib_sprite_init's, and the address of arena offset 0); alloc arg =
 *    bytes, the graphics id the lowest free (NF_VramSpriteGfx's `vram`, as
 *    the adapter gives it); result = address - origin; no free id or books
 *    broken: VS_CYCLES_NONE uncalled, as the adapter. A free's result is
 *    vs_ds_digest over every live id's (id, address - origin) in id order:
 *    NF compacts inside its free.
 *  - libnds-tex: set {variant | fixed << 8, VRAMCNT A-D, E-H (a byte each,
 *    A lowest), I | texture locks << 8 | palette locks << 16}; alloc arg =
 *    type | size_x << 4 | size_y << 8 (glTexImage2D's), or with
 *    VS_DS_CYC_F_BYTES the bytes; libnds-pltt: the same set, alloc arg =
 *    colours (glColorTableEXT's width), VS_DS_CYC_F_4X4 for a 4-colour
 *    palette. With VS_CYCLES_F_REALLOC the slot's texture name is uploaded
 *    again (glTexImage2D, glColorTableEXT on the bound texture). Result =
 *    the offset from VRAM_A (PLTT_BASE's address); a free is
 *    glDeleteTextures, a reset glResetTextures; bank requests
 *    (VS_CYCLES_OP_BANK) write VRAMCNT or lock a bank in the model. */
enum {
	VS_DS_CYC_NNS_LNK_TEX = 1,
	VS_DS_CYC_NNS_LNK_PLTT = 2,
	VS_DS_CYC_NNS_FRM_TEX = 3,
	VS_DS_CYC_NNS_FRM_PLTT = 4,
	VS_DS_CYC_DS_TEX_PAIR = 5,
	VS_DS_CYC_DS_PLTT_SPLIT = 6,
	VS_DS_CYC_LIBNDS_SPRITE = 7,
	VS_DS_CYC_NE_TEX = 8,
	VS_DS_CYC_NE_PLTT = 9,
	VS_DS_CYC_NFLIB_SPRITE = 10,
	VS_DS_CYC_NFLIB_SPRITE3D = 11,
	VS_DS_CYC_LIBNDS_TEX = 12,
	VS_DS_CYC_LIBNDS_PLTT = 13
};

/* The digest of where an allocator that moves holds its allocations:
 * h = vs_ds_digest(vs_ds_digest(h, id), offset) for each, from
 * VS_DS_DIGEST_INIT (FNV-1a's constants, a word at a time). */
#define VS_DS_DIGEST_INIT 2166136261u
static inline uint32_t vs_ds_digest(uint32_t h, uint32_t word)
{
	return (h ^ word) * 16777619u;
}

/* NightFox's Lib's: every graphics id in use and its offset, both sides. */
static inline uint32_t vs_ds_nflib_digest(const nflib_sprite *m, uint32_t origin)
{
	uint32_t h = VS_DS_DIGEST_INIT, k;

	for (k = 0; k < m->ids; k++)
		if (m->inuse[k])
			h = vs_ds_digest(vs_ds_digest(h, k), m->addr[k] - origin);
	return h;
}

#define VS_DS_CYC_F_4X4 0x01u
#define VS_DS_CYC_F_LOW 0x02u
#define VS_DS_CYC_F_BYTES 0x04u

/* Management blocks the NITRO-System linked-list managers get (the host
 * adapters' MAX_BLOCKS). */
#define VS_DS_CYC_NNS_BLOCKS 2048u

/* Program states. */
enum {
	VS_DS_CYC_ST_BOOT = 0,
	VS_DS_CYC_ST_READY = 1, /* waiting for go != taken */
	VS_DS_CYC_ST_DONE = 2,  /* the last chunk is answered */
	VS_DS_CYC_ST_ERROR = 3
};

/* Errors (mailbox `error`). */
enum {
	VS_DS_CYC_E_NONE = 0,
	VS_DS_CYC_E_STRATEGY = 1, /* strategy not built into this program */
	VS_DS_CYC_E_SLOT = 2,     /* slot >= VS_DS_CYC_SLOTS */
	VS_DS_CYC_E_OP = 3,       /* unknown operation */
	VS_DS_CYC_E_CHUNK = 4,    /* count > VS_DS_CYC_CHUNK */
	VS_DS_CYC_E_SET = 5,      /* a parameter set past nsets */
	VS_DS_CYC_E_INIT = 6,     /* the allocator refused its parameters */
	VS_DS_CYC_E_LAYOUT = 7    /* the program reaches into the mailbox */
};

typedef struct vs_ds_cyc_mailbox {
	/* the program's */
	uint32_t magic;       /* VS_DS_CYC_MAGIC once the program waits for requests */
	uint32_t version;     /* VS_DS_CYC_VERSION */
	uint32_t state;       /* VS_DS_CYC_ST_* */
	uint32_t error;       /* VS_DS_CYC_E_* */
	uint32_t error_index; /* request that caused it */
	uint32_t overhead2;   /* timer ticks of an empty timed call with 2, 3 and 4 arguments */
	uint32_t overhead3;
	uint32_t overhead4;
	uint32_t taken;       /* chunks answered */
	/* the host's */
	uint32_t go;          /* chunks handed over */
	uint32_t strategy;    /* VS_DS_CYC_*, read with the first chunk */
	uint32_t first;       /* the index of the chunk's first request */
	uint32_t count;       /* requests in this chunk */
	uint32_t last;        /* 1: no chunk follows */
	uint32_t nsets;       /* parameter sets valid */
	uint32_t reserved[49];
	uint32_t sets[VS_DS_CYC_SETS][4];
	vs_cycles_req rq[VS_DS_CYC_CHUNK];
	vs_cycles_result res[VS_DS_CYC_CHUNK];
} vs_ds_cyc_mailbox;

#define VS_DS_CYC_OFF_SETS 256u
#define VS_DS_CYC_OFF_RQ (VS_DS_CYC_OFF_SETS + VS_DS_CYC_SETS * 16u)
#define VS_DS_CYC_OFF_RES (VS_DS_CYC_OFF_RQ + VS_DS_CYC_CHUNK * 8u)
#define VS_DS_CYC_BYTES (VS_DS_CYC_OFF_RES + VS_DS_CYC_CHUNK * 8u)

#endif
