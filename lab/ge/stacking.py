"""Stacked trigger detection: a second-stage trigger classifier over stage-1 outputs.

Stage 1 is the plain pipeline's trigger model (:class:`~lab.ge.triggers.LeverTriggerDetector`,
relx's :class:`~relx.ge.triggers.LeverTriggerDetector` with the lab's levers)
and a features-only edge model (:class:`~relx.ge.edges.EdgeDetector`, trained on gold
triggers). Stage 2 is a linear classifier over the stage-1 token features plus what stage 1
says about the token and its surroundings (:func:`stack_features`):

* the token's stage-1 margin over ``None`` per event type (binned) and its winning class;
* for the token's best type of each class (SVT, Binding, regulation) the edge model's best
  Theme score to a protein and, for regulations, its best Theme to a stage-1 predicted
  trigger and its best Cause (``p(role) - p(None)``, binned, and crossed with the margin);
* the stage-1 predictions of its governor and dependents (with the dependency label), of
  the tokens within 2, and the predicted trigger classes of the sentence.

Training rows of stage 2 see realistic stage-1 outputs: the training documents are split
into ``folds`` folds of documents (``groups = "paper"``: of whole papers, so a full-text
section's outputs never come from a model that saw its sibling sections or its second
edition); stage 1 is fitted on the other folds and predicts the held one
(:func:`crossfit_stage1`), and the stage-1 token features of a held row use that fitted
model's trigger dictionary (which did not see the row). At prediction stage 1 is fitted on
all training documents. ``scores``/``predict``/``classes_``/``none_bias``/``type_bias``
follow :class:`~lab.ge.triggers.LeverTriggerDetector`, so the detector can stand in for it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.feature_extraction import FeatureHasher
from sklearn.svm import LinearSVC

from lab.ge.triggers import LeverDictionary, LeverTriggerDetector, biased, decide, document_folds
from relx.doc import GE_EVENT_TYPES, REGULATION_TYPES
from relx.ge.edges import CLASSES, EdgeCandidate, EdgeDetector, edge_features, gold_labels
from relx.ge.edges import candidates as edge_candidates
from relx.ge.sentences import SentenceView
from relx.ge.triggers import NONE_LABEL, TriggerDictionary, _label, token_features

#: event types by class, in the column order of :attr:`Stage1Output.margins`
TYPE_CLASSES: dict[str, tuple[str, ...]] = {
    "SVT": tuple(t for t in GE_EVENT_TYPES if t != "Binding" and t not in REGULATION_TYPES),
    "BIND": ("Binding",),
    "REG": tuple(t for t in GE_EVENT_TYPES if t in REGULATION_TYPES),
}
TYPES: tuple[str, ...] = tuple(t for ts in TYPE_CLASSES.values() for t in ts)
CLASS_OF = {t: c for c, ts in TYPE_CLASSES.items() for t in ts}
#: columns of :attr:`Stage1Output.edge_best`
EDGE_COLUMNS = ("SVT:theme", "BIND:theme", "REG:theme_prot", "REG:theme_trig", "REG:cause")
MARGIN_BINS = np.array([-2.0, -1.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0])
EDGE_BINS = np.array([-0.6, -0.3, -0.1, 0.0, 0.1, 0.3, 0.6])


@dataclass
class Stage1Output:
    """Stage-1 outputs for a list of sentence views (N candidate tokens)."""

    index: list[tuple[int, int]]            # (view index, token) of each row
    margins: np.ndarray                     # (N, len(TYPES)) best class score - None score
    winner: list[str]                       # the argmax class of each row
    predicted: list[dict[int, set[str]]]    # per view: token -> predicted types
    edge_best: np.ndarray                   # (N, len(EDGE_COLUMNS)); NaN: not scored


def bin_of(value: float, edges: np.ndarray) -> int:
    """The index of the bin of ``value`` between the sorted bin ``edges``."""
    return int(np.searchsorted(edges, value, side="right"))


def type_margins(scores: np.ndarray, classes: Sequence[str], none_bias: float,
                 type_bias: dict[str, float] | None = None) -> np.ndarray:
    """(N, len(TYPES)) per type: the best biased score of a class holding it minus the
    biased ``None`` score (-inf when no class holds the type)."""
    s = biased(scores, list(classes), none_bias, type_bias)
    none = s[:, list(classes).index(NONE_LABEL)]
    out = np.full((len(s), len(TYPES)), -np.inf)
    for k, c in enumerate(classes):
        if c == NONE_LABEL:
            continue
        for t in c.split("|"):
            if t in TYPES:
                j = TYPES.index(t)
                out[:, j] = np.maximum(out[:, j], s[:, k] - none)
    return out


def stage1_outputs(views: Sequence[SentenceView], triggers: LeverTriggerDetector,
                   edges: EdgeDetector, slack: float,
                   scored: tuple[np.ndarray, list[tuple[int, int]]] | None = None
                   ) -> Stage1Output:
    """Stage-1 trigger margins and decisions for every candidate token of ``views``, and
    the edge model's best argument scores of the tokens within ``slack`` of ``None``;
    ``scored``: ``triggers.scores(views)`` when already computed."""
    scores, index = triggers.scores(views) if scored is None else scored
    classes = triggers.classes_
    predicted = decide(scores, index, classes, len(views), triggers.none_bias,
                       triggers.type_bias)
    if not index:
        return Stage1Output(index, np.zeros((0, len(TYPES))), [], predicted,
                            np.zeros((0, len(EDGE_COLUMNS))))
    margins = type_margins(scores, classes, triggers.none_bias, triggers.type_bias)
    s = biased(scores, classes, triggers.none_bias, triggers.type_bias)
    winner = [classes[b] for b in s.argmax(axis=1)]
    edge_best = np.full((len(index), len(EDGE_COLUMNS)), np.nan)
    cands: list[EdgeCandidate] = []
    owner: list[tuple[int, str]] = []     # (row, class) of each candidate
    for row, (vi, tok) in enumerate(index):
        if margins[row].max() <= -slack:
            continue
        v = views[vi]
        nodes = [(t, ty) for t, tys in sorted(predicted[vi].items()) for ty in sorted(tys)
                 if t != tok]
        for cls, types in TYPE_CLASSES.items():
            cols = [TYPES.index(t) for t in types]
            src = (tok, types[int(np.argmax(margins[row, cols]))])
            targets: list[object] = list(v.protein_head)
            if cls == "REG":
                targets += nodes
            for dst in targets:
                cands.append(EdgeCandidate(vi, src, dst))
                owner.append((row, cls))
    if cands:
        proba = edge_proba(views, cands, edges, predicted)
        theme, cause, none = (CLASSES.index(r) for r in ("Theme", "Cause", "None"))
        for (row, cls), c, p in zip(owner, cands, proba, strict=True):
            if cls == "REG":
                col = "REG:theme_prot" if c.dst_is_protein else "REG:theme_trig"
                _raise(edge_best, row, EDGE_COLUMNS.index(col), p[theme] - p[none])
                _raise(edge_best, row, EDGE_COLUMNS.index("REG:cause"), p[cause] - p[none])
            else:
                _raise(edge_best, row, EDGE_COLUMNS.index(f"{cls}:theme"), p[theme] - p[none])
    return Stage1Output(index, margins, winner, predicted, edge_best)


def _raise(a: np.ndarray, row: int, col: int, value: float) -> None:
    if np.isnan(a[row, col]) or value > a[row, col]:
        a[row, col] = value


def edge_proba(views: Sequence[SentenceView], cands: Sequence[EdgeCandidate],
               edges: EdgeDetector, predicted: Sequence[dict[int, set[str]]]) -> np.ndarray:
    """(N, 3) None/Theme/Cause probabilities of the features-only edge model; the other
    triggers on a path are the stage-1 predicted ones (as gold ones are in training)."""
    trig = [{t: CLASS_OF.get(next(iter(sorted(tys))), "SVT") for t, tys in p.items()}
            for p in predicted]
    X = FeatureHasher(n_features=edges.n_features, input_type="dict",
                      alternate_sign=False).transform(
        [edge_features(views[c.view], c, trig[c.view]) for c in cands])
    p = edges.linear_.predict_proba(X)
    out = np.zeros((len(cands), len(CLASSES)))
    for k, c in enumerate(edges.linear_.classes_):
        out[:, CLASSES.index(str(c))] = p[:, k]
    return out


def _class_of_types(types: set[str]) -> str:
    return "|".join(sorted({CLASS_OF.get(t, "SVT") for t in types}))


def stack_features(view: SentenceView, vi: int, tok: int, margins: np.ndarray,
                   winner: str, edge_best: np.ndarray | None,
                   predicted: Sequence[dict[int, set[str]]]) -> dict[str, float]:
    """Sparse stacked features of candidate token ``tok`` of view ``view`` (index ``vi``):
    ``margins`` (len(TYPES),) and ``edge_best`` (len(EDGE_COLUMNS),) are its stage-1 row,
    ``predicted`` the stage-1 decisions of every view."""
    f: dict[str, float] = {f"k:win={winner}": 1.0}
    cls_bin: dict[str, int] = {}
    for cls, types in TYPE_CLASSES.items():
        m = max(float(margins[TYPES.index(t)]) for t in types)
        cls_bin[cls] = bin_of(m, MARGIN_BINS)
        f[f"k:cm={cls}:{cls_bin[cls]}"] = 1.0
    for t, m in zip(TYPES, margins, strict=True):
        if m > -2.0:
            f[f"k:m={t}:{bin_of(float(m), MARGIN_BINS)}"] = 1.0
            f[f"k:mv={t}"] = float(np.clip(m, -2.0, 2.0))
    if edge_best is not None:
        for col, e in zip(EDGE_COLUMNS, edge_best, strict=True):
            if np.isnan(e):
                continue
            cls = col.split(":")[0]
            b = bin_of(float(e), EDGE_BINS)
            f[f"k:e={col}:{b}"] = 1.0
            f[f"k:ev={col}"] = float(e)
            f[f"k:ex={col}:{cls_bin[cls]}:{b}"] = 1.0
    pred = predicted[vi]
    g, toks = view.graph, view.tokens
    for h in g.predecessors(tok):
        for d in g.get_edge_data(h, tok).values():
            who = _class_of_types(pred[h]) if h in pred else (
                "PROT" if h in view.protein_tokens else "O")
            f[f"k:gov={d['label']}:{who}"] = 1.0
            f[f"k:gov={who}"] = 1.0
    for c in g.successors(tok):
        for d in g.get_edge_data(tok, c).values():
            if c in pred:
                f[f"k:dep={d['label']}:{_class_of_types(pred[c])}"] = 1.0
                f[f"k:dep={_class_of_types(pred[c])}"] = 1.0
    for off in (-2, -1, 1, 2):
        j = tok + off
        if 0 <= j < len(toks) and j in pred:
            f[f"k:win{off}={_class_of_types(pred[j])}"] = 1.0
    counts: dict[str, int] = {}
    for t, tys in pred.items():
        if t != tok:
            for c in {CLASS_OF.get(ty, "SVT") for ty in tys}:
                counts[c] = counts.get(c, 0) + 1
    for c, n in counts.items():
        f[f"k:sent={c}:{min(n, 3)}"] = 1.0
    if not counts:
        f["k:sent=none"] = 1.0
    return f


@dataclass
class CrossFit:
    """Stage-1 outputs of held-out folds: the held views, their outputs and the stage-1
    models (fitted on the other folds) that produced them."""

    views: list[SentenceView]
    output: Stage1Output
    triggers: LeverTriggerDetector
    edges: EdgeDetector

    @property
    def dictionary(self) -> TriggerDictionary:
        return self.triggers.dictionary_


def fit_stage1(docs_views: Sequence[Sequence[SentenceView]], triggers: LeverTriggerDetector,
               edges: EdgeDetector) -> tuple[LeverTriggerDetector, EdgeDetector]:
    """Fresh copies of ``triggers`` and ``edges`` fitted on the documents' gold labels."""
    td = copy.deepcopy(triggers).fit(docs_views)
    views = [v for vs in docs_views for v in vs]
    cands = edge_candidates(views, [v.gold_triggers for v in views])
    ed = copy.deepcopy(edges).fit(views, cands, gold_labels(views, cands))
    return td, ed


