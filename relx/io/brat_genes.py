"""Document-level gene relations as brat collection folders (task ``gene-relations``,
``relx extract --format brat``).

brat has no document-level relation, so each document's ``.ann`` holds:

- ``T`` lines: every mention; gene and protein mentions typed ``Gene`` (other entity types,
  e.g. ``Chemical`` from a PubTator input, keep theirs);
- ``N`` lines (brat's normalisations): ``Reference`` from each gene mention to each of its
  NCBI Gene ids (``NCBIGene:7157``; the ids its gene relations use), and ``#``
  ``AnnotatorNotes`` with its namespaced ids, then its NCBI Gene ids, as the ``ppi``
  writer's (:mod:`relx.io.brat`);
- ``R`` lines: one per gene relation, typed with BioRED's type (``Association``,
  ``Positive_Correlation``, ``Negative_Correlation``, ``Bind``), from gene1's to gene2's
  mention of the genes' strongest mention pair (the evidence sentence's
  ``gene1_mention`` / ``gene2_mention`` with the best interaction score; when the genes
  have no scored pair, their two closest mentions in the first evidence sentence holding
  both, else in the document);
- ``A`` lines: ``Novel`` on a relation BioRED would call novel, and ``Confidence``
  (``low`` / ``medium`` / ``high``: calibrated probability under 0.6, under 0.8, at least
  0.8; EVEX's brat attribute) on each;
- ``#`` ``AnnotatorNotes`` on each relation: its probability, type and novelty
  probabilities, relx's GENIA reading (``event_type``, ``direction``) and the evidence
  sentence ids.

The folder's ``annotation.conf`` names these types and attributes; its ``tools.conf`` makes
``NCBIGene`` a normalisation resource, linked to NCBI Gene's pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from relx.doc import Document
from relx.ids import gene_ids, is_protein_type, join_ids, namespaced_ids
from relx.io.brat import _brat_type, _conf, _with_ncbi, _write, file_stems
from relx.io.pubtator import doc_annotations

GENE = "Gene"
#: BioRED's gene-gene relation types (annotation.conf lists them, and any other type met)
BIORED_TYPES = ("Association", "Positive_Correlation", "Negative_Correlation", "Bind")
#: ``Confidence`` attribute values, by calibrated probability (the first bound it reaches)
CONFIDENCE = ((0.8, "high"), (0.6, "medium"), (float("-inf"), "low"))

TOOLS_CONF = "\n".join([
    "# brat tool configuration written by relx: NCBI Gene ids of the N (Reference) lines",
    "[options]", "Validation\tvalidate:all", "Tokens\ttokenizer:whitespace",
    "Sentences\tsplitter:regex", "Annotation-log\tlogfile:<NONE>",
    "[normalization]",
    "NCBIGene\t<URL>:https://www.ncbi.nlm.nih.gov/gene/, "
    "<URLBASE>:https://www.ncbi.nlm.nih.gov/gene/%s", ""])


def gene_conf(entity_types: Iterable[str] = (), relation_types: Iterable[str] = ()) -> str:
    """``annotation.conf`` of a gene relation collection: ``Gene`` and the other entity
    types used, BioRED's types and the others used, ``Novel`` and ``Confidence``."""
    ents = [GENE, *sorted(set(entity_types) - {GENE})]
    rels = [*BIORED_TYPES, *sorted(set(relation_types) - set(BIORED_TYPES))]
    return "\n".join([
        "# brat annotation configuration written by relx (document-level gene relations, "
        "BioRED's types)",
        "[entities]", *ents, "[relations]", *(f"{r}\tArg1:{GENE}, Arg2:{GENE}" for r in rels),
        "[events]", "[attributes]", "Novel\tArg:<RELATION>",
        "Confidence\tArg:<RELATION>, Value:" + "|".join(v for _, v in reversed(CONFIDENCE)),
        ""])


def confidence(probability: float) -> str:
    """The ``Confidence`` value of a calibrated probability (:data:`CONFIDENCE`)."""
    return next(v for bound, v in CONFIDENCE if probability >= bound)


def _ncbi(ids: Iterable[str]) -> list[str]:
    return [i for i in ids if i.isdigit()]


