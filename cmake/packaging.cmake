# Debian packages by CPack, one per install component:
#   libleaseqN     the shared library (lib), N its SONAME version
#   libleaseq-dev  header, static library, leaseq.pc, CMake package (dev)
#   leasectl       the tool, the systemd units, the docs (tool)
# Build them from a tree configured with -DCMAKE_INSTALL_PREFIX=/usr (so that
# GNUInstallDirs picks Debian's multiarch libdir and the units name
# /usr/bin/leasectl):  cmake --build B && (cd B && cpack -G DEB)
# tests/deb/check.sh builds, installs, uses and removes them.
set(CPACK_PACKAGE_NAME leaseq)
set(CPACK_PACKAGE_VENDOR "leaseq")
set(CPACK_PACKAGE_CONTACT "leaseq developers <leaseq@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "lease queue inside SQLite, PostgreSQL or MySQL/MariaDB")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://example.invalid/leaseq")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING IGNORE)
set(CPACK_COMPONENTS_ALL lib dev tool)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
# Dependencies of the binaries come from dpkg-shlibdeps (dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libleaseq${LEASEQ_SOVERSION})
# shlibs and the ldconfig trigger, so that packages built against it depend on it
set(CPACK_DEBIAN_LIB_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_LIB_DESCRIPTION "leaseq: leases and a task queue in your relational database (library)
 Renewable, fenced leases and a task queue (one-off, delayed, recurring,
 unique tasks) kept in SQLite, PostgreSQL or MySQL/MariaDB.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libleaseq-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS lib)
set(LQ_DEV_DEPENDS "libsqlite3-dev")
if(LEASEQ_WITH_POSTGRES)
  string(APPEND LQ_DEV_DEPENDS ", libpq-dev")
endif()
if(LEASEQ_WITH_MYSQL)
  string(APPEND LQ_DEV_DEPENDS ", default-libmysqlclient-dev | libmariadb-dev")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${LQ_DEV_DEPENDS}")
set(CPACK_DEBIAN_DEV_DESCRIPTION "leaseq: leases and a task queue in your relational database (development files)
 The header leaseq.h, the static library, leaseq.pc and the CMake package
 (find_package(leaseq)).")

set(CPACK_DEBIAN_TOOL_PACKAGE_NAME leasectl)
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_TOOL_PACKAGE_RECOMMENDS "tzdata")
set(CPACK_DEBIAN_TOOL_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/dist/debian/leasectl/postinst)
set(CPACK_DEBIAN_TOOL_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_TOOL_DESCRIPTION "leaseq: leases and a task queue in your relational database (admin tool)
 leasectl: migrate, inspect and break leases, run a command once across a
 fleet (leasectl exec), workers and pseudo-cron ticks, doctor and prune;
 with a systemd unit template for workers.")

include(CPack)
