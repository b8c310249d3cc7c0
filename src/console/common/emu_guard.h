/* SPDX-License-Identifier: Zlib */
/* emu_guard.h - a bound and a last word for the calls into an emulator
 * core.
 *
 * An emulator core is code vramsim does not own, run on ROMs and
 * savestates a user hands it. One that crashes inside the core, or stays
 * in one call without end (DeSmuME given a savestate whose timing it
 * accepts and then never finishes a frame from), must end the command as
 * any bad input does: a message, exit 2, no file left behind; not kill or
 * hang it. Between vs_emu_guard_enter and vs_emu_guard_leave:
 *  - a fault (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) ends the process
 *    with "vramsim: ROM: frame N: EMU crashed (SIGSEGV): ...";
 *  - a call that takes more than VS_EMU_GUARD_CPU seconds of CPU (the
 *    environment's VRAMSIM_EMU_GUARD_CPU, for tests) with "...: EMU ran
 *    S s of CPU in one call without returning: ...";
 * temporary outputs removed first (base/out_file.h), exit 2. Under
 * AddressSanitizer a fault is the sanitizer's to report (unless its
 * handle_segv=0). One emulator at a time: the guard is the process's.
 * For tests, VRAMSIM_EMU_GUARD_FAULT=N raises SIGSEGV inside the guard of
 * frame N's call, as a core that crashed there would.
 */
#ifndef VRAMSIM_EMU_GUARD_H
#define VRAMSIM_EMU_GUARD_H

#include <stdint.h>

#define VS_EMU_GUARD_CPU 10 /* seconds: a DS frame takes milliseconds, tens under a sanitizer */
/* The same as text, for the commands' help ("10"). */
#define VS_EMU_GUARD_TEXT_(x) #x
#define VS_EMU_GUARD_TEXT(x) VS_EMU_GUARD_TEXT_(x)
#define VS_EMU_GUARD_CPU_TEXT VS_EMU_GUARD_TEXT(VS_EMU_GUARD_CPU)

/* The names the messages give: the emulator ("DeSmuME") and the ROM. */
void vs_emu_guard_open(const char *emu, const char *rom);
/* Around a call into the core: at frame `frame` (counted from 0), or,
 * with doing not NULL, doing that ("loading the savestate STATE"). */
void vs_emu_guard_enter(uint32_t frame, const char *doing);
void vs_emu_guard_leave(void);
void vs_emu_guard_close(void);

#endif
