# Static dependencies for executables that ask for them (the CLI): a target with the property
# TSREAD_STATIC_DEPS ON links Abseil and the codecs from their static archives (Debian's -dev
# packages ship both) and libstdc++/libgcc statically; everything else links the shared libraries.
#
# Why: starting a process that maps 36 shared libraries costs about 1.7 ms and 210 page faults on
# this machine kind (measured: `tsread --version` 3.4 ms dynamic, 1.7 ms static; docs/benchmarks.md,
# "Session 17"), more than `tsread info` spends on a file. Libraries and front ends loaded into
# other processes (the DuckDB extension, the Python module) keep the shared ones: Debian's archives
# are not built for shared objects (absl_base uses initial-exec TLS).
#
# How: each system dependency a module names is linked as
#   $<IF:$<BOOL:$<TARGET_PROPERTY:TSREAD_STATIC_DEPS>>, <its static twin>, <the target>>
# which CMake evaluates for the target being linked. A twin is an imported target made here
# with the same usage requirements, whose location is the .a next to the .so and whose own
# dependencies are twins too; a library without an archive keeps its shared form.

option(TSREAD_STATIC_CLI "Link the tsread CLI against static Abseil, codecs and libstdc++" ON)

# The twin of imported target `target` into `out`: a target name, or `target` itself when it has
# no static archive.
function(_tsread_static_twin target out)
  string(MAKE_C_IDENTIFIER "${target}" id)
  set(twin tsread_static_${id})
  if(TARGET ${twin})
    set(${out} ${twin} PARENT_SCOPE)
    return()
  endif()
  get_property(no_archive GLOBAL PROPERTY _tsread_no_archive_${id})
  if(no_archive)
    set(${out} ${target} PARENT_SCOPE)
    return()
  endif()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    add_library(${twin} INTERFACE IMPORTED)
  else()
    get_target_property(location ${target} IMPORTED_LOCATION)
    if(NOT location)
      get_target_property(configs ${target} IMPORTED_CONFIGURATIONS)
      list(GET configs 0 config)
      get_target_property(location ${target} IMPORTED_LOCATION_${config})
    endif()
    string(REGEX REPLACE "\\.so(\\.[0-9]+)*$" ".a" archive "${location}")
    if(NOT location OR archive STREQUAL location OR NOT EXISTS "${archive}")
      set_property(GLOBAL PROPERTY _tsread_no_archive_${id} TRUE)
      set(${out} ${target} PARENT_SCOPE)
      return()
    endif()
    add_library(${twin} STATIC IMPORTED)
    set_target_properties(${twin} PROPERTIES IMPORTED_LOCATION "${archive}")
  endif()
  foreach(property INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS INTERFACE_COMPILE_OPTIONS
                   INTERFACE_COMPILE_FEATURES INTERFACE_LINK_OPTIONS)
    get_target_property(value ${target} ${property})
    if(value)
      set_target_properties(${twin} PROPERTIES ${property} "${value}")
    endif()
  endforeach()
  get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
  set(twin_deps)
  if(deps)
    foreach(dep IN LISTS deps)
      if(TARGET ${dep})
        _tsread_static_twin(${dep} dep)
      endif()
      list(APPEND twin_deps ${dep})
    endforeach()
  endif()
  set_target_properties(${twin} PROPERTIES INTERFACE_LINK_LIBRARIES "${twin_deps}")
  set(${out} ${twin} PARENT_SCOPE)
endfunction()

# `deps` (module dependencies) into `out`, each imported system target with a static twin
# replaced by the choice above. Does nothing in shared builds or with TSREAD_STATIC_CLI off.
function(tsread_static_choices out)
  set(result)
  foreach(dep IN LISTS ARGN)
    if(TSREAD_STATIC_CLI AND NOT BUILD_SHARED_LIBS AND TARGET ${dep})
      get_target_property(imported ${dep} IMPORTED)
      if(imported)
        _tsread_static_twin(${dep} twin)
        if(NOT twin STREQUAL dep)
          # Installed packages name the shared target, as without this.
          list(APPEND result "$<INSTALL_INTERFACE:${dep}>")
          set(dep "$<BUILD_INTERFACE:$<IF:$<BOOL:$<TARGET_PROPERTY:TSREAD_STATIC_DEPS>>,${twin},${dep}>>")
        endif()
      endif()
    endif()
    list(APPEND result "${dep}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# Makes executable `target` link its dependencies statically (see above), unless this is a shared
# or sanitizer build.
function(tsread_link_statically target)
  if(NOT TSREAD_STATIC_CLI OR BUILD_SHARED_LIBS OR CMAKE_BUILD_TYPE MATCHES "^(Asan|Tsan)$" OR TSREAD_FUZZ)
    return()
  endif()
  set_target_properties(${target} PROPERTIES TSREAD_STATIC_DEPS ON)
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
endfunction()
