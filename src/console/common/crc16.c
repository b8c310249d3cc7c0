/* SPDX-License-Identifier: Zlib */
/* crc16.c - CRC-16/MODBUS bit by bit: a few hundred header bytes, no table
 * needed. */
#include "console/common/crc16.h"

uint16_t vs_crc16(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint16_t crc = 0xFFFFu;
	size_t i;
	int bit;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (bit = 0; bit < 8; bit++)
			crc = (uint16_t)(crc & 1u ? (crc >> 1) ^ 0xA001u : crc >> 1);
	}
	return crc;
}
