"""Arrays derived from relx's data and model files, kept on disk between processes.

Loading relx rebuilds large things from the compact forms it ships: the gene lexicon's
lookup tables (~200,000 rows parsed line by line: ~0.7 s, the mouse and rat rows another
~0.5 s) and what is derived from them (a 3-gram index, sets of symbols and names), and the
PPI model's per-node tree arrays (~6 million nodes expanded: ~0.9 s). They are the same
every time for the same file, so the first process that builds them writes them here as
NumPy arrays and later processes read them back (tens of milliseconds).

- An entry is named by what it is derived from: a digest of the source bytes (the lexicon
  file, the model's packed trees) and of :data:`FORMAT`. Another file, an edited one, or
  another relx whose builders changed make other names; nothing is ever read stale.
- Entries are ``.npz`` files (uncompressed, read with ``allow_pickle=False``), written to a
  temporary file and renamed into place, so a reader never sees half an entry; a file that
  cannot be read is treated as absent and rebuilt. A process that builds an entry writes it
  in a background thread (:func:`store_soon`: ~120 MB for the shipped models, ~0.3 s of a
  first start off its path); the process waits for the writes before it exits, and
  :func:`wait` before it forks.
- Each array's data starts at a multiple of :data:`ALIGN` bytes in its file (a zip "extra"
  field pads the member's local header, as Android's ``zipalign`` does), so a reader maps
  the file (copy-on-write) and views the arrays in place instead of copying them out
  through ``zipfile`` (~0.2 s of a start for the shipped models and lexicon; the pages are
  read when used and shared by the processes that map one file). An entry that is not laid
  out so (an older one, a compressed one) is read with ``np.load`` as before.
- Where: ``RELX_CACHE_DIR``, else ``$XDG_CACHE_HOME/relx``, else ``~/.cache/relx``; when that
  cannot be written, ``<tempdir>/relx-cache-<uid>``. ``RELX_CACHE_DIR=0`` turns the cache
  off (everything is rebuilt in memory, as it would be anyway when nothing is writable).
- Entries of files no longer used (an older model, another lexicon) go away by themselves:
  an entry nobody has read for :data:`UNUSED_DAYS` days is deleted when another is written.
- A wheel ships the lexicon's entries (``relx/_arrays``, built by ``python -m
  lab.array_ship``): an entry the cache folder lacks is read from there, so a new
  environment's first run does not build them (unless the cache is off).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import mmap
import os
import struct
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import TypeVar

import numpy as np

__all__ = ["FORMAT", "UNUSED_DAYS", "cache_dir", "clear", "code_version", "digest", "entries",
           "load", "load_or_build", "prune", "store", "store_soon", "wait"]

#: part of every entry's name: raise it when a builder's output changes for the same input
FORMAT = "relx-array-cache/3"     # 3: arrays aligned for mapping (2: np.savez)

T = TypeVar("T")

#: entries unused for this many days are deleted when an entry is written (:func:`prune`)
UNUSED_DAYS = 30
#: each array's data starts at a multiple of this many bytes of its entry's file
ALIGN = 64
#: a zip local file header: signature, versions, flags, method, times, crc, sizes, name and
#: extra field lengths
_LOCAL = struct.Struct("<4s2B4HL2L2H")
#: the id of the zip extra field that pads a member's data to :data:`ALIGN` (zipalign's)
_PAD_ID = 0xD935
#: entries built when the wheel was (read-only; absent in a checkout until built)
SHIPPED = Path(__file__).resolve().parent / "_arrays"


def _writable(directory: Path, own: bool = False) -> bool:
    """``directory`` exists or can be made, and a file can be written in it; with ``own``,
    it also belongs to this user (a shared temporary folder: nobody else's entries)."""
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        if own and hasattr(os, "getuid") and directory.stat().st_uid != os.getuid():
            return False
        tempfile.TemporaryFile(dir=directory).close()
    except OSError:
        return False
    return True


_OFF = ("0", "off", "none")   # RELX_CACHE_DIR settings that turn the cache off


@cache
def _dir_for(setting: str, xdg: str, home: str) -> Path | None:
    if setting in _OFF:
        return None
    folder = Path(setting) if setting else (
        Path(xdg) / "relx" if xdg else Path(home) / ".cache" / "relx")
    if _writable(folder):
        return folder
    uid = getattr(os, "getuid", lambda: "user")()
    fallback = Path(tempfile.gettempdir()) / f"relx-cache-{uid}"
    return fallback if _writable(fallback, own=True) else None


def cache_dir() -> Path | None:
    """The folder entries are kept in (None: the cache is off, or nowhere is writable)."""
    return _dir_for(os.environ.get("RELX_CACHE_DIR", ""), os.environ.get("XDG_CACHE_HOME", ""),
                    str(Path.home()))


def digest(*parts: bytes | str | np.ndarray) -> str:
    """A short hex digest of ``parts`` (arrays by dtype, shape and bytes) and :data:`FORMAT`."""
    h = hashlib.blake2b(FORMAT.encode(), digest_size=16)
    for part in parts:
        if isinstance(part, np.ndarray):
            h.update(f"{part.dtype.str}{part.shape}".encode())
            h.update(np.ascontiguousarray(part).data)
        else:
            h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()


@cache
def code_version(path: str) -> str:
    """A short digest of the source file ``path`` (the module that builds an entry, so that
    editing it makes other entry names), or ``""`` when it cannot be read."""
    try:
        return digest(Path(path).read_bytes())[:12]
    except OSError:
        return ""


def _path(name: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / f"{name}.npz"


def load(name: str) -> dict[str, np.ndarray] | None:
    """Entry ``name``'s arrays, from the cache folder or else the shipped entries (None:
    absent, unreadable, or the cache is off)."""
    wait(name)
    path = _path(name)
    if path is not None and path.is_file():
        found = _read(path)
        if found is not None:
            with contextlib.suppress(OSError):
                os.utime(path)      # in use: kept by prune()
            return found
    if os.environ.get("RELX_CACHE_DIR", "") in _OFF:
        return None
    shipped = SHIPPED / f"{name}.npz"
    return _read(shipped) if shipped.is_file() else None


def _read(path: Path) -> dict[str, np.ndarray] | None:
    try:
        mapped = _mapped(path)
        if mapped is not None:
            return mapped
        with np.load(path, allow_pickle=False) as npz:
            return {key: npz[key] for key in npz.files}
    except Exception:   # whatever a damaged file raises (zip, zlib, npy header): rebuilt
        return None


def _mapped(path: Path) -> dict[str, np.ndarray] | None:
    """The arrays of an entry laid out by :func:`_write`, viewed in a copy-on-write map of
    the file (writable, aligned, equal to ``np.load``'s); None for any other layout (a
    damaged or empty file raises, as ``np.load`` would)."""
    with open(path, "rb") as f:     # an empty file cannot be mapped: _read gives None
        buffer = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
    arrays = {}
    with zipfile.ZipFile(buffer) as zf:
        for info in zf.infolist():
            if info.compress_type != zipfile.ZIP_STORED or not info.filename.endswith(".npy"):
                return None
            local = _LOCAL.unpack_from(buffer, info.header_offset)
            if local[0] != b"PK\x03\x04":
                return None
            start = info.header_offset + _LOCAL.size + local[10] + local[11]
            head = io.BytesIO(buffer[start:start + min(info.file_size, 1 << 16)])
            if np.lib.format.read_magic(head) != (1, 0):
                return None
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(head)
            offset, count = start + head.tell(), int(np.prod(shape, dtype=np.int64))
            if (dtype.hasobject or offset % ALIGN
                    or offset + count * dtype.itemsize > start + info.file_size):
                return None
            array = np.frombuffer(buffer, dtype=dtype, count=count, offset=offset)
            arrays[info.filename[:-4]] = array.reshape(shape, order="F" if fortran else "C")
    return arrays


def _write(f, arrays: Mapping[str, np.ndarray]) -> None:
    """Write ``arrays`` to the binary file ``f`` as an uncompressed ``.npz`` (``np.load``
    reads it) whose arrays' data start at multiples of :data:`ALIGN` bytes."""
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        for key, value in arrays.items():
            array = np.asanyarray(value)
            npy = io.BytesIO()
            try:
                np.lib.format.write_array(npy, array, version=(1, 0), allow_pickle=False)
            except ValueError:      # a header too long for format 1.0: read by np.load
                npy = io.BytesIO()
                np.lib.format.write_array(npy, array, allow_pickle=False)
            data = npy.getbuffer()
            size = 2 if data[6] == 1 else 4     # the header length's bytes, by version
            head = np.lib.format.MAGIC_LEN + size + int.from_bytes(data[8:8 + size], "little")
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            before = zf.fp.tell() + _LOCAL.size + len(info.filename.encode()) + head
            pad = (-(before + 4)) % ALIGN
            info.extra = struct.pack("<2H", _PAD_ID, pad) + bytes(pad)
            zf.writestr(info, data)


def store(name: str, arrays: Mapping[str, np.ndarray]) -> Path | None:
    """Write entry ``name`` (atomically); the path, or None when it could not be written."""
    wait(name)
    return _store(name, arrays)


def _store(name: str, arrays: Mapping[str, np.ndarray]) -> Path | None:
    path = _path(name)
    if path is None:
        return None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                _write(f, arrays)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return None
    prune()
    return path


#: the entries :func:`store_soon` is writing, by name
_WRITING: dict[str, threading.Thread] = {}
_WRITING_LOCK = threading.Lock()


def store_soon(name: str, arrays: Mapping[str, np.ndarray]) -> None:
    """:func:`store` in a background thread (the arrays must not change until it is done):
    the caller goes on using what it built while the entry is written. The thread is not a
    daemon, so an exiting process waits for it; :func:`load` of the same name waits for it,
    and :func:`wait` for all of them."""
    wait(name)
    writer = threading.Thread(target=_store, args=(name, dict(arrays)),
                              name=f"relx-array-cache {name}")
    with _WRITING_LOCK:
        writer.start()
        _WRITING[name] = writer


def wait(name: str | None = None) -> None:
    """Wait for the entry ``name`` (all entries: None) :func:`store_soon` is writing; call
    before a fork or ``os._exit``."""
    with _WRITING_LOCK:
        writers = [_WRITING.pop(name, None)] if name else list(_WRITING.values())
        if name is None:
            _WRITING.clear()
    for writer in writers:
        if writer is not None:
            writer.join()


def prune(max_age_days: float = UNUSED_DAYS) -> int:
    """Delete the entries no process has read or written for ``max_age_days`` (those of
    replaced files and models); how many were deleted. Run after every write."""
    cutoff = time.time() - max_age_days * 86400
    gone = 0
    for path in entries():
        with contextlib.suppress(OSError):
            if path.stat().st_mtime < cutoff:
                path.unlink()
                gone += 1
    return gone


def load_or_build(name: str, build: Callable[[], Mapping[str, np.ndarray]],
                  read: Callable[[Mapping[str, np.ndarray]], T]) -> T:
    """``read`` of entry ``name``'s arrays; when the entry is absent or ``read`` refuses it
    (``KeyError``, ``ValueError``), of ``build()``'s arrays, stored for the next process
    (:func:`store_soon`)."""
    found = load(name)
    if found is not None:
        try:
            return read(found)
        except (KeyError, ValueError, UnicodeDecodeError):
            pass
    built = dict(build())
    store_soon(name, built)
    return read(built)


def entries() -> list[Path]:
    """The entries in the cache folder now (none when the cache is off)."""
    folder = cache_dir()
    return sorted(folder.glob("*.npz")) if folder is not None else []


def clear() -> int:
    """Delete every entry (the next start rebuilds what it needs); how many were deleted."""
    gone = 0
    for path in entries():
        try:
            path.unlink()
            gone += 1
        except OSError:     # gone (another process's clear), or mapped where that keeps it
            pass
    return gone
