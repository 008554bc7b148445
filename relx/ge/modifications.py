"""Negation and Speculation of events (BioNLP-ST GE task 3): ``M`` lines on predicted events.

Each event is described by its trigger token in context: the trigger's word, lemma and event
type, the lemmas around it (+-4 tokens), its dependency neighbourhood (dependents with their
labels, the chain of up to three governors), the negation and speculation cue words of the
sentence (:data:`NEGATION_CUES`, :data:`SPECULATION_CUES`; before or after the trigger,
whether the cue governs it) and, for a regulation, the same about its nested Theme's
trigger. One logistic regression per modification type (hashed features) is trained on the
gold events of the training documents; its decision threshold is the F1-best one on 5-fold
document out-of-fold probabilities of the training events (seeded), so no setting is taken
from test data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from relx.doc import MODIFICATION_TYPES, Event, Modification, StandoffDocument
from relx.ge.sentences import SentenceView, _sentence_of, trigger_head
from relx.learn.predictors import FeatureHasher
from relx.represent.hedging import NEGATION_CUES, SPECULATION_CUES  # one cue list for both tasks

if TYPE_CHECKING:
    from sklearn.linear_model import LogisticRegression


def _lemma(view: SentenceView, i: int) -> str:
    t = view.tokens[i]
    return (t.lemma or t.text).lower()


def _ancestors(view: SentenceView, i: int, depth: int = 3) -> list[tuple[str, int]]:
    """(label, token) up the dependency tree from ``i``, at most ``depth`` steps."""
    out, cur, seen = [], i, {i}
    for _ in range(depth):
        heads = [(d["label"], h) for h in view.graph.predecessors(cur)
                 for d in view.graph.get_edge_data(h, cur).values()]
        if not heads or heads[0][1] in seen:
            break
        out.append(heads[0])
        cur = heads[0][1]
        seen.add(cur)
    return out


def token_context(view: SentenceView, i: int, prefix: str = "") -> dict[str, float]:
    """Features of trigger token ``i`` in its sentence (see the module docstring)."""
    lem = _lemma(view, i)
    f: dict[str, float] = {f"{prefix}w={view.tokens[i].text.lower()}": 1, f"{prefix}l={lem}": 1}
    for j in range(max(0, i - 4), min(len(view.tokens), i + 5)):
        if j != i:
            side = "L" if j < i else "R"
            f[f"{prefix}ctx{side}={_lemma(view, j)}"] = 1
    for c in view.graph.successors(i):
        for d in view.graph.get_edge_data(i, c).values():
            f[f"{prefix}dep={d['label']}:{_lemma(view, c)}"] = 1
    anc = _ancestors(view, i)
    for k, (label, h) in enumerate(anc):
        f[f"{prefix}anc{k}={_lemma(view, h)}"] = 1
        f[f"{prefix}anc={_lemma(view, h)}"] = 1
        f[f"{prefix}anc_l={label}"] = 1
    governors = {i, *(h for _, h in anc)}
    for j, t in enumerate(view.tokens):
        lj = (t.lemma or t.text).lower()
        for kind, cues in (("neg", NEGATION_CUES), ("spec", SPECULATION_CUES)):
            if lj in cues or t.text.lower() in cues:
                side = "before" if j < i else "after"
                f[f"{prefix}{kind}_cue={lj}"] = 1
                f[f"{prefix}{kind}_{side}"] = 1
                if abs(j - i) <= 3:
                    f[f"{prefix}{kind}_near={lj}"] = 1
                if any(h in governors for h in view.graph.predecessors(j)) or j in governors:
                    f[f"{prefix}{kind}_governs={lj}"] = 1
    return f


def document_features(so: StandoffDocument, views: Sequence[SentenceView]
                      ) -> list[tuple[Event, dict[str, float]]]:
    """(event, :func:`event_features`) for the events of ``so`` whose trigger lies in a
    sentence view."""
    tbs, events, views = so.textbounds(), so.event_map(), list(views)
    rows = [(ev, event_features(tbs, events, views, ev)) for ev in so.events]
    return [(ev, f) for ev, f in rows if f is not None]


def event_features(tbs: dict, events: dict, views: list[SentenceView], ev: Event
                   ) -> dict[str, float] | None:
    """Features of one event (``tbs`` / ``events``: its document's text-bounds and events by
    id), ``None`` when its trigger is outside every sentence view."""
    tb = tbs.get(ev.trigger)
    si = None if tb is None else _sentence_of(views, tb.start)
    tok = None if si is None else trigger_head(views[si], tb)
    if tok is None:
        return None
    f = token_context(views[si], tok)
    f[f"type={ev.type}"] = 1
    f[f"type_l={ev.type}/{_lemma(views[si], tok)}"] = 1
    for role, ref in ev.arguments:
        if ref in events:   # a nested event: its trigger's context too
            inner = tbs.get(events[ref].trigger)
            itok = None if inner is None else trigger_head(views[si], inner)
            f[f"arg={role}:{events[ref].type}"] = 1
            if itok is not None:
                f.update(token_context(views[si], itok, prefix="in_"))
        else:
            f[f"arg={role}:Protein"] = 1
    return f


class ModificationDetector:
    """One logistic regression per modification type over :func:`event_features`."""

    def __init__(self, C: float = 1.0, n_features: int = 2 ** 18, folds: int = 5,
                 random_state: int = 0) -> None:
        self.C = C
        self.n_features = n_features
        self.folds = folds
        self.random_state = random_state

    def _hasher(self) -> FeatureHasher:
        return FeatureHasher(n_features=self.n_features, input_type="dict",
                             alternate_sign=False)

    def _model(self) -> LogisticRegression:
        from sklearn.linear_model import LogisticRegression

        return LogisticRegression(C=self.C, max_iter=2000)

    def fit(self, docs: Sequence[tuple[StandoffDocument, Sequence[SentenceView]]]
            ) -> ModificationDetector:
        """``docs``: (gold standoff document, its sentence views) pairs."""
        from sklearn.metrics import precision_recall_curve
        from sklearn.model_selection import GroupKFold

        feats, labels, groups = [], [], []
        for d, (so, views) in enumerate(docs):
            mods = so.modifications_of()
            for ev, f in document_features(so, views):
                feats.append(f)
                labels.append([t in mods.get(ev.id, ()) for t in MODIFICATION_TYPES])
                groups.append(d)
        X = self._hasher().transform(feats)
        Y = np.array(labels, dtype=bool).reshape(len(feats), len(MODIFICATION_TYPES))
        g = np.asarray(groups)
        order = np.random.RandomState(self.random_state).permutation(len(docs))
        fold_groups = order[g] % self.folds   # seeded document folds
        self.models_, self.thresholds_ = {}, {}
        for k, typ in enumerate(MODIFICATION_TYPES):
            y = Y[:, k]
            if y.sum() < 2:
                continue
            oof = np.zeros(len(y))
            for tr, te in GroupKFold(self.folds).split(X, y, fold_groups):
                if y[tr].any():
                    oof[te] = self._model().fit(X[tr], y[tr]).predict_proba(X[te])[:, 1]
            p, r, t = precision_recall_curve(y, oof)
            f1 = 2 * p * r / np.maximum(p + r, 1e-12)
            self.thresholds_[typ] = float(t[int(np.argmax(f1[:-1]))]) if len(t) else 0.5
            self.models_[typ] = self._model().fit(X, y)
        return self

    def predict(self, so: StandoffDocument, views: Sequence[SentenceView]) -> StandoffDocument:
        """``so`` with ``M`` lines for its events judged negated / speculated."""
        rows = document_features(so, views)
        if not rows or not self.models_:
            return so
        X = self._hasher().transform([f for _, f in rows])
        mods = []
        for typ, model in self.models_.items():
            p = model.predict_proba(X)[:, 1]
            mods += [(typ, ev.id) for (ev, _), q in zip(rows, p, strict=True)
                     if q >= self.thresholds_[typ]]
        mods.sort(key=lambda m: (int(m[1][1:]) if m[1][1:].isdigit() else 0, m[0]))
        return so.model_copy(update={"modifications": [
            Modification(id=f"M{k}", type=typ, event=eid) for k, (typ, eid) in
            enumerate(mods, 1)]})
