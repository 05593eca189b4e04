# `cmake --install`: the libraries (static, or shared with BUILD_SHARED_LIBS), their headers, the
# CLI, a CMake package (find_package(tsread), target tsread::tsread) and a pkg-config file
# (tsread.pc). Everything is relocatable: the CMake package and tsread.pc locate the prefix
# relative to themselves, the shared libraries and the CLI find the libraries through $ORIGIN.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TSREAD_LIBRARIES tsread_io tsread_common tsread_compress tsread_encoding tsread_format tsread_read
                     tsread_dataset tsread_iotdb tsread_aggregate tsread_arrow tsread_write tsread_check)
install(TARGETS ${TSREAD_LIBRARIES} tsread EXPORT tsreadTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS tsread_c EXPORT tsreadTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS tsread_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/cpp/src/tsread DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

set(TSREAD_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tsread)
install(EXPORT tsreadTargets NAMESPACE tsread:: DESTINATION ${TSREAD_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/tsreadConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/tsreadConfig.cmake INSTALL_DESTINATION ${TSREAD_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tsreadConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tsreadConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/tsreadConfigVersion.cmake
              ${CMAKE_CURRENT_SOURCE_DIR}/cmake/FindLZ4.cmake ${CMAKE_CURRENT_SOURCE_DIR}/cmake/FindZstd.cmake
              ${CMAKE_CURRENT_SOURCE_DIR}/cmake/FindLZO2.cmake
        DESTINATION ${TSREAD_CMAKE_DIR})

# tsread.pc: `pkg-config --cflags --libs tsread` links a shared install; a static install needs
# `pkg-config --static --cflags --libs tsread`, which adds the codec libraries (Libs.private).
# The prefix is computed from the .pc file's own directory (${pcfiledir}/../.. for lib/pkgconfig).
file(RELATIVE_PATH TSREAD_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" TSREAD_PC_TO_PREFIX "${TSREAD_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/tsread.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tsread.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tsread.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# tsread_c.pc: the C ABI (libtsread_c.so and tsread/tsread.h), for C programs.
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/tsread_c.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tsread_c.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tsread_c.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
