"""Learn which member gene a FamPlex family name stands for, from BioRED train's fit split.

    python -m lab.genes.family_members [--shared ../shared]
        [--out relx/data/family_members.json] [--min-count 2] [--min-share 0.5]

relx (tagger, species, grounding with the shipped ranker, no member table) runs on the raw
fit-split abstracts; for each gold gene mention whose overlapping relx mention has a FamPlex
best id, the gold genes are taken as human genes (mouse ones through their human ortholog)
and counted when they are FamPlex members of that family. A family gets the member counted
most often when that is at least ``--min-count`` mentions and ``--min-share`` of the
family's mentions (registered in docs/genes.md). The development split is never read. ``--cv``: the fit
split's best-id figures with the table in-sample, out of fold (5 folds by document) and
with no members.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

from lab.genes.biored import NcbiIds, gene_mentions
from relx.genes.famplex import default_famplex
from relx.genes.members import FamilyMembers
from relx.genes.orthologs import default_orthologs

ROOT = Path(__file__).resolve().parents[2]


def family_counts(shared: Path | None) -> dict[str, collections.Counter]:
    """Family id -> Counter of the human member genes its fit mentions were annotated with
    (key ``""``: mentions annotated with no member)."""
    ncbi = NcbiIds(shared)
    to_local = {v: k for k, v in ncbi.to_ncbi.items()}         # NCBI -> HGNC:n / MGI:n
    fam, orth = default_famplex(), default_orthologs()
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for _, ents, golds in gene_mentions(shared, "fit", members=False):
        for e, gold in zip(ents, golds, strict=True):
            if not (e.norm_ids and e.norm_ids[0].startswith("FPLX:")):
                continue
            family = e.norm_ids[0]
            members = fam.members(family)
            for gold_ids in gold:
                human = set()
                for n in gold_ids:
                    local = to_local.get(n)
                    if local is None:
                        continue
                    human |= {local} if local.startswith("HGNC:") else set(orth.to_human(local))
                hits = sorted(human & members)
                counts[family].update(hits or [""])
    return counts


def cross_validate(shared: Path | None, folds: int = 5, min_count: int = 2,
                   min_share: float = 0.5) -> dict[str, dict]:
    """Best-id figures of the fit split with the table learned in-sample (the shipped one),
    out of fold (learned on the other folds, by document) and with no members at all."""
    import relx
    from lab.genes.biored import Tally, _entities, _overlap, _span, read_biored, score_document
    from relx.doc import Document
    from relx.genes.document import ground_document
    from relx.ids import is_protein_type

    docs = read_biored(shared, "fit")
    ncbi = NcbiIds(shared)
    to_local = {v: k for k, v in ncbi.to_ncbi.items()}
    fam, orth = default_famplex(), default_orthologs()
    ex = relx.load(task="ppi", types=False, ground=False)
    parsed = [d for d, _, _ in ex.annotate([Document(id=g.pmid, text=g.text) for g in docs])]
    per_doc = []
    for gold, doc in zip(docs, parsed, strict=True):
        c: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        for e in _entities(ground_document(doc, members=False)):
            if not (is_protein_type(e.type) and e.norm_ids and e.norm_ids[0].startswith("FPLX:")):
                continue
            for m in gold.genes:
                if _overlap(_span(e), (m.start, m.end)):
                    human = set()
                    for n in m.ids:
                        local = to_local.get(n, "")
                        human |= {local} if local.startswith("HGNC:") else set(
                            orth.to_human(local))
                    c[e.norm_ids[0]].update(sorted(human & fam.members(e.norm_ids[0])) or [""])
        per_doc.append(c)
    tallies = {"in-sample": Tally(), "out of fold": Tally(), "none": Tally()}
    for k in range(folds):
        counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        for i, c in enumerate(per_doc):
            if i % folds != k:
                for f, cc in c.items():
                    counts[f].update(cc)
        table, _ = choose(counts, min_count, min_share)
        for i, (gold, doc) in enumerate(zip(docs, parsed, strict=True)):
            if i % folds == k:
                for name, members in (("in-sample", None), ("out of fold", table),
                                      ("none", False)):
                    score_document(gold, ground_document(doc, members=members), [], ncbi,
                                   tallies[name])
    return {name: t.report()["ids"] for name, t in tallies.items()}


def choose(counts: dict[str, collections.Counter], min_count: int, min_share: float
           ) -> tuple[FamilyMembers, dict[str, dict[str, int]]]:
    members, shares, kept = {}, {}, {}
    for family, c in counts.items():
        n = sum(c.values())
        best = [(k, v) for k, v in c.most_common() if k]
        if best and best[0][1] >= min_count and best[0][1] / n >= min_share:
            members[family], shares[family] = best[0][0], best[0][1] / n
            kept[family] = {"mentions": n, "with_member": best[0][1]}
    return FamilyMembers(members, shares), kept


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=ROOT / "relx" / "data" / "family_members.json")
    ap.add_argument("--min-count", type=int, default=2)
    ap.add_argument("--min-share", type=float, default=0.5)
    ap.add_argument("--cv", action="store_true",
                    help="only print best-id figures in-sample vs out of fold (5 folds)")
    a = ap.parse_args(argv)
    if a.cv:
        print(json.dumps(cross_validate(a.shared, 5, a.min_count, a.min_share), indent=1))
        return 0
    counts = family_counts(a.shared)
    table, kept = choose(counts, a.min_count, a.min_share)
    a.out.write_text(json.dumps(table.to_json(kept), indent=1) + "\n", encoding="utf-8")
    print(f"{len(table.members)} of {len(counts)} families get a member -> {a.out}")
    for f, v in sorted(kept.items()):
        print(f"  {f}: {table.members[f]} ({v['with_member']} of {v['mentions']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
