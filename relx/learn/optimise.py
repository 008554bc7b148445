"""MI-optimised KLSH (Garg et al. 2019 §3.1, §3.2, App. C): kernel parameters θ, nonstationary
edge weights σ and the reference set, each chosen to maximise the approximate mutual
information ``I(c:y)`` (:mod:`relx.represent.mi`) between KLSH codes and training labels.

- :class:`KernelParamSearch`: grid or Metropolis–Hastings search of θ (``lam``, ``p``,
  ``w_lemma``, ``w_pos``, ``edge_mismatch`` ... of each sub-kernel).
- :class:`EdgeSigmaMH`: MH over σ ∈ {0,1} per path edge label: start at σ = 1, flip one σ
  per step, accept with ``min(1, exp((I' - I) / T))``, keep the best sample (App. C).
- :class:`GreedyReferenceSet`: Alg. 1, one reference position per greedy step, β random
  candidates, the objective on γ random training samples (resampled each step).
- :class:`MIOptimisedKLSH`: the pipeline step (component ``mi_klsh``) that runs the chosen
  optimisations inside ``fit`` on the training data only, then fits a :class:`KLSHEncoder`.

All objectives are computed on a γ-sample of the training data with the same hash subsets
the final encoder uses (same ``random_state``), so the codes scored are the codes used.
"""

from __future__ import annotations

import copy
import itertools
import logging
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

import numpy as np

from relx.estimator import BaseEstimator, TransformerMixin, check_is_fitted, check_random_state
from relx.kernels.nonstationary import NonstationaryPathKernel, edge_labels
from relx.kernels.structure import PathKernel, SumKernel, gram, n_samples, take
from relx.represent.klsh import KLSHEncoder, _balanced_sample
from relx.represent.mi import MutualInformation

log = logging.getLogger(__name__)

__all__ = ["EdgeSigmaMH", "GreedyReferenceSet", "KernelParamSearch", "MIOptimisedKLSH",
           "initial_reference", "set_kernel_params", "with_edge_sigma"]


# ---------------------------------------------------------------------------- kernel plumbing

def _subkernels(kernel) -> list:
    return list(kernel.kernels) if isinstance(kernel, SumKernel) else [kernel]


def _find(kernel, structure: str | None):
    subs = _subkernels(kernel)
    if structure is None:
        if len(subs) != 1:
            raise ValueError("parameter names of a sum kernel need a structure prefix, "
                             "e.g. 'path.lam'")
        return 0, subs[0]
    for i, k in enumerate(subs):
        if getattr(k, "structure", None) == structure:
            return i, k
    raise ValueError(f"no sub-kernel over structure {structure!r}; have "
                     f"{[getattr(k, 'structure', None) for k in subs]}")


def _with_subkernel(kernel, i: int, new):
    if isinstance(kernel, SumKernel):
        ks = list(kernel.kernels)
        ks[i] = new
        return SumKernel(kernels=ks, weights=kernel.weights)
    return new


def set_kernel_params(kernel, params: Mapping[str, Any]):
    """A copy of ``kernel`` with ``params`` set: ``"lam"`` on a single kernel, ``"path.lam"``
    on the sub-kernel of a :class:`SumKernel` over structure ``path``; ``"weights"`` sets
    the sum's weights. The input kernel is not modified."""
    out = kernel
    for name, value in params.items():
        if name == "weights":
            if not isinstance(out, SumKernel):
                raise ValueError("'weights' needs a sum kernel")
            out = SumKernel(kernels=list(out.kernels), weights=list(value))
            continue
        structure, _, attr = name.rpartition(".")
        i, sub = _find(out, structure or None)
        if attr not in {f.name for f in fields(sub)}:
            raise ValueError(f"kernel parameter {name!r}: {type(sub).__name__} has no {attr!r}")
        out = _with_subkernel(out, i, replace(sub, **{attr: value}))
    return out


