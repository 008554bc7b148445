"""Soft-voting ensemble of relx classifiers (each usually a sub-pipeline over the same
structures), with an F1 threshold from out-of-fold scores and an optional prior-shift
adjustment from the unlabelled test inputs (Saerens, Latinne & Decaestecker 2002).

Fitting a member fits its pipeline once on all training data. Its out-of-fold
probabilities come from ``cv``-fold (split by document when X is a list of candidate pairs,
else stratified by label) refits of only its last ``refit_steps[m]`` steps
(default 1: the classifier) on the features made by the earlier steps fitted on all
training data (cheap: kernel blocks are not recomputed). Steps that learn from labels
(e.g. a G2P embedding) should be among the refitted ones, or the out-of-fold scores are
optimistic. The ensemble score is the weighted mean of the members'
positive-class probabilities, ``s = Σ w_m p_m / Σ w_m``.

``normalise="quantile"``: each member's probability is first mapped through the empirical
CDF of its own out-of-fold probabilities on the training data (a fixed, monotone map
learned in ``fit``), so members on different probability scales (a class-balanced logistic
regression, a forest trained at the corpus's positive rate) weigh equally.

Decision: ``threshold="auto"`` (= ``"f1"``) picks the score threshold with the best F1 on
the out-of-fold ensemble scores (the training data only); ``"youden"`` the one with the
best TPR - FPR there, which does not depend on the training corpus's positive rate. ``predict_proba`` returns a
posterior ``q = σ(a·logit(s) + b)`` calibrated by logistic regression on those
out-of-fold scores (monotone in s, so AUC is that of s), and ``threshold_`` is the
threshold mapped into q.

``in_domain_threshold``: a second rule (or number) for text drawn from the training
corpus's own distribution (k-fold CV; a curator's further documents of the same collection),
learned as ``in_domain_threshold_`` on q from the same out-of-fold scores; ``None`` means
the same as ``threshold``. In-domain the out-of-fold scores are a sample of the test
distribution, so ``"f1"`` maximises the expected F1; across corpora the positive rate moves
and ``"youden"`` does not depend on it. ``decide(..., in_domain=True)`` uses it.

``in_domain_combiner="stacked"``: in-domain, the members are also weighed by what the
training corpus itself says: a logistic regression (``C=1``) on the logits of the members'
quantile-mapped out-of-fold probabilities (the ``decision_rows`` rows) gives the in-domain
posterior ``q_in = σ(Σ_m c_m logit(u_m) + c_0)`` (``in_domain_coef_``,
``in_domain_intercept_``; ``in_domain_proba``), and ``in_domain_threshold`` is chosen on
q_in. With this combiner a member of weight 0 is still fitted and stacked: an in-domain-only
member, left out of the new-text mean. New text keeps the fixed ``weights``: learned weights fit the training corpus's
annotation, which does not carry over to another corpus's. ``None`` (``"none"``,
``"weights"``): the fixed weights in both modes.

``decision_rows="gold"``: when some training pairs carry silver labels
(``Relation.silver``, e.g. pairs derived from GE events), the threshold, the calibration and
the training prior come from the out-of-fold scores of the gold-labelled pairs only: silver
pairs help rank, gold pairs decide. The quantile reference keeps every row.

``prior_shift="em"``: at prediction time the batch given to ``predict``/``predict_proba``
is treated as an unlabelled sample of the test distribution; EM re-estimates its
positive rate π' from the calibrated posteriors (Saerens et al. 2002, eqs. 2.9-2.10) and
rescales their odds by ``(π'/(1-π')) / (π/(1-π))`` (π the training rate). The decision
threshold on the posterior stays the one chosen on the training data. No label of the
batch is used; the result depends on the batch as a whole (transductive).

``prior_shift="rate"``: ``predict`` marks as positive the same fraction of the batch that
the training threshold marks on the out-of-fold training scores (``train_positive_rate_``),
i.e. the threshold becomes that quantile of the batch's scores. Also transductive; a batch
of one falls back to the training threshold. ``predict_proba`` is unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from relx.estimator import BaseEstimator, ClassifierMixin, check_is_fitted
from relx.learn.forest import rule_threshold

PRIOR_SHIFTS = (None, "none", "em", "rate")  # "none": None spelt in TOML
NORMALISATIONS = (None, "quantile")
PAIR_WEIGHTINGS = (None, "none", "sentence")
DECISION_ROWS = ("all", "gold")
IN_DOMAIN_COMBINERS = (None, "none", "weights", "stacked")  # "none": None spelt in TOML
_EPS = 1e-6
#: slack of posterior_above's bound (the posterior is compared in floating point)
_BOUND_MARGIN = 1e-9


def quantile_map(sorted_ref: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Empirical CDF of ``sorted_ref`` (ascending) at each score of ``s``, in [0, 1]."""
    return np.searchsorted(sorted_ref, s, side="right") / max(len(sorted_ref), 1)


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, _EPS, 1 - _EPS)
    return np.log(p) - np.log1p(-p)


