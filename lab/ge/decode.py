"""Joint decoding of triggers and arguments, one sentence at a time.

The pipeline decides triggers first (argmax of the biased trigger scores) and the edges
of the chosen triggers after. Here a token whose best event class falls short of ``None``
by less than ``slack`` is still a candidate trigger; edges are scored for every candidate,
and per sentence the trigger nodes and edges are chosen together to maximise

    sum over chosen nodes n of  trigger_weight * margin(n)
  + sum over chosen edges c of  score(c)

where ``margin(n)`` is the node's biased trigger score minus the biased ``None`` score
(positive: the pipeline would keep it) and ``score(c)`` is the edge's best allowed role
probability (``cause_bias`` added to Cause) minus the ``None`` probability plus
``edge_bias`` (positive: the pipeline would keep it). Constraints (the GE event
structure): an edge needs both of its ends chosen, every chosen trigger has at least one
Theme edge, and two triggers do not take each other as arguments. So a weak trigger with
strong arguments survives, and a strong trigger without any Theme does not make an event.

A sentence whose trigger nodes are not linked by candidate edges decomposes: each node is
solved in closed form (keep it when its margin, its positive edges and -- when it has no
positive Theme -- its best Theme together score above zero). Nodes linked by candidate
trigger -> trigger edges (regulations of events) are solved exactly as a small integer
program (:func:`scipy.optimize.milp`).
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Sequence

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from lab.ge.triggers import LeverTriggerDetector, biased
from relx.ge.edges import CLASSES, EdgeCandidate
from relx.ge.sentences import Node, SentenceView, allowed_roles
from relx.ge.triggers import NONE_LABEL

Decision = tuple[EdgeCandidate, str]


def trigger_candidates(scores: np.ndarray, index: Sequence[tuple[int, int]],
                       classes: list[str], n_views: int, none_bias: float,
                       type_bias: dict[str, float] | None, slack: float
                       ) -> list[dict[Node, float]]:
    """Per view: candidate trigger node -> margin over ``None`` (> ``-slack``).

    ``scores`` (N, n_classes) are the trigger model's decision scores; a token takes the
    types of its best non-``None`` class."""
    out: list[dict[Node, float]] = [{} for _ in range(n_views)]
    if not len(index):
        return out
    s = biased(scores, classes, none_bias, type_bias)
    none = classes.index(NONE_LABEL)
    other = s.copy()
    other[:, none] = -np.inf
    best = other.argmax(axis=1)
    margin = other[np.arange(len(s)), best] - s[:, none]
    for (vi, tok), b, mg in zip(index, best, margin, strict=True):
        if mg > -slack:
            for typ in classes[b].split("|"):
                out[vi][(tok, typ)] = float(mg)
    return out


def nodes_of(cands: Sequence[dict[Node, float]]) -> list[dict[int, set[str]]]:
    """The token -> types form of candidate nodes (what :func:`relx.ge.edges.candidates` takes)."""
    out: list[dict[int, set[str]]] = []
    for nodes in cands:
        d: dict[int, set[str]] = {}
        for tok, typ in nodes:
            d.setdefault(tok, set()).add(typ)
        out.append(d)
    return out


def edge_scores(proba: np.ndarray, cands: Sequence[EdgeCandidate], edge_bias: float,
                cause_bias: float) -> list[tuple[str, float]]:
    """Each candidate's best allowed role and its score (> 0: the pipeline keeps it)."""
    out = []
    for p, c in zip(proba, cands, strict=True):
        score = {r: p[CLASSES.index(r)] + (cause_bias if r == "Cause" else 0.0)
                 for r in allowed_roles(c.src[1])}
        best = max(score, key=score.__getitem__)
        out.append((best, float(score[best] - (p[0] - edge_bias))))
    return out


def joint_decode(node_margins: Sequence[dict[Node, float]], cands: Sequence[EdgeCandidate],
                 proba: np.ndarray, edge_bias: float, cause_bias: float,
                 trigger_weight: float = 1.0) -> list[Decision]:
    """The chosen edges (with roles) of every view, decided jointly with the triggers."""
    scored = edge_scores(proba, cands, edge_bias, cause_bias)
    per_view: dict[int, list[int]] = defaultdict(list)
    for k, c in enumerate(cands):
        per_view[c.view].append(k)
    out: list[Decision] = []
    for vi, ks in per_view.items():
        margins = {n: trigger_weight * m for n, m in node_margins[vi].items()}
        out += _decode_sentence(margins, [cands[k] for k in ks], [scored[k] for k in ks])
    return out


def _decode_sentence(margins: dict[Node, float], cands: list[EdgeCandidate],
                     scored: list[tuple[str, float]]) -> list[Decision]:
    linked = [k for k, c in enumerate(cands) if not c.dst_is_protein]
    if not linked:
        return _decode_independent(margins, cands, scored)
    return _decode_ilp(margins, cands, scored)


