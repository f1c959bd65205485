dnl ext-leaseq: the PHP extension over libleaseq (lib/leaseq.h).
dnl Where libleaseq is: --with-leaseq=PREFIX (PREFIX/include/leaseq.h and
dnl PREFIX/lib/libleaseq.so), else pkg-config's leaseq module.  Either is
dnl overridden by LEASEQ_CFLAGS and LEASEQ_LIBS in the environment, which is
dnl how the CMake build points it at its own build tree.
PHP_ARG_WITH([leaseq],
  [for leaseq support],
  [AS_HELP_STRING([[--with-leaseq[=DIR]]],
    [Include leaseq support (DIR: libleaseq's install prefix; default: pkg-config)])])

if test "$PHP_LEASEQ" != "no"; then
  if test -z "$LEASEQ_LIBS" && test "$PHP_LEASEQ" != "yes"; then
    LEASEQ_CFLAGS="-I$PHP_LEASEQ/include"
    LEASEQ_LIBS="-L$PHP_LEASEQ/lib -lleaseq"
    if test -d "$PHP_LEASEQ/$PHP_LIBDIR"; then
      LEASEQ_LIBS="-L$PHP_LEASEQ/$PHP_LIBDIR -lleaseq"
    fi
  fi
  PKG_CHECK_MODULES([LEASEQ], [leaseq])
  PHP_EVAL_INCLINE($LEASEQ_CFLAGS)
  PHP_EVAL_LIBLINE($LEASEQ_LIBS, LEASEQ_SHARED_LIBADD)

  old_CFLAGS=$CFLAGS
  old_LIBS=$LIBS
  CFLAGS="$CFLAGS $LEASEQ_CFLAGS"
  LIBS="$LIBS $LEASEQ_LIBS"
  AC_CHECK_HEADER([leaseq.h], [], [AC_MSG_ERROR([leaseq.h not found (LEASEQ_CFLAGS=$LEASEQ_CFLAGS)])])
  AC_CHECK_FUNC([lq_runner_new], [], [AC_MSG_ERROR([libleaseq not found (LEASEQ_LIBS=$LEASEQ_LIBS)])])
  CFLAGS=$old_CFLAGS
  LIBS=$old_LIBS

  PHP_ADD_LIBRARY(pthread, 1, LEASEQ_SHARED_LIBADD)
  PHP_SUBST(LEASEQ_SHARED_LIBADD)
  AC_DEFINE(HAVE_LEASEQ, 1, [ext-leaseq])
  PHP_NEW_EXTENSION(leaseq, leaseq.c args.c exception.c db.c lease.c task.c worker.c signals.c flow.c, $ext_shared,,
    [-Wall -Wextra -Wno-unused-parameter -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1])
fi
