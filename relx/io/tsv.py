"""Relations as TSV: one row per reported relation, with a header (for spreadsheets);
document-level gene relations one row per gene pair (:data:`GENE_TSV_COLUMNS`).

Columns (:data:`TSV_COLUMNS`): the document and sentence ids, each protein's text, offsets
and ``;``-joined namespaced ids, the score, the sentence, the negated/speculated flags
(``true``/``false``), the calibrated probability and the threshold it passed, the
interaction type, direction and event score, then each protein's ``;``-joined NCBI Gene ids
(``NCBIGene:3558``; :attr:`relx.doc.Entity.ncbi_ids`, empty for rat genes, families and
mentions relx did not ground). Tabs and line breaks in values become spaces;
numbers have 4 decimals; a missing value is empty.

Relations from papers add three trailing columns (:data:`PAPER_COLUMNS`): the sentence's
``section`` type, ``section_heading`` and ``page`` (PDFs). One file has one set of
columns: a file holds them when any of its relations comes from a paper (then relations
of documents without sections have them empty); a file of abstracts only has the 21
columns (the 19 it had before, then the two NCBI Gene id columns).
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
               "type", "direction", "event_score", "entity1_ncbi_ids", "entity2_ncbi_ids")


def _clean(value: object) -> str:
    return str(value).replace("\t", " ").replace("\n", " ").replace("\r", " ")


def _flag(value: bool | None) -> str:
    return "true" if value else "false"


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


#: the trailing columns of a file holding relations from papers
PAPER_COLUMNS = ("section", "section_heading", "page")
_PAPER_PAD = "\t" * len(PAPER_COLUMNS)


def tsv_row(r: Any) -> str:
    """One relation record (an :class:`~relx.ppi.extract.ExtractedRelation`) as a TSV line
    (with the :data:`PAPER_COLUMNS` when it has a section)."""
    cells = [r.document_id, r.sentence_id, r.entity1.text, r.entity1.start, r.entity1.end,
             join_ids(r.entity1.norm_ids), r.entity2.text, r.entity2.start, r.entity2.end,
             join_ids(r.entity2.norm_ids), f"{r.score:.4f}", r.sentence, _flag(r.negated),
             _flag(getattr(r, "speculated", False)), _num(getattr(r, "probability", None)),
             _num(getattr(r, "threshold", None)), getattr(r, "type", "Interaction"),
             getattr(r, "direction", None) or "", _num(getattr(r, "event_score", None)),
             join_ids(getattr(r.entity1, "ncbi_ids", None) or ()),
             join_ids(getattr(r.entity2, "ncbi_ids", None) or ())]
    section = getattr(r, "section", None)
    if section is not None:
        page = getattr(r, "page", None)
        cells += [section, getattr(r, "section_heading", None) or "",
                  "" if page is None else page]
    return "\t".join(_clean(x) for x in cells) + "\n"


def _has_paper_columns(line: str) -> bool:
    return line.count("\t") >= len(TSV_COLUMNS) + len(PAPER_COLUMNS) - 1


def _header(papers: bool) -> str:
    return "\t".join((*TSV_COLUMNS, *PAPER_COLUMNS) if papers else TSV_COLUMNS) + "\n"


def _lines(rows: Iterable[str], papers: bool) -> Iterable[str]:
    """Rows padded to the file's columns."""
    for row in rows:
        yield row[:-1] + _PAPER_PAD + "\n" if papers and not _has_paper_columns(row) else row


def write_tsv_part(relations: Iterable[Any], path: str | Path) -> None:
    """Rows without the header (a part of a batch's per-input TSV), atomically."""
    with atomic_open(path) as fh:
        fh.writelines(map(tsv_row, relations))


def join_tsv(parts: list[Path], target: Path) -> None:
    """The header, then every part's rows (with the paper columns when any row has them;
    see the module docstring)."""
    existing = [p for p in parts if p.exists()]
    papers = False
    for p in existing:
        with open(p, encoding="utf-8") as fh:
            if any(_has_paper_columns(line) for line in fh):
                papers = True
                break
    if not papers:
        concat_files(parts, target, _header(False))
        return
    with atomic_open(target) as out:
        out.write(_header(True))
        for p in existing:
            with open(p, encoding="utf-8") as fh:
                out.writelines(_lines(fh, True))


def write_tsv(relations: Iterable[Any], path: str | Path) -> int:
    """Relations as one TSV file with its header, atomically; returns the row count."""
    rows = [tsv_row(r) for r in relations]
    papers = any(map(_has_paper_columns, rows))
    with atomic_open(path) as fh:
        fh.write(_header(papers))
        fh.writelines(_lines(rows, papers))
    return len(rows)


# --- document-level gene relations (task gene-relations) -------------------------------

#: one row per gene relation (:class:`relx.ppi.gene_relations.GeneRelation`): the genes'
#: ids, ``;``-joined names, mention counts and namespaced ids
#: (``NCBIGene:7157;HGNC:11998``); BioRED's type and novelty with their probabilities;
#: relx's GENIA-derived type and direction (``gene1->gene2``...); the evidence sentences'
#: count, and the best one with its id and interaction score
GENE_TSV_COLUMNS = ("document_id", "gene1_id", "gene1_names", "gene1_mentions", "gene1_ids",
                    "gene2_id", "gene2_names", "gene2_mentions", "gene2_ids", "probability",
                    "threshold", "type", "type_scheme", "type_probability", "novel",
                    "novel_probability",
                    "event_type", "event_type_scheme", "direction", "event_score",
                    "evidence_sentences", "evidence_sentence_id", "evidence_score",
                    "evidence", "model", "model_version")


def gene_tsv_row(r: Any) -> str:
    """One gene relation as a TSV line (:data:`GENE_TSV_COLUMNS`)."""
    best = r.evidence[0] if r.evidence else None
    cells = [r.document_id, r.gene1.id, ";".join(r.gene1.names), r.gene1.mentions,
             join_ids(r.gene1.ids), r.gene2.id, ";".join(r.gene2.names), r.gene2.mentions,
             join_ids(r.gene2.ids), _num(r.probability),
             _num(r.threshold), r.type, r.type_scheme, _num(r.type_probability),
             _flag(r.novel), _num(r.novel_probability), r.event_type, r.event_type_scheme,
             r.direction or "", _num(r.event_score), len(r.evidence),
             best.sentence_id if best else "", _num(best.score) if best else "",
             best.sentence if best else "", r.model, r.model_version]
    return "\t".join(_clean(x) for x in cells) + "\n"


def write_gene_tsv_part(relations: Iterable[Any], path: str | Path) -> None:
    """Gene relation rows without the header (a part of a batch's per-input TSV)."""
    with atomic_open(path) as fh:
        fh.writelines(map(gene_tsv_row, relations))


def join_gene_tsv(parts: list[Path], target: Path) -> None:
    """The gene relation header, then every part's rows."""
    concat_files(parts, target, "\t".join(GENE_TSV_COLUMNS) + "\n")


def write_gene_tsv(relations: Iterable[Any], path: str | Path) -> int:
    """Gene relations as one TSV file with its header, atomically; returns the row count."""
    rows = [gene_tsv_row(r) for r in relations]
    with atomic_open(path) as fh:
        fh.write("\t".join(GENE_TSV_COLUMNS) + "\n")
        fh.writelines(rows)
    return len(rows)
