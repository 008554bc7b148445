"""Kernelized locality-sensitive hashcodes (Garg et al. 2019 §2.1).

A structure x is compared with a reference set of M structures, ``k_x = K(x, S^R)``
(M kernel evaluations whatever the code length), and H hash functions map ``k_x`` to bits:

- ``rknn``: ``h_l(x) = [max_{s in S1_l} K(x,s) < max_{s in S2_l} K(x,s)]``
- ``rmm``: a maximum-margin boundary (SVM in kernel space) between S1_l and S2_l
  (random maximum margin hashing, Joly & Buisson 2011)
- ``kulis``: a random hyperplane in kernel space through t = 2α reference points
  (Kulis & Grauman 2009)

with ``S1_l, S2_l`` disjoint random subsets of size α of the reference set.
"""

from __future__ import annotations

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
from relx.structures import EncodedStructures

HASH_FUNCTIONS = ("rmm", "rknn", "kulis")


def _is_numeric(X) -> bool:
    return not isinstance(X, (StructureSet, EncodedStructures))


def _balanced_sample(y: np.ndarray, m: int, rng: np.random.RandomState) -> np.ndarray:
    """m indices with classes as equally represented as their sizes allow (sorted)."""
    classes = [np.flatnonzero(y == c) for c in np.unique(y)]
    quota = np.zeros(len(classes), dtype=int)
    for _ in range(m):  # fill the smallest quota whose class still has members
        open_ = [i for i, c in enumerate(classes) if quota[i] < len(c)]
        quota[min(open_, key=lambda i: quota[i])] += 1
    picks = [rng.choice(c, size=q, replace=False) for c, q in zip(classes, quota, strict=True)]
    return np.sort(np.concatenate(picks))


