"""The dictionary of annotated names (docs/genes.md, naming round 10): built from BioRED
train's fit split, measured out of fold, written for relx.

    python -m lab.genes.annotated_names --cv [--json runs/annotated-names-cv.json]
    python -m lab.genes.annotated_names --write relx/data/annotated_names.tsv.gz --variant A1

Only the fit split is read (``sha1(pmid) % 5 != 0``); BioRED Dev/Test never, and the
development split's documents never enter a dictionary. A gold gene mention with one NCBI
Gene id gives ``(document, text, gene)``, the gene as relx's id: HGNC for a human gene, and a
mouse or rat gene as its human ortholog when it has exactly one, else its own MGI / RGD id
(:func:`relx_gene`).

``--cv``: five folds of the fit split by document (``int(sha1(pmid), 16) // 5 % 5``); each
fold's documents are tagged and grounded as relx does (``relx.load`` without grounding,
then ``ground_document``) with a dictionary built from the other folds, and scored as
:mod:`lab.genes.biored` scores ids (best id right by species, no id), beside the same run
without a dictionary.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from lab.genes.biored import GoldDoc, NcbiIds, Tally, _score_document, read_biored
from relx.genes.annotated_names import AnnotatedNames, Entry, entries_from, write_table
from relx.genes.ncbi_gene import default_ncbi_gene
from relx.genes.orthologs import default_orthologs

#: variant -> where the dictionary acts (docs/genes.md, round 10)
VARIANTS: dict[str, dict[str, object]] = {
    "A1": {"min_docs": 1, "min_share": 0.5, "override_share": None},
    "A2": {"min_docs": 2, "min_share": 0.5, "override_share": None},
    "B2": {"min_docs": 2, "min_share": 0.5, "override_share": 0.8},
}
SOURCE = "BioRED train, fit split (sha1(pmid) % 5 != 0; docs/genes.md naming round 10)"


def fold(pmid: str, k: int = 5) -> int:
    """The cross-validation fold of a fit-split document."""
    return int(hashlib.sha1(pmid.encode("ascii")).hexdigest(), 16) // 5 % k


def local_ids() -> dict[str, list[str]]:
    """NCBI Gene id (bare) -> relx's HGNC / MGI / RGD ids, from the shipped table."""
    out: dict[str, list[str]] = {}
    for cid, genes in default_ncbi_gene().items():
        for gene in genes:
            out.setdefault(gene.removeprefix("NCBIGene:"), []).append(cid)
    return out


def relx_gene(ncbi_id: str, local: dict[str, list[str]]) -> str | None:
    """The dictionary's gene for an NCBI Gene id: its HGNC id, or the one human ortholog of
    its MGI / RGD id, else that id; None when relx has no id for it."""
    ids = local.get(ncbi_id, [])
    if len(ids) != 1:
        return None
    cid = ids[0]
    if cid.startswith("HGNC:"):
        return cid
    human = default_orthologs().to_human(cid)
    return human[0] if len(human) == 1 else cid


def annotated(docs: Iterable[GoldDoc], local: dict[str, list[str]]
              ) -> list[tuple[str, str, str]]:
    """``(pmid, mention text, gene)`` of the gold mentions with one NCBI Gene id relx knows."""
    out = []
    for d in docs:
        for m in d.genes:
            if len(m.ids) == 1:
                gene = relx_gene(next(iter(m.ids)), local)
                if gene is not None:
                    out.append((d.pmid, m.text, gene))
    return out


def cross_validate(shared: str | None = None, k: int = 5) -> dict[str, dict]:
    """Out-of-fold id figures per variant and without a dictionary (``none``)."""
    import relx
    from relx.doc import Document
    from relx.genes.document import ground_document

    docs = read_biored(shared, "fit")
    local, ncbi = local_ids(), NcbiIds(shared)
    names = annotated(docs, local)
    ex = relx.load(task="ppi", types=False, ground=False)
    tagged = [doc for doc, _, _ in ex.annotate([Document(id=d.pmid, text=d.text)
                                                    for d in docs])]
    tallies = {v: Tally() for v in ("none", *VARIANTS)}
    for f in range(k):
        held = {d.pmid for d in docs if fold(d.pmid, k) == f}
        entries: dict[str, Entry] = entries_from(n for n in names if n[0] not in held)
        for variant, tally in tallies.items():
            dictionary: AnnotatedNames | bool = False if variant == "none" else AnnotatedNames(
                entries=entries, **VARIANTS[variant])   # type: ignore[arg-type]
            for gold, doc in zip(docs, tagged, strict=True):
                if gold.pmid in held:
                    _score_document(gold, ground_document(doc, annotated=dictionary), [],
                                    ncbi, tally)
        print(f"fold {f}: {len(held)} documents, {len(entries)} names", file=sys.stderr)
    return {v: _ids(t) for v, t in tallies.items()}


def _ids(t: Tally) -> dict[str, object]:
    rep = t.report()["ids"]
    found = sum(rep[sp]["found"] for sp in ("human", "mouse", "other"))  # type: ignore[index]
    return {**rep, "found_all": found}


def build(shared: str | None = None) -> dict[str, Entry]:
    """The dictionary of the whole fit split."""
    return entries_from(annotated(read_biored(shared, "fit"), local_ids()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared")
    ap.add_argument("--cv", action="store_true", help="out-of-fold figures per variant")
    ap.add_argument("--json", help="write the --cv figures here")
    ap.add_argument("--write", help="write the fit split's dictionary here")
    ap.add_argument("--variant", choices=sorted(VARIANTS), default="A1")
    a = ap.parse_args(argv)
    if a.cv:
        got = cross_validate(a.shared)
        print("| variant | human | mouse | other | all | no id |\n|---|---|---|---|---|---|")
        for v, r in got.items():
            print(f"| {v} | {r['human']['best_right']:.3f} | {r['mouse']['best_right']:.3f} | "
                  f"{r['other']['best_right']:.3f} | {r['best_right']:.3f} | {r['no_id']:.3f} |")
        if a.json:
            Path(a.json).write_text(json.dumps(got, indent=1) + "\n")
    if a.write:
        entries = build(a.shared)
        write_table(a.write, entries, VARIANTS[a.variant], f"{SOURCE}; variant {a.variant}")
        print(f"{a.write}: {len(entries)} names", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
