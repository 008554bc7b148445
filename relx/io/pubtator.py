"""PubTator format reader and writer, plus the annotation helpers shared with BioC.

One document is a block of lines, blocks separated by a blank line::

    PMID|t|title
    PMID|a|abstract
    PMID<TAB>start<TAB>end<TAB>mention<TAB>type[<TAB>id]     (annotation)
    PMID<TAB>RelType<TAB>id1<TAB>id2[<TAB>...]                 (relation between concept ids)

Offset convention (checked on BC5CDR: title of 59 characters, first abstract mention at
60 + its position): offsets index title and abstract joined by exactly ONE character. relx
joins them with ``"\\n"`` (as the ``bioc`` library and the PubMed reader do), so
``Document.text == title + "\\n" + abstract`` (just ``title`` when the abstract is empty).
Offsets are Unicode character offsets, end-exclusive.

Relations name *concepts* (normalised ids), not mentions: each argument becomes the first
kept mention whose norm ids contain that id. relx has no document-level entity list, so
annotated documents carry one unsplit whole-text sentence ``{id}.s0`` (no tokens) holding
all entities and relations; the parse stage splits it.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

from relx.doc import Document, Entity, Relation, Sentence, Span
from relx.ids import (
    ANNOTATION_TYPES,
    READ_TYPES,
    gene_ids,
    is_directed_type,
    is_protein_type,
    join_ids,
    namespaced_id,
    namespaced_ids,
)
from relx.io.atomic import atomic_open
from relx.io.errors import DOCUMENT_ERRORS, OnError, ReaderError, document_error, report
from relx.io.source import LineTooLong, numbered_lines

_NO_ID = {"", "-", "-1"}
_OFFSET = re.compile(r"[0-9]+")
#: a column meant as an offset even when it is not a valid one (``-5``, ``3.0``): a line
#: whose second column is one is an annotation (a relation line's second column is its type)
_NUMBERISH = re.compile(r"\s*[-+]?[0-9][0-9.eE+-]*\s*")
_HEAD = re.compile(r"^([^|\t]*)\|([ta])\|(.*)$", re.S)


def type_filter(types: Collection[str] | None) -> frozenset[str] | None:
    """Lower-cased wanted types; ``None`` keeps every type."""
    return None if types is None else frozenset(t.lower() for t in types)


def keep_type(type_: str, wanted: frozenset[str] | None) -> bool:
    """True when ``type_`` passes a :func:`type_filter`."""
    return wanted is None or type_.lower() in wanted


def split_ids(value: str | None) -> list[str]:
    """Normalised ids of one annotation: ``;``, ``,`` or ``|`` separated; ``-`` means none."""
    if not value:
        return []
    return [v.strip() for v in re.split(r"[;,|]", value) if v.strip() not in _NO_ID]


def annotated_document(doc_id: str, text: str, entities: list[Entity],
                       relations: list[Relation], source: str) -> Document:
    """A document whose entities live in one unsplit whole-text sentence ``{id}.s0``."""
    doc = Document(id=doc_id, text=text, source=source)
    if entities:
        doc.sentences.append(Sentence(id=f"{doc_id}.s0", start=0, end=len(text), text=text,
                                      entities=entities, relations=relations))
    return doc


def doc_annotations(doc: Document) -> tuple[list[Entity], list[Relation]]:
    """All entities and relations of a document (over all its sentences), ids deduplicated."""
    ents: dict[str, Entity] = {}
    rels: dict[str, Relation] = {}
    for sent in doc.sentences:
        for e in sent.entities:
            ents.setdefault(e.id, e)
        for r in sent.relations:
            rels.setdefault(r.id, r)
    return list(ents.values()), list(rels.values())


def by_concept(entities: list[Entity]) -> dict[str, Entity]:
    """First mention of each normalised id."""
    first: dict[str, Entity] = {}
    for e in entities:
        for nid in e.norm_ids:
            first.setdefault(nid, e)
    return first


# ---------------------------------------------------------------------------- reader

class _Block:
    """Lines of one document collected before it is built."""

    def __init__(self, pmid: str, title: str, line: int) -> None:
        self.pmid, self.title, self.line = pmid, title, line
        self.abstract: str | None = None
        self.anns: list[tuple[int, list[str]]] = []
        self.rels: list[tuple[int, list[str]]] = []
        self.error: ReaderError | None = None   # the block's first error: not built

    def build(self, path: Path, wanted: frozenset[str] | None) -> Document:
        if self.error is not None:
            raise self.error
        text = self.title + "\n" + self.abstract if self.abstract else self.title
        ents: list[Entity] = []
        concepts: dict[str, str] = {}   # an id as written -> namespaced (relx.ids)
        for lineno, cols in self.anns:
            where = f"line {lineno}"
            if len(cols) < 5:
                raise ReaderError(path, where, "annotation needs PMID, start, end, mention, type")
            if not (_OFFSET.fullmatch(cols[1]) and _OFFSET.fullmatch(cols[2])):
                raise ReaderError(path, where, f"offsets must be whole numbers from 0, not "
                                               f"{cols[1]!r} and {cols[2]!r}")
            start, end, mention, type_ = int(cols[1]), int(cols[2]), cols[3], cols[4]
            if not 0 <= start <= end <= len(text):
                raise ReaderError(path, where, f"offsets {start}-{end} outside the text of "
                                               f"document {self.pmid} (length {len(text)})")
            if text[start:end] != mention:
                raise ReaderError(path, where, f"mention {mention!r} does not match the text "
                                               f"at {start}-{end}: {text[start:end]!r}")
            raw = split_ids(cols[5] if len(cols) > 5 else None)
            ids = namespaced_ids(raw, type_)
            concepts.update({**{r: namespaced_id(r, type_) for r in raw}, **{i: i for i in ids}})
            if keep_type(type_, wanted):
                ents.append(Entity(id=f"T{len(ents) + 1}", spans=[Span(start=start, end=end)], type=type_,
                                   text=mention, norm_ids=ids))
        first = by_concept(ents)
        rels: list[Relation] = []
        for k, (lineno, cols) in enumerate(self.rels, 1):
            ids = cols[2:4]
            for cid in ids:
                if cid not in concepts:
                    raise ReaderError(path, f"line {lineno}",
                                      f"relation names {cid!r}, not an annotated concept")
            args = [first.get(concepts[cid]) for cid in ids]
            if args[0] is not None and args[1] is not None:
                rels.append(Relation(id=f"R{k}", arg1=args[0].id, arg2=args[1].id,
                                     type=cols[1], label=True))
        return annotated_document(self.pmid, text, ents, rels, "pubtator")


def _line_into(block: _Block | None, path: Path, lineno: int, line: str) -> None:
    """Add an abstract, annotation or relation line to ``block`` (errors name the line)."""
    if block is None:
        raise ReaderError(path, f"line {lineno}", "abstract or annotation line before a "
                                                  "title line")
    head = _HEAD.match(line)
    if head:
        pmid, _, body = head.groups()
        if pmid != block.pmid or block.abstract is not None:
            raise ReaderError(path, f"line {lineno}",
                              f"unexpected abstract line for {pmid!r} in document {block.pmid!r}")
        block.abstract = body
        return
    cols = line.split("\t")
    if cols[0] != block.pmid:
        raise ReaderError(path, f"line {lineno}", f"PMID {cols[0]!r} inside document {block.pmid!r}")
    if len(cols) >= 5 and (_NUMBERISH.fullmatch(cols[1]) or (
            _NUMBERISH.fullmatch(cols[2]) and cols[4].lower() in ANNOTATION_TYPES)):
        block.anns.append((lineno, cols))   # an annotation, its offsets checked when built
    elif len(cols) >= 4:
        block.rels.append((lineno, cols))
    else:
        raise ReaderError(path, f"line {lineno}", "neither an annotation nor a relation line")


def read_pubtator(path: str | Path, types: Collection[str] | None = READ_TYPES,
                  on_error: OnError = None) -> Iterator[Document]:
    """Stream the documents of a PubTator file (plain or ``.gz``), line by line.

    Only annotations whose type is in ``types`` become entities (``None``: all types);
    relations are kept when both concepts have a kept mention. ``on_error`` is called with
    the error of a document that cannot be read (its lines are skipped up to the next
    document); without it the error is raised.
    """
    path = Path(path)
    wanted = type_filter(types)
    block: _Block | None = None
    orphan = False      # inside lines that belong to no readable document

    def finish() -> Iterator[Document]:
        if block is None:
            return
        try:
            doc = block.build(path, wanted)
        except (ReaderError, *DOCUMENT_ERRORS) as exc:
            report(on_error, document_error(path, f"line {block.line}", exc, block.pmid))
            return
        yield doc

    try:
        for lineno, raw in numbered_lines(path):
            if isinstance(raw, LineTooLong):   # an overlong line: its document is lost
                if block is not None and block.error is None:
                    block.error = raw
                elif block is None:
                    orphan = True
                    report(on_error, raw)
                continue
            line = raw.rstrip("\n").removesuffix("\r")
            if not line.strip():
                yield from finish()
                block, orphan = None, False
                continue
            head = _HEAD.match(line)
            if head and head.group(2) == "t":
                yield from finish()     # no blank line between documents
                block, orphan = _Block(head.group(1), head.group(3), lineno), False
                continue
            if orphan or (block is not None and block.error is not None):
                continue
            try:
                _line_into(block, path, lineno, line)
            except ReaderError as exc:
                if block is None:
                    orphan = True
                    report(on_error, exc)
                else:
                    block.error = exc
        yield from finish()
    except OSError as exc:
        raise ReaderError(path, "file", f"cannot read: {exc}") from None


# ---------------------------------------------------------------------------- writer

def _flat(s: str) -> str:
    """Make ``s`` fit on one PubTator line without changing its length."""
    return s.replace("\r", " ").replace("\n", " ").replace("\t", " ")


def _flag(value: bool | None) -> str:
    return "-" if value is None else "true" if value else "false"


def _pair_columns(rels: list[Relation]) -> list[str]:
    """Score, negated and speculated of a pair's relations in one document: the best score
    of the asserted ones (of all when every one is negated); negated / speculated when every
    relation is. Empty when none carries any of them (annotated input)."""
    if all(r.score is None and r.negated is None and r.speculated is None for r in rels):
        return []
    asserted = [r for r in rels if not r.negated] or rels
    scores = [r.score for r in asserted if r.score is not None]
    neg = [r.negated for r in rels if r.negated is not None]
    spec = [r.speculated for r in rels if r.speculated is not None]
    return [f"{max(scores):.4f}" if scores else "-", _flag(all(neg) if neg else None),
            _flag(all(spec) if spec else None)]


def _title_abstract(doc: Document) -> tuple[str, list[str]]:
    """The document's text flattened (offsets kept) and its ``|t|`` and ``|a|`` lines."""
    if any(c in doc.id for c in "|\t\n\r"):
        raise ValueError(f"document id {doc.id!r} cannot be written as a PubTator PMID")
    title, _, abstract = doc.text.partition("\n")
    flat = _flat(title) + ("\n" + _flat(abstract) if abstract else "")
    return flat, [f"{doc.id}|t|{_flat(title)}", f"{doc.id}|a|{_flat(abstract)}"]


