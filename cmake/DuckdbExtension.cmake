# The DuckDB extension (tsread.duckdb_extension) and the SQL host (tsread_sql), built only when
# the DuckDB headers and library are in the npm cache that tools/setup.sh fills (outside the
# source tree; nothing is downloaded at build time):
#   ${TSREAD_DUCKDB_CACHE}/node_modules/duckdb/src/duckdb/src/include/duckdb_extension.h (duckdb@1.4.4)
#   ${TSREAD_DUCKDB_CACHE}/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so
set(TSREAD_DUCKDB_CACHE "$ENV{HOME}/.cache/tsread/npm" CACHE PATH
    "npm prefix holding duckdb (headers) and @duckdb/node-bindings-linux-x64 (libduckdb.so)")
set(TSREAD_DUCKDB_INCLUDE "${TSREAD_DUCKDB_CACHE}/node_modules/duckdb/src/duckdb/src/include")
set(TSREAD_DUCKDB_LIBRARY "${TSREAD_DUCKDB_CACHE}/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so")
# The platform written into the footer: what `PRAGMA platform` says of the host DuckDB.
set(TSREAD_DUCKDB_PLATFORM "linux_amd64" CACHE STRING "DuckDB platform of the extension footer")
set(TSREAD_DUCKDB_MIN_C_API "v1.2.0" CACHE STRING "minimum DuckDB C API version of the extension footer")

if(CMAKE_BUILD_TYPE MATCHES "^(Asan|Tsan)$" OR TSREAD_FUZZ)
  # libduckdb.so is not instrumented: a sanitized extension or host would only report DuckDB itself.
  message(STATUS "tsread: skipping the DuckDB extension in the ${CMAKE_BUILD_TYPE} build")
  set(TSREAD_HAVE_DUCKDB OFF)
elseif(NOT EXISTS "${TSREAD_DUCKDB_INCLUDE}/duckdb_extension.h")
  message(STATUS "tsread: skipping the DuckDB extension: ${TSREAD_DUCKDB_INCLUDE}/duckdb_extension.h not found (run tools/setup.sh)")
  set(TSREAD_HAVE_DUCKDB OFF)
else()
  set(TSREAD_HAVE_DUCKDB ON)
  # Every source of cpp/src/tsread/duckdb but the SQL host (an executable linked to libduckdb).
  file(GLOB TSREAD_DUCKDB_SOURCES CONFIGURE_DEPENDS ${TSREAD_SRC}/tsread/duckdb/*.cc)
  list(REMOVE_ITEM TSREAD_DUCKDB_SOURCES ${TSREAD_SRC}/tsread/duckdb/sql_host.cc)
  add_library(tsread_duckdb MODULE ${TSREAD_DUCKDB_SOURCES})
  target_include_directories(tsread_duckdb SYSTEM PRIVATE "${TSREAD_DUCKDB_INCLUDE}")
  target_link_libraries(tsread_duckdb PRIVATE tsread_aggregate tsread_dataset)
  # Export only the entry point: tsread and its static dependencies stay private to the module.
  target_link_options(tsread_duckdb PRIVATE -Wl,--exclude-libs,ALL -Wl,-z,defs)
  set_target_properties(tsread_duckdb PROPERTIES
    PREFIX "" OUTPUT_NAME "tsread" SUFFIX ".duckdb_extension"
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  add_custom_command(TARGET tsread_duckdb POST_BUILD
    COMMAND ${PROJECT_SOURCE_DIR}/tools/duckdb_footer.sh $<TARGET_FILE:tsread_duckdb>
            v${PROJECT_VERSION} ${TSREAD_DUCKDB_MIN_C_API} ${TSREAD_DUCKDB_PLATFORM}
    # DuckDB 1.2.x (platform linux_amd64_gcc4): the same code, its platform's name in the footer.
    COMMAND ${PROJECT_SOURCE_DIR}/tools/duckdb_platform_copy.sh $<TARGET_FILE:tsread_duckdb>
            ${CMAKE_BINARY_DIR}/duckdb-1.2/tsread.duckdb_extension ${TSREAD_DUCKDB_PLATFORM}_gcc4
            v${PROJECT_VERSION} ${TSREAD_DUCKDB_MIN_C_API}
    VERBATIM)

  if(EXISTS "${TSREAD_DUCKDB_LIBRARY}")
    add_library(tsread_libduckdb SHARED IMPORTED)
    set_target_properties(tsread_libduckdb PROPERTIES
      IMPORTED_LOCATION "${TSREAD_DUCKDB_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${TSREAD_DUCKDB_INCLUDE}")
    # tsread_sql: runs SQL in DuckDB with the extension loaded (tools/sql.sh).
    add_executable(tsread_sql ${TSREAD_SRC}/tsread/duckdb/sql_host.cc)
    target_link_libraries(tsread_sql PRIVATE tsread_libduckdb)
    target_compile_definitions(tsread_sql PRIVATE TSREAD_EXTENSION_PATH="$<TARGET_FILE:tsread_duckdb>")
    add_dependencies(tsread_sql tsread_duckdb)
    if(TSREAD_BUILD_BENCHMARKS)
      # The C ABI's Arrow stream into DuckDB (duckdb_arrow_scan) against read_tsfile (cpp/bench).
      enable_language(C)
      add_executable(arrow_duckdb_bench ${PROJECT_SOURCE_DIR}/cpp/bench/arrow_duckdb_bench.c)
      target_link_libraries(arrow_duckdb_bench PRIVATE tsread_libduckdb tsread_c)
      set_target_properties(arrow_duckdb_bench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/cpp/bench)
      add_dependencies(arrow_duckdb_bench tsread_duckdb)
    endif()
  else()
    message(STATUS "tsread: no ${TSREAD_DUCKDB_LIBRARY}: tsread_sql and the DuckDB tests are skipped")
  endif()
endif()
