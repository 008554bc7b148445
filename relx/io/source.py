"""Opening input files for the readers: plain or ``.gz``, with bounded decompression.

Every reader opens its file through :func:`open_binary` / :func:`open_text`, so every
format gets the same guarantees:

- a ``.gz`` file is decompressed as a stream; a corrupt deflate stream (``zlib.error``),
  a truncated file (``EOFError``) and a bad header (``BadGzipFile``) all become a
  :class:`ReaderError` naming the file;
- at most :data:`LIMITS.max_input_bytes` decompressed bytes are read from one input
  (a gzip bomb stops there with :class:`InputTooLarge`); formats that must be loaded whole
  (BioC JSON) stop at ``max_whole_file_bytes``;
- text is decoded as UTF-8 with a leading byte-order mark removed;
- a line longer than ``max_line_chars`` is not built in memory (:func:`read_line`).

``with input_limits(max_input_bytes=...)`` changes the limits for the current process
(``relx extract --max-input-mb``).
"""

from __future__ import annotations

import gzip
import io
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


def open_binary(path: str | Path, *, whole: bool = False) -> IO[bytes]:
    """``path`` for reading bytes (``.gz`` decompressed), capped at the input limit
    (``whole``: the lower limit of formats loaded whole)."""
    path = Path(path)
    try:
        raw: IO[bytes] = gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")
    except OSError as exc:
        raise ReaderError(path, "file", f"cannot read: {exc}") from None
    limit = LIMITS.max_whole_file_bytes if whole else LIMITS.max_input_bytes
    what = "the limit for files read whole" if whole else "the input limit"
    return io.BufferedReader(_Capped(raw, path, limit, what), buffer_size=1 << 16)


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
