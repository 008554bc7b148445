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
            doc = Document.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(x) for x in first["loc"])
            report(on_error, ReaderError(path, f"line {lineno}", f"{loc}: {first['msg']}",
                                         document=_id_of(line)))
            continue
        problem = outside_text(doc)
        if problem is not None:
            report(on_error, ReaderError(path, f"line {lineno}", problem, document=doc.id))
            continue
        yield doc


def outside_text(doc: Document) -> str | None:
    """What of ``doc`` lies outside its text (a sentence, token, entity span or
    abbreviation), or None when everything is inside ``0 <= start <= end <= len(text)``."""
    n = len(doc.text)

    def bad(start: int, end: int) -> bool:
        return not 0 <= start <= end <= n

    for s in doc.sentences:
        if bad(s.start, s.end):
            return f"sentence {s.id}: {s.start}-{s.end} outside the text (length {n})"
        for t in s.tokens:
            if bad(t.start, t.end):
                return (f"sentence {s.id}: token {t.index} at {t.start}-{t.end} outside the "
                        f"text (length {n})")
        for e in s.entities:
            for sp in e.spans:
                if bad(sp.start, sp.end):
                    return (f"entity {e.id}: span {sp.start}-{sp.end} outside the text "
                            f"(length {n})")
    for a in doc.abbreviations:
        for sp in (a.short, a.long):
            if bad(sp.start, sp.end):
                return (f"abbreviation {a.short_text!r}: span {sp.start}-{sp.end} outside the "
                        f"text (length {n})")
    return None


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
