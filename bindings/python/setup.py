"""Build the leaseq module against an installed libleaseq.

The include and library directories come from pkg-config (leaseq.pc), or
from LEASEQ_INCLUDE_DIR / LEASEQ_LIBRARY_DIR when set (the CMake build sets
them to the source tree's lib/ and the build tree, and an rpath to the
latter unless LEASEQ_NO_RPATH is set, so that its tests load the library
just built).
"""
import os
import shlex
import subprocess

from setuptools import Extension, setup


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args, "leaseq"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    return shlex.split(out)


include_dirs, library_dirs, rpath = [], [], []
if os.environ.get("LEASEQ_INCLUDE_DIR"):
    include_dirs.append(os.environ["LEASEQ_INCLUDE_DIR"])
    library_dirs.append(os.environ["LEASEQ_LIBRARY_DIR"])
    if not os.environ.get("LEASEQ_NO_RPATH"):
        rpath.append(os.environ["LEASEQ_LIBRARY_DIR"])
else:
    include_dirs += [f[2:] for f in pkg_config("--cflags-only-I")]
    library_dirs += [f[2:] for f in pkg_config("--libs-only-L")]

setup(
    ext_modules=[
        Extension(
            "leaseq._leaseq",
            sources=[f"src/{name}.c" for name in ("module", "errors", "args", "db", "lease", "task", "worker", "flow")],
            depends=["src/leaseq_py.h"],
            include_dirs=include_dirs,
            library_dirs=library_dirs,
            runtime_library_dirs=rpath,
            libraries=["leaseq"],
            extra_compile_args=["-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-missing-field-initializers",
                                "-Wno-cast-function-type"] + (["-Werror"] if os.environ.get("LEASEQ_WERROR") else []),
        )
    ],
)
