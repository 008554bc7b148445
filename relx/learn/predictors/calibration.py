"""Calibrated classifiers: isotonic and sigmoid calibration."""

from __future__ import annotations

from typing import Any

import numpy as np

from relx.estimator import check_array
from relx.learn.predictors._common import _column_or_1d, _expit, _Holder, _num_samples
from relx.learn.predictors.linear import LabelEncoder


class GroupKFold(_Holder):
    """``sklearn.model_selection.GroupKFold`` (held as a parameter)."""


class _Interp1d:
    """``scipy.interpolate.interp1d(x, y, kind="linear", bounds_error=..., fill_value=nan)``
    as scipy evaluates it (``np.interp`` for float64 data, else its slope formula)."""

    def __init__(self, x: np.ndarray, y: np.ndarray, bounds_error: bool) -> None:
        ind = np.argsort(x, kind="mergesort")
        x, y = np.array(x)[ind], np.take(np.array(y), ind, axis=-1)
        y = y if issubclass(y.dtype.type, np.inexact) else y.astype(np.float64)
        self.x, self.y, self.bounds_error = x, y, bounds_error
        np_dtypes = (np.dtype(np.float64), np.dtype(int))
        self.numpy = x.dtype in np_dtypes and y.dtype in np_dtypes and y.ndim == 1

    def __call__(self, x_new: Any) -> np.ndarray:
        x_new = np.asarray(x_new)
        x_new = x_new if np.issubdtype(x_new.dtype, np.inexact) else x_new.astype(np.float64)
        shape, x_new, x, y = x_new.shape, x_new.ravel(), self.x, self.y
        if self.numpy:
            y_new = np.interp(x_new, x, y)
        else:
            hi = np.searchsorted(x, x_new).clip(1, len(x) - 1).astype(int)
            lo = hi - 1
            y_new = (y[hi] - y[lo]) / (x[hi] - x[lo]) * (x_new - x[lo]) + y[lo]
        below, above = x_new < x[0], x_new > x[-1]
        if self.bounds_error and (below.any() or above.any()):
            raise ValueError("A value in x_new is outside the interpolation range.")
        if len(y_new) > 0:
            y_new[below] = y_new[above] = np.nan
        return y_new.reshape(shape)


class IsotonicRegression(_Holder):
    """``sklearn.isotonic.IsotonicRegression``; ``f_`` built on loading, as there."""

    _DERIVED = ("f_",)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        if hasattr(self, "X_thresholds_") and hasattr(self, "y_thresholds_"):
            x, y = self.X_thresholds_, self.y_thresholds_
            self.f_ = (lambda t: y.repeat(t.shape)) if len(y) == 1 else \
                _Interp1d(x, y, bounds_error=self.out_of_bounds == "raise")

    def predict(self, T: Any) -> np.ndarray:
        """Linear interpolation between the thresholds (``"clip"``: clipped to them)."""
        dtype = self.X_thresholds_.dtype if hasattr(self, "X_thresholds_") else np.float64
        T = check_array(T, dtype=dtype, accept_sparse=False, ensure_2d=False)
        if not (T.ndim == 1 or (T.ndim == 2 and T.shape[1] == 1)):
            raise ValueError("Isotonic regression input X should be a 1d array or 2d array "
                             "with 1 feature")
        T = T.reshape(-1)
        if self.out_of_bounds == "clip":
            T = np.clip(T, self.X_min_, self.X_max_)
        return self.f_(T).astype(T.dtype)

    transform = predict


class _SigmoidCalibration(_Holder):
    """``sklearn.calibration._SigmoidCalibration``."""

    def predict(self, T: Any) -> np.ndarray:
        """``expit(-(a_ * T + b_))``."""
        return _expit(-(self.a_ * _column_or_1d(T) + self.b_))


def _response(estimator: Any, X: Any) -> np.ndarray:
    """``_get_response_values(estimator, X, ["decision_function", "predict_proba"])``."""
    method = getattr(estimator, "decision_function", None) or \
        getattr(estimator, "predict_proba", None)
    if method is None:
        raise AttributeError(f"{type(estimator).__name__} has none of the following "
                             "attributes: decision_function, predict_proba.")
    y_pred, classes = method(X), getattr(estimator, "classes_", None)
    # type_of_target(classes) == "binary": at most two, not non-integral floats
    if classes is None or len(classes) > 2 or (
            classes.dtype.kind == "f" and np.any(classes != classes.astype(int))):
        return y_pred
    pos_label = classes[-1]
    if method.__name__ != "predict_proba":
        return -1 * y_pred if pos_label == classes[0] else y_pred
    if y_pred.shape[1] < 2:
        raise ValueError(f"Got predict_proba of shape {y_pred.shape}, but need classifier "
                         "with two classes.")
    return y_pred[:, np.flatnonzero(classes == pos_label)[0]]


class _CalibratedClassifier(_Holder):
    """``sklearn.calibration._CalibratedClassifier`` (sigmoid or isotonic)."""

    def predict_proba(self, X: Any) -> np.ndarray:
        """The calibrators' probabilities of the estimator's scores, normalised."""
        if self.method not in ("sigmoid", "isotonic"):
            raise NotImplementedError(f"calibration method {self.method!r}")
        predictions = _response(self.estimator, X)
        predictions = predictions.reshape(-1, 1) if predictions.ndim == 1 else predictions
        n_classes = self.classes.shape[0]
        proba = np.zeros((_num_samples(X), n_classes))
        encoder = LabelEncoder()   # LabelEncoder().fit(self.classes)
        encoder.classes_ = np.unique(self.classes)
        pos_class_indices = encoder.transform(self.estimator.classes_)
        for class_idx, this_pred, calibrator in zip(pos_class_indices, predictions.T,
                                                    self.calibrators, strict=False):
            proba[:, class_idx + (n_classes == 2)] = calibrator.predict(this_pred)
        if n_classes == 2:
            proba[:, 0] = 1.0 - proba[:, 1]
        else:
            denominator = np.sum(proba, axis=1)[:, np.newaxis]
            uniform_proba = np.full_like(proba, 1 / n_classes)
            proba = np.divide(proba, denominator, out=uniform_proba, where=denominator != 0)
        proba[(1.0 < proba) & (proba <= 1.0 + 1e-5)] = 1.0
        return proba


class CalibratedClassifierCV(_Holder):
    """``sklearn.calibration.CalibratedClassifierCV``."""

    def predict_proba(self, X: Any) -> np.ndarray:
        """The mean of the calibrated classifiers' probabilities."""
        mean_proba = np.zeros((_num_samples(X), self.classes_.shape[0]))
        for calibrated_classifier in self.calibrated_classifiers_:
            mean_proba += calibrated_classifier.predict_proba(X)
        mean_proba /= len(self.calibrated_classifiers_)
        return mean_proba

    def predict(self, X: Any) -> np.ndarray:
        """The class of the highest calibrated probability."""
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]
