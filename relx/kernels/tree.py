"""Compiled tree kernel (Zelenko et al. 2003; Garg 2019 App. E) over dependency subtrees.

A tree is stored flat in an :class:`~relx.structures.EncodedTrees`: one ``(edge, word, lemma,
pos)`` tuple per node (the edge label being the one to its parent, ``<none>`` at the root),
nodes in breadth-first order, each node's children a contiguous range in sentence order.
With ``k`` the tuple kernel of :mod:`relx.kernels.path` (edge match x node match with
lemma/POS back-off, ``sigma`` per edge label, optional word similarity) the kernel is

    K(T_i, T_j) = k(r_i, r_j) * (k(r_i, r_j) + K_c(children(r_i), children(r_j)))

    K_c(a, b) = sum over index subsequences i of a and j of b with |i| = |j| = q >= 1 of
                lam**(d(i) + d(j)) * (sum_s K(T_i[i_s], T_j[j_s])) * prod_s k(a[i_s], b[j_s])

``d(i) = i_q - i_1 + 1`` the span of the subsequence (gaps penalised), as in Zelenko's sparse
subtree kernel (Garg's App. E abbreviates the weight as ``lam**l(i)``). K is 0 unless the
roots match.

Dynamic programming, for every pair of nodes (u, v) bottom-up (children come after their
parent in breadth-first order, so the pairs are visited in reverse): over the children
``a_1..a_n`` of u and ``b_1..b_m`` of v, let ``P(s, t)`` / ``Q(s, t)`` sum ``lam**(d+d) prod k``
/ ``lam**(d+d) (sum K) prod k`` over subsequence pairs ending exactly at ``(s, t)``:

    P(s, t) = k_st (lam^2 + S_P(s, t)),   Q(s, t) = k_st (lam^2 K_st + S_Q(s, t) + K_st S_P(s, t))

with ``S_X(s, t) = sum_{s' < s, t' < t} lam**(s - s' + t - t') X(s', t')`` kept as a decayed
2-D prefix sum (all terms nonnegative, no cancellation); ``K_c = sum_{s,t} Q(s, t)``.
O(|T_i| |T_j|) per pair in total.

Positive semi-definiteness: for fixed q the summand is a sum of products of kernels on
q-tuples of subtrees, weighted by a factorising ``lam**d(i) lam**d(j)``; K is then
``k^2 + k K_c``, sums and products of kernels, so K is PSD whenever the tuple kernel is (see
:mod:`relx.kernels.path` for when that holds).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
from numba import prange

from relx.kernels.path import (
    _EMPTY1,
    PathKernelParams,
    _check_diag,
    _maxlen,
    _norm,
    _prep,
    _threads,
    _tuple_k,
)
from relx.numba_cache import cached_jit, ensure_numba_cache
from relx.structures import EncodedTrees

__all__ = ["TreeKernelParams", "tree_gram", "tree_kernel", "tree_self_kernels"]

ensure_numba_cache(__file__)   # before the @cached_jit() definitions


@dataclass(frozen=True)
class TreeKernelParams:
    """Tree-kernel parameters (as :class:`~relx.kernels.path.PathKernelParams`, without ``p``:
    child subsequences of every length count).

    ``lam`` in (0, 1] penalises the span of matched child subsequences; ``sigma`` (E,) per
    edge id (ids >= E count as 1; None = all ones); ``node_sim`` (Vw, Vw) symmetric word
    similarity (None or (0, 0) = unused).
    """

    lam: float = 0.5
    w_lemma: float = 0.5
    w_pos: float = 0.1
    edge_mismatch: float = 0.0
    sigma: np.ndarray | None = None
    node_sim: np.ndarray | None = None


def _tprep(params: TreeKernelParams) -> tuple[Any, ...]:
    """``((lam, w_lemma, w_pos, edge_mismatch), sigma, node_sim)``, validated."""
    kp, sigma, sim = _prep(PathKernelParams(
        lam=params.lam, p=1, w_lemma=params.w_lemma, w_pos=params.w_pos,
        edge_mismatch=params.edge_mismatch, sigma=params.sigma, node_sim=params.node_sim))
    lam, _p, w_lemma, w_pos, em = kp
    return (lam, w_lemma, w_pos, em), sigma, sim


def _tcols(X: EncodedTrees) -> tuple[np.ndarray, ...]:
    """(offsets int64, edges, words, lemmas, pos, child_start, n_children int32), contiguous."""
    if not isinstance(X, EncodedTrees):
        raise TypeError(f"the tree kernel needs EncodedTrees (structure 'subtree'), "
                        f"got {type(X).__name__}")
    return (np.ascontiguousarray(X.offsets, np.int64),
            *(np.ascontiguousarray(c, np.int32)
              for c in (X.edges, X.words, X.lemmas, X.pos, X.child_start, X.n_children)))


@cached_jit(nogil=True)
def _tscratch(nmax, mmax):
    """Per-thread scratch: kk, km (n*m,) node-pair tuple / tree kernels; dp, dq (2, m+1)."""
    sz = max(nmax * mmax, 1)
    return (np.empty(sz), np.empty(sz), np.empty((2, mmax + 1)), np.empty((2, mmax + 1)))


@cached_jit(nogil=True)
def _tpair(oa, ea, wa, la, pa, ca, na, i, ob, eb, wb, lb, pb, cb, nb, j,
           lam, w_lemma, w_pos, em, sigma, sim, kk, km, dp, dq):
    """Unnormalised K(A_i, B_j) with scratch from :func:`_tscratch`."""
    sa, n = oa[i], oa[i + 1] - oa[i]
    sb, m = ob[j], ob[j + 1] - ob[j]
    if n == 0 or m == 0:
        return 0.0
    if em == 0.0 and ea[sa] != eb[sb]:
        return 0.0
    root = _tuple_k(ea[sa], wa[sa], la[sa], pa[sa], eb[sb], wb[sb], lb[sb], pb[sb],
                    w_lemma, w_pos, em, sigma, sim)
    if root == 0.0:
        return 0.0
    kk[0] = root
    for u in range(n):
        x = sa + u
        e1, w1, l1, p1 = ea[x], wa[x], la[x], pa[x]
        for v in range(m):
            if u == 0 and v == 0:
                continue
            y = sb + v
            if e1 != eb[y] and em == 0.0:
                kk[u * m + v] = 0.0
            else:
                kk[u * m + v] = _tuple_k(e1, w1, l1, p1, eb[y], wb[y], lb[y], pb[y],
                                         w_lemma, w_pos, em, sigma, sim)
    lam2 = lam * lam
    for u in range(n - 1, -1, -1):
        cu, nu = ca[sa + u], na[sa + u]
        for v in range(m - 1, -1, -1):
            x = kk[u * m + v]
            if x == 0.0:
                km[u * m + v] = 0.0
                continue
            cv, nv = cb[sb + v], nb[sb + v]
            kc = 0.0
            if nu > 0 and nv > 0:
                for t in range(nv + 1):
                    dp[0, t] = 0.0
                    dq[0, t] = 0.0
                prev = 0
                for s in range(nu):
                    cur = 1 - prev
                    dp[cur, 0] = 0.0
                    dq[cur, 0] = 0.0
                    rp = 0.0
                    rq = 0.0
                    row = (cu + s) * m + cv
                    for t in range(nv):
                        y = kk[row + t]
                        if y != 0.0:
                            c = km[row + t]
                            sp = lam2 * dp[prev, t]
                            pv = y * (lam2 + sp)
                            qv = y * (lam2 * c + lam2 * dq[prev, t] + c * sp)
                            kc += qv
                            rp = lam * rp + pv
                            rq = lam * rq + qv
                        else:
                            rp = lam * rp
                            rq = lam * rq
                        dp[cur, t + 1] = lam * dp[prev, t + 1] + rp
                        dq[cur, t + 1] = lam * dq[prev, t + 1] + rq
                    prev = cur
            km[u * m + v] = x * (x + kc)
    return km[0]


@cached_jit(nogil=True)
def _tpair_alloc(oa, ea, wa, la, pa, ca, na, i, ob, eb, wb, lb, pb, cb, nb, j,
                 lam, w_lemma, w_pos, em, sigma, sim):
    kk, km, dp, dq = _tscratch(oa[i + 1] - oa[i], ob[j + 1] - ob[j])
    return _tpair(oa, ea, wa, la, pa, ca, na, i, ob, eb, wb, lb, pb, cb, nb, j,
                  lam, w_lemma, w_pos, em, sigma, sim, kk, km, dp, dq)


@cached_jit(nogil=True)
def _trow(out, i, j0, oa, ea, wa, la, pa, ca, na, ob, eb, wb, lb, pb, cb, nb, da, db,
          normalize, sym, lam, w_lemma, w_pos, em, sigma, sim, kk, km, dp, dq):
    """``out[i, j]`` for ``j >= j0`` (mirrored into ``out[j, i]`` if ``sym``)."""
    for j in range(j0, ob.shape[0] - 1):
        k = _tpair(oa, ea, wa, la, pa, ca, na, i, ob, eb, wb, lb, pb, cb, nb, j,
                   lam, w_lemma, w_pos, em, sigma, sim, kk, km, dp, dq)
        v = _norm(k, da[i], db[j]) if normalize else k
        out[i, j] = v
        if sym:
            out[j, i] = v


@cached_jit(parallel=True)
def _tblocks(what, ntask, oa, ea, wa, la, pa, ca, na, ob, eb, wb, lb, pb, cb, nb, da, db,
             normalize, lam, w_lemma, w_pos, em, sigma, sim):
    """The path kernel's three jobs (see :func:`relx.kernels.path._blocks`) for trees:
    ``what`` 0: (N, M) block, task = row;  1: symmetric Gram, task r = rows r and N-1-r;
    2: (N, 1) self-kernels, strided chunks."""
    n, m = oa.shape[0] - 1, ob.shape[0] - 1
    out = np.empty((n, 1 if what == 2 else m))
    nma, nmb = _maxlen(oa), _maxlen(ob)
    for t in prange(ntask):
        if what == 2:
            kk, km, dp, dq = _tscratch(nma, nma)
            for i in range(t, n, ntask):
                out[i, 0] = _tpair(oa, ea, wa, la, pa, ca, na, i, oa, ea, wa, la, pa, ca, na, i,
                                   lam, w_lemma, w_pos, em, sigma, sim, kk, km, dp, dq)
        elif what == 0:
            kk, km, dp, dq = _tscratch(nma, nmb)
            _trow(out, t, 0, oa, ea, wa, la, pa, ca, na, ob, eb, wb, lb, pb, cb, nb, da, db,
                  normalize, False, lam, w_lemma, w_pos, em, sigma, sim, kk, km, dp, dq)
        else:
            kk, km, dp, dq = _tscratch(nma, nma)
            for k in range(1 if n - 1 - t == t else 2):
                i = t + k * (n - 1 - 2 * t)
                out[i, i] = (1.0 if da[i] > 0.0 else 0.0) if normalize else da[i]
                _trow(out, i, i + 1, oa, ea, wa, la, pa, ca, na, oa, ea, wa, la, pa, ca, na,
                      da, da, normalize, True, lam, w_lemma, w_pos, em, sigma, sim,
                      kk, km, dp, dq)
    return out


def _trun(what: int, A: EncodedTrees, B: EncodedTrees, da: np.ndarray, db: np.ndarray,
          normalize: bool, pr: tuple[Any, ...]) -> np.ndarray:
    n = len(A)
    ntask = {0: n, 1: (n + 1) // 2, 2: min(n, 8 * numba.get_num_threads())}[what]
    kp, sigma, sim = pr
    return _tblocks(what, ntask, *_tcols(A), *_tcols(B), da, db, normalize, *kp, sigma, sim)


def tree_kernel(A: EncodedTrees, i: int, B: EncodedTrees, j: int,
                params: TreeKernelParams = TreeKernelParams()) -> float:
    """Unnormalised K(A_i, B_j) for a single pair."""
    if not (0 <= i < len(A) and 0 <= j < len(B)):
        raise IndexError(f"tree index out of range: i={i} (N={len(A)}), j={j} (M={len(B)})")
    kp, sigma, sim = _tprep(params)
    return float(_tpair_alloc(*_tcols(A), i, *_tcols(B), j, *kp, sigma, sim))


def tree_self_kernels(A: EncodedTrees, params: TreeKernelParams = TreeKernelParams(),
                      n_jobs: int = -1) -> np.ndarray:
    """(N,) unnormalised self-kernels K(A_i, A_i), computed in parallel."""
    if len(A) == 0:
        return np.zeros(0)
    with _threads(n_jobs):
        return _trun(2, A, A, _EMPTY1, _EMPTY1, False, _tprep(params))[:, 0]


def tree_gram(A: EncodedTrees, B: EncodedTrees | None = None,
              params: TreeKernelParams = TreeKernelParams(), normalize: bool = True,
              n_jobs: int = -1, diag_a: np.ndarray | None = None,
              diag_b: np.ndarray | None = None) -> np.ndarray:
    """(N, M) float64 Gram block K(A_i, B_j), as :func:`relx.kernels.path.path_gram`:
    ``B=None`` computes the symmetric A x A Gram (upper triangle, mirrored); ``diag_a`` /
    ``diag_b`` are precomputed unnormalised self-kernels; normalised entries are
    ``K / sqrt(K_ii K_jj)`` (0 when either is 0); ``n_jobs`` threads (-1 = all cores).
    """
    pr = _tprep(params)
    diag_a = _check_diag(diag_a, len(A), "diag_a")
    with _threads(n_jobs):
        if B is None:
            if len(A) == 0:
                return np.zeros((0, 0))
            d = diag_a if diag_a is not None else _trun(2, A, A, _EMPTY1, _EMPTY1, False, pr)[:, 0]
            return _trun(1, A, A, d, d, normalize, pr)
        diag_b = _check_diag(diag_b, len(B), "diag_b")
        if len(A) == 0 or len(B) == 0:
            return np.zeros((len(A), len(B)))
        da = db = _EMPTY1
        if normalize:
            da = diag_a if diag_a is not None else _trun(2, A, A, _EMPTY1, _EMPTY1, False, pr)[:, 0]
            db = diag_b if diag_b is not None else _trun(2, B, B, _EMPTY1, _EMPTY1, False, pr)[:, 0]
        return _trun(0, A, B, da, db, normalize, pr)
