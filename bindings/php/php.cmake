# ext-leaseq, the PHP extension (LEASEQ_WITH_PHP), included from the top
# CMakeLists.txt.  phpize and configure write many files, so the sources are
# copied to and built in ${CMAKE_BINARY_DIR}/bindings/php, against this
# build's libleaseq (rpath to it) and lib/leaseq.h; the module is
# bindings/php/modules/leaseq.so there.  (Not an add_subdirectory: CMake's
# own Makefile for that directory would be where phpize's goes.)
set(LQ_PHP_OUT ${CMAKE_BINARY_DIR}/bindings/php)
file(GLOB LQ_PHP_INPUTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.c ${CMAKE_CURRENT_LIST_DIR}/*.h
  ${CMAKE_CURRENT_LIST_DIR}/config.m4 ${CMAKE_CURRENT_LIST_DIR}/leaseq.stub.php
  ${CMAKE_CURRENT_LIST_DIR}/tests/*)
set(LQ_PHP_CFLAGS "")
if(LEASEQ_WERROR)
  set(LQ_PHP_CFLAGS "-Werror")
endif()
add_custom_command(OUTPUT ${LQ_PHP_OUT}/modules/leaseq.so
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/build.sh ${CMAKE_CURRENT_LIST_DIR} ${LQ_PHP_OUT}
    ${LEASEQ_PHPIZE} ${LEASEQ_PHP_CONFIG} ${PROJECT_SOURCE_DIR}/lib $<TARGET_FILE_DIR:leaseq> "${LQ_PHP_CFLAGS}"
  DEPENDS leaseq ${LQ_PHP_INPUTS} ${CMAKE_CURRENT_LIST_DIR}/build.sh
  COMMENT "Building ext-leaseq (phpize) in bindings/php"
  VERBATIM)
add_custom_target(php_ext ALL DEPENDS ${LQ_PHP_OUT}/modules/leaseq.so)
# What the PHP tests of tests/ load (the Symfony, Messenger and WordPress ones).
set(LQ_PHP_MODULE ${LQ_PHP_OUT}/modules/leaseq.so)

# Installed (component php, the php-leaseq package) where this PHP looks for
# extensions: php-config's extension dir, taken relative to php-config's
# prefix and put under ours (so CPack's /usr gives Debian's place), without
# the rpath to the build tree.  leaseq.ini goes where Debian's PHP extensions
# ship theirs, under share/: the package's postinst copies it into
# /etc/php/VERSION/mods-available (cmake/packaging.cmake) and enables it.
foreach(q extension-dir prefix version phpapi)
  execute_process(COMMAND ${LEASEQ_PHP_CONFIG} --${q} OUTPUT_VARIABLE lq_out OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REPLACE "-" "_" lq_var "LQ_PHP_${q}")
  string(TOUPPER "${lq_var}" lq_var)
  set(${lq_var} "${lq_out}")
endforeach()
string(REGEX MATCH "^[0-9]+\\.[0-9]+" LQ_PHP_VERSION "${LQ_PHP_VERSION}")
file(RELATIVE_PATH LQ_PHP_EXT_INSTALL_DIR "${LQ_PHP_PREFIX}" "${LQ_PHP_EXTENSION_DIR}")
if(NOT LQ_PHP_VERSION OR NOT LQ_PHP_PHPAPI OR LQ_PHP_EXT_INSTALL_DIR MATCHES "^\\.\\./")
  message(FATAL_ERROR "${LEASEQ_PHP_CONFIG}: extension dir '${LQ_PHP_EXTENSION_DIR}' not under its prefix "
    "'${LQ_PHP_PREFIX}', or no version/phpapi")
endif()
install(FILES ${LQ_PHP_OUT}/modules/leaseq.so DESTINATION ${LQ_PHP_EXT_INSTALL_DIR} COMPONENT php)
install(CODE "file(RPATH_REMOVE FILE \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${LQ_PHP_EXT_INSTALL_DIR}/leaseq.so\")"
  COMPONENT php)
install(FILES ${PROJECT_SOURCE_DIR}/dist/debian/php-leaseq/leaseq.ini DESTINATION ${CMAKE_INSTALL_DATADIR}/php-leaseq
  COMPONENT php)
# The PHP classes (the Composer package bindings/php/php) as Debian's php-*
# library packages install theirs: share/php/Leaseq, with an autoload.php.
if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/php/src)
  install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/php/src/ DESTINATION ${CMAKE_INSTALL_DATADIR}/php/Leaseq COMPONENT php)
  install(FILES ${PROJECT_SOURCE_DIR}/dist/debian/php-leaseq/autoload.php
    DESTINATION ${CMAKE_INSTALL_DATADIR}/php/Leaseq COMPONENT php)
endif()
