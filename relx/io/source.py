"""Opening input files for the readers: plain or ``.gz``, with bounded decompression.

Every reader opens its file through :func:`open_binary` / :func:`open_text`, so every
format gets the same guarantees:

- a ``.gz`` file is decompressed as a stream; a corrupt deflate stream (``zlib.error``),
  a truncated file (``EOFError``) and a bad header (``BadGzipFile``) all become a
  :class:`ReaderError` naming the file;
- at most :data:`LIMITS.max_input_bytes` decompressed bytes are read from one input
  (a gzip bomb stops there with :class:`InputTooLarge`); formats that must be loaded whole
  (BioC JSON, plain text) read through :func:`read_whole`, capped at its ``max_bytes`` or
  else at the lower of ``max_input_bytes`` and ``max_whole_file_bytes``, reading at most
  one byte over the cap;
- text is decoded as UTF-8 with a leading byte-order mark removed;
- a line longer than ``max_line_chars`` is not built in memory (:func:`read_line`).

``with input_limits(max_input_bytes=...)`` changes the limits for the current process
(``relx extract --max-input-mb``).

Streams (standard input, a named pipe, a shell's ``<(...)``) can be read only once, and
every input is read twice (for its hash, then its documents): :func:`spooled` copies one
into a temporary file, under the same cap, and gives its path. A named pipe is opened
without blocking and refused when no writer sends anything (data, or its end) within
``wait_seconds`` (:data:`WRITER_WAIT_SECONDS`): a pipe nobody writes to would otherwise
block the reader for ever at open. Standard input that is a terminal is refused too.
"""

from __future__ import annotations

import gzip
import io
import os
import select
import stat
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

from relx.io.errors import ReaderError

#: what ``open`` / ``gzip`` raise on a damaged file (``BadGzipFile`` is an ``OSError``)
READ_ERRORS = (OSError, EOFError, zlib.error)


@dataclass(frozen=True)
class Limits:
    """Per-input reading limits, in decompressed bytes / characters."""

    max_input_bytes: int = 4 << 30          # 4 GiB: a PubMed baseline file is < 1 GiB
    max_whole_file_bytes: int = 512 << 20   # formats read whole (BioC JSON)
    max_line_chars: int = 2_000_000         # one PubTator / JSONL line


LIMITS = Limits()


@contextmanager
def input_limits(**changes: int) -> Iterator[Limits]:
    """Use other :class:`Limits` inside the block (e.g. ``max_input_bytes=10 << 20``)."""
    global LIMITS
    old = LIMITS
    LIMITS = replace(old, **changes)
    try:
        yield LIMITS
    finally:
        LIMITS = old


class InputTooLarge(ReaderError):
    """An input decompresses to more than the limit: reading stopped there."""


class LineTooLong(ReaderError):
    """One line over ``max_line_chars``: skipped, the rest of the file can still be read."""


class _Capped(io.RawIOBase):
    """A binary stream that raises :class:`InputTooLarge` after ``limit`` bytes and turns
    decompression errors into :class:`ReaderError`."""

    def __init__(self, inner: IO[bytes], path: Path, limit: int, what: str) -> None:
        self.inner, self.path, self.limit, self.what = inner, path, limit, what
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf: bytearray | memoryview) -> int:  # type: ignore[override]
        try:
            data = self.inner.read(len(buf))
        except zlib.error as exc:
            raise ReaderError(self.path, f"after {self.count} bytes",
                              f"corrupt compressed data: {exc}") from None
        except EOFError as exc:
            raise ReaderError(self.path, f"after {self.count} bytes",
                              f"truncated compressed file: {exc}") from None
        except OSError as exc:
            raise ReaderError(self.path, f"after {self.count} bytes",
                              f"cannot read: {exc}") from None
        n = len(data)
        self.count += n
        if self.count > self.limit:
            raise InputTooLarge(self.path, f"after {self.limit} bytes",
                                f"input larger than {self.what} ({self.limit / 2**20:g} MiB "
                                "decompressed); raise it with --max-input-mb")
        buf[:n] = data
        return n

    def close(self) -> None:
        try:
            self.inner.close()
        finally:
            super().close()


def _open_raw(path: Path) -> IO[bytes]:
    try:
        return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")
    except OSError as exc:
        raise ReaderError(path, "file", f"cannot read: {exc}") from None


