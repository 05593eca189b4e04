# LZO2 (Debian's liblzo2-dev, pkg-config "lzo2") as LZO2::LZO2, for TsFile's LZO pages.
find_package(PkgConfig REQUIRED)
pkg_check_modules(PC_LZO2 QUIET lzo2)
find_path(LZO2_INCLUDE_DIR lzo/lzo1x.h HINTS ${PC_LZO2_INCLUDE_DIRS}/..)
find_library(LZO2_LIBRARY NAMES lzo2 HINTS ${PC_LZO2_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LZO2 REQUIRED_VARS LZO2_LIBRARY LZO2_INCLUDE_DIR)
if(LZO2_FOUND AND NOT TARGET LZO2::LZO2)
  add_library(LZO2::LZO2 UNKNOWN IMPORTED)
  set_target_properties(LZO2::LZO2 PROPERTIES
    IMPORTED_LOCATION "${LZO2_LIBRARY}" INTERFACE_INCLUDE_DIRECTORIES "${LZO2_INCLUDE_DIR}")
endif()