def em_prior(q: np.ndarray, prior: float, max_iter: int = 200, tol: float = 1e-6
             ) -> tuple[float, np.ndarray]:
    """Saerens et al. 2002: (π', adjusted posteriors) for posteriors ``q`` (N,) made under
    training prior ``prior``; iterate ``q' = odds-rescaled q``, ``π' = mean(q')``."""
    q = np.clip(np.asarray(q, float), _EPS, 1 - _EPS)
    pi = prior
    adj = q
    for _ in range(max_iter):
        r1, r0 = pi / prior, (1 - pi) / (1 - prior)
        adj = r1 * q / (r1 * q + r0 * (1 - q))
        new = float(adj.mean())
        if abs(new - pi) < tol:
            pi = new
            break
        pi = new
    return pi, adj


class ProbabilityEnsemble(ClassifierMixin, BaseEstimator):
    """Weighted mean of member probabilities (binary).

    Parameters
    ----------
    estimators : list of estimators
        Members: classifiers or Pipelines ending in one, all taking the same input X.
    weights : list of float, optional
        Member weights (>= 0); equal by default. Weight-0 members are not fitted.
    threshold : float, ``"auto"``/``"f1"``, ``"f1-bagged"`` or ``"youden"``
        Score threshold on s, or the F1-best (one argmax, or the bootstrap median of them) /
        Youden-best one on out-of-fold scores.
    cv : int
        Folds for the out-of-fold member probabilities.
    refit_steps : list of int, optional
        Per member, how many trailing pipeline steps are refitted per fold (default 1).
    prior_shift : None (or ``"none"``), ``"em"`` or ``"rate"`` (see module doc).
    normalise : None or ``"quantile"`` (see module doc).
    pair_weighting : None or ``"sentence"``: when X is a list of candidate pairs, members whose
        final estimator takes ``sample_weight`` (e.g. a logistic regression) are fitted with
        each pair weighted by ``1/sqrt(pairs of its sentence in X)``, rescaled to mean 1, so
        sentences with many mentions (and pairs) do not dominate the fit.
    in_domain_threshold : None (or ``"none"``), float or a rule name (see module doc).
    in_domain_combiner : None (or ``"none"``, ``"weights"``) or ``"stacked"`` (see module doc).
    decision_rows : ``"all"`` or ``"gold"`` (see module doc; the same when no pair is silver).
    silver_weight : sample weight of silver-labelled pairs (``Relation.silver``) in every
        member that takes ``sample_weight`` (1: as gold pairs; multiplies ``pair_weighting``).
    random_state : seed of the fold split; when set, also every member step's seed.

    Attributes: ``estimators_`` (fitted members; weight-0 ones None unless stacked),
    ``oof_`` (n, m)
    out-of-fold member probabilities, ``score_threshold_`` (on s), ``calibration_`` (a, b),
    ``prior_`` (training positive rate), ``threshold_`` and ``in_domain_threshold_`` (on the
    posterior; the in-domain one on ``in_domain_proba``'s), ``in_domain_coef_`` (m,) and
    ``in_domain_intercept_`` (``"stacked"``, else None), ``classes_``,
    ``reference_`` (m, n) sorted out-of-fold probabilities (``normalise="quantile"``).
    """

    def __init__(self, estimators: Sequence = (), weights: Sequence[float] | None = None,
                 threshold: float | str = "auto", cv: int = 3,
                 refit_steps: Sequence[int] | None = None, prior_shift: str | None = None,
                 normalise: str | None = None, pair_weighting: str | None = None,
                 decision_rows: str = "all", silver_weight: float = 1.0,
                 in_domain_threshold: float | str | None = None,
                 in_domain_combiner: str | None = None, random_state=None) -> None:
        self.estimators = estimators
        self.weights = weights
        self.threshold = threshold
        self.cv = cv
        self.refit_steps = refit_steps
        self.prior_shift = prior_shift
        self.normalise = normalise
        self.pair_weighting = pair_weighting
        self.decision_rows = decision_rows
        self.silver_weight = silver_weight
        self.in_domain_threshold = in_domain_threshold
        self.in_domain_combiner = in_domain_combiner
        self.random_state = random_state

    def __setstate__(self, state: dict) -> None:
        state.setdefault("pair_weighting", None)  # models saved before the options existed
        state.setdefault("decision_rows", "all")
        state.setdefault("silver_weight", 1.0)
        state.setdefault("in_domain_threshold", None)
        state.setdefault("in_domain_combiner", None)
        state.setdefault("in_domain_coef_", None)
        state.setdefault("in_domain_intercept_", None)
        if "threshold_" in state:
            state.setdefault("in_domain_threshold_", state["threshold_"])
        super().__setstate__(state)

    @property
    def has_in_domain_rule(self) -> bool:
        """Whether in-domain text is decided differently: ``in_domain_threshold`` set
        (``"none"``: None spelt in TOML) or ``in_domain_combiner="stacked"``."""
        return (self.in_domain_threshold not in (None, "none")
                or getattr(self, "in_domain_combiner", None) == "stacked")

    def _weights(self) -> np.ndarray:
        m = len(self.estimators)
        w = np.ones(m) if self.weights is None else np.asarray(self.weights, float)
        if m == 0 or w.shape != (m,) or (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"need >= 1 estimator and one weight >= 0 per estimator (not all "
                             f"0); got {m} estimators, weights {self.weights!r}")
        return w

    def fit(self, X, y) -> ProbabilityEnsemble:
        from sklearn.utils.multiclass import check_classification_targets

        y = np.asarray(y)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) != 2:
            raise ValueError(f"ProbabilityEnsemble is binary; got {len(self.classes_)} classes")
        if self.prior_shift not in PRIOR_SHIFTS:
            raise ValueError(f"prior_shift must be one of {PRIOR_SHIFTS}, not {self.prior_shift!r}")
        if self.normalise not in NORMALISATIONS:
            raise ValueError(f"normalise must be one of {NORMALISATIONS}, not {self.normalise!r}")
        if self.pair_weighting not in PAIR_WEIGHTINGS:
            raise ValueError(f"pair_weighting must be one of {PAIR_WEIGHTINGS}, "
                             f"not {self.pair_weighting!r}")
        if self.decision_rows not in DECISION_ROWS:
            raise ValueError(f"decision_rows must be one of {DECISION_ROWS}, "
                             f"not {self.decision_rows!r}")
        if self.in_domain_combiner not in IN_DOMAIN_COMBINERS:
            raise ValueError(f"in_domain_combiner must be one of {IN_DOMAIN_COMBINERS}, "
                             f"not {self.in_domain_combiner!r}")
        if not float(self.silver_weight) > 0:
            raise ValueError(f"silver_weight must be > 0, not {self.silver_weight!r}")
        w = self._weights()
        pos = y == self.classes_[1]
        groups = _document_groups(X)
        sample_weight = sentence_weights(X) if self.pair_weighting == "sentence" else None
        gold = gold_rows(X)
        if float(self.silver_weight) != 1.0 and gold is not None and not gold.all():
            base = np.ones(len(y)) if sample_weight is None else sample_weight
            sample_weight = np.where(gold, 1.0, float(self.silver_weight)) * base
        self.estimators_ = []
        self.oof_ = np.zeros((len(y), len(w)))
        for j, (est, wj) in enumerate(zip(self.estimators, w, strict=True)):
            if wj == 0 and self.in_domain_combiner != "stacked":
                self.estimators_.append(None)
                continue
            r = 1 if self.refit_steps is None else int(self.refit_steps[j])
            fitted, self.oof_[:, j] = self._fit_member(est, X, y, r, groups, sample_weight)
            self.estimators_.append(fitted)
        rows = gold if self.decision_rows == "gold" else None
        self.fit_combiner(self.oof_, pos, rows)
        return self

    def _fit_member(self, est, X, y, refit: int, groups: np.ndarray | None = None,
                    sample_weight: np.ndarray | None = None) -> tuple:
        """Fit one member; its (n,) out-of-fold positive-class probabilities."""
        from sklearn.base import clone
        from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold
        from sklearn.pipeline import Pipeline

        est = clone(est)
        if self.random_state is not None:  # seed every member step, as build_pipeline does
            seeds = {k: self.random_state for k in est.get_params(deep=True)
                     if k == "random_state" or k.endswith("__random_state")}
            est.set_params(**seeds)
        if isinstance(est, Pipeline) and len(est.steps) > refit >= 1:
            head, tail = est[:-refit], est[-refit:]
            Xt = head.fit_transform(X, y)
            final = _fit_weighted(tail, Xt, y, sample_weight)
            est = Pipeline([*head.steps, *tail.steps])
        else:
            Xt = X
            final = est = _fit_weighted(est, X, y, sample_weight)
        oof = np.zeros(len(y))
        folds = min(int(self.cv), int(np.bincount(np.unique(y, return_inverse=True)[1]).min()))
        if folds < 2:
            oof[:] = final.predict_proba(Xt)[:, 1]
            return est, oof
        if groups is not None and len(np.unique(groups)) >= folds:
            split = StratifiedGroupKFold(folds, shuffle=True, random_state=self.random_state)
        else:
            split, groups = StratifiedKFold(folds, shuffle=True, random_state=self.random_state), None
        for tr, va in split.split(np.zeros(len(y)), y, groups):
            sw = None if sample_weight is None else sample_weight[tr]
            part = _fit_weighted(clone(final), _take(Xt, tr), y[tr], sw)
            oof[va] = part.predict_proba(_take(Xt, va))[:, 1]
        return est, oof

    def fit_combiner(self, oof: np.ndarray, positive: np.ndarray,
                     rows: np.ndarray | None = None) -> ProbabilityEnsemble:
        """Threshold, calibration and prior from (n, m) out-of-fold member probabilities
        (only the ``rows`` mask's, when given; the quantile reference uses all)."""
        from sklearn.linear_model import LogisticRegression

        self.reference_ = np.sort(oof, axis=0).T.copy() if self.normalise == "quantile" else None
        s = self.score(oof)
        Z = self._member_logits(oof)
        if rows is not None and rows.any():
            s, positive, Z = s[rows], positive[rows], Z[rows]
        self.score_threshold_ = _score_threshold(self.threshold, positive, s)
        in_domain = (self.threshold if self.in_domain_threshold in (None, "none")
                     else self.in_domain_threshold)
        self.in_domain_coef_ = self.in_domain_intercept_ = None
        if self.in_domain_combiner == "stacked" and 0 < positive.sum() < len(positive):
            stacker = LogisticRegression(C=1.0, max_iter=1000).fit(Z, positive)
            self.in_domain_coef_ = stacker.coef_[0].copy()
            self.in_domain_intercept_ = float(stacker.intercept_[0])
        z = _logit(s)[:, None]
        if positive.all() or not positive.any():
            self.calibration_ = (1.0, 0.0)
        else:
            lr = LogisticRegression(C=1e4).fit(z, positive)
            self.calibration_ = (float(lr.coef_[0, 0]), float(lr.intercept_[0]))
        self.prior_ = float(positive.mean())
        self.train_positive_rate_ = float((s > self.score_threshold_).mean())
        self.threshold_ = float(self._calibrate(np.array([self.score_threshold_]))[0])
        if self.in_domain_coef_ is not None:  # on the stacked posterior
            self.in_domain_threshold_ = _score_threshold(in_domain, positive, self._stacked(Z))
        else:
            self.in_domain_threshold_ = float(self._calibrate(
                np.array([_score_threshold(in_domain, positive, s)]))[0])
        return self

    def _quantiles(self, member_proba: np.ndarray) -> np.ndarray:
        """(N, m) member probabilities through their out-of-fold CDFs (``normalise="quantile"``;
        else unchanged)."""
        ref = getattr(self, "reference_", None)
        if ref is None:
            return member_proba
        return np.column_stack([quantile_map(r, member_proba[:, j]) for j, r in enumerate(ref)])

    def _member_logits(self, member_proba: np.ndarray) -> np.ndarray:
        """(N, m) logits of the (quantile-mapped) member probabilities; with the stacked
        combiner every member's (weight 0 only leaves a member out of the new-text mean),
        else weight-0 members' are 0."""
        used = (self._weights() > 0) | (self.in_domain_combiner == "stacked")
        return np.where(used, _logit(self._quantiles(member_proba)), 0.0)

    def _stacked(self, Z: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.clip(Z @ self.in_domain_coef_ + self.in_domain_intercept_,
                                            -500, 500)))

    def in_domain_posterior(self, member_proba: np.ndarray) -> np.ndarray:
        """(N,) posterior for text like the training corpus: the stacked members'
        (``in_domain_combiner="stacked"``), else ``posterior``."""
        if getattr(self, "in_domain_coef_", None) is None:
            return self.posterior(member_proba)
        return self._stacked(self._member_logits(member_proba))

    def in_domain_proba(self, X) -> np.ndarray:
        """(N, 2) class probabilities for text like the training corpus (see
        ``in_domain_posterior``); ``predict_proba`` is the new-text one."""
        q = self.in_domain_posterior(self.member_proba(X))
        return np.c_[1 - q, q]

    def score(self, member_proba: np.ndarray) -> np.ndarray:
        """(N,) ensemble score s from (N, m) member probabilities."""
        w = self._weights()
        return self._quantiles(member_proba) @ w / w.sum()

    def _calibrate(self, s: np.ndarray) -> np.ndarray:
        a, b = self.calibration_
        return 1.0 / (1.0 + np.exp(-np.clip(a * _logit(s) + b, -500, 500)))

    def member_proba(self, X, new_text_only: bool = False) -> np.ndarray:
        """(N, m) positive-class probability of every member (0 for weight-0 members that
        were not fitted; ``new_text_only``: 0 for every weight-0 member, so in-domain-only
        members are not run where only the new-text score is needed)."""
        check_is_fitted(self, "estimators_")
        w = self._weights()
        cols = [np.zeros(_len(X)) if e is None or (new_text_only and wj == 0)
                else e.predict_proba(X)[:, 1] for e, wj in zip(self.estimators_, w, strict=True)]
        return np.column_stack(cols)

    def posterior(self, member_proba: np.ndarray) -> np.ndarray:
        """(N,) calibrated posterior, prior-shift adjusted on this batch if configured."""
        q = self._calibrate(self.score(member_proba))
        if self.prior_shift == "em" and len(q) > 1:
            self.test_prior_, q = em_prior(q, self.prior_)
        return q

    def predict_proba(self, X) -> np.ndarray:
        q = self.posterior(self.member_proba(X, new_text_only=True))
        return np.c_[1 - q, q]

    def posterior_above(self, X, below: float, deferred: Sequence[int] = (),
                        predict_rows: Callable | None = None) -> np.ndarray:
        """(N,) the new-text posterior of :meth:`predict_proba` for every row of X that can
        exceed ``below``, NaN for a row that cannot whatever its ``deferred`` members
        (indices into ``estimators_``) say: those run only on the other rows.

        The bound takes each deferred member's (quantile-mapped) probability as 1; the score
        is a weighted mean of values in [0, 1] and the calibration increases with it, so a
        row whose bound is at most ``below`` is settled. The rows that run get exactly the
        posterior :meth:`predict_proba` gives them (the combiner runs on all N rows as it
        would), given ``predict_rows(member, X_rows, rows, N)``, the member's (len(rows), 2)
        probabilities of X's rows ``rows`` as it gives them in the whole of X (default:
        ``member.predict_proba(X_rows)``, for members whose rows do not depend on the
        others'). Without a bound (no deferred member with a weight, a prior shift that reads
        the batch, a calibration that does not increase) every row runs."""
        check_is_fitted(self, "estimators_")
        w = self._weights()
        defer = [j for j in deferred if w[j] > 0 and self.estimators_[j] is not None]
        if not defer or self.prior_shift not in (None, "none") or self.calibration_[0] <= 0:
            return self.predict_proba(X)[:, 1]
        cols = [np.zeros(_len(X)) if e is None or wj == 0 or j in defer
                else e.predict_proba(X)[:, 1]
                for j, (e, wj) in enumerate(zip(self.estimators_, w, strict=True))]
        proba = np.column_stack(cols)
        high = self._quantiles(proba)
        high[:, defer] = 1.0
        run = self._calibrate(high @ w / w.sum()) > below - _BOUND_MARGIN
        if run.any():
            rows = np.flatnonzero(run)
            sub = [X[i] for i in rows] if isinstance(X, list) else _take(X, rows)
            for j in defer:
                est = self.estimators_[j]
                proba[rows, j] = (est.predict_proba(sub) if predict_rows is None
                                  else predict_rows(est, sub, rows, _len(X)))[:, 1]
        q = self.posterior(proba)
        q[~run] = np.nan
        return q

    def decide(self, member_proba: np.ndarray, in_domain: bool = False) -> np.ndarray:
        """(N,) 0/1 decisions for a batch of member probabilities; ``in_domain``: at
        ``in_domain_threshold_`` (text from the training corpus's distribution)."""
        if in_domain:
            return (self.in_domain_posterior(member_proba) > self.in_domain_threshold_).astype(int)
        q = self.posterior(member_proba)
        if self.prior_shift == "rate" and len(q) > 1:
            t = np.quantile(q, 1 - self.train_positive_rate_)
            return (q > t).astype(int)
        return (q > self.threshold_).astype(int)

    def predict(self, X) -> np.ndarray:
        return self.classes_[self.decide(self.member_proba(X, new_text_only=True))]


