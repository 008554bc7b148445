"""Naive-Bayes log-count-ratio feature scaling (Wang & Manning 2012, "NBSVM").

Each column j of a sparse (n, d) feature matrix is multiplied by

    r_j = log( (p_j / |p|_1) / (q_j / |q|_1) ),
    p = alpha + sum of binarised rows with y = 1,   q = alpha + the same for y = 0,

so a linear model on the scaled features starts from the naive-Bayes evidence of every
feature and its L2 penalty shrinks towards that instead of towards 0. Features seen in
only one class get a large |r|; ``alpha`` (additive smoothing, > 0) bounds it.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from relx.estimator import BaseEstimator, TransformerMixin, check_is_fitted, validate_data


class NaiveBayesScaler(TransformerMixin, BaseEstimator):
    """Scale (n, d) features column-wise by their naive-Bayes log-count ratio.

    Binary y: the positive class is ``classes_[-1]``; with more classes, that last class
    against the rest.

    Parameters
    ----------
    alpha : additive smoothing of the per-class feature counts (> 0).

    Attributes: ``ratio_`` (d,) float64, the log-count ratios; ``classes_``;
    ``n_features_in_``.
    """

    def __init__(self, alpha: float = 1.0) -> None:
        self.alpha = alpha

    def fit(self, X, y) -> NaiveBayesScaler:
        from sklearn.utils.multiclass import check_classification_targets

        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if not self.alpha > 0:
            raise ValueError(f"alpha must be > 0, not {self.alpha!r}")
        present = (abs(X) > 0).astype(np.float64) if sp.issparse(X) else (X != 0).astype(float)
        pos = y == self.classes_[-1]
        p = np.asarray(present[pos].sum(axis=0)).ravel() + self.alpha
        q = np.asarray(present[~pos].sum(axis=0)).ravel() + self.alpha
        self.ratio_ = np.log(p / p.sum()) - np.log(q / q.sum())
        return self

    def transform(self, X):
        """(n, d) X with column j times ``ratio_[j]`` (sparse in, CSR out)."""
        check_is_fitted(self, "ratio_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        if sp.issparse(X):
            return (X @ sp.diags(self.ratio_)).tocsr()
        return X * self.ratio_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.sparse = True
        return tags
