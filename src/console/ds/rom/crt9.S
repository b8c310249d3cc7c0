/* SPDX-License-Identifier: Zlib */
/* crt9.S - start-up code of vramsim's DS programs, ARM9 side.
 *
 * The loader (the DS firmware, a flash cart's menu, or an emulator's
 * direct boot) has copied the ARM9 binary to its RAM address in main RAM
 * and jumps here. The protection unit and the caches are left off: the
 * program runs uncached from main RAM, slower than a tuned game but with
 * nothing to flush before the video hardware reads what it wrote.
 *
 * Then: IRQ and system-mode stacks (interrupts stay masked: the programs
 * poll VCOUNT), clearing of .bss, main.
 */
	.section .crt0, "ax", %progbits
	.arm
	.align 2
	.global _start
_start:
	mov	r0, #0x04000000		/* IME = 0 */
	mov	r1, #0
	str	r1, [r0, #0x208]
	mov	r0, #0xD2		/* IRQ mode, IRQ and FIQ masked */
	msr	cpsr_c, r0
	ldr	sp, =__sp_irq
	mov	r0, #0xDF		/* system mode, still masked: main runs here */
	msr	cpsr_c, r0
	ldr	sp, =__sp_sys

	ldr	r1, =__bss_start
	ldr	r2, =__bss_end
	mov	r3, #0
1:	cmp	r1, r2
	strlo	r3, [r1], #4
	blo	1b

	mov	r0, #0			/* argc, argv */
	mov	r1, #0
	ldr	r3, =main
	blx	r3
halt:					/* main returned: idle for ever */
	b	halt

	.pool
