/* SPDX-License-Identifier: Zlib */
/* crt0.S - start-up code and cartridge header of vramsim's GBA programs.
 *
 * The cartridge starts with a 192-byte header whose first word is an ARM
 * branch over the rest. mGBA boots without a BIOS and checks neither the
 * logo nor the complement, so both are left zero (a real console would
 * refuse the cartridge: fix them with gbafix before flashing one).
 *
 * Then: IRQ and system-mode stacks, WAITCNT, copy of the IWRAM code and
 * data and of the EWRAM data from ROM, clearing of both .bss areas, main.
 */
#ifndef VS_GBA_WAITCNT
#define VS_GBA_WAITCNT 0x4317 /* SRAM 8, WS0 3/1, WS1 4/1, WS2 8/1, prefetch on */
#endif

	.section .crt0, "ax", %progbits
	.arm
	.align 2
	.global _start
_start:
	b	start_vector
	.fill	156, 1, 0		/* 0x04 logo: unchecked by mGBA */
	.ascii	"VRAMSIM\0\0\0\0\0"	/* 0xA0 title, 12 bytes */
	.ascii	"VSIM"			/* 0xAC game code */
	.ascii	"00"			/* 0xB0 maker code */
	.byte	0x96			/* 0xB2 fixed value */
	.byte	0			/* 0xB3 main unit code */
	.byte	0			/* 0xB4 device type */
	.fill	7, 1, 0			/* 0xB5 reserved */
	.byte	0			/* 0xBC software version */
	.byte	0			/* 0xBD complement check (unchecked) */
	.fill	2, 1, 0			/* 0xBE reserved */

start_vector:				/* 0xC0 */
	mov	r0, #0xD2		/* IRQ mode, IRQ and FIQ masked */
	msr	cpsr_c, r0
	ldr	sp, =__sp_irq
	mov	r0, #0x1F		/* system mode: main runs here */
	msr	cpsr_c, r0
	ldr	sp, =__sp_sys

	ldr	r0, =0x04000204		/* WAITCNT */
	ldr	r1, =VS_GBA_WAITCNT
	strh	r1, [r0]

	ldr	r0, =__iwram_lma	/* ARM code for IWRAM */
	ldr	r1, =__iwram_start
	ldr	r2, =__iwram_end
	bl	copy_words
	ldr	r0, =__data_lma
	ldr	r1, =__data_start
	ldr	r2, =__data_end
	bl	copy_words
	ldr	r0, =__ewram_lma
	ldr	r1, =__ewram_start
	ldr	r2, =__ewram_end
	bl	copy_words
	ldr	r1, =__bss_start
	ldr	r2, =__bss_end
	bl	clear_words
	ldr	r1, =__ewram_bss_start
	ldr	r2, =__ewram_bss_end
	bl	clear_words

	mov	r0, #0			/* argc, argv */
	mov	r1, #0
	ldr	r3, =main
	mov	lr, pc
	bx	r3
halt:					/* main returned: idle for ever */
	b	halt

/* copy_words: r0 source, r1 destination, r2 destination end (word aligned). */
copy_words:
	cmp	r1, r2
	ldrlo	r3, [r0], #4
	strlo	r3, [r1], #4
	blo	copy_words
	bx	lr

/* clear_words: r1 start, r2 end (word aligned). */
clear_words:
	mov	r3, #0
1:	cmp	r1, r2
	strlo	r3, [r1], #4
	blo	1b
	bx	lr

	.pool
