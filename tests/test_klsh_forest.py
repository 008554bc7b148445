from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.metrics import f1_score
from sklearn.pipeline import Pipeline
from sklearn.utils.estimator_checks import check_estimator

from relx.learn.forest import RandomSubspaceForest, best_f1_threshold
from relx.learn.kernel_svm import KernelSVM
from relx.represent.klsh import KLSHEncoder


def _data(n=400, seed=0):
    X, y = make_classification(n_samples=n, n_features=10, n_informative=5, random_state=seed)
    return X[: n // 2], y[: n // 2], X[n // 2:], y[n // 2:]


@pytest.mark.parametrize("estimator", [
    RandomSubspaceForest(n_estimators=10, max_features=None, random_state=0),
    KLSHEncoder(n_reference=20, n_bits=16, random_state=0),
], ids=lambda e: type(e).__name__)
@pytest.mark.slow
def test_sklearn_estimator_contract(estimator):
    # tree ensembles: weighted and repeated rows differ, as in sklearn's own (#16298)
    check_estimator(estimator, expected_failed_checks={
        f"check_sample_weight_equivalence_on_{kind}_data": "randomised trees"
        for kind in ("dense", "sparse")})


@pytest.mark.slow
@pytest.mark.parametrize("hash_function", ["rmm", "rknn", "kulis"])
def test_klsh_codes_are_deterministic_binary_and_informative(hash_function):
    Xtr, ytr, Xte, yte = _data()
    enc = KLSHEncoder(kernel="rbf", n_reference=50, n_bits=300, hash_function=hash_function,
                      random_state=1).fit(Xtr)
    codes = enc.transform(Xte)
    assert codes.shape == (len(Xte), 300) and codes.dtype == np.uint8
    assert set(np.unique(codes)) <= {0, 1}
    assert 0.05 < codes.mean() < 0.95  # bits are not constant
    again = KLSHEncoder(kernel="rbf", n_reference=50, n_bits=300, hash_function=hash_function,
                        random_state=1).fit(Xtr).transform(Xte)
    np.testing.assert_array_equal(codes, again)
    # nearby points share more bits than far-apart ones (locality sensitivity)
    d_near = (codes[0] != enc.transform(Xte[:1] + 1e-3)[0]).mean()
    far = np.argmax(((Xte - Xte[0]) ** 2).sum(axis=1))
    d_far = (codes[0] != codes[far]).mean()
    assert d_near < d_far


def test_rknn_bit_matches_its_definition():
    Xtr, _, Xte, _ = _data()
    enc = KLSHEncoder(kernel="linear", n_reference=12, n_bits=40, alpha=3,
                      hash_function="rknn", random_state=3).fit(Xtr)
    k = Xte @ enc.reference_.T
    codes = enc.transform(Xte)
    for h, sub in enumerate(enc.subsets_):
        expected = k[:, sub[:3]].max(axis=1) < k[:, sub[3:]].max(axis=1)
        np.testing.assert_array_equal(codes[:, h], expected)


@pytest.mark.slow
def test_klsh_rf_pipeline_learns():
    Xtr, ytr, Xte, yte = _data(600)
    pipe = Pipeline([("klsh", KLSHEncoder(n_reference=60, n_bits=400, random_state=0)),
                     ("rf", RandomSubspaceForest(n_estimators=100, max_features=30, random_state=0))])
    pipe.fit(Xtr, ytr)
    assert f1_score(yte, pipe.predict(Xte)) > 0.75
    proba = pipe.predict_proba(Xte)
    assert proba.shape == (len(Xte), 2) and np.allclose(proba.sum(axis=1), 1)


def test_forest_threshold_and_bagging():
    Xtr, ytr, Xte, _ = _data()
    rf = RandomSubspaceForest(n_estimators=20, max_features=None, bootstrap=True, random_state=0)
    p = rf.fit(Xtr, ytr).predict_proba(Xte)[:, 1]
    rf.set_params(threshold=0.9).fit(Xtr, ytr)
    np.testing.assert_array_equal(rf.predict(Xte), (p > 0.9).astype(int))


@pytest.mark.slow
def test_auto_threshold_maximises_out_of_fold_f1():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    score = np.clip(y * 0.3 + rng.random(300) * 0.8, 0, 1)
    t = best_f1_threshold(y, score)
    grid = np.unique(score)
    brute = max(f1_score(y, score > g) for g in np.r_[grid, grid - 1e-9])
    assert f1_score(y, score > t) == pytest.approx(brute)
    Xtr, ytr, _, _ = _data()
    ytr = np.where(np.arange(len(ytr)) % 5 == 0, ytr, 0)  # imbalanced: auto goes below 0.5
    rf = RandomSubspaceForest(n_estimators=30, max_features=5, threshold="auto", random_state=0)
    assert 0 < rf.fit(Xtr, ytr).threshold_ < 1


def test_kernel_svm_uses_only_support_vectors():
    Xtr, ytr, Xte, yte = _data()
    svm = KernelSVM(kernel="rbf", C=1.0).fit(Xtr, ytr)
    assert len(svm.support_vectors_) == len(svm.support_) < len(Xtr)
    assert f1_score(yte, svm.predict(Xte)) > 0.75
    from sklearn.svm import SVC
    ref = SVC(kernel="rbf", gamma=1.0 / Xtr.shape[1], C=1.0).fit(Xtr, ytr)
    np.testing.assert_allclose(svm.decision_function(Xte), ref.decision_function(Xte), atol=1e-6)


def test_balanced_reference_set():
    y = np.r_[np.ones(10, int), np.zeros(90, int)]
    X = np.random.default_rng(0).normal(size=(100, 3))
    enc = KLSHEncoder(n_reference=30, n_bits=8, reference="balanced", random_state=0).fit(X, y)
    assert y[enc.reference_indices_].sum() == 10 and len(enc.reference_indices_) == 30
    enc = KLSHEncoder(n_reference=12, n_bits=8, reference="balanced", random_state=0).fit(X, y)
    assert y[enc.reference_indices_].sum() == 6


@pytest.mark.parametrize("bootstrap", [False, True])
def test_forest_fast_proba_equals_bagging_proba(bootstrap):
    rng = np.random.default_rng(1)
    X = (rng.random((200, 60)) < 0.5).astype(float)
    y = np.where(X[:, :4].sum(1) > 2, 1, 0)
    y[:2] = 2  # a rare class
    forest = RandomSubspaceForest(n_estimators=40, max_features=None if bootstrap else 10,
                                  bootstrap=bootstrap, random_state=0).fit(X, y)
    bagging = forest._ensemble(X.shape[1]).fit(X, y)  # the same seeds: the same trees
    assert not hasattr(forest, "ensemble_")  # only the packed arrays are kept
    np.testing.assert_allclose(forest.predict_proba(X[:50]), bagging.predict_proba(X[:50]),
                               atol=1e-12)


def test_forest_saved_before_packing_still_predicts():
    """A model of format <= 2 holds the sklearn ensemble (``ensemble_``), not the arrays."""
    rng = np.random.default_rng(2)
    X = (rng.random((150, 40)) < 0.5).astype(float)
    y = (X[:, :3].sum(1) > 1).astype(int)
    new = RandomSubspaceForest(n_estimators=20, max_features=8, random_state=3).fit(X, y)
    old = RandomSubspaceForest(n_estimators=20, max_features=8, random_state=3)
    old.ensemble_ = old._ensemble(X.shape[1]).fit(X, y)
    old.classes_, old.threshold_, old.n_features_in_ = new.classes_, new.threshold_, 40
    np.testing.assert_allclose(old.predict_proba(X), new.predict_proba(X), atol=1e-12)
    np.testing.assert_array_equal(old.predict(X), new.predict(X))



def test_transform_rows_gives_the_rows_their_codes_in_the_whole_batch():
    from relx.represent.klsh import predict_proba_rows

    Xtr, ytr, Xte, _ = _data(n=600, seed=5)
    enc = KLSHEncoder(kernel="rbf", n_reference=40, n_bits=200, random_state=2).fit(Xtr)
    full = enc.transform(Xte)
    for rows in ([0], [299, 3, 5], list(range(1, 300, 7))):
        rows = np.asarray(rows)
        np.testing.assert_array_equal(enc.transform_rows(Xte[rows], rows, len(Xte)), full[rows])
    pipe = Pipeline([("klsh", enc), ("forest", RandomSubspaceForest(
        n_estimators=20, max_features=20, random_state=0))]).fit(Xtr, ytr)
    rows = np.arange(0, 300, 3)
    np.testing.assert_array_equal(predict_proba_rows(pipe, Xte[rows], rows, len(Xte)),
                                  pipe.predict_proba(Xte)[rows])
