"""relx.skops_reader's npy header reading (the models' arrays)."""

from __future__ import annotations

import io

import numpy as np

from relx.skops_reader import _read_header


def test_an_npy_header_is_read_again_after_a_spurious_system_error() -> None:
    # CPython 3.11 < 3.11.8 (gh-106905): ast may raise SystemError under a GC race
    buf = io.BytesIO()
    np.save(buf, np.arange(6, dtype="<i4").reshape(2, 3))
    buf.seek(0)
    np.lib.format.read_magic(buf)
    calls = []

    def flaky(fp: io.BytesIO) -> tuple:
        calls.append(fp.tell())
        if len(calls) == 1:
            fp.read(7)     # a failed parse may have consumed bytes
            raise SystemError("AST constructor recursion depth mismatch")
        return np.lib.format.read_array_header_1_0(fp)

    shape, fortran, dtype = _read_header(flaky, buf)
    assert (shape, fortran, dtype) == ((2, 3), False, np.dtype("<i4"))
    assert calls[0] == calls[1]       # read again from the header's start
