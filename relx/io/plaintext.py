"""Plain-text reader: one ``.txt`` file is one document.

``id`` is the file stem and ``text`` the file content as read (UTF-8, line endings kept; a
leading byte-order mark is removed, so it never becomes part of the first word or entity).
The file is read whole, up to ``max_bytes`` (default: the input limit,
``--max-input-mb``; :func:`relx.io.source.read_whole`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from relx.doc import Document
from relx.io.errors import OnError, ReaderError
from relx.io.source import read_whole


def read_plaintext(path: str | Path, on_error: OnError = None,
                   max_bytes: int | None = None) -> Iterator[Document]:
    """Yield the single document of a UTF-8 text file.

    Raises ``ReaderError`` (naming the document, the file's stem) for the first invalid
    UTF-8 byte (its byte offset and line), an empty or whitespace-only file, and a file
    over ``max_bytes`` (:class:`relx.io.source.InputTooLarge`, having read one byte over
    the cap; default: the input limit). ``on_error`` is accepted for the registry's sake:
    a one-document file has no other document to go on with.
    """
    path = Path(path)
    try:
        data = read_whole(path, max_bytes)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise ReaderError(path, f"byte {exc.start} (line {line})",
                              f"not valid UTF-8: {exc.reason}") from None
        if not text.strip():
            raise ReaderError(path, "file", "empty document")
    except ReaderError as exc:
        exc.document = path.stem
        raise
    yield Document(id=path.stem, text=text, source="text")
