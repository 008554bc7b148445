"""Fisher's linear discriminant by minimum-squared-error regression (MSE-FLDA; Duda, Hart &
Stork 2001 §5.8.2; the classifier of Mu et al. 2012 §4.2).

On augmented samples ``[1, x]`` the least-squares fit of the targets ``n/n₁`` (class 1,
the positive class ``classes_[1]``) and ``-n/n₂`` (class 2) gives ``g(x) = w₀ + wᵀx`` with
``w ∝ S_w⁻¹(m₁ - m₂)`` (Fisher's direction) and ``w₀ = -wᵀm`` (m the grand mean); decide
class 1 when ``g(x) > 0``. ``reg`` adds an optional ridge ``reg·‖w‖²`` (not on w₀).
"""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np
import scipy.linalg

from relx.estimator import BaseEstimator, ClassifierMixin, check_is_fitted, validate_data
from relx.learn.forest import best_f1_threshold


def mse_fisher(X: np.ndarray, positive: np.ndarray, reg: float = 0.0) -> tuple[np.ndarray, float]:
    """(w, w0) of the MSE solution with targets n/n₁ (``positive``) and -n/n₂ (the rest)."""
    n = len(X)
    n1 = int(positive.sum())
    t = np.where(positive, n / n1, -n / (n - n1))
    # least squares on [1, x]: centring removes w0 from the system, w0 = mean(t) - wᵀ mean(X)
    # (mean(t) = 0 for these targets); the ridge acts on w only
    mu = X.mean(axis=0)
    Xc = X - mu
    G = Xc.T @ Xc
    G[np.diag_indices_from(G)] += reg
    r = Xc.T @ (t - t.mean())
    try:  # normal equations (Cholesky): far faster than an SVD-based lstsq for n >> d
        with warnings.catch_warnings():
            warnings.simplefilter("error", scipy.linalg.LinAlgWarning)
            w = scipy.linalg.solve(G, r, assume_a="pos")
    except (np.linalg.LinAlgError, scipy.linalg.LinAlgWarning):
        w = scipy.linalg.pinvh(G) @ r  # singular: the pseudo-inverse (minimum-norm) solution
    return w, float(t.mean() - mu @ w)


def _logistic_scale(d: np.ndarray, positive: np.ndarray) -> float:
    """The s >= 0 maximising the likelihood of ``P(y=1 | d) = σ(s·d)`` (no intercept, so the
    calibrated probability crosses 1/2 exactly at the decision threshold)."""
    sign = np.where(positive, 1.0, -1.0)
    scale = np.abs(d).mean()
    if not np.isfinite(scale) or scale == 0:
        return 1.0
    z = sign * d / scale

    def nll(s):
        return np.logaddexp(0, -s * z).mean() + 1e-6 * s * s  # tiny L2: separable data

    from scipy.optimize import minimize_scalar

    s = minimize_scalar(nll, bounds=(0.0, 1e3), method="bounded").x
    return float(max(s, 1e-6) / scale)


class MSEFLDA(ClassifierMixin, BaseEstimator):
    """Binary MSE-FLDA classifier.

    Parameters
    ----------
    reg : float
        Ridge penalty on w (0: the plain pseudo-inverse MSE solution).
    threshold : float or ``"auto"``
        Decision-value threshold t (predict class 1 when ``g(x) > t``; Fisher's rule is 0),
        or ``"auto"``: the t maximising F1 on ``cv``-fold out-of-fold decision values of
        the training data.
    cv : int
        Folds for the out-of-fold decision values used by ``threshold="auto"`` and by the
        probability calibration.
    random_state : seed of the fold split.

    ``decision_function`` returns ``g(x) - t``; ``predict_proba`` is ``σ(s·(g(x) - t))``
    with s >= 0 fitted by maximum likelihood on the out-of-fold decision values (on the
    training decision values when a class has fewer than 2 members), so probability 1/2 is
    the decision threshold. Attributes: ``coef_`` (w), ``intercept_`` (w₀),
    ``decision_threshold_`` (t), ``scale_`` (s), ``threshold_`` = 0.5 (the probability
    above which ``predict`` says class 1, as for the other relx classifiers).
    """

    def __init__(self, reg: float = 0.0, threshold: float | str = 0.0, cv: int = 3,
                 random_state=None) -> None:
        self.reg = reg
        self.threshold = threshold
        self.cv = cv
        self.random_state = random_state

    def fit(self, X, y) -> MSEFLDA:
        from sklearn.utils.multiclass import check_classification_targets

        X, y = validate_data(self, X, y, reset=True, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) != 2:
            raise ValueError(f"Only binary classification is supported. MSEFLDA got "
                             f"{len(self.classes_)} class(es) in y.")
        if not (isinstance(self.reg, Real) and self.reg >= 0):
            raise ValueError(f"reg must be >= 0, not {self.reg!r}")
        if not (self.threshold == "auto" or isinstance(self.threshold, Real)):
            raise ValueError(f"threshold must be a number or 'auto', not {self.threshold!r}")
        pos = y == self.classes_[1]
        self.coef_, self.intercept_ = mse_fisher(X, pos, self.reg)
        oof = self._out_of_fold(X, y, pos)
        if self.threshold == "auto":
            self.decision_threshold_ = best_f1_threshold(pos, oof)
        else:
            self.decision_threshold_ = float(self.threshold)
        self.scale_ = _logistic_scale(oof - self.decision_threshold_, pos)
        self.threshold_ = 0.5
        return self

    def _out_of_fold(self, X: np.ndarray, y: np.ndarray, pos: np.ndarray) -> np.ndarray:
        folds = min(int(self.cv), int(pos.sum()), int((~pos).sum()))
        if folds < 2:
            return X @ self.coef_ + self.intercept_
        from sklearn.model_selection import StratifiedKFold

        oof = np.zeros(len(y))
        split = StratifiedKFold(folds, shuffle=True, random_state=self.random_state)
        for tr, va in split.split(X, y):
            if pos[tr].all() or not pos[tr].any():
                oof[va] = X[va] @ self.coef_ + self.intercept_
                continue
            w, w0 = mse_fisher(X[tr], pos[tr], self.reg)
            oof[va] = X[va] @ w + w0
        return oof

    def decision_function(self, X) -> np.ndarray:
        """(N,) ``g(x) - t``; > 0 means ``classes_[1]``."""
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_ + self.intercept_ - self.decision_threshold_

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "scale_")
        z = np.clip(self.scale_ * self.decision_function(X), -500, 500)
        p = 1.0 / (1.0 + np.exp(-z))
        return np.c_[1 - p, p]

    def predict(self, X) -> np.ndarray:
        d = self.decision_function(X)
        return self.classes_[(d > 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags
