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

from relx.kernels.path import PathKernelParams, path_gram
from relx.kernels.tree import TreeKernelParams, tree_gram
from relx.represent.instances import StructureSet
from relx.structures import EncodedStructures


@dataclass
class PathKernel:
    """Normalised subsequence kernel over one structure type (``path`` or ``sequence``).

    Word vectors (:mod:`relx.vectors`): with ``vectors`` (an EigenWord ``.npz``, e.g.
    ``runs/vectors/eigenwords.npz``) the node kernel is ``max(back-off, k_w(w_a, w_b))`` with the
    token kernel ``token_kernel`` on the two words' vectors: ``gaussian`` (width
    ``token_kernel_s``), ``sigmoid`` or ``cosine_sharp`` (power ``token_kernel_p``). The
    (Vw, Vw) ``node_sim`` is made for the structure vocabulary the kernel is bound to
    (:meth:`bind_words`; done by :meth:`gram` when its structures carry their encoder as
    ``StructureSet.encoder``, again whenever that vocabulary changed); the bound words' vectors
    are kept (so a saved model needs no vectors file), the matrix itself is rebuilt on demand
    and never saved. Words without a vector and word ids past the bound vocabulary (labels
    unseen at fit time) keep the lemma/POS back-off.
    """

    structure: str = "path"
    lam: float = 0.5
    p: int = 3
    w_lemma: float = 0.5
    w_pos: float = 0.1
    edge_mismatch: float = 0.0
    sigma: np.ndarray | None = field(default=None, repr=False)
    node_sim: np.ndarray | None = field(default=None, repr=False)
    n_jobs: int = -1
    vectors: str | None = None
    token_kernel: str = "cosine_sharp"
    token_kernel_p: float = 4.0
    token_kernel_s: float = 1.0

    def params(self) -> PathKernelParams:
        return PathKernelParams(lam=self.lam, p=self.p, w_lemma=self.w_lemma, w_pos=self.w_pos,
                                edge_mismatch=self.edge_mismatch, sigma=self.sigma,
                                node_sim=self._node_sim())

    def bind_words(self, words: Sequence[str]) -> PathKernel:
        """Look up the vectors of the structure vocabulary ``words`` (word id -> word, e.g.
        ``StructureEncoder.words.itos``) in ``vectors``."""
        from relx.vectors import cached_vectors, vocabulary_vectors

        if self.vectors is None:
            raise ValueError("bind_words needs PathKernel.vectors")
        self.words_ = list(words)
        self.word_vectors_ = vocabulary_vectors(cached_vectors(self.vectors), self.words_)
        self.__dict__.pop("_sim_cache", None)
        return self

    def _bind_from(self, X) -> None:
        enc = getattr(X, "encoder", None)
        if self.vectors is None or enc is None:
            return
        words = enc.words.itos
        if getattr(self, "words_", None) != words:
            self.bind_words(words)

    def _node_sim(self) -> np.ndarray | None:
        if self.vectors is None:
            return self.node_sim
        if self.node_sim is not None:
            raise ValueError("give PathKernel either node_sim or vectors, not both")
        wv = getattr(self, "word_vectors_", None)
        if wv is None:
            raise ValueError(f"PathKernel(vectors={self.vectors!r}) is bound to no word "
                             "vocabulary: call bind_words(encoder.words.itos), or pass "
                             "structures that carry their encoder (StructureSet.encoder)")
        key = (self.token_kernel, float(self.token_kernel_p), float(self.token_kernel_s),
               len(wv))
        cached = self.__dict__.get("_sim_cache")
        if cached is None or cached[0] != key:
            from relx.vectors import similarity_matrix

            cached = (key, similarity_matrix(wv, self.token_kernel, self.token_kernel_p,
                                             self.token_kernel_s))
            self._sim_cache = cached
        return cached[1]

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_sim_cache", None)  # rebuilt from word_vectors_ on demand
        return state

    def _part(self, X) -> EncodedStructures:
        if isinstance(X, StructureSet):
            if self.structure not in X.parts:
                raise ValueError(f"kernel needs structure {self.structure!r}, "
                                 f"the extractor made {sorted(X.parts)}")
            return X.parts[self.structure]
        return X

    def gram(self, A, B=None) -> np.ndarray:
        """(N, M) normalised kernel block between A and B (A vs A when B is None)."""
        self._bind_from(A if B is None else B)
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
        from sklearn.metrics.pairwise import pairwise_kernels

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