def crossfit_stage1(docs_views: Sequence[Sequence[SentenceView]], triggers: LeverTriggerDetector,
                    edges: EdgeDetector, folds: int = 5, slack: float = 1.5, seed: int = 0,
                    verbose: bool = False, groups: str = "document") -> list[CrossFit]:
    """Per fold of documents (``groups = "paper"``: of whole papers,
    :func:`lab.ge.triggers.document_folds`): stage 1 fitted on the other folds, its
    outputs on the held one."""
    fold = document_folds(docs_views, folds, groups, seed)
    out = []
    for k in range(folds):
        held = [v for d, vs in enumerate(docs_views) if fold[d] == k for v in vs]
        if not held:
            continue
        td, ed = fit_stage1([vs for d, vs in enumerate(docs_views) if fold[d] != k],
                            triggers, edges)
        out.append(CrossFit(held, stage1_outputs(held, td, ed, slack), td, ed))
        if verbose:
            print(f"stage 1 fold {k + 1}/{folds}: {len(held)} held sentences", flush=True)
    return out


class StackedTriggerDetector:
    """Stage-1 trigger + edge models and a stage-2 linear trigger classifier over the
    stage-1 token features and the stacked features (see the module docstring)."""

    def __init__(self, *, triggers: dict[str, Any] | None = None, edge_C: float = 0.3,
                 edge_n_features: int = 2 ** 18, folds: int = 5, slack: float = 1.5,
                 C: float = 0.03, n_features: int = 2 ** 18, none_bias: float = 0.7,
                 edge_scores: bool = True, type_bias: dict[str, float] | None = None,
                 groups: str = "document", random_state: int = 0) -> None:
        self.triggers = triggers
        self.edge_C = edge_C
        self.edge_n_features = edge_n_features
        self.folds = folds
        self.slack = slack
        self.C = C
        self.n_features = n_features
        self.none_bias = none_bias
        self.edge_scores = edge_scores
        self.type_bias = type_bias
        self.groups = groups
        self.random_state = random_state

    def stage1_templates(self) -> tuple[LeverTriggerDetector, EdgeDetector]:
        """Unfitted stage-1 models built from the parameters."""
        params = {k: v for k, v in (self.triggers or {}).items() if k != "random_state"}
        return (LeverTriggerDetector(**params, random_state=self.random_state),
                EdgeDetector(method="features", C=self.edge_C,
                             n_features=self.edge_n_features, random_state=self.random_state))

    def _hasher(self) -> FeatureHasher:
        return FeatureHasher(n_features=self.n_features, input_type="dict", alternate_sign=False)

    def _rows(self, views: Sequence[SentenceView], out: Stage1Output,
              dictionary: TriggerDictionary,
              base: list[dict[str, float]] | None = None) -> list[dict[str, float]]:
        """Stage-2 feature dicts; ``base``: the rows' token features (extended in place)."""
        feats = []
        for row, (vi, tok) in enumerate(out.index):
            f = token_features(views[vi], tok, dictionary) if base is None else base[row]
            f.update(stack_features(views[vi], vi, tok, out.margins[row], out.winner[row],
                                    out.edge_best[row] if self.edge_scores else None,
                                    out.predicted))
            feats.append(f)
        return feats

    def fit(self, docs_views: Sequence[Sequence[SentenceView]],
            verbose: bool = False) -> StackedTriggerDetector:
        """Cross-fit stage 1, fit stage 2 on the held-out outputs, refit stage 1 on all."""
        td, ed = self.stage1_templates()
        held = crossfit_stage1(docs_views, td, ed, self.folds, self.slack, self.random_state,
                               verbose, self.groups)
        return self.fit_from(held, fit_stage1(docs_views, td, ed))

    def fit_from(self, held: Sequence[CrossFit],
                 stage1: tuple[LeverTriggerDetector, EdgeDetector]) -> StackedTriggerDetector:
        """Fit stage 2 on precomputed cross-fitted outputs; ``stage1``: the models fitted
        on all training documents (used at prediction)."""
        feats: list[dict[str, float]] = []
        labels: list[str] = []
        for cf in held:
            feats += self._rows(cf.views, cf.output, cf.dictionary)
            labels += [_label(cf.views[vi], tok) for vi, tok in cf.output.index]
        self.model_ = LinearSVC(C=self.C, random_state=self.random_state)
        self.model_.fit(self._hasher().transform(feats), np.array(labels))
        self.classes_ = list(self.model_.classes_)
        self.stage1_triggers_, self.stage1_edges_ = stage1
        self.dictionary_ = self.stage1_triggers_.dictionary_   # both stages' dictionary
        return self

    # -- persistence (relx.ge.pipeline keeps ``model_``, ``classes_`` and ``dictionary_``) --
    def stage1_parts(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """(fitted scikit-learn parts, JSON metadata) of stage 1, for a saved event model."""
        return ({"stage1_trigger_model": self.stage1_triggers_.model_,
                 "stage1_edge_linear": self.stage1_edges_.linear_},
                {"stage1_trigger_classes": list(self.stage1_triggers_.classes_)})

    def dictionary_from_json(self, d: dict[str, Any]) -> LeverDictionary:
        return LeverDictionary.from_json(d)

    def restore_stage1(self, parts: dict[str, Any], meta: dict[str, Any]) -> None:
        """Rebuild stage 1 from :meth:`stage1_parts` output (``dictionary_`` already set)."""
        td, ed = self.stage1_templates()
        td.model_, td.classes_ = parts["stage1_trigger_model"], list(meta["stage1_trigger_classes"])
        td.dictionary_ = self.dictionary_
        ed.linear_ = parts["stage1_edge_linear"]
        self.stage1_triggers_, self.stage1_edges_ = td, ed

    def scores(self, views: Sequence[SentenceView]) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """(N, n_classes) stage-2 decision scores of every candidate and its (view, token)."""
        td = self.stage1_triggers_
        # the token features are the same for both stages (stage 1's dictionary): made once
        base, index = td._rows(views, td.dictionary_)
        if not index:
            return np.zeros((0, len(self.classes_))), index
        scored = (td.model_.decision_function(td._hasher().transform(base)), index)
        out = stage1_outputs(views, td, self.stage1_edges_, self.slack, scored)
        feats = self._rows(views, out, td.dictionary_, base)
        return self.model_.decision_function(self._hasher().transform(feats)), out.index

    predict = LeverTriggerDetector.predict   # the same decision, over the stage-2 scores
