"""Compiled path / subsequence kernel (Garg 2019 App. E; Lodhi et al. 2002) and Gram blocks.

A structure is a sequence of tuples ``(edge, word, lemma, pos)`` of int ids (0 = no label),
stored flat in an :class:`~relx.structures.EncodedStructures`. The tuple kernel is

    k(a, b) = sigma[a.edge] * k_e(a.edge, b.edge) * sigma[b.edge] * k_n(a, b)

with ``k_e = 1`` on equal edges, ``edge_mismatch`` otherwise, and ``k_n`` = 1 on equal words,
else ``w_lemma`` on equal lemmas, else ``w_pos`` on equal POS, else 0; with a word-similarity
matrix ``node_sim`` (Vw, Vw), ``k_n = max(back-off, node_sim[a.word, b.word])`` for word ids
inside the matrix. The path kernel sums, over all pairs of index subsequences ``i`` of S and
``j`` of T of equal length ``q <= p``, ``prod_k k(S[i_k], T[j_k]) * lam**(l(i) + l(j))``,
``l`` the span length. It is computed by Lodhi's K'/K'' recursion in O(p |S| |T|), or, when
few tuple pairs match (the usual case on dependency paths), by the same recursion restricted
to the matching pairs in O(p nnz^2). ``node_sim`` must be symmetric for K(S, T) = K(T, S).

Positive semi-definiteness: the kernel is PSD whenever the tuple kernel is. ``k_e`` is PSD for
``0 <= edge_mismatch <= 1`` and the sigma factors keep it so. The back-off ``k_n`` is PSD when
the vocabulary is hierarchical (word determines lemma, lemma determines POS) and
``0 <= w_pos <= w_lemma <= 1``: then ``k_n = w_pos [pos=] + (w_lemma - w_pos) [lemma=] +
(1 - w_lemma) [word=]``, a nonnegative sum of indicator kernels. The element-wise ``max`` with
``node_sim`` is PSD when one of the two dominates the other (e.g. ``node_sim`` = back-off +
a PSD similarity with nonnegative entries), not in general.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
from numba import prange

from relx.numba_cache import cached_jit, ensure_numba_cache
from relx.structures import EncodedStructures

__all__ = ["PathKernelParams", "path_gram", "path_kernel", "self_kernels"]

ensure_numba_cache(__file__)   # before the @cached_jit() definitions


@dataclass(frozen=True)
class PathKernelParams:
    """Path-kernel parameters.

    ``sigma`` (E,) float64 per edge id (ids >= E count as 1; None = all ones); ``node_sim``
    (Vw, Vw) symmetric float64 word similarity by word id (None or (0, 0) = unused).
    """

    lam: float = 0.5
    p: int = 3
    w_lemma: float = 0.5
    w_pos: float = 0.1
    edge_mismatch: float = 0.0
    sigma: np.ndarray | None = None
    node_sim: np.ndarray | None = None


_EMPTY1 = np.zeros(0, dtype=np.float64)
_EMPTY2 = np.zeros((0, 0), dtype=np.float64)


def _prep(params: PathKernelParams) -> tuple[Any, ...]:
    """``((lam, p, w_lemma, w_pos, edge_mismatch), sigma (E,), node_sim (Vw, Vw))``, validated."""
    if not 0.0 < params.lam <= 1.0:
        raise ValueError(f"lam must lie in (0, 1], got {params.lam}")
    if int(params.p) < 1:
        raise ValueError(f"p must be >= 1, got {params.p}")
    sigma = _EMPTY1 if params.sigma is None else np.ascontiguousarray(params.sigma, np.float64)
    if sigma.ndim != 1:
        raise ValueError(f"sigma must be 1-D (per edge id), got shape {sigma.shape}")
    sim = _EMPTY2 if params.node_sim is None else np.ascontiguousarray(params.node_sim, np.float64)
    if sim.size == 0:
        sim = _EMPTY2
    if sim.ndim != 2 or sim.shape[0] != sim.shape[1]:
        raise ValueError(f"node_sim must be a square (Vw, Vw) matrix, got shape {sim.shape}")
    kp = (float(params.lam), int(params.p), float(params.w_lemma), float(params.w_pos),
          float(params.edge_mismatch))
    return kp, sigma, sim


def _cols(X: EncodedStructures) -> tuple[np.ndarray, ...]:
    """(offsets int64, edges, words, lemmas, pos int32), all contiguous."""
    return (np.ascontiguousarray(X.offsets, np.int64),
            *(np.ascontiguousarray(c, np.int32) for c in (X.edges, X.words, X.lemmas, X.pos)))


@cached_jit(nogil=True)
def _tuple_k(e1, w1, l1, p1, e2, w2, l2, p2, w_lemma, w_pos, em, sigma, sim):
    """Tuple kernel k(a, b) on int ids."""
    if e1 == e2:
        ke = 1.0
    else:
        ke = em
        if ke == 0.0:
            return 0.0
    ns = sigma.shape[0]
    f = ke * (sigma[e1] if e1 < ns else 1.0) * (sigma[e2] if e2 < ns else 1.0)
    if f == 0.0:
        return 0.0
    if w1 == w2:
        kn = 1.0
    elif l1 == l2:
        kn = w_lemma
    elif p1 == p2:
        kn = w_pos
    else:
        kn = 0.0
    nv = sim.shape[0]
    if nv > 0 and 0 <= w1 < nv and 0 <= w2 < nv:
        s = sim[w1, w2]
        if s > kn:
            kn = s
    return f * kn


@cached_jit(nogil=True)
def _scratch(p, nmax, mmax, lam, full=False):
    """Per-thread scratch: kk (n*m,), rows (2, p+1, m+1), matches (2, cap), g (p, cap), lam^k.

    ``cap`` bounds the sparse recursion to ~sqrt(2 n m) matches (all n m if ``full``).
    """
    cap = nmax * mmax + 1 if full else int(np.sqrt(2.0 * nmax * mmax)) + 2
    lampow = np.empty(nmax + mmax + 2)
    lampow[0] = 1.0
    for k in range(1, lampow.shape[0]):
        lampow[k] = lampow[k - 1] * lam
    return (np.empty(max(nmax * mmax, 1)), np.empty((2, p + 1, mmax + 1)),
            np.empty((2, cap), np.int64), np.empty((p, cap)), lampow)


@cached_jit(nogil=True)
def _dense(n, m, kk, rows, lam, qmax):
    """Lodhi's recursion row by row over prefix lengths a, b (rows: K'_q at a-1 and a):
    K''_q(a, b) = lam K''_q(a, b-1) + lam^2 k(a, b) K'_{q-1}(a-1, b-1),
    K'_q(a, b) = lam K'_q(a-1, b) + K''_q(a, b),  K'_0 = 1,
    K = sum_q sum_{a,b} lam^2 k(a, b) K'_{q-1}(a-1, b-1).  O(p n m).
    """
    for q in range(qmax + 1):
        for b in range(m + 1):
            rows[0, q, b] = rows[1, q, b] = 1.0 if q == 0 else 0.0
    lam2 = lam * lam
    total = 0.0
    cur = 0
    for a in range(n):
        prev, cur = cur, 1 - cur
        for q in range(1, min(qmax, a + 1) + 1):
            kpp = 0.0
            for b in range(m):
                term = lam2 * kk[a * m + b] * rows[prev, q - 1, b]
                total += term
                kpp = lam * kpp + term
                rows[cur, q, b + 1] = lam * rows[prev, q, b + 1] + kpp
    return total


@cached_jit(nogil=True)
def _sparse(nnz, m, kk, ms, g, lampow, qmax):
    """Chains of nonzero matches t (row-major): G_1(t) = lam^2 v_t,
    G_q(t) = v_t sum_{s: a_s < a_t, b_s < b_t} G_{q-1}(s) lam^(a_t - a_s + b_t - b_s);
    K = sum_{q,t} G_q(t).  O(p nnz^2)."""
    total = 0.0
    for t in range(nnz):
        at, bt = ms[0, t], ms[1, t]
        v = kk[at * m + bt]
        g[0, t] = lampow[2] * v
        for q in range(1, qmax):
            g[q, t] = 0.0
        for s in range(t):
            as_, bs = ms[0, s], ms[1, s]
            if as_ < at and bs < bt:
                w = lampow[at - as_ + bt - bs]
                for q in range(1, qmax):
                    g[q, t] += g[q - 1, s] * w
        for q in range(qmax):
            if q > 0:
                g[q, t] *= v
            total += g[q, t]
    return total


@cached_jit(nogil=True)
def _fill(oa, ea, wa, la, pa, i, ob, eb, wb, lb, pb, j, w_lemma, w_pos, em, sigma, sim, kk):
    """``kk[a * m + b] = k(A_i[a], B_j[b])`` (``n, m`` the lengths); the nonzero count.

    Without ``sigma`` and ``node_sim`` the tuple kernel is ``ke * k_n`` (the sigma factors
    are 1.0, exact) written as selects, which vectorise: the same values as
    :func:`_tuple_k`, without its unpredictable branches."""
    sa, n = oa[i], oa[i + 1] - oa[i]
    sb, m = ob[j], ob[j + 1] - ob[j]
    nnz = 0
    if sigma.shape[0] == 0 and sim.shape[0] == 0:
        eb_, wb_, lb_, pb_ = eb[sb:sb + m], wb[sb:sb + m], lb[sb:sb + m], pb[sb:sb + m]
        for a in range(n):
            x = sa + a
            e1, w1, l1, p1 = ea[x], wa[x], la[x], pa[x]
            row = kk[a * m:(a + 1) * m]
            for b in range(m):
                kn = 1.0 if w1 == wb_[b] else (
                    w_lemma if l1 == lb_[b] else (w_pos if p1 == pb_[b] else 0.0))
                v = (1.0 if e1 == eb_[b] else em) * kn
                row[b] = v
                nnz += v != 0.0
        return nnz
    for a in range(n):
        x = sa + a
        e1, w1, l1, p1 = ea[x], wa[x], la[x], pa[x]
        for b in range(m):
            y = sb + b
            v = _tuple_k(e1, w1, l1, p1, eb[y], wb[y], lb[y], pb[y], w_lemma, w_pos, em,
                         sigma, sim)
            kk[a * m + b] = v
            nnz += v != 0.0
    return nnz


@cached_jit(nogil=True)
def _matches(n, m, kk, ms):
    """``ms[:, t]`` = (a, b) of the t-th nonzero ``kk`` entry, row-major."""
    t = 0
    for a in range(n):
        for b in range(m):
            if kk[a * m + b] != 0.0:
                ms[0, t] = a
                ms[1, t] = b
                t += 1


@cached_jit(nogil=True)
def _pair(oa, ea, wa, la, pa, i, ob, eb, wb, lb, pb, j, lam, p, w_lemma, w_pos, em,
          sigma, sim, kk, rows, ms, g, lampow, mode):
    """Unnormalised K(A_i, B_j) with scratch ``kk, rows, ms, g, lampow`` from :func:`_scratch`.

    ``mode``: 0 picks the cheaper of the sparse (few matching tuples) and dense recursions,
    1 forces dense, 2 forces sparse (when the matches fit the scratch).
    """
    n, m = oa[i + 1] - oa[i], ob[j + 1] - ob[j]
    if n == 0 or m == 0:
        return 0.0
    nnz = _fill(oa, ea, wa, la, pa, i, ob, eb, wb, lb, pb, j, w_lemma, w_pos, em, sigma, sim,
                kk)
    if nnz == 0:
        return 0.0
    qmax = min(p, n, m)
    cap = ms.shape[1]
    if nnz <= cap and (mode == 2 or (mode == 0 and nnz * (nnz - 1) <= 2 * n * m)):
        _matches(n, m, kk, ms)
        return _sparse(nnz, m, kk, ms, g, lampow, qmax)
    return _dense(n, m, kk, rows, lam, qmax)


@cached_jit(nogil=True)
def _maxlen(o):
    mx = 0
    for i in range(o.shape[0] - 1):
        mx = max(mx, o[i + 1] - o[i])
    return mx


@cached_jit(nogil=True)
def _pair_alloc(oa, ea, wa, la, pa, i, ob, eb, wb, lb, pb, j, lam, p, w_lemma, w_pos, em,
                sigma, sim, mode):
    kk, rows, ms, g, lampow = _scratch(p, oa[i + 1] - oa[i], ob[j + 1] - ob[j], lam, mode == 2)
    return _pair(oa, ea, wa, la, pa, i, ob, eb, wb, lb, pb, j, lam, p, w_lemma, w_pos, em,
                 sigma, sim, kk, rows, ms, g, lampow, mode)


@cached_jit(nogil=True)
def _norm(k, da, db):
    d = da * db
    return k / np.sqrt(d) if d > 0.0 else 0.0


@cached_jit(nogil=True)
def _row(out, i, j0, oa, ea, wa, la, pa, ob, eb, wb, lb, pb, da, db, normalize, sym,
         lam, p, w_lemma, w_pos, em, sigma, sim, kk, rows, ms, g, lampow):
    """``out[i, j]`` for ``j >= j0`` (mirrored into ``out[j, i]`` if ``sym``)."""
    for j in range(j0, ob.shape[0] - 1):
        k = _pair(oa, ea, wa, la, pa, i, ob, eb, wb, lb, pb, j, lam, p, w_lemma, w_pos, em,
                  sigma, sim, kk, rows, ms, g, lampow, 0)
        v = _norm(k, da[i], db[j]) if normalize else k
        out[i, j] = v
        if sym:
            out[j, i] = v


@cached_jit(nogil=True)
def _diag_chunk(out, c, step, o, e, w, le, po, lam, p, w_lemma, w_pos, em, sigma, sim,
                kk, rows, ms, g, lampow):
    """``out[i, 0] = K(A_i, A_i)`` for ``i = c, c + step, ...``."""
    for i in range(c, o.shape[0] - 1, step):
        out[i, 0] = _pair(o, e, w, le, po, i, o, e, w, le, po, i, lam, p, w_lemma, w_pos, em,
                          sigma, sim, kk, rows, ms, g, lampow, 0)


@cached_jit(nogil=True)
def _sym_task(out, t, o, e, w, le, po, d, normalize, lam, p, w_lemma, w_pos, em, sigma, sim,
              kk, rows, ms, g, lampow):
    """Rows ``t`` and ``N-1-t`` of the symmetric Gram (diagonal, then j > i, mirrored)."""
    n = o.shape[0] - 1
    for k in range(1 if n - 1 - t == t else 2):
        i = t + k * (n - 1 - 2 * t)
        out[i, i] = (1.0 if d[i] > 0.0 else 0.0) if normalize else d[i]
        _row(out, i, i + 1, o, e, w, le, po, o, e, w, le, po, d, d, normalize, True,
             lam, p, w_lemma, w_pos, em, sigma, sim, kk, rows, ms, g, lampow)


@cached_jit(parallel=True)
def _blocks(what, ntask, oa, ea, wa, la, pa, ob, eb, wb, lb, pb, da, db, normalize,
            lam, p, w_lemma, w_pos, em, sigma, sim):
    """One parallel driver (one compile) for three jobs, ``prange`` over ``ntask`` tasks:

    ``what`` 0: (N, M) block, task i = row i;  1: symmetric (N, N) Gram of A (B = A), task r =
    rows r and N-1-r for j >= i (balanced work);  2: (N, 1) self-kernels, strided chunks.
    Each task allocates its own scratch, sized by the longest structures.
    """
    n, m = oa.shape[0] - 1, ob.shape[0] - 1
    out = np.empty((n, 1 if what == 2 else m))
    na, nb = _maxlen(oa), _maxlen(ob)
    for t in prange(ntask):
        kk, rows, ms, g, lampow = _scratch(p, na, nb, lam, False)
        if what == 2:
            _diag_chunk(out, t, ntask, oa, ea, wa, la, pa, lam, p, w_lemma, w_pos, em,
                        sigma, sim, kk, rows, ms, g, lampow)
        elif what == 0:
            _row(out, t, 0, oa, ea, wa, la, pa, ob, eb, wb, lb, pb, da, db, normalize, False,
                 lam, p, w_lemma, w_pos, em, sigma, sim, kk, rows, ms, g, lampow)
        else:
            _sym_task(out, t, oa, ea, wa, la, pa, da, normalize, lam, p, w_lemma, w_pos, em,
                      sigma, sim, kk, rows, ms, g, lampow)
    return out


def _n_threads(n_jobs: int | None) -> int:
    """Threads for ``n_jobs``: -1/None = the process's current numba thread count (all
    cores unless the process limited it, e.g. a batch worker that owns one core); an
    explicit count is capped at the cores numba was started with."""
    top = numba.config.NUMBA_NUM_THREADS
    if n_jobs is None or n_jobs == -1:
        return numba.get_num_threads()
    if n_jobs < -1:
        return max(1, numba.get_num_threads() + 1 + n_jobs)
    if n_jobs == 0:
        raise ValueError("n_jobs must be != 0")
    return min(int(n_jobs), top)


@contextmanager
def _threads(n_jobs: int | None) -> Iterator[None]:
    """Run numba parallel regions on ``n_jobs`` threads (-1 = all), restoring the old count."""
    old = numba.get_num_threads()
    numba.set_num_threads(_n_threads(n_jobs))
    try:
        yield
    finally:
        numba.set_num_threads(old)


def _run(what: int, A: EncodedStructures, B: EncodedStructures, da: np.ndarray,
         db: np.ndarray, normalize: bool, pr: tuple[Any, ...]) -> np.ndarray:
    n = len(A)
    ntask = {0: n, 1: (n + 1) // 2, 2: min(n, 8 * numba.get_num_threads())}[what]
    kp, sigma, sim = pr
    return _blocks(what, ntask, *_cols(A), *_cols(B), da, db, normalize, *kp, sigma, sim)


def path_kernel(A: EncodedStructures, i: int, B: EncodedStructures, j: int,
                params: PathKernelParams = PathKernelParams(), mode: int = 0) -> float:
    """Unnormalised K(A_i, B_j) for a single pair (``mode``: 0 auto, 1 dense, 2 sparse DP)."""
    if not (0 <= i < len(A) and 0 <= j < len(B)):
        raise IndexError(f"structure index out of range: i={i} (N={len(A)}), j={j} (M={len(B)})")
    kp, sigma, sim = _prep(params)
    return float(_pair_alloc(*_cols(A), i, *_cols(B), j, *kp, sigma, sim, mode))


def self_kernels(A: EncodedStructures, params: PathKernelParams = PathKernelParams(),
                 n_jobs: int = -1) -> np.ndarray:
    """(N,) unnormalised self-kernels K(A_i, A_i), computed in parallel."""
    if len(A) == 0:
        return np.zeros(0)
    with _threads(n_jobs):
        return _run(2, A, A, _EMPTY1, _EMPTY1, False, _prep(params))[:, 0]


def _check_diag(d: np.ndarray | None, n: int, name: str) -> np.ndarray | None:
    if d is None:
        return None
    d = np.ascontiguousarray(d, np.float64)
    if d.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {d.shape}")
    return d


def _distinct(A: EncodedStructures) -> tuple[np.ndarray, np.ndarray]:
    """(first index of each distinct structure, (N,) index of each row's distinct one)."""
    seen: dict[bytes, int] = {}
    first, inverse = [], np.empty(len(A), dtype=np.int64)
    o = A.offsets
    cols = np.stack([A.edges, A.words, A.lemmas, A.pos], axis=1) if len(A.edges) else None
    for i in range(len(A)):
        key = b"" if cols is None else cols[o[i]:o[i + 1]].tobytes()
        k = seen.get(key)
        if k is None:
            k = seen[key] = len(first)
            first.append(i)
        inverse[i] = k
    return np.asarray(first, dtype=np.int64), inverse


def path_gram(A: EncodedStructures, B: EncodedStructures | None = None,
              params: PathKernelParams = PathKernelParams(), normalize: bool = True,
              n_jobs: int = -1, diag_a: np.ndarray | None = None,
              diag_b: np.ndarray | None = None) -> np.ndarray:
    """(N, M) float64 Gram block K(A_i, B_j); ``B=None`` computes the symmetric A x A Gram
    (upper triangle only, mirrored).

    ``diag_a`` (N,) / ``diag_b`` (M,) are precomputed unnormalised self-kernels (else they are
    computed when needed). Normalised entries are ``K / sqrt(K_ii K_jj)``, 0 when either is
    0; the symmetric normalised diagonal is 1 (0 for a structure whose self-kernel is 0).
    ``n_jobs``: threads (-1 = all cores).
    """
    pr = _prep(params)
    diag_a = _check_diag(diag_a, len(A), "diag_a")
    with _threads(n_jobs):
        if B is None:
            if len(A) == 0:
                return np.zeros((0, 0))
            d = diag_a if diag_a is not None else _run(2, A, A, _EMPTY1, _EMPTY1, False, pr)[:, 0]
            return _run(1, A, A, d, d, normalize, pr)
        diag_b = _check_diag(diag_b, len(B), "diag_b")
        if len(A) == 0 or len(B) == 0:
            return np.zeros((len(A), len(B)))
        first, inverse = _distinct(A)
        if len(first) < len(A):  # repeated structures (10-20% of candidate paths): once each
            sub = A.subset(first)
            return path_gram(sub, B, params, normalize, n_jobs,
                             None if diag_a is None else diag_a[first], diag_b)[inverse]
        da = db = _EMPTY1
        if normalize:
            da = diag_a if diag_a is not None else _run(2, A, A, _EMPTY1, _EMPTY1, False, pr)[:, 0]
            db = diag_b if diag_b is not None else _run(2, B, B, _EMPTY1, _EMPTY1, False, pr)[:, 0]
        return _run(0, A, B, da, db, normalize, pr)
