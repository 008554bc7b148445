"""Path kernel: compiled == pure-Python DP == brute-force formula; symmetry, PSD, normalisation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.kernel_reference import brute_force_kernel, dp_gram, dp_kernel, structure_tuples
from relx.kernels import PathKernelParams, path_gram, path_kernel, self_kernels
from relx.structures import EncodedStructures
from tests.conftest import corpus_file

TOL = 1e-9


def encode(structs: list[list[tuple[int, int, int, int]]]) -> EncodedStructures:
    """Int tuples ``(edge, word, lemma, pos)`` -> EncodedStructures (N structures)."""
    offsets = np.zeros(len(structs) + 1, np.int64)
    offsets[1:] = np.cumsum([len(s) for s in structs])
    flat = np.array([t for s in structs for t in s], np.int32).reshape(-1, 4)
    return EncodedStructures(offsets, *(np.ascontiguousarray(flat[:, k]) for k in range(4)))


def random_structs(rng: np.random.Generator, n: int, max_len: int = 5, n_edges: int = 3,
                   n_words: int = 6, hierarchical: bool = True) -> EncodedStructures:
    """Random structures over a small vocabulary. Hierarchical: word -> lemma -> pos."""
    structs = []
    for _ in range(n):
        s = []
        for _ in range(int(rng.integers(1, max_len + 1))):
            w = int(rng.integers(0, n_words))
            if hierarchical:
                lemma, pos = w // 2, w // 4
            else:
                lemma, pos = int(rng.integers(0, 3)), int(rng.integers(0, 2))
            s.append((int(rng.integers(0, n_edges)), w, lemma, pos))
        structs.append(s)
    return encode(structs)


def psd_node_sim(rng: np.random.Generator, n_words: int, w_lemma: float, w_pos: float) -> np.ndarray:
    """(Vw, Vw) PSD similarity dominating the hierarchical back-off: back-off + 0.5 U U^T, U >= 0."""
    w = np.arange(n_words)
    back = np.where(w[:, None] == w, 1.0, np.where(w[:, None] // 2 == w // 2, w_lemma,
                                                   np.where(w[:, None] // 4 == w // 4, w_pos, 0.0)))
    U = np.abs(rng.normal(size=(n_words, 4)))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    return back + 0.5 * U @ U.T


tuple_st = st.tuples(st.integers(0, 2), st.integers(0, 4), st.integers(0, 2), st.integers(0, 1))
struct_st = st.lists(tuple_st, min_size=0, max_size=5)
params_st = st.builds(
    PathKernelParams,
    lam=st.floats(0.1, 1.0),
    p=st.integers(1, 4),
    w_lemma=st.floats(0.0, 1.0),
    w_pos=st.floats(0.0, 1.0),
    edge_mismatch=st.sampled_from([0.0, 0.3, 1.0]),
    sigma=st.one_of(st.none(), st.lists(st.floats(0.0, 2.0), min_size=1, max_size=3).map(np.array)),
    node_sim=st.one_of(st.none(), st.just(np.zeros((0, 0))),
                       st.lists(st.floats(0.0, 1.0), min_size=9, max_size=9)
                       .map(lambda v: (lambda m: (m + m.T) / 2)(np.array(v).reshape(3, 3)))),
)


def close(a: float, b: float) -> bool:
    return abs(a - b) <= TOL * max(1.0, abs(b))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(S=struct_st, T=struct_st, params=params_st)
def test_compiled_and_dp_match_brute_force(S, T, params) -> None:
    X = encode([S, T])
    expected = brute_force_kernel(S, T, params)
    assert close(dp_kernel(S, T, params), expected)
    for mode in (0, 1, 2):  # auto, dense recursion, sparse recursion
        assert close(path_kernel(X, 0, X, 1, params, mode=mode), expected)
    assert close(path_kernel(X, 1, X, 0, params), expected)  # symmetry


@pytest.mark.slow
def test_hand_computed_value() -> None:
    # S = T = one tuple: K = k * lam^2; two identical tuples: q=1 gives 4 pairs, q=2 one pair.
    X = encode([[(1, 1, 1, 1)], [(1, 1, 1, 1), (1, 1, 1, 1)]])
    P = PathKernelParams(lam=0.5, p=2)
    assert path_kernel(X, 0, X, 0, P) == pytest.approx(0.25)
    assert path_kernel(X, 1, X, 1, P) == pytest.approx(4 * 0.25 + 0.5**4)
    assert path_kernel(X, 1, X, 1, PathKernelParams(lam=0.5, p=1)) == pytest.approx(1.0)
    assert path_kernel(X, 0, X, 0, PathKernelParams(sigma=np.array([1.0, 0.0]))) == 0.0


@pytest.mark.parametrize("hierarchical", [True, False])
def test_gram_consistency(hierarchical: bool) -> None:
    rng = np.random.default_rng(1)
    A = random_structs(rng, 23, hierarchical=hierarchical)
    P = PathKernelParams(lam=0.6, p=3, edge_mismatch=0.2, sigma=np.array([1.0, 0.5]))
    G_sym = path_gram(A, params=P, normalize=False)
    G_ab = path_gram(A, A, params=P, normalize=False, n_jobs=1)
    single = np.array([[path_kernel(A, i, A, j, P) for j in range(len(A))] for i in range(len(A))])
    np.testing.assert_allclose(G_sym, single, rtol=TOL)
    np.testing.assert_allclose(G_ab, single, rtol=TOL)
    np.testing.assert_allclose(np.diag(single), self_kernels(A, P), rtol=TOL)
    np.testing.assert_allclose(G_sym, dp_gram(A, A, P, normalize=False), rtol=TOL)
    N_sym, N_ab = path_gram(A, params=P), path_gram(A, A, params=P)
    np.testing.assert_allclose(N_sym, N_ab, rtol=TOL, atol=1e-15)
    np.testing.assert_allclose(N_ab, dp_gram(A, A, P), rtol=TOL, atol=1e-15)
    # precomputed diagonals give the same normalised block
    d = self_kernels(A, P)
    np.testing.assert_allclose(path_gram(A[:7], A[7:], P, diag_a=d[:7], diag_b=d[7:]),
                               N_ab[:7, 7:], rtol=TOL, atol=1e-15)


def test_repeated_structures_get_the_same_rows_bitwise() -> None:
    """A block whose queries repeat structures (computed once each) equals, bit for bit, the
    block of the distinct queries gathered row by row, with or without given diagonals."""
    rng = np.random.default_rng(3)
    A = random_structs(rng, 9, hierarchical=True)
    B = random_structs(rng, 6, hierarchical=False)
    P = PathKernelParams(lam=0.6, p=3, edge_mismatch=0.2)
    order = [4, 0, 4, 2, 8, 0, 0, 5]
    rows = np.vstack([path_gram(A[[i]], B, P) for i in order])
    assert np.array_equal(path_gram(A[order], B, P), rows)
    d = self_kernels(A, P)
    given = path_gram(A[order], B, P, diag_a=d[order], diag_b=self_kernels(B, P))
    assert np.array_equal(given, rows)
    raw = np.vstack([path_gram(A[[i]], B, P, normalize=False) for i in order])
    assert np.array_equal(path_gram(A[order], B, P, normalize=False), raw)


@pytest.mark.parametrize("with_sim", [False, True])
def test_normalised_gram_psd_and_bounded(with_sim: bool) -> None:
    rng = np.random.default_rng(7)
    n_words = 8
    A = random_structs(rng, 20, max_len=6, n_words=n_words)
    sim = psd_node_sim(rng, n_words, 0.5, 0.1) if with_sim else None
    P = PathKernelParams(lam=0.5, p=3, w_lemma=0.5, w_pos=0.1, edge_mismatch=0.3,
                         sigma=np.array([1.0, 0.7, 1.3]), node_sim=sim)
    G = path_gram(A, params=P)
    np.testing.assert_array_equal(np.diag(G), 1.0)
    np.testing.assert_allclose(G, G.T, rtol=0, atol=1e-15)
    assert G.min() >= 0.0 and G.max() <= 1.0 + 1e-12
    assert np.linalg.eigvalsh(G).min() >= -1e-8


def test_edge_cases() -> None:
    X = encode([[], [(0, 1, 1, 1)], [(0, 1, 1, 1), (2, 3, 3, 3)]])
    P = PathKernelParams()
    assert path_kernel(X, 0, X, 1, P) == 0.0
    G = path_gram(X, params=P)
    assert G[0, 0] == 0.0 and G[1, 1] == 1.0 and np.all(G[0] == 0.0)
    assert path_gram(X[:0], X, P).shape == (0, 3)
    assert path_gram(X[:0], params=P).shape == (0, 0)
    # a long structure (beyond the usual ~40 tuples) still matches the Python DP
    rng = np.random.default_rng(3)
    L = random_structs(rng, 2, max_len=120)
    S, T = structure_tuples(L, 0), structure_tuples(L, 1)
    assert close(path_kernel(L, 0, L, 1, P), dp_kernel(S, T, P))
    with pytest.raises(ValueError):
        path_gram(X, params=PathKernelParams(lam=0.0))
    with pytest.raises(IndexError):
        path_kernel(X, 3, X, 0, P)


def test_real_aimed_paths_match_dp() -> None:
    from relx.io import read_ppi_xml
    from relx.structures import StructureEncoder, shortest_path

    structs = []
    for doc in read_ppi_xml(corpus_file("AIMed")):
        for s in doc.sentences:
            structs += [shortest_path(s, s.entity(r.arg1), s.entity(r.arg2)) for r in s.relations]
        if len(structs) >= 200:
            break
    X = StructureEncoder().encode(structs[:200])
    P = PathKernelParams()
    G = path_gram(X, params=P)
    assert np.linalg.eigvalsh(G).min() >= -1e-8
    rows, cols = np.arange(0, 200, 20), np.arange(5, 200, 20)
    np.testing.assert_allclose(G[np.ix_(rows, cols)], dp_gram(X[rows], X[cols], P),
                               rtol=TOL, atol=1e-15)


@pytest.fixture(scope="module")
def shipped_paths() -> EncodedStructures:
    """The shipped event model's KLSH reference paths (real dependency paths, always here)."""
    from relx.ge.extract import resolve_event_model

    return resolve_event_model(None).edges.klsh.reference_.parts["path"]


