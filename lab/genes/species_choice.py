"""Naming round 89's experiment, not kept (docs/genes.md): a learned choice between human and
mouse for a gene mention whose species the rules of :func:`relx.genes.species.assign_species`
take from beyond its sentence.

The rules decide from what the mention and its sentence say (a species prefix, rodent
nomenclature, a knockout, an organism named in the sentence); where they fall back on the
paragraph, the document's focus, the default or a mammal cue (:data:`BEYOND_SENTENCE`) and
say human or mouse, :class:`SpeciesModel` -- a logistic regression over the mention's
context (:func:`mention_features`: the species the document, the paragraph, the sentence
before name, the mention's own writing; no rule's output), learned on BioRED train's fit
split by ``lab/genes/species_model.py`` and stored as JSON -- chooses between the two
(:func:`learned_species`). Round 79 let it choose wherever a context rule chose.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from relx.doc import Document
from relx.errors import ConfigError
from relx.estimator import BaseEstimator, ClassifierMixin, check_is_fitted
from relx.genes import species as sp
from relx.genes.mention_species import (
    KNOCKOUT_AFTER,
    knockout_animal,
    knockout_suffix,
    name_part,
    species_prefix,
)
from relx.ids import HUMAN, MOUSE

__all__ = ["BEYOND_SENTENCE", "SpeciesModel", "learned_species", "mention_features"]

MODEL_FORMAT = "relx-species-model/1"
#: the rules' evidence from beyond the mention's sentence: where the model chooses
BEYOND_SENTENCE = frozenset({"paragraph", "document", "default", "mammal"})
#: the model's two classes (``predict_proba`` columns)
CLASSES = ("human", "mouse")
_TAXA = {"human": HUMAN, "mouse": MOUSE}
_GROUPS = ("human", "mouse", "other")
#: kinds of organism mention counted per document
_KINDS = ("name", "cell_line", "xenograft", "host", "genetics")
_MOUSE_STYLE = re.compile(r"^[A-Z][a-z][a-z0-9]*$|^[A-Z][a-z]*\d+[a-z0-9]*$")
_CAPS = re.compile(r"^[A-Z0-9-]+$")

InLexicon = Callable[[str, str], bool]


def _group(taxon: str | None) -> str:
    return {HUMAN: "human", MOUSE: "mouse"}.get(taxon or "", "other")


def mention_features(doc: Document, hits: Sequence[sp.SpeciesHit], *,
                     in_lexicon: InLexicon, rodent_symbol: Callable[[str], bool],
                     family_name: Callable[[str], bool] | None = None,
                     only: set[str] | None = None) -> dict[str, dict[str, float]]:
    """Entity id -> feature name -> value, for ``doc``'s gene mentions (those in ``only``
    when given). ``hits``: the document's organism mentions (:func:`find_species`)."""
    text = doc.text
    found = sorted([*hits, *sp.mouse_genetics(text), *sp.abbreviated_cells(doc, list(hits))],
                   key=lambda h: h.start)
    found = sp.tumour_hosts(text, found)
    used = [h for h in found if h.kind in sp.GENE_KINDS]
    sents, paras = sp._spans(doc)
    ents = [e for s in doc.sentences for e in s.entities if sp._is_gene(e.type)]
    names = [sp._entity_text(doc, e).strip() for e in ents]
    n = len(ents) or 1
    doc_f: dict[str, float] = {
        "rod_share": sum(bool(rodent_symbol(name_part(t))) for t in names) / n,
        "mstyle_share": sum(bool(_MOUSE_STYLE.match(t)) for t in names) / n}
    counts = Counter(_group(h.taxon) for h in used)
    kinds = Counter((h.kind, _group(h.taxon)) for h in found)
    title_end = sents[0][1]
    in_title = Counter(_group(h.taxon) for h in used if h.start < title_end)
    total = sum(counts.values()) or 1
    for g in _GROUPS:
        doc_f[f"doc_{g}"] = math.log1p(counts[g])
        doc_f[f"docshare_{g}"] = counts[g] / total
        doc_f[f"title_{g}"] = float(in_title[g] > 0)
        for k in _KINDS:
            if kinds[k, g]:
                doc_f[f"kind_{k}_{g}"] = math.log1p(kinds[k, g])
    focus = sp.document_focus(used)
    doc_f[f"first={_group(used[0].taxon) if used else 'none'}"] = 1.0
    doc_f[f"focus={_group(focus) if focus else 'none'}"] = 1.0
    out: dict[str, dict[str, float]] = {}
    for e, t in zip(ents, names, strict=True):
        if only is not None and e.id not in only:
            continue
        f = dict(doc_f)
        _context(f, text, e.start, e.end, used, sents, paras)
        name = name_part(t)
        pre = species_prefix(name, in_lexicon, family_name)
        if pre is not None:
            f[f"prefix={_group(pre[0])}"] = 1.0
        animal = knockout_animal(text, t, e.end)
        if animal is not None:
            f[f"ko_animal={_group(animal)}"] = 1.0
        if knockout_suffix(t) or KNOCKOUT_AFTER.match(text[e.end:e.end + 20]):
            f["ko_marker"] = 1.0
        if rodent_symbol(name):
            f["rodent_symbol"] = 1.0
        f["mouse_style"] = float(bool(_MOUSE_STYLE.match(t)))
        f["caps"] = float(bool(_CAPS.match(t)))
        f["in_human"] = float(in_lexicon(t, HUMAN))
        f["in_mouse"] = float(in_lexicon(t, MOUSE))
        f["in_title"] = float(e.start < title_end)
        out[e.id] = f
    return out


