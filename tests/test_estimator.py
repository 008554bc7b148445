"""relx.estimator: scikit-learn's estimator contract without importing scikit-learn."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_array as sk_check_array

from relx.estimator import (
    BaseEstimator,
    ClassifierMixin,
    TransformerMixin,
    check_array,
    check_is_fitted,
    check_random_state,
)
from relx.learn.nb_scaling import NaiveBayesScaler


class _Toy(ClassifierMixin, BaseEstimator):
    def __init__(self, C: float = 1.0, inner: object = None) -> None:
        self.C = C
        self.inner = inner

    def fit(self, X, y) -> _Toy:
        self.classes_ = np.unique(y)
        return self

    def predict(self, X) -> np.ndarray:
        return np.full(len(X), self.classes_[0])


def test_params_clone_repr_and_nested_set_params():
    toy = _Toy(C=2.0, inner=NaiveBayesScaler(alpha=0.5))
    assert toy.get_params(deep=False) == {"C": 2.0, "inner": toy.inner}
    assert toy.get_params()["inner__alpha"] == 0.5
    toy.set_params(C=3.0, inner__alpha=2.0)
    assert toy.C == 3.0 and toy.inner.alpha == 2.0
    with pytest.raises(ValueError, match="Invalid parameter 'D'"):
        toy.set_params(D=1)
    twin = clone(toy)   # scikit-learn's clone, through __sklearn_clone__
    assert twin is not toy and twin.inner is not toy.inner and twin.get_params(deep=False)["C"] == 3.0
    assert repr(_Toy()) == "_Toy()" and repr(_Toy(C=0.5)) == "_Toy(C=0.5)"
    assert toy.fit([[0], [1]], [1, 1]).score([[0], [1]], [1, 0]) == 0.5
    tags = toy.__sklearn_tags__()
    assert tags.estimator_type == "classifier" and tags.target_tags.required
    assert NaiveBayesScaler().__sklearn_tags__().transformer_tags is not None
    assert isinstance(NaiveBayesScaler(), TransformerMixin)


def test_fitted_checks_and_random_state():
    with pytest.raises(NotFittedError):
        check_is_fitted(_Toy(), "classes_")
    check_is_fitted(_Toy().fit([[0]], [1]), "classes_")
    assert check_random_state(3).randint(1000) == np.random.RandomState(3).randint(1000)
    rng = np.random.RandomState(0)
    assert check_random_state(rng) is rng
    with pytest.raises(ValueError):
        check_random_state("seed")


@pytest.mark.parametrize("X", [
    np.arange(12.0).reshape(3, 4), np.arange(12).reshape(3, 4),
    np.arange(12, dtype=np.float32).reshape(3, 4), [[1, 2], [3, 4]],
    np.asfortranarray(np.ones((2, 3))), np.array([[1, 2]], dtype=object)])
@pytest.mark.parametrize("dtype", [None, np.float64, np.float32])
def test_check_array_gives_what_scikit_learn_gives_for_valid_input(X, dtype):
    ours = check_array(X, dtype=dtype, accept_sparse=False)
    theirs = sk_check_array(X, dtype="numeric" if dtype is None else dtype)
    assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)
    assert check_array(X, dtype=dtype, order="F", accept_sparse=False).flags.f_contiguous


def test_check_array_sparse_formats_and_refusals():
    X = sp.random(5, 4, density=0.5, format="csc", random_state=0)
    got = check_array(X, dtype=np.float32)
    assert got.format == "csr" and got.dtype == np.float32
    assert np.array_equal(got.toarray(), X.toarray().astype(np.float32))
    with pytest.raises(TypeError):
        check_array(X, accept_sparse=False)
    with pytest.raises(ValueError, match="NaN"):
        check_array(np.array([[np.nan, 1.0]]))
    assert np.isnan(check_array(np.array([[np.nan, 1.0]]), finite="allow-nan")).any()
    with pytest.raises(ValueError, match="infinity"):
        check_array(np.array([[np.inf, 1.0]]), finite="allow-nan")
    with pytest.raises(ValueError, match="2D"):
        check_array(np.ones(3))
    fitted = NaiveBayesScaler().fit(np.ones((4, 3)), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="X has 2 features, but NaiveBayesScaler is expecting 3"):
        check_array(np.ones((2, 2)), fitted)


def test_predicting_without_scikit_learn_gives_what_predicting_with_it_gives(tmp_path):
    """A relx estimator fitted here, predicting in a process that never imports
    scikit-learn (the light input checks), gives the same numbers."""
    rng = np.random.default_rng(0)
    X = rng.random((30, 5))
    y = (X[:, 0] > 0.5).astype(int)
    scaler = NaiveBayesScaler().fit(X, y)
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "ratio.npy", scaler.ratio_)
    code = ("import sys, numpy as np\n"
            "from relx.learn.nb_scaling import NaiveBayesScaler\n"
            f"X = np.load({str(tmp_path / 'X.npy')!r})\n"
            "m = NaiveBayesScaler.__new__(NaiveBayesScaler)\n"
            f"m.__setstate__({{'alpha': 1.0, 'ratio_': np.load({str(tmp_path / 'ratio.npy')!r}),"
            " 'n_features_in_': 5, 'classes_': np.array([0, 1])})\n"
            f"np.save({str(tmp_path / 'out.npy')!r}, m.transform(X))\n"
            "print(any(k.startswith('sklearn') for k in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
    assert np.array_equal(np.load(tmp_path / "out.npy"), scaler.transform(X))
