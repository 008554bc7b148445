"""(Dis)similarity features, G2P embedding (Mu et al. 2012 eq. 39/40) and MSE-FLDA."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
from sklearn.datasets import make_classification
from sklearn.metrics import f1_score, roc_auc_score
from sklearn.pipeline import Pipeline
from sklearn.utils.estimator_checks import check_estimator

from relx.learn.flda import MSEFLDA, mse_fisher
from relx.represent.g2p import G2PEmbedding, energy_components
from relx.represent.similarity import SimilarityFeatures


def _data(n=300, seed=0, weights=None):
    X, y = make_classification(n_samples=n, n_features=8, n_informative=4, weights=weights,
                               random_state=seed)
    return X, y


@pytest.mark.parametrize("estimator", [
    SimilarityFeatures(kernel="rbf"),
    SimilarityFeatures(kernel=["rbf", "linear"], weights=[1.0, 0.5], n_prototypes=10,
                       prototypes="balanced", random_state=0),
    G2PEmbedding(n_neighbors=5, reg=1.0),
    G2PEmbedding(weighting="class", reg=0.1),
    MSEFLDA(),
    MSEFLDA(reg=1.0, threshold="auto", random_state=0),
], ids=lambda e: repr(e))
def test_sklearn_estimator_contract(estimator):
    check_estimator(estimator)


# -- similarity features -------------------------------------------------------------------
class _RecordingKernel:
    """A kernel object on numeric rows that records the block shapes it is asked for."""

    def __init__(self, scale=1.0):
        self.scale = scale
        self.calls = []

    def gram(self, A, B=None):
        A = np.asarray(A, float)
        B = A if B is None else np.asarray(B, float)
        self.calls.append((len(A), len(B)))
        return self.scale * np.exp(-((A[:, None, :] - B[None, :, :]) ** 2).sum(-1))


def test_similarity_features_combine_kernels_and_compute_only_prototype_blocks(mini_xml):
    from relx.io import read_ppi_xml
    from relx.kernels.structure import PathKernel
    from relx.represent.instances import StructureExtractor, labels, pair_instances

    inst = pair_instances(read_ppi_xml(mini_xml))
    X = StructureExtractor(structures=["path", "sequence"]).fit_transform(inst)
    kp, ks = PathKernel(structure="path"), PathKernel(structure="sequence", lam=0.3)
    sim = SimilarityFeatures(kernel=[kp, ks], weights=[0.7, 0.2], n_prototypes=4,
                             prototypes="balanced", random_state=0)
    R = sim.fit_transform(X, labels(inst))
    ref = sim.prototypes_
    expected = (0.7 * kp.gram(X, ref) + 0.2 * ks.gram(X, ref)) / 0.9  # Mu eq. 37
    assert R.shape == (len(inst), 4)
    np.testing.assert_allclose(R, expected, atol=1e-12)
    np.testing.assert_allclose(sim.transform(X[:3]), expected[:3], atol=1e-12)
    # all training instances as prototypes: the training block is the (symmetric) Gram
    full = SimilarityFeatures(kernel=kp).fit(X)
    np.testing.assert_allclose(full.fit_transform(X), kp.gram(X), atol=1e-12)
    assert full.transform(X[:2]).shape == (2, len(inst))


def test_similarity_features_never_compute_a_query_by_query_gram():
    X, y = _data(60)
    k1, k2 = _RecordingKernel(), _RecordingKernel(2.0)
    sim = SimilarityFeatures(kernel=[k1, k2], weights=[1.0, 0.0], n_prototypes=7,
                             random_state=0).fit(X[:40], y[:40])
    R = sim.transform(X[40:])
    assert R.shape == (20, 7) and k1.calls == [(20, 7)] and k2.calls == []  # weight 0: skipped
    np.testing.assert_allclose(R, _RecordingKernel().gram(X[40:], X[:40][sim.prototype_indices_]))
    with pytest.raises(ValueError, match="weights"):
        SimilarityFeatures(kernel=[k1, k2], weights=[1.0]).fit(X)
    with pytest.raises(ValueError, match="prototypes"):
        SimilarityFeatures(kernel=k1, n_prototypes=5, prototypes="best").fit(X)


# -- G2P -----------------------------------------------------------------------------------
def _similarity_problem(n=120, seed=0):
    X, y = _data(n, seed)
    S = SimilarityFeatures(kernel="rbf").fit_transform(X)
    return S, y


@pytest.mark.parametrize("weighting,affinity", [("local", "precomputed"), ("local", "cosine"),
                                                ("class", "cosine")])
def test_g2p_satisfies_constraint_and_beats_random_projections(weighting, affinity):
    S, y = _similarity_problem()
    g2p = G2PEmbedding(n_neighbors=8, reg=0.5, n_components=5, weighting=weighting,
                       affinity=affinity).fit(S, y)
    P = g2p.components_
    A, B = g2p.objective_matrices(S, y)
    np.testing.assert_allclose(P.T @ B @ P, np.eye(P.shape[1]), atol=1e-8)  # Pᵀ(SᵀS+λI)P = I
    best = np.trace(P.T @ A @ P)
    np.testing.assert_allclose(best, g2p.eigenvalues_[:5].sum(), rtol=1e-8)
    rng = np.random.default_rng(0)
    for _ in range(50):  # random projections scaled onto the same constraint
        Q = rng.normal(size=P.shape)
        Q = Q @ np.linalg.inv(np.linalg.cholesky(Q.T @ B @ Q)).T
        np.testing.assert_allclose(Q.T @ B @ Q, np.eye(5), atol=1e-8)
        assert np.trace(Q.T @ A @ Q) < best
    np.testing.assert_allclose(g2p.transform(S[:7]), S[:7] @ P)


def test_g2p_objective_matches_eq39_written_out():
    S, y = _similarity_problem(60)
    h, lam = 6, 0.3
    A, B = G2PEmbedding(n_neighbors=h, reg=lam, affinity="precomputed").objective_matrices(S, y)
    n = len(y)
    knn = np.zeros((n, n), bool)
    for i in range(n):
        others = np.argsort(-np.where(np.arange(n) == i, -np.inf, S[i]), kind="stable")[:h]
        knn[i, others] = True
    N = knn | knn.T | np.eye(n, dtype=bool)  # symmetric h-NN indicator (self included)
    ypm = np.where(y == 1, 1.0, -1.0)
    W = np.outer(ypm, ypm) * N * S  # S_Y ∘ N(S, h) ∘ S
    np.testing.assert_allclose(A, S.T @ W @ S, atol=1e-9)
    np.testing.assert_allclose(B, S.T @ S + lam * np.eye(n), atol=1e-12)
    A_cls, _ = G2PEmbedding(weighting="class", reg=lam).objective_matrices(S, y)
    np.testing.assert_allclose(A_cls, S.T @ np.outer(ypm, ypm) @ S, atol=1e-8)
    assert np.linalg.matrix_rank(A_cls, tol=1e-8 * np.abs(A_cls).max()) == 1


def test_energy_selection_eq40():
    vals = np.array([4.0, 2.0, 1.0, 0.5, -0.5, -1.0])
    sq = vals ** 2
    for energy in (0.1, 0.7, 0.9, 0.95, 0.99, 0.999, 1.0):
        brute = min(k for k in range(1, 7) if sq[:k].sum() / sq.sum() >= energy)
        assert energy_components(vals, energy) == brute
    assert energy_components(vals, 16 / sq.sum()) == 1  # exactly the first eigenvalue's share
    S, y = _similarity_problem()
    for energy in (0.5, 0.9, 0.999):
        g2p = G2PEmbedding(n_neighbors=10, reg=1.0, energy=energy).fit(S, y)
        assert g2p.n_components_ == energy_components(g2p.eigenvalues_, energy)
        assert g2p.transform(S).shape == (len(S), g2p.n_components_)
    assert np.all(np.diff(g2p.eigenvalues_) <= 1e-12)  # decreasing
    ref = scipy.linalg.eigh(*G2PEmbedding(n_neighbors=10, reg=1.0).objective_matrices(S, y),
                            eigvals_only=True)
    np.testing.assert_allclose(g2p.eigenvalues_, ref[::-1], atol=1e-8)
    # class-only weighting: rank one for two classes, so one component carries all energy
    assert G2PEmbedding(weighting="class", energy=0.9999).fit(S, y).n_components_ == 1


def test_g2p_input_checks():
    S, y = _similarity_problem(40)
    with pytest.raises(ValueError, match="square"):
        G2PEmbedding(affinity="precomputed").fit(S[:, :10], y)
    with pytest.raises(ValueError, match="reg"):
        G2PEmbedding(reg=0.0).fit(S, y)
    with pytest.raises(ValueError, match="weighting"):
        G2PEmbedding(weighting="global").fit(S, y)
    h = G2PEmbedding(n_neighbors=0.25)._h(40)
    assert h == 10 and G2PEmbedding(n_neighbors=500)._h(40) == 39


# -- MSE-FLDA ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mse_flda_is_fishers_discriminant(seed):
    rng = np.random.default_rng(seed)
    d = 5
    L = rng.normal(size=(d, d))
    X1 = rng.normal(size=(60, d)) @ L + rng.normal(size=d)
    X2 = rng.normal(size=(140, d)) @ L + rng.normal(size=d)
    X, y = np.r_[X1, X2], np.r_[np.ones(60, int), np.zeros(140, int)]
    clf = MSEFLDA().fit(X, y)
    m1, m2 = X1.mean(0), X2.mean(0)
    Sw = (X1 - m1).T @ (X1 - m1) + (X2 - m2).T @ (X2 - m2)
    fisher = np.linalg.solve(Sw, m1 - m2)
    cos = clf.coef_ @ fisher / np.linalg.norm(clf.coef_) / np.linalg.norm(fisher)
    assert cos == pytest.approx(1.0, abs=1e-10)  # same direction (and sign), up to scale
    assert clf.intercept_ == pytest.approx(-clf.coef_ @ X.mean(0), abs=1e-8)  # w0 = -wᵀm
    np.testing.assert_array_equal(clf.predict(X), (X @ clf.coef_ + clf.intercept_ > 0).astype(int))
    # ridge: a small penalty barely moves the direction, the pseudo-inverse fit is exact
    w, _ = mse_fisher(X, y == 1, reg=1e-6)
    assert w @ fisher / np.linalg.norm(w) / np.linalg.norm(fisher) == pytest.approx(1, abs=1e-8)


def test_mse_flda_threshold_and_calibrated_probabilities():
    X, y = _data(400, weights=[0.85])
    Xtr, ytr, Xte, yte = X[:250], y[:250], X[250:], y[250:]
    clf = MSEFLDA(random_state=0).fit(Xtr, ytr)
    p = clf.predict_proba(Xte)
    assert p.shape == (150, 2) and np.allclose(p.sum(1), 1) and clf.scale_ > 0
    np.testing.assert_array_equal(clf.predict(Xte), (p[:, 1] > 0.5).astype(int))
    assert roc_auc_score(yte, p[:, 1]) == pytest.approx(roc_auc_score(yte, clf.decision_function(Xte)))
    auto = MSEFLDA(threshold="auto", random_state=0).fit(Xtr, ytr)
    assert auto.decision_threshold_ != 0 and auto.threshold_ == 0.5
    np.testing.assert_allclose(auto.decision_function(Xte),
                               clf.decision_function(Xte) - auto.decision_threshold_)
    fixed = MSEFLDA(threshold=0.7).fit(Xtr, ytr)
    np.testing.assert_array_equal(fixed.predict(Xte),
                                  (clf.decision_function(Xte) > 0.7).astype(int))
    with pytest.raises(ValueError, match="binary"):
        MSEFLDA().fit(Xtr, ytr % 3 + (Xtr[:, 0] > 0))


def test_similarity_g2p_flda_pipeline_learns():
    X, y = _data(600, seed=3)
    pipe = Pipeline([("sim", SimilarityFeatures(kernel="rbf", n_prototypes=100, random_state=0)),
                     ("g2p", G2PEmbedding(n_neighbors=15, reg=0.1, energy=0.99)),
                     ("clf", MSEFLDA(random_state=0))]).fit(X[:400], y[:400])
    assert f1_score(y[400:], pipe.predict(X[400:])) > 0.75


# -- real data -----------------------------------------------------------------------------
@pytest.mark.slow
def test_g2p_flda_config_learns_on_aimed_documents():
    """configs/ppi-g2p-flda.toml (fewer prototypes, for time) on an AIMed document split."""
    from conftest import ROOT, corpus_file

    from relx.ppi.evaluate import document_folds, load_corpus
    from relx.registry import build_pipeline, load_config
    from relx.represent.instances import labels, pair_instances

    docs = load_corpus(corpus_file("AIMed"))
    fold = document_folds(docs, 5, seed=0)
    train = pair_instances([d for d in docs if fold[d.id] != 0])
    test = pair_instances([d for d in docs if fold[d.id] == 0])
    cfg = load_config(ROOT / "configs" / "ppi-g2p-flda.toml")
    pipe = build_pipeline(cfg, random_state=0)
    pipe.set_params(similarity__n_prototypes=400)
    pipe.fit(train, labels(train))
    y = labels(test)
    pred = pipe.predict(test)
    baseline = 2 * y.mean() / (1 + y.mean())  # F1 of calling every pair positive
    assert f1_score(y, pred) > baseline + 0.08
    assert roc_auc_score(y, pipe.predict_proba(test)[:, 1]) > 0.68


def test_g2p_flda_model_saves_and_loads(tmp_path) -> None:
    """A trained G2P + MSE-FLDA relation model round-trips through skops (its types are
    trusted by relx.ppi.model) and scores the same afterwards."""
    from conftest import FIXTURES

    from relx.io.ppi_xml import read_ppi_xml
    from relx.ppi.model import load_model, train_model
    from relx.registry import load_config
    from relx.represent.instances import pair_instances

    docs = list(read_ppi_xml(FIXTURES / "ppi-mini.xml"))
    model = train_model(load_config("configs/ppi-g2p-flda.toml"), docs, name="g2p-test")
    loaded = load_model(model.save(tmp_path / "m"))
    inst = pair_instances(docs)
    np.testing.assert_allclose(loaded.scores(inst), model.scores(inst))
