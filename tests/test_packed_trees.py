"""PackedExtraTrees: sklearn's extremely randomised trees as flat node arrays."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.ensemble import ExtraTreesClassifier
from sklearn.utils.estimator_checks import check_estimator

from relx.learn.packed_trees import PACKED_ATTRIBUTES, PackedExtraTrees, expand_trees
from relx.ppi.model import TRUSTED_TYPES


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
    assert set(np.round(ours.split_threshold_, 6)) <= {0.375, 0.5}
    assert ours.roots_.shape == (25,) and ours.roots_[0] == 0
    n_leaves = int(ours.node_is_leaf_.sum())
    assert len(ours.split_feature_) == len(ours.node_is_leaf_) - n_leaves
    assert ours.leaf_value_.shape == (n_leaves, 2)
    np.testing.assert_allclose(ours.leaf_value_.sum(axis=1), 1.0)
    # the right children rebuilt from the leaf flags are sklearn's
    _, _, right, _ = expand_trees(ours.roots_, ours.node_is_leaf_, ours.split_feature_,
                                  ours.split_threshold_)
    sk_right = np.concatenate([np.where(e.tree_.children_right == -1, -1,
                                        e.tree_.children_right + root)
                               for e, root in zip(ref.estimators_, ours.roots_, strict=True)])
    np.testing.assert_array_equal(right, sk_right)


def test_packed_trees_take_a_fraction_of_sklearns_bytes():
    X, y = _binary_data(4000, 60)
    kw = dict(n_estimators=10, random_state=0)
    ours = PackedExtraTrees(**kw).fit(X, y)
    ref = ExtraTreesClassifier(**kw).fit(X, y)
    ref_bytes = sum(e.tree_.__getstate__()["nodes"].nbytes + e.tree_.value.nbytes
                    for e in ref.estimators_)
    ours_bytes = sum(getattr(ours, a).nbytes for a in PACKED_ATTRIBUTES)
    assert ours_bytes < 0.25 * ref_bytes


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
    from relx.ppi.model import RelationModel, load_model
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
    assert back[-1].split_feature_.dtype == np.int32 and back[-1].node_is_leaf_.dtype == bool
    assert not hasattr(back[-1], "node_right_")  # rebuilt on prediction, not saved


def test_format_2_per_node_arrays_still_predict():
    """Models of format 2 stored every node's feature, threshold, right child and value."""
    X, y = _binary_data(500, 20)
    new = PackedExtraTrees(n_estimators=8, random_state=0).fit(X, y)
    feature, threshold, right, leaf_row = expand_trees(
        new.roots_, new.node_is_leaf_, new.split_feature_, new.split_threshold_)
    old = PackedExtraTrees(n_estimators=8, random_state=0)
    old.classes_, old.n_features_in_, old.roots_ = new.classes_, 20, new.roots_
    old.node_feature_, old.node_threshold_, old.node_right_ = feature, threshold, right
    old.leaf_value_ = np.where(leaf_row[:, None] >= 0, new.leaf_value_[leaf_row], 0.0)
    np.testing.assert_array_equal(old.predict_proba(X), new.predict_proba(X))


def test_expand_trees_refuses_inconsistent_arrays():
    roots = np.array([0], np.int32)
    with pytest.raises(ValueError):  # an inner node without its two children
        expand_trees(roots, np.array([False, True]), np.array([0], np.int32), np.array([0.5]))
    with pytest.raises(ValueError):  # more leaves than the splits allow
        expand_trees(roots, np.array([False, True, True, True]), np.array([0], np.int32),
                     np.array([0.5]))
