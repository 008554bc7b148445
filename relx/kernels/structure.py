"""Kernel objects the learners hold: hyper-parameters plus ``gram(A, B)``.

A kernel object reads one structure type out of a :class:`StructureSet` (or takes
:class:`EncodedStructures` directly) and returns normalised Gram blocks. For plain numeric
arrays (sklearn's estimator checks, feature vectors) a kernel may also be one of sklearn's
pairwise kernel names (``"rbf"``, ``"linear"``, ``"cosine"`` ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from sklearn.metrics.pairwise import pairwise_kernels

from relx.kernels.path import PathKernelParams, path_gram
from relx.kernels.tree import TreeKernelParams, tree_gram
from relx.represent.instances import StructureSet
from relx.structures import EncodedStructures


@dataclass
class PathKernel:
    """Normalised subsequence kernel over one structure type (``path`` or ``sequence``)."""

    structure: str = "path"
    lam: float = 0.5
    p: int = 3
    w_lemma: float = 0.5
    w_pos: float = 0.1
    edge_mismatch: float = 0.0
    sigma: np.ndarray | None = field(default=None, repr=False)
    node_sim: np.ndarray | None = field(default=None, repr=False)
    n_jobs: int = -1

    def params(self) -> PathKernelParams:
        return PathKernelParams(lam=self.lam, p=self.p, w_lemma=self.w_lemma, w_pos=self.w_pos,
                                edge_mismatch=self.edge_mismatch, sigma=self.sigma,
                                node_sim=self.node_sim)

    def _part(self, X) -> EncodedStructures:
        if isinstance(X, StructureSet):
            if self.structure not in X.parts:
                raise ValueError(f"kernel needs structure {self.structure!r}, "
                                 f"the extractor made {sorted(X.parts)}")
            return X.parts[self.structure]
        return X

    def gram(self, A, B=None) -> np.ndarray:
        """(N, M) normalised kernel block between A and B (A vs A when B is None)."""
        return path_gram(self._part(A), None if B is None else self._part(B),
                         params=self.params(), normalize=True, n_jobs=self.n_jobs)


@dataclass
class TreeKernel:
    """Normalised tree kernel (:mod:`relx.kernels.tree`) over dependency subtrees
    (structure ``subtree``, made by :class:`relx.represent.trees.TreeStructureExtractor`)."""

    structure: str = "subtree"
    lam: float = 0.5
    w_lemma: float = 0.5
    w_pos: float = 0.1
    edge_mismatch: float = 0.0
    sigma: np.ndarray | None = field(default=None, repr=False)
    node_sim: np.ndarray | None = field(default=None, repr=False)
    n_jobs: int = -1

    def params(self) -> TreeKernelParams:
        return TreeKernelParams(lam=self.lam, w_lemma=self.w_lemma, w_pos=self.w_pos,
                                edge_mismatch=self.edge_mismatch, sigma=self.sigma,
                                node_sim=self.node_sim)

    _part = PathKernel._part

    def gram(self, A, B=None) -> np.ndarray:
        """(N, M) normalised kernel block between A and B (A vs A when B is None)."""
        return tree_gram(self._part(A), None if B is None else self._part(B),
                         params=self.params(), normalize=True, n_jobs=self.n_jobs)


@dataclass
class SumKernel:
    """Weighted mean of kernels over several structure types: ``Σ w_i K_i / Σ w_i``."""

    kernels: Sequence[PathKernel]
    weights: Sequence[float] | None = None

    def gram(self, A, B=None) -> np.ndarray:
        w = np.ones(len(self.kernels)) if self.weights is None else np.asarray(self.weights, float)
        out = sum(wi * k.gram(A, B) for wi, k in zip(w, self.kernels, strict=True))
        return out / w.sum()


def gram(kernel, A, B=None) -> np.ndarray:
    """Gram block for a kernel object or an sklearn pairwise-kernel name on numeric arrays."""
    if isinstance(kernel, str):
        return pairwise_kernels(np.asarray(A, float), None if B is None else np.asarray(B, float),
                                metric=kernel)
    return kernel.gram(A, B)


def take(X, idx) -> object:
    """Rows ``idx`` of structures or of a numeric array."""
    if isinstance(X, (StructureSet, EncodedStructures)):
        return X[np.asarray(idx)]
    return np.asarray(X)[np.asarray(idx)]


def n_samples(X) -> int:
    return len(X) if isinstance(X, (StructureSet, EncodedStructures)) else np.asarray(X).shape[0]
