/* SPDX-License-Identifier: Zlib */
/* rom_timer.h - how both "cycles" programs time one allocator call: the
 * GBA's (src/console/gba/rom/cycles.c) and the DS ARM9's
 * (src/console/ds/rom/ds_cycles9.c). The two consoles have their timers at
 * the same registers with the same bits (GBATEK "GBA Timers", "DS Timers"),
 * so one way of timing serves both and keeps their figures comparable.
 *
 * Timer 0 at prescaler 1 (the GBA's CPU clock, the DS's bus clock)
 * cascades into timer 1: a 32-bit count from the write that starts timer 0
 * to the write that stops it. Each program subtracts the count of an empty
 * call of the same shape, the fewest of several tries, measured at
 * start-up (its calibration).
 *
 * Freestanding: only <stdint.h>. Every piece is inline or a macro, so a
 * timed call stays the direct call a game makes, with nothing between the
 * timer's writes but the call.
 */
#ifndef VS_ROM_TIMER_H
#define VS_ROM_TIMER_H

#include <stdint.h>

#define VS_ROM_TM0CNT_L (*(volatile uint16_t *)0x04000100)
#define VS_ROM_TM0CNT_H (*(volatile uint16_t *)0x04000102)
#define VS_ROM_TM1CNT_L (*(volatile uint16_t *)0x04000104)
#define VS_ROM_TM1CNT_H (*(volatile uint16_t *)0x04000106)
#define VS_ROM_TM_ENABLE 0x0080u
#define VS_ROM_TM_CASCADE 0x0004u

static inline void vs_rom_timer_start(void)
{
	VS_ROM_TM0CNT_H = 0;
	VS_ROM_TM1CNT_H = 0;
	VS_ROM_TM0CNT_L = 0;
	VS_ROM_TM1CNT_L = 0;
	VS_ROM_TM1CNT_H = VS_ROM_TM_ENABLE | VS_ROM_TM_CASCADE;
	VS_ROM_TM0CNT_H = VS_ROM_TM_ENABLE;
}

static inline uint32_t vs_rom_timer_stop(void)
{
	uint32_t lo, hi;

	VS_ROM_TM0CNT_H = 0;
	lo = VS_ROM_TM0CNT_L;
	hi = VS_ROM_TM1CNT_L;
	return hi << 16 | lo;
}

/* VS_ROM_TIMED(res, cyc, call, a, b[, c[, d]]): times `call`, storing its
 * value in res and the raw count in cyc. a to d are the call's arguments
 * (2 to 4 of them): the empty asm makes the compiler load them before the
 * timer starts, so the count is the call's and not its arguments' loads. */
#define VS_ROM_TIMED(res, cyc, call, ...) do { \
	VS_ROM_HOLD_(__VA_ARGS__, VS_ROM_HOLD4_, VS_ROM_HOLD3_, VS_ROM_HOLD2_, -)(__VA_ARGS__); \
	vs_rom_timer_start(); \
	(res) = (call); \
	(cyc) = vs_rom_timer_stop(); \
} while (0)
#define VS_ROM_HOLD_(a, b, c, d, hold, ...) hold
#define VS_ROM_HOLD2_(a, b) __asm__ volatile("" : : "r"(a), "r"(b) : "memory")
#define VS_ROM_HOLD3_(a, b, c) __asm__ volatile("" : : "r"(a), "r"(b), "r"(c) : "memory")
#define VS_ROM_HOLD4_(a, b, c, d) __asm__ volatile("" : : "r"(a), "r"(b), "r"(c), "r"(d) : "memory")

/* VS_ROM_TIMED_FEWEST(least, call, a, b[, c[, d]]): times `call` as
 * VS_ROM_TIMED does and keeps in least the fewest counts seen: the
 * calibration's tries of an empty call. */
#define VS_ROM_TIMED_FEWEST(least, call, ...) do { \
	uint32_t res_, cyc_; \
	VS_ROM_TIMED(res_, cyc_, (uint32_t)(call), __VA_ARGS__); \
	(void)res_; \
	if (cyc_ < (least)) \
		(least) = cyc_; \
} while (0)

/* The count of a call less the calibrated overhead of its shape; 0, not a
 * wrapped count, should a call ever time below the empty one. */
static inline uint32_t vs_rom_timer_net(uint32_t cyc, uint32_t overhead)
{
	return cyc > overhead ? cyc - overhead : 0;
}

#endif
