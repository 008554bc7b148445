"""relx's inference stand-ins (relx.learn.predictors) predict bit for bit as scikit-learn does:
each is built from the state of a fitted scikit-learn estimator and compared on dense and
CSR inputs; the slow test does so for every substituted object in relx's shipped models."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.calibration import CalibratedClassifierCV
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.feature_extraction import FeatureHasher as SkFeatureHasher
from sklearn.feature_extraction.text import TfidfTransformer, TfidfVectorizer
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import FeatureUnion, Pipeline
from sklearn.preprocessing import LabelEncoder, StandardScaler
from sklearn.svm import LinearSVC

from relx.learn import predictors as P
from relx.learn.predictors import SUBSTITUTES, FeatureHasher, from_sklearn
from relx.learn.predictors.text import _bucket

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ["The BRCA1 protein binds p53 in vivo.", "Phosphorylation of STAT3 by JAK2 was seen.",
         "No interaction between A and B was found; A binds C.", "Crème brûlée naïve café",
         "p53 p53 p53 binds binds MDM2", "", "IL-2 and IL-4 induce STAT5 activation.",
         "MDM2 ubiquitinates p53, which then is degraded by the proteasome."]


def same(a: Any, b: Any) -> None:
    """Bit-identical: type, shape, dtype and bytes (sparse: CSR arrays too)."""
    assert type(a) is type(b), (type(a), type(b))
    if sp.issparse(a):
        assert a.shape == b.shape and a.dtype == b.dtype and a.format == b.format
        a, b = a.tocsr(), b.tocsr()
        for x, y in ((a.indptr, b.indptr), (a.indices, b.indices), (a.data, b.data)):
            same(x, y)
        return
    if isinstance(a, np.ndarray):
        assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
        if a.dtype.kind in "OUS":
            assert np.array_equal(a, b)
        else:
            assert np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()
        return
    assert a == b


def check(est: Any, X: Any, methods: tuple[str, ...]) -> Any:
    """The stand-in of fitted ``est`` gives the same ``methods(X)``; returns it."""
    stand = from_sklearn(est)
    assert type(stand) is SUBSTITUTES[f"{type(est).__module__}.{type(est).__qualname__}"]
    for m in methods:
        same(getattr(stand, m)(X), getattr(est, m)(X))
    return stand


def _data(n: int = 300, d: int = 12, classes: int = 2, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.5, size=n) > 0).astype(int)
    if classes > 2:
        y = np.digitize(X[:, 0] + X[:, 2], np.quantile(X[:, 0] + X[:, 2],
                                                        np.linspace(0, 1, classes + 1)[1:-1]))
    return X, y


def _inputs(d: int, seed: int = 1, n: int = 40) -> list[Any]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    Xs = sp.random(n, d, density=0.3, format="csr", random_state=seed, dtype=np.float64)
    return [X, X.astype(np.float32), np.rint(X * 3).astype(np.int64), Xs,
            Xs.astype(np.float32), Xs.tocsc(), np.asfortranarray(X), X.tolist()]


def test_import_is_light():
    code = ("import relx.learn.predictors, sys; print([m for m in sys.modules if "
            "m.startswith(('sklearn', 'scipy.stats', 'pandas'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("classes", [2, 3, 5])
@pytest.mark.parametrize("labels", ["int", "str", "bool"])
def test_logistic_regression(classes, labels):
    if labels == "bool" and classes > 2:
        pytest.skip("two classes")
    X, y = _data(classes=classes)
    y = {"int": y, "str": np.array(["neg", "pos", "x", "y", "z"])[y], "bool": y == 1}[labels]
    for kw in ({}, {"C": 0.01, "class_weight": "balanced"}, {"fit_intercept": False}):
        est = LogisticRegression(max_iter=500, **kw).fit(X, y)
        for Xi in _inputs(X.shape[1]):
            check(est, Xi, ("decision_function", "predict", "predict_proba"))
    sparse_fit = LogisticRegression(max_iter=500).fit(sp.csr_matrix(X), y)
    for Xi in _inputs(X.shape[1]):
        check(sparse_fit, Xi, ("decision_function", "predict", "predict_proba"))


@pytest.mark.parametrize("classes", [2, 4])
def test_linear_svc(classes):
    X, y = _data(classes=classes)
    est = LinearSVC(C=0.1).fit(X, y.astype(str))
    for Xi in _inputs(X.shape[1]):
        check(est, Xi, ("decision_function", "predict"))
    f_order = from_sklearn(est)
    f_order.coef_ = np.asfortranarray(f_order.coef_)   # as relx's restore_coefs leaves it
    est.coef_ = np.asfortranarray(est.coef_)
    for Xi in _inputs(X.shape[1]):
        same(f_order.decision_function(Xi), est.decision_function(Xi))


def test_linear_validation():
    X, y = _data()
    stand = from_sklearn(LogisticRegression().fit(X, y))
    with pytest.raises(ValueError, match="features"):
        stand.predict(X[:, :5])
    with pytest.raises(ValueError, match="NaN"):
        stand.predict(np.full((2, X.shape[1]), np.nan))
    assert stand._sklearn_version   # the state is kept whole


@pytest.mark.parametrize("kw", [{}, {"with_mean": False}, {"with_std": False},
                                {"with_mean": False, "with_std": False}, {"copy": False}])
def test_standard_scaler(kw):
    X, _ = _data()
    X[::7, 3] = np.nan
    est = StandardScaler(**kw).fit(X)
    for Xi in _inputs(X.shape[1]):
        if sp.issparse(Xi) and est.with_mean:
            with pytest.raises(ValueError, match="sparse"):
                from_sklearn(est).transform(Xi)
            continue
        a = Xi.copy() if hasattr(Xi, "copy") else Xi
        b = Xi.copy() if hasattr(Xi, "copy") else Xi
        same(from_sklearn(est).transform(a), est.transform(b))
        if hasattr(Xi, "copy"):
            same(a, b)   # copy=False: the same in-place change


def test_label_encoder():
    for y in (np.array([3, 1, 2, 3, 9]), np.array(["b", "a", "c", "a"]),
              np.array([True, False, True]), np.array([0.5, 2.5, np.nan, 0.5])):
        est = LabelEncoder().fit(y)
        stand = check(est, y[::-1], ("transform",))
        codes = est.transform(y)
        same(stand.inverse_transform(codes), est.inverse_transform(codes))
        same(stand.transform([]), est.transform([]))
        with pytest.raises(ValueError, match="unseen"):
            stand.inverse_transform([len(est.classes_)])
    with pytest.raises(ValueError, match="unseen"):
        from_sklearn(LabelEncoder().fit([1, 2])).transform([3])
    with pytest.raises(ValueError, match="unseen"):
        from_sklearn(LabelEncoder().fit(["a", "b"])).transform(["c"])


TFIDF_OPTIONS = [{}, {"ngram_range": (1, 2), "min_df": 1}, {"sublinear_tf": True},
                 {"norm": "l1"}, {"norm": None}, {"use_idf": False}, {"smooth_idf": False},
                 {"binary": True}, {"lowercase": False}, {"strip_accents": "unicode"},
                 {"strip_accents": "ascii"}, {"stop_words": ["the", "of", "binds"]},
                 {"dtype": np.float32, "sublinear_tf": True}, {"token_pattern": r"(?u)\b\w+\b"},
                 {"ngram_range": (2, 3)}, {"max_features": 20, "ngram_range": (1, 3)}]


@pytest.mark.parametrize("kw", TFIDF_OPTIONS)
def test_tfidf_vectorizer(kw):
    rng = np.random.default_rng(3)
    words = " ".join(TEXTS).split()
    docs = TEXTS + [" ".join(rng.choice(words, size=rng.integers(1, 60))) for _ in range(60)]
    est = TfidfVectorizer(**kw).fit(docs)
    new = [" ".join(rng.choice(words + ["unseen", "Words"], size=rng.integers(0, 200)))
           for _ in range(30)]
    stand = check(est, TEXTS + new, ("transform",))
    same(stand.transform([t.encode() for t in TEXTS]), est.transform(TEXTS))
    with pytest.raises(ValueError, match="string object"):
        stand.transform("one text")


def test_tfidf_vectorizer_refuses_callables():
    for kw in ({"analyzer": str.split}, {"tokenizer": str.split}, {"preprocessor": str.upper},
               {"analyzer": "char"}, {"stop_words": "english"}):
        est = TfidfVectorizer(**kw).fit(TEXTS)
        with pytest.raises(NotImplementedError):
            from_sklearn(est)


@pytest.mark.parametrize("kw", [{}, {"sublinear_tf": True, "norm": "l1"}, {"use_idf": False}])
def test_tfidf_transformer(kw):
    rng = np.random.default_rng(5)
    counts = rng.poisson(0.7, size=(50, 30)) * (rng.random((50, 30)) < 0.4)
    est = TfidfTransformer(**kw).fit(counts)
    new = rng.poisson(1.5, size=(20, 30)) * (rng.random((20, 30)) < 0.5)
    new[3] = 0
    for Xi in (new, new.astype(np.float32), sp.csr_matrix(new), sp.csr_array(new),
               sp.csr_matrix(new.astype(np.float32)), sp.csc_matrix(new)):
        check(est, Xi, ("transform",))


def test_row_normalize_long_rows():
    """Sums accumulated in order: long rows of values of all magnitudes."""
    rng = np.random.default_rng(11)
    X = sp.random(30, 5000, density=0.2, format="csr", random_state=12)
    X.data = rng.lognormal(sigma=6, size=X.nnz)
    X[7] = 0
    X.eliminate_zeros()
    est = TfidfTransformer(use_idf=False).fit(X)
    for norm in ("l1", "l2"):
        est.norm = norm
        check(est, X, ("transform",))
        check(est, X.astype(np.float32), ("transform",))


def _hgb_data(classes: int, seed: int = 0):
    X, y = _data(n=600, d=8, classes=classes, seed=seed)
    X[np.random.default_rng(seed).random(X.shape) < 0.1] = np.nan
    return X, y


@pytest.mark.parametrize("classes", [2, 3])
def test_hist_gradient_boosting(classes):
    X, y = _hgb_data(classes)
    for kw in ({"max_iter": 30}, {"max_iter": 20, "max_leaf_nodes": 5, "max_depth": 3},
               {"max_iter": 50, "early_stopping": True, "class_weight": "balanced"}):
        est = HistGradientBoostingClassifier(random_state=0, **kw).fit(X, np.array(list("abc"))[y])
        Xt, _ = _hgb_data(classes, seed=1)
        Xt[:5] = np.nan
        Xt[5:10] = np.inf
        Xt[10:15] = -np.inf
        for Xi in (Xt, Xt.astype(np.float32), np.asfortranarray(Xt), Xt[:1], Xt.tolist()):
            check(est, Xi, ("predict_proba", "decision_function", "predict"))
        with pytest.raises(TypeError, match="dense"):
            from_sklearn(est).predict(sp.csr_matrix(np.nan_to_num(Xt)))
        tree = est._predictors[3][0]
        same(from_sklearn(tree).predict(Xt), tree.predict(
            Xt, *est._bin_mapper.make_known_categories_bitsets(), n_threads=1))


def test_hist_gradient_boosting_many_rows():
    X, y = _hgb_data(2)
    est = HistGradientBoostingClassifier(max_iter=40, random_state=0).fit(X, y)
    stand = from_sklearn(est)
    Xt = np.random.default_rng(2).normal(size=(5000, X.shape[1]))
    same(stand.predict_proba(Xt), est.predict_proba(Xt))   # more rows than one chunk


def test_hist_gradient_boosting_refuses_categorical():
    X, y = _hgb_data(2)
    X[:, 0] = np.random.default_rng(0).integers(0, 4, size=len(X))
    est = HistGradientBoostingClassifier(max_iter=5, categorical_features=[0]).fit(X, y)
    with pytest.raises(NotImplementedError):
        from_sklearn(est)


@pytest.mark.parametrize("method", ["isotonic", "sigmoid"])
@pytest.mark.parametrize("classes", [2, 3])
@pytest.mark.parametrize("base", ["hgb", "lr", "svc"])
def test_calibrated_classifier(method, classes, base):
    X, y = _hgb_data(classes)
    if base != "hgb":
        X = np.nan_to_num(X)
    make = {"hgb": lambda: HistGradientBoostingClassifier(max_iter=20, random_state=0),
            "lr": lambda: LogisticRegression(max_iter=500), "svc": lambda: LinearSVC()}[base]
    for ensemble in (True, False):
        est = CalibratedClassifierCV(make(), method=method, cv=3, ensemble=ensemble).fit(X, y)
        Xt, _ = _hgb_data(classes, seed=4)
        if base != "hgb":
            Xt = np.nan_to_num(Xt)
        Xt[:20] *= 40   # beyond the calibration data: isotonic clipping
        check(est, Xt, ("predict_proba", "predict"))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("kw", [{}, {"increasing": False}, {"out_of_bounds": "nan"},
                                {"y_min": 0.1, "y_max": 0.8}])
def test_isotonic(dtype, kw):
    rng = np.random.default_rng(6)
    x = rng.normal(size=200).astype(dtype)
    y = (x + rng.normal(size=200) > 0).astype(float)
    est = IsotonicRegression(**kw).fit(x, y)
    t = np.concatenate([rng.normal(scale=2, size=300), est.X_thresholds_, [-50, 50]])
    for ti in (t, t.astype(np.float32), t.reshape(-1, 1), t.tolist()):
        check(est, ti, ("predict", "transform"))
    one = IsotonicRegression().fit([1.0, 1.0], [0.3, 0.3])
    check(one, t, ("predict",))
    raising = from_sklearn(IsotonicRegression(out_of_bounds="raise").fit(x, y))
    with pytest.raises(ValueError):
        raising.predict([100.0])


def test_pipeline_and_feature_union():
    X, y = _data(d=10)
    union = FeatureUnion([("a", StandardScaler()), ("b", "drop"), ("c", "passthrough"),
                          ("d", StandardScaler(with_mean=False))],
                         transformer_weights={"a": 0.5, "d": 3.0})
    pipe = Pipeline([("u", union), ("skip", None), ("p", "passthrough"),
                     ("lr", LogisticRegression(max_iter=500))]).fit(X, y)
    stand = check(pipe, X[:30], ("predict", "predict_proba", "decision_function"))
    check(pipe[:-1], X[:30], ("transform",))
    assert len(stand) == 4 and stand[-1] is stand.named_steps["lr"] is stand["lr"]
    assert stand.named_steps.lr is stand.steps[-1][1]
    same(stand.classes_, pipe.classes_)
    same(stand[:1].transform(X[:5]), pipe[:1].transform(X[:5]))
    sparse_union = FeatureUnion([("a", TfidfVectorizer()), ("b", TfidfVectorizer(norm="l1"))])
    check(sparse_union.fit(TEXTS), TEXTS, ("transform",))
    mixed = Pipeline([("u", FeatureUnion([("s", StandardScaler(with_mean=False)),
                                           ("t", StandardScaler())]))]).fit(X)
    check(mixed, X[:20], ("transform",))


def test_feature_union_sparse_and_dense():
    X, y = _data(d=6)

    class Sparse(StandardScaler):
        def transform(self, X, copy=None):
            return sp.csr_matrix(super().transform(X, copy))

    union = FeatureUnion([("d", StandardScaler()), ("s", Sparse())]).fit(X)
    same(from_sklearn(union).transform(X[:9]), union.transform(X[:9]))


def test_from_sklearn_shares_and_recurses():
    X, y = _data()
    lr = LogisticRegression().fit(X, y)
    graph = {"a": [lr, (lr, 3)], "b": {"c": lr}, "d": np.arange(3), "e": "text"}
    out = from_sklearn(graph)
    assert type(out["a"][0]) is P.LogisticRegression
    assert out["a"][0] is out["a"][1][0] is out["b"]["c"]
    assert out["d"] is graph["d"] and isinstance(out["a"][1], tuple)
    plain = {"x": [1, 2], "y": (np.zeros(2),)}
    assert from_sklearn(plain) is plain
    bunch = from_sklearn(Pipeline([("lr", lr)]).named_steps)
    assert type(bunch) is P.Bunch and type(bunch.lr) is P.LogisticRegression


def _dicts(n: int, seed: int = 0) -> list[dict[str, Any]]:
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}=tok{i * 7919 % 10007}" for i in range(20000)]
    out = []
    for _ in range(n):
        d: dict[str, Any] = {vocab[j]: 1 for j in rng.zipf(1.3, size=44) % len(vocab)}
        d["bias"] = 1.0
        d["len"] = float(rng.integers(1, 40))
        out.append(d)
    return out


@pytest.mark.parametrize("alternate_sign", [False, True])
@pytest.mark.parametrize("n_features", [2**18, 2**20, 7, 1])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_feature_hasher(alternate_sign, n_features, dtype):
    dicts = _dicts(300) + [{}, {"zero": 0, "neg": -2.5, "tag": "NN", "word": "ü", "b": True},
                           {"a": 1, "b": 0.0, "c": -0.0, "d": np.float32(0.1), "e": 10**20}]
    kw = {"n_features": n_features, "input_type": "dict", "alternate_sign": alternate_sign,
          "dtype": dtype}
    same(FeatureHasher(**kw).transform(dicts), SkFeatureHasher(**kw).transform(dicts))
    same(FeatureHasher(**kw).transform(iter(dicts[:3])), SkFeatureHasher(**kw).transform(dicts[:3]))


def test_feature_hasher_edges():
    for bad in ([], iter([])):
        with pytest.raises(ValueError, match="empty"):
            FeatureHasher().transform(bad)
    with pytest.raises(TypeError):
        FeatureHasher().transform([{3: 1}])
    with pytest.raises(TypeError):
        FeatureHasher().transform([{None: 1.0}])
    same(FeatureHasher().transform([{3: 0}]), SkFeatureHasher().transform([{3: 0}]))
    for d in ({3: "x"}, {b"bytes": 2, "str": 1}, {"a": np.int64(3), "b": 1e300, "c": 2**70}):
        same(FeatureHasher().transform([d]), SkFeatureHasher().transform([d]))
    for d in ({"x": b"y"}, {"x": None}):
        for cls in (FeatureHasher, SkFeatureHasher):
            with pytest.raises(TypeError, match="real number"):
                cls().transform([d])
    with pytest.raises(NotImplementedError):
        FeatureHasher(input_type="string")
    h = np.array([-2**31, 2**31 - 1, -5, 0, 5], dtype=np.int64)
    for n in (1, 7, 2**20, 2**31 - 1):
        rule = [(2147483647 - (n - 1)) % n if v == -2**31 else abs(v) % n for v in h.tolist()]
        assert _bucket(h, n).tolist() == rule


@pytest.mark.slow
def test_feature_hasher_speed():
    import time

    dicts = _dicts(20000)
    best = {}
    for name, cls in (("relx", FeatureHasher), ("sklearn", SkFeatureHasher)):
        hasher = cls(n_features=2**18, input_type="dict", alternate_sign=False)
        times = []
        for _ in range(3):
            start = time.perf_counter()
            hasher.transform(dicts)
            times.append(time.perf_counter() - start)
        best[name] = min(times)
    print(f"FeatureHasher on 20,000 dicts: relx {best['relx']:.3f} s, "
          f"sklearn {best['sklearn']:.3f} s")
    assert best["relx"] < 3 * best["sklearn"] + 0.05


# ----------------------------------------------------------------------- shipped models


def _shipped(predictors: bool = False) -> dict[str, Any] | None:
    """The shipped models' fitted parts: scikit-learn's objects, or (``predictors``) the
    reader's stand-ins (None where this relx's reader does not build them)."""
    import inspect

    from relx.ge.pipeline import EVENT_MODEL
    from relx.ge.pipeline import TRUSTED_TYPES as GE_TYPES
    from relx.learn.compact_linear import restore_coefs
    from relx.model_store import load_skops
    from relx.ppi.gene_relations import GENE_RELATION_MODEL
    from relx.ppi.gene_relations import TRUSTED_TYPES as GENE_TYPES
    from relx.ppi.model import RELATION_MODEL
    from relx.ppi.model import TRUSTED_TYPES as PPI_TYPES

    if "predictors" in inspect.signature(load_skops).parameters:
        kw = {"predictors": predictors}
    elif predictors:
        return None
    else:
        kw = {}
    out = {}
    for name, types, kind in (("ppi-default", PPI_TYPES, RELATION_MODEL),
                              ("gene-relations", GENE_TYPES, GENE_RELATION_MODEL),
                              ("ge-events", GE_TYPES, EVENT_MODEL)):
        _, parts = load_skops(ROOT / "models" / name, types, kind, **kw)
        if isinstance(parts, dict) and "compact_coef" in parts:
            restore_coefs(parts, parts.pop("compact_coef"),
                          column_major=("trigger_model", "edge_linear"))
        out[name] = parts
    return out


def _sklearn_name(obj: Any) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


def _walk(obj: Any, keep: Any, seen: set[int] | None = None,
          found: list[Any] | None = None) -> list[Any]:
    """The objects of a model graph for which ``keep`` holds, depth first."""
    seen = set() if seen is None else seen
    found = [] if found is None else found
    if id(obj) in seen:
        return found
    seen.add(id(obj))
    if keep(obj):
        found.append(obj)
    if isinstance(obj, dict):
        children = list(obj.values())
    elif isinstance(obj, list | tuple):
        children = list(obj)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        children = list(vars(obj).values())
    else:
        children = []
    for c in children:
        _walk(c, keep, seen, found)
    return found


def _compare_shipped(obj: Any, stands: list[Any], rng: np.random.Generator) -> str | None:
    """Each of ``stands`` predicts as shipped scikit-learn object ``obj``; what was compared
    (None: a kind not compared on its own, as a pipeline of relx transformers)."""
    name = type(obj).__name__
    checks: list[tuple[str, Any]] = []
    kind: str | None = name
    if name in ("LogisticRegression", "LinearSVC") and hasattr(obj, "coef_"):
        d = obj.n_features_in_
        X = rng.normal(size=(6, d))
        Xs = sp.random(50, d, density=min(1.0, 40 / d), format="csr", random_state=rng)
        methods = ["decision_function", "predict"] + (
            ["predict_proba"] if name == "LogisticRegression" else [])
        checks = [(m, Xi) for Xi in (X, Xs) for m in methods]
        kind = f"{name}({len(obj.classes_)} classes)"
    elif name in ("HistGradientBoostingClassifier", "CalibratedClassifierCV") and \
            hasattr(obj, "classes_"):
        X = rng.normal(size=(300, obj.n_features_in_)) * rng.choice([0.1, 1, 10], size=(300, 1))
        X[rng.random(X.shape) < 0.05] = np.nan
        X = X if name == "HistGradientBoostingClassifier" else np.nan_to_num(X)
        methods = ["predict_proba", "predict"] + (
            ["decision_function"] if name.startswith("Hist") else [])
        checks = [(m, X) for m in methods]
    elif name == "StandardScaler":
        checks = [("transform", rng.normal(size=(20, obj.n_features_in_)))]
    elif name == "TfidfVectorizer" and hasattr(obj, "vocabulary_"):
        vocab = sorted(obj.vocabulary_)
        checks = [("transform", TEXTS + [" ".join(rng.choice(vocab, size=30))
                                         for _ in range(5)])]
    elif name == "IsotonicRegression":
        checks = [("predict", rng.normal(scale=5, size=100))]
    else:
        return None
    for stand in stands:
        assert type(stand) is SUBSTITUTES[_sklearn_name(obj)]
        for method, X in checks:
            same(getattr(stand, method)(X), getattr(obj, method)(X))
    return kind


@pytest.mark.slow
def test_shipped_models_bit_identical():
    """Every substituted object of the shipped models, converted by :func:`from_sklearn`
    (and as the reader builds it, where it builds stand-ins), predicts as scikit-learn's."""
    rng = np.random.default_rng(0)
    compared: dict[str, list[str]] = {}
    read = _shipped(predictors=True)
    for model, parts in _shipped().items():
        found = _walk(parts, lambda o: _sklearn_name(o) in SUBSTITUTES)
        assert found, f"{model}: no scikit-learn objects (loaded as stand-ins?)"
        converted = from_sklearn(parts)
        assert not _walk(converted, lambda o: type(o).__module__.startswith("sklearn"))
        ours = _walk(converted, lambda o: type(o) in SUBSTITUTES.values())
        assert [_sklearn_name(o).rsplit(".")[-1] for o in found] == \
            [type(o).__name__ for o in ours]
        theirs = ours if read is None else _walk(
            read[model], lambda o: type(o) in SUBSTITUTES.values())
        assert len(theirs) == len(found)
        compared[model] = [k for k in (_compare_shipped(o, [a, b], rng)
                                       for o, a, b in zip(found, ours, theirs, strict=True))
                           if k]
    assert any("HistGradient" in k for k in compared["ppi-default"])
    assert "CalibratedClassifierCV" in compared["gene-relations"]
    assert "TfidfVectorizer" in compared["gene-relations"]
    assert any("LinearSVC" in k for k in compared["ge-events"])
    print(compared)


