# The Python module (bindings/python) is an optional part, found when a
# python3 with its C headers and setuptools is there.  Which python3: the
# PATH may lead to an interpreter of its own (pyenv, a virtualenv) without the
# distribution's packages (pytest, psycopg, Django), so each python3 on the
# PATH and the system's is tried, and the first that has those packages wins
# (else the first that can build the module).  LEASEQ_PYTHON names one
# explicitly.
set(LEASEQ_PYTHON "" CACHE FILEPATH "The python3 that builds and tests the leaseq module (empty: found)")
set(LQ_PY_FOUND FALSE)
set(LQ_PY_EXE "${LEASEQ_PYTHON}")
if(NOT LQ_PY_EXE)
  string(REPLACE ":" ";" lq_path "$ENV{PATH}")
  set(lq_candidates "")
  foreach(dir IN LISTS lq_path ITEMS /usr/bin)
    if(dir AND EXISTS "${dir}/python3" AND NOT "${dir}/python3" IN_LIST lq_candidates)
      list(APPEND lq_candidates "${dir}/python3")
    endif()
  endforeach()
  set(lq_can_build "")
  foreach(py IN LISTS lq_candidates)
    execute_process(COMMAND "${py}" -c
      "import os, sysconfig, setuptools; assert os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h'))"
      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0)
      if(NOT lq_can_build)
        set(lq_can_build "${py}")
      endif()
      execute_process(COMMAND "${py}" -c "import pytest" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
      if(rc EQUAL 0)
        set(LQ_PY_EXE "${py}")
        break()
      endif()
    endif()
  endforeach()
  if(NOT LQ_PY_EXE)
    set(LQ_PY_EXE "${lq_can_build}")
  endif()
endif()
# A sanitizer build's libleaseq needs the sanitizer runtime loaded first,
# which an ordinary interpreter does not do: AUTO leaves the module out
# (ON builds it; its tests then need LD_PRELOAD of the runtime).
if(LQ_PY_EXE)
  set(LQ_PY_FOUND TRUE)
  if((LEASEQ_SANITIZE OR LEASEQ_FUZZ) AND (NOT LEASEQ_WITH_PYTHON OR LEASEQ_WITH_PYTHON STREQUAL "AUTO"))
    set(LQ_PY_FOUND FALSE)
  endif()
endif()
lq_optional_part(LEASEQ_WITH_PYTHON "${LQ_PY_FOUND}" "Build the Python module (bindings/python)"
  "apt-get install python3-dev python3-setuptools")
if(LEASEQ_WITH_PYTHON)
  message(STATUS "leaseq: python module built with ${LQ_PY_EXE}")
endif()
