"""A learned ranker for gene names no exact lexicon key reaches.

When a mention matches no lexicon key, its compact form is searched among the keys of its
species' lexicon by character 3-grams (:class:`relx.genes.ngrams.NgramIndex`); each
candidate gene is described by how its best key matches (``FEATURES``) and scored by a
logistic regression (:class:`NameRanker`, learned on BioRED train's fit split by
``lab/genes/ranker.py``, stored as JSON: ``relx/data/gene_ranker.json``). The best candidate
is kept when its probability reaches the model's ``threshold``; that probability is the
mention's ``norm_confidence``.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from relx.errors import ConfigError
from relx.estimator import BaseEstimator, ClassifierMixin, check_is_fitted
from relx.genes.lexicon import HUMAN, Grounder, normalize_key, taxon_id
from relx.genes.ngrams import NgramIndex
from relx.genes.shipped import shipped_json

__all__ = ["FEATURES", "NameCandidate", "NameRanker", "candidates", "default_ranker"]

RANKER_FORMAT = "relx-gene-ranker/1"
SOURCES = ("symbol", "name", "alias", "previous", "famplex")
FEATURES = (
    "dice", "dice_gap", "rank", "n_close", "fplx", "other_ns", "extends", "contained",
    "digits_same", "digits_differ", "key_extra_digit", "len_ratio", "in_document",
    *(f"source_{s}" for s in SOURCES), "source_other",
)
_DIGITS = re.compile(r"\d+")
#: n-gram keys looked at per mention, and candidate genes kept
SEARCH_K, MAX_CANDIDATES = 20, 8


@dataclass(frozen=True, slots=True)
class NameCandidate:
    """One candidate gene of a mention: ``id``, the ``key`` it matched and its features."""

    id: str
    key: str
    features: tuple[float, ...]


_INDEXES: dict[tuple[int, str], NgramIndex] = {}
_INDEX_LOCK = threading.Lock()


def _index(g: Grounder, taxon: str) -> tuple[NgramIndex, dict]:
    rows = g.index if taxon == HUMAN else g.species_index(taxon)
    with _INDEX_LOCK:
        ix = _INDEXES.get((id(g), taxon))
        if ix is None:
            ix = _INDEXES[(id(g), taxon)] = NgramIndex.cached(rows.keys())
    return ix, rows


def _own(cid: str, taxon: str) -> bool:
    ns = cid.partition(":")[0]
    return ns == {HUMAN: "HGNC", "NCBITaxon:10090": "MGI", "NCBITaxon:10116": "RGD"}.get(
        taxon, "") or ns == "FPLX"


def candidates(g: Grounder, text: str, taxon: str | None = None,
               document_ids: frozenset[str] = frozenset()) -> list[NameCandidate]:
    """The candidate genes of ``text`` in ``taxon`` (human by default) by 3-gram search,
    each with its feature vector (``FEATURES``); ``document_ids`` are the ids the
    document's other mentions were grounded to."""
    taxon = taxon_id(taxon) or HUMAN
    query = normalize_key(text)
    ix, rows = _index(g, taxon)
    hits = ix.search(query, k=SEARCH_K, min_dice=0.4)
    if not hits:
        return []
    best: dict[str, tuple[float, str, str]] = {}   # id -> (dice, key, source)
    for key, dice in hits:
        for cid, source, _form in rows.get(key, ()):
            if _own(cid, taxon) and (cid not in best or dice > best[cid][0]):
                best[cid] = (dice, key, source)
    ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:MAX_CANDIDATES]
    if not ranked:
        return []
    top = ranked[0][1][0]
    n_close = sum(1 for _, (d, _, _) in ranked if d >= top - 0.05)
    q_digits = _DIGITS.findall(query)
    out = []
    for rank, (cid, (dice, key, source)) in enumerate(ranked):
        k_digits = _DIGITS.findall(key)
        feats = {
            "dice": dice, "dice_gap": top - dice, "rank": float(rank),
            "n_close": float(n_close), "fplx": float(cid.startswith("FPLX:")),
            "other_ns": float(not _own(cid, taxon)),
            "extends": float(key.startswith(query) and key != query),
            "contained": float(key in query and key != query),
            "digits_same": float(bool(q_digits) and q_digits == k_digits),
            "digits_differ": float(bool(q_digits) and bool(k_digits) and q_digits != k_digits),
            "key_extra_digit": float(not q_digits and bool(k_digits)),
            "len_ratio": min(len(key), len(query)) / max(len(key), len(query)),
            "in_document": float(cid in document_ids),
            **{f"source_{s}": float(source == s) for s in SOURCES},
            "source_other": float(source not in SOURCES),
        }
        out.append(NameCandidate(cid, key, tuple(feats[f] for f in FEATURES)))
    return out