def with_edge_sigma(kernel, structure: str, edge_sigma: Mapping[str, float]):
    """A copy of ``kernel`` whose ``structure`` sub-kernel is nonstationary with ``edge_sigma``."""
    i, sub = _find(kernel, structure if isinstance(kernel, SumKernel) else None)
    if not isinstance(sub, PathKernel):
        raise ValueError(f"σ learning needs a path kernel, got {type(sub).__name__}")
    base = {f.name: getattr(sub, f.name) for f in fields(PathKernel)}
    ns = NonstationaryPathKernel(**base, edge_sigma=dict(edge_sigma))
    for attr in ("words_", "word_vectors_"):  # keep bound word vectors
        if hasattr(sub, attr):
            setattr(ns, attr, getattr(sub, attr))
    return _with_subkernel(kernel, i, ns)


class _GramCache:
    """Gram blocks per sub-kernel setting, so changing one sub-kernel recomputes only its block.

    ``block(kernel, name, A, B)``: the (weighted-mean) Gram of ``kernel`` between A and B
    (B=None: symmetric), cached under the block ``name`` and each sub-kernel's repr.
    """

    def __init__(self) -> None:
        self.store: dict[tuple, np.ndarray] = {}

    def block(self, kernel, name: str, A, B=None) -> np.ndarray:
        subs = _subkernels(kernel)
        w = (np.ones(len(subs)) if not isinstance(kernel, SumKernel) or kernel.weights is None
             else np.asarray(kernel.weights, float))
        out = 0.0
        for wi, k in zip(w, subs, strict=True):
            key = (name, type(k).__name__, repr(k))
            g = self.store.get(key)
            if g is None:
                g = self.store[key] = gram(k, A, B)
            out = out + wi * g
        return out / w.sum()

    def drop(self, name: str) -> None:
        for key in [k for k in self.store if k[0] == name]:
            del self.store[key]


# --------------------------------------------------------------------------- codes and MI

