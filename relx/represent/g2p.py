"""Dual-goal projection (G2P) embedding in (dis)similarity space (Mu et al. 2012, eq. 39).

With the (n, p) similarity-feature matrix S of the training instances (rows: instances,
columns: prototypes or all training instances), G2P finds the projection P (p × k) of

    max_P tr[Pᵀ Sᵀ W S P]   s.t.   Pᵀ (SᵀS + λI) P = I,      W = S_Y ∘ N(S, h) ∘ S_nn

where ``S_Y[i, j] = +1`` if y_i = y_j else ``-1`` (``y yᵀ`` for y ∈ {-1, +1}), ``N(S, h)`` is
the symmetric h-nearest-neighbour indicator (j among the h most similar instances to i,
or i among those of j; every instance is also its own neighbour) and ``S_nn`` the
(n, n) similarity between training instances. The class-only variant (``weighting =
"class"``) uses ``W = S_Y`` (global class structure only; the objective then has rank c-1).
The problem is the generalised symmetric eigenproblem ``A v = μ B v`` with ``A = SᵀWS``,
``B = SᵀS + λI`` (``scipy.linalg.eigh(A, B)``, whose eigenvectors satisfy ``vᵀBv = 1``);
P holds the eigenvectors of the k largest eigenvalues, k chosen by eigenvalue energy
(eq. 40): the smallest k with ``Σ_{i≤k} μ_i² / Σ_i μ_i² ≥ energy`` (eigenvalues in
decreasing order; ``energy_over="positive"`` sums only the positive eigenvalues, the
directions that raise the objective: with many neighbours the negative eigenvalues hold
much of the energy and the literal rule jumps to k ≈ p). A query is embedded as its
similarity row times P.

``S_nn`` comes from ``affinity``: ``"precomputed"`` takes S itself (it must then be the
square training-vs-training kernel matrix, i.e. ``SimilarityFeatures`` with all training
instances as prototypes: the paper's setting, where one measure gives both matrices);
a pairwise-kernel name (``"cosine"``, ``"linear"``, ``"rbf"``) compares the rows of S,
which also works with p < n prototypes.

``center=True`` (not in the paper) subtracts the training mean of every feature (column of
S) before projecting: ``A = S_cᵀWS_c``, ``B = S_cᵀS_c + λI`` and the query row is centred
the same way; W still comes from the uncentred similarities. With the class-only
weighting this turns the rank-one direction into a ridge regression with an intercept.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from relx.estimator import BaseEstimator, TransformerMixin, check_is_fitted, validate_data

WEIGHTINGS = ("local", "class")
_CHUNK = 1024  # rows of the (n, n) similarity held at once during the neighbour search


def energy_components(eigenvalues: np.ndarray, energy: float) -> int:
    """Mu eq. 40: the smallest k with ``Σ_{i≤k} μ_i² / Σ_i μ_i² ≥ energy``, eigenvalues
    taken in the order given (decreasing)."""
    if not 0 < energy <= 1:
        raise ValueError(f"energy must be in (0, 1], not {energy}")
    sq = np.asarray(eigenvalues, float) ** 2
    total = sq.sum()
    if total <= 0:
        return 1
    cum = np.cumsum(sq) / total
    return int(min(np.searchsorted(cum, energy * (1 - 1e-12)) + 1, len(sq)))


class G2PEmbedding(TransformerMixin, BaseEstimator):
    """Similarity features (N, p) -> (N, k) G2P embedding.

    Parameters
    ----------
    n_neighbors : int or float
        h, neighbours per instance in N(S, h); a float in (0, 1] is a fraction of the
        training set size. Ignored with ``weighting="class"``.
    reg : float
        λ > 0, the ridge term of the constraint ``Pᵀ(SᵀS + λI)P = I``.
    energy : float
        Fraction (0, 1] of squared-eigenvalue energy kept (eq. 40) when ``n_components`` is
        None.
    n_components : int, optional
        Fixed k instead of the energy rule.
    energy_over : ``"all"`` (eq. 40 as written) or ``"positive"`` eigenvalues.
    weighting : ``"local"`` (eq. 39, class-signed h-NN similarities) or ``"class"`` (S_Y).
    affinity : ``"precomputed"`` or an sklearn pairwise-kernel name (see module doc).
    center : subtract the training feature means first (see module doc).

    Attributes: ``components_`` (p, k) = P, ``eigenvalues_`` (all, decreasing),
    ``n_components_`` = k, ``classes_``, ``mean_`` (feature means subtracted, zeros
    unless ``center``).
    """

    def __init__(self, n_neighbors: int | float = 10, reg: float = 1.0, energy: float = 0.99,
                 n_components: int | None = None, weighting: str = "local",
                 affinity: str = "cosine", center: bool = False,
                 energy_over: str = "all") -> None:
        self.n_neighbors = n_neighbors
        self.reg = reg
        self.energy = energy
        self.n_components = n_components
        self.weighting = weighting
        self.affinity = affinity
        self.center = center
        self.energy_over = energy_over

    # -- the objective -----------------------------------------------------------------
    def _h(self, n: int) -> int:
        h = self.n_neighbors
        if isinstance(h, (bool, np.bool_)) or not isinstance(h, (Integral, Real)):
            raise ValueError(f"n_neighbors must be an int or a float in (0, 1], not {h!r}")
        if isinstance(h, Integral):
            if h < 1:
                raise ValueError(f"n_neighbors must be >= 1, not {h}")
            return int(min(h, n - 1))
        if not 0 < h <= 1:
            raise ValueError(f"a float n_neighbors is a fraction in (0, 1], not {h}")
        return int(min(max(np.ceil(h * n), 1), n - 1))

    def _similarity_rows(self, S: np.ndarray, rows: slice) -> np.ndarray:
        if self.affinity == "precomputed":
            return S[rows]
        from sklearn.metrics.pairwise import pairwise_kernels

        return pairwise_kernels(S[rows], S, metric=self.affinity)

    def _local_weights(self, S: np.ndarray, y: np.ndarray) -> sp.csr_matrix:
        """W = S_Y ∘ N(S, h) ∘ S_nn as a sparse (n, n) matrix."""
        n = S.shape[0]
        if self.affinity == "precomputed" and S.shape[1] != n:
            raise ValueError(
                f"affinity='precomputed' needs the square (n, n) training similarities "
                f"(SimilarityFeatures with n_prototypes=None); got shape {S.shape}")
        h = self._h(n)
        rows, cols, vals = [], [], []
        for start in range(0, n, _CHUNK):
            block = np.array(self._similarity_rows(S, slice(start, start + _CHUNK)), float)
            m = len(block)
            own = np.arange(start, start + m)
            self_sim = block[np.arange(m), own].copy()
            block[np.arange(m), own] = -np.inf  # the h nearest *other* instances
            if h < n - 1:
                nn = np.argpartition(-block, h - 1, axis=1)[:, :h]
            else:
                nn = np.tile(np.arange(n), (m, 1))
                nn = nn[nn != own[:, None]].reshape(m, n - 1)
            rows += [np.repeat(own, nn.shape[1]), own]
            cols += [nn.ravel(), own]
            vals += [np.take_along_axis(block, nn, axis=1).ravel(), self_sim]
        r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
        # symmetric neighbourhood: (i, j) or (j, i); S_nn is symmetric (precomputed: its mean)
        if self.affinity == "precomputed":
            v_t = S[c, r]
            v = np.concatenate([(v + v_t) / 2, (v + v_t) / 2])
        else:
            v = np.concatenate([v, v])
        r, c = np.concatenate([r, c]), np.concatenate([c, r])
        key, first = np.unique(r.astype(np.int64) * n + c, return_index=True)
        r, c, v = key // n, key % n, v[first]
        v = v * np.where(y[r] == y[c], 1.0, -1.0)
        return sp.csr_matrix((v, (r, c)), shape=(n, n))

    def objective_matrices(self, S, y) -> tuple[np.ndarray, np.ndarray]:
        """``A = SᵀWS`` and ``B = SᵀS + λI`` of eq. 39 for training features S and labels y."""
        S = np.asarray(S, dtype=np.float64)
        y = np.asarray(y)
        F = S - S.mean(axis=0) if self.center else S  # the features projected by P
        if self.weighting == "class":
            # Sᵀ S_Y S = 2 Σ_c (Sᵀe_c)(Sᵀe_c)ᵀ - (Sᵀ1)(Sᵀ1)ᵀ without the dense (n, n) S_Y
            onehot = (y[:, None] == np.unique(y)[None, :]).astype(float)
            sy = F.T @ onehot
            s1 = F.sum(axis=0)
            A = 2 * sy @ sy.T - np.outer(s1, s1)
        elif self.weighting == "local":
            W = self._local_weights(S, y)
            A = F.T @ np.asarray(W @ F)
        else:
            raise ValueError(f"weighting must be one of {WEIGHTINGS}, not {self.weighting!r}")
        A = (A + A.T) / 2
        B = F.T @ F
        B[np.diag_indices_from(B)] += self.reg
        return A, B

    # -- estimator API -----------------------------------------------------------------
    def fit(self, X, y) -> G2PEmbedding:
        from sklearn.utils.multiclass import check_classification_targets

        X, y = validate_data(self, X, y, reset=True, dtype=np.float64)
        check_classification_targets(y)
        if not (isinstance(self.reg, Real) and self.reg > 0):
            raise ValueError(f"reg (λ) must be > 0, not {self.reg!r}")
        if X.shape[0] < 2:
            raise ValueError(f"G2PEmbedding needs at least 2 samples, got n_samples={X.shape[0]}")
        self.classes_ = np.unique(y)
        self.mean_ = X.mean(axis=0) if self.center else np.zeros(X.shape[1])
        A, B = self.objective_matrices(X, y)
        vals, vecs = scipy.linalg.eigh(A, B)  # ascending; vecsᵀ B vecs = I
        vals, vecs = vals[::-1], vecs[:, ::-1]
        if self.n_components is not None:
            if not 1 <= self.n_components:
                raise ValueError(f"n_components must be >= 1, not {self.n_components}")
            k = min(int(self.n_components), len(vals))
        elif self.energy_over == "all":
            k = energy_components(vals, self.energy)
        elif self.energy_over == "positive":
            k = energy_components(np.maximum(vals, 0), self.energy)
        else:
            raise ValueError(f"energy_over must be 'all' or 'positive', not {self.energy_over!r}")
        self.eigenvalues_ = vals
        self.components_ = np.ascontiguousarray(vecs[:, :k])
        self.n_components_ = k
        return self

    def transform(self, X) -> np.ndarray:
        """(N, k) embedding: similarity rows times P."""
        check_is_fitted(self, "components_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return (X - self.mean_) @ self.components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
