"""Extremely randomised trees (Geurts et al. 2006; scikit-learn's ``ExtraTreesClassifier``)
kept as flat node arrays, so a fitted forest is small to save and fast to apply.

A fitted sklearn tree stores 80 bytes per node (children, feature, threshold, impurity,
sample counts, class values); fully grown trees on ~16,000 candidate pairs have ~10,000
nodes each, so 300 of them take ~250 MB. ``PackedExtraTrees`` fits the sklearn forest,
keeps per node only the feature (int32), the threshold (float64), the right child (int32;
the left child of node ``i`` is ``i + 1``, as sklearn's depth-first builder numbers them)
and, at leaves, the class probabilities, and drops the sklearn object. Each threshold is
moved to the midpoint between the two training values of its feature around it (ET draws
it uniformly there), so it sends every training value the same way as before and the
thresholds of binary features repeat, which the model file's compression exploits. For
inputs whose columns take only training values (e.g. binary pair features) the
probabilities equal sklearn's up to the order of floating-point summation.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import ExtraTreesClassifier
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data


class PackedExtraTrees(ClassifierMixin, BaseEstimator):
    """``ExtraTreesClassifier`` with the fitted trees packed into flat arrays (dense X).

    Parameters are sklearn's (``n_estimators``, ``max_features``, ``min_samples_leaf``,
    ``max_depth``, ``min_weight_fraction_leaf``, ``class_weight``, ``n_jobs`` for fitting, ``random_state``).

    Attributes: ``classes_``, ``n_features_in_``, ``roots_`` (n_estimators,) int32 first
    node of each tree, ``node_feature_`` (nodes,) int32 (-1 at leaves),
    ``node_threshold_`` (nodes,) float64 (go left when ``x <= threshold``),
    ``node_right_`` (nodes,) int32, ``leaf_value_`` (nodes, n_classes) float64 class
    probabilities (0 at inner nodes).
    """

    def __init__(self, n_estimators: int = 100, max_features="sqrt", min_samples_leaf: int = 1,
                 max_depth: int | None = None, min_weight_fraction_leaf: float = 0.0,
                 class_weight=None, n_jobs: int | None = None, random_state=None) -> None:
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.min_samples_leaf = min_samples_leaf
        self.max_depth = max_depth
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.class_weight = class_weight
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y, sample_weight: np.ndarray | None = None) -> PackedExtraTrees:
        """``sample_weight`` (N,): per-instance weights of the trees' splits and leaves."""
        X, y = validate_data(self, X, y, dtype=np.float32)
        check_classification_targets(y)
        forest = ExtraTreesClassifier(
            n_estimators=self.n_estimators, max_features=self.max_features,
            min_samples_leaf=self.min_samples_leaf, max_depth=self.max_depth,
            min_weight_fraction_leaf=self.min_weight_fraction_leaf,
            class_weight=self.class_weight, n_jobs=self.n_jobs,
            random_state=self.random_state).fit(X, y, sample_weight=sample_weight)
        self.classes_ = forest.classes_
        (self.roots_, self.node_feature_, self.node_threshold_, self.node_right_,
         self.leaf_value_) = pack_trees([e.tree_ for e in forest.estimators_],
                                        training_grids(X), len(self.classes_))
        return self

    def predict_proba(self, X) -> np.ndarray:
        """(N, n_classes) mean of the trees' leaf class probabilities."""
        check_is_fitted(self, "roots_")
        X = validate_data(self, X, dtype=np.float32, reset=False, order="C")
        return _walk(X, self.roots_, self.node_feature_, self.node_threshold_,
                     self.node_right_, self.leaf_value_)

    def predict(self, X) -> np.ndarray:
        proba = self.predict_proba(X)
        return self.classes_[proba.argmax(axis=1)]


