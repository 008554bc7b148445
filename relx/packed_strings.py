"""Many strings as two NumPy arrays, for files that store arrays (model files, relx's
start-up cache): :func:`pack_strings` and its inverse :func:`unpack_strings`."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["pack_strings", "unpack_strings"]


def pack_strings(strings: Sequence[str]) -> dict[str, np.ndarray]:
    """Strings as two arrays a model file stores compactly: ``utf8`` (uint8, the strings'
    UTF-8 bytes back to back) and ``ends`` (int64, each string's end offset)."""
    encoded = [x.encode("utf-8") for x in strings]
    ends = np.cumsum([len(b) for b in encoded], dtype=np.int64)
    return {"utf8": np.frombuffer(b"".join(encoded), dtype=np.uint8).copy(), "ends": ends}


def unpack_strings(packed: dict[str, np.ndarray]) -> list[str]:
    """Inverse of :func:`pack_strings`: one UTF-8 decode of the bytes with a NUL inserted
    at each string end, split there (a string holding a NUL: one decode per string)."""
    ends = np.asarray(packed["ends"], dtype=np.int64)
    if len(ends) == 0:
        return []
    data = np.asarray(packed["utf8"], dtype=np.uint8)[:int(ends[-1])]
    if data.all():
        return np.insert(data, ends[:-1], 0).tobytes().decode("utf-8").split("\0")
    raw, ends_list = data.tobytes(), ends.tolist()
    starts = [0, *ends_list[:-1]]
    return [raw[a:b].decode("utf-8") for a, b in zip(starts, ends_list, strict=True)]
