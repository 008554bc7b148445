"""Tree kernel: compiled DP == brute-force formula; symmetry, PSD, normalisation; subtrees."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.kernel_reference import tuple_kernel
from relx.kernels.path import PathKernelParams
from relx.kernels.tree import TreeKernelParams, tree_gram, tree_kernel, tree_self_kernels
from relx.structures import EncodedTrees, StructureEncoder, Subtree, tree_topology
from tests.conftest import corpus_file

TOL = 1e-9
IntTuple = tuple[int, int, int, int]
Tree = tuple[list[int], list[IntTuple]]  # (parents in breadth-first order, node tuples)


def canonical(parents: list[int], nodes: list[IntTuple]) -> Tree:
    """Any parent list (parent index < child index) -> breadth-first order, children by index."""
    kids: dict[int, list[int]] = {}
    for c, p in enumerate(parents[1:], start=1):
        kids.setdefault(p, []).append(c)
    order, par = [0], [-1]
    k = 0
    while k < len(order):
        for c in kids.get(order[k], []):
            order.append(c)
            par.append(k)
        k += 1
    return par, [nodes[i] for i in order]


def encode(trees: list[Tree]) -> EncodedTrees:
    offsets = np.zeros(len(trees) + 1, np.int64)
    offsets[1:] = np.cumsum([len(t[1]) for t in trees])
    flat = np.array([x for t in trees for x in t[1]], np.int32).reshape(-1, 4)
    tops = [tree_topology(t[0]) for t in trees]
    cat = [np.concatenate([x[k] for x in tops]) if tops else np.zeros(0, np.int32) for k in (0, 1)]
    return EncodedTrees(offsets, *(np.ascontiguousarray(flat[:, k]) for k in range(4)), *cat)


def brute_force(S: Tree, T: Tree, params: TreeKernelParams) -> float:
    """The formula itself: K = k(r, r') (k(r, r') + sum over equal-length child subsequence
    pairs of lam^(d(i) + d(j)) * sum_s K(child pair s) * prod_s k(child roots s))."""
    pp = PathKernelParams(lam=params.lam, w_lemma=params.w_lemma, w_pos=params.w_pos,
                          edge_mismatch=params.edge_mismatch, sigma=params.sigma,
                          node_sim=params.node_sim)
    kids_s = [[c for c, p in enumerate(S[0]) if p == u] for u in range(len(S[1]))]
    kids_t = [[c for c, p in enumerate(T[0]) if p == v] for v in range(len(T[1]))]

    def K(u: int, v: int) -> float:
        x = tuple_kernel(S[1][u], T[1][v], pp)
        if x == 0.0:
            return 0.0
        a, b = kids_s[u], kids_t[v]
        kc = 0.0
        for q in range(1, min(len(a), len(b)) + 1):
            for i in combinations(range(len(a)), q):
                for j in combinations(range(len(b)), q):
                    prod = 1.0
                    for s, t in zip(i, j, strict=True):
                        prod *= tuple_kernel(S[1][a[s]], T[1][b[t]], pp)
                    if prod == 0.0:
                        continue
                    ksum = sum(K(a[s], b[t]) for s, t in zip(i, j, strict=True))
                    kc += params.lam ** (i[-1] - i[0] + 1 + j[-1] - j[0] + 1) * ksum * prod
        return x * (x + kc)

    return K(0, 0) if S[1] and T[1] else 0.0


tuple_st = st.tuples(st.integers(0, 2), st.integers(0, 4), st.integers(0, 2), st.integers(0, 1))


@st.composite
def tree_st(draw, max_nodes: int = 7) -> Tree:
    n = draw(st.integers(1, max_nodes))
    parents = [-1] + [draw(st.integers(0, k - 1)) for k in range(1, n)]
    nodes = draw(st.lists(tuple_st, min_size=n, max_size=n))
    return canonical(parents, nodes)


params_st = st.builds(
    TreeKernelParams,
    lam=st.floats(0.1, 1.0),
    w_lemma=st.floats(0.0, 1.0),
    w_pos=st.floats(0.0, 1.0),
    edge_mismatch=st.sampled_from([0.0, 0.3, 1.0]),
    sigma=st.one_of(st.none(), st.lists(st.floats(0.0, 2.0), min_size=1, max_size=3).map(np.array)),
    node_sim=st.one_of(st.none(), st.lists(st.floats(0.0, 1.0), min_size=9, max_size=9)
                       .map(lambda v: (lambda m: (m + m.T) / 2)(np.array(v).reshape(3, 3)))),
)


def close(a: float, b: float) -> bool:
    return abs(a - b) <= TOL * max(1.0, abs(b))


def random_trees(rng: np.random.Generator, n: int, max_nodes: int = 8, n_edges: int = 3,
                 n_words: int = 6) -> EncodedTrees:
    """Random trees over a hierarchical vocabulary (word -> lemma -> pos)."""
    trees = []
    for _ in range(n):
        size = int(rng.integers(1, max_nodes + 1))
        parents = [-1] + [int(rng.integers(0, k)) for k in range(1, size)]
        nodes = []
        for k in range(size):
            w = int(rng.integers(0, n_words))
            nodes.append((0 if k == 0 else int(rng.integers(1, n_edges)), w, w // 2, w // 4))
        trees.append(canonical(parents, nodes))
    return encode(trees)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(S=tree_st(), T=tree_st(), params=params_st)
def test_compiled_matches_brute_force(S, T, params) -> None:
    X = encode([S, T])
    expected = brute_force(S, T, params)
    assert close(tree_kernel(X, 0, X, 1, params), expected)
    assert close(tree_kernel(X, 1, X, 0, params), expected)  # symmetry
    assert close(tree_kernel(X, 0, X, 0, params), brute_force(S, S, params))


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(S=tree_st(max_nodes=10), T=tree_st(max_nodes=10))
def test_bushy_trees_match_brute_force(S, T) -> None:
    P = TreeKernelParams(lam=0.7, edge_mismatch=1.0)
    assert close(tree_kernel(encode([S, T]), 0, encode([S, T]), 1, P), brute_force(S, T, P))


def test_hand_computed_value() -> None:
    leaf = ([-1], [(0, 1, 1, 1)])
    two = ([-1, 0], [(0, 1, 1, 1), (1, 2, 2, 2)])
    cherry = ([-1, 0, 0], [(0, 1, 1, 1), (1, 2, 2, 2), (1, 2, 2, 2)])
    X = encode([leaf, two, cherry])
    P = TreeKernelParams(lam=0.5)
    assert tree_kernel(X, 0, X, 0, P) == pytest.approx(1.0)  # k(r, r)^2
    assert tree_kernel(X, 0, X, 1, P) == pytest.approx(1.0)  # roots only
    # one child pair: K_c = lam^2 * K(child) * k(child) = 0.25
    assert tree_kernel(X, 1, X, 1, P) == pytest.approx(1.25)
    # two vs one child: two length-1 pairs, lam^2 each -> K_c = 0.5
    assert tree_kernel(X, 1, X, 2, P) == pytest.approx(1.5)
    # cherry vs cherry: 4 single pairs (lam^2) + one pair of length 2 (lam^4, K sum 2)
    assert tree_kernel(X, 2, X, 2, P) == pytest.approx(1 + 4 * 0.25 + 2 * 0.5**4)
    # sigma = 0 on the children's edge label leaves the roots only
    assert tree_kernel(X, 2, X, 2, TreeKernelParams(sigma=np.array([1.0, 0.0]))) == 1.0
    assert tree_kernel(X, 0, X, 0, TreeKernelParams(sigma=np.array([0.0]))) == 0.0


@pytest.mark.slow
def test_gram_consistency() -> None:
    rng = np.random.default_rng(1)
    A = random_trees(rng, 25)
    P = TreeKernelParams(lam=0.6, edge_mismatch=0.2, sigma=np.array([1.0, 0.5]))
    single = np.array([[tree_kernel(A, i, A, j, P) for j in range(len(A))] for i in range(len(A))])
    np.testing.assert_allclose(single, single.T, rtol=TOL)
    np.testing.assert_allclose(tree_gram(A, params=P, normalize=False), single, rtol=TOL)
    np.testing.assert_allclose(tree_gram(A, A, params=P, normalize=False, n_jobs=1), single,
                               rtol=TOL)
    d = tree_self_kernels(A, P)
    np.testing.assert_allclose(d, np.diag(single), rtol=TOL)
    expected = single / np.sqrt(np.outer(d, d))
    N_sym, N_ab = tree_gram(A, params=P), tree_gram(A, A, params=P)
    np.testing.assert_allclose(N_sym, expected, rtol=TOL)
    np.testing.assert_allclose(N_ab, expected, rtol=TOL)
    np.testing.assert_allclose(tree_gram(A[:7], A[7:], P, diag_a=d[:7], diag_b=d[7:]),
                               expected[:7, 7:], rtol=TOL)
    # a subset keeps each tree intact
    sub = A[[3, 0, 9]]
    assert isinstance(sub, EncodedTrees)
    np.testing.assert_allclose(tree_gram(sub, params=P, normalize=False),
                               single[np.ix_([3, 0, 9], [3, 0, 9])], rtol=TOL)


@pytest.mark.slow
@pytest.mark.parametrize("with_sim", [False, True])
def test_normalised_gram_psd_and_bounded(with_sim: bool) -> None:
    rng = np.random.default_rng(7)
    n_words = 8
    A = random_trees(rng, 30, max_nodes=10, n_words=n_words)
    sim = None
    if with_sim:  # back-off + 0.5 U U^T, U >= 0: PSD and dominating the back-off
        w = np.arange(n_words)
        back = np.where(w[:, None] == w, 1.0, np.where(w[:, None] // 2 == w // 2, 0.5,
                                                       np.where(w[:, None] // 4 == w // 4, 0.1, 0.0)))
        U = np.abs(rng.normal(size=(n_words, 4)))
        U /= np.linalg.norm(U, axis=1, keepdims=True)
        sim = back + 0.5 * U @ U.T
    P = TreeKernelParams(lam=0.5, w_lemma=0.5, w_pos=0.1, edge_mismatch=0.3,
                         sigma=np.array([1.0, 0.7, 1.3]), node_sim=sim)
    G = tree_gram(A, params=P)
    np.testing.assert_array_equal(np.diag(G), 1.0)
    np.testing.assert_allclose(G, G.T, rtol=0, atol=1e-15)
    assert G.min() >= 0.0 and G.max() <= 1.0 + 1e-12
    assert np.linalg.eigvalsh(G).min() >= -1e-8
    U = tree_gram(A, params=P, normalize=False)
    assert np.linalg.eigvalsh(U / np.abs(U).max()).min() >= -1e-8


def test_edge_cases() -> None:
    X = encode([([-1], [(0, 1, 1, 1)]), ([-1, 0], [(0, 2, 2, 2), (1, 1, 1, 1)])])
    P = TreeKernelParams()
    assert tree_kernel(X, 0, X, 1, P) == 0.0  # roots differ in word, lemma and POS
    G = tree_gram(X, params=P)
    np.testing.assert_array_equal(G, np.eye(2))
    assert tree_gram(X[:0], X, P).shape == (0, 2)
    assert tree_gram(X[:0], params=P).shape == (0, 0)
    with pytest.raises(ValueError):
        tree_gram(X, params=TreeKernelParams(lam=0.0))
    with pytest.raises(IndexError):
        tree_kernel(X, 2, X, 0, P)
    with pytest.raises(TypeError):
        tree_gram(StructureEncoder().encode([[("a", "b", "c", "d")]]), params=P)
    with pytest.raises(ValueError):
        tree_topology([-1, 0, 2])  # not breadth-first


def test_encoder_topology_round_trip() -> None:
    t = Subtree([("<none>", "binds", "bind", "VBZ"), ("nsubj>", "PROT1", "PROT1", "PROT"),
                 ("dobj>", "PROT2", "PROT2", "PROT"), ("det>", "the", "the", "DT")],
                [-1, 0, 0, 2], [1, 0, 3, 2])
    X = StructureEncoder().encode_trees([t, t])
    assert len(X) == 2 and X.parents(1) == [-1, 0, 0, 2]
    np.testing.assert_array_equal(X.child_start[:4], [1, 3, 3, 4])
    np.testing.assert_array_equal(X.n_children[:4], [2, 0, 1, 0])
    assert t.children(0) == [1, 2]


# --- subtrees of real parses ---------------------------------------------------------------

def _aimed_sentence(text_start: str):
    from relx.io import read_ppi_xml

    for doc in read_ppi_xml(corpus_file("AIMed")):
        for s in doc.sentences:
            if s.text.startswith(text_start):
                return s
    pytest.fail(f"AIMed sentence {text_start!r} not found")


def test_aimed_subtree_contents() -> None:
    from relx.structures import dependency_graph, dependency_subtree, shortest_path

    s = _aimed_sentence("LEC induces chemotaxis and adhesion by interacting with CCR1 and CCR8.")
    lec, ccr1, ccr8 = (s.entity(f"{s.id}.e{k}") for k in range(3))
    g = dependency_graph(s)
    # LEC-CCR1: the heads' chains up to their lowest common ancestor "induces"
    t = dependency_subtree(s, lec, ccr1, g)
    assert t.nodes == [("<none>", "induces", "induce", "VBZ"), ("nsubj>", "PROT1", "PROT1", "PROT"),
                       ("prepc_by>", "interacting", "interact", "VBG"),
                       ("prep_with>", "PROT2", "PROT2", "PROT")]
    assert t.parents == [-1, 0, 0, 2] and t.tokens == [1, 0, 6, 8]
    # the same tokens as the shortest path, re-rooted at the common ancestor
    assert sorted(x[1:] for x in t.nodes) == sorted(x[1:] for x in shortest_path(s, lec, ccr1, g))
    # the entity heads' direct dependents: CCR1's conjunct CCR8, blinded as PROT
    t = dependency_subtree(s, lec, ccr1, g, children="entities")
    assert t.nodes[4] == ("conj_and>", "PROT", "PROT", "PROT") and t.parents[4] == 3
    # every chain node's dependents: the verb's objects, in sentence order before the prepc
    t = dependency_subtree(s, lec, ccr1, g, children="all")
    assert [x[1] for x in t.nodes] == ["induces", "PROT1", "chemotaxis", "adhesion",
                                       "interacting", "PROT2", "PROT"]
    assert t.parents == [-1, 0, 0, 0, 0, 4, 4]
    # CCR1-CCR8: CCR1 governs CCR8 (conj_and), so the tree is rooted at PROT1
    t = dependency_subtree(s, ccr1, ccr8, g)
    assert t.nodes == [("<none>", "PROT1", "PROT1", "PROT"), ("conj_and>", "PROT2", "PROT2", "PROT")]


def test_aimed_subtrees_extract_and_kernel() -> None:
    from relx.io import read_ppi_xml
    from relx.represent.instances import pair_instances
    from relx.represent.trees import TreeStructureExtractor

    inst = []
    for doc in read_ppi_xml(corpus_file("AIMed")):
        inst += pair_instances([doc])
        if len(inst) >= 300:
            break
    ext = TreeStructureExtractor(structures=("path", "subtree"), subtree_children="entities")
    X = ext.fit_transform(inst)
    T, Pth = X.parts["subtree"], X.parts["path"]
    assert isinstance(T, EncodedTrees) and len(T) == len(Pth) == len(inst)
    assert (np.diff(T.offsets) >= np.diff(Pth.offsets)).all()  # paths plus dependents
    # pairs are unordered: swapping the arguments gives the same trees
    swapped = [type(x)(x.document_id, x.sentence, x.relation.model_copy(
        update={"arg1": x.relation.arg2, "arg2": x.relation.arg1})) for x in inst]
    np.testing.assert_array_equal(ext.transform(swapped).parts["subtree"].words, T.words)
    P = TreeKernelParams(lam=0.5)
    G = tree_gram(T, params=P)
    assert np.linalg.eigvalsh(G).min() >= -1e-8
    np.testing.assert_allclose(np.diag(G), 1.0)
    rows, cols = np.arange(0, 300, 30), np.arange(7, 300, 30)
    trees = [(T.parents(i), [tuple(int(c[k]) for c in (T.edges, T.words, T.lemmas, T.pos))
                             for k in range(T.offsets[i], T.offsets[i + 1])])
             for i in range(len(T))]
    bf = np.array([[brute_force(trees[i], trees[j], P) for j in cols] for i in rows])
    np.testing.assert_allclose(tree_gram(T[rows], T[cols], P, normalize=False), bf, rtol=TOL)


def test_tree_pipeline_from_config(tmp_path, mini_xml) -> None:
    from relx.io import read_ppi_xml
    from relx.registry import build_pipeline
    from relx.represent.instances import labels, pair_instances

    inst = pair_instances(read_ppi_xml(mini_xml))
    cfg = {
        "pipeline": {"steps": ["structures", "klsh", "classifier"]},
        "structures": {"component": "tree_structure_extractor",
                       "structures": ["subtree", "sequence"], "subtree_children": "entities"},
        "tree": {"component": "tree_kernel", "lam": 0.5},
        "seq": {"component": "path_kernel", "structure": "sequence"},
        "kernel": {"component": "sum_kernel", "kernels": ["tree", "seq"]},
        "klsh": {"component": "klsh", "kernel": "kernel", "n_reference": 4, "n_bits": 16,
                 "alpha": 1},
        "classifier": {"component": "random_subspace_forest", "n_estimators": 5,
                       "max_features": 4},
    }
    pipe = build_pipeline(cfg, random_state=0)
    y = labels(inst)
    pipe.fit(inst, y)
    assert pipe.predict_proba(inst).shape == (len(inst), 2)
    X = pipe.steps[0][1].transform(inst)
    assert isinstance(X.parts["subtree"], EncodedTrees) and list(X.parts) == ["subtree", "sequence"]
    G = pipe.steps[1][1].kernel.gram(X)
    np.testing.assert_allclose(np.diag(G), 1.0)
    # the SVM baseline takes the same kernel section unchanged
    svm = build_pipeline({**cfg, "pipeline": {"steps": ["structures", "svm"]},
                          "svm": {"component": "kernel_svm", "kernel": "tree"}})
    svm.fit(inst, y)
    assert svm.predict(inst).shape == (len(inst),)
    # a tree-kernel model saves and loads without pickle (model.TRUSTED_TYPES), same scores
    from relx.ppi.model import RelationModel, load_model

    RelationModel(pipe, cfg, {"name": "tree"}).save(tmp_path / "m")
    np.testing.assert_allclose(load_model(tmp_path / "m").scores(inst),
                               pipe.predict_proba(inst)[:, 1])
