"""Trigger detection: token-level classification of candidate tokens into event types.

Each candidate token (:meth:`SentenceView.candidates`) gets hashed sparse features -- word,
lemma, POS, affixes, neighbours, dependency context, nearby proteins and a trigger
dictionary learned from the training triggers (cross-fitted by document folds so training
rows do not see their own counts) -- and a linear model predicts ``None`` or a set of
event types (a token anchoring two types is one combined class ``"A|B"``). ``none_bias``
is subtracted from the ``None`` score before the argmax: a recall/precision knob.
(The levers measured and not shipped -- per-type biases, lexicon variants, EigenWord
neighbours, dependency classes, paper folds of the dictionary, class weights -- are
:mod:`lab.ge.triggers`, outside the package.)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from relx.doc import GE_EVENT_TYPES
from relx.ge.sentences import SentenceView
from relx.graphs import edge_label, paths_within
from relx.learn.predictors import FeatureHasher

NONE_LABEL = "None"


def _key(view: SentenceView, i: int) -> str:
    t = view.tokens[i]
    return (t.lemma or t.text).lower().strip("-/")


class TriggerDictionary:
    """Counts of each word/lemma as a candidate and as a trigger of each type."""

    def __init__(self) -> None:
        self.total: Counter[str] = Counter()
        self.types: dict[str, Counter[str]] = defaultdict(Counter)

    def keys(self, view: SentenceView, i: int) -> set[str]:
        """The entries candidate token ``i`` counts under: its lemma and its word."""
        return {_key(view, i), view.tokens[i].text.lower()}

    def add(self, views: Sequence[SentenceView]) -> TriggerDictionary:
        for v in views:
            for i in v.candidates():
                for k in self.keys(v, i) - {""}:
                    self.total[k] += 1
                    for typ in v.gold_triggers.get(i, ()):
                        self.types[k][typ] += 1
        return self

    def features(self, key: str, prefix: str, out: dict[str, float]) -> None:
        n = self.total.get(key, 0)
        if not n:
            out[f"{prefix}unseen"] = 1.0
            return
        types = self.types.get(key)
        pos = sum(types.values()) if types else 0
        out[f"{prefix}ratio"] = pos / n
        out[f"{prefix}ratio_bin={min(int(10 * pos / n), 9)}"] = 1.0
        if types:
            for typ, c in types.items():
                out[f"{prefix}type={typ}"] = c / n
            best = types.most_common(1)[0][0]
            out[f"{prefix}best={best}"] = 1.0

    def to_json(self) -> dict[str, Any]:
        return {"total": dict(self.total), "types": {k: dict(v) for k, v in self.types.items()}}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TriggerDictionary:
        td = cls()
        td.total = Counter(d["total"])
        td.types = defaultdict(Counter, {k: Counter(v) for k, v in d["types"].items()})
        return td


def _shape(text: str) -> str:
    s = "".join("A" if c.isupper() else "a" if c.islower() else "0" if c.isdigit() else c
                for c in text)
    out = []
    for c in s:
        if not out or out[-1] != c:
            out.append(c)
    return "".join(out)[:8]


def token_features(view: SentenceView, i: int, dictionary: TriggerDictionary | None
                   ) -> dict[str, float]:
    """Sparse features of candidate token ``i``."""
    toks, g = view.tokens, view.graph
    t = toks[i]
    w, lem, pos = t.text.lower(), (t.lemma or t.text).lower(), t.pos or ""
    f: dict[str, float] = {f"w={w}": 1, f"l={lem}": 1, f"p={pos}": 1, f"lp={lem}/{pos}": 1,
                           f"shape={_shape(t.text)}": 1}
    core = w.strip("-/")
    for k in (3, 4, 5):
        if len(core) > k:
            f[f"suf{k}={core[-k:]}"] = 1
            f[f"pre{k}={core[:k]}"] = 1
    if t.text[:1] in "-/":
        f["hyphen_start"] = 1
    if dictionary is not None:
        dictionary.features(_key(view, i), "dl:", f)
        dictionary.features(w, "dw:", f)
    prot = view.protein_tokens
    for off in (-2, -1, 1, 2):
        j = i + off
        if 0 <= j < len(toks):
            o = "PROT" if j in prot else (toks[j].lemma or toks[j].text).lower()
            f[f"l[{off}]={o}"] = 1
            f[f"p[{off}]={toks[j].pos}"] = 1
            if abs(off) == 1:
                f[f"bi[{off}]={o}_{lem}"] = 1
    for j in range(max(0, i - 3), min(len(toks), i + 4)):
        if j != i:
            f[f"ctx={'PROT' if j in prot else (toks[j].lemma or toks[j].text).lower()}"] = 0.5
    # distance to the nearest protein
    dists = [abs(j - i) for j in prot]
    near = min(dists) if dists else 99
    f[f"pdist={min(near, 6) if near < 99 else 'none'}"] = 1
    f[f"nprot={min(len(view.protein_head), 5)}"] = 1
    # dependency paths (up to 3 edges) to the nearest proteins
    paths = paths_within(g, i, 3, view.undirected) if i in g else {}
    hits = sorted((len(p), p) for n, p in paths.items() if n in prot and n != i)
    if hits:
        best = hits[0][0]
        f[f"gdist={best - 1}"] = 1
        f[f"gdist_l={best - 1}/{lem}"] = 1
        for n_, p in hits:
            if n_ > best:
                break
            labs = "_".join(edge_label(g, u, v) for u, v in zip(p, p[1:], strict=False))
            f[f"ppath={labs}"] = 1
            f[f"ppath_l={lem}/{labs}"] = 1
    else:
        f["gdist=none"] = 1
        f[f"gdist_l=none/{lem}"] = 1
    for h in g.predecessors(i):   # the governor's governor
        for h2 in g.predecessors(h):
            f[f"in2={(toks[h2].lemma or toks[h2].text).lower()}"] = 1
    # dependency context
    for h in g.predecessors(i):
        for d in g.get_edge_data(h, i).values():
            hl = "PROT" if h in prot else (toks[h].lemma or toks[h].text).lower()
            f[f"in={d['label']}"] = 1
            f[f"in={d['label']}:{hl}"] = 1
            f[f"in_p={d['label']}:{toks[h].pos}"] = 1
    for c in g.successors(i):
        for d in g.get_edge_data(i, c).values():
            cl = "PROT" if c in prot else (toks[c].lemma or toks[c].text).lower()
            f[f"out={d['label']}"] = 1
            f[f"out={d['label']}:{cl}"] = 1
            if c in prot:
                f[f"out_prot={d['label']}"] = 1
            for c2 in g.successors(c):   # two steps down: "expression of PROT"
                for d2 in g.get_edge_data(c, c2).values():
                    if c2 in prot:
                        f[f"out2_prot={d['label']}:{cl}/{d2['label']}"] = 1
                        f[f"out2_prot={d['label']}/{d2['label']}"] = 1
    return f


def _label(view: SentenceView, i: int) -> str:
    types = view.gold_triggers.get(i)
    return "|".join(sorted(types)) if types else NONE_LABEL


def document_folds(docs_views: Sequence[Sequence[SentenceView]], folds: int, seed: int = 0
                   ) -> np.ndarray:
    """(n_documents,) fold of each document: documents dealt at random into ``folds``."""
    return np.random.RandomState(seed).permutation(len(docs_views)) % max(folds, 1)


class TriggerDetector:
    """Hashed features + a linear SVM over candidate tokens.

    ``dict_folds``: the trigger dictionary of a training row is counted on the other folds
    of documents (1: on all training documents)."""

    def __init__(self, classifier: str = "linear_svc", C: float = 0.1,
                 n_features: int = 2 ** 18, none_bias: float = 0.0, dict_folds: int = 5,
                 random_state: int = 0) -> None:
        self.classifier = classifier
        self.C = C
        self.n_features = n_features
        self.none_bias = none_bias
        self.dict_folds = dict_folds
        self.random_state = random_state

    def _hasher(self) -> FeatureHasher:
        return FeatureHasher(n_features=self.n_features, input_type="dict", alternate_sign=False)

    def new_dictionary(self) -> TriggerDictionary:
        """An empty trigger dictionary of the kind this detector counts."""
        return TriggerDictionary()

    def dictionary_from_json(self, d: dict[str, Any]) -> TriggerDictionary:
        return TriggerDictionary.from_json(d)

    def _rows(self, views: Sequence[SentenceView], dictionary: TriggerDictionary | None):
        feats, index = [], []
        for vi, v in enumerate(views):
            for i in v.candidates():
                feats.append(token_features(v, i, dictionary))
                index.append((vi, i))
        return feats, index

    def _dict_fold(self, docs_views: Sequence[Sequence[SentenceView]]) -> np.ndarray:
        return document_folds(docs_views, self.dict_folds, self.random_state)

    def _new_model(self) -> Any:
        if self.classifier != "linear_svc":
            raise ValueError(f"unknown trigger classifier {self.classifier!r} (relx ships "
                             "'linear_svc'; the lab's detector also has 'logreg')")
        from sklearn.svm import LinearSVC

        return LinearSVC(C=self.C, random_state=self.random_state)

    def fit(self, docs_views: Sequence[Sequence[SentenceView]]) -> TriggerDetector:
        """Fit on the gold-labelled sentence views of each training document."""
        fold = self._dict_fold(docs_views)
        feats, labels = [], []
        for k in range(max(self.dict_folds, 1)):
            held = [v for d, vs in enumerate(docs_views) if fold[d] == k for v in vs]
            rest = [v for d, vs in enumerate(docs_views) if fold[d] != k for v in vs]
            dictionary = self.new_dictionary().add(rest if self.dict_folds > 1 else held)
            f, idx = self._rows(held, dictionary)
            feats += f
            labels += [_label(held[vi], i) for vi, i in idx]
        self.dictionary_ = self.new_dictionary().add([v for vs in docs_views for v in vs])
        X = self._hasher().transform(feats)
        y = np.array(labels)
        self.model_ = self._new_model()
        self.model_.fit(X, y)
        self.classes_ = list(self.model_.classes_)
        return self

    def scores(self, views: Sequence[SentenceView]) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """(N, n_classes) decision scores of every candidate and its (view index, token)."""
        feats, index = self._rows(views, self.dictionary_)
        if not feats:
            return np.zeros((0, len(self.classes_))), index
        return self.model_.decision_function(self._hasher().transform(feats)), index

    def predict(self, views: Sequence[SentenceView], none_bias: float | None = None
                ) -> list[dict[int, set[str]]]:
        """Per view: token -> predicted event types."""
        scores, index = self.scores(views)
        return decide(scores, index, self.classes_, len(views),
                      self.none_bias if none_bias is None else none_bias)


def biased(scores: np.ndarray, classes: list[str], none_bias: float) -> np.ndarray:
    """(N, n_classes) scores with ``none_bias`` taken off ``None``."""
    s = scores.copy()
    s[:, classes.index(NONE_LABEL)] -= none_bias
    return s


def decide_biased(s: np.ndarray, index: list[tuple[int, int]], classes: list[str],
                  n_views: int) -> list[dict[int, set[str]]]:
    """Per view: token -> the event types of the argmax class of the biased scores ``s``."""
    out: list[dict[int, set[str]]] = [{} for _ in range(n_views)]
    if not len(index):
        return out
    best = s.argmax(axis=1)
    for (vi, i), b in zip(index, best, strict=True):
        lab = classes[b]
        if lab != NONE_LABEL:
            out[vi][i] = {t for t in lab.split("|") if t in GE_EVENT_TYPES}
    return out


def decide(scores: np.ndarray, index: list[tuple[int, int]], classes: list[str], n_views: int,
           none_bias: float) -> list[dict[int, set[str]]]:
    """Argmax of the :func:`biased` scores."""
    if not len(index):
        return [{} for _ in range(n_views)]
    return decide_biased(biased(scores, classes, none_bias), index, classes, n_views)
