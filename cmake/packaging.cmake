# Debian packages by CPack, one per install component:
#   libleaseqN     the shared library (lib), N its SONAME version
#   libleaseq-dev  header, static library, leaseq.pc, CMake package (dev)
#   leasectl       the tool, the systemd units, the docs (tool)
#   php-leaseq     ext-leaseq and the PHP classes (php; LEASEQ_WITH_PHP)
#   python3-leaseq the Python module (python; LEASEQ_WITH_PYTHON)
# Build them from a tree configured with -DCMAKE_INSTALL_PREFIX=/usr (so that
# GNUInstallDirs picks Debian's multiarch libdir and the units name
# /usr/bin/leasectl):  cmake --build B && (cd B && cpack -G DEB)
# tests/deb/check.sh builds, installs, uses and removes them.  Included after
# the bindings, whose install rules and PHP/Python versions it needs.
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
if(LEASEQ_WITH_PHP)
  list(APPEND CPACK_COMPONENTS_ALL php)
endif()
if(LEASEQ_WITH_PYTHON)
  list(APPEND CPACK_COMPONENTS_ALL python)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
# Dependencies of the binaries come from dpkg-shlibdeps (dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
# The bindings' modules link the libleaseq of this build: dpkg-shlibdeps must
# find it here (it names no package for it: that is the component depends').
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR})

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

if(LEASEQ_WITH_PHP)
  # As Debian's PHP extension packages: the PHP ABI through the phpapi-N
  # virtual package of every PHP SAPI, php-common's phpenmod and ucf for the
  # maintainer scripts; libleaseqN through the component depends.
  set(CPACK_DEBIAN_PHP_PACKAGE_NAME php-leaseq)
  set(CPACK_DEBIAN_PHP_PACKAGE_SECTION php)
  set(CPACK_COMPONENT_PHP_DEPENDS lib)
  set(CPACK_DEBIAN_PHP_PACKAGE_DEPENDS "phpapi-${LQ_PHP_PHPAPI}, php-common, ucf")
  if(EXISTS ${PROJECT_SOURCE_DIR}/bindings/php/php/src)
    # what the classes' composer.json suggests, by Debian's names
    set(CPACK_DEBIAN_PHP_PACKAGE_SUGGESTS "php-symfony-lock, php-symfony-messenger")
  endif()
  set(lq_scripts "")
  foreach(script postinst prerm postrm)
    configure_file(${PROJECT_SOURCE_DIR}/dist/debian/php-leaseq/${script}.in
      ${PROJECT_BINARY_DIR}/dist/debian/php-leaseq/${script} @ONLY)
    list(APPEND lq_scripts ${PROJECT_BINARY_DIR}/dist/debian/php-leaseq/${script})
  endforeach()
  set(CPACK_DEBIAN_PHP_PACKAGE_CONTROL_EXTRA "${lq_scripts}")
  set(CPACK_DEBIAN_PHP_PACKAGE_CONTROL_STRICT_PERMISSION ON)
  set(CPACK_DEBIAN_PHP_DESCRIPTION "leaseq: leases and a task queue in your relational database (PHP)
 ext-leaseq, the PHP ${LQ_PHP_VERSION} extension over libleaseq (classes Db, Lease,
 Task, Worker, Runner of namespace Leaseq), enabled for every SAPI, and the
 PHP classes in /usr/share/php/Leaseq (require_once 'Leaseq/autoload.php').")
endif()

if(LEASEQ_WITH_PYTHON)
  # The module's .so is built for one CPython: that version and no other,
  # as dh_python3's python3:Depends says for an extension module.
  execute_process(COMMAND ${LQ_PY_EXE} -c
    "import sys; v = sys.version_info; print(f'{v[0]}.{v[1]};{v[0]}.{v[1] + 1};{sys.base_prefix}')"
    OUTPUT_VARIABLE lq_py OUTPUT_STRIP_TRAILING_WHITESPACE)
  list(GET lq_py 0 lq_py_version)
  list(GET lq_py 1 lq_py_next)
  list(GET lq_py 2 lq_py_prefix)
  if(CMAKE_INSTALL_PREFIX STREQUAL "/usr" AND NOT lq_py_prefix STREQUAL "/usr")
    message(WARNING "python3-leaseq: the module is built by ${LQ_PY_EXE} (of ${lq_py_prefix}), not by the "
      "system's python3; -DLEASEQ_PYTHON=/usr/bin/python3 builds it for the system's")
  endif()
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-leaseq)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  set(CPACK_COMPONENT_PYTHON_DEPENDS lib)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "python3 (>= ${lq_py_version}~), python3 (<< ${lq_py_next})")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/dist/debian/python3-leaseq/postinst ${PROJECT_SOURCE_DIR}/dist/debian/python3-leaseq/prerm)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_CONTROL_STRICT_PERMISSION ON)
  set(CPACK_DEBIAN_PYTHON_DESCRIPTION "leaseq: leases and a task queue in your relational database (Python 3)
 The leaseq module for Python ${lq_py_version}, in C over libleaseq: leases,
 tasks, workers, and enqueue inside the application's transaction.")
endif()

include(CPack)
