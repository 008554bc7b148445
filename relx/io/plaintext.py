"""Plain-text reader: one ``.txt`` file is one document.

``id`` is the file stem and ``text`` the file content exactly as read (UTF-8, line endings
and a byte-order mark kept, so standoff offsets over the same file still map).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from relx.doc import Document
from relx.io.errors import ReaderError


def read_plaintext(path: str | Path) -> Iterator[Document]:
    """Yield the single document of a UTF-8 text file.

    Raises ``ReaderError`` naming the byte offset (and line) of the first invalid UTF-8
    byte, and for an empty or whitespace-only file.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ReaderError(path, "file", f"cannot read: {exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ReaderError(path, f"byte {exc.start} (line {line})",
                          f"not valid UTF-8: {exc.reason}") from None
    if not text.strip():
        raise ReaderError(path, "file", "empty document")
    yield Document(id=path.stem, text=text, source="text")