def _context(f: dict[str, float], text: str, start: int, end: int,
             used: list[sp.SpeciesHit], sents: list[tuple[int, int]],
             paras: list[tuple[int, int]]) -> None:
    """Add the features of the species named around a mention at ``start:end``."""
    sa, sb = sp._span_at(sents, start)
    in_sentence = [h for h in used if sa <= h.start < sb]
    for g in _GROUPS:
        f[f"sent_{g}"] = float(any(_group(h.taxon) == g for h in in_sentence))
    near = sp._nearest(in_sentence, start, end, False)
    if near is not None:
        f[f"sent_near={_group(near.taxon)}"] = 1.0
        if 0 <= start - near.end <= 2:    # "human H-Ras": the species of this gene
            f[f"modifier={_group(near.taxon)}"] = 1.0
        if near.end <= start:
            f[f"sent_near_before={_group(near.taxon)}"] = 1.0
    pa, _ = sp._span_at(paras, start)
    before = [h for h in used if pa <= h.start and h.end <= start]
    if before:
        f[f"para_before={_group(before[-1].taxon)}"] = 1.0
        for g in _GROUPS:
            f[f"last3_{g}"] = sum(_group(h.taxon) == g for h in before[-3:]) / 3
    i = bisect_right(sents, (start, len(text) + 1)) - 1
    if i > 0:
        pa2, pb2 = sents[i - 1]
        for g in _GROUPS:
            if any(_group(h.taxon) == g for h in used if pa2 <= h.start < pb2):
                f[f"prev_{g}"] = 1.0
    if sp._INHERITED.search(text, sa, sb):
        f["inherited"] = 1.0
    if sp._STUDY_OPENER.match(text, sa):
        f["study_opener"] = 1.0
    if sp._MAMMAL.search(text, sa, sb):
        f["mammal"] = 1.0


