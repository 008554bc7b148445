"""Train relx's gene name ranker (relx/genes/ranker.py) on BioRED train's fit split.

    python -m lab.genes.ranker [--shared ../shared] [--out relx/data/gene_ranker.json]
        [--report runs/names/ranker.json]

Examples: relx's own gene mentions (its tagger on the raw fit-split abstracts) that overlap
a gold gene mention and that no lexicon key grounds (``ground_document(..., ranker=False)``);
each candidate of :func:`relx.genes.ranker.candidates` is labelled right when its id, as an
NCBI Gene id, is one of the gold mention's ids. Selection (registered in docs/genes.md):
``C`` in (0.1, 1, 10) by out-of-fold log-loss, the threshold by out-of-fold net gain (best
candidates kept that are right minus those that are wrong), 5 folds by document. The
development split is never read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from sklearn.metrics import log_loss
from sklearn.model_selection import GroupKFold

from lab.genes.biored import NcbiIds, gene_mentions
from relx.genes.document import MIN_RANKED
from relx.genes.lexicon import default_grounder, normalize_key
from relx.genes.ranker import NameRanker, candidates

ROOT = Path(__file__).resolve().parents[2]
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.1, 0.95, 0.05))


def examples(shared: Path | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Candidate features ``X`` (n, n_features), labels ``y``, the mention number of each
    row and the document number of each mention (fit split only)."""
    ncbi = NcbiIds(shared)
    g = default_grounder()
    X, y, mention_of, doc_of = [], [], [], []
    m = 0
    for d_no, ents, golds in gene_mentions(shared, "fit", ranker=False):
        context = frozenset(e.norm_ids[0] for e in ents if e.norm_ids)
        for e, gold in zip(ents, golds, strict=True):
            gold_ids = set().union(*gold)
            if e.norm_ids or len(normalize_key(e.text)) < MIN_RANKED or not gold_ids:
                continue
            cands = candidates(g, e.text, e.taxon, context)
            if not cands:
                continue
            for c in cands:
                X.append(c.features)
                y.append(int(ncbi.ncbi(c.id) in gold_ids))
                mention_of.append(m)
            doc_of.append(d_no)
            m += 1
    return (np.asarray(X, dtype=np.float64), np.asarray(y), np.asarray(mention_of),
            np.asarray(doc_of))


def net_gain(p: np.ndarray, y: np.ndarray, mention_of: np.ndarray, t: float) -> tuple[int, int]:
    """(right, wrong) best candidates kept at threshold ``t``."""
    right = wrong = 0
    for m in np.unique(mention_of):
        rows = np.flatnonzero(mention_of == m)
        i = rows[np.argmax(p[rows])]
        if p[i] >= t:
            right += int(y[i])
            wrong += int(not y[i])
    return right, wrong


def select(X: np.ndarray, y: np.ndarray, mention_of: np.ndarray, doc_of: np.ndarray
           ) -> dict[str, object]:
    groups = doc_of[mention_of]
    folds = list(GroupKFold(n_splits=5).split(X, y, groups))
    report: dict[str, object] = {"rows": int(len(y)), "positives": int(y.sum()),
                                 "mentions": int(len(np.unique(mention_of))),
                                 "mentions_with_right_candidate": int(len(np.unique(
                                     mention_of[y == 1])))}
    losses, oof_by_c = {}, {}
    for c in (0.1, 1.0, 10.0):
        oof = np.zeros(len(y))
        for tr, te in folds:
            oof[te] = NameRanker(C=c).fit(X[tr], y[tr]).predict_proba(X[te])[:, 1]
        losses[c], oof_by_c[c] = log_loss(y, oof), oof
    best_c = min(losses, key=losses.get)
    oof = oof_by_c[best_c]
    gains = {t: net_gain(oof, y, mention_of, t) for t in THRESHOLDS}
    best_t = max(THRESHOLDS, key=lambda t: (gains[t][0] - gains[t][1], t))
    bins = np.clip((oof * 10).astype(int), 0, 9)
    report.update({
        "log_loss_by_C": {str(k): round(v, 4) for k, v in losses.items()}, "C": best_c,
        "net_gain_by_threshold": {str(t): {"right": r, "wrong": w} for t, (r, w) in gains.items()},
        "threshold": best_t,
        "reliability": [{"bin": f"{b / 10:.1f}-{(b + 1) / 10:.1f}", "n": int((bins == b).sum()),
                         "mean_p": round(float(oof[bins == b].mean()), 3),
                         "right": round(float(y[bins == b].mean()), 3)}
                        for b in range(10) if (bins == b).any()]})
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=ROOT / "relx" / "data" / "gene_ranker.json")
    ap.add_argument("--report", type=Path, default=None)
    a = ap.parse_args(argv)
    X, y, mention_of, doc_of = examples(a.shared)
    rep = select(X, y, mention_of, doc_of)
    model = NameRanker(C=rep["C"], threshold=rep["threshold"]).fit(X, y)
    a.out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    rep["model"] = str(a.out)
    text = json.dumps(rep, indent=1)
    print(text)
    if a.report:
        a.report.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
