#!/bin/sh
# SPDX-License-Identifier: Zlib
# check.sh STEP - the installed tree, used the ways docs/embedding.md says;
# ctest runs each step as install_STEP (tests/CMakeLists.txt):
#   tree           install into $OUT/staging and move that to $OUT/prefix
#                  (paths inside are relative), check the files, run the
#                  installed vramsim and its modules
#   pkgconfig      build and run host_alloc.c with pkg-config vramsim-alloc
#   cmake_package  build and run it with find_package(vramsim) (CMakeLists.txt)
#   plugin         build the example plug-in with pkg-config vramsim-plugin
#                  and nothing else, and replay a trace through it with the
#                  installed vramsim
#   game_xcompile  compile game.c, and parse the installed allocator sources,
#                  with a game's flags, for the GBA's ARM7TDMI and the DS's ARM9
# Environment: BIN (the build tree), SRC (this folder), OUT, LIBDIR, CC,
# CMAKE, ARM_GCC (empty when missing), SANITIZE (ON when the build is
# instrumented), TRACE (a trace for `vramsim cycles`), GBA and VIEW (1 when
# that module was built). Exit 77: skipped.
set -eu
P=$OUT/prefix
L=$P/$LIBDIR
# An instrumented build installs an instrumented library: link as it does.
SAN=
if [ "$SANITIZE" = ON ]; then
	SAN=-fsanitize=address,undefined
fi
mkdir -p "$OUT"

fail() {
	echo "install_$STEP: $*" >&2
	exit 1
}

# has FILE TEXT: FILE holds TEXT.
has() {
	grep -qF "$2" "$1" || fail "no '$2' in $1: $(cat "$1")"
}

case $STEP in
tree)
	rm -rf "$OUT/staging" "$P"
	"$CMAKE" --install "$BIN" --prefix "$OUT/staging" >"$OUT/install.log"
	mv "$OUT/staging" "$P"
	for f in bin/vramsim "$LIBDIR/libvramsim-alloc.a" include/vramsim/record.h \
		include/vramsim/alloc/gba_obj_map.h "$LIBDIR/pkgconfig/vramsim-alloc.pc" \
		"$LIBDIR/cmake/vramsim/vramsim-config.cmake" share/vramsim/alloc/src/gba_obj_map.c \
		share/vramsim/alloc/include/vramsim/alloc/gba_obj_map.h share/vramsim/alloc/include/vramsim/record.h \
		include/vramsim/sprite_handles.h include/vramsim/strategy.h include/vramsim/arena.h \
		include/vramsim/request.h "$LIBDIR/pkgconfig/vramsim-plugin.pc"; do
		[ -f "$P/$f" ] || fail "not installed: $f"
	done
	# only what a game or a plug-in includes: the simulator's headers stay in src/
	extra=$(cd "$P/include/vramsim" && ls -1 | grep -vxE 'alloc|record\.h|sprite_handles\.h|strategy\.h|arena\.h|request\.h' || true)
	[ -z "$extra" ] || fail "installed headers that are not a game's or a plug-in's: $extra"
	unset VRAMSIM_MODULE_DIR VRAMSIM_GBA_ROM_DIR
	"$P/bin/vramsim" --version >"$OUT/out"
	has "$OUT/out" "vramsim "
	if [ "$GBA" = 1 ]; then
		[ -f "$L/vramsim/vramsim-gba.so" ] || fail "not installed: the gba module"
		"$P/bin/vramsim" cycles --help >"$OUT/out"
		has "$OUT/out" "libmgba: yes"
		if [ -f "$BIN/gba/cycles-thumb.gba" ]; then
			has "$OUT/out" "GBA ROMs: $L/vramsim/gba/cycles-thumb.gba"
			"$P/bin/vramsim" cycles "$TRACE" >"$OUT/out" || fail "the installed vramsim cycles failed"
			has "$OUT/out" "placements: the GBA's equal the host replay's"
		fi
	fi
	if [ "$VIEW" = 1 ]; then
		[ -f "$L/vramsim/vramsim-view.so" ] || fail "not installed: the view module"
		"$P/bin/vramsim" view --help >"$OUT/out"
		has "$OUT/out" "usage: vramsim view"
	fi
	;;
