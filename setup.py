"""Build the Cython engine: one list of extensions handed to cythonize."""
from Cython.Build import cythonize
from setuptools import Extension, setup

ENGINE_MODULES = ["board", "solve", "sweep", "graph"]

extensions = [
    Extension(f"lumina.engine.{name}", [f"lumina/engine/{name}.pyx"],
              extra_compile_args=["-O3"])
    for name in ENGINE_MODULES
]

setup(ext_modules=cythonize(
    extensions,
    compiler_directives={"language_level": 3, "boundscheck": False,
                         "wraparound": False, "cdivision": True,
                         "initializedcheck": False},
))