@pytest.mark.parametrize("lam, edge_mismatch", [(0.5, 0.0), (0.8, 1.0)])
def test_vectorised_fill_equals_tuple_kernel_on_real_paths(shipped_paths, lam,
                                                           edge_mismatch) -> None:
    """Without sigma / node_sim, ``_fill`` computes the tuple kernel as selects: the same
    bits as :func:`_tuple_k` (what ``sigma`` = ones runs) and the pure-Python formula,
    and so the same Gram."""
    from lab.kernel_reference import tuple_kernel
    from relx.kernels.path import _cols, _fill

    X = shipped_paths
    plain = PathKernelParams(lam=lam, edge_mismatch=edge_mismatch)
    ones = PathKernelParams(lam=lam, edge_mismatch=edge_mismatch,
                            sigma=np.ones(int(X.edges.max()) + 1))
    cols, nmax = _cols(X), int(np.diff(X.offsets).max())
    kk_plain, kk_ones = np.empty(nmax * nmax), np.empty(nmax * nmax)
    for i in range(0, len(X), 7):
        for j in range(0, len(X), 5):
            n, m = len(structure_tuples(X, i)), len(structure_tuples(X, j))
            nz_plain = _fill(*cols, i, *cols, j, plain.w_lemma, plain.w_pos, edge_mismatch,
                             np.zeros(0), np.zeros((0, 0)), kk_plain)
            nz_ones = _fill(*cols, i, *cols, j, plain.w_lemma, plain.w_pos, edge_mismatch,
                            ones.sigma, np.zeros((0, 0)), kk_ones)
            assert nz_plain == nz_ones
            assert kk_plain[:n * m].tobytes() == kk_ones[:n * m].tobytes()
            want = [tuple_kernel(a, b, plain) for a in structure_tuples(X, i)
                    for b in structure_tuples(X, j)]
            assert kk_plain[:n * m].tolist() == want
    assert path_gram(X, X, plain).tobytes() == path_gram(X, X, ones).tobytes()
