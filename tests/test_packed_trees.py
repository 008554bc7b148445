"""PackedExtraTrees: sklearn's extremely randomised trees as flat node arrays."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.ensemble import ExtraTreesClassifier
from sklearn.utils.estimator_checks import check_estimator

from relx.learn.packed_trees import PackedExtraTrees
from relx.model import TRUSTED_TYPES


def _binary_data(n: int = 1500, d: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = (rng.random((n, d)) < 0.25).astype(np.float32)
    X[:, : d // 2] *= 0.75  # lexically weighted columns, as the pair features have
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0) | (rng.random(n) < 0.1)).astype(int)
    return X, y


def test_packed_probabilities_equal_sklearns_on_binary_features():
    X, y = _binary_data()
    Xq, _ = _binary_data(seed=1)  # unseen rows, but only training values per column
    kw = dict(n_estimators=25, min_samples_leaf=1, class_weight="balanced_subsample",
              random_state=3)
    ours = PackedExtraTrees(**kw).fit(X, y)
    ref = ExtraTreesClassifier(**kw).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(Xq), ref.predict_proba(Xq), atol=1e-12)
    assert (ours.predict(Xq) == ref.predict(Xq)).all()
    # each tree's thresholds sit at the midpoint of the two training values they separate
    inner = ours.node_feature_ >= 0
    assert set(np.round(ours.node_threshold_[inner], 6)) <= {0.375, 0.5}
    assert ours.roots_.shape == (25,) and ours.roots_[0] == 0
    leaves = ~inner
    np.testing.assert_allclose(ours.leaf_value_[leaves].sum(axis=1), 1.0)


def test_packed_trees_take_a_fraction_of_sklearns_bytes():
    X, y = _binary_data(4000, 60)
    kw = dict(n_estimators=10, random_state=0)
    ours = PackedExtraTrees(**kw).fit(X, y)
    ref = ExtraTreesClassifier(**kw).fit(X, y)
    ref_bytes = sum(e.tree_.__getstate__()["nodes"].nbytes + e.tree_.value.nbytes
                    for e in ref.estimators_)
    ours_bytes = sum(a.nbytes for a in (ours.roots_, ours.node_feature_, ours.node_threshold_,
                                        ours.node_right_, ours.leaf_value_))
    assert ours_bytes < 0.5 * ref_bytes


def test_packed_extra_trees_multiclass_and_errors():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5)).astype(np.float32)
    y = np.digitize(X[:, 0], [-0.5, 0.5])  # 3 classes
    m = PackedExtraTrees(n_estimators=30, random_state=0).fit(X, y)
    assert m.predict_proba(X).shape == (300, 3) and (m.predict(X) == y).mean() > 0.95
    with pytest.raises(ValueError):
        m.predict_proba(X[:, :4])

TREE_WEIGHT_CHECKS = {
    f"check_sample_weight_equivalence_on_{kind}_data":
        "sample_weight is not equivalent to removing/repeating samples."
    for kind in ("dense", "sparse")}


def test_packed_extra_trees_follows_the_estimator_contract():
    # as sklearn's own ExtraTrees/RandomForest/Bagging: randomised split thresholds make
    # weighted and repeated rows differ (sklearn meta-issue #16298)
    check_estimator(PackedExtraTrees(n_estimators=5, random_state=0),
                    expected_failed_checks=TREE_WEIGHT_CHECKS)


def test_packed_extra_trees_is_a_registered_trusted_component():
    from relx.registry import COMPONENTS

    assert COMPONENTS["extra_trees"] is PackedExtraTrees
    assert "relx.learn.packed_trees.PackedExtraTrees" in TRUSTED_TYPES


def test_packed_trees_survive_model_save_load(tmp_path):
    from relx.model import RelationModel, load_model
    from relx.registry import build_pipeline

    cfg = {"pipeline": {"steps": ["frequent", "et"], "seed": 0},
           "frequent": {"component": "frequent_features", "k": 20},
           "et": {"component": "extra_trees", "n_estimators": 15,
                  "class_weight": "balanced_subsample"}}
    X, y = _binary_data(600, 30)
    pipe = build_pipeline(cfg).fit(X, y)
    RelationModel(pipe, cfg, {"name": "et"}).save(tmp_path / "m")
    back = load_model(tmp_path / "m").pipeline
    np.testing.assert_array_equal(back.predict_proba(X), pipe.predict_proba(X))
    assert back[-1].node_right_.dtype == np.int32
