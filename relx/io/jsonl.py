"""relx JSONL: one ``Document`` per line, the data model serialised by pydantic."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import ValidationError

from relx.doc import Document
from relx.io.atomic import atomic_open
from relx.io.errors import OnError, ReaderError, report
from relx.io.source import LineTooLong, decode_error, open_text, read_line


def document_to_json(doc: Document) -> str:
    """One document as a JSON line (no trailing newline)."""
    return doc.model_dump_json(exclude_none=True)


def write_jsonl(docs: Iterable[Document], path: str | Path) -> int:
    """Write documents atomically, one JSON object per line; returns the count."""
    n = 0
    with atomic_open(path) as fh:
        for doc in docs:
            fh.write(document_to_json(doc))
            fh.write("\n")
            n += 1
    return n


def read_jsonl(path: str | Path, on_error: OnError = None) -> Iterator[Document]:
    """Stream documents written by :func:`write_jsonl` (plain or ``.gz``), line by line;
    ``on_error`` is called with the error of a line that is not a document (then reading
    goes on; without it the error is raised)."""
    path = Path(path)
    lineno = 0
    try:
        with open_text(path) as fh:
            while True:
                lineno += 1
                try:
                    line = read_line(fh, path, lineno)
                except LineTooLong as exc:
                    report(on_error, exc)
                    continue
                if not line:
                    break
                if not line.strip():
                    continue
                try:
                    yield Document.model_validate_json(line)
                except ValidationError as exc:
                    first = exc.errors()[0]
                    loc = ".".join(str(x) for x in first["loc"])
                    report(on_error, ReaderError(path, f"line {lineno}", f"{loc}: {first['msg']}",
                                                 document=_id_of(line)))
    except UnicodeDecodeError as exc:
        raise decode_error(path, f"after line {lineno}", exc) from None


def _id_of(line: str) -> str | None:
    """The ``id`` of a JSON line that is not a valid document, when it has one."""
    import json

    try:
        value = json.loads(line).get("id")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None
