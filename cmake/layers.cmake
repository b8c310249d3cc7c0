# SPDX-License-Identifier: Zlib
# layers.cmake - the layer table: which folder of src/ may use which, as
# docs/developing.md draws it. One place, read twice:
#  - by the build (CMakeLists.txt): each layer is a static library linking
#    only the layers it may use, compiled with an include root that holds
#    only their folders, and linked once more on its own with
#    -Wl,--no-undefined, so a forbidden include or call fails the build;
#  - by tools/layers.cmake (tools/check, and the test `layers`), which reads
#    every #include in src/ and names any that crosses a layer the wrong way.
#
# Each row: <name>|<folders>|<layers it may use>|<libraries>. Folders and
# layers are ','-separated, "-" for none; the layers it may use are listed
# whole (what they use too). Lower layers first. "freestanding": no library,
# only the compiler's freestanding headers. console_rom is headers only,
# what both console ROM programs share; gba_rom is built by
# cmake/parts/gba_rom.cmake with arm-none-eabi-gcc, ds_rom by
# cmake/parts/ds_rom.cmake; cli_gba, cli_ds and
# cli_view are the commands of the modules vramsim loads (vs_module).
set(VS_LAYERS
  "alloc|alloc|-|freestanding"
  "base|base|-|threads"
  "vram|vram|base|-"
  "strategies|strategies,strategies/gba,strategies/ds,strategies/heap|alloc,base,vram|dl"
  "trace|trace|base,vram|-"
  "engine|engine|alloc,base,vram,strategies,trace|cJSON,m"
  "capture|capture|base,vram,trace|-"
  "compare|compare|base,vram,strategies,trace,engine|cJSON,threads"
  "gen|gen|base,vram|-"
  "render|render|base,vram,strategies,trace,engine|libpng"
  "viewer|viewer|base,vram,strategies,trace,engine,render|SDL2"
  "console_common|console/common|alloc,base,vram,strategies,trace,engine|-"
  "console_gba|console/gba|alloc,base,vram,strategies,trace,engine,capture,console_common|libmgba,dl"
  "console_rom|console/common/rom|-|freestanding"
  "gba_rom|console/gba/rom|alloc,console_common,console_rom,console_gba|freestanding"
  "console_ds|console/ds|alloc,base,vram,strategies,trace,engine,capture,console_common|dl"
  "ds_rom|console/ds/rom|alloc,console_common,console_rom,console_ds|freestanding"
  "cli|cli|base,vram,strategies,trace,engine,capture,compare,gen,render,console_common|cJSON,dl"
  "cli_gba|cli/gba|base,vram,strategies,trace,engine,capture,compare,gen,render,console_common,cli,console_gba|-"
  "cli_ds|cli/ds|base,vram,strategies,trace,engine,capture,compare,gen,render,console_common,cli,console_ds|-"
  "cli_view|cli/view|base,vram,strategies,trace,engine,capture,compare,gen,render,console_common,cli,viewer|-"
  "play|play|alloc,base,vram,strategies,trace,engine,capture,console_common,console_gba,console_ds|-"
  "cli_play|cli/play|base,vram,strategies,trace,engine,capture,compare,gen,render,console_common,cli,viewer,console_gba,play|SDL2")

# vs_layer_get(<name> <out folders> <out uses> <out libraries>)
function(vs_layer_get name dirs_out uses_out libs_out)
  foreach(row ${VS_LAYERS})
    string(REPLACE "|" ";" f "${row}")
    list(GET f 0 n)
    if(n STREQUAL name)
      foreach(i 1 2 3)
        list(GET f ${i} v)
        string(REPLACE "," ";" v "${v}")
        if(v STREQUAL "-")
          set(v "")
        endif()
        set(v${i} "${v}")
      endforeach()
      set(${dirs_out} "${v1}" PARENT_SCOPE)
      set(${uses_out} "${v2}" PARENT_SCOPE)
      set(${libs_out} "${v3}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "no layer ${name}")
endfunction()
