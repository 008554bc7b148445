"""Dense word-vector features of candidate pairs and the feature_union config component."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import FIXTURES, ROOT, corpus_file

from relx.io.ppi_xml import read_ppi_xml
from relx.represent.instances import labels, pair_instances
from relx.represent.pair_vectors import BLOCKS, PairVectorFeatures, pair_vector_words
from relx.vectors import WordVectors


def _mini():
    return pair_instances(read_ppi_xml(FIXTURES / "ppi-mini.xml"))


def _vectors(tmp_path, words=("PROT", "binds", "in", ".")):
    """A tiny vectors file: word i is the unit vector along axis i (d = 4)."""
    return WordVectors(list(words), np.eye(len(words), 4)).save(tmp_path / "v.npz", "float32")


def test_words_of_each_block_of_a_simple_interaction_sentence():
    w = pair_vector_words(_mini()[0])  # "RAD51 binds BRCA2 in vivo."
    assert w == {"path": ["binds"], "between": ["binds"], "window": ["in", "vivo", "."],
                 "governors": [["binds"], ["binds"]]}


def test_blocks_are_mean_unit_vectors_and_unknown_words_are_skipped(tmp_path):
    inst = _mini()
    ext = PairVectorFeatures(vectors=str(_vectors(tmp_path))).fit(inst)
    x = ext.transform(inst[:1])
    assert x.shape == (1, len(BLOCKS) * 4) and x.dtype == np.float32
    binds, in_, dot = np.eye(4)[1], np.eye(4)[2], np.eye(4)[3]
    np.testing.assert_allclose(x[0, :4], binds)  # path
    np.testing.assert_allclose(x[0, 4:8], binds)  # between
    np.testing.assert_allclose(x[0, 8:12], 2 * binds)  # governors: binds governs both heads
    np.testing.assert_allclose(x[0, 12:], (in_ + dot) / 2)  # "vivo" has no vector
    assert list(ext.get_feature_names_out()[:2]) == ["vec_path_0", "vec_path_1"]


def test_a_block_without_known_words_is_zero(tmp_path):
    ext = PairVectorFeatures(vectors=str(_vectors(tmp_path, ("PROT", "x", "y", "z")))).fit([])
    assert not ext.transform(_mini()[:1]).any()


def test_union_of_sparse_features_and_vectors_saves_without_the_vectors_file(tmp_path):
    from relx.ppi.model import RelationModel, load_model
    from relx.registry import build_pipeline

    vec = _vectors(tmp_path)
    cfg = {"pipeline": {"steps": ["union", "clf"]},
           "union": {"component": "feature_union", "parts": ["sparse", "vectors"]},
           "sparse": {"component": "pipeline", "steps": ["features", "frequent"]},
           "features": {"component": "pair_features"},
           "frequent": {"component": "frequent_features", "k": 20},
           "vectors": {"component": "pair_vectors", "vectors": str(vec)},
           "clf": {"component": "logistic_regression", "C": 1.0}}
    inst = _mini()
    pipe = build_pipeline(cfg, random_state=0).fit(inst, labels(inst))
    n_sparse = len(pipe[0].transformer_list[0][1][-1].columns_)
    assert pipe[:-1].transform(inst).shape == (len(inst), n_sparse + len(BLOCKS) * 4)
    RelationModel(pipe, cfg, {"name": "t"}).save(tmp_path / "m")
    vec.unlink()  # the fitted transformer carries its vectors
    back = load_model(tmp_path / "m").pipeline
    np.testing.assert_allclose(back.predict_proba(inst), pipe.predict_proba(inst))


def test_best_config_trees_see_the_word_vectors():
    from relx.registry import build_pipeline, load_config

    pipe = build_pipeline(load_config(ROOT / "configs" / "ppi-best.toml"), random_state=0)
    union = pipe.steps[-1][1].estimators[4].steps[0][1]
    parts = [type(p).__name__ for _, p in union.transformer_list]
    assert parts == ["Pipeline", "PairVectorFeatures"]
    assert union.transformer_list[1][1].vectors == "runs/vectors/eigenwords.npz"


def test_real_iepa_pairs_get_vectors_from_the_shipped_eigenwords():
    from relx.ppi.evaluate import load_corpus

    if not (ROOT / "runs" / "vectors" / "eigenwords.npz").exists():
        pytest.skip("runs/vectors/eigenwords.npz not available")
    inst = pair_instances(load_corpus(corpus_file("IEPA")))[:300]
    x = PairVectorFeatures().fit(inst).transform(inst)
    d = x.shape[1] // len(BLOCKS)
    # almost every pair has a known word on its dependency path and around its mentions
    assert (np.abs(x[:, :d]).sum(1) > 0).mean() > 0.9
    assert (np.abs(x[:, 3 * d:]).sum(1) > 0).mean() > 0.9
    norms = np.linalg.norm(x[:, :d], axis=1)
    assert norms.max() <= 1.0 + 1e-3  # a mean of unit vectors


def test_blocks_are_numpys_means_bit_for_bit_for_short_and_long_word_lists():
    """transform sums every list of every pair in one pass; each block must be the float32
    ``m[ids].mean(0)`` of its list (numpy sums 8 rows or more pairwise), as before."""
    from relx.model_store import models_dir
    from relx.ppi.evaluate import load_corpus
    from relx.ppi.model import load_model

    if not (models_dir() / "ppi-default" / "meta.json").exists():
        pytest.skip("shipped model models/ppi-default missing")
    found: list = []

    def walk(est):
        if isinstance(est, PairVectorFeatures):
            found.append(est)
        for attr in ("steps", "transformer_list"):
            for _, step in getattr(est, attr, None) or []:
                walk(step)

    for member in load_model(models_dir() / "ppi-default").pipeline.steps[-1][1].estimators_:
        walk(member)
    ext = found[0]
    inst = pair_instances(load_corpus(corpus_file("IEPA")))[:400]
    index, m = ext._index(), ext.matrix_.astype(np.float32)
    d, lengths = m.shape[1], []

    def mean(words):
        ids = [index[w] for w in words if w in index]
        lengths.append(len(ids))
        return m[ids].mean(0) if ids else np.zeros(d, np.float32)

    want = np.zeros((len(inst), 4 * d), np.float32)
    for i, x in enumerate(inst):
        w = pair_vector_words(x)
        want[i] = np.concatenate([mean(w["path"]), mean(w["between"]),
                                  sum(mean(ws) for ws in w["governors"]), mean(w["window"])])
    assert max(lengths) >= 8 and min(lengths) == 0   # both ways of summing, and empty lists
    np.testing.assert_array_equal(ext.transform(inst), want)
