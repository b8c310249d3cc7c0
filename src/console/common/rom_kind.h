/* SPDX-License-Identifier: Zlib */
/* rom_kind.h - which console a ROM image is for, from its first bytes, so
 * `vramsim record` and `capture` hand it to the right emulator.
 *
 * A GBA cartridge header has the fixed byte 0x96 at 0xB2; a DS header's
 * CRC-16 at 0x15E matches bytes 0x000-0x15D (GBATEK, "GBA Cartridge
 * Header", "DS Cartridge Header"). A file named *.nds counts as a DS ROM
 * whatever it holds, so that the DS side says what is wrong with it.
 */
#ifndef VRAMSIM_ROM_KIND_H
#define VRAMSIM_ROM_KIND_H

#include <stddef.h>
#include <stdint.h>

enum { VS_ROM_KIND_UNKNOWN = 0, VS_ROM_KIND_GBA = 1, VS_ROM_KIND_DS = 2 };

#define VS_ROM_KIND_HEAD 0x200u /* bytes to read for vs_rom_kind_of */

/* The CRC-16 GBATEK gives for DS headers (initial 0xFFFF, reflected
 * polynomial 0xA001: CRC-16/MODBUS). */
uint16_t vs_rom_kind_crc16(const void *data, size_t len);
/* VS_ROM_KIND_* from the first len bytes of an image. */
int vs_rom_kind_of(const uint8_t *head, size_t len);
/* The same for a file: its name (*.nds) or, for a regular file, its first
 * bytes; UNKNOWN when it is not one or cannot be read (a pipe is never
 * read: its bytes are for the command). */
int vs_rom_kind_file(const char *path);

#endif
