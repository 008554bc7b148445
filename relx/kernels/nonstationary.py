"""Nonstationary path kernel (Garg et al. 2019 §3.2): a weight σ per dependency edge label.

The tuple kernel becomes ``k^NS((e_i,n_i),(e_j,n_j)) = σ_{e_i} k_e(e_i,e_j) σ_{e_j} k_n(n_i,n_j)``,
so with σ_e = 0 a tuple reached by an edge labelled ``e`` matches nothing: it can only lie
in the gaps of a common subsequence (still paying ``λ`` for the span it covers). σ ∈ {0, 1}
as in the paper; any σ >= 0 is accepted. The compiled kernel (:mod:`relx.kernels.path`)
already takes σ as an array by edge id; this class keeps σ by edge *label* (so it survives
a new vocabulary and reads well in a config) and turns it into ids of the structure
encoder it is used with. Labels not listed, and edge ids unseen when the kernel was bound,
keep σ = 1; with no σ = 0 entry the kernel is exactly the stationary one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from relx.kernels.path import PathKernelParams
from relx.kernels.structure import PathKernel


@dataclass
class NonstationaryPathKernel(PathKernel):
    """:class:`PathKernel` with ``edge_sigma``: {edge label (e.g. ``"nsubj>"``, ``"<det"``): σ}.

    σ by edge id is resolved from the :class:`~relx.represent.instances.StructureSet`'s
    encoder at each :meth:`gram` call (``sigma_``, (E,) float64); plain
    :class:`~relx.structures.EncodedStructures` need :meth:`bind_edges` first.
    """

    edge_sigma: Mapping[str, float] | None = field(default=None)

    def bind_edges(self, edge_itos: list[str]) -> NonstationaryPathKernel:
        """Resolve ``edge_sigma`` against the edge vocabulary ``edge_itos`` (id -> label)."""
        if self.sigma is not None:
            raise ValueError("give NonstationaryPathKernel edge_sigma, not sigma by id")
        sig = np.ones(len(edge_itos), dtype=np.float64)
        stoi = {s: i for i, s in enumerate(edge_itos)}
        for label, value in (self.edge_sigma or {}).items():
            if value < 0:
                raise ValueError(f"edge_sigma[{label!r}] must be >= 0, got {value}")
            if label in stoi:
                sig[stoi[label]] = float(value)
        self.edge_itos_ = list(edge_itos)
        self.sigma_ = sig if (sig != 1.0).any() else None
        return self

    def _bind_from(self, X) -> None:
        super()._bind_from(X)
        enc = getattr(X, "encoder", None)
        if enc is not None:
            self.bind_edges(enc.edges.itos)
        elif self.edge_sigma and not hasattr(self, "sigma_"):
            raise ValueError("NonstationaryPathKernel needs structures that carry their encoder "
                             "(StructureSet.encoder) or bind_edges(edge labels) first")

    def params(self) -> PathKernelParams:
        base = super().params()
        sig = getattr(self, "sigma_", None) if self.edge_sigma else None
        if sig is None:
            return base
        return PathKernelParams(lam=base.lam, p=base.p, w_lemma=base.w_lemma, w_pos=base.w_pos,
                                edge_mismatch=base.edge_mismatch, sigma=sig,
                                node_sim=base.node_sim)

    def gram(self, A, B=None) -> np.ndarray:
        """(N, M) normalised nonstationary kernel block (A vs A when B is None)."""
        self._bind_from(A if B is None else B)
        return super().gram(A, B)


def edge_labels(X, structure: str = "path", min_count: int = 1) -> list[str]:
    """Edge labels occurring in ``structure`` of a StructureSet ``X`` at least ``min_count``
    times, most frequent first (``<none>``, the label of a path's first tuple, excluded)."""
    part = X.parts[structure]
    itos = X.encoder.edges.itos
    counts = np.bincount(np.asarray(part.edges, np.int64), minlength=len(itos))
    order = np.argsort(-counts, kind="stable")
    return [itos[i] for i in order if i > 0 and i < len(itos) and counts[i] >= min_count]
