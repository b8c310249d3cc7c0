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
# vs_layer_table(<name> <folders> <layers it may use> <libraries>): folders
# and layers are ','-separated, "-" for none. Lower layers first.
set(VS_LAYERS
  "alloc|alloc|-|-"
  "base|base|-|-"
  "vram|vram|base|-"
  "strategies|strategies,strategies/gba,strategies/ds,strategies/heap|alloc,base,vram|dl"
  "trace|trace|base,vram|-"
  "engine|engine|alloc,base,vram,strategies,trace|cJSON,m"
  "capture|capture|base,vram,trace|-"
  "compare|compare|base,vram,strategies,trace,engine|cJSON,threads"
  "gen|gen|base,vram|-"
  "render|render|base,vram,strategies,trace,engine|libpng"
  "viewer|viewer|base,vram,strategies,trace,engine,render|SDL2"
  "console_common|console/common|base|-"
  "console_gba|console/gba|alloc,base,vram,strategies,trace,engine,capture,console_common|libmgba"
  "cli|cli|base,vram,strategies,trace,engine,capture,compare,gen,render,console_common|-")

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
