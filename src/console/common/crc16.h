/* SPDX-License-Identifier: Zlib */
/* crc16.h - the CRC-16 of a Nintendo DS cartridge header (GBATEK "DS
 * Cartridge Header": the logo and header checksums at 0x15C and 0x15E):
 * polynomial 0xA001 (reflected 0x8005), initial value 0xFFFF, no final
 * XOR, the variant known as CRC-16/MODBUS. */
#ifndef VRAMSIM_CRC16_H
#define VRAMSIM_CRC16_H

#include <stddef.h>
#include <stdint.h>

/* The CRC of data[0..len). */
uint16_t vs_crc16(const void *data, size_t len);

#endif