def open_binary(path: str | Path, *, whole: bool = False) -> IO[bytes]:
    """``path`` for reading bytes (``.gz`` decompressed), capped at the input limit
    (``whole``: the lower limit of formats loaded whole)."""
    path = Path(path)
    raw = _open_raw(path)
    limit = whole_file_cap() if whole else LIMITS.max_input_bytes
    what = "the limit for files read whole" if whole else "the input limit"
    return io.BufferedReader(_Capped(raw, path, limit, what), buffer_size=1 << 16)


def whole_file_cap(max_bytes: int | None = None) -> int:
    """The cap of a file read whole: ``max_bytes`` when given, else the lower of the
    input limit (``--max-input-mb``) and ``max_whole_file_bytes``."""
    if max_bytes is not None:
        if max_bytes < 0:
            raise ValueError(f"max_bytes must be >= 0, not {max_bytes}")
        return max_bytes
    return min(LIMITS.max_input_bytes, LIMITS.max_whole_file_bytes)


def _too_large(path: Path, cap: int) -> InputTooLarge:
    return InputTooLarge(path, f"after {cap} bytes",
                         f"input larger than the cap of {cap / 2**20:g} MiB for a file read "
                         "whole (decompressed); raise it with --max-input-mb (max_bytes=) "
                         "or split the file")


def read_whole(path: str | Path, max_bytes: int | None = None) -> bytes:
    """All (decompressed) bytes of ``path``, at most :func:`whole_file_cap` of
    ``max_bytes``: a longer input raises :class:`InputTooLarge` naming the cap, having read
    at most one byte more than it."""
    path = Path(path)
    cap = whole_file_cap(max_bytes)
    out = io.BytesIO()
    with _Capped(_open_raw(path), path, cap + 1, "the cap") as fh:
        _copy(fh, out, path, cap)
    return out.getvalue()


def open_text(path: str | Path, *, whole: bool = False) -> IO[str]:
    """``path`` as UTF-8 text (a leading byte-order mark removed; ``\\n`` line ends kept
    as they are), capped like :func:`open_binary`."""
    return io.TextIOWrapper(open_binary(path, whole=whole), encoding="utf-8-sig", newline="\n")


def read_line(fh: IO[str], path: Path, lineno: int) -> str:
    """The next line of ``fh`` ("" at the end); a line longer than ``max_line_chars`` is
    skipped to its end and raises :class:`LineTooLong` (the caller may go on reading; any
    other error is the stream's and ends it)."""
    limit = LIMITS.max_line_chars
    line = fh.readline(limit + 1)
    if len(line) <= limit or line.endswith("\n"):
        return line
    while line and not line.endswith("\n"):
        line = fh.readline(1 << 20)
    raise LineTooLong(path, f"line {lineno}", f"line longer than {limit} characters (skipped)")


def numbered_lines(path: Path) -> Iterator[tuple[int, str | LineTooLong]]:
    """Each line of the text file ``path`` (plain or ``.gz``, capped as :func:`open_text`)
    with its number from 1, line end kept; an overlong line comes as its
    :class:`LineTooLong` and reading goes on; text that is not UTF-8 raises a
    :class:`ReaderError` naming the line after which it was met."""
    lineno = 0
    try:
        with open_text(path) as fh:
            while True:
                lineno += 1
                try:
                    line = read_line(fh, path, lineno)
                except LineTooLong as exc:
                    yield lineno, exc
                    continue
                if not line:
                    return
                yield lineno, line
    except UnicodeDecodeError as exc:
        raise decode_error(path, f"after line {lineno}", exc) from None


def decode_error(path: Path, where: str, exc: UnicodeDecodeError) -> ReaderError:
    """A decoding error as a :class:`ReaderError`."""
    return ReaderError(path, where, f"not valid UTF-8: {exc.reason}")


# --- streams ------------------------------------------------------------------------------
#: seconds a named pipe may stay silent after it is opened before it is refused
WRITER_WAIT_SECONDS = 30.0
#: what names standard input
STDIN = "-"


