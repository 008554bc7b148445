"""Random-subspace forest (Ho 1998) on KLSH codes, as in Garg et al. 2019 §2.2.

R decision trees, each on η randomly drawn features (bits) — or, with ``max_features=None``
and ``bootstrap=True``, bagging over samples — and the mean of their class probabilities.
The fitted trees are kept as flat node arrays (``relx.learn.packed_trees.pack_trees``), not
as sklearn objects: 250 fully grown trees stored node by node made the shipped model ~30 MB
larger, and the arrays are walked in one compiled loop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from relx.estimator import BaseEstimator, ClassifierMixin, check_is_fitted, validate_data
from relx.learn.packed_trees import PackedTreesMixin, pack_trees, training_grids

if TYPE_CHECKING:
    from sklearn.ensemble import BaggingClassifier


def _best_cut(y: np.ndarray, score: np.ndarray, objective) -> float:
    """The threshold t (predict ``score > t``, cut only between distinct scores) maximising
    ``objective(tp, fp, n_pos, n_neg)`` over all cuts of the descending scores."""
    order = np.argsort(-score, kind="stable")
    s, t = score[order], np.asarray(y, bool)[order]
    tp = np.cumsum(t)
    fp = np.arange(1, len(s) + 1) - tp
    value = objective(tp, fp, int(t.sum()), len(s) - int(t.sum()))
    last = np.r_[s[1:] != s[:-1], True]
    i = int(np.argmax(np.where(last, value, -np.inf)))
    return float((s[i] + s[i + 1]) / 2) if i + 1 < len(s) else float(s[i] - 1e-9)


def best_f1_threshold(y: np.ndarray, score: np.ndarray) -> float:
    """The score threshold (predict ``score > t``) with the highest F1 on (y, score)."""
    return _best_cut(y, score, lambda tp, fp, n_pos, n_neg: 2 * tp / (tp + fp + n_pos))


def best_youden_threshold(y: np.ndarray, score: np.ndarray) -> float:
    """The score threshold (predict ``score > t``) with the highest TPR - FPR (Youden's J).

    Unlike the F1-best threshold it does not depend on the positive rate of (y, score), so it
    carries over to data with another positive rate (a corpus annotated more or less densely).
    """
    return _best_cut(y, score, lambda tp, fp, n_pos, n_neg: tp / max(n_pos, 1) - fp / max(n_neg, 1))


def bagged_f1_threshold(y: np.ndarray, score: np.ndarray, n_resamples: int = 50,
                        seed: int = 0) -> float:
    """The median of the F1-best thresholds of ``n_resamples`` bootstrap resamples of the
    (y, score) pairs: a steadier estimate of the F1-best cut than one argmax of a noisy
    curve (seeded, so deterministic)."""
    y, score = np.asarray(y), np.asarray(score)
    rng = np.random.default_rng(seed)
    cuts = [best_f1_threshold(y[i], score[i])
            for i in (rng.integers(0, len(y), len(y)) for _ in range(n_resamples))]
    return float(np.median(cuts))


THRESHOLD_RULES = {"auto": best_f1_threshold, "f1": best_f1_threshold,
                   "f1-bagged": bagged_f1_threshold, "youden": best_youden_threshold}


def check_threshold_rule(rule: str) -> None:
    """Raise ``ValueError`` unless ``rule`` names a threshold rule."""
    if rule not in THRESHOLD_RULES:
        raise ValueError(f"threshold must be a number or one of {sorted(THRESHOLD_RULES)}, "
                         f"not {rule!r}")


def rule_threshold(rule: str, y: np.ndarray, score: np.ndarray) -> float:
    """Threshold by a named rule on (training-side, out-of-fold) labels and scores."""
    check_threshold_rule(rule)
    return THRESHOLD_RULES[rule](y, score)


class RandomSubspaceForest(PackedTreesMixin, ClassifierMixin, BaseEstimator):
    """Ensemble of ``n_estimators`` (R) trees on ``max_features`` (η) random features each.

    ``max_features=None`` uses all features (then ``bootstrap=True`` gives bagging);
    ``class_weight`` is passed to the trees; ``threshold`` is the positive-class probability
    above which a binary ``predict`` says yes, or ``"auto"`` (= ``"f1"``): the threshold that
    maximises F1 on out-of-fold probabilities of ``threshold_folds``-fold CV on the training
    data, ``"f1-bagged"``: the median of such cuts over bootstrap resamples
    (``bagged_f1_threshold``), or ``"youden"``: the one maximising TPR - FPR there (learned as
    ``threshold_``).

    Attributes: ``classes_``, ``threshold_``, ``n_features_in_`` and the packed trees
    (``relx.learn.packed_trees.PACKED_ATTRIBUTES``, described at ``pack_trees``).
    """

    def __init__(self, n_estimators: int = 250, max_features: int | None = 30,
                 bootstrap: bool = False, max_depth: int | None = None,
                 min_samples_leaf: int = 1, min_weight_fraction_leaf: float = 0.0,
                 class_weight=None, threshold: float | str = 0.5, threshold_folds: int = 3,
                 n_jobs: int | None = None, random_state=None) -> None:
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.class_weight = class_weight
        self.threshold = threshold
        self.threshold_folds = threshold_folds
        self.n_jobs = n_jobs
        self.random_state = random_state

    def _ensemble(self, n_features: int) -> BaggingClassifier:
        from sklearn.ensemble import BaggingClassifier
        from sklearn.tree import DecisionTreeClassifier

        max_features = n_features if self.max_features is None else min(self.max_features, n_features)
        tree = DecisionTreeClassifier(max_depth=self.max_depth, class_weight=self.class_weight,
                                      min_samples_leaf=self.min_samples_leaf,
                                      min_weight_fraction_leaf=self.min_weight_fraction_leaf)
        return BaggingClassifier(
            estimator=tree, n_estimators=self.n_estimators, max_features=max_features,
            bootstrap=self.bootstrap, bootstrap_features=False, n_jobs=self.n_jobs,
            random_state=self.random_state)

    def fit(self, X, y, sample_weight: np.ndarray | None = None) -> RandomSubspaceForest:
        """``sample_weight`` (N,): per-instance weights passed to every tree (optional)."""
        from sklearn.utils.multiclass import check_classification_targets

        X, y = validate_data(self, X, y, reset=True)
        check_classification_targets(y)
        sw = None if sample_weight is None else np.asarray(sample_weight, float)
        ensemble = self._fit_ensemble(X, y, sw)
        self.classes_ = ensemble.classes_
        self._pack(ensemble, training_grids(X))
        if isinstance(self.threshold, str):
            check_threshold_rule(self.threshold)  # before the out-of-fold forests
            self.threshold_ = self._tune_threshold(X, y, sw)
        else:
            self.threshold_ = float(self.threshold)
        return self

    def _fit_ensemble(self, X: np.ndarray, y: np.ndarray,
                      sample_weight: np.ndarray | None) -> BaggingClassifier:
        ens = self._ensemble(X.shape[1])
        if sample_weight is None:
            return ens.fit(X, y)
        # BaggingClassifier turns sample_weight into sampling probabilities (without the
        # bootstrap: ignored), so the subspaces and tree seeds are drawn on depth-1 trees and
        # each tree is then grown on its subspace with its rows' counts times the weights
        ens.set_params(estimator__max_depth=1).fit(X, y)
        y = np.searchsorted(ens.classes_, y)  # class indices, as Bagging gives its trees
        for tree, feats, rows in zip(ens.estimators_, ens.estimators_features_,
                                     ens.estimators_samples_, strict=True):
            counts = np.bincount(rows, minlength=len(y)) if self.bootstrap else 1.0
            tree.set_params(max_depth=self.max_depth)
            tree.fit(X[:, feats], y, sample_weight=sample_weight * counts)
        return ens.set_params(estimator__max_depth=self.max_depth)

    def _tune_threshold(self, X: np.ndarray, y: np.ndarray,
                        sample_weight: np.ndarray | None = None) -> float:
        if len(self.classes_) != 2:
            return 0.5
        from sklearn.model_selection import StratifiedKFold

        folds = StratifiedKFold(self.threshold_folds, shuffle=True, random_state=self.random_state)
        oof = np.zeros(len(y))
        for tr, va in folds.split(X, y):
            sw = None if sample_weight is None else sample_weight[tr]
            part = self._fit_ensemble(X[tr], y[tr], sw)
            oof[va] = part.predict_proba(X[va])[:, 1]
        return rule_threshold(self.threshold, y == self.classes_[1], oof)

    def _pack(self, ensemble: BaggingClassifier, grids: list[np.ndarray] | None) -> None:
        self._set_packed(pack_trees(
            [t.tree_ for t in ensemble.estimators_], grids, len(self.classes_),
            features=ensemble.estimators_features_,
            tree_classes=[t.classes_.astype(int) for t in ensemble.estimators_]))  # encoded

    def predict_proba(self, X) -> np.ndarray:
        """(N, n_classes) mean tree probabilities."""
        if not hasattr(self, "roots_") and hasattr(self, "ensemble_"):
            self._pack(self.ensemble_, None)  # a model saved before the trees were packed
        check_is_fitted(self, "roots_")
        # column-major, as _packed_proba walks it: no second copy of X
        X = validate_data(self, X, reset=False, dtype=np.float32, order="F")
        return self._packed_proba(X)

    def predict(self, X) -> np.ndarray:
        proba = self.predict_proba(X)
        if len(self.classes_) == 2:
            return self.classes_[(proba[:, 1] > self.threshold_).astype(int)]
        return self.classes_[proba.argmax(axis=1)]