def _score_threshold(rule: float | str, positive: np.ndarray, s: np.ndarray) -> float:
    if isinstance(rule, str):
        return rule_threshold(rule, positive, s)
    if isinstance(rule, (int, float)):
        return float(rule)
    raise ValueError(f"threshold must be a number or a rule name, not {rule!r}")


def sentence_weights(X) -> np.ndarray | None:
    """(n,) ``1/sqrt(pairs of the same sentence in X)`` rescaled to mean 1, or None when X
    is not a list of candidate pairs."""
    if hasattr(X, "shape") or not len(X) or not hasattr(X[0], "sentence"):
        return None
    keys = [(x.document_id, x.sentence.id) for x in X]
    count = Counter(keys)
    w = np.array([count[k] ** -0.5 for k in keys])
    return w / w.mean()


def _fit_weighted(est, X, y, sample_weight: np.ndarray | None):
    """``est.fit(X, y)``, with ``sample_weight`` when given and its final estimator takes it."""
    from sklearn.pipeline import Pipeline
    from sklearn.utils.validation import has_fit_parameter

    final = est.steps[-1][1] if isinstance(est, Pipeline) else est
    if sample_weight is None or not has_fit_parameter(final, "sample_weight"):
        return est.fit(X, y)
    if isinstance(est, Pipeline):
        return est.fit(X, y, **{f"{est.steps[-1][0]}__sample_weight": sample_weight})
    return est.fit(X, y, sample_weight=sample_weight)


def gold_rows(X) -> np.ndarray | None:
    """(n,) True for candidate pairs whose label is not silver; None when X is not a list
    of candidate pairs."""
    if hasattr(X, "shape") or not len(X) or not hasattr(X[0], "relation"):
        return None
    return np.array([not x.relation.silver for x in X])


def _document_groups(X) -> np.ndarray | None:
    """(n,) document ids when X is a list of candidate pairs (so out-of-fold scores come from
    folds split by document, as the evaluation protocol's), else None."""
    if hasattr(X, "shape") or not len(X) or not hasattr(X[0], "document_id"):
        return None
    return np.array([x.document_id for x in X])


def _len(X) -> int:
    return X.shape[0] if hasattr(X, "shape") else len(X)


def _take(X, idx: np.ndarray):
    if hasattr(X, "shape") or isinstance(X, np.ndarray):
        return X[idx]
    from relx.kernels.structure import take

    return take(X, idx)
