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
