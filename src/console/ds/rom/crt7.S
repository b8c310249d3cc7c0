/* SPDX-License-Identifier: Zlib */
/* crt7.S - the whole ARM7 side of vramsim's DS programs.
 *
 * The ARM7 owns sound, touch screen, RTC and wireless; the demo uses none
 * of them, so its ARM7 only waits for VBlank for ever, reading its own
 * VCOUNT (interrupts masked, no BIOS call: it runs the same with or
 * without a BIOS). Loaded at 0x037F8000, the shared WRAM the ARM7 has at
 * boot (WRAMCNT 3), followed by its own 64 KiB at 0x03800000.
 */
	.section .crt0, "ax", %progbits
	.arm
	.align 2
	.global _start
_start:
	mov	r0, #0x04000000		/* IME = 0 */
	mov	r1, #0
	str	r1, [r0, #0x208]
	mov	r0, #0xDF		/* system mode, IRQ and FIQ masked */
	msr	cpsr_c, r0
	ldr	sp, =__sp_sys
	ldr	r2, =0x04000006		/* VCOUNT */
	mov	r3, #192		/* the first line of VBlank */
wait_end:				/* out of VBlank first, */
	ldrh	r1, [r2]
	cmp	r1, r3
	bhs	wait_end
wait_start:				/* then into the next one */
	ldrh	r1, [r2]
	cmp	r1, r3
	blo	wait_start
	b	wait_end

	.pool
