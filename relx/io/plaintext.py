"""Plain-text reader: one ``.txt`` file is one document.

``id`` is the file stem and ``text`` the file content as read (UTF-8, line endings kept; a
leading byte-order mark is removed, so it never becomes part of the first word or entity).
The file is read whole, up to the limit of :mod:`relx.io.source` for such files.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from relx.doc import Document
from relx.io.errors import OnError, ReaderError
from relx.io.source import open_binary


def read_plaintext(path: str | Path, on_error: OnError = None) -> Iterator[Document]:
    """Yield the single document of a UTF-8 text file.

    Raises ``ReaderError`` naming the byte offset (and line) of the first invalid UTF-8
    byte, and for an empty or whitespace-only file (``on_error`` is accepted for the
    registry's sake: a one-document file has no other document to go on with).
    """
    path = Path(path)
    with open_binary(path, whole=True) as fh:
        data = fh.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ReaderError(path, f"byte {exc.start} (line {line})",
                          f"not valid UTF-8: {exc.reason}") from None
    if not text.strip():
        raise ReaderError(path, "file", "empty document")
    yield Document(id=path.stem, text=text, source="text")