def is_stream(source: str | Path | IO[bytes]) -> bool:
    """Whether ``source`` can be read only once: ``"-"`` (standard input), an open binary
    stream, or a path that is not a regular file (a named pipe, ``/dev/fd/N`` of a shell's
    ``<(...)``, a character device)."""
    if not isinstance(source, str | Path):
        return True
    if str(source) == STDIN:
        return True
    try:
        return not stat.S_ISREG(os.stat(source).st_mode) and not Path(source).is_dir()
    except OSError:
        return False


@contextmanager
def spooled(source: str | Path | IO[bytes], *, max_bytes: int | None = None,
            name: str | None = None, wait_seconds: float = WRITER_WAIT_SECONDS,
            directory: str | Path | None = None) -> Iterator[Path]:
    """A path from which ``source`` can be read as often as needed (hashed, then read).

    A regular file (or folder) is its own path. A stream -- ``"-"`` (standard input), an
    open binary stream (a subprocess's ``stdout``), a named pipe or ``/dev/fd/N`` -- is
    copied once into a temporary file, removed when the block ends, named ``name`` (default:
    the stream's own file name, ``stdin`` for standard input: its suffix is what format
    detection reads, e.g. ``name="abstracts.jsonl"``). At most ``max_bytes`` are copied
    (default: the input limit, ``--max-input-mb``): a longer stream raises
    :class:`InputTooLarge` after reading one byte more. A named pipe is opened without
    blocking; when no writer sends anything within ``wait_seconds`` it is refused with a
    :class:`ReaderError` (a plain ``open`` would wait for ever). Standard input that is a
    terminal is refused (nothing is piped in).
    """
    if not is_stream(source):
        yield Path(source)   # type: ignore[arg-type]
        return
    cap = LIMITS.max_input_bytes if max_bytes is None else max_bytes
    label = Path("<stdin>") if isinstance(source, str) and source == STDIN else \
        Path(source) if isinstance(source, str | Path) else \
        Path(str(getattr(source, "name", "<stream>")))
    with tempfile.TemporaryDirectory(prefix="relx-spool-", dir=directory) as tmp:
        target = Path(tmp) / (name or _spool_name(source))
        with open(target, "wb") as out:
            if isinstance(source, str | Path) and str(source) != STDIN:
                _spool_pipe(Path(source), out, cap, wait_seconds)
            else:
                stream = sys.stdin.buffer if isinstance(source, str) else source
                if isinstance(source, str) and sys.stdin.isatty():
                    raise ReaderError(label, "stdin", "standard input is a terminal: pipe "
                                                      "the input in (relx extract - < file)")
                _copy(stream, out, label, cap)
        yield target


def _spool_name(source: str | Path | IO[bytes]) -> str:
    if isinstance(source, str | Path):
        base = "stdin" if str(source) == STDIN else Path(source).name
    else:
        base = Path(str(getattr(source, "name", "stream"))).name
    return base if base and not base.isdigit() else "stream"


def _copy(stream: IO[bytes], out: IO[bytes], label: Path, cap: int,
          first: bytes = b"") -> None:
    """``first`` and the rest of ``stream`` into ``out``, at most ``cap`` bytes."""
    total = len(first)
    out.write(first[:cap + 1])
    while total <= cap:
        data = stream.read(min(1 << 20, cap + 1 - total))
        if not data:
            break
        out.write(data)
        total += len(data)
    if total > cap:
        raise _too_large(label, cap)


def _spool_pipe(path: Path, out: IO[bytes], cap: int, wait_seconds: float) -> None:
    """Copy a named pipe (or another non-regular file): opened without blocking, refused
    when nothing comes within ``wait_seconds``, then read to its end."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise ReaderError(path, "file", f"cannot read: {exc}") from None
    with os.fdopen(fd, "rb", buffering=0) as fh:
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        deadline = time.monotonic() + wait_seconds
        first = b""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ReaderError(path, "file", f"nothing was written to this pipe within "
                                                f"{wait_seconds:g} s of opening it: start "
                                                "its writer first, or give a regular file")
            if not poller.poll(int(min(left, 0.5) * 1000) + 1):
                continue
            try:
                first = os.read(fd, min(1 << 16, cap + 1))
            except BlockingIOError:      # woken without data: keep waiting
                continue
            break   # data, or b"" once a writer has come and gone (an empty input)
        os.set_blocking(fd, True)        # a writer is there: read as a pipe is read
        _copy(fh, out, path, cap, first)
