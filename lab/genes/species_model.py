"""The learned choice between human and mouse for a gene mention, beside relx's species rules
(docs/genes.md: round 79, which let it choose wherever a context rule chose, not kept; round
89, where the rules' species comes from beyond the mention's sentence).

    python -m lab.genes.species_model [--shared ../shared] [--report runs/genes/species-model.json]

Examples: relx's own gene mentions (its tagger on the raw fit-split abstracts) that overlap
gold gene mentions of one species, human or mouse, and that the rules
(:func:`relx.genes.species.assign_species`) call human or mouse; features of each mention's
context (:func:`mention_features`: the species the document, its sentence, the sentence
before and its paragraph name, its own writing, cue phrases; no rule's output). ``C`` is
chosen from :data:`C_GRID` by accuracy in 5-fold cross-validation by document, averaged
over three assignments of documents to folds; the rules' accuracy on the same mentions is
in-sample (they were written on these documents). The development split is never read.
The *hybrid* is round 89's: the rules' choice, and the model's out-of-fold prediction where
the rules' evidence is in :data:`lab.genes.species_choice.BEYOND_SENTENCE`. ``--out``
writes the model trained on every example (``relx/data/species_model.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from lab.genes.biored import NcbiIds, _overlap, _span, read_biored
from lab.genes.species_choice import BEYOND_SENTENCE, SpeciesModel, mention_features
from relx.doc import Document
from relx.genes.lexicon import default_grounder
from relx.genes.species import assign_species, find_species
from relx.genes.symbol_sets import rodent_symbols
from relx.ids import HUMAN, MOUSE

ROOT = Path(__file__).resolve().parents[2]
C_GRID = (0.03, 0.1, 0.3, 1.0)
SEEDS = (0, 1, 2)
FOLDS = 5


def examples(shared: Path | None) -> list[dict]:
    """One row per example: document, mention text, features, gold and rule species, the
    rule's evidence."""
    import relx

    ncbi = NcbiIds(shared)
    g = default_grounder()
    rodent = rodent_symbols(g).__contains__
    golds = read_biored(shared, "fit")
    ex = relx.load(task="ppi", types=False, ground=False)
    taxa = {HUMAN: "human", MOUSE: "mouse"}
    rows = []
    docs = [Document(id=d.pmid, text=d.text) for d in golds]
    for gold, (doc, _, _) in zip(golds, ex.annotate(docs), strict=True):
        hits = find_species(doc.text)
        rules = assign_species(doc, hits, in_lexicon=g.in_lexicon, rodent_symbol=rodent,
                               family_name=g.is_family_name)
        feats = mention_features(doc, hits, in_lexicon=g.in_lexicon, rodent_symbol=rodent,
                                 family_name=g.is_family_name)
        for s in doc.sentences:
            for e in s.entities:
                if e.id not in feats or e.id not in rules:
                    continue
                ids = {i for m in gold.genes if _overlap(_span(e), (m.start, m.end))
                       for i in m.ids}
                species = {ncbi.species(i) for i in ids}
                rule = taxa.get(rules[e.id].taxon)
                if len(species) != 1 or rule is None or not species <= {"human", "mouse"}:
                    continue
                rows.append({"doc": doc.id, "text": doc.text[e.start:e.end],
                             "features": feats[e.id], "gold": species.pop(), "rule": rule,
                             "evidence": rules[e.id].evidence})
    return rows


def cross_validated(rows: list[dict], C: float, seed: int) -> np.ndarray:
    """Out-of-fold predictions (``"human"``/``"mouse"``), documents in :data:`FOLDS` folds."""
    docs = sorted({r["doc"] for r in rows})
    order = np.random.RandomState(seed).permutation(len(docs))
    fold_of = {docs[i]: k % FOLDS for k, i in enumerate(order)}
    fold = np.array([fold_of[r["doc"]] for r in rows])
    X = [r["features"] for r in rows]
    y = np.array([r["gold"] for r in rows])
    pred = np.empty(len(rows), dtype=object)
    for k in range(FOLDS):
        train, test = np.where(fold != k)[0], np.where(fold == k)[0]
        model = SpeciesModel(C=C).fit([X[i] for i in train], y[train])
        pred[test] = model.predict([X[i] for i in test])
    return pred


def report(rows: list[dict]) -> dict:
    """Cross-validated accuracy per ``C`` beside the rules', and by the rules' evidence."""
    y = np.array([r["gold"] for r in rows])
    rule = np.array([r["rule"] for r in rows])
    by_c = {}
    preds = {}
    for C in C_GRID:
        runs = [cross_validated(rows, C, s) for s in SEEDS]
        preds[C] = runs[0]
        by_c[str(C)] = round(float(np.mean([(p == y).mean() for p in runs])), 4)
    best = max(C_GRID, key=lambda c: (by_c[str(c)], -c))
    beyond = np.array([r["evidence"] in BEYOND_SENTENCE for r in rows])
    hybrid = [np.where(beyond, cross_validated(rows, best, s), rule) for s in SEEDS]
    evidence: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r, p in zip(rows, preds[best], strict=True):
        ev = evidence[r["evidence"]]
        ev[0] += 1
        ev[1] += p == r["gold"]
        ev[2] += r["rule"] == r["gold"]
    confusion = Counter((g, p) for g, p in zip(y, preds[best], strict=True))
    return {"mentions": len(rows), "documents": len({r["doc"] for r in rows}),
            "mouse_share": round(float((y == "mouse").mean()), 4),
            "rules_in_sample": round(float((rule == y).mean()), 4),
            "cv_accuracy_by_C": by_c, "C": best,
            "hybrid_cv_accuracy": round(float(np.mean([(h == y).mean() for h in hybrid])), 4),
            "hybrid_chosen_by_model": int(beyond.sum()),
            "hybrid_human_as_mouse": int(((hybrid[0] == "mouse") & (y == "human")).sum()),
            "hybrid_mouse_as_human": int(((hybrid[0] == "human") & (y == "mouse")).sum()),
            "cv_human_as_mouse": confusion["human", "mouse"],
            "cv_mouse_as_human": confusion["mouse", "human"],
            "rules_human_as_mouse": int(((rule == "mouse") & (y == "human")).sum()),
            "rules_mouse_as_human": int(((rule == "human") & (y == "mouse")).sum()),
            "by_evidence": {k: {"mentions": n, "cv": round(a / n, 4), "rules": round(b / n, 4)}
                            for k, (n, a, b) in sorted(evidence.items(),
                                                       key=lambda kv: -kv[1][0])}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path)
    ap.add_argument("--out", type=Path, help="write the model trained on the whole fit split")
    ap.add_argument("--report", type=Path)
    a = ap.parse_args(argv)
    rows = examples(a.shared)
    rep = report(rows)
    print(json.dumps(rep, indent=1))
    model = SpeciesModel(C=rep["C"]).fit([r["features"] for r in rows],
                                         [r["gold"] for r in rows])
    if a.out:
        a.out.write_text(json.dumps(model.to_json(), indent=1, sort_keys=True) + "\n",
                         encoding="utf-8")
    if a.report:
        a.report.parent.mkdir(parents=True, exist_ok=True)
        a.report.write_text(json.dumps(rep, indent=1) + "\n", encoding="utf-8")
    print(f"C {rep['C']}, {len(model.features_)} features", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
