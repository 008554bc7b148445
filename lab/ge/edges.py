"""Edge context features (``[edges] context``, decisions 11-16 of docs/ge-events.md):
passed cross-validation by paper, failed GE 2011 devel, not shipped.

:class:`ContextEdgeDetector` is :class:`relx.ge.edges.EdgeDetector` whose linear model also
sees :func:`edge_context` of level ``context`` (0 = off: relx's detector).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from relx.ge.edges import TYPE_CLASS, EdgeCandidate, EdgeDetector, _dst_token, _path
from relx.ge.sentences import SentenceView


def edge_context(views: Sequence[SentenceView], cands: Sequence[EdgeCandidate],
                 level: int = 1) -> list[dict[str, float]]:
    """Features of each candidate against its rivals: how its dependency-path length ranks
    among the same trigger's candidate arguments of its kind (protein or trigger) and among
    the candidate triggers of the same argument (dense rank, 0 = nearest), and the gap to
    the nearest, in edges. ``level`` 2 adds the rank by token distance and what the nearest
    rival is (*induced* -> *expression* -> PROT: PROT's nearest trigger is an SVT one)."""
    length = np.full(len(cands), 99, dtype=int)
    tokdist = np.full(len(cands), 99, dtype=int)
    for k, c in enumerate(cands):
        b = _dst_token(views[c.view], c)
        path = None if b is None else _path(views[c.view], c.src[0], b)
        if path is not None:
            length[k] = len(path) - 1
        if b is not None:
            tokdist[k] = abs(b - c.src[0])
    by_src: dict[tuple, list[int]] = {}
    by_dst: dict[tuple, list[int]] = {}
    for k, c in enumerate(cands):
        by_src.setdefault((c.view, c.src, c.dst_is_protein), []).append(k)
        by_dst.setdefault((c.view, c.dst), []).append(k)

    def kind(k: int, side: str) -> str:
        c = cands[k]
        if side == "d":   # the rival is a trigger
            return TYPE_CLASS.get(c.src[1], "SVT")
        return "PROT" if c.dst_is_protein else TYPE_CLASS.get(c.dst[1], "SVT")  # type: ignore[index]

    out: list[dict[str, float]] = [{} for _ in cands]
    for side, groups in (("s", by_src), ("d", by_dst)):
        for members in groups.values():
            ls = sorted(set(length[members].tolist()))
            ts = sorted(set(tokdist[members].tolist()))
            nearest = [m for m in members if length[m] == ls[0]]
            for k in members:
                c = cands[k]
                cls = TYPE_CLASS.get(c.src[1], "SVT")
                dk = "PROT" if c.dst_is_protein else "TRIG"
                r = min(ls.index(length[k]), 3)
                gap = min(int(length[k] - ls[0]), 4)
                f = out[k]
                f[f"cx_{side}rank={r}"] = 1
                f[f"cx_{side}rank_c={r}/{cls}/{dk}"] = 1
                f[f"cx_{side}gap={gap}"] = 1
                f[f"cx_{side}n={min(len(members), 5)}/{dk}"] = 1
                if level < 2:
                    continue
                f[f"cx_{side}tok={min(ts.index(tokdist[k]), 3)}/{cls}/{dk}"] = 1
                rivals = sorted({kind(m, side) for m in nearest if m != k})
                if r > 0 or rivals:
                    f[f"cx_{side}rival={r > 0}/{'+'.join(rivals)}/{cls}/{dk}"] = 1
    return out


class ContextEdgeDetector(EdgeDetector):
    """relx's edge detector; the linear model also sees :func:`edge_context` of level
    ``context`` (0 = off)."""

    def __init__(self, method: str = "combined", klsh: Any = None, forest: Any = None,
                 C: float = 1.0, n_features: int = 2 ** 18, klsh_weight: float = 0.5,
                 none_bias: float = 0.0, cause_bias: float = 0.0, context: int = 0,
                 random_state: int = 0) -> None:
        super().__init__(method=method, klsh=klsh, forest=forest, C=C, n_features=n_features,
                         klsh_weight=klsh_weight, none_bias=none_bias, cause_bias=cause_bias,
                         random_state=random_state)
        self.context = context

    def _feature_dicts(self, views: Sequence[SentenceView], cands: Sequence[EdgeCandidate]
                       ) -> list[dict[str, float]]:
        feats = super()._feature_dicts(views, cands)
        if self.context:
            for f, cx in zip(feats, edge_context(views, cands, int(self.context)), strict=True):
                f.update(cx)
        return feats
