"""FrequentFeatureSelector: the most frequent columns, in order, dense or sparse; the sklearn
estimator contract; a registered step in front of gradient-boosted trees."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.estimator_checks import check_estimator

from relx.learn.frequent_features import FrequentFeatureSelector
from relx.registry import build_pipeline

X = sp.csr_matrix(np.array([[1, 0, 2, 0], [0, 1, 3, 0], [1, 0, 1, 0], [0, 0, 4, 5]], float))


def test_selects_most_frequent_columns_in_order():
    sel = FrequentFeatureSelector(k=2).fit(X)
    np.testing.assert_array_equal(sel.columns_, [2, 0])  # column 2 in 4 rows, 0 in 2 (before 1, 3)
    out = sel.transform(X)
    assert isinstance(out, np.ndarray) and out.dtype == np.float32
    np.testing.assert_array_equal(out, X.toarray()[:, [2, 0]])
    sparse_out = FrequentFeatureSelector(k=10, dense=False).fit(X).transform(X)
    assert sp.issparse(sparse_out) and sparse_out.shape == (4, 4)


def test_k_is_validated():
    with pytest.raises(ValueError, match="k must be"):
        FrequentFeatureSelector(k=0).fit(X)


def test_sklearn_estimator_contract():
    check_estimator(FrequentFeatureSelector(k=2))


@pytest.mark.slow
def test_registered_steps_before_gradient_boosting():
    cfg = {"pipeline": {"steps": ["frequent", "gbt"], "seed": 0},
           "frequent": {"component": "frequent_features", "k": 5},
           "gbt": {"component": "hist_gradient_boosting", "max_iter": 20}}
    rng = np.random.default_rng(0)
    density = np.r_[[0.6] * 3, [0.2] * 9]  # the label's three columns are the most frequent
    Xr = (rng.random((80, 12)) < density).astype(float)
    yr = (Xr[:, 0] * Xr[:, 1] + Xr[:, 2] > 0).astype(int)
    pipe = build_pipeline(cfg).fit(sp.csr_matrix(Xr), yr)
    assert pipe.score(sp.csr_matrix(Xr), yr) > 0.8


def test_boosted_trees_survive_model_save_load(tmp_path):
    from relx.ppi.model import RelationModel, load_model

    cfg = {"pipeline": {"steps": ["frequent", "gbt"], "seed": 0},
           "frequent": {"component": "frequent_features", "k": 3},
           "gbt": {"component": "hist_gradient_boosting", "max_iter": 10}}
    y = np.array([1, 0, 1, 0])
    pipe = build_pipeline(cfg).fit(X, y)
    RelationModel(pipe, cfg, {"name": "gbt"}).save(tmp_path / "m")
    back = load_model(tmp_path / "m").pipeline
    np.testing.assert_allclose(back.predict_proba(X), pipe.predict_proba(X))
