"""The registered document-level relation metrics (docs/relations.md): pair P/R/F1, type
accuracy and confusion on correctly found pairs, novelty F1 (Novel positive), ECE."""

from __future__ import annotations

from collections import Counter

import numpy as np


def prf(tp: int, n_pred: int, n_gold: int) -> dict[str, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4),
            "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0,
            "tp": tp, "predicted": n_pred, "gold": n_gold}


def ece(prob: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error: 10 equal-width bins on [0, 1], weighted by their share."""
    prob, y = np.asarray(prob, float), np.asarray(y, float)
    if not len(prob):
        return 0.0
    which = np.minimum((prob * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        sel = which == b
        if sel.any():
            total += sel.mean() * abs(prob[sel].mean() - y[sel].mean())
    return round(float(total), 4)


def _auc(y: np.ndarray, p: np.ndarray) -> float | None:
    from sklearn.metrics import roc_auc_score

    return round(float(roc_auc_score(y, p)), 4) if 0 < y.sum() < len(y) else None


def best_threshold(prob: np.ndarray, y: np.ndarray, n_gold: int) -> float:
    """The probability cut-off (>=) maximising pair F1, ``n_gold`` counting gold pairs that
    are no candidate."""
    best, best_f1 = 0.5, -1.0
    for t in np.unique(np.round(prob, 4)):
        pred = prob >= t
        f1 = prf(int((pred & (y == 1)).sum()), int(pred.sum()), n_gold)["f1"]
        if f1 > best_f1:
            best, best_f1 = float(t), f1
    return best


def score(prob: np.ndarray, related: np.ndarray, threshold: float, n_gold: int,
          gold_types: np.ndarray, pred_types: np.ndarray, gold_novel: np.ndarray,
          novel_prob: np.ndarray, novel_threshold: float = 0.5) -> dict[str, object]:
    """Every registered figure over pooled candidates (arrays aligned by candidate)."""
    related = np.asarray(related, int)
    pred = np.asarray(prob) >= threshold
    tp = pred & (related == 1)
    gt, pt = np.asarray(gold_types)[tp], np.asarray(pred_types)[tp]
    confusion = Counter(zip(gt.tolist(), pt.tolist(), strict=True))
    gn = np.asarray(gold_novel, int)[tp] == 1
    pn = np.asarray(novel_prob)[tp] >= novel_threshold
    return {
        "pairs": prf(int(tp.sum()), int(pred.sum()), n_gold),
        "threshold": round(float(threshold), 4),
        "type_accuracy": round(float((gt == pt).mean()), 4) if len(gt) else 0.0,
        "type_majority": round(max(Counter(gt.tolist()).values()) / len(gt), 4)
        if len(gt) else 0.0,
        "confusion": {f"{g} -> {p}": n for (g, p), n in sorted(confusion.items())},
        "novelty": {**prf(int((gn & pn).sum()), int(pn.sum()), int(gn.sum())),
                    "accuracy": round(float((gn == pn).mean()), 4) if len(gn) else 0.0,
                    "share_novel": round(float(gn.mean()), 4) if len(gn) else 0.0,
                    "auc": _auc(gn, np.asarray(novel_prob)[tp])},
        "ece": ece(prob, related),
    }


def confusion_markdown(confusion: dict[str, int]) -> str:
    """``{"gold -> predicted": n}`` as a markdown table, gold types as rows."""
    cells = {tuple(k.split(" -> ")): n for k, n in confusion.items()}
    names = sorted({t for k in cells for t in k})
    lines = ["| gold \\ predicted | " + " | ".join(names) + " |",
             "|---" * (len(names) + 1) + "|"]
    for g in names:
        lines.append(f"| {g} | " + " | ".join(str(cells.get((g, p), 0)) for p in names) + " |")
    return "\n".join(lines)
