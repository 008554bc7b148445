"""MI objective (CorEx entropy approximation), nonstationary path kernel, MI-optimised KLSH."""

from __future__ import annotations

import numpy as np
import pytest

from lab.kernel_reference import dp_gram
from relx.kernels.nonstationary import NonstationaryPathKernel, edge_labels
from relx.kernels.path import PathKernelParams
from relx.kernels.structure import PathKernel, SumKernel
from relx.learn.optimise import (
    EdgeSigmaMH,
    GreedyReferenceSet,
    KernelParamSearch,
    MIOptimisedKLSH,
    set_kernel_params,
)
from relx.represent.instances import StructureSet
from relx.represent.klsh import KLSHEncoder
from relx.represent.mi import (
    BinaryCorEx,
    MutualInformation,
    approx_entropy,
    exact_entropy,
    marginal_entropies,
)
from relx.structures import StructureEncoder
from tests.conftest import corpus_file

LN2 = np.log(2.0)


# ------------------------------------------------------------------------------ entropies

def latent_bits(n: int = 4000, groups: int = 2, per_group: int = 4, flip: float = 0.1,
                seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(codes (n, groups*per_group), latents (n, groups)): noisy copies of hidden bits."""
    rng = np.random.RandomState(seed)
    z = rng.randint(0, 2, size=(n, groups))
    C = np.repeat(z, per_group, axis=1) ^ (rng.random_sample((n, groups * per_group)) < flip)
    return C.astype(np.uint8), z


def test_entropies_by_hand() -> None:
    C = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    assert exact_entropy(C) == pytest.approx(2 * LN2)
    np.testing.assert_allclose(marginal_entropies(C), [LN2, LN2])
    D = np.array([[0, 0], [1, 1], [0, 0], [1, 1]])  # two copies of one fair bit
    assert exact_entropy(D) == pytest.approx(LN2)
    assert marginal_entropies(np.zeros((5, 3))).sum() == 0.0


@pytest.mark.parametrize("n_hidden", [2, 4])
def test_corex_entropy_matches_exact_joint_entropy(n_hidden: int) -> None:
    C, _ = latent_bits()
    exact = exact_entropy(C)
    marg = marginal_entropies(C).sum()
    approx = approx_entropy(C, n_hidden=n_hidden)
    assert marg - exact > 1.0  # the bits are strongly dependent...
    assert approx == pytest.approx(exact, abs=0.05)  # ...and CorEx explains that dependence
    # the TC explained is a lower bound (up to sampling error): no double counting
    assert approx >= exact - 0.02


def test_corex_finds_no_correlation_in_independent_bits() -> None:
    C = np.random.RandomState(1).randint(0, 2, size=(4000, 8))
    cx = BinaryCorEx(n_hidden=3, random_state=0).fit(C)
    assert 0.0 <= cx.tc_ < 0.02
    assert approx_entropy(C, n_hidden=3) == pytest.approx(exact_entropy(C), abs=0.03)


def test_corex_is_deterministic_and_groups_bits() -> None:
    C, _ = latent_bits(groups=2, per_group=3)
    a, b = BinaryCorEx(n_hidden=2, random_state=3).fit(C), BinaryCorEx(n_hidden=2, random_state=3).fit(C)
    assert a.tc_ == b.tc_
    owner = a.alpha_.argmax(axis=0)
    assert len(set(owner[:3])) == 1 and len(set(owner[3:])) == 1 and owner[0] != owner[3]


def test_mutual_information_matches_exact_and_is_low_for_unrelated_labels() -> None:
    C, z = latent_bits()
    y = z[:, 0]
    exact = exact_entropy(C) - sum((y == v).mean() * exact_entropy(C[y == v]) for v in (0, 1))
    terms = MutualInformation(n_hidden=2).terms(C, y)
    assert terms["I"] == pytest.approx(exact, abs=0.05)
    assert terms["I"] == pytest.approx(terms["H"] - 0.5 * terms["H|y=0"] - 0.5 * terms["H|y=1"],
                                       abs=0.02)
    noise = np.random.RandomState(5).randint(0, 2, len(y))
    assert MutualInformation(n_hidden=2).score(C, noise) < 0.05 < exact - 0.5


# ------------------------------------------------------------------- nonstationary kernel

def toy_structures(n: int = 120, seed: int = 0) -> tuple[StructureSet, np.ndarray]:
    """Paths PROT1 -sig> w -nz> a -nz> b -obj> PROT2: the word on the ``sig>`` edge carries
    the label, the ``nz>`` tuples are label-independent noise that dominate similarity."""
    rng = np.random.RandomState(seed)
    y = np.arange(n) % 2
    structs = []
    for label in y:
        s = [("<none>", "PROT1", "PROT1", "PROT"),
             ("sig>", "bind" if label else "of", "bind" if label else "of", "VB" if label else "IN")]
        for _ in range(3):
            w = f"n{rng.randint(3)}"
            s.append(("nz>", w, w, "NN"))
        s.append(("obj>", "PROT2", "PROT2", "PROT"))
        structs.append(s)
    enc = StructureEncoder()
    return StructureSet({"path": enc.encode(structs)}, enc), y


def test_sigma_one_everywhere_is_the_stationary_kernel() -> None:
    X, _ = toy_structures(30)
    base = PathKernel(lam=0.7, p=3, edge_mismatch=1.0, n_jobs=1)
    ones = dict.fromkeys(X.encoder.edges.itos, 1.0)
    for sigma in (None, {}, ones):
        ns = NonstationaryPathKernel(lam=0.7, p=3, edge_mismatch=1.0, n_jobs=1, edge_sigma=sigma)
        np.testing.assert_array_equal(ns.gram(X), base.gram(X))
        np.testing.assert_array_equal(ns.gram(X[:7], X[7:]), base.gram(X[:7], X[7:]))


def test_sigma_zero_follows_the_paper_tuple_kernel() -> None:
    X, _ = toy_structures(12)
    ns = NonstationaryPathKernel(lam=0.6, p=3, edge_mismatch=1.0, n_jobs=1,
                                 edge_sigma={"nz>": 0.0, "unseen>": 0.0})
    got = ns.gram(X)
    sig = np.ones(len(X.encoder.edges))
    sig[X.encoder.edges.stoi["nz>"]] = 0.0
    ref = dp_gram(X.parts["path"], X.parts["path"],
                  PathKernelParams(lam=0.6, p=3, edge_mismatch=1.0, sigma=sig))
    np.testing.assert_allclose(got, ref, atol=1e-12)
    # with the noise ignored, same-class paths are identical and cross-class ones differ
    y = np.arange(12) % 2
    same = got[np.equal.outer(y, y)]
    assert np.allclose(same, 1.0) and got[np.not_equal.outer(y, y)].max() < 0.99
    assert edge_labels(X, "path") == ["nz>", "sig>", "obj>"]


# ----------------------------------------------------------------------------- optimisers

KLSH = dict(n_reference=20, n_bits=64, alpha=2, hash_function="rmm", gamma=80, n_hidden=4,
            random_state=0)


def test_set_kernel_params_targets_one_subkernel() -> None:
    k = SumKernel([PathKernel(structure="path", lam=0.5), PathKernel(structure="sequence")])
    k2 = set_kernel_params(k, {"path.lam": 0.9, "sequence.p": 2, "weights": [2.0, 1.0]})
    assert (k2.kernels[0].lam, k2.kernels[1].p, list(k2.weights)) == (0.9, 2, [2.0, 1.0])
    assert k.kernels[0].lam == 0.5 and k.weights is None  # the original is unchanged
    with pytest.raises(ValueError, match="no sub-kernel"):
        set_kernel_params(k, {"tree.lam": 0.1})


@pytest.mark.slow
def test_edge_sigma_mh_keeps_the_signal_edge_and_the_best_sample() -> None:
    X, y = toy_structures()
    kernel = PathKernel(lam=0.8, p=3, edge_mismatch=1.0, n_jobs=1)
    mh = EdgeSigmaMH(kernel, n_iter=12, min_count=1, **KLSH).fit(X, y)
    assert set(mh.labels_) == {"nz>", "sig>", "obj>"}
    # ignoring the label-carrying edge leaves codes without label information
    sig_off = [i for lab, i, _ in mh.history_ if lab == "sig>"]
    assert sig_off and max(sig_off) < 0.5 * mh.initial_score_
    assert "sig>" not in mh.edge_sigma_
    # an uphill proposal is always accepted, so the kept sample is the best one visited
    visited = [mh.initial_score_, *[i for _, i, _ in mh.history_]]
    assert mh.best_score_ == pytest.approx(max(visited)) and mh.best_score_ > mh.initial_score_
    assert 0.0 < mh.acceptance_rate_ < 1.0
    assert isinstance(mh.kernel_, NonstationaryPathKernel)


@pytest.mark.parametrize("search", ["grid", "mh"])
def test_kernel_param_search_picks_the_best_scored_setting(search: str) -> None:
    X, y = toy_structures()
    kernel = NonstationaryPathKernel(lam=0.8, p=3, edge_mismatch=1.0, n_jobs=1)
    grid = {"edge_sigma": [None, {"sig>": 0.0}], "lam": [0.5, 0.8]}
    s = KernelParamSearch(kernel, grid=grid, search=search, n_iter=6, **KLSH).fit(X, y)
    scores = [i for _, i in s.history_]
    assert s.best_score_ == max(scores)
    assert s.best_params_["edge_sigma"] is None  # ignoring the label-carrying edge is worse
    if search == "grid":
        assert len(s.history_) == 4
    again = KernelParamSearch(s.kernel_, grid={"lam": [s.best_params_["lam"]]}, **KLSH).fit(X, y)
    assert again.best_score_ == pytest.approx(s.best_score_)


@pytest.mark.slow
def test_greedy_reference_steps_never_lower_the_objective() -> None:
    X, y = toy_structures()
    kernel = PathKernel(lam=0.8, p=3, edge_mismatch=1.0, n_jobs=1)
    g = GreedyReferenceSet(kernel, beta=6, n_steps=5, **{**KLSH, "gamma": 60}).fit(X, y)
    assert len(g.history_) == 5 and all(after >= before for _, before, after in g.history_)
    assert len(set(g.reference_indices_.tolist())) == 20 and g.n_replaced_ >= 1
    # the incremental code update equals codes recomputed from scratch
    from relx.kernels.structure import gram
    from relx.learn.optimise import _Hasher
    Xr = X[g.reference_indices_]
    h = _Hasher(g.subsets_, 2, "rmm").fit(gram(kernel, Xr))
    enc = MIOptimisedKLSH(kernel, n_reference=20, n_bits=64, optimise_reference=True, beta=6,
                          reference_steps=5, reference_gamma=60, n_hidden=4,
                          random_state=0).fit(X, y)
    np.testing.assert_array_equal(enc.reference_indices_, g.reference_indices_)
    np.testing.assert_array_equal(enc.transform(X), h.codes(gram(kernel, X, Xr)))


@pytest.mark.slow
def test_mi_klsh_without_optimisation_is_the_plain_encoder() -> None:
    X, y = toy_structures()
    kernel = PathKernel(lam=0.8, p=3, edge_mismatch=1.0, n_jobs=1)
    plain = KLSHEncoder(kernel, n_reference=20, n_bits=64, reference="balanced",
                        random_state=4).fit(X, y)
    mi = MIOptimisedKLSH(kernel, n_reference=20, n_bits=64, random_state=4).fit(X, y)
    np.testing.assert_array_equal(mi.transform(X), plain.transform(X))
    opt = MIOptimisedKLSH(kernel, n_reference=20, n_bits=64, learn_sigma=True, sigma_iter=8,
                          sigma_min_count=1, gamma=80, n_hidden=4, random_state=4).fit(X, y)
    info = opt.optimisation_["sigma"]
    assert info["mi"] >= info["mi_start"] and info["n_labels"] == 3
    assert sorted(opt.edge_sigma_) == info["zero"]
    assert opt.transform(X).shape == (len(y), 64)


@pytest.mark.slow
def test_real_aimed_codes_carry_label_information() -> None:
    from relx.ppi.evaluate import load_corpus
    from relx.represent.instances import StructureExtractor, labels, pair_instances

    inst = pair_instances(load_corpus(corpus_file("AIMed")))[:600]
    y = labels(inst)
    X = StructureExtractor(structures=["path"]).fit_transform(inst)
    kernel = PathKernel(lam=0.8, p=3, edge_mismatch=1.0, n_jobs=1)
    enc = KLSHEncoder(kernel, n_reference=40, n_bits=200, reference="balanced",
                      random_state=0).fit(X, y)
    codes = enc.transform(X)
    shuffled = np.random.RandomState(0).permutation(y)
    per_bit = MutualInformation(estimator="marginal")
    assert per_bit.score(codes, y) > 3 * per_bit.score(codes, shuffled) > 0
    t = MutualInformation(n_hidden=4).terms(codes, y)
    p1 = y.mean()
    assert t["I"] == pytest.approx(t["H"] - (1 - p1) * t["H|y=0"] - p1 * t["H|y=1"])
    assert t["H"] < marginal_entropies(codes).sum()  # CorEx explains some correlation
    assert {"nsubj>", "prep_of>"} & set(edge_labels(X, "path", min_count=5))
