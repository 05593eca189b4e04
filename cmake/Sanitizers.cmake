# Build type "Asan": AddressSanitizer + UndefinedBehaviorSanitizer, every UB report fatal.
# -g1: line tables only (reports keep file:line), which compiles sanitizer builds about a third faster than -g
# (measured on table_scanner.cc and its test) and keeps CI within its time.
set(_tsread_asan_flags "-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all")
set(CMAKE_CXX_FLAGS_ASAN "${_tsread_asan_flags}" CACHE STRING "Flags for the Asan build type" FORCE)
set(CMAKE_EXE_LINKER_FLAGS_ASAN "-fsanitize=address,undefined" CACHE STRING "" FORCE)
set(CMAKE_SHARED_LINKER_FLAGS_ASAN "-fsanitize=address,undefined" CACHE STRING "" FORCE)

# Build type "Tsan": ThreadSanitizer for the threading tests.
set(CMAKE_CXX_FLAGS_TSAN "-O1 -g1 -fsanitize=thread" CACHE STRING "Flags for the Tsan build type" FORCE)
set(CMAKE_EXE_LINKER_FLAGS_TSAN "-fsanitize=thread" CACHE STRING "" FORCE)

# TSREAD_FUZZ: build the libFuzzer targets (needs clang). Everything is instrumented for
# coverage and ASan+UBSan; only the fuzz targets link libFuzzer's main.
option(TSREAD_FUZZ "Build libFuzzer targets (clang only)" OFF)
if(TSREAD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TSREAD_FUZZ needs clang: configure with CXX=clang++")
  endif()
  add_compile_options(-g1 -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
