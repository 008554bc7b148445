"""GENIA event F1 by document kind: PubMed abstracts, PMC title+abstract, PMC body sections.

    python -m lab.experiments.ge_by_kind devel       # the shipped model on GE 2011 devel
    python -m lab.experiments.ge_by_kind validation  # the old document split's base (runs/ge-levers/base)
    python -m lab.experiments.ge_by_kind ceiling     # gold triggers + gold edges on GE 2011 train (no model)
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from lab.experiments.ge_levers import GE, load_split
from lab.experiments.ge_paper_split import report
from lab.ge.extractor import LabGEExtractor
from relx.ge.assemble import assemble_document
from relx.ge.data import cache_path, load_ge
from relx.ge.edges import candidates
from relx.ge.sentences import build_views

CACHE = "runs/events/cache"


def kind(doc_id: str) -> str:
    if doc_id.startswith("PMID"):
        return "pubmed"
    return "pmc-tiab" if doc_id.endswith("TIAB") else "pmc-body"


def gold_assembly(model: LabGEExtractor, docs: Sequence) -> list:
    """Each document assembled from its gold trigger nodes and gold edges."""
    out = []
    for d in docs:
        vs = build_views(d, gold=True)
        per: list[list] = [[] for _ in vs]
        for c in candidates(vs, [v.gold_triggers for v in vs]):
            role = vs[c.view].gold_edges.get((c.src, c.dst))
            if role:
                per[c.view].append((c, role))
        out.append(assemble_document(d.standoff, vs, per, model.grouping("side")))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    on = (argv or sys.argv[1:] or ["devel"])[0]
    if on == "validation":
        model = LabGEExtractor.load("runs/ge-levers/base")
        docs = load_split(CACHE)[1]
    else:
        model = LabGEExtractor.load("models/ge-events")
        part = "devel" if on == "devel" else "train"
        docs = load_ge(GE / "2011" / part, cache_path(CACHE, GE / "2011" / part))
    pred = gold_assembly(model, docs) if on == "ceiling" else model.predict(docs)
    report(docs, pred, kind, label=f"{on} ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
