"""Mutual information between KLSH hashcodes and labels (Garg et al. 2019 §3.1).

``I(c:y) = H(c) - sum_y p(y) H(c|y)`` with the joint entropy of H code bits approximated as

    H(c) ~ sum_l H(c_l) - TC(c; z*)

where ``TC(c; z*)`` is the total correlation of the bits explained by a CorEx latent
representation ``z`` (Ver Steeg & Galstyan 2014), ``|z| << H``. :class:`BinaryCorEx` is a
compact discrete CorEx for binary inputs and binary latent factors: it maximises the lower
bound ``TC(c; z) = sum_j E_x[log Z_j(x)]`` by the fixed-point updates of the CorEx paper
(soft assignment ``alpha`` of bits to factors). All entropies are in nats.

The CorEx packages on PyPI were not used: ``corexdiscrete`` (2018) is a D3M wrapper that
imports the unavailable ``d3m_metadata``; ``corextopic`` (2021) reseeds numpy's global RNG
and changes ``np.seterr`` process-wide in its constructor, and targets sparse topic data.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp
from threadpoolctl import threadpool_limits

from relx.estimator import BaseEstimator, check_random_state

__all__ = ["BinaryCorEx", "MutualInformation", "approx_entropy", "exact_entropy",
           "marginal_entropies", "mutual_information"]

_EPS = 1e-12


def marginal_entropies(C: np.ndarray) -> np.ndarray:
    """(H,) plug-in entropies (nats) of the binary columns of C (N, H)."""
    p = np.asarray(C, np.float64).mean(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(np.where(p > 0, p * np.log(p), 0.0) + np.where(p < 1, (1 - p) * np.log1p(-p), 0.0))
    return h


def exact_entropy(C: np.ndarray) -> float:
    """Plug-in joint entropy (nats) of the rows of C (N, H) (exponential support: small H)."""
    C = np.asarray(C)
    if len(C) == 0:
        return 0.0
    _, counts = np.unique(C, axis=0, return_counts=True)
    p = counts / counts.sum()
    return float(-(p * np.log(p)).sum())


class BinaryCorEx(BaseEstimator):
    """Discrete CorEx with ``n_hidden`` binary latent factors over binary inputs (N, H).

    Learned: ``tcs_`` (n_hidden,) total correlation explained by each factor, ``tc_`` their
    sum (a lower bound on TC(C) when each bit is assigned to one factor), ``alpha_``
    (n_hidden, H) soft bit-to-factor assignment, ``p_z_given_x_`` (n_hidden, N, 2),
    ``n_iter_``. Constant bits carry no correlation and are left out of the fit.
    ``warm_start`` reuses the previous solution's latent posteriors when N is unchanged.
    After convergence of the soft updates (or ``max_iter``), ``hard_iter`` updates run with
    each bit assigned to one factor only (tree CorEx), so that ``tc_`` is a sum over
    disjoint groups of bits and does not count one correlation twice.
    """

    def __init__(self, n_hidden: int = 8, max_iter: int = 100, hard_iter: int = 5,
                 tol: float = 1e-5, smoothing: float = 1e-3, warm_start: bool = False,
                 random_state=None) -> None:
        self.n_hidden = n_hidden
        self.max_iter = max_iter
        self.hard_iter = hard_iter
        self.tol = tol
        self.smoothing = smoothing
        self.warm_start = warm_start
        self.random_state = random_state

    def fit(self, C, y=None) -> BinaryCorEx:
        """Fit on codes C (N, H); ``y`` (N,) binary, if given, seeds the first factor as a
        soft copy of y (an initialisation only: TC(c; z) is still maximised over z)."""
        with threadpool_limits(1):  # small matrices: BLAS threads only contend
            return self._fit(np.asarray(C, np.float64), y)

    def _fit(self, C: np.ndarray, y=None) -> BinaryCorEx:
        if C.ndim != 2:
            raise ValueError(f"C must be 2-D (N, H), got shape {C.shape}")
        n, h = C.shape
        px = C.mean(axis=0)
        keep = (px > 0) & (px < 1)
        self.n_features_in_ = h
        self.alpha_ = np.zeros((self.n_hidden, h))
        if n < 2 or keep.sum() < 2:
            self.tcs_, self.tc_, self.n_iter_ = np.zeros(self.n_hidden), 0.0, 0
            self.p_z_given_x_ = np.full((self.n_hidden, n, 2), 0.5)
            return self
        X = C[:, keep]
        px = px[keep]
        rng = check_random_state(self.random_state)
        m = self.n_hidden
        prev = getattr(self, "p_z_given_x_", None)
        if self.warm_start and prev is not None and prev.shape == (m, n, 2):
            pz = prev
        else:
            pz = self._init_posteriors(X, rng)
            if y is not None:
                p1 = 0.25 + 0.5 * (np.asarray(y) > 0) + 0.05 * rng.random_sample(n)
                pz[0] = np.stack([1 - p1, p1], axis=1)
        alpha = 0.5 + 0.5 * rng.random_sample((m, X.shape[1]))
        prev_alpha = getattr(self, "_alpha_kept", None)
        if self.warm_start and prev_alpha is not None and prev_alpha.shape == alpha.shape:
            alpha = prev_alpha
        lpx1, lpx0 = np.log(px), np.log1p(-px)
        tcs = np.zeros(m)
        history: list[float] = []
        hard, n_hard = False, 0
        alive = np.ones(m, dtype=bool)
        for it in range(self.max_iter + self.hard_iter):
            # marginals of the factors and conditionals p(x_i = 1 | z_j = k)
            nz = pz.sum(axis=1)  # (m, 2)
            log_pz = np.log(nz / n)
            P = pz.transpose(1, 0, 2).reshape(n, 2 * m)
            ones = (P.T @ X).reshape(m, 2, -1)  # (m, 2, H')
            p1 = (ones + self.smoothing) / (nz[:, :, None] + 2 * self.smoothing)
            lr1 = np.log(p1) - lpx1  # log p(x=1|z)/p(x=1)
            lr0 = np.log1p(-p1) - lpx0
            # mutual information I(X_i : Z_j) and the soft assignment of bits to factors
            pzk = (nz / n)[:, :, None]
            mis = (pzk * (p1 * lr1 + (1 - p1) * lr0)).sum(axis=1)  # (m, H')
            if hard:  # tree CorEx: each bit belongs to the live factor it informs most
                while True:  # a factor holding a single bit explains no TC: drop it
                    owner = np.argmax(np.where(alive[:, None], mis, -np.inf), axis=0)
                    single = alive & (np.bincount(owner, minlength=m) == 1)
                    if not single.any() or alive.sum() <= 1:
                        break
                    alive &= ~single
                alpha = np.zeros_like(mis)
                alpha[owner, np.arange(mis.shape[1])] = 1.0
            elif it > 0:
                t = 1.0 + 20.0 * np.abs(tcs)[:, None]
                alpha = np.exp(t * (mis - mis.max(axis=0, keepdims=True)))
            # latent posteriors: log p(z|x) = log p(z) + sum_i alpha_ji log p(x_i|z)/p(x_i) - log Z
            w = alpha[:, None, :] * (lr1 - lr0)  # (m, 2, H')
            base = (alpha[:, None, :] * lr0).sum(axis=2)  # (m, 2)
            logit = (X @ w.reshape(2 * m, -1).T).reshape(n, m, 2).transpose(1, 0, 2)
            logit = logit + (base + log_pz)[:, None, :]
            log_z = logsumexp(logit, axis=2)  # (m, n)
            pz = np.exp(logit - log_z[:, :, None])
            tcs = log_z.mean(axis=1)
            history.append(tcs.sum())
            if hard:
                n_hard += 1
                if n_hard >= self.hard_iter:
                    break
            elif it >= self.max_iter - 1 - self.hard_iter or (
                    it > 2 and abs(history[-1] - history[-2]) < self.tol):
                hard = self.hard_iter > 0
                if not hard:
                    break
                alive = _distinct_factors(pz[:, :, 1])
        self.p_z_given_x_ = pz
        self._alpha_kept = alpha
        self.alpha_[:, keep] = alpha
        self.tcs_ = tcs
        self.tc_ = float(max(tcs.sum(), 0.0))
        self.n_iter_ = it + 1
        self.tc_history_ = np.asarray(history)
        return self


    def _init_posteriors(self, X: np.ndarray, rng: np.random.RandomState) -> np.ndarray:
        """(m, N, 2) initial p(z_j|x): factor j starts as a soft copy of a seed bit; seeds are
        picked farthest-first (least correlated with the seeds so far), which breaks the
        symmetry between factors so they can explain different groups of bits."""
        n, h = X.shape
        Xc = X - X.mean(axis=0)
        Xc /= np.maximum(np.linalg.norm(Xc, axis=0), _EPS)
        seeds = [int(rng.randint(h))]
        closeness = np.abs(Xc.T @ Xc[:, seeds[0]])
        for _ in range(1, self.n_hidden):
            cand = np.flatnonzero(closeness <= closeness.min() + 1e-9)
            seeds.append(int(rng.choice(cand)))
            closeness = np.maximum(closeness, np.abs(Xc.T @ Xc[:, seeds[-1]]))
        p1 = 0.25 + 0.5 * X[:, seeds].T + 0.05 * rng.random_sample((self.n_hidden, n))
        return np.stack([1 - p1, p1], axis=2)


def _distinct_factors(p1: np.ndarray, max_corr: float = 0.9) -> np.ndarray:
    """(m,) bool: factors whose posteriors p1 (m, N) are not near copies of an earlier one
    (two copies would split one group of bits between them and explain less of its TC)."""
    z = p1 - p1.mean(axis=1, keepdims=True)
    z /= np.maximum(np.linalg.norm(z, axis=1, keepdims=True), _EPS)
    corr = np.abs(z @ z.T)
    alive = np.ones(len(p1), dtype=bool)
    for j in range(1, len(p1)):
        if (corr[j, :j][alive[:j]] > max_corr).any():
            alive[j] = False
    return alive


def approx_entropy(C: np.ndarray, n_hidden: int = 8, max_iter: int = 100,
                   random_state=0, corex: BinaryCorEx | None = None) -> float:
    """``sum_l H(c_l) - TC(c; z*)`` (nats) for codes C (N, H); ``corex`` (optional) is the
    (possibly warm-started) estimator to fit."""
    C = np.asarray(C)
    if len(C) == 0:
        return 0.0
    if corex is None:
        corex = BinaryCorEx(n_hidden=n_hidden, max_iter=max_iter, random_state=random_state)
    corex.fit(C)
    return float(marginal_entropies(C).sum() - corex.tc_)


def mutual_information(C: np.ndarray, y: np.ndarray, n_hidden: int = 8, max_iter: int = 100,
                       random_state=0) -> float:
    """Approximate ``I(c:y) = H(c) - sum_y p(y) H(c|y)`` (nats), each H by :func:`approx_entropy`."""
    return MutualInformation(n_hidden=n_hidden, max_iter=max_iter,
                             random_state=random_state).score(C, y)


class MutualInformation(BaseEstimator):
    """The MI objective as a reusable scorer: ``score(C, y)`` -> approximate I(c:y) in nats.

    Each joint entropy is ``sum_l H(c_l) - TC(c; z*)`` with the largest explained TC of
    ``n_restarts`` seeded CorEx fits (Eq. 6 is an argmax over z; CorEx has local optima, and
    on ~10^3 codes of 10^3 bits single fits differ by a few nats). ``estimator="marginal"``
    drops the TC terms (an ablation: the sum of per-bit plug-in MIs).

    ``label_seeded``: H(c) takes the larger explained TC of two CorEx fits, one started as
    usual and one with a factor started from y (CorEx from a generic start tends to miss
    the label factor when within-class variation also correlates the bits, which
    overstates H(c) and so I). ``warm_start`` keeps one CorEx per term (all, each class)
    and starts each fit from the previous solution (for many small changes of the codes on the same samples, e.g. the
    greedy reference search); otherwise every call is an independent seeded fit.
    """

    def __init__(self, n_hidden: int = 8, max_iter: int = 100, n_restarts: int = 1,
                 estimator: str = "corex", warm_start: bool = False,
                 label_seeded: bool = False, random_state=0) -> None:
        self.n_hidden = n_hidden
        self.max_iter = max_iter
        self.n_restarts = n_restarts
        self.estimator = estimator
        self.label_seeded = label_seeded
        self.warm_start = warm_start
        self.random_state = random_state

    def _corex(self, key, restart: int = 0) -> BinaryCorEx:
        store = self.__dict__.setdefault("_corexes", {})
        key = (key, restart)
        if not self.warm_start or key not in store:
            seed = None if self.random_state is None else int(self.random_state) + restart
            store[key] = BinaryCorEx(n_hidden=self.n_hidden, max_iter=self.max_iter,
                                     warm_start=self.warm_start, random_state=seed)
        return store[key]

    def entropy(self, C: np.ndarray, key="all", y=None) -> float:
        """``sum_l H(c_l) - max over restarts TC(c; z)`` (nats) for codes C (N, H)."""
        if len(C) == 0:
            return 0.0
        tc = max(self._corex(key, r).fit(C).tc_ for r in range(self.n_restarts))
        if y is not None and self.label_seeded and len(np.unique(y)) > 1:
            # Eq. 6 maximises TC(c; z) over z: a fit started from the labels (the obvious
            # shared cause of the bits) is another candidate z; keep the better bound
            tc = max(tc, self._corex("all|y").fit(C, y).tc_)
        return float(marginal_entropies(C).sum() - tc)

    def terms(self, C: np.ndarray, y: np.ndarray) -> dict[str, float]:
        """``{"H": H(c), "H|y=v": H(c|y=v) ..., "I": I(c:y)}`` (nats); with
        ``estimator="marginal"`` the TC terms are left out (then I = sum_l I(c_l : y))."""
        C, y = np.asarray(C), np.asarray(y)
        if len(C) != len(y):
            raise ValueError(f"C has {len(C)} rows, y has {len(y)}")
        if self.estimator not in ("corex", "marginal"):
            raise ValueError(f"estimator must be 'corex' or 'marginal', not {self.estimator!r}")
        if self.estimator == "marginal":
            def ent(D, key, y=None):
                return float(marginal_entropies(D).sum())
        else:
            ent = self.entropy
        out = {"H": ent(C, "all", y)}
        mi = out["H"]
        for v in np.unique(y):
            rows = y == v
            h = ent(C[rows], ("y", v.item()))
            out[f"H|y={v}"] = h
            mi -= rows.mean() * h
        out["I"] = float(mi)
        return out

    def score(self, C: np.ndarray, y: np.ndarray) -> float:
        return self.terms(C, y)["I"]
