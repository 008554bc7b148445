"""Silver PPI training pairs from BioRED train's document-level gene--gene relations
(issue 51): extra training data for the mention-level interaction model
(``relx evaluate --extra-train``, ``lab.results`` ablation rows).

    python -m lab.relations.biored_pairs --out runs/silver/biored-fit.jsonl

Only the registered fit split of ``Train.PubTator.gz`` is read (``sha1(pmid) % 5 != 0``;
the dev split and ``kept-pmids.txt`` are dropped by :func:`lab.relations.corpus.
read_relations`, the one BioRED reader of lab.relations). Each abstract is parsed by relx
(``Parser(ner=False)``: the gold gene mentions are the entities). Every same-sentence pair
of gene mentions with non-empty, disjoint NCBI Gene id sets and non-overlapping spans is a
candidate; labels (``--labels``):

- ``document``: positive when an id of one mention and an id of the other form a BioRED
  gene--gene relation of the document (any type), else negative;
- ``trigger`` (a multi-instance refinement): a pair of a related gene pair is positive only
  when an interaction word (:data:`INTERACTION_STEMS`) lies between the two mentions; the
  related gene pair's other mention pairs are left out (neither positive nor negative);
  pairs of unrelated genes stay negative.

Documents sharing a sentence with the PPI corpora (``--exclude``; default the three
learning-format corpora in ``$RELX_DATA``) are dropped, as ``relx silver-ppi`` does.
The pairs are marked silver (``Relation.silver``): with ``decision_rows = "gold"`` only the
gold corpora's pairs set the ensemble's threshold.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from itertools import combinations
from pathlib import Path

from lab.genes.biored import shared_dir
from lab.relations.corpus import RelDoc, read_relations
from relx.doc import Document, Entity, Relation

LABELS = ("document", "trigger")
PPI_CORPORA = ("AImed", "BioInfer", "IEPA")

#: word stems of an interaction statement, matched at a word start between the mentions
INTERACTION_STEMS = (
    "interact", "bind", "bound", "complex", "associat", "phosphorylat", "dephosphorylat",
    "ubiquitin", "acetylat", "methylat", "cleav", "recruit", "activat", "inhibit", "inactivat",
    "regulat", "upregulat", "downregulat", "induc", "suppress", "stimulat", "block", "mediat",
    "target", "modulat", "antagon", "agonist", "ligand", "receptor", "heterodimer", "dimer",
    "partner", "coimmunoprecipitat", "co-immunoprecipitat", "precipitat", "colocaliz",
    "co-localiz", "express", "transactivat", "repress", "degrad", "stabiliz", "enhanc",
    "promot", "attenuat", "abolish", "impair", "requir", "depend", "signal", "cooperat",
    "compet", "substrate", "kinase", "contact", "link", "couple", "coupl", "effect",
    "affect", "control", "trigger", "increas", "decreas", "reduc", "elevat", "potentiat")
_TRIGGER = re.compile(r"(?<![A-Za-z])(?:" + "|".join(map(re.escape, INTERACTION_STEMS)) + ")",
                      re.IGNORECASE)


def _ids(e: Entity) -> frozenset[str]:
    return frozenset(n.split(":", 1)[1] for n in e.norm_ids or () if n.startswith("NCBIGene:"))


def _bounds(e: Entity) -> tuple[int, int]:
    return min(s.start for s in e.spans), max(s.end for s in e.spans)


def _overlap(a: Entity, b: Entity) -> bool:
    return any(s.start < t.end and t.start < s.end for s in a.spans for t in b.spans)


def related(a: frozenset[str], b: frozenset[str], relations: Iterable[frozenset[str]]) -> bool:
    """Some id of ``a`` and some id of ``b`` form one of ``relations`` (id pairs)."""
    rels = set(relations)
    return any(frozenset((x, y)) in rels for x in a for y in b if x != y)


def trigger_between(text: str, a: Entity, b: Entity) -> bool:
    """An interaction word (:data:`INTERACTION_STEMS`) in ``text`` between the mentions."""
    (s1, e1), (s2, e2) = sorted((_bounds(a), _bounds(b)))
    return _TRIGGER.search(text, e1, max(e1, s2)) is not None


def biored_ppi_document(doc: RelDoc, parsed: Document, labels: str = "document") -> Document:
    """``parsed`` (relx's parse of ``doc.document()``: gene mentions as entities carrying
    ``NCBIGene:`` norm ids) with every candidate same-sentence gene pair as a labelled
    silver relation (see the module doc for ``labels``)."""
    if labels not in LABELS:
        raise ValueError(f"labels must be one of {LABELS}, not {labels!r}")
    sentences = []
    for s in parsed.sentences:
        rels = []
        for a, b in combinations(s.entities, 2):
            ia, ib = _ids(a), _ids(b)
            if not ia or not ib or ia & ib or _overlap(a, b):
                continue
            label = related(ia, ib, doc.relations)
            if label and labels == "trigger" and not trigger_between(parsed.text, a, b):
                continue
            rels.append(Relation(id=f"{s.id}.p{len(rels)}", arg1=a.id, arg2=b.id,
                                 label=label, silver=True))
        sentences.append(s.model_copy(update={"relations": rels}))
    return parsed.model_copy(update={"sentences": sentences, "source": "BioRED-silver"})


def parse_biored(docs: Sequence[RelDoc], parser=None) -> list[Document]:
    """relx's parses of ``docs`` with their gold gene mentions as the entities."""
    from relx.parse.pipeline import Parser

    parser = parser or Parser(ner=False)
    return list(parser.parse_documents(d.document() for d in docs))