def pack_trees(trees: list, grids: list[np.ndarray] | None, n_classes: int,
               features: list[np.ndarray] | None = None,
               tree_classes: list[np.ndarray] | None = None) -> tuple[np.ndarray, ...]:
    """sklearn ``Tree`` objects -> (roots, feature, threshold, right, value) flat arrays.

    ``grids[j]``: the sorted training values of column j (thresholds snap to midpoints;
    ``None`` keeps sklearn's thresholds); ``features[r]``: the X columns of tree r's inputs
    (a random subspace; default: the identity); ``tree_classes[r]``: the class indices of
    tree r's value columns when it saw only some classes (default: all ``n_classes``).
    """
    roots, feature, threshold, right, value = [], [], [], [], []
    offset = 0
    for r, t in enumerate(trees):
        n = t.node_count
        left = t.children_left
        leaf = left == -1
        if not (leaf | (left == np.arange(n) + 1)).all():
            raise ValueError("tree nodes are not in depth-first order (left child = node + 1)")
        f = np.maximum(t.feature, 0)
        if features is not None:
            f = np.asarray(features[r])[f]
        roots.append(offset)
        feature.append(np.where(leaf, -1, f).astype(np.int32))
        threshold.append(np.where(leaf, 0.0, t.threshold))
        right.append(np.where(leaf, -1, t.children_right + offset).astype(np.int32))
        cls = np.arange(n_classes) if tree_classes is None else np.asarray(tree_classes[r], int)
        v = t.value.reshape(n, -1)[:, :len(cls)]
        v = v / np.maximum(v.sum(axis=1, keepdims=True), np.finfo(float).tiny)
        full = np.zeros((n, n_classes))
        full[:, cls] = np.where(leaf[:, None], v, 0.0)
        value.append(full)
        offset += n
    feature_all, threshold_all = np.concatenate(feature), np.concatenate(threshold)
    if grids is not None:
        _snap_thresholds(feature_all, threshold_all, grids)
    return (np.asarray(roots, np.int32), feature_all, threshold_all, np.concatenate(right),
            np.concatenate(value))


def _snap_thresholds(feature: np.ndarray, threshold: np.ndarray, grids: list[np.ndarray]) -> None:
    """Move each inner node's threshold (in place) to the midpoint of the two training values
    of its feature around it: the same split of the training data, repeated thresholds."""
    order = np.argsort(feature, kind="stable")  # inner nodes grouped by feature
    starts = np.searchsorted(feature[order], np.arange(len(grids) + 1))
    for j, g in enumerate(grids):
        idx = order[starts[j]:starts[j + 1]]
        if len(idx) == 0 or len(g) < 2:
            continue
        k = np.searchsorted(g, threshold[idx], side="right")  # g[k-1] <= thr < g[k]
        inside = (k > 0) & (k < len(g))
        lo, hi = g[k[inside] - 1], g[k[inside]]
        threshold[idx[inside]] = lo + (hi - lo) / 2


def training_grids(X: np.ndarray) -> list[np.ndarray]:
    """The sorted distinct float32 values of each column of X (as sklearn's trees see them)."""
    X32 = np.asarray(X, dtype=np.float32)
    return [np.unique(X32[:, j]).astype(np.float64) for j in range(X32.shape[1])]


def walk_trees(X: np.ndarray, roots: np.ndarray, feature: np.ndarray, threshold: np.ndarray,
               right: np.ndarray, value: np.ndarray) -> np.ndarray:
    """(N, n_classes) mean leaf class probabilities of packed trees for float32 C-order X."""
    return _walk(np.ascontiguousarray(X, dtype=np.float32), roots, feature, threshold, right,
                 value)


@njit(cache=True, nogil=True)
def _walk(X: np.ndarray, roots: np.ndarray, feature: np.ndarray, threshold: np.ndarray,
          right: np.ndarray, value: np.ndarray) -> np.ndarray:
    n, k = X.shape[0], value.shape[1]
    out = np.zeros((n, k))
    for i in range(n):
        for r in range(roots.shape[0]):
            node = roots[r]
            while right[node] != -1:
                node = node + 1 if X[i, feature[node]] <= threshold[node] else right[node]
            for c in range(k):
                out[i, c] += value[node, c]
    return out / roots.shape[0]
