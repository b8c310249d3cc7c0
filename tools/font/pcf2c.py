#!/usr/bin/env python3
# SPDX-License-Identifier: Zlib
"""pcf2c.py - the built-in font's table from an X11 PCF bitmap font.

    tools/font/pcf2c.py /usr/share/fonts/X11/misc/8x13-ISO8859-1.pcf.gz > src/render/font_8x13.h

Reads the glyphs of ASCII 32-126 (metrics, bitmaps, encodings tables of the
PCF format) and writes them as rows of 8 pixels, top row first, most
significant bit leftmost, each glyph placed in the font's cell by its
ascent. Debian's xfonts-base has the font: the X11 "misc-fixed" 8x13, public
domain.
"""
import gzip
import struct
import sys

PCF_METRICS, PCF_BITMAPS, PCF_BDF_ENCODINGS, PCF_ACCELERATORS = 1 << 2, 1 << 3, 1 << 5, 1 << 1
PCF_BYTE_MASK, PCF_COMPRESSED_METRICS = 1 << 2, 0x100


def tables(data):
    assert data[:4] == b"\x01fcp", "not a PCF font"
    (count,) = struct.unpack("<i", data[4:8])
    out = {}
    for i in range(count):
        t, fmt, size, off = struct.unpack("<iiii", data[8 + 16 * i: 24 + 16 * i])
        out[t] = (fmt, off)
    return out


def reader(data, off):
    (fmt,) = struct.unpack("<i", data[off: off + 4])
    e = ">" if fmt & PCF_BYTE_MASK else "<"
    return fmt, e, off + 4


def metrics(data, off):
    fmt, e, p = reader(data, off)
    res = []
    if fmt & PCF_COMPRESSED_METRICS:
        (n,) = struct.unpack(e + "h", data[p: p + 2])
        p += 2
        for i in range(n):
            l, r, w, a, d = struct.unpack("5B", data[p: p + 5])
            res.append((l - 128, r - 128, w - 128, a - 128, d - 128))
            p += 5
    else:
        (n,) = struct.unpack(e + "i", data[p: p + 4])
        p += 4
        for i in range(n):
            l, r, w, a, d, _ = struct.unpack(e + "5hH", data[p: p + 12])
            res.append((l, r, w, a, d))
            p += 12
    return res


def bitmaps(data, off):
    fmt, e, p = reader(data, off)
    (n,) = struct.unpack(e + "i", data[p: p + 4])
    p += 4
    offs = struct.unpack(e + "%di" % n, data[p: p + 4 * n])
    p += 4 * n
    sizes = struct.unpack(e + "4i", data[p: p + 16])
    p += 16
    pad = 1 << (fmt & 3)
    msb = bool(fmt & (1 << 3))
    return offs, data[p: p + sizes[fmt & 3]], pad, msb


def encodings(data, off):
    fmt, e, p = reader(data, off)
    mnc, mxc, mnb, mxb, dflt = struct.unpack(e + "5h", data[p: p + 10])
    p += 10
    n = (mxc - mnc + 1) * (mxb - mnb + 1)
    idx = struct.unpack(e + "%dh" % n, data[p: p + 2 * n])
    return {mnc + i: g for i, g in enumerate(idx) if g != -1 and mnb == 0}


def main():
    raw = open(sys.argv[1], "rb").read()
    data = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
    t = tables(data)
    mets = metrics(data, t[PCF_METRICS][1])
    offs, bits, pad, msb = bitmaps(data, t[PCF_BITMAPS][1])
    enc = encodings(data, t[PCF_BDF_ENCODINGS][1])
    ascent = max(m[3] for m in mets)
    height = max(m[3] + m[4] for m in mets)
    print("/* SPDX-License-Identifier: Zlib */")
    print("/* font_8x13.h - made by tools/font/pcf2c.py from the X11 \"misc-fixed\" 8x13 font")
    print(" * (public domain; Debian xfonts-base, 8x13-ISO8859-1.pcf.gz): ASCII 32-126,")
    print(" * %d rows of 8 pixels a glyph, top row first, leftmost pixel in bit 7. */" % height)
    print("static const uint8_t font_8x13[95][%d] = {" % height)
    for c in range(32, 127):
        g = enc[c]
        l, r, w, a, d = mets[g]
        stride = ((r - l + pad * 8 - 1) // (pad * 8)) * pad
        rows = [0] * height
        for y in range(a + d):
            v = 0
            for x in range(r - l):
                byte = bits[offs[g] + y * stride + x // 8]
                bit = (byte >> (7 - x % 8)) & 1 if msb else (byte >> (x % 8)) & 1
                if bit:
                    v |= 0x80 >> (x + l)
            rows[ascent - a + y] = v
        name = {34: "\\\"", 92: "\\\\", 47: "/"}.get(c, chr(c))
        print("\t{ %s }, /* %s */" % (", ".join("0x%02X" % v for v in rows), "'" + chr(c) + "'" if c not in (42, 47) else str(c)))
    print("};")


if __name__ == "__main__":
    main()
