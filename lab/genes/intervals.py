"""95% intervals by document for the naming figures of ``lab.genes.biored``.

A split's documents are resampled with replacement (``resamples`` times, a fixed seed) and
each figure is recomputed from the resampled documents' counts; the interval is the 2.5th
and 97.5th percentile. One document's species can decide a large share of a small split's
mouse mentions, so a figure's interval says how far another sample of documents could move
it.
"""

from __future__ import annotations

import numpy as np

#: figure -> (numerator counts, denominator counts); F1 figures are computed from tp/pred/gold
RATIOS = {"human best id": ("right_human", "found_human"),
          "mouse best id": ("right_mouse", "found_mouse")}


def _f1(tp: np.ndarray, pred: np.ndarray, gold: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.nan_to_num(2 * tp / (pred + gold))


def by_document(documents: dict[str, dict[str, int]],
                relation_documents: dict[str, dict[str, int]] | None = None, *,
                resamples: int = 2000, seed: int = 0) -> dict[str, list[float]]:
    """Figure -> [low, high] (95%) over ``resamples`` bootstrap samples of the documents
    (``documents``: pmid -> counts from :class:`lab.genes.biored.Tally`;
    ``relation_documents``: pmid -> the gene relation model's pair counts)."""
    pmids = sorted(documents)
    keys = sorted({k for d in documents.values() for k in d})
    counts = np.array([[documents[p].get(k, 0) for k in keys] for p in pmids], dtype=float)
    col = {k: i for i, k in enumerate(keys)}
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(pmids), size=(resamples, len(pmids)))
    sums = counts[picks].sum(axis=1)                     # (resamples, n_keys)
    found = sum(sums[:, col[f"found_{sp}"]] for sp in ("human", "mouse", "other"))
    with np.errstate(divide="ignore", invalid="ignore"):
        figures = {name: sums[:, col[a]] / sums[:, col[b]] for name, (a, b) in RATIOS.items()}
        figures["no id"] = sums[:, col["no_id"]] / found
    figures["gene pairs F1 (mention-level model)"] = _f1(
        sums[:, col["pair_tp"]], sums[:, col["pair_pred"]], sums[:, col["pair_gold"]])
    if relation_documents:
        keys_r = ["pairs_tp", "pairs_pred", "pairs_gold_ids_tp", "pairs_gold_ids_pred", "gold"]
        rel = np.array([[relation_documents.get(p, {}).get(k, 0) for k in keys_r]
                        for p in pmids], dtype=float)[picks].sum(axis=1)
        figures["gene pairs F1 (gene relation model)"] = _f1(rel[:, 0], rel[:, 1], rel[:, 4])
        figures["the same with gold ids"] = _f1(rel[:, 2], rel[:, 3], rel[:, 4])
    return {name: [round(float(np.nanpercentile(v, 2.5)), 3),
                   round(float(np.nanpercentile(v, 97.5)), 3)] for name, v in figures.items()
            if not np.isnan(v).all()}     # a species the split does not have


def interval_markdown(intervals: dict[str, list[float]]) -> str:
    """The intervals as a markdown table."""
    lines = ["| figure | 95% interval by document |", "|---|---|"]
    lines += [f"| {name} | {lo:.3f} - {hi:.3f} |" for name, (lo, hi) in intervals.items()]
    return "\n".join(lines)