class KLSHEncoder(TransformerMixin, BaseEstimator):
    """Structures -> (N, H) binary kernel hashcodes.

    Parameters: ``kernel`` (a kernel object with ``gram(A, B)`` or an sklearn pairwise
    kernel name for numeric input), ``n_reference`` M, ``n_bits`` H, ``alpha`` (size of
    each random subset), ``hash_function`` (``rmm``, ``rknn``, ``kulis``),
    ``random_state``. ``reference_indices`` fixes the reference set (e.g. after
    optimisation) instead of drawing it at random.
    """

    def __init__(self, kernel="rbf", n_reference: int = 100, n_bits: int = 1000, alpha: int = 2,
                 hash_function: str = "rmm", reference: str = "random", reference_indices=None,
                 random_state=None) -> None:
        self.kernel = kernel
        self.n_reference = n_reference
        self.n_bits = n_bits
        self.alpha = alpha
        self.hash_function = hash_function
        self.reference = reference
        self.reference_indices = reference_indices
        self.random_state = random_state

    def fit(self, X, y=None) -> KLSHEncoder:
        if _is_numeric(X):
            X = validate_data(self, X, reset=True)
        if self.hash_function not in HASH_FUNCTIONS:
            raise ValueError(f"hash_function must be one of {HASH_FUNCTIONS}, not {self.hash_function!r}")
        if self.alpha < 1:
            raise ValueError("alpha must be >= 1")
        rng = check_random_state(self.random_state)
        n = n_samples(X)
        if self.reference_indices is not None:
            ref = np.asarray(self.reference_indices, dtype=np.int64)
        elif self.reference == "balanced" and y is not None:
            ref = _balanced_sample(np.asarray(y), min(self.n_reference, n), rng)
        elif self.reference in ("random", "balanced"):
            ref = np.sort(rng.choice(n, size=min(self.n_reference, n), replace=False))
        else:
            raise ValueError(f"reference must be 'random' or 'balanced', not {self.reference!r}")
        m = len(ref)
        if m < 2 * self.alpha:
            raise ValueError(f"need at least 2*alpha={2 * self.alpha} samples for the reference "
                             f"set, got n_samples={m}")
        self.reference_indices_ = ref
        self.reference_ = take(X, ref)
        k_rr = gram(self.kernel, self.reference_)
        subsets = np.stack([rng.permutation(m)[: 2 * self.alpha] for _ in range(self.n_bits)])
        self.subsets_ = subsets  # (H, 2α): first α indices are S1, the rest S2
        if self.hash_function == "rknn":
            self.weights_, self.offsets_ = None, None
        elif self.hash_function == "rmm":
            self.weights_, self.offsets_ = self._rmm(k_rr, subsets)
        else:
            self.weights_, self.offsets_ = self._kulis(k_rr, subsets)
        self.n_bits_ = self.n_bits
        return self

    def _rmm(self, k_rr: np.ndarray, subsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        m, a = len(k_rr), self.alpha
        w = np.zeros((m, len(subsets)))
        b = np.zeros(len(subsets))
        y = np.r_[np.ones(a), -np.ones(a)]
        for h, sub in enumerate(subsets):
            from sklearn.svm import SVC

            svm = SVC(kernel="precomputed", C=1e3).fit(k_rr[np.ix_(sub, sub)], y)
            w[sub[svm.support_], h] = svm.dual_coef_[0]
            b[h] = svm.intercept_[0]
            if svm.classes_[1] != 1:  # decision > 0 means class +1 (S1)
                w[:, h], b[h] = -w[:, h], -b[h]
        return w, b

    def _kulis(self, k_rr: np.ndarray, subsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        m = len(k_rr)
        c = np.eye(m) - 1.0 / m
        vals, vecs = np.linalg.eigh(c @ k_rr @ c)
        keep = vals > 1e-8 * max(vals.max(), 1e-300)
        k_inv_sqrt = (vecs[:, keep] / np.sqrt(vals[keep])) @ vecs[:, keep].T
        e = np.zeros((m, len(subsets)))
        for h, sub in enumerate(subsets):
            e[sub, h] = 1.0 / len(sub)
        w = k_inv_sqrt @ (e - 1.0 / m)
        # centre the query's kernel row like the reference Gram: k - mean(k) - const
        b = -(k_rr.mean(axis=0) @ w)
        return w, b

    def reference_kernel(self, X) -> np.ndarray:
        """(N, M) kernel block between X and the reference set."""
        check_is_fitted(self, "reference_")
        if _is_numeric(X):
            X = validate_data(self, X, reset=False)
        return gram(self.kernel, X, self.reference_)

    def codes_from_kernel(self, k_xr: np.ndarray) -> np.ndarray:
        """(N, M) reference-kernel block -> (N, H) uint8 hashcodes."""
        if self.hash_function == "rknn":
            a = self.alpha
            s1 = k_xr[:, self.subsets_[:, :a]].max(axis=2)
            s2 = k_xr[:, self.subsets_[:, a:]].max(axis=2)
            return (s1 < s2).astype(np.uint8)
        if self.hash_function == "kulis":
            k_xr = k_xr - k_xr.mean(axis=1, keepdims=True)
        from threadpoolctl import threadpool_limits

        # one BLAS thread: how a product is split over threads changes the rounding of some
        # rows, and a sum that is 0 in exact arithmetic then flips its bit
        with threadpool_limits(1, user_api="blas"):
            scores = k_xr @ self.weights_
        if scores.dtype != np.result_type(scores, self.offsets_):
            return (scores + self.offsets_ > 0).astype(np.uint8)
        scores += self.offsets_   # in place: the same sums, one (N, H) array fewer at a time
        return (scores > 0).view(np.uint8)

    def transform(self, X) -> np.ndarray:
        """(N, H) uint8 hashcodes."""
        return self.codes_from_kernel(self.reference_kernel(X))

    def transform_rows(self, X, rows: np.ndarray, n: int) -> np.ndarray:
        """(len(rows), H) hashcodes of X, the rows ``rows`` of an ``n``-row batch whose other
        rows are not given: exactly the codes :meth:`transform` gives those rows in the whole
        batch. A code is the sign of a matrix product, whose rounding of a row can depend on
        where the row sits in the product (a sum that is 0 in exact arithmetic, as for a
        structure tied with a bit's reference structures, then takes either sign); so the
        kernel block is computed for X only and hashed at its rows of an n-row block."""
        k_xr = self.reference_kernel(X)
        full = np.zeros((n, k_xr.shape[1]), dtype=k_xr.dtype)
        full[rows] = k_xr
        return self.codes_from_kernel(full)[rows]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = False
        tags.transformer_tags.preserves_dtype = []  # output is always uint8 bits
        return tags


def predict_proba_rows(estimator, X, rows: np.ndarray, n: int) -> np.ndarray:
    """``estimator.predict_proba(X)`` for X, the rows ``rows`` of an ``n``-row batch, with
    each :class:`KLSHEncoder` step of a pipeline hashing them as in the whole batch
    (:meth:`KLSHEncoder.transform_rows`): the rows' probabilities when the batch's other
    rows are never computed."""
    steps = getattr(estimator, "steps", None)
    if not steps:
        return estimator.predict_proba(X)
    for _, step in steps[:-1]:
        if step is None or step == "passthrough":
            continue
        X = step.transform_rows(X, rows, n) if isinstance(step, KLSHEncoder) \
            else step.transform(X)
    return steps[-1][1].predict_proba(X)
