"""Argument detection: trigger -> protein / trigger edges with roles Theme and Cause.

A candidate edge joins a trigger node ``(token, type)`` to a protein (any event type) or
to another trigger node (regulations only). Two views of a candidate:

* the **structure** for relx's kernel machinery: the shortest undirected dependency path
  from the trigger token to the argument token as ``(edge, word, lemma, pos)`` tuples
  (like :func:`relx.structures.shortest_path`) with the ends blinded -- the trigger as
  ``TRIG:<type>``, a protein argument as ``PROT2``, a trigger argument as ``ARG:<type>``;
  other proteins on the path as ``PROT``. KLSH codes of the path kernel feed a
  random-subspace forest (KLSH-RF);
* hashed **features** (TEES style: path edge/lemma n-grams, types, distance, words in
  between) for a linear model.

Both predict ``None``/``Theme``/``Cause``; ``method`` picks one or the mean of their
probabilities (``klsh_weight``). ``none_bias`` is taken off the ``None`` probability and
``cause_bias`` added to the ``Cause`` one before the decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from relx.doc import REGULATION_TYPES
from relx.ge.sentences import ROLES, Node, SentenceView, allowed_roles, edge_targets
from relx.graphs import edge_label, undirected_path
from relx.learn.predictors import FeatureHasher
from relx.represent.instances import StructureSet
from relx.structures import NONE, StructureEncoder, Tuple

#: slack of :meth:`EdgeDetector.deciding_proba`'s bound (probabilities in floating point)
_BOUND_MARGIN = 1e-9

CLASSES = ("None", *ROLES)
TYPE_CLASS = {"Binding": "BIND", **{t: "REG" for t in REGULATION_TYPES}}


@dataclass(frozen=True)
class EdgeCandidate:
    """One candidate edge in sentence view ``view`` (an index into the views list)."""

    view: int
    src: Node
    dst: object          # protein id or trigger Node

    @property
    def dst_is_protein(self) -> bool:
        return isinstance(self.dst, str)


def candidates(views: Sequence[SentenceView], nodes: Sequence[dict[int, set[str]]]
               ) -> list[EdgeCandidate]:
    """Every candidate edge given the trigger nodes (token -> types) of each view."""
    out = []
    for vi, (v, ns) in enumerate(zip(views, nodes, strict=True)):
        node_list = [(t, typ) for t, types in sorted(ns.items()) for typ in sorted(types)]
        for src in node_list:
            for dst in edge_targets(v, src, node_list):
                if not isinstance(dst, str) and dst[0] == src[0] and dst[1] in REGULATION_TYPES:
                    continue   # a token regulating its own other reading: only SVT/Binding
                out.append(EdgeCandidate(vi, src, dst))
    return out


def gold_labels(views: Sequence[SentenceView], cands: Sequence[EdgeCandidate]) -> np.ndarray:
    return np.array([views[c.view].gold_edges.get((c.src, c.dst), "None") for c in cands])


def _dst_token(view: SentenceView, c: EdgeCandidate) -> int | None:
    return view.protein_head.get(c.dst) if c.dst_is_protein else c.dst[0]  # type: ignore[index]


def _path(view: SentenceView, a: int, b: int) -> list[int] | None:
    if a == b:
        return [a]
    try:
        return undirected_path(view.graph, a, b, view.undirected)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


def _node(view: SentenceView, i: int, trig: dict[int, str] | None = None
          ) -> tuple[str, str, str]:
    if i in view.protein_tokens:
        return "PROT", "PROT", "PROT"
    t = view.tokens[i]
    if trig and i in trig:   # another trigger on the path
        return t.text.lower(), f"TRIG:{trig[i]}", "TRIG"
    return t.text.lower(), (t.lemma or t.text).lower(), t.pos or ""


def trigger_tokens(cands: Sequence[EdgeCandidate]) -> dict[int, dict[int, str]]:
    """Per view index: the trigger tokens among the candidates (token -> type class)."""
    out: dict[int, dict[int, str]] = {}
    for c in cands:
        d = out.setdefault(c.view, {})
        d[c.src[0]] = TYPE_CLASS.get(c.src[1], "SVT")
        if not c.dst_is_protein:
            d[c.dst[0]] = TYPE_CLASS.get(c.dst[1], "SVT")  # type: ignore[index]
    return out


def edge_structure(view: SentenceView, c: EdgeCandidate,
                   trig: dict[int, str] | None = None) -> list[Tuple]:
    """The blinded shortest dependency path from trigger to argument."""
    a, b = c.src[0], _dst_token(view, c)
    src_t = f"TRIG:{c.src[1]}"
    dst_t = ("PROT2", "PROT2", "PROT") if c.dst_is_protein else \
        (f"ARG:{c.dst[1]}", f"ARG:{TYPE_CLASS.get(c.dst[1], 'SVT')}", "ARG")  # type: ignore[index]
    src = (src_t, src_t, "TRIG")
    path = None if b is None else _path(view, a, b)
    if path is None:
        return [(NONE, *src), ("NOPATH", *dst_t)]
    if len(path) == 1:
        return [(NONE, f"{src_t}+{dst_t[0]}", f"{src_t}+{dst_t[0]}", "TRIG")]
    out: list[Tuple] = [(NONE, *src)]
    for k, (u, v) in enumerate(zip(path, path[1:], strict=False)):
        lab = edge_label(view.graph, u, v)
        out.append((lab, *(dst_t if k == len(path) - 2 else _node(view, v, trig))))
    return out


def edge_features(view: SentenceView, c: EdgeCandidate,
                  trig: dict[int, str] | None = None) -> dict[str, float]:
    """TEES-style sparse features of a candidate edge."""
    st = c.src[1]
    a, b = c.src[0], _dst_token(view, c)
    dk = "PROT" if c.dst_is_protein else c.dst[1]  # type: ignore[index]
    toks = view.tokens
    slem = (toks[a].lemma or toks[a].text).lower()
    f: dict[str, float] = {f"st={st}": 1, f"dk={dk}": 1, f"st_dk={st}/{dk}": 1,
                           f"slem={slem}": 1, f"slem_dk={slem}/{dk}": 1}
    if not c.dst_is_protein:
        dl = (toks[b].lemma or toks[b].text).lower()
        f[f"dlem={dl}"] = 1
        f[f"slem_dlem={slem}/{dl}"] = 1
    if b is None:
        f["nohead"] = 1
        return f
    f[f"dir={'R' if b > a else 'L' if b < a else 'S'}"] = 1
    f[f"tokdist={min(abs(b - a), 10)}"] = 1
    lo, hi = min(a, b), max(a, b)
    between = range(lo + 1, hi)
    nprot = len({t for t in between if t in view.protein_tokens})
    f[f"nprot_between={min(nprot, 4)}"] = 1
    for t in between:
        if t not in view.protein_tokens:
            f[f"bw={(toks[t].lemma or toks[t].text).lower()}"] = 0.5
    path = _path(view, a, b)
    if path is None:
        f["nopath"] = 1
        return f
    f[f"plen={min(len(path) - 1, 8)}"] = 1
    f[f"plen_st={min(len(path) - 1, 8)}/{st}"] = 1
    labs = [edge_label(view.graph, u, v) for u, v in zip(path, path[1:], strict=False)]
    nodes = [_node(view, i, trig)[1] for i in path]
    nodes[0] = f"T:{TYPE_CLASS.get(st, 'SVT')}"
    nodes[-1] = "D:" + dk
    cls = TYPE_CLASS.get(st, "SVT")
    if len(labs) <= 4:
        f["pathlabs=" + "_".join(labs)] = 1
        f[f"pathlabs_st={st}:" + "_".join(labs)] = 1
        f[f"pathlabs_st_dk={st}/{dk}:" + "_".join(labs)] = 1
    if len(nodes) <= 5:
        f["plemmas=" + "_".join(nodes[1:-1])] = 1
        f[f"plemmas_c={cls}/{dk}:" + "_".join(nodes[1:-1])] = 1
    g = view.graph
    for end, tok in (("s", a), ("d", b)):
        for h in g.predecessors(tok):
            for d in g.get_edge_data(h, tok).values():
                f[f"{end}_in={d['label']}"] = 1
                f[f"{end}_in={d['label']}/{(toks[h].lemma or toks[h].text).lower()}"] = 1
    for ch in g.successors(a):
        for d in g.get_edge_data(a, ch).values():
            f[f"s_out={d['label']}/{cls}"] = 1
    for k, lab in enumerate(labs):
        f[f"e={lab}"] = 1
        f[f"e_st={lab}/{st}"] = 1
        if k + 1 < len(labs):
            f[f"ee={lab}_{labs[k + 1]}"] = 1
        f[f"ene={nodes[k]}_{lab}_{nodes[k + 1]}"] = 1
        f[f"ene_c={cls}:{nodes[k]}_{lab}_{nodes[k + 1]}"] = 1
        if k == 0:
            f[f"e0={lab}/{slem}"] = 1
        if k == len(labs) - 1:
            f[f"elast={lab}/{dk}"] = 1
    for n in nodes[1:-1]:
        f[f"pn={n}"] = 1
        f[f"pn_st={n}/{st}"] = 1
    n_prot_path = sum(1 for i in path[1:-1] if i in view.protein_tokens)
    f[f"prot_on_path={min(n_prot_path, 3)}"] = 1
    if trig is not None:
        n_trig_path = sum(1 for i in path[1:-1] if i in trig)
        f[f"trig_on_path={min(n_trig_path, 3)}"] = 1
        f[f"trig_on_path_st={min(n_trig_path, 3)}/{st}/{dk}"] = 1
        n_trig_between = sum(1 for i in between if i in trig)
        f[f"trig_between={min(n_trig_between, 3)}"] = 1
    return f


class EdgeDetector:
    """KLSH-RF over the blinded path, a linear model over features, or their mean."""

    def __init__(self, method: str = "combined", klsh: Any = None, forest: Any = None,
                 C: float = 1.0, n_features: int = 2 ** 18, klsh_weight: float = 0.5,
                 none_bias: float = 0.0, cause_bias: float = 0.0, random_state: int = 0) -> None:
        self.method = method
        self.klsh = klsh
        self.forest = forest
        self.C = C
        self.n_features = n_features
        self.klsh_weight = klsh_weight
        self.none_bias = none_bias
        self.cause_bias = cause_bias
        self.random_state = random_state

    @property
    def uses_klsh(self) -> bool:
        return self.method in ("klsh", "combined")

    @property
    def uses_features(self) -> bool:
        return self.method in ("features", "combined")

    def _hasher(self) -> FeatureHasher:
        return FeatureHasher(n_features=self.n_features, input_type="dict", alternate_sign=False)

    def _structures(self, views, cands, grow: bool = True,
                    rows: Sequence[int] | None = None) -> StructureSet:
        """The candidates' encoded paths (only those of ``rows``, when given; the other
        candidates' triggers still mark the paths); ``grow=False`` (prediction): labels the
        model never saw get ids of this call only (they match nothing stored either way), so
        predicting does not grow the model's vocabularies."""
        trig = trigger_tokens(cands)
        picked = cands if rows is None else [cands[i] for i in rows]
        raw = [edge_structure(views[c.view], c, trig.get(c.view)) for c in picked]
        return StructureSet({"path": self.encoder_.encode(raw, grow=grow)})

    def _feature_dicts(self, views: Sequence[SentenceView], cands: Sequence[EdgeCandidate]
                       ) -> list[dict[str, float]]:
        trig = trigger_tokens(cands)
        return [edge_features(views[c.view], c, trig.get(c.view)) for c in cands]

    def _features(self, views, cands):
        return self._hasher().transform(self._feature_dicts(views, cands))

    def fit(self, views: Sequence[SentenceView], cands: Sequence[EdgeCandidate],
            y: np.ndarray) -> EdgeDetector:
        if self.method not in ("klsh", "features", "combined"):
            raise ValueError(f"unknown edge method {self.method!r}")
        y = np.asarray(y)
        self.encoder_ = StructureEncoder()
        if self.uses_klsh:
            X = self._structures(views, cands)
            self.klsh.set_params(random_state=self.random_state)
            codes = self.klsh.fit(X, y).transform(X)
            self.forest.set_params(random_state=self.random_state)
            self.forest.fit(codes, y)
        if self.uses_features:
            from sklearn.linear_model import LogisticRegression

            Xf = self._features(views, cands)
            self.linear_ = LogisticRegression(C=self.C, max_iter=3000)
            self.linear_.fit(Xf, y)
        return self

    def _align(self, proba: np.ndarray, classes: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(proba), len(CLASSES)))
        for k, c in enumerate(classes):
            out[:, CLASSES.index(str(c))] = proba[:, k]
        return out

    def proba(self, views: Sequence[SentenceView], cands: Sequence[EdgeCandidate],
              parts: bool = False) -> np.ndarray | tuple[np.ndarray | None, np.ndarray | None]:
        """(N, 3) probabilities of None/Theme/Cause (``parts``: the two models' separately)."""
        pk = pf = None
        if len(cands) and self.uses_klsh:
            codes = self.klsh.transform(self._structures(views, cands, grow=False))
            pk = self._align(self.forest.predict_proba(codes), self.forest.classes_)
        if len(cands) and self.uses_features:
            Xf = self._features(views, cands)
            pf = self._align(self.linear_.predict_proba(Xf), self.linear_.classes_)
        if parts:
            return pk, pf
        return combine(pk, pf, self.klsh_weight, len(cands))

    def deciding_proba(self, views: Sequence[SentenceView], cands: Sequence[EdgeCandidate],
                       none_bias: float, cause_bias: float = 0.0) -> np.ndarray:
        """(N, 3) :meth:`proba` of every candidate :func:`decide_edges` (with these biases)
        could take, NaN rows for the others (which it then rejects): with the combined
        method, the feature model runs first and a candidate no role can win even with the
        KLSH-RF giving that role probability 1 is settled; the KLSH-RF (structures, kernel
        hashes, forest) runs on the other candidates only, which get exactly
        :meth:`proba`'s rows."""
        if self.method != "combined" or not len(cands):
            return self.proba(views, cands)   # type: ignore[return-value]
        pf = self._align(self.linear_.predict_proba(self._features(views, cands)),
                         self.linear_.classes_)
        w = self.klsh_weight
        cause = CLASSES.index("Cause")
        head = (1 - w) * pf + w            # each role's probability with the KLSH-RF's at 1
        head[:, cause] += cause_bias
        floor = (1 - w) * pf[:, 0] - none_bias
        theme_only = np.array([allowed_roles(c.src[1]) == ("Theme",) for c in cands])
        head[theme_only, cause] = -np.inf
        run = head[:, 1:].max(axis=1) > floor - _BOUND_MARGIN
        out = np.full((len(cands), len(CLASSES)), np.nan)
        if run.any():
            rows = np.flatnonzero(run)
            codes = self.klsh.transform_rows(
                self._structures(views, cands, grow=False, rows=rows), rows, len(cands))
            pk = self._align(self.forest.predict_proba(codes), self.forest.classes_)
            out[rows] = combine(pk, pf[rows], w, len(rows))
        return out


def combine(pk: np.ndarray | None, pf: np.ndarray | None, klsh_weight: float, n: int
            ) -> np.ndarray:
    if pk is not None and pf is not None:
        return klsh_weight * pk + (1 - klsh_weight) * pf
    if pk is not None:
        return pk
    if pf is not None:
        return pf
    return np.zeros((n, len(CLASSES)))


def decide_edges(proba: np.ndarray, cands: Sequence[EdgeCandidate], none_bias: float,
                 cause_bias: float = 0.0) -> list[tuple[EdgeCandidate, str]]:
    """Edges whose best role (allowed for the trigger type) beats ``None`` minus ``none_bias``;
    ``cause_bias`` is added to the ``Cause`` probability; a NaN row is no edge."""
    out = []
    for p, c in zip(proba, cands, strict=True):
        if np.isnan(p[0]):   # settled by :meth:`EdgeDetector.deciding_proba`
            continue
        score = {r: p[CLASSES.index(r)] + (cause_bias if r == "Cause" else 0.0)
                 for r in allowed_roles(c.src[1])}
        best = max(score, key=score.__getitem__)
        if score[best] > p[0] - none_bias:
            out.append((c, best))
    return out