pkgconfig)
	flags=$(PKG_CONFIG_PATH=$L/pkgconfig pkg-config --cflags --libs vramsim-alloc)
	# shellcheck disable=SC2086 # flags are words
	"$CC" -std=c99 -Wall -Wextra -Werror $SAN "$SRC/host_alloc.c" $flags -o "$OUT/host_alloc-pc"
	"$OUT/host_alloc-pc"
	;;
cmake_package)
	rm -rf "$OUT/cmake-build"
	"$CMAKE" -S "$SRC" -B "$OUT/cmake-build" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC" \
		-DCMAKE_C_FLAGS="$SAN" >"$OUT/cmake.log"
	"$CMAKE" --build "$OUT/cmake-build" >>"$OUT/cmake.log"
	"$OUT/cmake-build/host_alloc"
	;;
plugin)
	flags=$(PKG_CONFIG_PATH=$L/pkgconfig pkg-config --cflags vramsim-plugin)
	# shellcheck disable=SC2086 # flags are words
	"$CC" -std=c99 -Wall -Wextra -Werror -shared -fPIC $SAN $flags "$PLUGIN_SRC" -o "$OUT/top_down_fit.so"
	unset VRAMSIM_MODULE_DIR
	"$P/bin/vramsim" replay "$TRACE" --plugin "$OUT/top_down_fit.so" --strategy top-down-fit >"$OUT/out" ||
		fail "the installed vramsim did not replay through the plug-in built against the prefix"
	has "$OUT/out" "top-down-fit"
	;;
game_xcompile)
	if [ -z "$ARM_GCC" ]; then
		echo "install_game_xcompile: skipped: arm-none-eabi-gcc missing (install gcc-arm-none-eabi)"
		exit 77
	fi
	S=$P/share/vramsim/alloc
	inc=$("$ARM_GCC" -print-file-name=include)
	# The installed allocator sources are src/alloc's, byte for byte, and
	# xcompile_allocators compiles those for both CPUs with code generation.
	# What is left to ask here is whether they build from the installed
	# headers alone, which parsing answers (-fsyntax-only: a third of a
	# compile's CPU).
	n=0
	for f in "$SRC"/../../src/alloc/*.c; do
		cmp -s "$f" "$S/src/${f##*/}" || fail "$S/src/${f##*/} is not src/alloc/${f##*/}"
		n=$((n + 1))
	done
	[ "$(find "$S/src" -name '*.c' | wc -l)" -eq "$n" ] || fail "$S/src holds other sources than src/alloc's $n"
	# A game's flags for the GBA's ARM7TDMI, then the DS's ARM9, seeing only
	# the compiler's own headers, as on a console without a C library.
	for cpu in "-mcpu=arm7tdmi" "-march=armv5te -mtune=arm946e-s"; do
		G=$OUT/game/${cpu%% *}
		mkdir -p "$G"
		# shellcheck disable=SC2086 # cpu is words
		set -- $cpu -mthumb -ffreestanding -Os -Wall -Wextra -Werror -std=c99 -nostdinc -isystem "$inc"
		"$ARM_GCC" "$@" -I"$P/include" -c "$SRC/game.c" -o "$G/game.o"
		(cd "$G" && "$ARM_GCC" "$@" -I"$S/include" -c "$SRC/game.c")
		"$ARM_GCC" "$@" -I"$S/include" -fsyntax-only "$S"/src/*.c
		echo "install_game_xcompile: $cpu: game.c built, its $n allocator sources parsed"
	done
	;;
*)
	fail "unknown step"
	;;
esac
