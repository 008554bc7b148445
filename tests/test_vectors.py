"""EigenWord / SVD-NS vectors (relx.vectors) and the path kernel's vector token kernels."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
import scipy.sparse as sp

from relx.kernels.structure import PathKernel
from relx.represent.instances import StructureSet
from relx.structures import StructureEncoder
from relx.vectors import (
    FORMAT,
    VectorsFormatError,
    WordVectors,
    blind_tokens,
    build_vocabulary,
    cooccurrence,
    eigenword,
    load_vectors,
    node_similarity,
    similarity_matrix,
    thresholded_pmi,
    token_kernel,
    train_vectors,
    vocabulary_vectors,
)
from tests.conftest import FIXTURES, ROOT

SHIPPED = ROOT / "runs" / "vectors" / "eigenwords.npz"  # relx train-vectors (not shipped)

TINY = [s.split() for s in (
    "PROT binds PROT in vivo",
    "PROT interacts with PROT in cells",
    "PROT binds the promoter of PROT",
    "PROT interacts with the promoter",
    "patients were treated with PROT",
    "patients with hepatitis were treated",
    "the promoter binds PROT in cells",
    "PROT associates with PROT in vivo",
    "hepatitis patients were treated in vivo",
    "PROT phosphorylates PROT in cells",
    "PROT binds and phosphorylates PROT",
    "the patients were treated",
)]


def dense_reference(sentences, window, alpha, dim):
    """Counts, thresholded PMI and top-dim eigenpairs the slow, obvious way."""
    vocab = build_vocabulary(sentences, 1)
    ix = {w: i for i, w in enumerate(vocab)}
    x = np.zeros((len(vocab), len(vocab)))
    for s in sentences:
        for i in range(len(s)):
            for j in range(i + 1, min(len(s), i + window + 1)):
                x[ix[s[i]], ix[s[j]]] += 1
                x[ix[s[j]], ix[s[i]]] += 1
    total, r = x.sum(), x.sum(axis=1)
    with np.errstate(divide="ignore"):
        pmi = np.log2(x * total / np.outer(r, r))
    m = np.where((x > 0) & (pmi > alpha), pmi, 0.0)
    vals, vecs = np.linalg.eigh(m)
    order = np.argsort(-vals)[:dim]
    return vocab, x, m, vals[order], vecs[:, order]


@pytest.mark.parametrize("window,alpha,negative", [(2, -2.5, True), (3, 0.0, False),
                                                   (4, -1.0, True), (1, -10.0, False)])
def test_counts_pmi_and_eigenvectors_match_dense(window, alpha, negative):
    dim = 4
    vocab, x, m, vals, vecs = dense_reference(TINY, window, alpha, dim)
    assert vocab == build_vocabulary(TINY, 1)
    xs = cooccurrence(TINY, vocab, window)
    assert np.array_equal(xs.toarray(), x) and (xs != xs.T).nnz == 0
    ms = thresholded_pmi(xs, alpha)
    np.testing.assert_allclose(ms.toarray(), m, atol=1e-12)
    assert (ms.data < 0).any() == negative  # negative examples: kept above alpha
    assert (ms.data > alpha).all()
    if alpha == -1.0:  # observed pairs at or below alpha are dropped
        assert ms.nnz < xs.nnz
    got_vals, got_vecs = eigenword(ms, dim, seed=1)
    np.testing.assert_allclose(got_vals, vals, rtol=1e-8, atol=1e-8)
    # eigenvectors up to sign: the spectral projectors agree
    np.testing.assert_allclose(got_vecs @ got_vecs.T, vecs @ vecs.T, atol=1e-7)
    # train_vectors = row-normalised eigenvectors (cosines are sign-invariant)
    wv = train_vectors(TINY, dim=dim, window=window, alpha=alpha, min_count=1)
    ref = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    keep = [vocab.index(w) for w in wv.words]
    np.testing.assert_allclose(wv.matrix @ wv.matrix.T, (ref @ ref.T)[np.ix_(keep, keep)],
                               atol=1e-5)


def test_algebraically_largest_not_largest_magnitude():
    m = sp.csr_matrix(np.diag([5.0, -9.0, 3.0, -7.0, 1.0]))
    vals, vecs = eigenword(m, 2)
    np.testing.assert_allclose(vals, [5.0, 3.0])
    assert set(np.flatnonzero(np.abs(vecs).sum(axis=1) > 0.5)) == {0, 2}


def test_vectors_unit_norm_vocabulary_and_settings():
    wv = train_vectors(TINY, dim=3, window=2, min_count=2)
    assert np.allclose(np.linalg.norm(wv.matrix, axis=1), 1.0, atol=1e-6)
    counts = Counter(w for s in TINY for w in s)
    assert set(wv.words) <= {w for w, c in counts.items() if c >= 2}
    assert "vivo" in wv and "phosphorylates" in wv and "binds" in wv
    assert "associates" not in wv  # seen once
    assert wv.settings["dim"] == 3 and wv.settings["alpha"] == -2.5
    with pytest.raises(ValueError, match="too small"):
        train_vectors(TINY, dim=100)


def test_lsk_smoothing_option():
    plain = train_vectors(TINY, dim=3, window=2, min_count=1)
    smooth = train_vectors(TINY, dim=3, window=2, min_count=1, lsk_rank=3, lsk_weight=0.5)
    assert smooth.settings["lsk_rank"] == 3 and plain.settings["lsk_rank"] == 0
    assert np.allclose(np.linalg.norm(smooth.matrix, axis=1), 1.0, atol=1e-6)
    assert not np.allclose(smooth.matrix, plain.matrix)
    again = train_vectors(TINY, dim=3, window=2, min_count=1, lsk_rank=3, lsk_weight=0.5)
    np.testing.assert_array_equal(again.matrix, smooth.matrix)  # seeded


def test_save_load_roundtrip_and_format_checks(tmp_path):
    wv = train_vectors(TINY, dim=3, window=2, min_count=1)
    for dtype, tol in (("float32", 1e-7), ("float16", 2e-3)):
        path = wv.save(tmp_path / f"v-{dtype}.npz", dtype=dtype)
        back = load_vectors(path)
        assert back.words == wv.words and back.settings == wv.settings
        assert np.abs(back.matrix - wv.matrix).max() < tol
        assert np.allclose(np.linalg.norm(back.matrix, axis=1), 1.0, atol=1e-6)
        with np.load(path, allow_pickle=False) as z:  # no object arrays anywhere
            assert all(z[k].dtype != object for k in z.files)
    good = dict(np.load(tmp_path / "v-float32.npz", allow_pickle=False))
    np.savez(tmp_path / "newer.npz", **{**good, "format_version": np.array(99)})
    with pytest.raises(VectorsFormatError, match="format version 99"):
        load_vectors(tmp_path / "newer.npz")
    np.savez(tmp_path / "other.npz", matrix=good["matrix"])
    with pytest.raises(VectorsFormatError, match="not a relx word-vectors file"):
        load_vectors(tmp_path / "other.npz")
    np.savez(tmp_path / "pickled.npz", **{**good, "words": np.array(wv.words, dtype=object)})
    with pytest.raises(VectorsFormatError, match="cannot read"):
        load_vectors(tmp_path / "pickled.npz")
    with pytest.raises(VectorsFormatError):
        load_vectors(tmp_path / "missing.npz")


@pytest.mark.slow
def test_blinding_on_fixture_corpora():
    from relx.io.registry import read
    from relx.vectors import _doc_sentences

    assert blind_tokens([("IL", 0, 2), ("-", 2, 3), ("2", 3, 4), ("Binds", 5, 10),
                         ("\n", 10, 11), ("p53", 11, 14)], [(0, 4), (11, 14)]) == \
        ["PROT", "binds", "PROT"]
    ppi = [s for d in read(FIXTURES / "ppi-mini.xml") for s in _doc_sentences(d)]
    assert ppi[0] == ["PROT", "binds", "PROT", "in", "vivo", "."]
    ge = [s for d in read(FIXTURES / "ge-1.txt", format="standoff") for s in _doc_sentences(d)]
    assert ge[0][:5] == ["interaction", "of", "PROT", "with", "PROT"]
    assert "traf2" not in {w for s in ge for w in s} and len(ge) == 2


@pytest.mark.parametrize("kind", ["gaussian", "sigmoid", "cosine_sharp"])
def test_token_kernel_formulas_and_symmetry(kind):
    rng = np.random.default_rng(0)
    a = rng.normal(size=(7, 5))
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b = rng.normal(size=(4, 5))
    p, s = 3.0, 0.7
    k = token_kernel(a, b, kind, p=p, s=s)
    for i in range(len(a)):
        for j in range(len(b)):
            if kind == "gaussian":
                want = np.exp(-np.sum((a[i] - b[j]) ** 2) / (2 * s * s))
            elif kind == "sigmoid":
                want = (1 + np.tanh(a[i] @ b[j])) / 2
            else:
                cos = a[i] @ b[j] / np.linalg.norm(a[i]) / np.linalg.norm(b[j])
                want = ((1 + cos) / 2) ** p
            assert k[i, j] == pytest.approx(want, rel=1e-9, abs=1e-12)
    kk = token_kernel(a, None, kind, p=p, s=s)
    np.testing.assert_allclose(kk, kk.T, atol=1e-12)
    assert (kk >= 0).all() and (kk <= 1 + 1e-12).all()
    if kind != "sigmoid":
        np.testing.assert_allclose(np.diag(kk), 1.0)


def test_token_kernel_errors_and_zero_vectors():
    z = np.zeros((1, 3))
    assert token_kernel(z, np.ones((1, 3)), "cosine_sharp", p=2)[0, 0] == 0.0
    with pytest.raises(ValueError, match="token_kernel must be one of"):
        token_kernel(z, z, "linear")
    with pytest.raises(ValueError, match="token_kernel_s"):
        token_kernel(z, z, "gaussian", s=0)


def small_vectors() -> WordVectors:
    """Hand-made unit vectors: binds ~ interacts ~ associates, patients far from them."""
    words = ["binds", "interacts", "associates", "patients", "PROT", "the"]
    m = np.array([[1.0, 0.2, 0.0], [0.9, 0.4, 0.0], [0.8, 0.5, 0.2], [0.0, 0.1, 1.0],
                  [0.3, 0.3, 0.3], [0.1, -1.0, 0.0]])
    return WordVectors(words, (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32))


@pytest.mark.parametrize("kind,p,psd", [("gaussian", 4.0, True), ("cosine_sharp", 4.0, True),
                                        ("cosine_sharp", 1.0, True), ("sigmoid", 4.0, False)])
def test_node_similarity(kind, p, psd):
    wv = small_vectors()
    words = ["<none>", "PROT1", "binds", "interacts", "patients", "unseenword", "PROT",
             "associates", "PROT2", "PROT1+PROT2"]
    sim = node_similarity(wv, words, kind, p=p, s=0.5)
    assert sim.shape == (len(words), len(words))
    np.testing.assert_array_equal(sim, sim.T)
    no_vec = [0, 1, 5, 6, 8, 9]  # <none>, blinded labels (even PROT, which has a vector), unseen
    for i in no_vec:
        assert sim[i, i] == 1.0
        assert not np.delete(sim[i], i).any() and not np.delete(sim[:, i], i).any()
    assert sim[2, 3] > sim[2, 4] and sim[3, 7] > sim[3, 4]
    assert sim[2, 3] == pytest.approx(token_kernel(wv.vector("binds")[None],
                                                   wv.vector("interacts")[None], kind,
                                                   p=p, s=0.5)[0, 0], rel=1e-6)
    if psd:  # Gaussian / integer-power sharpened cosine Gram plus an identity block
        assert np.linalg.eigvalsh(sim).min() > -1e-10
    vv = vocabulary_vectors(wv, words)
    assert not vv[no_vec].any() and np.allclose(np.linalg.norm(vv[[2, 3, 4, 7]], axis=1), 1)
    np.testing.assert_array_equal(similarity_matrix(vv, kind, p, 0.5), sim)


def vec_file(tmp_path):
    return str(small_vectors().save(tmp_path / "v.npz", dtype="float32"))


def path_structures():
    e = StructureEncoder()
    paths = [
        [("<none>", "PROT1", "PROT1", "PROT"), ("<nsubj", "binds", "bind", "VBZ"),
         ("dobj>", "PROT2", "PROT2", "PROT")],
        [("<none>", "PROT1", "PROT1", "PROT"), ("<nsubj", "interacts", "interact", "VBZ"),
         ("prep_with>", "PROT2", "PROT2", "PROT")],
        [("<none>", "PROT1", "PROT1", "PROT"), ("<nsubj", "patients", "patient", "NNS"),
         ("dobj>", "PROT2", "PROT2", "PROT")],
        [("<none>", "PROT1", "PROT1", "PROT"), ("<nsubj", "the", "the", "DT"),
         ("dobj>", "PROT2", "PROT2", "PROT")],
    ]
    return e, e.encode(paths)


def test_path_gram_with_vectors(tmp_path):
    enc, X = path_structures()
    plain = PathKernel(lam=0.8, edge_mismatch=1.0, n_jobs=1)
    vec = PathKernel(lam=0.8, edge_mismatch=1.0, n_jobs=1, vectors=vec_file(tmp_path),
                     token_kernel="cosine_sharp", token_kernel_p=4)
    with pytest.raises(ValueError, match="bound to no word vocabulary"):
        vec.gram(X)
    vec.bind_words(enc.words.itos)
    g0, g1 = plain.gram(X), vec.gram(X)
    np.testing.assert_allclose(g1, g1.T, atol=1e-12)
    np.testing.assert_allclose(np.diag(g1), 1.0)
    assert not np.allclose(g0, g1)
    assert g1[0, 1] > g0[0, 1] and g1[0, 1] > g1[0, 2]  # binds ~ interacts, not ~ patients
    assert np.linalg.eigvalsh(g1).min() > -1e-9
    # both hooks at once is an error
    with pytest.raises(ValueError, match="not both"):
        PathKernel(vectors=vec.vectors, node_sim=np.eye(3)).bind_words(enc.words.itos).gram(X)


def test_unseen_words_fall_back_and_growth_rebinds(tmp_path):
    enc, X = path_structures()
    vec = PathKernel(lam=0.8, edge_mismatch=1.0, n_jobs=1, vectors=vec_file(tmp_path))
    plain = PathKernel(lam=0.8, edge_mismatch=1.0, n_jobs=1)
    vec.bind_words(enc.words.itos)
    new = [[("<none>", "PROT1", "PROT1", "PROT"), ("<nsubj", "associates", "associate", "VBZ"),
            ("prep_with>", "PROT2", "PROT2", "PROT")]]
    Y = enc.encode(new, grow=False)  # "associates": a call-local id past the vocabulary
    assert Y.words[1] >= len(enc.words)
    np.testing.assert_allclose(vec.gram(Y, X), plain.gram(Y, X), atol=1e-12)
    # structures carrying their encoder: the kernel rebinds when the vocabulary grew
    Z = StructureSet({"path": enc.encode(new, grow=True)})
    Z.encoder = enc
    W = StructureSet({"path": X})
    W.encoder = enc
    g = vec.gram(Z, W)
    assert vec.words_ == enc.words.itos and len(vec.word_vectors_) == len(enc.words)
    assert g[0, 1] > plain.gram(Z, W)[0, 1]  # associates ~ interacts now counts


def test_kernel_state_roundtrips_through_skops(tmp_path):
    import skops.io as sio

    enc, X = path_structures()
    vec = PathKernel(lam=0.8, edge_mismatch=1.0, n_jobs=1, vectors=vec_file(tmp_path),
                     token_kernel="gaussian", token_kernel_s=0.5).bind_words(enc.words.itos)
    g = vec.gram(X)
    assert "_sim_cache" in vec.__dict__ and "_sim_cache" not in vec.__getstate__()
    data = sio.dumps(vec)
    assert set(sio.get_untrusted_types(data=data)) == {"relx.kernels.structure.PathKernel"}
    back = sio.loads(data, trusted=["relx.kernels.structure.PathKernel"])
    (tmp_path / "v.npz").unlink()  # a loaded kernel needs no vectors file
    np.testing.assert_allclose(back.gram(X), g, atol=1e-12)


def mini_pipeline(tmp_path, mini_xml):
    """A small KLSH-RF config whose two path kernels use vectors trained on the mini corpus."""
    from relx.io import read_ppi_xml
    from relx.registry import load_config
    from relx.represent.instances import labels, pair_instances

    base = list(read_ppi_xml(mini_xml))
    docs = [d.model_copy(update={"id": f"{d.id}.{k}"}) for k in range(4) for d in base]
    inst = pair_instances(docs)
    sents = [t.text.lower() for d in docs for s in d.sentences for t in s.tokens]
    vectors = train_vectors([sents[i:i + 8] for i in range(0, len(sents), 4)], dim=4,
                            window=2, min_count=1)
    vpath = vectors.save(tmp_path / "ew.npz")
    cfg = load_config(ROOT / "configs" / "ppi-klsh-rf.toml")
    for sec in ("path_kernel", "sequence_kernel"):
        cfg[sec].update(vectors=str(vpath), token_kernel="cosine_sharp", token_kernel_p=2)
    cfg["klsh"].update(n_reference=10, n_bits=64)
    cfg["classifier"].update(n_estimators=20, max_features=8, n_jobs=1)
    return cfg, inst, labels(inst), vpath


def save_load_same_scores(tmp_path, pipe, cfg, inst, vpath):
    from relx.ppi.model import RelationModel, load_model

    scores = pipe.predict_proba(inst)[:, 1]
    RelationModel(pipe, cfg, {"name": "vec"}).save(tmp_path / "m")
    vpath.unlink()  # the saved kernels hold their words' vectors
    np.testing.assert_allclose(load_model(tmp_path / "m").scores(inst), scores)


def test_pipeline_fit_save_load_predict(tmp_path, mini_xml):
    """KLSH-RF with vector token kernels: fit, save with skops (model.TRUSTED_TYPES), load,
    same scores; the kernels are bound to the extractor's vocabulary by hand."""
    from relx.registry import build_pipeline

    cfg, inst, y, vpath = mini_pipeline(tmp_path, mini_xml)
    pipe = build_pipeline(cfg, random_state=0)
    X = pipe[0].fit_transform(inst)
    for k in pipe[1].kernel.kernels:
        k.bind_words(pipe[0].encoder_.words.itos)
        assert np.count_nonzero(k.word_vectors_.any(axis=1)) >= 5
    pipe[1:].fit(X, y)
    save_load_same_scores(tmp_path, pipe, cfg, inst, vpath)


