"""ProbabilityEnsemble: soft voting, out-of-fold threshold, EM prior-shift adjustment."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score, roc_auc_score
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from relx.learn.ensemble import ProbabilityEnsemble, em_prior
from relx.learn.forest import best_f1_threshold


def _data(n=600, seed=0, weights=(0.75,)):
    return make_classification(n_samples=n, n_features=10, n_informative=4,
                               weights=list(weights), random_state=seed)


def _members():
    return [Pipeline([("scale", StandardScaler()), ("lr", LogisticRegression())]), GaussianNB()]


def test_ensemble_scores_are_weighted_member_means_and_threshold_is_oof_f1_best():
    X, y = _data()
    ens = ProbabilityEnsemble(_members(), weights=[3.0, 1.0], random_state=0).fit(X, y)
    P = ens.member_proba(X[:50])
    lr = ens.estimators_[0].predict_proba(X[:50])[:, 1]
    nb = ens.estimators_[1].predict_proba(X[:50])[:, 1]
    np.testing.assert_allclose(P, np.c_[lr, nb])
    np.testing.assert_allclose(ens.score(P), 0.75 * lr + 0.25 * nb)
    assert ens.oof_.shape == (len(y), 2)
    # out-of-fold, not in-sample: differs from the full-data member's training probabilities
    assert not np.allclose(ens.oof_[:, 0], ens.estimators_[0].predict_proba(X)[:, 1])
    assert ens.score_threshold_ == best_f1_threshold(y == 1, ens.score(ens.oof_))
    s = ens.score(ens.member_proba(X))
    np.testing.assert_array_equal(ens.predict(X), (s > ens.score_threshold_).astype(int))
    q = ens.predict_proba(X)[:, 1]
    assert np.all(np.diff(q[np.argsort(s)]) >= -1e-12)  # calibration is monotone in s


def test_ensemble_beats_chance_and_weight_zero_member_is_not_fitted():
    X, y = _data(800, seed=1)
    ens = ProbabilityEnsemble(_members(), weights=[1.0, 0.0], random_state=0).fit(X[:500], y[:500])
    assert ens.estimators_[1] is None and np.all(ens.oof_[:, 1] == 0)
    assert f1_score(y[500:], ens.predict(X[500:])) > 0.6
    with pytest.raises(ValueError, match="weight"):
        ProbabilityEnsemble(_members(), weights=[1.0]).fit(X, y)
    with pytest.raises(ValueError, match="prior_shift"):
        ProbabilityEnsemble(_members(), prior_shift="bayes").fit(X, y)


def test_ensemble_refit_steps_refits_the_pipeline_tail_per_fold():
    X, y = _data(300, seed=2)
    one = ProbabilityEnsemble(_members()[:1], refit_steps=[1], random_state=0).fit(X, y)
    two = ProbabilityEnsemble(_members()[:1], refit_steps=[2], random_state=0).fit(X, y)
    # refitting the scaler per fold changes the out-of-fold probabilities slightly
    assert not np.allclose(one.oof_, two.oof_)
    np.testing.assert_allclose(one.oof_, two.oof_, atol=0.05)


def test_em_prior_recovers_a_shifted_positive_rate():
    rng = np.random.default_rng(0)
    train_prior, test_prior = 0.3, 0.1
    # a test sample with 10% positives; posteriors exact under the training prior 0.3
    n = 20000
    y = rng.random(n) < test_prior
    x = rng.normal(np.where(y, 1.5, 0.0), 1.0)
    lik1, lik0 = np.exp(-(x - 1.5) ** 2 / 2), np.exp(-x ** 2 / 2)
    q = train_prior * lik1 / (train_prior * lik1 + (1 - train_prior) * lik0)
    pi, adj = em_prior(q, train_prior)
    assert abs(pi - test_prior) < 0.02
    assert adj.mean() == pytest.approx(pi, abs=1e-4)
    assert np.all(adj <= q + 1e-12)  # a lower prior lowers every posterior


def test_ensemble_prior_shift_lowers_positive_predictions_on_a_negative_heavy_batch():
    X, y = _data(1000, seed=3, weights=(0.6,))
    base = ProbabilityEnsemble(_members(), random_state=0).fit(X[:600], y[:600])
    em = ProbabilityEnsemble(_members(), prior_shift="em", random_state=0).fit(X[:600], y[:600])
    test = np.r_[np.flatnonzero(y[600:] == 0), np.flatnonzero(y[600:] == 1)[:15]] + 600
    assert em.predict(X[test]).sum() < base.predict(X[test]).sum()
    assert em.test_prior_ < base.prior_
    np.testing.assert_allclose(em.score(em.member_proba(X[test])),
                               base.score(base.member_proba(X[test])))


def test_best_config_builds_an_ensemble_of_the_two_member_pipelines():
    from conftest import ROOT

    from relx.registry import build_pipeline, load_config

    pipe = build_pipeline(load_config(ROOT / "configs" / "ppi-ensemble-g2p.toml"), random_state=7)
    ens = pipe.steps[-1][1]
    assert isinstance(ens, ProbabilityEnsemble) and ens.random_state == 7
    kinds = [[type(s).__name__ for _, s in m.steps] for m in ens.estimators]
    assert kinds == [["KLSHEncoder", "RandomSubspaceForest"],
                     ["SimilarityFeatures", "G2PEmbedding", "MSEFLDA"]]
    assert len(ens.weights) == len(ens.estimators) == len(ens.refit_steps)


def test_ensemble_rate_rule_keeps_the_training_positive_prediction_rate():
    X, y = _data(1000, seed=4, weights=(0.7,))
    ens = ProbabilityEnsemble(_members(), prior_shift="rate", random_state=0).fit(X[:600], y[:600])
    assert 0 < ens.train_positive_rate_ < 1
    test = np.r_[np.flatnonzero(y[600:] == 0), np.flatnonzero(y[600:] == 1)[:20]] + 600
    pred = ens.predict(X[test])
    assert abs(pred.mean() - ens.train_positive_rate_) < 0.01
    plain = ens.set_params(prior_shift=None).predict(X[test])
    assert pred.sum() > plain.sum()  # negative-heavy batch: the rate rule lowers the threshold


def test_in_domain_rule_is_a_second_threshold_from_the_same_out_of_fold_scores():
    from relx.learn.forest import rule_threshold

    X, y = _data(800, seed=3, weights=(0.85,))
    kw = dict(estimators=_members(), threshold="youden", random_state=0)
    ens = ProbabilityEnsemble(in_domain_threshold="f1", **kw).fit(X[:500], y[:500])
    s = ens.score(ens.oof_)
    assert ens.score_threshold_ == rule_threshold("youden", y[:500] == 1, s)
    f1_cut = rule_threshold("f1", y[:500] == 1, s)
    np.testing.assert_allclose(ens.in_domain_threshold_, ens._calibrate(np.array([f1_cut]))[0])
    assert ens.in_domain_threshold_ != ens.threshold_
    P = ens.member_proba(X[500:])
    q = ens.posterior(P)
    np.testing.assert_array_equal(ens.decide(P, in_domain=True), q > ens.in_domain_threshold_)
    np.testing.assert_array_equal(ens.decide(P), q > ens.threshold_)  # new text: Youden
    # with a rare positive class Youden marks more pairs than the F1-best cut
    assert ens.decide(P).sum() > ens.decide(P, in_domain=True).sum()
    # unset (or "none" from TOML): the in-domain rule is the new-text rule
    for unset in (None, "none"):
        plain = ProbabilityEnsemble(in_domain_threshold=unset, **kw).fit(X[:500], y[:500])
        assert plain.in_domain_threshold_ == plain.threshold_ == ens.threshold_


@pytest.mark.slow
def test_stacked_in_domain_combiner_learns_member_weights_on_out_of_fold_logits():
    from relx.learn.ensemble import _logit, quantile_map
    from relx.learn.forest import rule_threshold

    X, y = _data(900, seed=5, weights=(0.8,))
    rng = np.random.default_rng(0)
    Xn = np.c_[X, rng.normal(size=(len(X), 3))]
    # member 2 sees only noise columns: the stacker should weigh it near zero
    members = [Pipeline([("pick", _Columns(slice(0, 10))), ("lr", LogisticRegression())]),
               Pipeline([("pick", _Columns(slice(10, 13))), ("lr", LogisticRegression())])]
    kw = dict(estimators=members, weights=[1.0, 1.0], threshold="youden", normalise="quantile",
              in_domain_threshold="f1", random_state=0)
    ens = ProbabilityEnsemble(in_domain_combiner="stacked", **kw).fit(Xn[:600], y[:600])
    plain = ProbabilityEnsemble(**kw).fit(Xn[:600], y[:600])
    Z = _logit(np.column_stack([quantile_map(np.sort(ens.oof_[:, j]), ens.oof_[:, j])
                                for j in range(2)]))
    ref = LogisticRegression(C=1.0, max_iter=1000).fit(Z, y[:600] == 1)
    np.testing.assert_allclose(ens.in_domain_coef_, ref.coef_[0], rtol=1e-6)
    assert ens.in_domain_intercept_ == pytest.approx(ref.intercept_[0], rel=1e-6)
    assert ens.in_domain_coef_[0] > 5 * abs(ens.in_domain_coef_[1])
    q_oof = ref.predict_proba(Z)[:, 1]
    assert ens.in_domain_threshold_ == pytest.approx(rule_threshold("f1", y[:600] == 1, q_oof))
    P = ens.member_proba(Xn[600:])
    q_in = ens.in_domain_posterior(P)
    np.testing.assert_array_equal(ens.decide(P, in_domain=True), q_in > ens.in_domain_threshold_)
    np.testing.assert_allclose(ens.in_domain_proba(Xn[600:])[:, 1], q_in)
    # the stacked posterior ignores the noise member; the fixed 1:1 mean does not
    assert roc_auc_score(y[600:], q_in) > roc_auc_score(y[600:], ens.posterior(P)) + 0.02
    # new text is untouched: same posterior, threshold and decisions as without the stacker
    np.testing.assert_allclose(ens.posterior(P), plain.posterior(P))
    assert ens.threshold_ == plain.threshold_
    np.testing.assert_array_equal(ens.predict(Xn[600:]), plain.predict(Xn[600:]))
    assert ens.has_in_domain_rule and plain.in_domain_coef_ is None
    assert ProbabilityEnsemble(in_domain_combiner="stacked").has_in_domain_rule
    with pytest.raises(ValueError, match="in_domain_combiner"):
        ProbabilityEnsemble(in_domain_combiner="mean", **kw).fit(Xn[:100], y[:100])


def test_weight_zero_member_is_in_domain_only_when_stacked():
    X, y = _data(700, seed=6, weights=(0.8,))
    kw = dict(estimators=_members(), weights=[1.0, 0.0], threshold="youden",
              normalise="quantile", random_state=0)
    stacked = ProbabilityEnsemble(in_domain_combiner="stacked", **kw).fit(X[:500], y[:500])
    plain = ProbabilityEnsemble(**kw).fit(X[:500], y[:500])
    assert plain.estimators_[1] is None and stacked.estimators_[1] is not None
    assert stacked.in_domain_coef_[1] != 0
    P = stacked.member_proba(X[500:])
    # new text: the weight-0 member stays out of the mean
    np.testing.assert_allclose(stacked.posterior(P), plain.posterior(plain.member_proba(X[500:])))
    # in-domain: it is stacked with the other one
    Z = stacked._member_logits(P)
    np.testing.assert_allclose(stacked.in_domain_posterior(P),
                               1 / (1 + np.exp(-(Z @ stacked.in_domain_coef_
                                                 + stacked.in_domain_intercept_))))
    assert np.count_nonzero(Z[:, 1]) > len(Z) // 2  # the weight-0 member's logits are used


class _Columns(BaseEstimator):
    """Keep a slice of the columns (a stand-in feature extractor for one member)."""

    def __init__(self, cols=slice(None)):
        self.cols = cols

    def fit(self, X, y=None):
        return self

    def transform(self, X):
        return X[:, self.cols]


def test_relation_model_exposes_the_in_domain_threshold():
    from relx.ppi.model import RelationModel

    X, y = _data(500, seed=4, weights=(0.85,))
    ens = ProbabilityEnsemble(_members(), threshold="youden", in_domain_threshold="f1",
                              random_state=0).fit(X, y)
    model = RelationModel(Pipeline([("ensemble", ens)]), config={})
    assert model.threshold == ens.threshold_
    assert model.in_domain_threshold == ens.in_domain_threshold_ != ens.threshold_
    single = RelationModel(Pipeline([("lr", LogisticRegression().fit(X, y))]), config={})
    assert single.in_domain_threshold == single.threshold == 0.5


def test_bagged_f1_threshold_is_the_median_of_resampled_f1_best_cuts():
    from relx.learn.forest import bagged_f1_threshold, rule_threshold

    rng = np.random.default_rng(0)
    y = rng.random(2000) < 0.2
    s = np.where(y, rng.normal(1.0, 1.0, 2000), rng.normal(0.0, 1.0, 2000))
    t = bagged_f1_threshold(y, s, n_resamples=20, seed=3)
    assert t == bagged_f1_threshold(y, s, n_resamples=20, seed=3)  # seeded
    assert rule_threshold("f1-bagged", y, s) == bagged_f1_threshold(y, s)
    draws = np.random.default_rng(3)
    cuts = [best_f1_threshold(y[i], s[i]) for i in (draws.integers(0, 2000, 2000)
                                                     for _ in range(20))]
    assert t == float(np.median(cuts))
    assert abs(t - best_f1_threshold(y, s)) < 0.5  # near the single cut on clean data


class _Counting(BaseEstimator):
    """A fitted member that counts the rows it is asked to score."""

    def __init__(self, inner=None):
        self.inner = inner

    def fit(self, X, y):
        self.inner_ = LogisticRegression().fit(X, y)
        self.classes_ = self.inner_.classes_
        self.seen_ = 0
        return self

    def predict_proba(self, X):
        self.seen_ += len(X)
        return self.inner_.predict_proba(X)


@pytest.mark.parametrize("normalise", ["quantile", None])
def test_posterior_above_settles_rows_without_the_deferred_member_and_is_exact_elsewhere(
        normalise):
    X, y = _data(n=800, seed=3)
    ens = ProbabilityEnsemble([_Counting(), GaussianNB()], weights=[1.0, 3.0],
                              normalise=normalise, random_state=0).fit(X[:500], y[:500])
    test = X[500:]
    full = ens.predict_proba(test)[:, 1]
    below = ens.threshold_
    ens.estimators_[0].seen_ = 0
    q = ens.posterior_above(test, below, deferred=[0])
    settled = np.isnan(q)
    assert 0 < settled.sum() < len(test)                 # the bound settles some rows, not all
    assert ens.estimators_[0].seen_ == (~settled).sum()  # the deferred member ran on the rest
    np.testing.assert_array_equal(q[~settled], full[~settled])   # bit for bit
    assert (full[settled] <= below).all()                # a settled row could not pass
    # the decisions at ``below`` are those of the full posterior
    np.testing.assert_array_equal(np.nan_to_num(q, nan=-1.0) > below, full > below)


def test_posterior_above_scores_every_row_without_a_bound():
    X, y = _data(n=700, seed=4)
    ens = ProbabilityEnsemble(_members(), prior_shift="em", random_state=0).fit(X[:500], y[:500])
    q = ens.posterior_above(X[500:], ens.threshold_, deferred=[0])
    assert not np.isnan(q).any()
    np.testing.assert_array_equal(q, ens.predict_proba(X[500:])[:, 1])
    plain = ProbabilityEnsemble(_members(), random_state=0).fit(X[:500], y[:500])
    np.testing.assert_array_equal(plain.posterior_above(X[500:], -np.inf, deferred=[0]),
                                  plain.predict_proba(X[500:])[:, 1])
    np.testing.assert_array_equal(plain.posterior_above(X[500:], 0.5, deferred=[]),
                                  plain.predict_proba(X[500:])[:, 1])
