"""PackedExtraTrees: sklearn's extremely randomised trees as flat node arrays."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.ensemble import ExtraTreesClassifier
from sklearn.utils.estimator_checks import check_estimator

from relx.learn.packed_trees import (
    PACKED_ATTRIBUTES,
    PackedExtraTrees,
    byte_planes,
    expand_trees,
    float32_floor,
    from_byte_planes,
    smallest_uint,
)
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


@pytest.mark.slow
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


def test_walked_arrays_are_the_expanded_trees_in_one_pass():
    """walk_from_compact (one compiled pass) gives what expand_trees and child_array give
    from the same compact arrays; arrays that do not fit together are refused."""
    from relx.learn.packed_trees import _compact_splits, child_array, walk_from_compact

    X, y = _continuous_data()
    c = PackedExtraTrees(n_estimators=15, random_state=2).fit(X, y).__getstate__()[
        "compact_trees"]
    roots, is_leaf, feature, threshold = _compact_splits(c)
    node_feature, node_threshold, right, leaf_row = expand_trees(
        roots, is_leaf, feature, threshold.astype(np.float64))
    leaf = leaf_row >= 0
    leaf_row[leaf] = np.asarray(c["leaf_index"], np.int32)[leaf_row[leaf]]
    node_feature[leaf] = 0
    walked = walk_from_compact(c)
    want = {"roots_": roots, "walk_feature_": node_feature.astype(np.uint16),
            "walk_threshold_": node_threshold.astype(np.float32),
            "walk_child_": child_array(right, leaf_row)}
    for k, v in want.items():
        assert walked[k].dtype == v.dtype and walked[k].tobytes() == v.tobytes(), k
    assert (walked["walk_child_"] < 0).sum() == leaf.sum() > 100
    short = {**c, "leaf_index": c["leaf_index"][:-1]}
    with pytest.raises(ValueError, match="leaf"):
        walk_from_compact(short)
    wrong = {**c, "n_nodes": c["n_nodes"] - 1}
    with pytest.raises(ValueError):
        walk_from_compact(wrong)


def _continuous_data(n: int = 800, d: int = 12, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32)
    X[:, : d // 3] = (X[:, : d // 3] > 0.5)  # some binary columns too
    y = (X[:, -1] + X[:, -2] * X[:, 0] + rng.normal(0, 0.5, n) > 0).astype(int)
    return X, y


def test_float32_floor_splits_every_float32_as_the_float64_threshold():
    rng = np.random.default_rng(0)
    t = rng.normal(size=5000) * 10.0 ** rng.integers(-6, 6, 5000)
    floor = float32_floor(t)
    assert floor.dtype == np.float32 and (floor.astype(np.float64) <= t).all()
    assert (np.nextafter(floor, np.float32(np.inf)).astype(np.float64) > t).all()
    # float32 inputs at, just below and just above each threshold go the same way
    near = np.concatenate([floor, np.nextafter(floor, np.float32(-np.inf)),
                           np.nextafter(floor, np.float32(np.inf)), t.astype(np.float32)])
    tt = np.tile(t, 4)
    np.testing.assert_array_equal(near <= tt, near <= np.tile(floor, 4))


def test_saved_state_is_compact_and_predicts_bitwise_the_same():
    X, y = _continuous_data()
    m = PackedExtraTrees(n_estimators=20, random_state=0).fit(X, y)
    state = m.__getstate__()
    assert not any(a in state for a in PACKED_ATTRIBUTES)
    compact = state["compact_trees"]
    assert compact["leaf_index"].dtype == np.uint8  # few distinct leaf rows
    assert sum(a.nbytes for a in compact.values()) < \
        0.5 * sum(getattr(m, a).nbytes for a in PACKED_ATTRIBUTES)
    back = PackedExtraTrees.__new__(PackedExtraTrees)
    back.__setstate__(state)
    for a in ("roots_", "node_is_leaf_", "split_feature_", "leaf_value_"):
        np.testing.assert_array_equal(getattr(back, a), getattr(m, a))
        assert getattr(back, a).dtype == getattr(m, a).dtype
    np.testing.assert_array_equal(back.split_threshold_, float32_floor(m.split_threshold_))
    # unseen rows, and rows sitting exactly on (and one float32 step off) the thresholds
    Xq, _ = _continuous_data(seed=1)
    on = np.tile(Xq[:1], (len(m.split_feature_), 1))
    on[np.arange(len(on)), m.split_feature_] = float32_floor(m.split_threshold_)
    up = on.copy()
    up[np.arange(len(on)), m.split_feature_] = np.nextafter(
        float32_floor(m.split_threshold_), np.float32(np.inf))
    for Z in (Xq, on, up):
        p, q = m.predict_proba(Z), back.predict_proba(Z)
        assert np.array_equal(p.view(np.uint64), q.view(np.uint64))


def test_loaded_model_keeps_only_the_walked_arrays_and_saves_the_same_state():
    """A loaded model keeps the per-node arrays it walks (float32 thresholds, distinct leaf
    rows), answers for the packed attributes from them, and saves the state it came from."""
    from relx.learn.packed_trees import WALK_ATTRIBUTES, expand_compact

    X, y = _continuous_data()
    m = PackedExtraTrees(n_estimators=20, random_state=0).fit(X, y)
    state = m.__getstate__()
    back = PackedExtraTrees.__new__(PackedExtraTrees)
    back.__setstate__(state)
    assert set(WALK_ATTRIBUTES) <= set(vars(back))
    assert not set(PACKED_ATTRIBUTES[1:]) & set(vars(back))
    assert back.walk_threshold_.dtype == np.float32 and back.walk_feature_.dtype == np.uint16
    assert len(back.leaf_table_) < len(m.leaf_value_) // 10
    for a, want in zip(PACKED_ATTRIBUTES, expand_compact(state["compact_trees"]), strict=True):
        got = getattr(back, a)
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    again = back.__getstate__()["compact_trees"]
    assert again.keys() == state["compact_trees"].keys()
    for k, v in state["compact_trees"].items():
        assert again[k].dtype == v.dtype and again[k].tobytes() == v.tobytes()
    refit = back.fit(X, y)   # fitting again: the packed arrays, no stale walked ones
    assert not set(WALK_ATTRIBUTES) & set(vars(refit))
    np.testing.assert_array_equal(refit.predict_proba(X), m.predict_proba(X))


def test_model_format_3_forest_state_still_loads():
    """Format 3 saved the packed attributes themselves (float64 thresholds, int32 features)."""
    X, y = _continuous_data()
    m = PackedExtraTrees(n_estimators=10, random_state=1).fit(X, y)
    state = dict(vars(m))  # the plain attributes, as format 3 saved them
    old = PackedExtraTrees.__new__(PackedExtraTrees)
    old.__setstate__(state)
    np.testing.assert_array_equal(old.split_threshold_, m.split_threshold_)
    np.testing.assert_array_equal(old.predict_proba(X), m.predict_proba(X))


def test_byte_planes_round_trip_and_narrow_types():
    a = np.array([0, 1, 300, 65535], np.uint16)
    planes = byte_planes(a)
    assert planes.shape == (2, 4) and planes.dtype == np.uint8
    np.testing.assert_array_equal(from_byte_planes(planes, np.uint16), a)
    assert smallest_uint(256) is np.uint8 and smallest_uint(257) is np.uint16
    assert smallest_uint(70000) is np.uint32


def _walk_rows(X: np.ndarray, roots, feature, threshold, child, value) -> np.ndarray:
    """Each row down each tree on its own, in Python: what ``_walk`` groups rows for."""
    out = np.zeros((len(X), value.shape[1]))
    for r in roots:
        for i in range(len(X)):
            node = r
            while child[node] >= 0:
                node = node + 1 if X[i, feature[node]] <= threshold[node] else child[node]
            out[i] += value[-1 - child[node]]
    return out / len(roots)


@pytest.mark.slow
def test_grouped_walk_equals_row_by_row_on_the_shipped_event_forest():
    """The rows split at each node together (``_walk``) reach the same leaves as walked one
    by one: bitwise the same probabilities, on the shipped event model's forest and the
    KLSH codes of its reference paths (and a few rows: the one-by-one branch)."""
    from relx.ge.extract import resolve_event_model
    from relx.learn.packed_trees import WALK_ATTRIBUTES, _walk

    edges = resolve_event_model(None).edges
    forest = edges.forest
    X = np.asfortranarray(edges.klsh.transform(edges.klsh.reference_), dtype=np.float32)
    args = (forest.roots_, *(getattr(forest, a) for a in WALK_ATTRIBUTES))   # as loaded
    for rows in (X, X[:5]):
        rows = np.asfortranarray(rows)
        assert _walk(rows, *args).tobytes() == _walk_rows(rows, *args).tobytes()