@pytest.mark.skipif("encoder" not in StructureSet.__dataclass_fields__,
                    reason="needs StructureSet.encoder (the extractor passing its encoder on)")
def test_pipeline_binds_its_kernels_itself(tmp_path, mini_xml):
    from relx.registry import build_pipeline

    cfg, inst, y, vpath = mini_pipeline(tmp_path, mini_xml)
    pipe = build_pipeline(cfg, random_state=0).fit(inst, y)
    for k in pipe[1].kernel.kernels:
        assert k.words_ == pipe[0].encoder_.words.itos
    save_load_same_scores(tmp_path, pipe, cfg, inst, vpath)


def shipped():
    if not SHIPPED.exists():
        pytest.skip(f"{SHIPPED} not built (relx train-vectors)")
    return load_vectors(SHIPPED)


def test_shipped_vectors_file():
    wv = shipped()
    s = wv.settings
    assert (s["dim"], s["window"], s["alpha"], s["min_count"]) == (100, 5, -2.5, 2)
    assert wv.matrix.shape == (len(wv), 100) and len(wv) > 10000
    assert np.allclose(np.linalg.norm(wv.matrix, axis=1), 1.0, atol=1e-5)
    assert "PROT" in wv and "PROT1" not in wv
    with np.load(SHIPPED, allow_pickle=False) as z:
        assert str(z["format"]) == FORMAT and json.loads(str(z["settings"]))["dim"] == 100


def test_real_corpus_neighbours_are_related_verbs():
    """Observed on the vectors trained on all shared corpus text (AIMed, BioInfer, IEPA,
    GE 2009-2013; 633k tokens): interaction verbs sit near their inflections and each other,
    far from unrelated words."""
    wv = shipped()
    near = {w: [x for x, _ in wv.nearest(w, 10)] for w in
            ("phosphorylates", "binds", "interacts", "inhibits")}
    assert near["phosphorylates"][0] == "phosphorylate"
    assert {"bind", "bound", "interacts"} <= set(near["binds"])
    assert {"associates", "interact", "interacted", "binds"} <= set(near["interacts"])
    assert {"inhibited", "inhibiting"} <= set(near["inhibits"])
    for a, b in (("binds", "interacts"), ("interacts", "associates"),
                 ("activates", "phosphorylates")):
        assert wv.similarity(a, b) > 0.4
    for a in ("binds", "interacts", "phosphorylates", "inhibits"):
        assert wv.similarity(a, "patients") < 0.1
