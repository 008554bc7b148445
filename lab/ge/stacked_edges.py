"""Stacked argument detection: a second-stage edge model over stage-1 edge scores.

A candidate edge (trigger node -> protein or trigger node) is judged with the plain edge
features (:func:`~relx.ge.edges.edge_features`) plus what stage 1 says about it and its
competitors (:func:`edge_stack_features`):

* its own stage-1 Theme and Cause scores (``p(role) - p(None)`` of the features-only edge
  model), binned;
* its rank among the candidate edges of its source trigger and, for a protein, among the
  triggers competing for that protein; how many of the source's edges score positive;
* the stage-1 trigger margin of its source and, for a trigger argument (a nested event),
  that argument's margin, its own best Theme score (does the nested event have a Theme?)
  and the score of the reverse edge.

Training rows use cross-fitted stage-1 models (:func:`lab.ge.stacking.crossfit_stage1`):
the gold trigger nodes of a held fold and the scores of the stage-1 models fitted on the
other folds, so the second stage sees realistic first-stage scores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

import numpy as np
from sklearn.feature_extraction import FeatureHasher
from sklearn.linear_model import LogisticRegression

from lab.ge.stacking import EDGE_BINS, MARGIN_BINS, TYPES, CrossFit, bin_of, type_margins
from lab.ge.triggers import LeverTriggerDetector
from relx.ge.edges import (
    CLASSES,
    TYPE_CLASS,
    EdgeCandidate,
    edge_features,
    gold_labels,
    trigger_tokens,
)
from relx.ge.edges import candidates as edge_candidates
from relx.ge.sentences import SentenceView

#: (view index, token) -> (len(TYPES),) stage-1 margins; None when not a candidate token
MarginLookup = Callable[[int, int], "np.ndarray | None"]
_THEME, _CAUSE, _NONE = (CLASSES.index(r) for r in ("Theme", "Cause", "None"))


def margin_lookup(index: Sequence[tuple[int, int]], margins: np.ndarray) -> MarginLookup:
    """A lookup of the stage-1 margins rows by (view index, token)."""
    row = {key: k for k, key in enumerate(index)}

    def get(vi: int, tok: int) -> np.ndarray | None:
        k = row.get((vi, tok))
        return None if k is None else margins[k]

    return get


def trigger_margins(views: Sequence[SentenceView], triggers: LeverTriggerDetector) -> MarginLookup:
    """Stage-1 per-type margins of every candidate token of ``views``."""
    scores, index = triggers.scores(views)
    if not index:
        return margin_lookup(index, np.zeros((0, len(TYPES))))
    return margin_lookup(index, type_margins(scores, triggers.classes_, triggers.none_bias,
                                             triggers.type_bias))


def _node_margin(margins: MarginLookup, vi: int, node: tuple[int, str]) -> float | None:
    row = margins(vi, node[0])
    return None if row is None else float(row[TYPES.index(node[1])])


def _rank_bin(rank: int) -> str:
    return str(min(rank, 2))


def edge_stack_features(cands: Sequence[EdgeCandidate], p1: np.ndarray,
                        margins: MarginLookup) -> list[dict[str, float]]:
    """Sparse stacked features of each candidate; ``p1`` (N, 3) stage-1 None/Theme/Cause
    probabilities of ``cands`` (all candidates of the views, so competitors are known)."""
    theme = p1[:, _THEME] - p1[:, _NONE]
    cause = p1[:, _CAUSE] - p1[:, _NONE]
    by_src: dict[tuple[int, object], list[int]] = defaultdict(list)
    by_dst: dict[tuple[int, object], list[int]] = defaultdict(list)
    for k, c in enumerate(cands):
        by_src[(c.view, c.src)].append(k)
        by_dst[(c.view, c.dst)].append(k)
    best_theme = {key: float(theme[ks].max()) for key, ks in by_src.items()}
    pair = {(c.view, c.src, c.dst): k for k, c in enumerate(cands)}
    rank_src = np.zeros(len(cands), dtype=int)
    rank_dst = np.zeros(len(cands), dtype=int)
    for groups, ranks in ((by_src, rank_src), (by_dst, rank_dst)):
        for ks in groups.values():
            order = sorted(ks, key=lambda k: -theme[k])
            for r, k in enumerate(order):
                ranks[k] = r
    out = []
    for k, c in enumerate(cands):
        cls = TYPE_CLASS.get(c.src[1], "SVT")
        dk = "PROT" if c.dst_is_protein else TYPE_CLASS.get(c.dst[1], "SVT")  # type: ignore[index]
        tb, cb = bin_of(float(theme[k]), EDGE_BINS), bin_of(float(cause[k]), EDGE_BINS)
        rs = _rank_bin(int(rank_src[k]))
        npos = sum(theme[j] > 0 for j in by_src[(c.view, c.src)])
        f: dict[str, float] = {
            f"q:t={cls}/{dk}:{tb}": 1.0, f"q:tv={cls}/{dk}": float(theme[k]),
            f"q:rs={cls}/{dk}:{rs}": 1.0, f"q:rs_t={cls}/{dk}:{rs}:{tb}": 1.0,
            f"q:npos={cls}:{min(npos, 3)}": 1.0,
            f"q:gap={cls}:{bin_of(float(theme[k]) - best_theme[(c.view, c.src)], EDGE_BINS)}": 1.0,
            f"q:rd={cls}/{dk}:{_rank_bin(int(rank_dst[k]))}": 1.0,
        }
        if cls == "REG":
            f[f"q:c={dk}:{cb}"] = 1.0
            f[f"q:cv={dk}"] = float(cause[k])
        sm = _node_margin(margins, c.view, c.src)
        f[f"q:sm={cls}:{'none' if sm is None else bin_of(sm, MARGIN_BINS)}"] = 1.0
        if not c.dst_is_protein:
            dst = c.dst
            dm = _node_margin(margins, c.view, dst)  # type: ignore[arg-type]
            f[f"q:dm={dk}:{'none' if dm is None else bin_of(dm, MARGIN_BINS)}"] = 1.0
            own = best_theme.get((c.view, dst))
            f[f"q:dt={dk}:{'none' if own is None else bin_of(own, EDGE_BINS)}"] = 1.0
            if own is not None:
                f[f"q:dtv={dk}"] = own
                f[f"q:dt_t={dk}:{bin_of(own, EDGE_BINS)}:{tb}"] = 1.0
            back = pair.get((c.view, dst, c.src))
            f[f"q:back={'none' if back is None else bin_of(float(theme[back]), EDGE_BINS)}"] = 1.0
        out.append(f)
    return out


class StackedEdgeDetector:
    """A logistic regression over the edge features and :func:`edge_stack_features`."""

    def __init__(self, *, C: float = 0.3, n_features: int = 2 ** 18,
                 random_state: int = 0) -> None:
        self.C = C
        self.n_features = n_features
        self.random_state = random_state

    def _matrix(self, views: Sequence[SentenceView], cands: Sequence[EdgeCandidate],
                p1: np.ndarray, margins: MarginLookup):
        trig = trigger_tokens(cands)
        feats = [edge_features(views[c.view], c, trig.get(c.view)) | s
                 for c, s in zip(cands, edge_stack_features(cands, p1, margins), strict=True)]
        return FeatureHasher(n_features=self.n_features, input_type="dict",
                             alternate_sign=False).transform(feats)

    def fit_from(self, held: Sequence[CrossFit]) -> StackedEdgeDetector:
        """Fit on the gold trigger nodes' candidate edges of each held fold, with the
        stage-1 scores of that fold's models (fitted without it)."""
        mats, labels = [], []
        for cf in held:
            cands = edge_candidates(cf.views, [v.gold_triggers for v in cf.views])
            if not cands:
                continue
            p1 = cf.edges.proba(cf.views, cands)
            mats.append(self._matrix(cf.views, cands, p1,          # type: ignore[arg-type]
                                     margin_lookup(cf.output.index, cf.output.margins)))
            labels.append(gold_labels(cf.views, cands))
        from scipy.sparse import vstack

        self.linear_ = LogisticRegression(C=self.C, max_iter=3000)
        self.linear_.fit(vstack(mats).tocsr(), np.concatenate(labels))
        return self

    def proba(self, views: Sequence[SentenceView], cands: Sequence[EdgeCandidate],
              p1: np.ndarray, margins: MarginLookup) -> np.ndarray:
        """(N, 3) None/Theme/Cause probabilities given the stage-1 edge probabilities
        ``p1`` of the same candidates and the stage-1 trigger margins."""
        out = np.zeros((len(cands), len(CLASSES)))
        if not len(cands):
            return out
        p = self.linear_.predict_proba(self._matrix(views, cands, p1, margins))
        for k, c in enumerate(self.linear_.classes_):
            out[:, CLASSES.index(str(c))] = p[:, k]
        return out

