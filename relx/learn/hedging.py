"""Whether a candidate pair's interaction is negated or speculated: one logistic regression
per type over :func:`relx.represent.hedging.hedging_features`.

Fitting learns each type's cue lexicon from the training pairs
(:func:`relx.represent.hedging.learn_cue_lexicon`, plus the seed cues), fits the regression
on the pairs' cue features, and picks each type's decision threshold as the F1-best one on
``folds``-fold document out-of-fold probabilities of the training pairs (lexicon and model
refitted inside every fold), so no setting comes from test data. Stored as JSON (the
lexicons, the non-zero weights by feature name, the thresholds): no pickle.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from relx.estimator import BaseEstimator, check_is_fitted
from relx.io.atomic import atomic_open
from relx.represent.hedging import HEDGING_TYPES, SEED_CUES, hedging_features, learn_cue_lexicon
from relx.represent.instances import PairInstance

if TYPE_CHECKING:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression
from relx.represent.pair_features import negated_pair

FORMAT = "relx.hedging.v1"
#: the shipped detector (``make hedging``: the repository's ``lab/hedging.py train``)
DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "hedging.json.gz"


class HedgingDetector(BaseEstimator):
    """Negated / speculated decisions for candidate pairs (multi-label, binary per type).

    Parameters
    ----------
    C : inverse L2 strength of each type's logistic regression.
    min_count, min_lift : cue lexicon learning (:func:`learn_cue_lexicon`).
    seed_cues : also use the built-in cue lists.
    class_weight : passed to the regressions (``"balanced"`` or None).
    folds : document folds for the out-of-fold thresholds (1: threshold 0.5).
    random_state : seed of the fold assignment.

    ``fit(X, Y)``: X a list of :class:`PairInstance`, Y (n, 2) 0/1 for
    (negated, speculated). Attributes: ``lexicons_`` {type: frozenset}, ``vocabulary_``
    {type: [feature names]}, ``coef_`` {type: (d,)}, ``intercept_`` {type: float},
    ``thresholds_`` {type: float}.
    """

    def __init__(self, *, C: float = 1.0, min_count: int = 3, min_lift: float = 2.0,
                 seed_cues: bool = True, class_weight: str | None = "balanced", folds: int = 5,
                 random_state: int = 0) -> None:
        self.C = C
        self.min_count = min_count
        self.min_lift = min_lift
        self.seed_cues = seed_cues
        self.class_weight = class_weight
        self.folds = folds
        self.random_state = random_state

    def _fit_type(self, X: Sequence[PairInstance], y: np.ndarray, typ: str
                  ) -> tuple[frozenset[str], DictVectorizer, LogisticRegression | None]:
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.linear_model import LogisticRegression

        lex = learn_cue_lexicon(X, y, min_count=self.min_count, min_lift=self.min_lift,
                                seed=SEED_CUES[typ] if self.seed_cues else ())
        vec = DictVectorizer()
        Z = vec.fit_transform([hedging_features(x, {typ: lex}) for x in X])
        if y.all() or not y.any():
            return lex, vec, None
        lr = LogisticRegression(C=self.C, class_weight=self.class_weight, max_iter=3000)
        return lex, vec, lr.fit(Z, y)

    def fit(self, X: Sequence[PairInstance], Y) -> HedgingDetector:
        X = list(X)
        Y = np.asarray(Y).astype(bool).reshape(len(X), -1)
        if Y.shape[1] != len(HEDGING_TYPES):
            raise ValueError(f"Y needs {len(HEDGING_TYPES)} columns {HEDGING_TYPES}, "
                             f"got {Y.shape[1]}")
        if not float(self.C) > 0:
            raise ValueError(f"C must be > 0, not {self.C!r}")
        docs = np.array([x.document_id for x in X])
        self.lexicons_, self.vocabulary_, self.coef_ = {}, {}, {}
        self.intercept_, self.thresholds_ = {}, {}
        for k, typ in enumerate(HEDGING_TYPES):
            y = Y[:, k]
            lex, vec, lr = self._fit_type(X, y, typ)
            self.lexicons_[typ] = lex
            self.vocabulary_[typ] = list(vec.feature_names_)
            self.coef_[typ] = lr.coef_[0].copy() if lr is not None else np.zeros(len(vec.vocabulary_))
            self.intercept_[typ] = float(lr.intercept_[0]) if lr is not None else -10.0
            self.thresholds_[typ] = self._oof_threshold(X, y, docs, typ)
        return self

    def oof_proba(self, X: Sequence[PairInstance], y: np.ndarray, docs: np.ndarray, typ: str
                  ) -> np.ndarray:
        """(n,) out-of-fold probabilities of ``typ`` (document folds; lexicon refitted)."""
        from sklearn.model_selection import GroupKFold

        oof = np.zeros(len(X))
        groups = np.unique(docs, return_inverse=True)[1]
        order = np.random.RandomState(self.random_state).permutation(groups.max() + 1)
        for tr, te in GroupKFold(self.folds).split(np.zeros(len(X)), y, order[groups]):
            lex, vec, lr = self._fit_type([X[i] for i in tr], y[tr], typ)
            if lr is None:
                continue
            Z = vec.transform([hedging_features(X[i], {typ: lex}) for i in te])
            oof[te] = lr.predict_proba(Z)[:, 1]
        return oof

    def _oof_threshold(self, X: Sequence[PairInstance], y: np.ndarray, docs: np.ndarray,
                       typ: str) -> float:
        if self.folds < 2 or y.sum() < 2 or len(np.unique(docs)) < self.folds:
            return 0.5
        from sklearn.metrics import precision_recall_curve

        p, r, t = precision_recall_curve(y, self.oof_proba(X, y, docs, typ))
        f1 = 2 * p * r / np.maximum(p + r, 1e-12)
        return float(t[int(np.argmax(f1[:-1]))]) if len(t) else 0.5

    def _proba(self, x: PairInstance, typ: str) -> float:
        return self._score(hedging_features(x, {typ: self.lexicons_[typ]}), typ)

    def _score(self, f: dict[str, float], typ: str) -> float:
        """Probability of ``typ`` from a pair's features (other types' features are ignored:
        each type's weights name only its own prefixed features and the shared ones)."""
        index = self._index[typ]
        z = self.intercept_[typ] + sum(self.coef_[typ][index[k]] * v for k, v in f.items()
                                       if k in index)
        return float(1.0 / (1.0 + np.exp(-np.clip(z, -500, 500))))

    @property
    def _index(self) -> dict[str, dict[str, int]]:
        idx = getattr(self, "_index_cache", None)
        if idx is None:
            idx = {t: {n: i for i, n in enumerate(v)} for t, v in self.vocabulary_.items()}
            self._index_cache = idx
        return idx

    def predict_proba(self, X: Sequence[PairInstance]) -> np.ndarray:
        """(n, 2) probabilities of (negated, speculated)."""
        check_is_fitted(self, "coef_")
        lexicons = {t: self.lexicons_[t] for t in HEDGING_TYPES}
        rows = []
        for x in X:
            f = hedging_features(x, lexicons)  # one pass over the pair for both types
            rows.append([self._score(f, t) for t in HEDGING_TYPES])
        return np.array(rows).reshape(-1, 2)

    def predict(self, X: Sequence[PairInstance]) -> np.ndarray:
        """(n, 2) bool decisions (probability >= the type's threshold)."""
        P = self.predict_proba(X)
        return P >= np.array([self.thresholds_[t] for t in HEDGING_TYPES])

    # --- JSON --------------------------------------------------------------------------------
    def to_json(self, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """A JSON object: parameters, and per type the lexicon, threshold, intercept and
        the non-zero weights (rounded to 1e-5) by feature name."""
        check_is_fitted(self, "coef_")
        types = {}
        for t in HEDGING_TYPES:
            w = {n: round(float(c), 5) for n, c in zip(self.vocabulary_[t], self.coef_[t],
                                                         strict=True) if abs(c) >= 1e-5}
            types[t] = {"lexicon": sorted(self.lexicons_[t]), "threshold": self.thresholds_[t],
                        "intercept": self.intercept_[t], "weights": dict(sorted(w.items()))}
        return {"format": FORMAT, "params": self.get_params(), "meta": meta or {}, "types": types}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> HedgingDetector:
        if obj.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} hedging model (format {obj.get('format')!r})")
        det = cls(**obj["params"])
        det.lexicons_, det.vocabulary_, det.coef_ = {}, {}, {}
        det.intercept_, det.thresholds_ = {}, {}
        for t in HEDGING_TYPES:
            e = obj["types"][t]
            det.lexicons_[t] = frozenset(e["lexicon"])
            det.vocabulary_[t] = list(e["weights"])
            det.coef_[t] = np.array(list(e["weights"].values()), dtype=float)
            det.intercept_[t] = float(e["intercept"])
            det.thresholds_[t] = float(e["threshold"])
        return det

    def save(self, path: str | Path, meta: dict[str, Any] | None = None) -> Path:
        """Write JSON (gzip-compressed when ``path`` ends in ``.gz``), atomically."""
        path = Path(path)
        data = json.dumps(self.to_json(meta), indent=0, sort_keys=False).encode("utf-8")
        with atomic_open(path, "wb") as fh:
            fh.write(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)
        return path


def load_hedging(path: str | Path | None = None) -> HedgingDetector | None:
    """The detector stored at ``path`` (default: the shipped one), None when it is absent."""
    from relx.model_store import reading_model_file

    path = Path(path) if path is not None else DEFAULT_PATH
    if not path.is_file():
        return None
    with reading_model_file(path, "negation/speculation detector"):
        raw = path.read_bytes()
        if path.suffix == ".gz":
            raw = gzip.decompress(raw)
        return HedgingDetector.from_json(json.loads(raw.decode("utf-8")))


def hedging_flags(x: PairInstance, detector: HedgingDetector | None) -> tuple[bool, bool]:
    """(negated, speculated) of one pair: the detector's decisions, or without a detector
    the path-only negation flag (:func:`relx.represent.pair_features.negated_pair`) and
    not speculated."""
    if detector is None:
        return negated_pair(x), False
    neg, spec = detector.predict([x])[0]
    return bool(neg), bool(spec)
