"""Pure-Python references for the path kernel: a plain DP and brute-force enumeration.

Slow by design; used to check the compiled kernel (tests) and as the benchmark baseline.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from relx.kernels.path import PathKernelParams
from relx.structures import EncodedStructures

IntTuple = tuple[int, int, int, int]  # (edge, word, lemma, pos) ids

__all__ = ["brute_force_kernel", "dp_gram", "dp_kernel", "structure_tuples", "tuple_kernel"]


def structure_tuples(X: EncodedStructures, i: int) -> list[IntTuple]:
    """Structure ``i`` of ``X`` as a list of ``(edge, word, lemma, pos)`` int tuples."""
    lo, hi = int(X.offsets[i]), int(X.offsets[i + 1])
    return [(int(X.edges[k]), int(X.words[k]), int(X.lemmas[k]), int(X.pos[k]))
            for k in range(lo, hi)]


def tuple_kernel(a: IntTuple, b: IntTuple, params: PathKernelParams) -> float:
    """k(a, b) = sigma[a.edge] k_e sigma[b.edge] k_n (see :mod:`relx.kernels.path`)."""
    ke = 1.0 if a[0] == b[0] else params.edge_mismatch
    sig = params.sigma
    sa = float(sig[a[0]]) if sig is not None and a[0] < len(sig) else 1.0
    sb = float(sig[b[0]]) if sig is not None and b[0] < len(sig) else 1.0
    if a[1] == b[1]:
        kn = 1.0
    elif a[2] == b[2]:
        kn = params.w_lemma
    elif a[3] == b[3]:
        kn = params.w_pos
    else:
        kn = 0.0
    sim = params.node_sim
    if sim is not None and sim.size and 0 <= a[1] < sim.shape[0] and 0 <= b[1] < sim.shape[0]:
        kn = max(kn, float(sim[a[1], b[1]]))
    return sa * ke * sb * kn


def dp_kernel(S: Sequence[IntTuple], T: Sequence[IntTuple], params: PathKernelParams) -> float:
    """Unnormalised K(S, T) by Lodhi's recursion with full (|S|+1, |T|+1) tables per level."""
    n, m, lam = len(S), len(T), params.lam
    k = [[tuple_kernel(S[a], T[b], params) for b in range(m)] for a in range(n)]
    kp = [[1.0] * (m + 1) for _ in range(n + 1)]  # K'_0
    total = 0.0
    for _q in range(params.p):
        # K_q, q = _q + 1: every pair of subsequences of length q ending at (a, b)
        for a in range(1, n + 1):
            for b in range(1, m + 1):
                total += lam * lam * k[a - 1][b - 1] * kp[a - 1][b - 1]
        new = [[0.0] * (m + 1) for _ in range(n + 1)]
        for a in range(1, n + 1):
            kpp = 0.0
            for b in range(1, m + 1):
                kpp = lam * kpp + lam * lam * k[a - 1][b - 1] * kp[a - 1][b - 1]
                new[a][b] = lam * new[a - 1][b] + kpp
        kp = new
    return total


def brute_force_kernel(S: Sequence[IntTuple], T: Sequence[IntTuple],
                       params: PathKernelParams) -> float:
    """The formula itself: sum over all equal-length index-subsequence pairs, q = 1..p."""
    total = 0.0
    for q in range(1, params.p + 1):
        for i in combinations(range(len(S)), q):
            li = i[-1] - i[0] + 1
            for j in combinations(range(len(T)), q):
                prod = 1.0
                for a, b in zip(i, j, strict=True):
                    prod *= tuple_kernel(S[a], T[b], params)
                total += prod * params.lam ** (li + j[-1] - j[0] + 1)
    return total


def dp_gram(A: EncodedStructures, B: EncodedStructures, params: PathKernelParams,
            normalize: bool = True) -> np.ndarray:
    """(N, M) Gram block by the pure-Python DP (for tests and benchmarks only)."""
    SA = [structure_tuples(A, i) for i in range(len(A))]
    SB = [structure_tuples(B, j) for j in range(len(B))]
    out = np.array([[dp_kernel(s, t, params) for t in SB] for s in SA], dtype=np.float64)
    out = out.reshape(len(SA), len(SB))
    if normalize:
        da = np.array([dp_kernel(s, s, params) for s in SA])
        db = np.array([dp_kernel(t, t, params) for t in SB])
        d = np.sqrt(np.outer(da, db))
        out = np.divide(out, d, out=np.zeros_like(out), where=d > 0)
    return out
