# tsread_add_module(NAME DEPS ...) builds cpp/src/tsread/NAME/*.cc into the library tsread_NAME:
# static by default, shared with -DBUILD_SHARED_LIBS=ON. A module may only name the modules it is
# allowed to see (see README, "Layout").
#
# Every module is compiled as position-independent code, static or not, so that a static tsread
# can be linked into a shared object (a DuckDB extension, a Python module). Its public headers need
# C++20 (std::span, std::make_unique_for_overwrite...): cxx_std_20 is a PUBLIC compile feature, so
# the exported targets carry it and a consumer that sets no CMAKE_CXX_STANDARD still builds.
function(tsread_add_module name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${TSREAD_SRC}/tsread/${name}/*.cc)
  add_library(tsread_${name} ${sources})
  target_include_directories(tsread_${name} PUBLIC
    $<BUILD_INTERFACE:${TSREAD_SRC}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # System libraries as their static twins for executables that ask for them (StaticDeps.cmake).
  tsread_static_choices(deps ${ARG_DEPS})
  target_link_libraries(tsread_${name} PUBLIC ${deps})
  target_compile_features(tsread_${name} PUBLIC cxx_std_20)
  set_target_properties(tsread_${name} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    # Shared builds: libtsread_NAME.so.0.1.0, soname libtsread_NAME.so.0.1 (the package promises
    # compatibility within a minor version, see cmake/Install.cmake), and a run path that finds
    # the sibling tsread libraries wherever the installed lib/ directory ends up.
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
    INSTALL_RPATH "$ORIGIN")
endfunction()

# tsread_add_tests(FOLDER DEPS ...) builds every cpp/test/FOLDER/*_test.cc into its own GoogleTest
# binary FOLDER_NAME_test (tests mirror cpp/src one to one) and registers its cases with CTest.
function(tsread_add_tests folder)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${folder}/*_test.cc)
  foreach(source ${sources})
    get_filename_component(stem ${source} NAME_WE)
    set(target ${folder}_${stem})
    add_executable(${target} ${source})
    target_link_libraries(${target} PRIVATE ${ARG_DEPS} tsread_testing GTest::gmock GTest::gtest GTest::gtest_main)
    gtest_discover_tests(${target}
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      PROPERTIES TIMEOUT 900 LABELS ${folder}
      DISCOVERY_TIMEOUT 60)
  endforeach()
endfunction()
