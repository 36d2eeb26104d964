"""Build the Cython engine: one list of extensions handed to cythonize."""
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

ENGINE_MODULES = ["board", "solve", "sweep", "graph", "felt"]

# `cdef inline` functions always inlined: the move enumeration hands each move to a
# consumer through a function pointer that is a constant at every call site, and the
# kernels are fast only when that consumer is inlined into the enumeration (GCC's own
# heuristics leave some out of line).
FLAGS = ["-O3"] if sys.platform == "win32" else [
    "-O3", "-DCYTHON_INLINE=inline __attribute__((always_inline))"]

extensions = [
    Extension(f"lumina.engine.{name}", [f"lumina/engine/{name}.pyx"], extra_compile_args=FLAGS)
    for name in ENGINE_MODULES
]

setup(ext_modules=cythonize(
    extensions,
    compiler_directives={"language_level": 3, "boundscheck": False,
                         "wraparound": False, "cdivision": True,
                         "initializedcheck": False},
))
