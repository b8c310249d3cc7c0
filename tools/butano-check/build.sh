#!/bin/sh
# SPDX-License-Identifier: Zlib
# build.sh - builds butano-check against a Butano checkout (docs/butano.md,
# "Checked against Butano's code"). Not part of vramsim's build.
#
#   tools/butano-check/build.sh BUTANO BUILD [OUT]
#
# BUTANO: a checkout of GValiente/butano (the folder that holds butano/src,
# or butano/ itself). BUILD: a vramsim build tree (its libvs_trace.a,
# libvs_vram.a and libvs_base.a are linked). OUT: the program to write
# (default BUILD/butano-check-VERSION). ITEMS=N in the environment sets
# BN_CFG_SPRITE_TILES_MAX_ITEMS (Butano's default 128). CXX: the host C++
# compiler (default g++; it needs C++23 as Butano 21 does); CXXFLAGS: more
# flags (a sanitizer tree's, which its libraries need).
set -eu
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 BUTANO BUILD [OUT]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
bn=$1
[ -d "$bn/butano/src" ] && bn=$bn/butano
if [ ! -f "$bn/src/bn_sprite_tiles_manager.cpp" ] || [ ! -f "$bn/include/bn_version.h" ]; then
	echo "$0: $1: not a Butano checkout (no src/bn_sprite_tiles_manager.cpp, include/bn_version.h)" >&2
	exit 2
fi
build=$2
for lib in trace vram base; do
	if [ ! -f "$build/libvs_$lib.a" ]; then
		echo "$0: $build: no libvs_$lib.a: build vramsim there first" >&2
		exit 2
	fi
done
version=$(sed -n 's/^ *#define BN_VERSION_STRING "\(.*\)"/\1/p' "$bn/include/bn_version.h")
out=${3:-$build/butano-check-$version}
# -fpermissive: Butano's items map hashes a pointer as unsigned (32 bits on
# the GBA), which a 64-bit host refuses without it; -w: Butano's own warnings
# on a host are not ours to mend.
# shellcheck disable=SC2086 # CXXFLAGS is a list of flags
${CXX:-g++} -std=c++23 -O1 -fpermissive -w ${CXXFLAGS:-} \
	-DBN_CFG_ASSERT_ENABLED=false -DBN_CFG_LOG_ENABLED=false \
	-DBN_CFG_SPRITE_TILES_MAX_ITEMS="${ITEMS:-128}" \
	-I"$here" -I"$bn/include" -I"$bn/src" -I"$src/src" -I"$src/include" \
	"$here/butano_check.cpp" "$build/libvs_trace.a" "$build/libvs_vram.a" "$build/libvs_base.a" \
	-lpthread -o "$out"
echo "$out"