class SpeciesModel(ClassifierMixin, BaseEstimator):
    """Human or mouse from a mention's features (:func:`mention_features`): a logistic
    regression over feature dicts. ``C``: inverse regularisation strength.

    Learned: ``features_`` (names, sorted), ``coef_`` (n_features,), ``intercept_``,
    ``classes_`` (``("human", "mouse")``)."""

    def __init__(self, C: float = 0.03, random_state: int | None = 0) -> None:
        self.C = C
        self.random_state = random_state

    def _matrix(self, X: Sequence[Mapping[str, float]]) -> np.ndarray:
        col = {name: j for j, name in enumerate(self.features_)}
        out = np.zeros((len(X), len(col)))
        for i, f in enumerate(X):
            for k, v in f.items():
                j = col.get(k)
                if j is not None:
                    out[i, j] = v
        return out

    def fit(self, X: Sequence[Mapping[str, float]], y: Sequence[str]) -> SpeciesModel:
        """Learn from feature dicts ``X`` and labels ``y`` (``"human"``/``"mouse"``)."""
        labels = np.asarray(y)
        if not set(labels) <= set(CLASSES):
            raise ValueError(f"labels must be {CLASSES}, got {sorted(set(labels))}")
        from sklearn.linear_model import LogisticRegression

        self.features_ = sorted({k for f in X for k in f})
        lr = LogisticRegression(C=self.C, max_iter=5000, random_state=self.random_state)
        lr.fit(self._matrix(X), labels == "mouse")
        self.coef_ = lr.coef_[0].copy()
        self.intercept_ = float(lr.intercept_[0])
        self.classes_ = np.array(CLASSES)
        return self

    def predict_proba(self, X: Sequence[Mapping[str, float]]) -> np.ndarray:
        """(n, 2) probabilities of human and mouse."""
        check_is_fitted(self, "coef_")
        z = np.clip(self._matrix(X) @ self.coef_ + self.intercept_, -30, 30)
        mouse = 1.0 / (1.0 + np.exp(-z))
        return np.column_stack([1.0 - mouse, mouse])

    def predict(self, X: Sequence[Mapping[str, float]]) -> np.ndarray:
        """(n,) ``"human"`` or ``"mouse"``."""
        return self.classes_[(self.predict_proba(X)[:, 1] >= 0.5).astype(int)]

    # storage: JSON, never pickle
    def to_json(self) -> dict:
        check_is_fitted(self, "coef_")
        return {"format": MODEL_FORMAT, "C": self.C, "random_state": self.random_state,
                "intercept": round(self.intercept_, 8),
                "coef": {k: round(float(c), 8)
                         for k, c in zip(self.features_, self.coef_, strict=True)}}

    @classmethod
    def from_json(cls, data: dict) -> SpeciesModel:
        if data.get("format") != MODEL_FORMAT:
            raise ConfigError("not a relx species model")
        model = cls(C=float(data["C"]), random_state=data.get("random_state"))
        model.features_ = sorted(data["coef"])
        model.coef_ = np.array([data["coef"][k] for k in model.features_], dtype=np.float64)
        model.intercept_ = float(data["intercept"])
        model.classes_ = np.array(CLASSES)
        return model


def learned_species(doc: Document, hits: Sequence[sp.SpeciesHit],
                    assigned: Mapping[str, sp.SpeciesAssignment], model: SpeciesModel, *,
                    in_lexicon: InLexicon, rodent_symbol: Callable[[str], bool],
                    family_name: Callable[[str], bool] | None = None
                    ) -> dict[str, sp.SpeciesAssignment]:
    """``assigned`` (the rules' species of ``doc``'s gene mentions, by entity id) with the
    model's choice between human and mouse where the rules said one of them from beyond
    the mention's sentence (:data:`BEYOND_SENTENCE`); such a mention's evidence becomes
    ``learned``. ``hits``: the document's organism mentions (:func:`sp.find_species`)."""
    chosen = {k for k, a in assigned.items()
              if a.evidence in BEYOND_SENTENCE and a.taxon in (HUMAN, MOUSE)}
    if not chosen:
        return dict(assigned)
    feats = mention_features(doc, hits, in_lexicon=in_lexicon, rodent_symbol=rodent_symbol,
                             family_name=family_name, only=chosen)
    ids = sorted(feats)
    out = dict(assigned)
    for k, label in zip(ids, model.predict([feats[k] for k in ids]), strict=True):
        out[k] = sp.SpeciesAssignment(_TAXA[str(label)], "learned")
    return out