class NameRanker(ClassifierMixin, BaseEstimator):
    """Logistic regression over candidate features: P(candidate is the mention's gene).

    ``C``: inverse regularisation strength; ``threshold``: the probability a best
    candidate needs to be kept (chosen on held-out fit-split documents); ``random_state``
    for the solver. Learned: ``coef_`` (n_features,), ``intercept_``, ``classes_``.
    """

    def __init__(self, C: float = 1.0, threshold: float = 0.5,
                 random_state: int | None = 0) -> None:
        self.C = C
        self.threshold = threshold
        self.random_state = random_state

    def fit(self, X: np.ndarray, y: np.ndarray) -> NameRanker:
        """``X`` (n, len(FEATURES)), ``y`` (n,) in {0, 1}."""
        from sklearn.linear_model import LogisticRegression

        lr = LogisticRegression(C=self.C, max_iter=2000, random_state=self.random_state)
        lr.fit(np.asarray(X, dtype=np.float64), np.asarray(y))
        self.classes_ = lr.classes_
        self.coef_ = lr.coef_[0].copy()
        self.intercept_ = float(lr.intercept_[0])
        self.n_features_in_ = int(np.asarray(X).shape[1])
        return self

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        check_is_fitted(self, "coef_")
        return np.asarray(X, dtype=np.float64) @ self.coef_ + self.intercept_

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """(n, 2): P(wrong), P(right)."""
        z = np.clip(self.decision_function(X), -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        return np.column_stack([1.0 - p, p])

    def predict(self, X: np.ndarray) -> np.ndarray:
        check_is_fitted(self, "coef_")
        return self.classes_[(self.predict_proba(X)[:, 1] >= 0.5).astype(int)]

    def best(self, cands: list[NameCandidate]) -> tuple[NameCandidate, float] | None:
        """The most probable candidate and its probability, when it reaches
        ``threshold``."""
        if not cands:
            return None
        p = self.predict_proba(np.array([c.features for c in cands]))[:, 1]
        i = int(np.argmax(p))
        return (cands[i], float(p[i])) if p[i] >= self.threshold else None

    # storage: JSON, never pickle
    def to_json(self) -> dict[str, object]:
        return {"format": RANKER_FORMAT, "features": list(FEATURES), "C": self.C,
                "threshold": self.threshold, "random_state": self.random_state,
                "coef": [round(float(c), 8) for c in self.coef_],
                "intercept": round(self.intercept_, 8)}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> NameRanker:
        if data.get("format") != RANKER_FORMAT or data.get("features") != list(FEATURES):
            raise ConfigError("not a relx gene ranker for this version's features")
        model = cls(C=float(data["C"]), threshold=float(data["threshold"]),
                    random_state=data.get("random_state"))
        model.coef_ = np.asarray(data["coef"], dtype=np.float64)
        model.intercept_ = float(data["intercept"])
        model.classes_ = np.array([0, 1])
        model.n_features_in_ = len(FEATURES)
        return model



def default_ranker(path: Path | str | None = None) -> NameRanker | None:
    """The shipped ranker (``relx/data/gene_ranker.json``), or the one at ``path``; None
    when no ranker file is shipped."""
    return shipped_json("gene_ranker.json", NameRanker.from_json, path)

