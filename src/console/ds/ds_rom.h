/* SPDX-License-Identifier: Zlib */
/* ds_rom.h - the header of a Nintendo DS ROM image (.nds), checked before
 * the emulator starts.
 *
 * Fields and the header checksum are GBATEK's ("DS Cartridge Header"): the
 * CRC-16 at 0x15E covers bytes 0x000-0x15D (initial value 0xFFFF, reflected
 * polynomial 0xA001). The check refuses what the emulator would run badly
 * or not at all, each with its reason: a file shorter than the 512-byte
 * header, a GBA ROM, a header whose checksum does not match (a random
 * file, a damaged one), an unknown unit code, ARM9/ARM7 binaries that lie
 * outside the file or outside the memory they load into.
 */
#ifndef VRAMSIM_DS_ROM_H
#define VRAMSIM_DS_ROM_H

#include <stddef.h>
#include <stdint.h>

#define VS_DS_HEADER_BYTES 0x200u
#define VS_DS_ROM_MAX (512u * 1024 * 1024) /* the largest DS cartridge (4 Gbit) */

typedef struct vs_ds_rom_info {
	char title[13];      /* printable ASCII, NUL-ended; other bytes become '?' */
	char code[5];        /* game code */
	char maker[3];       /* maker code */
	uint8_t unit;        /* 0 NDS, 2 NDS+DSi, 3 DSi */
	uint32_t arm9_offset, arm9_entry, arm9_ram, arm9_size;
	uint32_t arm7_offset, arm7_entry, arm7_ram, arm7_size;
	uint16_t header_crc;
	uint64_t size;       /* of the image */
	char sha256[65];
} vs_ds_rom_info;

/* Only the names of a header (title, game code, maker), unchecked: to
 * name the ROM a savestate was made with. */
void vs_ds_rom_names(const uint8_t *header, vs_ds_rom_info *info);

/* Checks an image's header and fills info (SHA-256 of the whole image
 * included). 0, or -1 with the reason in err ("not a DS ROM: ..."). */
int vs_ds_rom_check(const uint8_t *image, size_t size, vs_ds_rom_info *info, char *err, size_t errlen);

/* Reads a ROM file whole (at most VS_DS_ROM_MAX) and checks it. Returns the
 * image (free it) with *size, or NULL with "PATH: reason" in err. */
uint8_t *vs_ds_rom_load(const char *path, size_t *size, vs_ds_rom_info *info, char *err, size_t errlen);

#endif
