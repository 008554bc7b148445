"""Keep the k most frequent columns of a sparse feature matrix, as a dense float32 array
(for learners that need dense input, e.g. gradient-boosted trees on pair features)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from relx.estimator import BaseEstimator, TransformerMixin, check_is_fitted, validate_data


class FrequentFeatureSelector(TransformerMixin, BaseEstimator):
    """Select the ``k`` columns non-zero in most training rows (ties: lower index first).

    Unsupervised: ``y`` is ignored. ``transform`` returns an (n, min(k, d)) float32 array
    (``dense=True``) or CSR matrix. Attributes: ``columns_`` (selected column indices, most
    frequent first), ``n_features_in_``.
    """

    def __init__(self, k: int = 1000, dense: bool = True) -> None:
        self.k = k
        self.dense = dense

    def fit(self, X, y=None) -> FrequentFeatureSelector:
        X = validate_data(self, X, accept_sparse="csc", dtype=np.float64)
        if int(self.k) < 1:
            raise ValueError(f"k must be >= 1, not {self.k!r}")
        df = np.diff(X.indptr) if sp.issparse(X) else (X != 0).sum(axis=0)
        self.columns_ = np.argsort(-np.asarray(df).ravel(), kind="stable")[: int(self.k)]
        return self

    def transform(self, X):
        """(n, min(k, d)) the selected columns, float32."""
        check_is_fitted(self, "columns_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float32, reset=False)
        out = X[:, self.columns_]
        if sp.issparse(out) and self.dense:
            return out.toarray()
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.transformer_tags.preserves_dtype = []  # always float32
        return tags