def format_pubtator(doc: Document) -> str:
    """One document as a PubTator block (with its trailing blank line).

    The text is split at its first newline into title and abstract; other line breaks and
    tabs become spaces (same length, so offsets hold). Entities with several spans are
    written as their covering span; gene/protein types are written ``Gene`` (PubTator's
    type), others as they are (``Chemical``); the id column holds the entity's NCBI Gene ids
    as PubTator writes them, bare GeneIDs (``7157``; :attr:`relx.doc.Entity.ncbi_ids`, from
    relx's grounding of human and mouse genes), else its namespaced ids (``HGNC:11998``,
    ``FPLX:ERK``, ``RGD:3889``; :mod:`relx.ids`). Relations with ``label`` False are
    not written; each concept pair is written once per relation type (an undirected one in
    the order first seen, a directed one agent first: arg1 -> arg2 unless its ``direction``
    is ``entity2->entity1``), its arguments the entities' first
    ids (an entity without ids gets its entity id in the id column, others ``-``), followed,
    for predicted relations, by the score, ``negated`` and ``speculated`` columns
    (``true``/``false``/``-``; see :func:`_pair_columns`).
    """
    flat, lines = _title_abstract(doc)
    ents, rels = doc_annotations(doc)
    by_id = {e.id: e for e in ents}
    rels = [r for r in rels if r.label is not False and r.arg1 in by_id and r.arg2 in by_id]
    args = {a for r in rels for a in (r.arg1, r.arg2)}
    ids = {e.id: [i.partition(":")[2] for i in e.ncbi_ids] if e.ncbi_ids
           else namespaced_ids(e.norm_ids, e.type) for e in ents}
    for e in sorted(ents, key=lambda e: (e.start, e.end)):
        cid = join_ids(ids[e.id]) if ids[e.id] else (e.id if e.id in args else "-")
        typ = "Gene" if is_protein_type(e.type) else e.type
        lines.append(f"{doc.id}\t{e.start}\t{e.end}\t{_flat(flat[e.start:e.end])}\t"
                     f"{_flat(typ)}\t{cid}")
    pairs: dict[tuple[str, str, str], tuple[str, str, list[Relation]]] = {}
    for r in rels:
        a1, a2 = (ids[a][0] if ids[a] else a for a in (r.arg1, r.arg2))
        if r.direction == "entity2->entity1":   # the acting side first
            a1, a2 = a2, a1
        key = (r.type, a1, a2) if is_directed_type(r.type) else (r.type, *sorted((a1, a2)))
        pairs.setdefault(key, (a1, a2, []))[2].append(r)   # the first-seen order is kept
    for (typ, _, _), (a1, a2, group) in pairs.items():
        cols = "".join("\t" + c for c in _pair_columns(group))
        lines.append(f"{doc.id}\t{_flat(typ)}\t{a1}\t{a2}{cols}")
    return "\n".join(lines) + "\n\n"


def write_pubtator(docs: Iterable[Document], path: str | Path) -> int:
    """Write documents atomically in PubTator format (``.gz`` compressed); returns the count."""
    path = Path(path)
    n = 0
    with atomic_open(path, "wb") as fh:
        out = gzip.GzipFile(fileobj=fh, mode="wb", mtime=0) if path.suffix == ".gz" else fh
        for doc in docs:
            out.write(format_pubtator(doc).encode("utf-8"))
            n += 1
        if out is not fh:
            out.close()
    return n


# --- document-level gene relations (task gene-relations) -------------------------------


def format_gene_pubtator(doc: Document, relations: Iterable[Any]) -> str:
    """One document and its gene relations as a PubTator block shaped as BioRED's
    (``Train.PubTator``): gene mentions ``PMID<TAB>start<TAB>end<TAB>text<TAB>
    GeneOrGeneProduct<TAB>ids`` (the gene ids the relations use, ``,``-joined as BioRED
    writes several: bare NCBI Gene ids, else relx's best id, else ``text:`` + the
    lowercased text; :func:`relx.ids.gene_ids`), other mentions as :func:`format_pubtator`
    writes them, then one line per relation ``PMID<TAB>Type<TAB>ID1<TAB>ID2<TAB>Novel|No``
    (``relations``: :class:`relx.ppi.gene_relations.GeneRelation`, best first)."""
    flat, lines = _title_abstract(doc)
    ents, _ = doc_annotations(doc)
    for e in sorted(ents, key=lambda e: (e.start, e.end)):
        if is_protein_type(e.type):
            typ, cid = "GeneOrGeneProduct", ",".join(
                gene_ids(e.norm_ids, e.ncbi_ids, e.text or doc.text[e.start:e.end]))
        else:
            typ, cid = e.type, join_ids(namespaced_ids(e.norm_ids, e.type)) or "-"
        lines.append(f"{doc.id}\t{e.start}\t{e.end}\t{_flat(flat[e.start:e.end])}\t"
                     f"{_flat(typ)}\t{_flat(cid)}")
    for r in relations:
        lines.append(f"{doc.id}\t{_flat(r.type)}\t{_flat(r.gene1.id)}\t"
                     f"{_flat(r.gene2.id)}\t{'Novel' if r.novel else 'No'}")
    return "\n".join(lines) + "\n\n"


def write_gene_pubtator(items: Iterable[tuple[Document, list[Any]]],
                        path: str | Path) -> int:
    """Documents with their gene relations (``(document, relations)`` pairs) as BioRED-shaped
    PubTator (:func:`format_gene_pubtator`), atomically; returns the document count."""
    n = 0
    with atomic_open(Path(path)) as fh:
        for doc, rels in items:
            fh.write(format_gene_pubtator(doc, rels))
            n += 1
    return n
