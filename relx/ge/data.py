"""GE corpora as (standoff annotation, parsed document) pairs, with a JSONL parse cache.

The parse of a document depends on its text, the ``.a1`` proteins (tokens are split at
their boundaries) and the parse pipeline; a cache file is reused only when its documents
match the requested ones by id and text.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from relx.doc import Document, StandoffDocument
from relx.io.jsonl import read_jsonl, write_jsonl
from relx.io.standoff import read_standoff_dir

log = logging.getLogger(__name__)


@dataclass
class GEDoc:
    """One document: its standoff annotation (gold ``.a2`` when known) and its parse."""

    standoff: StandoffDocument
    parsed: Document

    @property
    def id(self) -> str:
        return self.standoff.id


def parse_standoff(docs: Sequence[StandoffDocument], parser=None) -> list[Document]:
    """Parse each document's text with relx's pipeline, keeping the ``.a1`` proteins."""
    from relx.parse.pipeline import Parser

    parser = parser or Parser(ner=False)
    return list(parser.parse_documents(d.to_document() for d in docs))


def _cache_ok(cached: list[Document], docs: Sequence[StandoffDocument]) -> bool:
    if len(cached) != len(docs):
        return False
    return all(c.id == d.id and c.text == d.text for c, d in zip(cached, docs, strict=True))


def load_ge(directory: str | Path, cache: str | Path | None = None,
            parser=None, skip_ids: Collection[str] = ()) -> list[GEDoc]:
    """Read a GE directory (``*.txt/.a1[/.a2]``) and parse it; reuse/write ``cache`` JSONL
    (always of the whole directory). Documents whose id is in ``skip_ids`` are left out,
    before parsing."""
    docs = read_standoff_dir(directory)
    keep = [d.id not in skip_ids for d in docs]
    if cache is not None and Path(cache).is_file():
        cached = list(read_jsonl(cache))
        if _cache_ok(cached, docs):
            return [GEDoc(s, p) for s, p, k in zip(docs, cached, keep, strict=True) if k]
        log.warning("parse cache %s does not match %s; re-parsing", cache, directory)
    docs = [d for d, k in zip(docs, keep, strict=True) if k]
    parsed = parse_standoff(docs, parser)
    if cache is not None and all(keep):
        write_jsonl(parsed, cache)
    return [GEDoc(s, p) for s, p in zip(docs, parsed, strict=True)]


def cache_path(cache_dir: str | Path | None, directory: str | Path) -> Path | None:
    """``cache_dir/<year>-<split>.jsonl`` for a corpus directory such as ``.../2011/train``."""
    if cache_dir is None:
        return None
    d = Path(directory).resolve()
    return Path(cache_dir) / f"{d.parent.name}-{d.name}.jsonl"