@pytest.mark.slow
def test_shipped_relation_model_scores():
    """ppi-default's whole pipeline, converted, scores the fixture pairs bit for bit."""
    from relx.io.ppi_xml import read_ppi_xml
    from relx.ppi.model import RelationModel, load_model
    from relx.represent.instances import pair_instances

    loaded = load_model(ROOT / "models" / "ppi-default")
    sk = RelationModel(_shipped()["ppi-default"], loaded.config, loaded.meta)
    assert _sklearn_name(sk.pipeline) == "sklearn.pipeline.Pipeline"
    ours = RelationModel(from_sklearn(sk.pipeline), sk.config, sk.meta)
    assert type(ours.pipeline) is P.Pipeline
    inst = pair_instances(read_ppi_xml(ROOT / "tests" / "fixtures" / "ppi-mini.xml"))
    for in_domain in (False, True):
        expected = sk.scores(inst, in_domain=in_domain)
        same(ours.scores(inst, in_domain=in_domain), expected)
        same(loaded.scores(inst, in_domain=in_domain), expected)


def test_to_sklearn_gives_back_scikit_learn_objects_that_predict_the_same():
    """A model loaded to predict (stand-ins) is saved as scikit-learn's objects again."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    from relx.learn.predictors import to_sklearn

    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 4))
    y = (X[:, 0] + rng.normal(size=120) > 0).astype(int)
    models = [Pipeline([("s", StandardScaler()), ("lr", LogisticRegression())]).fit(X, y),
              CalibratedClassifierCV(HistGradientBoostingClassifier(max_iter=5), cv=3,
                                     method="isotonic").fit(X, y)]
    for model in models:
        light = from_sklearn(model)
        back = to_sklearn(light)
        assert type(back) is type(model) and type(light) is not type(model)
        assert np.array_equal(back.predict_proba(X), model.predict_proba(X))
        assert np.array_equal(light.predict_proba(X), model.predict_proba(X))
