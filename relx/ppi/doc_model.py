"""The document-level gene relation model: is a gene pair related, how (BioRED's types), and is
it the paper's finding (Novel) or background -- three classifiers on the pair features of
:mod:`relx.ppi.doc_features`.

``DocRelationModel.fit(X, related, types, novel, groups)``: ``X`` (n_pairs, n_features),
``related`` (n_pairs,) 0/1, ``types`` (n_pairs,) the gold type of each related pair ("" for
the others), ``novel`` (n_pairs,) 0/1 (read on related pairs only), ``groups`` the document
of each pair (calibration folds by document). The pair probability is calibrated
(isotonic or sigmoid, out of fold by document); types rarer than ``min_type_pairs`` fall
back to the most common type.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.calibration import CalibratedClassifierCV
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import GroupKFold


def _booster(learning_rate: float, max_iter: int, max_leaf_nodes: int, l2: float,
             random_state: int, balanced: bool = False) -> HistGradientBoostingClassifier:
    return HistGradientBoostingClassifier(
        learning_rate=learning_rate, max_iter=max_iter, max_leaf_nodes=max_leaf_nodes,
        l2_regularization=l2, min_samples_leaf=10, random_state=random_state,
        class_weight="balanced" if balanced else None)


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
        self.random_state = random_state

    def fit(self, X: np.ndarray, related: np.ndarray, types: np.ndarray, novel: np.ndarray,
            groups: np.ndarray) -> DocRelationModel:
        X = np.asarray(X, np.float32)
        related = np.asarray(related, int)
        base = _booster(self.learning_rate, self.max_iter, self.max_leaf_nodes,
                        self.l2_regularization, self.random_state)
        folds = list(GroupKFold(n_splits=self.calibration_folds).split(X, related, groups))
        self.pair_ = CalibratedClassifierCV(base, method=self.calibration, cv=folds,
                                            ensemble=False).fit(X, related)
        pos = related == 1
        counts = Counter(np.asarray(types)[pos].tolist())
        self.default_type_ = counts.most_common(1)[0][0]
        kept = {t for t, n in counts.items() if n >= self.min_type_pairs}
        y_type = np.array([t if t in kept else self.default_type_
                           for t in np.asarray(types)[pos]])
        self.type_ = _booster(self.type_learning_rate, self.type_max_iter, 15, 1.0,
                              self.random_state, self.type_balanced).fit(X[pos], y_type)
        self.novel_ = _booster(self.novel_learning_rate, self.novel_max_iter, 15, 1.0,
                               self.random_state).fit(X[pos], np.asarray(novel, int)[pos])
        self.n_features_in_ = X.shape[1]
        return self

    def pair_probability(self, X: np.ndarray) -> np.ndarray:
        """(n,) calibrated probability that each pair is related."""
        return self.pair_.predict_proba(np.asarray(X, np.float32))[:, 1]

    def predict_type(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(types (n,), their probabilities (n,))."""
        p = self.type_.predict_proba(np.asarray(X, np.float32))
        best = p.argmax(axis=1)
        return self.type_.classes_[best], p[np.arange(len(best)), best]

    def novel_probability(self, X: np.ndarray) -> np.ndarray:
        """(n,) probability that a related pair is the paper's finding (Novel)."""
        return self.novel_.predict_proba(np.asarray(X, np.float32))[:, 1]
