"""Naming on text no naming round was written from: relx's gene mentions on the BioNLP-ST
GE 2011 abstracts (docs/genes.md, round 65 on), on the abstracts of the PPI corpora
(AIMed, BioInfer, IEPA: their sentences joined per document; round 70 on) or on the GE
2013 full-text sections (PMC; round 71 on), their ids, and what a change of relx changed.

    python -m lab.genes.unseen --out runs/genes/ge-ids-r65.tsv [--before runs/genes/ge-ids-r64.tsv]
    python -m lab.genes.unseen --corpus ppi --out runs/genes/ppi-ids-r70.tsv [--before ...]

Writes one row per gene/protein mention (document, start, end, text, relx's ids best first,
``-`` for none, sentence, the reason a mention has no id, species) and prints the count of mentions without an id; with ``--before`` (an
earlier run's file), every mention whose ids changed, with its sentence, to be judged by
reading (GE's abstracts carry no gene ids, so this is a reading, not a score).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENE_TYPES = ("Protein", "Gene", "GeneOrGeneProduct", "Protein_family_or_group")


PPI_CORPORA = ("AImed", "BioInfer", "IEPA")


def ppi_abstracts(limit: int | None = None) -> list:
    """The PPI corpora's documents as plain text (their sentences joined by spaces)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _abstracts import SHARED

    from relx.doc import Document
    from relx.io.ppi_xml import read_ppi_xml

    docs = [Document(id=d.id, text=" ".join(s.text for s in d.sentences))
            for name in PPI_CORPORA
            for d in read_ppi_xml(SHARED / "corpora" / "ppi" / f"{name}-learning-format.xml.gz")]
    return docs[:limit] if limit else docs


def ge2013_sections(limit: int | None = None) -> list:
    """The BioNLP-ST GE 2013 full-text sections (PMC papers, one document per section)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _abstracts import SHARED

    from relx.doc import Document

    files = sorted((SHARED / "corpora" / "bionlp-st-ge" / "2013").rglob("PMC-*.txt"))
    docs = [Document(id=f.stem, text=f.read_text(encoding="utf-8")) for f in files]
    return docs[:limit] if limit else docs


def mentions(limit: int | None = None, corpus: str = "ge"
             ) -> list[tuple[str, int, int, str, str, str, str, str]]:
    """(document, start, end, text, ids joined by ``,`` or ``-``, sentence, why no id
    (:mod:`relx.genes.no_id`; empty with an id), species) per mention."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _abstracts import ge_abstracts

    import relx

    ex = relx.load(task="ppi", types=False)
    docs = {"ge": ge_abstracts, "ppi": ppi_abstracts, "ge2013": ge2013_sections}[corpus](limit)
    rows = []
    for doc, _, _ in ex.annotate(docs):
        for s in doc.sentences:
            for e in s.entities:
                if e.type in GENE_TYPES:
                    rows.append((doc.id, e.start, e.end, doc.text[e.start:e.end],
                                 ",".join(e.norm_ids[:3]) or "-",
                                 doc.text[s.start:s.end].replace("\t", " "),
                                 e.norm_reason or "", e.taxon or ""))
    return rows


def read(path: Path) -> dict[tuple[str, int, int], tuple[str, str]]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        doc, start, end, text, ids, *_ = line.split("\t")
        out[doc, int(start), int(end)] = (text, ids)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--before", type=Path)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--corpus", choices=("ge", "ppi", "ge2013"), default="ge")
    a = ap.parse_args(argv)
    rows = mentions(a.limit, a.corpus)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text("".join("\t".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} gene mentions, {sum(r[4] == '-' for r in rows)} without an id")
    if a.before:
        old = read(a.before)
        changed = [(r, old.get((r[0], r[1], r[2]), ("", "(not a mention)"))[1])
                   for r in rows if old.get((r[0], r[1], r[2]), ("", None))[1] != r[4]]
        new_keys = {(r[0], r[1], r[2]) for r in rows}
        gone = [(k, v) for k, v in old.items() if k not in new_keys]
        print(f"{len(changed)} mentions changed, {len(gone)} no longer mentions")
        for r, before in changed:
            print(f"{r[0]}\t{r[3]!r}\t{before} -> {r[4]}\t{r[5][:200]}")
        for k, (text, ids) in gone:
            print(f"{k[0]}\t{text!r}\t{ids} -> (not a mention)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