class _Hasher:
    """KLSH codes from precomputed kernel blocks (the hash functions of :class:`KLSHEncoder`
    with the given (H, 2α) ``subsets``)."""

    def __init__(self, subsets: np.ndarray, alpha: int, hash_function: str) -> None:
        self.enc = KLSHEncoder(n_bits=len(subsets), alpha=alpha, hash_function=hash_function)
        self.enc.subsets_ = subsets

    def fit(self, k_rr: np.ndarray) -> _Hasher:
        enc = self.enc
        if enc.hash_function == "rknn":
            enc.weights_, enc.offsets_ = None, None
        elif enc.hash_function == "rmm":
            enc.weights_, enc.offsets_ = enc._rmm(k_rr, enc.subsets_)
        else:
            enc.weights_, enc.offsets_ = enc._kulis(k_rr, enc.subsets_)
        return self

    def codes(self, k_xr: np.ndarray) -> np.ndarray:
        return self.enc.codes_from_kernel(k_xr)

    def refit_bits(self, k_rr: np.ndarray, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(weights (M, b), offsets (b,)) of the RMM/Kulis hash functions ``bits`` for a new
        reference Gram (RkNN needs none)."""
        enc = self.enc
        if enc.hash_function == "rmm":
            return enc._rmm(k_rr, enc.subsets_[bits])
        w, b = enc._kulis(k_rr, enc.subsets_)
        return w[:, bits], b[bits]


class _MIMixin:
    """Shared settings and the γ-sample objective of the MI optimisers."""

    def _setup(self, X, y):
        """Labels, an RNG, the initial reference set (M,) and hash subsets (H, 2α) drawn
        exactly as :meth:`KLSHEncoder.fit` draws them with the same ``random_state``, and γ
        evaluation samples outside the reference set."""
        y = np.asarray(y)
        if n_samples(X) != len(y):
            raise ValueError(f"X has {n_samples(X)} samples, y has {len(y)}")
        if len(np.unique(y)) < 2:
            raise ValueError("MI optimisation needs both classes in y")
        ref, self._subsets, rng = initial_reference(
            y, self.n_reference, self.n_bits, self.alpha, self.reference,
            self.reference_indices, self.random_state)
        rest = np.setdiff1d(np.arange(len(y)), ref)
        evals = np.sort(rng.choice(rest, size=min(self.gamma, len(rest)), replace=False))
        self._mi = MutualInformation(n_hidden=self.n_hidden, max_iter=self.corex_iter,
                                     estimator=self.estimator, random_state=0)
        self._cache = _GramCache()
        return y, rng, ref, evals

    def _objective(self, kernel, X, y, ref, evals) -> float:
        XR, XE = take(X, ref), take(X, evals)
        k_rr = self._cache.block(kernel, "rr", XR)
        k_er = self._cache.block(kernel, "er", XE, XR)
        hasher = _Hasher(self._subsets, self.alpha, self.hash_function).fit(k_rr)
        return self._mi.score(hasher.codes(k_er), y[evals])


def initial_reference(y: np.ndarray, n_reference: int, n_bits: int, alpha: int,
                      reference: str = "balanced", reference_indices=None, random_state=None
                      ) -> tuple[np.ndarray, np.ndarray, np.random.RandomState]:
    """(reference indices (M,), hash subsets (H, 2α), the RNG after both draws), drawn as
    :meth:`KLSHEncoder.fit` draws them for labels ``y`` and the same ``random_state``."""
    rng = check_random_state(random_state)
    n = len(y)
    if reference_indices is not None:
        ref = np.asarray(reference_indices, np.int64)
    elif reference == "balanced":
        ref = _balanced_sample(np.asarray(y), min(n_reference, n), rng)
    elif reference == "random":
        ref = np.sort(rng.choice(n, size=min(n_reference, n), replace=False))
    else:
        raise ValueError(f"reference must be 'random' or 'balanced', not {reference!r}")
    subsets = np.stack([rng.permutation(len(ref))[: 2 * alpha] for _ in range(n_bits)])
    return ref, subsets, rng


_KLSH_DOC = """``n_reference`` M, ``n_bits`` H, ``alpha``, ``hash_function``, ``reference``
    (``balanced``/``random``) or ``reference_indices`` as in :class:`KLSHEncoder`; ``gamma``
    samples for the objective; CorEx with ``n_hidden`` factors, ``corex_iter`` iterations;
    ``estimator`` ``corex`` (the paper's approximation) or ``marginal`` (TC terms dropped)."""


class KernelParamSearch(_MIMixin, BaseEstimator):
    __doc__ = f"""θ search maximising the approximate I(c:y) of KLSH codes.

    ``grid``: {{parameter name: [values]}} (names as :func:`set_kernel_params`); ``search``
    ``"grid"`` scores every combination, ``"mh"`` runs ``n_iter`` Metropolis–Hastings steps
    on the grid (move one parameter to a neighbouring value, accept with
    ``min(1, exp((I' - I) / temperature))``) from the kernel's own setting, keeping the best.
    {_KLSH_DOC}
    Learned: ``best_params_``, ``best_score_``, ``kernel_`` (the best kernel), ``history_``
    [(params, I)], ``reference_indices_``, ``eval_indices_``.
    """

    def __init__(self, kernel=None, grid: Mapping[str, Sequence] | None = None,
                 search: str = "grid", n_iter: int = 20, temperature: float = 1.0,
                 n_reference: int = 100, n_bits: int = 1000, alpha: int = 2,
                 hash_function: str = "rmm", reference: str = "balanced",
                 reference_indices=None, gamma: int = 1000, n_hidden: int = 8,
                 corex_iter: int = 50, estimator: str = "corex",
                 random_state=None) -> None:
        self.kernel = kernel
        self.grid = grid
        self.search = search
        self.n_iter = n_iter
        self.temperature = temperature
        self.n_reference = n_reference
        self.n_bits = n_bits
        self.alpha = alpha
        self.hash_function = hash_function
        self.reference = reference
        self.reference_indices = reference_indices
        self.gamma = gamma
        self.n_hidden = n_hidden
        self.corex_iter = corex_iter
        self.estimator = estimator
        self.random_state = random_state

    def fit(self, X, y) -> KernelParamSearch:
        y, rng, ref, evals = self._setup(X, y)
        grid = {k: list(v) for k, v in (self.grid or {}).items()}
        if not grid:
            raise ValueError("KernelParamSearch needs a non-empty grid")
        names = list(grid)
        scored: dict[tuple, float] = {}

        def score(idx: tuple[int, ...]) -> float:
            if idx not in scored:
                params = {n: grid[n][i] for n, i in zip(names, idx, strict=True)}
                scored[idx] = self._objective(set_kernel_params(self.kernel, params), X, y,
                                              ref, evals)
                self.history_.append((params, scored[idx]))
                log.debug("theta %s: I=%.3f", params, scored[idx])
            return scored[idx]

        self.history_: list[tuple[dict, float]] = []
        if self.search == "grid":
            for idx in itertools.product(*(range(len(grid[n])) for n in names)):
                score(idx)
        elif self.search == "mh":
            cur = tuple(self._start_index(grid[n], n) for n in names)
            cur_i = score(cur)
            for _ in range(self.n_iter):
                k = int(rng.randint(len(names)))
                step = int(rng.choice([-1, 1]))
                new = list(cur)
                new[k] = min(max(cur[k] + step, 0), len(grid[names[k]]) - 1)
                new_i = score(tuple(new))
                if rng.random_sample() < math.exp(min(0.0, (new_i - cur_i) / self.temperature)):
                    cur, cur_i = tuple(new), new_i
        else:
            raise ValueError(f"search must be 'grid' or 'mh', not {self.search!r}")
        best = max(scored, key=lambda i: (scored[i], -sum(i)))
        self.best_params_ = {n: grid[n][i] for n, i in zip(names, best, strict=True)}
        self.best_score_ = scored[best]
        self.kernel_ = set_kernel_params(self.kernel, self.best_params_)
        self.reference_indices_, self.eval_indices_ = ref, evals
        return self

    def _start_index(self, values: list, name: str) -> int:
        """Index of the kernel's current value of ``name`` in ``values`` (else the middle)."""
        structure, _, attr = name.rpartition(".")
        try:
            current = (self.kernel.weights if name == "weights"
                       else getattr(_find(self.kernel, structure or None)[1], attr))
        except ValueError:
            current = None
        return values.index(current) if current in values else len(values) // 2


class EdgeSigmaMH(_MIMixin, BaseEstimator):
    __doc__ = f"""Metropolis–Hastings learning of σ ∈ {{0,1}} per edge label of ``structure``
    (App. C): start at σ = 1, each of ``n_iter`` steps flips one σ of a label seen at least
    ``min_count`` times in the training structures, accepted with
    ``min(1, exp((I' - I) / temperature))``; the best sample is kept.
    {_KLSH_DOC}
    Learned: ``edge_sigma_`` {{label: 0.0}} of the best sample, ``kernel_`` (nonstationary),
    ``best_score_``, ``initial_score_`` (σ = 1), ``history_`` [(flipped label, I', accepted)],
    ``acceptance_rate_``, ``labels_`` (the labels searched).
    """

    def __init__(self, kernel=None, structure: str = "path", n_iter: int = 100,
                 min_count: int = 5, temperature: float = 1.0, n_reference: int = 100,
                 n_bits: int = 1000, alpha: int = 2, hash_function: str = "rmm",
                 reference: str = "balanced", reference_indices=None, gamma: int = 300,
                 n_hidden: int = 8, corex_iter: int = 50, estimator: str = "corex",
                 random_state=None) -> None:
        self.kernel = kernel
        self.structure = structure
        self.n_iter = n_iter
        self.min_count = min_count
        self.temperature = temperature
        self.n_reference = n_reference
        self.n_bits = n_bits
        self.alpha = alpha
        self.hash_function = hash_function
        self.reference = reference
        self.reference_indices = reference_indices
        self.gamma = gamma
        self.n_hidden = n_hidden
        self.corex_iter = corex_iter
        self.estimator = estimator
        self.random_state = random_state

    def fit(self, X, y) -> EdgeSigmaMH:
        y, rng, ref, evals = self._setup(X, y)
        self.labels_ = edge_labels(X, self.structure, self.min_count)
        if not self.labels_:
            raise ValueError(f"no edge label occurs {self.min_count}+ times in {self.structure!r}")

        def score(zero: frozenset) -> float:
            sig = dict.fromkeys(sorted(zero), 0.0)
            return self._objective(with_edge_sigma(self.kernel, self.structure, sig), X, y,
                                   ref, evals)

        cur: frozenset = frozenset()
        cur_i = self.initial_score_ = score(cur)
        best, best_i = cur, cur_i
        self.history_: list[tuple[str, float, bool]] = []
        for _ in range(self.n_iter):
            label = self.labels_[int(rng.randint(len(self.labels_)))]
            new = cur ^ {label}
            new_i = score(new)
            accept = bool(rng.random_sample()
                          < math.exp(min(0.0, (new_i - cur_i) / self.temperature)))
            self.history_.append((label, new_i, accept))
            log.debug("sigma flip %s: I=%.3f (current %.3f) %s", label, new_i, cur_i,
                      "accepted" if accept else "rejected")
            if accept:
                cur, cur_i = new, new_i
                if cur_i > best_i:
                    best, best_i = cur, cur_i
        self.edge_sigma_ = dict.fromkeys(sorted(best), 0.0)
        self.best_score_ = best_i
        self.acceptance_rate_ = (float(np.mean([h[2] for h in self.history_]))
                                 if self.history_ else 0.0)
        self.kernel_ = with_edge_sigma(self.kernel, self.structure, self.edge_sigma_)
        self.reference_indices_, self.eval_indices_ = ref, evals
        return self


class GreedyReferenceSet(_MIMixin, BaseEstimator):
    __doc__ = f"""Greedy reference-set optimisation (Alg. 1): for each of ``n_steps`` reference
    positions (default: all M, in order), draw γ evaluation samples and β candidates from the
    training data and put at that position the candidate whose codes have the highest
    approximate I(c:y) on the γ samples. The incumbent is scored as a candidate too, so a
    step never lowers the objective on its own sample. Only the hash functions whose subsets
    contain the changed position are recomputed.
    {_KLSH_DOC}
    Learned: ``reference_indices_`` (M,), ``subsets_`` (H, 2α) the hash subsets used,
    ``history_`` [(position, I before, I after)], ``n_replaced_``.
    """

    def __init__(self, kernel=None, beta: int = 30, n_steps: int | None = None,
                 n_reference: int = 100, n_bits: int = 1000, alpha: int = 2,
                 hash_function: str = "rmm", reference: str = "balanced",
                 reference_indices=None, gamma: int = 300, n_hidden: int = 8,
                 corex_iter: int = 30, estimator: str = "corex",
                 random_state=None) -> None:
        self.kernel = kernel
        self.beta = beta
        self.n_steps = n_steps
        self.n_reference = n_reference
        self.n_bits = n_bits
        self.alpha = alpha
        self.hash_function = hash_function
        self.reference = reference
        self.reference_indices = reference_indices
        self.gamma = gamma
        self.n_hidden = n_hidden
        self.corex_iter = corex_iter
        self.estimator = estimator
        self.random_state = random_state

    def fit(self, X, y) -> GreedyReferenceSet:
        y, rng, ref, _ = self._setup(X, y)
        n, m = len(y), len(ref)
        ref = ref.copy()
        k_rr = gram(self.kernel, take(X, ref))
        hasher = _Hasher(self._subsets, self.alpha, self.hash_function).fit(k_rr)
        enc = hasher.enc
        steps = m if self.n_steps is None else min(self.n_steps, m)
        self.history_: list[tuple[int, float, float]] = []
        self.n_replaced_ = 0
        for j in range(steps):
            pool = np.setdiff1d(np.arange(n), ref)
            evals = np.sort(rng.choice(pool, size=min(self.gamma, len(pool)), replace=False))
            pool = np.setdiff1d(pool, evals)
            cands = rng.choice(pool, size=min(self.beta, len(pool)), replace=False)
            XE = take(X, evals)
            k_er = gram(self.kernel, XE, take(X, ref))  # (γ, M)
            k_ec = gram(self.kernel, XE, take(X, cands))  # (γ, β)
            k_cr = gram(self.kernel, take(X, cands), take(X, ref))  # (β, M)
            bits = np.flatnonzero((enc.subsets_ == j).any(axis=1))
            codes = hasher.codes(k_er)
            mi = MutualInformation(n_hidden=self.n_hidden, max_iter=self.corex_iter,
                                   estimator=self.estimator, warm_start=True, random_state=0)
            ye = y[evals]
            before = mi.score(codes, ye)
            best_q, best_i, best_fit = -1, before, None
            for q in range(len(cands)):
                krr = k_rr.copy()
                krr[j, :] = krr[:, j] = k_cr[q]
                krr[j, j] = 1.0
                w, b = hasher.refit_bits(krr, bits)
                ker = k_er.copy()
                ker[:, j] = k_ec[:, q]
                new = codes.copy()
                if enc.hash_function == "rknn":
                    a = enc.alpha
                    sub = enc.subsets_[bits]
                    new[:, bits] = (ker[:, sub[:, :a]].max(axis=2)
                                    < ker[:, sub[:, a:]].max(axis=2))
                else:
                    kk = ker - ker.mean(axis=1, keepdims=True) if enc.hash_function == "kulis" else ker
                    new[:, bits] = kk @ w + b > 0
                i_q = mi.score(new, ye)
                if i_q > best_i:
                    best_q, best_i, best_fit = q, i_q, (krr, w, b)
            if best_q >= 0:
                ref[j] = cands[best_q]
                k_rr, w, b = best_fit
                if enc.hash_function == "kulis":
                    hasher.fit(k_rr)
                elif enc.hash_function == "rmm":
                    enc.weights_[:, bits], enc.offsets_[bits] = w, b
                self.n_replaced_ += 1
            self.history_.append((j, before, best_i))
            log.debug("reference position %d: I %.3f -> %.3f", j, before, best_i)
        self.reference_indices_ = ref
        self.subsets_ = self._subsets
        return self


class MIOptimisedKLSH(TransformerMixin, BaseEstimator):
    """KLSH encoder whose kernel θ, edge σ and reference set are optimised in ``fit`` by MI.

    Steps, in order, each on the training data passed to ``fit`` only: ``theta_grid``
    ({name: [values]}, see :class:`KernelParamSearch`; ``theta_search`` grid/mh,
    ``theta_iter``); ``learn_sigma`` (:class:`EdgeSigmaMH` on ``sigma_structure``,
    ``sigma_iter`` flips of labels seen ``sigma_min_count``+ times); ``optimise_reference``
    (:class:`GreedyReferenceSet`, ``beta``, ``reference_steps``, ``reference_gamma``). Then a
    :class:`KLSHEncoder` (``encoder_``) is fitted with the optimised kernel (``kernel_``)
    and reference set. ``gamma`` is the objective's sample size for θ and σ; ``estimator``,
    ``n_hidden``, ``corex_iter`` configure the MI approximation (:class:`MutualInformation`).
    Learned: ``encoder_``, ``kernel_``, ``theta_`` (best θ or {}), ``edge_sigma_``,
    ``reference_indices_``, ``optimisation_`` (scores and seconds per step).
    """

    def __init__(self, kernel=None, n_reference: int = 100, n_bits: int = 1000, alpha: int = 2,
                 hash_function: str = "rmm", reference: str = "balanced",
                 theta_grid: Mapping[str, Sequence] | None = None, theta_search: str = "grid",
                 theta_iter: int = 20, learn_sigma: bool = False, sigma_structure: str = "path",
                 sigma_iter: int = 100, sigma_min_count: int = 5, temperature: float = 1.0,
                 optimise_reference: bool = False, beta: int = 30,
                 reference_steps: int | None = None, reference_gamma: int = 300,
                 gamma: int = 1000, n_hidden: int = 16, corex_iter: int = 50,
                 estimator: str = "corex", random_state=None) -> None:
        self.kernel = kernel
        self.n_reference = n_reference
        self.n_bits = n_bits
        self.alpha = alpha
        self.hash_function = hash_function
        self.reference = reference
        self.theta_grid = theta_grid
        self.theta_search = theta_search
        self.theta_iter = theta_iter
        self.learn_sigma = learn_sigma
        self.sigma_structure = sigma_structure
        self.sigma_iter = sigma_iter
        self.sigma_min_count = sigma_min_count
        self.temperature = temperature
        self.optimise_reference = optimise_reference
        self.beta = beta
        self.reference_steps = reference_steps
        self.reference_gamma = reference_gamma
        self.gamma = gamma
        self.n_hidden = n_hidden
        self.corex_iter = corex_iter
        self.estimator = estimator
        self.random_state = random_state

    def _common(self) -> dict[str, Any]:
        return dict(n_reference=self.n_reference, n_bits=self.n_bits, alpha=self.alpha,
                    hash_function=self.hash_function, reference=self.reference,
                    n_hidden=self.n_hidden, estimator=self.estimator,
                    random_state=self.random_state)

    def fit(self, X, y) -> MIOptimisedKLSH:
        y = np.asarray(y)
        kernel = copy.deepcopy(self.kernel)
        self.optimisation_: dict[str, Any] = {}
        self.theta_, self.edge_sigma_ = {}, {}
        if self.theta_grid:
            t0 = time.perf_counter()
            s = KernelParamSearch(kernel, grid=self.theta_grid, search=self.theta_search,
                                  n_iter=self.theta_iter, temperature=self.temperature,
                                  gamma=self.gamma, corex_iter=self.corex_iter,
                                  **self._common()).fit(X, y)
            kernel, self.theta_ = s.kernel_, s.best_params_
            self.optimisation_["theta"] = {
                "best": s.best_params_, "mi": s.best_score_, "n_scored": len(s.history_),
                "history": [[p, i] for p, i in s.history_],
                "seconds": time.perf_counter() - t0}
            log.info("theta: best %s, I=%.3f of %d settings (%.0f s)", s.best_params_,
                     s.best_score_, len(s.history_), self.optimisation_["theta"]["seconds"])
        if self.learn_sigma:
            t0 = time.perf_counter()
            s = EdgeSigmaMH(kernel, structure=self.sigma_structure, n_iter=self.sigma_iter,
                            min_count=self.sigma_min_count, temperature=self.temperature,
                            gamma=self.gamma, corex_iter=self.corex_iter,
                            **self._common()).fit(X, y)
            kernel, self.edge_sigma_ = s.kernel_, s.edge_sigma_
            self.optimisation_["sigma"] = {
                "zero": sorted(s.edge_sigma_), "mi_start": s.initial_score_,
                "mi": s.best_score_, "acceptance": s.acceptance_rate_,
                "n_labels": len(s.labels_), "seconds": time.perf_counter() - t0}
            log.info("sigma: zero for %s; I %.3f -> %.3f, acceptance %.2f, %d labels (%.0f s)",
                     sorted(s.edge_sigma_), s.initial_score_, s.best_score_, s.acceptance_rate_,
                     len(s.labels_), self.optimisation_["sigma"]["seconds"])
        ref = subsets = None
        if self.optimise_reference:
            t0 = time.perf_counter()
            s = GreedyReferenceSet(kernel, beta=self.beta, n_steps=self.reference_steps,
                                   gamma=self.reference_gamma,
                                   corex_iter=min(self.corex_iter, 30),
                                   **self._common()).fit(X, y)
            ref, subsets = s.reference_indices_, s.subsets_
            self.optimisation_["reference"] = {
                "replaced": s.n_replaced_, "steps": len(s.history_),
                "mi_gain_mean": float(np.mean([b - a for _, a, b in s.history_])),
                "seconds": time.perf_counter() - t0}
            log.info("reference: %d of %d positions replaced, mean step gain %.3f (%.0f s)",
                     s.n_replaced_, len(s.history_), self.optimisation_["reference"]["mi_gain_mean"],
                     self.optimisation_["reference"]["seconds"])
        self.kernel_ = kernel
        enc = KLSHEncoder(kernel, n_reference=self.n_reference, n_bits=self.n_bits,
                          alpha=self.alpha, hash_function=self.hash_function,
                          reference=self.reference, reference_indices=ref,
                          random_state=self.random_state).fit(X, y)
        if subsets is not None:  # the hash subsets the reference set was optimised with
            h = _Hasher(subsets, self.alpha, self.hash_function).fit(gram(kernel, enc.reference_))
            enc.subsets_, enc.weights_, enc.offsets_ = subsets, h.enc.weights_, h.enc.offsets_
        self.encoder_ = enc
        self.reference_indices_ = enc.reference_indices_
        return self

    def transform(self, X) -> np.ndarray:
        """(N, H) uint8 hashcodes of the optimised encoder."""
        check_is_fitted(self, "encoder_")
        return self.encoder_.transform(X)