def mention_pair(rel: Any, mentions: dict[str, tuple[tuple[str, ...], int]]
                 ) -> tuple[str, str] | None:
    """The ids of gene1's and gene2's mentions an ``R`` line joins (see the module
    docstring); ``mentions``: entity id -> (its gene ids, its start)."""
    scored = [ev for ev in rel.evidence if ev.gene1_mention and ev.gene2_mention
              and ev.gene1_mention in mentions and ev.gene2_mention in mentions]
    if scored:
        best = max(scored, key=lambda ev: ev.score if ev.score is not None else -1e9)
        return best.gene1_mention, best.gene2_mention
    ones = [(i, at) for i, (ids, at) in mentions.items() if rel.gene1.id in ids]
    twos = [(i, at) for i, (ids, at) in mentions.items() if rel.gene2.id in ids]
    pairs = [(abs(a - b), x, y, a, b) for x, a in ones for y, b in twos if x != y]
    for ev in rel.evidence:           # best sentence first
        inside = [p for p in pairs if ev.start <= min(p[3:]) and max(p[3:]) < ev.end]
        if inside:
            return min(inside)[1:3]
    return min(pairs)[1:3] if pairs else None


def gene_ann_lines(doc: Document, relations: Sequence[Any], ent_types: set[str],
                   rel_types: set[str]) -> list[str]:
    """The ``.ann`` lines of one document and its gene relations (the module docstring);
    the entity and relation types used are added to ``ent_types`` / ``rel_types``."""
    lines: list[str] = []
    tid: dict[str, str] = {}
    mentions: dict[str, tuple[tuple[str, ...], int]] = {}
    notes = norms = attrs = 0
    ents, _ = doc_annotations(doc)
    for e in sorted(ents, key=lambda e: (e.start, e.end)):
        if e.id in tid:
            continue
        tid[e.id] = f"T{len(tid) + 1}"
        protein = is_protein_type(e.type)
        typ = GENE if protein else _brat_type(e.type)
        ent_types.add(typ)
        frag = ";".join(f"{sp.start} {sp.end}" for sp in e.spans)
        text = " ".join(doc.text[sp.start:sp.end] for sp in e.spans).replace("\n", " ")
        lines.append(f"{tid[e.id]}\t{typ} {frag}\t{text}")
        if protein:
            mentions[e.id] = (gene_ids(e.norm_ids, e.ncbi_ids, e.text or text), e.start)
            for gid in _ncbi(mentions[e.id][0]):
                norms += 1
                lines.append(f"N{norms}\tReference {tid[e.id]} NCBIGene:{gid}\t{text}")
        ids = _with_ncbi(namespaced_ids(e.norm_ids, e.type), e.ncbi_ids)
        if ids:
            notes += 1
            lines.append(f"#{notes}\tAnnotatorNotes {tid[e.id]}\t{join_ids(ids)}")
    k = 0
    for rel in relations:
        pair = mention_pair(rel, mentions)
        if pair is None:
            continue
        k += 1
        typ = _brat_type(rel.type)
        rel_types.add(typ)
        lines.append(f"R{k}\t{typ} Arg1:{tid[pair[0]]} Arg2:{tid[pair[1]]}")
        if rel.novel:
            attrs += 1
            lines.append(f"A{attrs}\tNovel R{k}")
        attrs += 1
        lines.append(f"A{attrs}\tConfidence R{k} {confidence(rel.probability)}")
        notes += 1
        said = [f"probability={rel.probability:.4f}", f"type_probability="
                f"{rel.type_probability:.4f}", f"novel_probability={rel.novel_probability:.4f}",
                f"event_type={rel.event_type}"]
        if rel.direction:
            said.append(f"direction={rel.direction}")
        if rel.evidence:
            said.append("evidence=" + ",".join(ev.sentence_id for ev in rel.evidence))
        lines.append(f"#{notes}\tAnnotatorNotes R{k}\t{' '.join(said)}")
    return lines


def write_brat_gene_relations(items: Sequence[tuple[Document, list[Any]]], folder: Path
                              ) -> None:
    """``(document, gene relations)`` pairs as a brat collection folder: ``<doc>.txt`` and
    ``<doc>.ann`` per document, ``annotation.conf`` and ``tools.conf``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ent_types: set[str] = set()
    rel_types: set[str] = set()
    for (doc, rels), stem in zip(items, file_stems(d.id for d, _ in items), strict=True):
        _write(folder, stem, doc.text, gene_ann_lines(doc, rels, ent_types, rel_types))
    _conf(folder, gene_conf(ent_types, rel_types))
    _conf(folder, TOOLS_CONF, "tools.conf")
