"""The document-level gene relation model: is a gene pair related, how (BioRED's types), and is
it the paper's finding (Novel) or background -- three classifiers on the pair features of
:mod:`relx.ppi.doc_features`.

``DocRelationModel.fit(X, texts, related, types, novel, groups)``: ``X`` (n_pairs,
n_features), ``texts`` each pair's masked evidence text,
``related`` (n_pairs,) 0/1, ``types`` (n_pairs,) the gold type of each related pair ("" for
the others), ``novel`` (n_pairs,) 0/1 (read on related pairs only), ``groups`` the document
of each pair (calibration folds by document). The pair probability is calibrated
(isotonic or sigmoid, out of fold by document); types rarer than ``min_type_pairs`` fall
back to the most common type. ``type_model`` / ``novel_model``: ``"hgb"`` (trees on the
features), ``"text"`` (:class:`relx.ppi.doc_text.PairTextClassifier`) or ``"text-aux"`` (its
n-grams only, learned from the gene pairs and ``aux``: the masked texts, types and novelty of
relations between other entity types, e.g. BioRED's chemical--gene and disease--gene ones); ``pair_text``: the
pair model also reads a text classifier's probability (out of fold by document while
fitting); ``pair_events=False``: the pair classifier does not read the event typer's columns
(:data:`EVENT_COLUMNS`), so only the pairs it reports need typing; the type and novelty
classifiers read them.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from relx.estimator import BaseEstimator
from relx.ppi.doc_features import FEATURES, MARKER_END
from relx.ppi.doc_text import PairTextClassifier

if TYPE_CHECKING:
    from sklearn.ensemble import HistGradientBoostingClassifier

#: the columns of :data:`relx.ppi.doc_features.FEATURES` the event typer fills
EVENT_COLUMNS = [k for k, name in enumerate(FEATURES) if name.startswith("event_")]


def _booster(learning_rate: float, max_iter: int, max_leaf_nodes: int, l2: float,
             random_state: int, balanced: bool = False) -> HistGradientBoostingClassifier:
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(
        learning_rate=learning_rate, max_iter=max_iter, max_leaf_nodes=max_leaf_nodes,
        l2_regularization=l2, min_samples_leaf=10, random_state=random_state,
        class_weight="balanced" if balanced else None)


def words_of(texts: list[str], which: str) -> list[str]:
    """The part of each pair text a text model reads: ``"text"`` the masked evidence,
    ``"markers"`` the marker words (:func:`relx.ppi.doc_features.pair_markers`), ``"all"``
    both (a text without :data:`MARKER_END` is all evidence)."""
    if which == "all":
        return texts
    parts = [t.split(MARKER_END, 1) if MARKER_END in t else ["", t] for t in texts]
    return [p[1] if which == "text" else p[0] for p in parts]


def _no_features(texts: list[str]) -> np.ndarray:
    return np.zeros((len(texts), 1), np.float32)


class DocRelationModel(BaseEstimator):
    """Pair, type and novelty classifiers (gradient-boosted trees) for document-level gene
    pairs. ``threshold``: a pair is reported when its calibrated probability is at least
    this; ``novel_threshold``: a reported pair is Novel when its novelty probability is."""

    def __init__(self, learning_rate: float = 0.05, max_iter: int = 200,
                 max_leaf_nodes: int = 15, l2_regularization: float = 1.0,
                 calibration: str = "isotonic", calibration_folds: int = 5,
                 type_learning_rate: float = 0.05, type_max_iter: int = 150,
                 type_balanced: bool = False, min_type_pairs: int = 10,
                 novel_learning_rate: float = 0.05, novel_max_iter: int = 150,
                 threshold: float = 0.5, novel_threshold: float = 0.5,
                 type_model: str = "hgb", novel_model: str = "hgb", pair_text: bool = False,
                 text_C: float = 1.0, type_words: str = "text", novel_words: str = "text",
                 type_C: float | None = None, type_feature_weight: float = 0.3,
                 type_margin: float = 0.0, pair_events: bool = True,
                 random_state: int = 0) -> None:
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.l2_regularization = l2_regularization
        self.calibration = calibration
        self.calibration_folds = calibration_folds
        self.type_learning_rate = type_learning_rate
        self.type_max_iter = type_max_iter
        self.type_balanced = type_balanced
        self.min_type_pairs = min_type_pairs
        self.novel_learning_rate = novel_learning_rate
        self.novel_max_iter = novel_max_iter
        self.threshold = threshold
        self.novel_threshold = novel_threshold
        self.type_model = type_model
        self.novel_model = novel_model
        self.pair_text = pair_text
        self.text_C = text_C
        self.type_words = type_words
        self.novel_words = novel_words
        self.type_C = type_C
        self.type_feature_weight = type_feature_weight
        self.type_margin = type_margin
        self.pair_events = pair_events
        self.random_state = random_state

    def _text(self, class_weight: str | None = None) -> PairTextClassifier:
        return PairTextClassifier(C=self.text_C, class_weight=class_weight,
                                  random_state=self.random_state)

    def _pair_X(self, X: np.ndarray) -> np.ndarray:
        """``X`` as the pair classifier reads it: without the event typer's columns when
        ``pair_events`` is False (models saved without the attribute: with them)."""
        if getattr(self, "pair_events", True):
            return X
        X = np.array(X, np.float32)
        X[:, EVENT_COLUMNS] = 0.0
        return X

    def _pair_design(self, X: np.ndarray, texts: list[str]) -> np.ndarray:
        X = self._pair_X(X)
        if not self.pair_text:
            return X
        p = self.pair_text_.predict_proba(texts, X)[:, 1]
        return np.column_stack([X, p]).astype(np.float32)

    def fit(self, X: np.ndarray, texts: list[str], related: np.ndarray, types: np.ndarray,
            novel: np.ndarray, groups: np.ndarray,
            aux: tuple[list[str], np.ndarray, np.ndarray] | None = None) -> DocRelationModel:
        from sklearn.calibration import CalibratedClassifierCV
        from sklearn.model_selection import GroupKFold

        X = np.asarray(X, np.float32)
        texts = list(texts)
        related = np.asarray(related, int)
        folds = list(GroupKFold(n_splits=self.calibration_folds).split(X, related, groups))
        kinds_X, X = X, self._pair_X(X)
        design = X
        if self.pair_text:
            oof = np.zeros(len(X))
            for tr, te in folds:
                m = self._text().fit([texts[i] for i in tr], X[tr], related[tr])
                oof[te] = m.predict_proba([texts[i] for i in te], X[te])[:, 1]
            self.pair_text_ = self._text().fit(texts, X, related)
            design = np.column_stack([X, oof]).astype(np.float32)
        base = _booster(self.learning_rate, self.max_iter, self.max_leaf_nodes,
                        self.l2_regularization, self.random_state)
        self.pair_ = CalibratedClassifierCV(base, method=self.calibration, cv=folds,
                                            ensemble=False).fit(design, related)
        self.fit_kinds(kinds_X, texts, related, types, novel, aux)
        self.n_features_in_ = X.shape[1]
        return self

    def fit_kinds(self, X: np.ndarray, texts: list[str], related: np.ndarray,
                  types: np.ndarray, novel: np.ndarray,
                  aux: tuple[list[str], np.ndarray, np.ndarray] | None = None
                  ) -> DocRelationModel:
        """Fit the type and novelty classifiers only (on the related pairs), as
        :meth:`fit` does; the pair classifier is left as it is."""
        X = np.asarray(X, np.float32)
        texts = list(texts)
        pos = np.asarray(related, int) == 1
        counts = Counter(np.asarray(types)[pos].tolist())
        self.default_type_ = counts.most_common(1)[0][0]
        kept = {t for t, n in counts.items() if n >= self.min_type_pairs}
        y_type = np.array([t if t in kept else self.default_type_
                           for t in np.asarray(types)[pos]])
        pos_texts = [t for t, k in zip(texts, pos, strict=True) if k]
        type_texts = words_of(pos_texts, self.type_words)
        novel_texts = words_of(pos_texts, self.novel_words)
        y_novel = np.asarray(novel, int)[pos]
        balanced = "balanced" if self.type_balanced else None
        aux_texts, aux_types, aux_novel = aux if aux is not None else ([], [], [])
        kept_aux = [k for k, t in enumerate(aux_types) if t in kept]
        type_C = self.type_C if self.type_C is not None else self.text_C
        if self.type_model == "text-aux":
            words = type_texts + words_of([aux_texts[k] for k in kept_aux], self.type_words)
            y = np.concatenate([y_type, np.asarray(aux_types)[kept_aux]])
            self.type_ = PairTextClassifier(
                C=type_C, class_weight=balanced, feature_weight=0.0,
                random_state=self.random_state).fit(words, _no_features(words), y)
        elif self.type_model == "text":
            self.type_ = PairTextClassifier(
                C=type_C, class_weight=balanced, feature_weight=self.type_feature_weight,
                random_state=self.random_state).fit(type_texts, X[pos], y_type)
        else:
            self.type_ = _booster(self.type_learning_rate, self.type_max_iter, 15, 1.0,
                                  self.random_state, self.type_balanced).fit(X[pos], y_type)
        if self.novel_model == "text-aux":
            words = novel_texts + words_of(list(aux_texts), self.novel_words)
            y = np.concatenate([y_novel, np.asarray(aux_novel, int)])
            self.novel_ = self._words().fit(words, _no_features(words), y)
        elif self.novel_model == "text":
            self.novel_ = self._text().fit(novel_texts, X[pos], y_novel)
        else:
            self.novel_ = _booster(self.novel_learning_rate, self.novel_max_iter, 15, 1.0,
                                   self.random_state).fit(X[pos], y_novel)
        return self

    def _words(self, class_weight: str | None = None) -> PairTextClassifier:
        return PairTextClassifier(C=self.text_C, class_weight=class_weight, feature_weight=0.0,
                                  random_state=self.random_state)

    def _proba(self, model: object, X: np.ndarray, texts: list[str]) -> np.ndarray:
        if isinstance(model, PairTextClassifier):
            texts = list(texts)
            return model.predict_proba(texts, X if model.feature_weight else
                                       _no_features(texts))
        return model.predict_proba(X)

    def pair_probability(self, X: np.ndarray, texts: list[str]) -> np.ndarray:
        """(n,) calibrated probability that each pair is related."""
        X = np.asarray(X, np.float32)
        return self.pair_.predict_proba(self._pair_design(X, list(texts)))[:, 1]

    def predict_type(self, X: np.ndarray, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """(types (n,), their probabilities (n,)): the most probable type, but the most
        common training type unless the other beats it by ``type_margin``."""
        p = self._proba(self.type_, np.asarray(X, np.float32),
                        words_of(list(texts), getattr(self, "type_words", "text")))
        best = p.argmax(axis=1)
        classes = list(self.type_.classes_)
        margin = getattr(self, "type_margin", 0.0)      # models saved before 0.2.0: none
        if margin > 0 and self.default_type_ in classes:
            d = classes.index(self.default_type_)
            rows = np.arange(len(best))
            best = np.where(p[rows, best] - p[:, d] >= margin, best, d)
        return self.type_.classes_[best], p[np.arange(len(best)), best]

    def novel_probability(self, X: np.ndarray, texts: list[str]) -> np.ndarray:
        """(n,) probability that a related pair is the paper's finding (Novel)."""
        return self._proba(self.novel_, np.asarray(X, np.float32),
                           words_of(list(texts), getattr(self, "novel_words", "text")))[:, 1]
