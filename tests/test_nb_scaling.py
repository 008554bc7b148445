"""NaiveBayesScaler: log-count ratios against a hand computation, sparse/dense agreement,
the sklearn estimator contract, use as a registered pipeline step; every PPI config builds."""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import ROOT
from sklearn.utils.estimator_checks import check_estimator

from relx.learn.nb_scaling import NaiveBayesScaler
from relx.registry import build_pipeline

X = np.array([[1, 0, 2], [1, 1, 0], [0, 1, 1], [0, 1, 0]], float)
y = np.array([1, 1, 0, 0])


def test_ratio_by_hand():
    s = NaiveBayesScaler(alpha=1.0).fit(sp.csr_matrix(X), y)
    p = np.array([2, 1, 1]) + 1.0  # binarised counts in the positive rows, smoothed
    q = np.array([0, 2, 1]) + 1.0
    expected = np.log(p / p.sum()) - np.log(q / q.sum())
    np.testing.assert_allclose(s.ratio_, expected)
    assert s.ratio_[0] > 0 > s.ratio_[1]  # positive-only feature up, negative-leaning down
    out = s.transform(sp.csr_matrix(X))
    assert sp.issparse(out)
    np.testing.assert_allclose(out.toarray(), X * expected)
    np.testing.assert_allclose(NaiveBayesScaler().fit(X, y).transform(X), X * expected)


def test_alpha_bounds_ratio_and_is_validated():
    sharp = NaiveBayesScaler(alpha=0.01).fit(X, y).ratio_
    smooth = NaiveBayesScaler(alpha=10).fit(X, y).ratio_
    assert abs(sharp[0]) > abs(smooth[0])
    with pytest.raises(ValueError, match="alpha"):
        NaiveBayesScaler(alpha=0).fit(X, y)


def test_sklearn_estimator_contract():
    check_estimator(NaiveBayesScaler())


def test_registered_pipeline_step():
    cfg = {"pipeline": {"steps": ["nb", "classifier"], "seed": 0},
           "nb": {"component": "naive_bayes_scaler", "alpha": 0.5},
           "classifier": {"component": "logistic_regression", "C": 1.0}}
    pipe = build_pipeline(cfg)
    rng = np.random.default_rng(0)
    Xr = (rng.random((60, 8)) < 0.3).astype(float)
    yr = (Xr[:, 0] + Xr[:, 1] > 0).astype(int)
    pipe.fit(sp.csr_matrix(Xr), yr)
    assert pipe.score(sp.csr_matrix(Xr), yr) > 0.8


@pytest.mark.parametrize("path", sorted((ROOT / "configs").glob("ppi-*.toml")),
                         ids=lambda p: p.name)
def test_every_ppi_config_builds(path):
    from relx.registry import load_config

    pipe = build_pipeline(load_config(path), random_state=0)
    assert hasattr(pipe, "fit") and hasattr(pipe, "predict_proba")


def test_pipeline_with_scaler_survives_model_save_load(tmp_path):
    from relx.ppi.model import RelationModel, load_model

    cfg = {"pipeline": {"steps": ["nb", "classifier"], "seed": 0},
           "nb": {"component": "naive_bayes_scaler"},
           "classifier": {"component": "logistic_regression"}}
    Xs = sp.csr_matrix(X)
    pipe = build_pipeline(cfg).fit(Xs, y)
    RelationModel(pipe, cfg, {"name": "nb"}).save(tmp_path / "m")
    back = load_model(tmp_path / "m").pipeline
    np.testing.assert_allclose(back.predict_proba(Xs), pipe.predict_proba(Xs))
    np.testing.assert_array_equal(back.steps[0][1].ratio_, pipe.steps[0][1].ratio_)
