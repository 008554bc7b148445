"""Calibrate relx's gene norm_confidence on BioRED train's fit split (relx/genes/confidence.py).

    python -m lab.genes.confidence [--shared ../shared]
        [--out relx/data/confidence_calibration.json] [--report runs/names/confidence.json]

Examples: relx's gene mentions on the raw fit-split abstracts (tagger, species, grounding
with the shipped ranker and member table, raw confidences) that overlap a gold gene
mention of a human or mouse gene and carry an id: raw confidence -> best id right (as an
NCBI Gene id). An isotonic regression maps one to the other; the report gives its
out-of-fold reliability (5 folds by document) beside the raw scores'. The development
split is never read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from sklearn.isotonic import IsotonicRegression
from sklearn.model_selection import GroupKFold

from lab.genes.biored import NcbiIds, gene_ids, gene_mentions
from relx.genes.confidence import ConfidenceMap

ROOT = Path(__file__).resolve().parents[2]


def examples(shared: Path | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw confidences, 1 when the best id is right, and each example's document number."""
    ncbi = NcbiIds(shared)
    raw, right, doc_of = [], [], []
    for d_no, ents, golds in gene_mentions(shared, "fit", calibration=False):
        for e, gold in zip(ents, golds, strict=True):
            gold_ids = set().union(*gold)
            if not (e.norm_ids and e.norm_confidence is not None) or not gold_ids or all(
                    ncbi.species(i) == "other" for i in gold_ids):
                continue
            ids = gene_ids(e, ncbi)
            raw.append(e.norm_confidence)
            right.append(int(bool(ids) and ids[0] in gold_ids))
            doc_of.append(d_no)
    return np.asarray(raw), np.asarray(right), np.asarray(doc_of)


def reliability(p: np.ndarray, y: np.ndarray) -> dict[str, object]:
    bins = np.clip((p * 10).astype(int), 0, 9)
    rows = [{"bin": f"{b / 10:.1f}-{(b + 1) / 10:.1f}", "n": int((bins == b).sum()),
             "mean_p": round(float(p[bins == b].mean()), 3),
             "right": round(float(y[bins == b].mean()), 3)} for b in range(10) if (bins == b).any()]
    ece = sum(r["n"] * abs(r["mean_p"] - r["right"]) for r in rows) / len(p)
    return {"ece": round(ece, 4), "brier": round(float(np.mean((p - y) ** 2)), 4), "bins": rows}


def fit_map(raw: np.ndarray, right: np.ndarray) -> ConfidenceMap:
    iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(raw, right)
    x, y = list(iso.X_thresholds_), list(iso.y_thresholds_)
    if x[0] > 0.0:
        x, y = [0.0, *x], [y[0], *y]
    if x[-1] < 1.0:
        x, y = [*x, 1.0], [*y, y[-1]]
    return ConfidenceMap(x, y)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=None)
    ap.add_argument("--out", type=Path,
                    default=ROOT / "relx" / "data" / "confidence_calibration.json")
    ap.add_argument("--report", type=Path, default=None)
    a = ap.parse_args(argv)
    raw, right, doc_of = examples(a.shared)
    oof = np.zeros(len(raw))
    for tr, te in GroupKFold(n_splits=5).split(raw, right, doc_of):
        cmap = fit_map(raw[tr], right[tr])
        oof[te] = [cmap(v) for v in raw[te]]
    rep = {"examples": int(len(raw)), "right": round(float(right.mean()), 4),
           "raw": reliability(raw, right), "calibrated_out_of_fold": reliability(oof, right)}
    cmap = fit_map(raw, right)
    a.out.write_text(json.dumps(cmap.to_json(trained_on="BioRED train, fit split",
                                             examples=int(len(raw))), indent=1) + "\n",
                     encoding="utf-8")
    text = json.dumps(rep, indent=1)
    print(text)
    if a.report:
        a.report.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
