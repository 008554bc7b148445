"""Many strings as two NumPy arrays, for files that store arrays (model files, relx's
start-up cache): :func:`pack_strings` and its inverse :func:`unpack_strings`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

__all__ = ["pack_named", "pack_strings", "unpack_named", "unpack_strings"]


def pack_strings(strings: Sequence[str]) -> dict[str, np.ndarray]:
    """Strings as two arrays a model file stores compactly: ``utf8`` (uint8, the strings'
    UTF-8 bytes back to back) and ``ends`` (int64, each string's end offset)."""
    encoded = [x.encode("utf-8") for x in strings]
    ends = np.cumsum([len(b) for b in encoded], dtype=np.int64)
    return {"utf8": np.frombuffer(b"".join(encoded), dtype=np.uint8).copy(), "ends": ends}


def unpack_strings(packed: Mapping[str, np.ndarray]) -> list[str]:
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


def pack_named(name: str, strings: Iterable[str]) -> dict[str, np.ndarray]:
    """:func:`pack_strings` as the arrays ``<name>.utf8`` and ``<name>.ends``, to store beside
    other arrays in one file."""
    return {f"{name}.{part}": a for part, a in pack_strings(list(strings)).items()}


def unpack_named(arrays: Mapping[str, np.ndarray], name: str) -> list[str]:
    """Inverse of :func:`pack_named`."""
    return unpack_strings({part: arrays[f"{name}.{part}"] for part in ("utf8", "ends")})
