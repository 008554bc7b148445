"""relx JSONL: one ``Document`` per line, the data model serialised by pydantic."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from relx.doc import Document
from relx.io.atomic import atomic_open
from relx.io.errors import OnError, ReaderError, report
from relx.io.source import LineTooLong, numbered_lines


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
    for lineno, line in numbered_lines(path):
        if isinstance(line, LineTooLong):
            report(on_error, line)
            continue
        if not line.strip():
            continue
        try:
            yield Document.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(x) for x in first["loc"])
            report(on_error, ReaderError(path, f"line {lineno}", f"{loc}: {first['msg']}",
                                         document=_id_of(line)))


def _id_of(line: str) -> str | None:
    """The ``id`` of a JSON line that is not a valid document, when it has one."""
    import json

    try:
        value = json.loads(line).get("id")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def write_records_part(records: Iterable[Any], path: str | Path) -> None:
    """Records (relations, events: pydantic models) one JSON object per line, atomically
    (a part of a batch's per-input JSONL; :func:`relx.io.atomic.concat_files` joins them)."""
    with atomic_open(path) as fh:
        fh.writelines(r.model_dump_json() + "\n" for r in records)


def write_document_line(doc: Document, fh: TextIO) -> None:
    """One document as one JSON line on an open text stream."""
    fh.write(document_to_json(doc) + "\n")
