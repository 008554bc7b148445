"""Random-subspace forest (Ho 1998) on KLSH codes, as in Garg et al. 2019 §2.2.

R decision trees, each on η randomly drawn features (bits) — or, with ``max_features=None``
and ``bootstrap=True``, bagging over samples — and the mean of their class probabilities.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import BaggingClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data


class RandomSubspaceForest(ClassifierMixin, BaseEstimator):
    """Ensemble of ``n_estimators`` (R) trees on ``max_features`` (η) random features each.

    ``max_features=None`` uses all features (then ``bootstrap=True`` gives bagging);
    ``class_weight`` is passed to the trees; ``threshold`` is the positive-class probability
    above which a binary ``predict`` says yes.
    """

    def __init__(self, n_estimators: int = 250, max_features: int | None = 30,
                 bootstrap: bool = False, max_depth: int | None = None,
                 min_samples_leaf: int = 1, class_weight=None, threshold: float = 0.5,
                 n_jobs: int | None = None, random_state=None) -> None:
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.class_weight = class_weight
        self.threshold = threshold
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y) -> RandomSubspaceForest:
        X, y = validate_data(self, X, y, reset=True)
        check_classification_targets(y)
        n_feat = X.shape[1]
        max_features = n_feat if self.max_features is None else min(self.max_features, n_feat)
        tree = DecisionTreeClassifier(max_depth=self.max_depth, class_weight=self.class_weight,
                                      min_samples_leaf=self.min_samples_leaf)
        self.ensemble_ = BaggingClassifier(
            estimator=tree, n_estimators=self.n_estimators, max_features=max_features,
            bootstrap=self.bootstrap, bootstrap_features=False, n_jobs=self.n_jobs,
            random_state=self.random_state,
        ).fit(X, y)
        self.classes_ = self.ensemble_.classes_
        return self

    def predict_proba(self, X) -> np.ndarray:
        """(N, n_classes) mean tree probabilities."""
        check_is_fitted(self, "ensemble_")
        X = validate_data(self, X, reset=False)
        return self.ensemble_.predict_proba(X)

    def predict(self, X) -> np.ndarray:
        proba = self.predict_proba(X)
        if len(self.classes_) == 2:
            return self.classes_[(proba[:, 1] > self.threshold).astype(int)]
        return self.classes_[proba.argmax(axis=1)]
