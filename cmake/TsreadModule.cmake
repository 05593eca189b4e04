# tsread_add_module(NAME DEPS ...) builds cpp/src/tsread/NAME/*.cc into the static library
# tsread_NAME. A module may only name the modules it is allowed to see (see README, "Layout").
function(tsread_add_module name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${TSREAD_SRC}/tsread/${name}/*.cc)
  add_library(tsread_${name} STATIC ${sources})
  target_include_directories(tsread_${name} PUBLIC
    $<BUILD_INTERFACE:${TSREAD_SRC}> $<INSTALL_INTERFACE:include>)
  target_link_libraries(tsread_${name} PUBLIC ${ARG_DEPS})
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
