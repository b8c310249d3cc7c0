#!/bin/sh
# SPDX-License-Identifier: Zlib
# build.sh - builds a Butano program with Debian's arm-none-eabi toolchain,
# its sprite tiles manager recording through include/vramsim/record.h
# (docs/gba.md, "Recorded Butano programs"). Not part of vramsim's build.
#
#   tools/butano-record/build.sh REPOS TAG PROGRAM WORK
#
# REPOS holds git repositories (clones or mirrors) named butano
# (GValiente/butano), devkitarm-rules, devkitarm-crtls, grit, mmutil,
# general-tools and, for a Butano that links devkitPro's libmm (-lmm in
# butano/butano.mak; later ones carry their own maxmod), maxmod
# (devkitPro/...). TAG: a Butano tag (9.4.1, 18.1.0, 21.7.1).
# PROGRAM: a program's folder in Butano's repository (examples/sprites,
# games/butano-fighter). WORK: a scratch folder; it gets a devkitARM-like
# tree (devkitpro/) whose compilers are Debian's, Butano at TAG (butano-TAG/)
# and the program's ROM, printed last. RECORD=0 builds Butano unchanged.
# Needs: gcc-arm-none-eabi, libnewlib-arm-none-eabi,
# libstdc++-arm-none-eabi-newlib, libfreeimage-dev, g++, make, python3.
set -eu
if [ $# -ne 4 ]; then
	echo "usage: $0 REPOS TAG PROGRAM WORK" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
vramsim_include=$(cd "$here/../../include" && pwd)
repos=$(cd "$1" && pwd) tag=$2 program=$3
mkdir -p "$4"
work=$(cd "$4" && pwd)
for r in butano devkitarm-rules devkitarm-crtls grit mmutil general-tools; do
	if ! git -C "$repos/$r" rev-parse -q --verify HEAD >/dev/null; then
		echo "$0: $repos/$r: not a git repository" >&2
		exit 2
	fi
done
if ! git -C "$repos/butano" rev-parse -q --verify "$tag^{commit}" >/dev/null; then
	echo "$0: $repos/butano: no tag $tag" >&2
	exit 2
fi

dkp=$work/devkitpro
dka=$dkp/devkitARM
lib=$dka/arm-none-eabi/lib
tools=$dkp/tools/bin
# a repository's files at its HEAD (or at REV), into DIR
export_tree() { # REPO DIR [REV]
	rm -rf "$2"
	mkdir -p "$2"
	git -C "$repos/$1" archive "${3:-HEAD}" | tar x -C "$2"
}

# The host tools Butano's makefiles call: grit (graphics), mmutil (the
# soundbank, made even when a program has no audio), bin2s (binary data);
# built as their autotools builds would, without autotools.
if [ ! -x "$tools/grit" ] || [ ! -x "$tools/mmutil" ] || [ ! -x "$tools/bin2s" ]; then
	mkdir -p "$tools"
	export_tree grit "$work/src/grit"
	(cd "$work/src/grit" && g++ -O2 -w -DPACKAGE_VERSION='"0.9.2"' -Icldib -Ilibgrit -Iextlib \
		cldib/cldib_adjust.cpp cldib/cldib_conv.cpp cldib/cldib_core.cpp cldib/cldib_tmap.cpp \
		cldib/cldib_tools.cpp cldib/cldib_wu.cpp libgrit/cprs.cpp libgrit/cprs_huff.cpp libgrit/cprs_lz.cpp \
		libgrit/cprs_rle.cpp libgrit/grit_core.cpp libgrit/grit_misc.cpp libgrit/grit_prep.cpp \
		libgrit/grit_shared.cpp libgrit/grit_xp.cpp libgrit/logger.cpp libgrit/pathfun.cpp \
		srcgrit/cli.cpp srcgrit/grit_main.cpp extlib/fi.cpp -lfreeimage -o "$tools/grit")
	export_tree mmutil "$work/src/mmutil"
	gcc -O2 -w -DPACKAGE_VERSION='"1.10.1"' "$work"/src/mmutil/source/*.c -lm -o "$tools/mmutil"
	export_tree general-tools "$work/src/general-tools"
	gcc -O2 -w -DPACKAGE_STRING='"bin2s"' "$work/src/general-tools/bin2s.c" -o "$tools/bin2s"
fi
# gbafix: only the header's complement (and title, game code) matter to an
# emulator without a BIOS
cat > "$tools/gbafix" <<'PY'
#!/usr/bin/env python3
import sys
args = sys.argv[1:]
rom = [a for a in args if not a.startswith('-')][0]
b = bytearray(open(rom, 'rb').read())
for a in args:
    for flag, at, n in (('-t', 0xA0, 12), ('-c', 0xAC, 4), ('-m', 0xB0, 2)):
        if a.startswith(flag):
            v = a[2:].encode('ascii')[:n]
            b[at:at + n] = v + bytes(n - len(v))
b[0xB2] = 0x96
b[0xBD] = -(sum(b[0xA0:0xBD]) + 0x19) & 0xFF
open(rom, 'wb').write(b)
PY
chmod +x "$tools/gbafix"

# devkitARM's make rules as they are; its GBA crt0 and linker script, and
# gba.specs without the sync-none.specs only devkitARM's GCC has
mkdir -p "$lib"
for f in base_tools base_rules gba_rules; do
	git -C "$repos/devkitarm-rules" show "HEAD:$f" > "$dka/$f"
done
for f in gba_crt0.s gba_cart.ld gba_mb.ld; do
	git -C "$repos/devkitarm-crtls" show "HEAD:$f" > "$lib/$f"
done
# gba.specs without the sync-none.specs only devkitARM's GCC has, and with
# fake_heap.o: the heap bounds devkitARM's libsysbase holds and its crt0
# sets, which Debian's newlib lacks (weak: later Butano defines them in
# hw/src/bn_hw_cstdlib.cpp)
for f in gba gba_mb; do
	git -C "$repos/devkitarm-crtls" show "HEAD:$f.specs" | grep -v sync-none |
		sed 's/^\(gba_crt0%O%s\) /\1 fake_heap%O%s /' > "$lib/$f.specs"
done
arm-none-eabi-gcc -x assembler-with-cpp -marm -c "$lib/gba_crt0.s" -o "$lib/gba_crt0.o"
printf '__attribute__((weak)) char *fake_heap_start;\n__attribute__((weak)) char *fake_heap_end;\n' > "$lib/fake_heap.c"
arm-none-eabi-gcc -mthumb -O2 -c "$lib/fake_heap.c" -o "$lib/fake_heap.o"

# Butano at TAG: only what the program needs (butano/, common/, the program)
bn=$work/butano-$tag
rm -rf "$bn" "$work/butano.index"
mkdir -p "$bn"
GIT_INDEX_FILE=$work/butano.index git -C "$repos/butano" --work-tree="$bn" checkout "$tag" -- butano common "$program"
rm -f "$work/butano.index"
manager=$bn/butano/src/bn_sprite_tiles_manager.cpp
# a Butano that links devkitPro's libmm gets maxmod 1.0.14 (2020-07), the
# release devkitPro shipped until 2022-05
if grep -q -- '-lmm' "$bn/butano/butano.mak" 2>/dev/null && [ ! -f "$dkp/libgba/lib/libmm.a" ]; then
	export_tree maxmod "$work/src/maxmod" v1.0.14
	mkdir -p "$dkp/libgba/lib" "$dkp/libgba/include"
	for s in "$work"/src/maxmod/source/*.s "$work"/src/maxmod/source_gba/*.s; do
		arm-none-eabi-gcc -x assembler-with-cpp -DSYS_GBA -DUSE_IWRAM -march=armv4t -mthumb -mthumb-interwork \
			-I"$work/src/maxmod/asm_include" -I"$work/src/maxmod/include" -c "$s" -o "${s%.s}.o"
	done
	arm-none-eabi-ar rcs "$dkp/libgba/lib/libmm.a" "$work"/src/maxmod/source*/*.o
	cp "$work"/src/maxmod/include/*.h "$dkp/libgba/include/"
fi
if [ "${RECORD:-1}" != 0 ]; then
	# rename the manager's public calls *_unrecorded_ (definitions, and the
	# flush's own update() call), then wrap them (bn_record_hooks.h)
	sed -i -e 's/^\(int\|void\) \(init\|create\|create_optional\|create_new\|create_new_optional\|allocate\|allocate_optional\|decrease_usages\|set_tiles_ref\|update\)(/\1 \2_unrecorded_(/' \
		-e 's/^\( *\)update();$/\1update_unrecorded_();/' "$manager"
	sed -i "0,/^#include \"bn_sprite_tiles_manager.h\"/s||&\n#include \"$here/bn_record_prelude.h\"|" "$manager"
	grep -q '^int create_new_unrecorded_(' "$manager" && echo '#define BN_RECORD_CREATE_NEW' >> "$manager"
	grep -q 'static_data& data_ref()' "$manager" && echo '#define BN_RECORD_DATA_REF' >> "$manager"
	echo "#include \"$here/bn_record_hooks.h\"" >> "$manager"
	for f in init update create allocate decrease_usages set_tiles_ref; do
		if ! grep -q "^[a-z]* ${f}_unrecorded_(" "$manager"; then
			echo "$0: $manager: no $f() to wrap" >&2
			exit 2
		fi
	done
	# the flush inside a create must not write a frame
	if grep -q '[^_]update();' "$manager"; then
		echo "$0: $manager: a call of update() left unrenamed" >&2
		exit 2
	fi
fi

cd "$bn/$program"
# LD with -B: where GCC finds gba.specs, the crt0 and the linker script
# (devkitARM's GCC has them in its own folders; Butano 9 passes no
# USERLDFLAGS to the link)
DEVKITPRO=$dkp DEVKITARM=$dka PATH=$tools:$PATH make -j"${JOBS:-2}" PYTHON=python3 \
	LD="arm-none-eabi-g++ -B$lib" USERFLAGS="$(sed -n 's/^USERFLAGS *:= *//p' Makefile) -I$vramsim_include" >&2
echo "$bn/$program/$(basename "$program").gba"
