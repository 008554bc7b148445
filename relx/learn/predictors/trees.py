"""Histogram gradient-boosted trees, their losses and links."""

from __future__ import annotations

from typing import Any

import numpy as np

from relx.estimator import check_array
from relx.learn.predictors._common import _expit, _Holder, _softmax


class _Forest:
    """Trees of ``TreePredictor`` nodes flattened into one table, walked with numpy across
    rows and trees at once (a leaf points to itself: every walk takes the same steps)."""

    def __init__(self, trees: list[Any]) -> None:
        sizes = [len(t.nodes) for t in trees]
        self.roots = np.cumsum([0, *sizes[:-1]], dtype=np.int64)
        table = np.concatenate([t.nodes for t in trees])
        if table["is_categorical"].any():
            raise NotImplementedError("HistGradientBoosting with categorical features")
        offset = np.repeat(self.roots, sizes)
        leaf = table["is_leaf"].astype(bool)
        own = np.arange(len(table), dtype=np.int64)
        self.left = np.where(leaf, own, table["left"].astype(np.int64) + offset)
        self.right = np.where(leaf, own, table["right"].astype(np.int64) + offset)
        self.feature = np.where(leaf, 0, table["feature_idx"]).astype(np.int64)
        self.threshold, self.value = table["num_threshold"], table["value"]
        self.missing_left = table["missing_go_to_left"].astype(bool)
        self.steps = int(table["depth"][leaf].max(initial=0))

    def leaf_values(self, X: np.ndarray, max_cells: int = 1 << 20) -> np.ndarray:
        """(n_samples, n_trees): the value of the leaf each row of float64 ``X`` reaches in
        each tree (``_predict_one_from_raw_data``: NaN goes ``missing_go_to_left``)."""
        n, width = X.shape
        out = np.empty((n, len(self.roots)))
        chunk = max(1, max_cells // len(self.roots))
        for lo in range(0, n, chunk):
            rows = np.ascontiguousarray(X[lo: lo + chunk])
            base = (np.arange(rows.shape[0]) * width)[:, None]
            rows = rows.ravel()
            idx = np.broadcast_to(self.roots, (base.shape[0], len(self.roots))).copy()
            for _ in range(self.steps):
                v = rows[base + self.feature[idx]]
                go_left = np.where(np.isnan(v), self.missing_left[idx], v <= self.threshold[idx])
                idx = np.where(go_left, self.left[idx], self.right[idx])
            out[lo: lo + chunk] = self.value[idx]
        return out


class TreePredictor(_Holder):
    """``sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor``."""

    def predict(self, X: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        """The tree's raw value of each row (numeric splits only)."""
        return _Forest([self]).leaf_values(np.asarray(X, dtype=np.float64))[:, 0]


class HistGradientBoostingClassifier(_Holder):
    """``sklearn.ensemble.HistGradientBoostingClassifier`` (numeric features)."""

    _DERIVED = ("_relx_forest",)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        cat = getattr(self, "is_categorical_", None)
        if getattr(self, "_preprocessor", None) is not None or np.any(cat is not None and cat):
            raise NotImplementedError("HistGradientBoosting with categorical features")

    def _raw_predict(self, X: Any) -> np.ndarray:
        """The baseline plus each iteration's trees in turn (column k: class k's trees)."""
        X = check_array(X, self, dtype=np.float64, accept_sparse=False, finite=False)
        K = self.n_trees_per_iteration_
        raw = np.zeros((X.shape[0], K), dtype=self._baseline_prediction.dtype, order="F")
        raw += self._baseline_prediction
        forest = self.__dict__.get("_relx_forest")
        if forest is None:
            forest = self.__dict__["_relx_forest"] = _Forest(
                [p for iteration in self._predictors for p in iteration])
        values = forest.leaf_values(X)
        for i in range(len(self._predictors)):
            raw += values[:, i * K: (i + 1) * K]
        return raw

    def decision_function(self, X: Any) -> np.ndarray:
        """The raw predictions: (n,) for two classes, else (n, n_classes)."""
        decision = self._raw_predict(X)
        return decision.ravel() if decision.shape[1] == 1 else decision

    def predict_proba(self, X: Any) -> np.ndarray:
        """The loss's probabilities of the raw predictions."""
        return self._loss.predict_proba(self._raw_predict(X))

    def predict(self, X: Any) -> np.ndarray:
        """The class of the highest raw prediction (two classes: > 0)."""
        raw = self._raw_predict(X)
        encoded = (raw.ravel() > 0).astype(int) if raw.shape[1] == 1 else np.argmax(raw, axis=1)
        return self.classes_[encoded]


class HalfBinomialLoss(_Holder):
    """``sklearn._loss.loss.HalfBinomialLoss``."""

    def predict_proba(self, raw_prediction: np.ndarray) -> np.ndarray:
        """Columns ``1 - p`` and ``p = expit(raw)``."""
        if raw_prediction.ndim == 2 and raw_prediction.shape[1] == 1:
            raw_prediction = raw_prediction.squeeze(1)
        proba = np.empty((raw_prediction.shape[0], 2), dtype=raw_prediction.dtype)
        proba[:, 1] = self.link.inverse(raw_prediction)
        proba[:, 0] = 1 - proba[:, 1]
        return proba


class HalfMultinomialLoss(_Holder):
    """``sklearn._loss.loss.HalfMultinomialLoss``."""

    def predict_proba(self, raw_prediction: np.ndarray) -> np.ndarray:
        """Softmax of the raw predictions."""
        return self.link.inverse(raw_prediction)


class LogitLink(_Holder):
    """``sklearn._loss.link.LogitLink``."""

    def inverse(self, raw_prediction: np.ndarray) -> np.ndarray:
        return _expit(raw_prediction)


class MultinomialLogit(_Holder):
    """``sklearn._loss.link.MultinomialLogit``."""

    def inverse(self, raw_prediction: np.ndarray) -> np.ndarray:
        return _softmax(raw_prediction)


class _BinMapper(_Holder):
    """``sklearn.ensemble._hist_gradient_boosting.binning._BinMapper`` (held)."""


class Interval(_Holder):
    """``sklearn._loss.link.Interval`` (held)."""


class CyHalfBinomialLoss(_Holder):
    """``sklearn._loss._loss.CyHalfBinomialLoss`` (held), built as skops' LossNode builds
    it: ``cls(*args)``, then ``__setstate__`` if it has state."""

    def __init__(self, *args: Any) -> None:
        self._relx_args = args


class CyHalfMultinomialLoss(CyHalfBinomialLoss):
    """``sklearn._loss._loss.CyHalfMultinomialLoss`` (held)."""