def count(docs: Iterable[Document]) -> tuple[int, int]:
    """(pairs, positive pairs) of silver documents."""
    rels = [r for d in docs for s in d.sentences for r in s.relations]
    return len(rels), sum(bool(r.label) for r in rels)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="relx JSONL to write")
    ap.add_argument("--labels", choices=LABELS, default="document")
    ap.add_argument("--shared", default=None, help="default: $RELX_DATA or ../shared")
    ap.add_argument("--exclude", type=Path, action="append", default=None,
                    help="drop documents sharing a sentence with this corpus (repeatable; "
                         "default: the three PPI corpora)")
    ap.add_argument("--parses", type=Path, default=None,
                    help="relx JSONL cache of the fit split's parses (read if present, "
                         "else written)")
    a = ap.parse_args(argv)
    from relx.ge.ppi_pairs import drop_shared_documents
    from relx.io.jsonl import read_jsonl, write_jsonl
    from relx.ppi.evaluate import load_corpus

    docs = read_relations(a.shared, "fit")
    if a.parses is not None and a.parses.is_file():
        parsed = list(read_jsonl(a.parses))
        if [p.id for p in parsed] != [d.pmid for d in docs]:
            raise SystemExit(f"{a.parses}: not the parses of the fit split's documents")
    else:
        parsed = parse_biored(docs)
        if a.parses is not None:
            a.parses.parent.mkdir(parents=True, exist_ok=True)
            write_jsonl(parsed, a.parses)
    silver = [biored_ppi_document(d, p, a.labels) for d, p in zip(docs, parsed, strict=True)]
    ppi = shared_dir(a.shared) / "corpora" / "ppi"
    exclude = a.exclude or [ppi / f"{n}-learning-format.xml.gz" for n in PPI_CORPORA]
    others = [x for p in exclude for x in load_corpus(p)]
    silver, dropped = drop_shared_documents(silver, others)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl(silver, a.out)
    n, pos = count(silver)
    print(f"saved {a.out}: {n} pairs ({pos} positive, labels {a.labels}) from {len(silver)} "
          f"BioRED fit-split documents; {len(dropped)} dropped as shared with the PPI corpora"
          f"{': ' + ', '.join(dropped) if dropped else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
