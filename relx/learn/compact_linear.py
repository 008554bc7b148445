"""Lossless compact storage of linear models' hashed-feature weights (``coef_``).

A linear classifier over hashed features (``FeatureHasher``, 2**18 columns) has a (k, n)
float64 ``coef_`` whose columns are mostly zero (hash slots no training feature fell into),
and many of whose non-zero columns are equal (features that always occurred together get
the same weights). :func:`compact_coef` stores it as arrays a compressor does well on:

- ``column_gaps_planes``: the non-zero columns' indices as gaps to the previous one, in the
  narrowest unsigned type, as byte planes (:func:`relx.learn.packed_trees.byte_planes`);
- ``column_row_planes``: each non-zero column's row in the table of distinct columns;
- ``distinct_nonzero``: bit-packed (k, d) flags of the table's non-zero entries (row-major);
- ``values`` or ``value_planes``: those entries (float64, row by row: a class's weights
  together), as they are or as byte planes, whichever LZMA (what the model file's zip uses)
  stores smaller.

Everything compares bit patterns, so ``-0.0``, ``nan`` and every float come back bitwise
(:func:`expand_coef`; :func:`compact_coef` checks the round trip). Used by the GE event
model (``relx/ge/pipeline.py``, event model format 3): 3.9 -> 3.0 MB for its four linear
models' weights.
"""

from __future__ import annotations

import copy
import lzma
from typing import Any

import numpy as np

from relx.learn.packed_trees import byte_planes, from_byte_planes, smallest_uint

MIN_COMPACT_SIZE = 4096  # coef_ entries below which a model is stored as it is


def _lzma_size(data: bytes) -> int:
    """Bytes ``data`` takes LZMA-compressed as a zip entry (raw LZMA1, default preset)."""
    return len(lzma.compress(data, format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA1}]))


def compact_coef(coef: np.ndarray) -> dict[str, np.ndarray]:
    """(k, n) float64 weights -> the arrays listed in the module docstring (lossless)."""
    w = np.ascontiguousarray(coef, dtype=np.float64)
    if w.ndim != 2 or not np.array_equal(w.view(np.uint64), np.asarray(coef).view(np.uint64)):
        raise ValueError(f"compact_coef: expected a 2-D float64 array, got {np.asarray(coef).dtype} "
                         f"{np.shape(coef)}")
    bits = w.view(np.uint64)
    columns = np.flatnonzero(np.any(bits != 0, axis=0))
    table, column_row = np.unique(bits[:, columns].T, axis=0, return_inverse=True)
    column_row = column_row.reshape(-1)
    rows = table.T                                    # (k, d) distinct columns, bit patterns
    nonzero = rows != 0
    values = rows[nonzero].view(np.float64)
    gaps = np.diff(columns, prepend=0)
    out: dict[str, np.ndarray] = {
        "shape": np.array(w.shape, np.int64),
        "column_gaps_planes": byte_planes(gaps.astype(smallest_uint(int(gaps.max(initial=0)) + 1))),
        "column_row_planes": byte_planes(column_row.astype(smallest_uint(len(table)))),
        "distinct_nonzero": np.packbits(nonzero),
        "n_distinct": np.array([len(table)], np.int64),
    }
    planes = byte_planes(values)
    if _lzma_size(planes.tobytes()) < _lzma_size(values.tobytes()):
        out["value_planes"] = planes
    else:
        out["values"] = values
    back = expand_coef(out)
    if not np.array_equal(back.view(np.uint64), bits):
        raise AssertionError("compact_coef: round trip is not bitwise equal")
    return out


def _unplane(planes: np.ndarray) -> np.ndarray:
    """Byte planes of an unsigned integer array -> the int64 values."""
    return from_byte_planes(planes, smallest_uint(256 ** len(planes))).astype(np.int64)


def expand_coef(c: dict[str, np.ndarray], order: str = "C") -> np.ndarray:
    """:func:`compact_coef`'s arrays -> the (k, n) float64 weights, C-contiguous (``order``
    ``"F"``: column-major, the same values)."""
    k, n = (int(x) for x in c["shape"])
    columns = np.cumsum(_unplane(c["column_gaps_planes"]))
    column_row = _unplane(c["column_row_planes"])
    d = int(c["n_distinct"][0])
    nonzero = np.unpackbits(c["distinct_nonzero"], count=k * d).astype(bool).reshape(k, d)
    values = (from_byte_planes(c["value_planes"], np.float64) if "value_planes" in c
              else np.asarray(c["values"], np.float64))
    rows = np.zeros((k, d), np.uint64)
    rows[nonzero] = values.view(np.uint64)
    w = np.zeros((k, n), np.uint64, order=order)
    w[:, columns] = rows[:, column_row]
    return w.view(np.float64)


def strip_coefs(parts: dict[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, np.ndarray]]]:
    """``parts`` with each large linear model replaced by a copy without ``coef_``, and the
    removed weights as :func:`compact_coef` arrays by part name (``parts`` is not changed)."""
    out, coefs = dict(parts), {}
    for name, est in parts.items():
        coef = getattr(est, "coef_", None)
        if isinstance(coef, np.ndarray) and coef.ndim == 2 and coef.dtype == np.float64 \
                and coef.size >= MIN_COMPACT_SIZE:
            coefs[name] = compact_coef(coef)
            out[name] = copy.copy(est)
            del out[name].coef_
    return out, coefs


def restore_coefs(parts: dict[str, Any], coefs: dict[str, dict[str, np.ndarray]],
                  column_major: tuple[str, ...] = ()) -> None:
    """Put the weights :func:`strip_coefs` took out back on the loaded models (in place);
    those of ``column_major`` column-major: a model that only scores sparse rows, which
    scipy multiplies by ``coef_.T`` after copying it to C order unless it already is (a
    copy of all the weights per call: 50 MB for the GE trigger model)."""
    for name, c in coefs.items():
        parts[name].coef_ = expand_coef(c, "F" if name in column_major else "C")