def _decode_independent(margins: dict[Node, float], cands: list[EdgeCandidate],
                        scored: list[tuple[str, float]]) -> list[Decision]:
    by_src: dict[Node, list[int]] = defaultdict(list)
    for k, c in enumerate(cands):
        by_src[c.src].append(k)
    out: list[Decision] = []
    for node, ks in by_src.items():
        pos = [k for k in ks if scored[k][1] > 0]
        value = margins.get(node, 0.0) + sum(scored[k][1] for k in pos)
        chosen = pos
        if not any(scored[k][0] == "Theme" for k in pos):
            themes = [k for k in ks if scored[k][0] == "Theme"]
            if not themes:
                continue
            best = max(themes, key=lambda k: scored[k][1])
            value += scored[best][1]
            chosen = [*pos, best]
        if value > 0:
            out += [(cands[k], scored[k][0]) for k in chosen]
    return out


def _decode_ilp(margins: dict[Node, float], cands: list[EdgeCandidate],
                scored: list[tuple[str, float]]) -> list[Decision]:
    nodes = sorted({c.src for c in cands} | {c.dst for c in cands if not c.dst_is_protein})
    ni = {n: i for i, n in enumerate(nodes)}
    n_nodes, n_edges = len(nodes), len(cands)
    cost = np.concatenate([[-margins.get(n, 0.0) for n in nodes], [-s for _, s in scored]])
    rows: list[np.ndarray] = []
    lo: list[float] = []
    hi: list[float] = []

    def row(entries: dict[int, float], low: float, high: float) -> None:
        r = np.zeros(n_nodes + n_edges)
        for j, v in entries.items():
            r[j] += v
        rows.append(r)
        lo.append(low)
        hi.append(high)

    theme_edges: dict[int, list[int]] = defaultdict(list)
    pair: dict[tuple[Node, Node], int] = {}
    for k, c in enumerate(cands):
        e = n_nodes + k
        row({e: 1.0, ni[c.src]: -1.0}, -np.inf, 0.0)           # edge needs its source
        if not c.dst_is_protein:
            row({e: 1.0, ni[c.dst]: -1.0}, -np.inf, 0.0)       # ... and its target node
            pair[(c.src, c.dst)] = e                           # type: ignore[index]
        if scored[k][0] == "Theme":
            theme_edges[ni[c.src]].append(e)
    for i in range(n_nodes):                                   # a chosen node has a Theme
        row({i: 1.0, **{e: -1.0 for e in theme_edges.get(i, [])}}, -np.inf, 0.0)
    for (a, b), e in pair.items():                             # no 2-cycles
        back = pair.get((b, a))
        if back is not None and a < b:
            row({e: 1.0, back: 1.0}, -np.inf, 1.0)
    res = milp(cost, constraints=LinearConstraint(np.array(rows), lo, hi),
               integrality=np.ones(n_nodes + n_edges), bounds=Bounds(0, 1))
    if res.x is None:
        return []
    x = np.round(res.x[n_nodes:]).astype(bool)
    return [(c, scored[k][0]) for k, c in enumerate(cands) if x[k]]


def crossfit_trigger_nodes(docs_views: Sequence[Sequence[SentenceView]],
                           detector: LeverTriggerDetector, slack: float, folds: int = 5,
                           seed: int = 0) -> list[dict[int, set[str]]]:
    """Per sentence (all documents, in order): the gold trigger nodes plus the candidate
    nodes (within ``slack`` of ``None``) of a trigger model fitted on the other document
    folds -- the triggers an edge model meets at prediction time, false ones included."""
    fold = np.random.RandomState(seed).permutation(len(docs_views)) % folds
    per_doc: list[list[dict[Node, float]]] = [[] for _ in docs_views]
    for k in range(folds):
        held = [d for d in range(len(docs_views)) if fold[d] == k]
        if not held:
            continue
        td = copy.deepcopy(detector).fit([vs for d, vs in enumerate(docs_views) if fold[d] != k])
        flat = [v for d in held for v in docs_views[d]]
        scores, index = td.scores(flat)
        found = trigger_candidates(scores, index, td.classes_, len(flat), td.none_bias,
                                   td.type_bias, slack)
        j = 0
        for d in held:
            per_doc[d] = found[j:j + len(docs_views[d])]
            j += len(docs_views[d])
    out: list[dict[int, set[str]]] = []
    for vs, found_doc in zip(docs_views, per_doc, strict=True):
        for v, found_view in zip(vs, found_doc, strict=True):
            nodes = {t: set(types) for t, types in v.gold_triggers.items()}
            for t, typ in found_view:
                nodes.setdefault(t, set()).add(typ)
            out.append(nodes)
    return out

