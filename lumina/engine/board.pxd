# cython: language_level=3
from libc.stdint cimport uint64_t
from lumina.engine.rules cimport Core

cdef class Board:
    cdef Core c
    cdef readonly object level
    cdef uint64_t _encode(self, positions, flags) except? 0
