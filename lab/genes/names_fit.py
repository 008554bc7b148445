"""Grounding of BioRED Train's gold gene mentions on the issue 50 *fit split* (docs/genes.md:
``sha1(pmid) % 5 != 0``), with lexicon sources left out or not, and the grounder's load time.

    python -m lab.genes.names_fit [--shared ../shared] [--exclude designation ...]

Each gold ``GeneOrGeneProduct`` mention (BioRED's own spans) is grounded by
:func:`relx.genes.document.ground_document` (species from the text); per gold species (the
gold id in NCBI's human or mouse ``gene_info``, else other): best id right (the first norm
id's NCBI Gene id is a gold id), any right (one of ``ncbi_ids`` is), no id. BioRED Dev/Test
are never read; the development split is left out here.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import tempfile
import time
from collections import Counter
from pathlib import Path

from relx.genes.document import ground_document
from relx.genes.lexicon import NCBI_SOURCES, Grounder
from relx.genes.ncbi_gene import default_ncbi_gene
from relx.io.pubtator import read_pubtator


def fit_split(pmid: str) -> bool:
    """True for a PMID of the fit split (docs/genes.md, issue 50 protocol)."""
    return int(hashlib.sha1(pmid.encode("ascii")).hexdigest(), 16) % 5 != 0


def _gene_ids(path: Path) -> set[str]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        next(fh)
        return {"NCBIGene:" + line.split("\t", 2)[1] for line in fh}


def _fit_docs(shared: Path) -> list:
    """The fit split's documents, annotations only (BioRED's relation lines name variant
    ids relx's PubTator reader does not know; they are not needed here)."""
    src = shared / "corpora" / "biored" / "Train.PubTator.gz"
    with gzip.open(src, "rt", encoding="utf-8") as fh, tempfile.NamedTemporaryFile(
            "w", suffix=".pubtator", encoding="utf-8", delete=False) as out:
        for line in fh:
            cols = line.split("\t")
            if len(cols) >= 4 and "|" not in cols[0] and not cols[1].isdigit():
                continue
            out.write(line)
    try:
        return [d for d in read_pubtator(out.name) if fit_split(d.id)]
    finally:
        Path(out.name).unlink()


def score(docs: list, grounder: Grounder, human: set[str], mouse: set[str]) -> dict:
    """Counts per gold species of the fit split's gold gene mentions."""
    table = default_ncbi_gene()
    c: Counter = Counter()
    for d in docs:
        gold = {e.id: set(e.norm_ids) for s in d.sentences for e in s.entities
                if e.type == "GeneOrGeneProduct"}
        for s in ground_document(d, grounder).sentences:
            for e in s.entities:
                if e.id not in gold:
                    continue
                g = gold[e.id]
                sp = "human" if g & human else "mouse" if g & mouse else "other"
                c[sp + ".n"] += 1
                c[sp + ".best_right"] += bool(set(table.ncbi_ids(e.norm_ids[:1])) & g)
                c[sp + ".any_right"] += bool(set(e.ncbi_ids or ()) & g)
                c[sp + ".no_id"] += not e.norm_ids
    return dict(sorted(c.items()))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=Path("../shared"))
    ap.add_argument("--exclude", nargs="*", default=None,
                    help="lexicon sources to leave out (default: compare none with NCBI's)")
    a = ap.parse_args(argv)
    folder = a.shared / "lexicons" / "ncbi-gene"
    human = _gene_ids(folder / "Homo_sapiens.gene_info.gz")
    mouse = _gene_ids(folder / "Mus_musculus.gene_info.gz")
    docs = _fit_docs(a.shared)
    runs = [a.exclude] if a.exclude is not None else [list(NCBI_SOURCES), []]
    for excluded in runs:
        g = Grounder(exclude_sources=excluded)
        t = time.perf_counter()
        len(g)
        load = time.perf_counter() - t
        print(json.dumps({"excluded": excluded, "docs": len(docs),
                          "load_seconds": round(load, 3), **score(docs, g, human, mouse)}))


if __name__ == "__main__":
    main()
