"""Binding groupings measured and not shipped (relx ships ``side``,
:func:`relx.ge.assemble.side_groups`).

Rules (:data:`GROUPINGS`, each ``(view, trigger token, themes) -> theme sets``): ``each``
(one event per theme), ``all`` (one event with every theme), ``side`` (relx's), ``conj``
(coordinated themes -- linked only by ``conj``/``appos`` -- are alternatives: one event
per choice of one theme from each coordination group), ``side_conj`` (``side`` when both
sides have themes, else ``conj``).

Learned grouping (``binding = "learned"``, :class:`BindingGrouper`): for each pair of
protein themes of one Binding trigger a logistic regression on hashed features (which side
of the trigger each lies on, the dependency path and the words between the two proteins,
the paths from the trigger) predicts whether both are themes of one event. Trained on the gold Binding events: pairs of gold themes of a trigger are
positive when one gold event holds both. Assembly: every positive pair becomes a
two-theme event, every theme in no positive pair a one-theme event.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import networkx as nx
import numpy as np
from sklearn.feature_extraction import FeatureHasher
from sklearn.linear_model import LogisticRegression

from relx.ge.assemble import Grouping, side_groups
from relx.ge.sentences import SentenceView
from relx.graphs import edge_label, undirected_path

_COORD = frozenset({"conj", "appos"})


def _conj_groups(view: SentenceView, themes: list[str]) -> list[list[str]]:
    """Partition protein themes into coordination groups (connected by conj/appos only)."""
    g = nx.Graph()
    for u, v, d in view.graph.edges(data=True):
        if d["label"] in _COORD:
            g.add_edge(u, v)
    groups: list[list[str]] = []
    for p in themes:
        tp = view.protein_head[p]
        for grp in groups:
            tq = view.protein_head[grp[0]]
            if tp == tq or (tp in g and tq in g and nx.has_path(g, tp, tq)):
                grp.append(p)
                break
        else:
            groups.append([p])
    return groups


def binding_groups(view: SentenceView, trigger_tok: int, themes: list[str],
                   strategy: str) -> list[list[str]]:
    """Theme sets of the Binding events of one trigger under a rule of :data:`GROUPINGS`."""
    if strategy not in STRATEGIES:
        raise ValueError(f"binding strategy must be one of {STRATEGIES}")
    themes = sorted(set(themes), key=lambda p: view.protein_head[p])
    if len(themes) <= 1 or strategy == "each":
        return [[p] for p in themes]
    if strategy == "all":
        return [themes]
    if strategy in ("side", "side_conj"):
        left = [p for p in themes if view.protein_head[p] < trigger_tok]
        right = [p for p in themes if view.protein_head[p] >= trigger_tok]
        if left and right:
            return [[a, b] for a in left for b in right]
        if strategy == "side":
            return [[p] for p in themes]
    groups = _conj_groups(view, themes)
    if len(groups) == 1:
        return [[p] for p in themes]
    return [list(c) for c in itertools.product(*groups)]


def _rule(strategy: str) -> Grouping:
    def groups(view: SentenceView, trigger_tok: int, themes: list[str]) -> list[list[str]]:
        return binding_groups(view, trigger_tok, themes, strategy)

    return groups


STRATEGIES = ("each", "all", "side", "conj", "side_conj")
#: the rule-based groupings by name (``side``: relx's own function)
GROUPINGS: Mapping[str, Grouping] = {s: side_groups if s == "side" else _rule(s)
                                     for s in STRATEGIES}


def _labels(view: SentenceView, a: int, b: int) -> str:
    try:
        path = undirected_path(view.graph, a, b, view.undirected)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return "NOPATH"
    out = [edge_label(view.graph, u, v) for u, v in zip(path, path[1:], strict=False)]
    return "_".join(out) if len(out) <= 5 else f"long{min(len(out), 9)}"


def pair_features(view: SentenceView, tok: int, p1: str, p2: str, n_themes: int
                  ) -> dict[str, float]:
    """Features of two themes ``p1``, ``p2`` (text order) of the Binding trigger at ``tok``."""
    a, b = sorted((view.protein_head[p1], view.protein_head[p2]))
    toks = view.tokens
    lem = (toks[tok].lemma or toks[tok].text).lower()
    sides = ("L" if a < tok else "R") + ("L" if b < tok else "R")
    f: dict[str, float] = {f"sides={sides}": 1, f"sides_l={sides}/{lem}": 1, f"l={lem}": 1,
                           f"nthemes={min(n_themes, 4)}": 1,
                           f"dist={min(b - a, 10)}": 1}
    between = [(t.lemma or t.text).lower() for t in toks[a + 1:b]
               if t.index not in view.protein_tokens]
    for w in between:
        f[f"bw={w}"] = 1
        f[f"bw_sides={w}/{sides}"] = 1
    if not between:
        f["adjacent"] = 1
    pp = _labels(view, a, b)
    f[f"pp={pp}"] = 1
    f[f"pp_sides={pp}/{sides}"] = 1
    f[f"tp={_labels(view, tok, a)}|{_labels(view, tok, b)}"] = 1
    f[f"tp1={_labels(view, tok, a)}"] = 1
    f[f"tp2={_labels(view, tok, b)}"] = 1
    return f


class BindingGrouper:
    """Pairwise "same Binding event" classifier and the grouping it implies."""

    def __init__(self, C: float = 1.0, threshold: float = 0.5, n_features: int = 2 ** 16
                 ) -> None:
        self.C = C
        self.threshold = threshold
        self.n_features = n_features

    def _hasher(self) -> FeatureHasher:
        return FeatureHasher(n_features=self.n_features, input_type="dict", alternate_sign=False)

    def fit(self, views: Sequence[SentenceView]) -> BindingGrouper:
        feats, y = [], []
        for v in views:
            for tok, events in v.gold_bindings.items():
                themes = sorted(set().union(*events), key=lambda p: v.protein_head[p])
                for p1, p2 in itertools.combinations(themes, 2):
                    feats.append(pair_features(v, tok, p1, p2, len(themes)))
                    y.append(int(any({p1, p2} <= e for e in events)))
        self.model_: LogisticRegression | None = None
        if len(set(y)) == 2:
            self.model_ = LogisticRegression(C=self.C, max_iter=2000)
            self.model_.fit(self._hasher().transform(feats), np.array(y))
        return self

    def groups(self, view: SentenceView, tok: int, themes: list[str]) -> list[list[str]]:
        """Theme sets of the Binding events of the trigger at ``tok``."""
        themes = sorted(set(themes), key=lambda p: view.protein_head[p])
        if len(themes) <= 1 or self.model_ is None:
            return [[p] for p in themes]
        pairs = list(itertools.combinations(themes, 2))
        X = self._hasher().transform([pair_features(view, tok, a, b, len(themes))
                                      for a, b in pairs])
        proba = self.model_.predict_proba(X)[:, 1]
        out = [[a, b] for (a, b), p in zip(pairs, proba, strict=True) if p > self.threshold]
        paired = {p for grp in out for p in grp}
        return [[p] for p in themes if p not in paired] + out
