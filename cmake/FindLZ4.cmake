# Debian's liblz4-dev ships only a pkg-config file; this wraps it as LZ4::LZ4.
find_package(PkgConfig REQUIRED)
pkg_check_modules(PC_LZ4 QUIET liblz4)
find_path(LZ4_INCLUDE_DIR lz4.h HINTS ${PC_LZ4_INCLUDE_DIRS})
find_library(LZ4_LIBRARY NAMES lz4 HINTS ${PC_LZ4_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LZ4 REQUIRED_VARS LZ4_LIBRARY LZ4_INCLUDE_DIR)
if(LZ4_FOUND AND NOT TARGET LZ4::LZ4)
  add_library(LZ4::LZ4 UNKNOWN IMPORTED)
  set_target_properties(LZ4::LZ4 PROPERTIES
    IMPORTED_LOCATION "${LZ4_LIBRARY}" INTERFACE_INCLUDE_DIRECTORIES "${LZ4_INCLUDE_DIR}")
endif()
