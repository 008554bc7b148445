"""relx JSONL: one ``Document`` per line, the data model serialised by pydantic."""

from __future__ import annotations

import gzip
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import ValidationError

from relx.doc import Document
from relx.io.atomic import atomic_open
from relx.io.errors import ReaderError


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


def read_jsonl(path: str | Path) -> Iterator[Document]:
    """Read documents written by :func:`write_jsonl` (plain or ``.gz``)."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield Document.model_validate_json(line)
            except ValidationError as exc:
                first = exc.errors()[0]
                loc = ".".join(str(x) for x in first["loc"])
                raise ReaderError(path, f"line {lineno}", f"{loc}: {first['msg']}") from None
