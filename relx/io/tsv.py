"""Relations as TSV: one row per reported relation, with a header (for spreadsheets).

Columns (:data:`TSV_COLUMNS`): the document and sentence ids, each protein's text, offsets
and ``;``-joined namespaced ids, the score, the sentence, the negated/speculated flags
(``true``/``false``), the calibrated probability and the threshold it passed, the
interaction type, direction and event score. Tabs and line breaks in values become spaces;
numbers have 4 decimals; a missing value is empty.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from relx.ids import join_ids
from relx.io.atomic import atomic_open, concat_files

TSV_COLUMNS = ("document_id", "sentence_id", "entity1", "entity1_start", "entity1_end",
               "entity1_ids", "entity2", "entity2_start", "entity2_end", "entity2_ids",
               "score", "sentence", "negated", "speculated", "probability", "threshold",
               "type", "direction", "event_score")


def _clean(value: object) -> str:
    return str(value).replace("\t", " ").replace("\n", " ").replace("\r", " ")


def _flag(value: bool | None) -> str:
    return "true" if value else "false"


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def tsv_row(r: Any) -> str:
    """One relation record (an :class:`~relx.ppi.extract.ExtractedRelation`) as a TSV line."""
    return "\t".join(_clean(x) for x in (
        r.document_id, r.sentence_id, r.entity1.text, r.entity1.start, r.entity1.end,
        join_ids(r.entity1.norm_ids), r.entity2.text, r.entity2.start, r.entity2.end,
        join_ids(r.entity2.norm_ids), f"{r.score:.4f}", r.sentence, _flag(r.negated),
        _flag(getattr(r, "speculated", False)), _num(getattr(r, "probability", None)),
        _num(getattr(r, "threshold", None)), getattr(r, "type", "Interaction"),
        getattr(r, "direction", None) or "", _num(getattr(r, "event_score", None)))) + "\n"


def write_tsv_part(relations: Iterable[Any], path: str | Path) -> None:
    """Rows without the header (a part of a batch's per-input TSV), atomically."""
    with atomic_open(path) as fh:
        fh.writelines(map(tsv_row, relations))


def join_tsv(parts: list[Path], target: Path) -> None:
    """The header, then every part's rows."""
    concat_files(parts, target, "\t".join(TSV_COLUMNS) + "\n")


def write_tsv(relations: Iterable[Any], path: str | Path) -> int:
    """Relations as one TSV file with its header, atomically; returns the row count."""
    n = 0
    with atomic_open(path) as fh:
        fh.write("\t".join(TSV_COLUMNS) + "\n")
        for r in relations:
            fh.write(tsv_row(r))
            n += 1
    return n
