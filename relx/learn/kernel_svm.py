"""Baseline: SVM on a precomputed structure kernel (the classic kernel method)."""

from __future__ import annotations

import numpy as np

from relx.estimator import BaseEstimator, ClassifierMixin, check_is_fitted
from relx.kernels.structure import gram, n_samples, take


class KernelSVM(ClassifierMixin, BaseEstimator):
    """Binary SVM whose training uses the full (N, N) Gram matrix.

    Prediction only computes the kernel against the support vectors. ``predict_proba``
    is a logistic squashing of the decision value (a ranking score, not calibrated).
    """

    def __init__(self, kernel="rbf", C: float = 1.0, class_weight=None) -> None:
        self.kernel = kernel
        self.C = C
        self.class_weight = class_weight

    def fit(self, X, y) -> KernelSVM:
        from sklearn.svm import SVC
        from sklearn.utils.multiclass import check_classification_targets

        y = np.asarray(y)
        check_classification_targets(y)
        if n_samples(X) != len(y):
            raise ValueError(f"X has {n_samples(X)} samples, y has {len(y)}")
        self.classes_ = np.unique(y)
        if len(self.classes_) != 2:
            raise ValueError("KernelSVM is a binary classifier")
        k = gram(self.kernel, X)
        svm = SVC(kernel="precomputed", C=self.C, class_weight=self.class_weight).fit(k, y)
        self.support_ = svm.support_
        self.support_vectors_ = take(X, svm.support_)
        self.dual_coef_ = svm.dual_coef_[0].copy()
        self.intercept_ = float(svm.intercept_[0])
        return self

    def decision_function(self, X) -> np.ndarray:
        """(N,) signed distance; > 0 means ``classes_[1]``."""
        check_is_fitted(self, "dual_coef_")
        return gram(self.kernel, X, self.support_vectors_) @ self.dual_coef_ + self.intercept_

    def predict_proba(self, X) -> np.ndarray:
        p = 1.0 / (1.0 + np.exp(-self.decision_function(X)))
        return np.c_[1 - p, p]

    def predict(self, X) -> np.ndarray:
        return self.classes_[(self.decision_function(X) > 0).astype(int)]
