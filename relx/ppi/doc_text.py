"""A text-and-features classifier for gene pairs: TF-IDF word n-grams of a pair's masked
evidence text (:func:`relx.ppi.doc_features.pair_text`) next to its standardised pair
features, then a logistic regression (binary or multinomial)."""

from __future__ import annotations

import numpy as np
from scipy import sparse

from relx.estimator import BaseEstimator


class PairTextClassifier(BaseEstimator):
    """``fit(texts, X, y)``; ``predict_proba(texts, X)`` (n, n_classes) in ``classes_``
    order. ``C``: inverse regularisation; ``min_df``: n-grams in fewer training texts are
    dropped; ``feature_weight``: scale of the standardised features beside the n-grams."""

    def __init__(self, C: float = 1.0, ngram_max: int = 2, min_df: int = 2,
                 feature_weight: float = 0.3, class_weight: str | None = None,
                 random_state: int = 0) -> None:
        self.C = C
        self.ngram_max = ngram_max
        self.min_df = min_df
        self.feature_weight = feature_weight
        self.class_weight = class_weight
        self.random_state = random_state

    def _design(self, texts: list[str], X: np.ndarray) -> sparse.csr_matrix:
        words = self.vectorizer_.transform(texts)
        if not self.feature_weight:
            return words.tocsr()
        feats = np.clip(self.scaler_.transform(np.asarray(X, np.float64)), -5, 5)
        return sparse.hstack([words, sparse.csr_matrix(feats * self.feature_weight)]).tocsr()

    def fit(self, texts: list[str], X: np.ndarray, y: np.ndarray) -> PairTextClassifier:
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        self.vectorizer_ = TfidfVectorizer(ngram_range=(1, self.ngram_max), min_df=self.min_df,
                                           sublinear_tf=True, lowercase=True)
        self.vectorizer_.fit(texts)
        self.scaler_ = StandardScaler().fit(np.asarray(X, np.float64))
        self.clf_ = LogisticRegression(C=self.C, max_iter=2000, class_weight=self.class_weight,
                                       random_state=self.random_state)
        self.clf_.fit(self._design(texts, X), y)
        self.classes_ = self.clf_.classes_
        return self

    def predict_proba(self, texts: list[str], X: np.ndarray) -> np.ndarray:
        return self.clf_.predict_proba(self._design(texts, X))
