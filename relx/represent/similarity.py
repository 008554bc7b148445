"""(Dis)similarity features (Mu et al. 2012 §3.2, eqs. 34-38): a structure becomes the row of
its kernel values against the training instances or against p prototypes,
``r_i = [K(x_i, x_j)]_j``.

Several kernels (structure types) combine as ``R = Σ a_i R_i / Σ a_i`` (eq. 37/38). Only the
(N, M) blocks against the prototypes are computed; with all training instances as
prototypes ``fit_transform`` computes the symmetric training Gram once and ``transform``
the (N_new, N_train) block.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from relx.estimator import (
    BaseEstimator,
    TransformerMixin,
    check_is_fitted,
    check_random_state,
    validate_data,
)
from relx.kernels.structure import gram, n_samples, take
from relx.represent.instances import StructureSet
from relx.represent.klsh import _balanced_sample
from relx.structures import EncodedStructures

PROTOTYPES = ("random", "balanced")


def _is_numeric(X) -> bool:
    return not isinstance(X, (StructureSet, EncodedStructures))


class SimilarityFeatures(TransformerMixin, BaseEstimator):
    """Structures -> (N, M) similarity features against M prototypes.

    Parameters
    ----------
    kernel : kernel object, sklearn pairwise-kernel name, or a list of them
        Each kernel object has ``gram(A, B)`` returning a normalised block (e.g. the
        registered ``path_kernel`` or ``tree_kernel``); a name (``"rbf"``, ``"cosine"``
        ...) works on numeric arrays.
    weights : list of float, optional
        Combination weights ``a_i >= 0`` of the kernels (Mu eq. 37); equal by default.
        Kernels with weight 0 are not computed.
    n_prototypes : int, optional
        Number of prototypes p; ``None`` (default) uses every training instance (the
        paper's setting, N_train features).
    prototypes : ``"random"`` or ``"balanced"``
        How p < N prototypes are drawn: uniformly, or with the classes as equally
        represented as their sizes allow (needs ``y`` in ``fit``).
    random_state : seed for the prototype draw.
    """

    def __init__(self, kernel="rbf", weights: Sequence[float] | None = None,
                 n_prototypes: int | None = None, prototypes: str = "random",
                 random_state=None) -> None:
        self.kernel = kernel
        self.weights = weights
        self.n_prototypes = n_prototypes
        self.prototypes = prototypes
        self.random_state = random_state

    def _kernels(self) -> tuple[list, np.ndarray]:
        kernels = list(self.kernel) if isinstance(self.kernel, (list, tuple)) else [self.kernel]
        if not kernels:
            raise ValueError("kernel must name at least one kernel")
        w = np.ones(len(kernels)) if self.weights is None else np.asarray(self.weights, float)
        if w.shape != (len(kernels),):
            raise ValueError(f"weights has {w.size} entries for {len(kernels)} kernels")
        if (w < 0).any() or w.sum() <= 0:
            raise ValueError("weights must be >= 0 and not all 0")
        return kernels, w

    def fit(self, X, y=None) -> SimilarityFeatures:
        self._fit(X, y)
        return self

    def _fit(self, X, y):
        if _is_numeric(X):
            X = validate_data(self, X, reset=True)
        if self.prototypes not in PROTOTYPES:
            raise ValueError(f"prototypes must be one of {PROTOTYPES}, not {self.prototypes!r}")
        self._kernels()
        n = n_samples(X)
        p = self.n_prototypes
        if p is not None and p < 1:
            raise ValueError(f"n_prototypes must be >= 1 or None, not {p}")
        if p is None or p >= n:
            idx = np.arange(n)
        else:
            rng = check_random_state(self.random_state)
            if self.prototypes == "balanced" and y is not None:
                idx = _balanced_sample(np.asarray(y), p, rng)
            else:
                idx = np.sort(rng.choice(n, size=p, replace=False))
        self.prototype_indices_ = idx
        self.prototypes_ = X if len(idx) == n else take(X, idx)
        self.n_prototypes_ = len(idx)
        return X

    def _combine(self, X, B) -> np.ndarray:
        kernels, w = self._kernels()
        out = None
        for wi, k in zip(w, kernels, strict=True):
            if wi == 0:
                continue
            block = wi * np.asarray(gram(k, X, B), dtype=np.float64)
            out = block if out is None else out + block
        return out / w.sum()

    def fit_transform(self, X, y=None, **fit_params) -> np.ndarray:
        X = self._fit(X, y)
        if self.n_prototypes_ == n_samples(X):  # all training instances: one symmetric Gram
            return self._combine(X, None)
        return self._combine(X, self.prototypes_)

    def transform(self, X) -> np.ndarray:
        """(N, M) combined kernel block between X and the prototypes."""
        check_is_fitted(self, "prototypes_")
        if _is_numeric(X):
            X = validate_data(self, X, reset=False)
        return self._combine(X, self.prototypes_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = False
        return tags
