"""Document-level gene relations as BioC XML, shaped as BioRED's BioC (task
``gene-relations``, ``relx extract --format bioc``).

Each document keeps its passages (:func:`relx.io.bioc.to_bioc`'s: title and abstract,
a paper's paragraphs); each gene mention is an annotation with infons ``type``
``GeneOrGeneProduct`` and ``identifier`` -- the gene ids the relations use, ``,``-joined as
BioRED writes several (bare NCBI Gene ids; :func:`relx.ids.gene_ids`) -- and
``relx_identifier`` (relx's namespaced ids), with ``species`` (``NCBITaxon:9606``) and
the grounding's ``confidence`` where relx set them; each gene relation is a document-level
relation, like BioRED's without nodes, whose infons are BioRED's ``entity1``, ``entity2``,
``type`` and ``novel`` (``Novel`` / ``No``), then relx's: ``type_scheme`` (``BioRED``),
``probability``, ``threshold``, ``type_probability``, ``novel_probability``, relx's GENIA
reading (``event_type``, ``event_type_scheme``, ``direction`` ``gene1->gene2``... when
directed, ``event_score``) and ``evidence``: the evidence sentences' document offsets,
best first (``start-end;start-end``; none when the genes never share a sentence).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import bioc

from relx.doc import Document
from relx.ids import gene_ids, is_protein_type, join_ids, namespaced_ids
from relx.io.bioc import _bioc_document, _xml_safe, grounding_infons, write_bioc
from relx.io.pubtator import doc_annotations


def _num(x: float | None) -> str | None:
    return None if x is None else f"{x:.4f}"


def gene_relations_to_bioc(doc: Document, relations: Iterable[Any]) -> bioc.BioCDocument:
    """A document and its gene relations (:class:`relx.ppi.gene_relations.GeneRelation`)
    as a BioC document (see the module docstring)."""
    bdoc = _bioc_document(doc.id, doc.text, doc.source, doc)
    ents, _ = doc_annotations(doc)
    for e in sorted(ents, key=lambda e: (e.start, e.end)):
        ann = bioc.BioCAnnotation()
        ann.id = e.id
        pieces = [doc.text[s.start:s.end] for s in e.spans]
        ann.text = _xml_safe(pieces[0] if len(pieces) == 1 else e.text or " ".join(pieces))
        if is_protein_type(e.type):
            ann.infons["type"] = "GeneOrGeneProduct"
            ann.infons["identifier"] = ",".join(gene_ids(e.norm_ids, e.ncbi_ids,
                                                         e.text or pieces[0]))
        else:
            ann.infons["type"] = e.type
        ids = join_ids(namespaced_ids(e.norm_ids, e.type))
        if ids:
            ann.infons["relx_identifier" if is_protein_type(e.type) else "identifier"] = ids
        ann.infons.update(grounding_infons(e))
        for s in e.spans:
            ann.add_location(bioc.BioCLocation(s.start, s.end - s.start))
        next(p for p in reversed(bdoc.passages) if p.offset <= e.spans[0].start
             ).add_annotation(ann)
    for k, r in enumerate(relations):
        rel = bioc.BioCRelation()
        rel.id = f"R{k}"
        infons = {"entity1": r.gene1.id, "entity2": r.gene2.id, "type": r.type,
                  "novel": "Novel" if r.novel else "No", "type_scheme": r.type_scheme,
                  "probability": _num(r.probability), "threshold": _num(r.threshold),
                  "type_probability": _num(r.type_probability),
                  "novel_probability": _num(r.novel_probability),
                  "event_type": r.event_type, "event_type_scheme": r.event_type_scheme,
                  "direction": r.direction, "event_score": _num(r.event_score),
                  "evidence": ";".join(f"{ev.start}-{ev.end}" for ev in r.evidence) or None,
                  "model": f"{r.model} {r.model_version}"}
        rel.infons.update({key: _xml_safe(str(v)) for key, v in infons.items()
                           if v is not None})
        bdoc.add_relation(rel)
    return bdoc


def write_bioc_gene_relations(items: Iterable[tuple[Document, list[Any]]], path: str | Path,
                              fmt: str = "xml") -> int:
    """``(document, gene relations)`` pairs as one BioC collection (``xml`` or ``json``),
    atomically; returns the document count."""
    return write_bioc(items, path, fmt=fmt, convert=lambda t: gene_relations_to_bioc(*t))


def write_bioc_gene_part(items: Iterable[tuple[Document, list[Any]]], path: str | Path
                         ) -> None:
    """A batch chunk's documents and gene relations as BioC XML (joined by
    :func:`relx.io.bioc.join_bioc`)."""
    write_bioc_gene_relations(items, path)
