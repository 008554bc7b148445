"""Trigger-detector levers measured and not shipped (docs/ge-events.md, issue 32).

:class:`LeverTriggerDetector` is :class:`relx.ge.triggers.TriggerDetector` with six more
settings, each off by default (so with none set it fits and predicts as relx's):

* ``type_bias`` (event type -> bias): raises the classes of single types, e.g. the
  regulations (:func:`biased`, :func:`decide`);
* ``lexicon_variants``: dictionary entries for a crude derivational stem and the tail of a
  hyphenated compound (:class:`LeverDictionary`);
* ``vectors`` (+ ``neighbours``): the trigger share and types of a word's EigenWord
  neighbours among the frequent dictionary words;
* ``dependency_classes``: the governor and dependents classed by the dictionary
  (:func:`neighbour_classes`);
* ``dict_groups = "paper"``: the dictionary's cross-fit folds hold whole papers
  (:func:`document_folds`);
* ``class_weight`` and ``classifier = "logreg"``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC

from lab.ge.tune import paper_id
from relx.ge.sentences import SentenceView
from relx.ge.triggers import (
    NONE_LABEL,
    TriggerDetector,
    TriggerDictionary,
    _key,
    decide_biased,
    token_features,
)
from relx.ge.triggers import biased as relx_biased
from relx.ge.triggers import document_folds as relx_document_folds


def _stem(key: str) -> str | None:
    """A crude derivational stem: the first 6 letters of a lemma of 7 or more
    (*regulation*, *regulatory*, *regulator* -> ``s:regula``)."""
    return f"s:{key[:6]}" if len(key) >= 7 and key[:6].isalpha() else None


def _hyphen_tail(view: SentenceView, i: int) -> str | None:
    """The part after the last hyphen of a compound (*paclitaxel-induced* -> *induced*)."""
    text = view.tokens[i].text.lower()
    if "-" not in text.strip("-"):
        return None
    tail = text.rsplit("-", 1)[1]
    return tail if sum(c.isalpha() for c in tail) >= 3 else None


class LeverDictionary(TriggerDictionary):
    """The trigger dictionary with stem entries (``stems``) and EigenWord neighbour
    features (:meth:`neighbour_features`)."""

    def __init__(self, stems: bool = False) -> None:
        super().__init__()
        self.stems = stems
        self.near_cache: dict[tuple[int, str], list[tuple[str, float]]] = {}

    def keys(self, view: SentenceView, i: int) -> set[str]:
        keys = super().keys(view, i)
        if self.stems:
            keys.add(_stem(_key(view, i)) or "")
        return keys

    def neighbour_features(self, word: str, vectors: Any, k: int, out: dict[str, float]
                           ) -> None:
        """The trigger share and types of ``word``'s ``k`` nearest EigenWord neighbours
        among the dictionary's words seen 5 or more times, cosine-weighted."""
        near = _neighbours(vectors, word, self, k)
        if not near:
            return
        wsum = sum(w for _, w in near)
        ratio = sum(w * sum(self.types.get(n, {}).values()) / self.total[n] for n, w in near)
        out[f"dn:ratio_bin={min(int(10 * ratio / wsum), 9)}"] = 1.0
        out["dn:ratio"] = ratio / wsum
        mix: Counter[str] = Counter()
        for n, w in near:
            for typ, c in self.types.get(n, {}).items():
                mix[typ] += w * c / self.total[n] / wsum
        for typ, v in mix.items():
            out[f"dn:type={typ}"] = v

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "stems": self.stems}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LeverDictionary:
        td = super().from_json(d)
        td.stems = bool(d.get("stems", False))
        return td   # type: ignore[return-value]


def _neighbours(vectors: Any, word: str, dictionary: LeverDictionary, k: int
                ) -> list[tuple[str, float]]:
    """``word``'s ``k`` nearest neighbours (cosine > 0) among the frequent dictionary words."""
    if word not in vectors:
        return []
    cache = dictionary.near_cache
    key = (k, word)
    if key not in cache:
        sims = vectors.matrix @ vectors.vector(word)
        sims[vectors.index[word]] = -np.inf
        out = []
        for j in np.argsort(-sims, kind="stable"):
            w = vectors.words[j]
            if sims[j] <= 0 or len(out) == k:
                break
            if dictionary.total.get(w, 0) >= 5:
                out.append((w, float(sims[j])))
        cache[key] = out
    return cache[key]


def dictionary_class(view: SentenceView, j: int, dictionary: TriggerDictionary) -> str:
    """Token ``j`` as the dictionary sees it: ``PROT``, its most frequent trigger type when
    a tenth or more of its occurrences are triggers, ``O`` otherwise, ``?`` if unseen."""
    if j in view.protein_tokens:
        return "PROT"
    key = _key(view, j)
    n = dictionary.total.get(key, 0)
    if not n:
        return "?"
    types = dictionary.types.get(key)
    if not types or sum(types.values()) < 0.1 * n:
        return "O"
    return types.most_common(1)[0][0]


def neighbour_classes(view: SentenceView, i: int, dictionary: TriggerDictionary,
                      out: dict[str, float]) -> None:
    """The dependency neighbours of token ``i`` (governor, dependents, their dependents) by
    :func:`dictionary_class`: what a regulation word governs (*induced* -dobj->
    *expression*) generalised past the lemma."""
    g, toks = view.graph, view.tokens
    lem = (toks[i].lemma or toks[i].text).lower()
    if i not in g:
        return
    for h in g.predecessors(i):
        ch = dictionary_class(view, h, dictionary)
        for d in g.get_edge_data(h, i).values():
            out[f"dc_in={d['label']}:{ch}"] = 1
            out[f"dc_in_l={lem}/{d['label']}:{ch}"] = 1
    for c in g.successors(i):
        cc = dictionary_class(view, c, dictionary)
        for d in g.get_edge_data(i, c).values():
            out[f"dc_out={d['label']}:{cc}"] = 1
            out[f"dc_out_l={lem}/{d['label']}:{cc}"] = 1
            for c2 in g.successors(c):
                cc2 = dictionary_class(view, c2, dictionary)
                for d2 in g.get_edge_data(c, c2).values():
                    out[f"dc_out2={d['label']}/{d2['label']}:{cc}/{cc2}"] = 1


def lever_features(view: SentenceView, i: int, dictionary: TriggerDictionary | None,
                   vectors: Any = None, neighbours: int = 10,
                   dependency_classes: bool = False) -> dict[str, float]:
    """relx's :func:`~relx.ge.triggers.token_features` of candidate token ``i`` and the
    levers' features: stem / compound-tail entries (a dictionary with ``stems``), EigenWord
    neighbours (``vectors``), :func:`neighbour_classes` (``dependency_classes``)."""
    f = token_features(view, i, dictionary)
    if dictionary is None:
        return f
    if getattr(dictionary, "stems", False):
        stem, tail = _stem(_key(view, i)), _hyphen_tail(view, i)
        if stem:
            dictionary.features(stem, "ds:", f)
        if tail:
            dictionary.features(tail, "dh:", f)
    if vectors is not None and isinstance(dictionary, LeverDictionary):
        dictionary.neighbour_features(view.tokens[i].text.lower(), vectors, neighbours, f)
    if dependency_classes:
        neighbour_classes(view, i, dictionary, f)
    return f


def document_folds(docs_views: Sequence[Sequence[SentenceView]], folds: int,
                   groups: str = "document", seed: int = 0) -> np.ndarray:
    """(n_documents,) fold of each document: documents dealt at random (``groups =
    "document"``, relx's :func:`~relx.ge.triggers.document_folds`), or whole papers
    (``"paper"``: a full-text paper's sections, and a second edition of it, fall in one
    fold)."""
    if groups == "document":
        return relx_document_folds(docs_views, folds, seed)
    if groups != "paper":
        raise ValueError(f"fold groups must be 'document' or 'paper', not {groups!r}")
    rng = np.random.RandomState(seed)
    k = max(folds, 1)
    keys = [paper_id(vs[0].doc_id) if vs else f"#{d}" for d, vs in enumerate(docs_views)]
    papers = sorted(set(keys))
    of = {papers[i]: n % k for n, i in enumerate(rng.permutation(len(papers)))}
    return np.array([of[key] for key in keys])


def biased(scores: np.ndarray, classes: list[str], none_bias: float,
           type_bias: dict[str, float] | None = None) -> np.ndarray:
    """(N, n_classes) scores with ``none_bias`` taken off ``None`` and each class raised by
    the largest ``type_bias`` of its types (``A|B``: max of A's and B's)."""
    s = relx_biased(scores, classes, none_bias)
    for k, c in enumerate(classes):
        if type_bias and c != NONE_LABEL:
            s[:, k] += max(type_bias.get(t, 0.0) for t in c.split("|"))
    return s


def decide(scores: np.ndarray, index: list[tuple[int, int]], classes: list[str], n_views: int,
           none_bias: float, type_bias: dict[str, float] | None = None
           ) -> list[dict[int, set[str]]]:
    """Argmax of the :func:`biased` scores."""
    if not len(index):
        return [{} for _ in range(n_views)]
    return decide_biased(biased(scores, classes, none_bias, type_bias), index, classes,
                         n_views)


class LeverTriggerDetector(TriggerDetector):
    """relx's trigger detector with the levers of the module docstring."""

    def __init__(self, classifier: str = "linear_svc", C: float = 0.1,
                 n_features: int = 2 ** 18, none_bias: float = 0.0, dict_folds: int = 5,
                 class_weight: str | None = None, type_bias: dict[str, float] | None = None,
                 lexicon_variants: bool = False, vectors: str | None = None,
                 neighbours: int = 10, dict_groups: str = "document",
                 dependency_classes: bool = False, random_state: int = 0) -> None:
        super().__init__(classifier=classifier, C=C, n_features=n_features,
                         none_bias=none_bias, dict_folds=dict_folds, random_state=random_state)
        self.class_weight = class_weight
        self.type_bias = type_bias
        self.lexicon_variants = lexicon_variants
        self.vectors = vectors
        self.neighbours = neighbours
        self.dict_groups = dict_groups
        self.dependency_classes = dependency_classes

    def new_dictionary(self) -> LeverDictionary:
        return LeverDictionary(self.lexicon_variants)

    def dictionary_from_json(self, d: dict[str, Any]) -> LeverDictionary:
        return LeverDictionary.from_json(d)

    def _word_vectors(self) -> Any:
        if self.vectors is None:
            return None
        from relx.vectors import cached_vectors

        return cached_vectors(self.vectors)

    def _rows(self, views: Sequence[SentenceView], dictionary: TriggerDictionary | None):
        feats, index = [], []
        vectors = self._word_vectors()   # once per call, not per token
        for vi, v in enumerate(views):
            for i in v.candidates():
                feats.append(lever_features(v, i, dictionary, vectors, self.neighbours,
                                            self.dependency_classes))
                index.append((vi, i))
        return feats, index

    def _dict_fold(self, docs_views: Sequence[Sequence[SentenceView]]) -> np.ndarray:
        return document_folds(docs_views, self.dict_folds, self.dict_groups, self.random_state)

    def _new_model(self) -> Any:
        if self.classifier == "linear_svc":
            return LinearSVC(C=self.C, class_weight=self.class_weight,
                             random_state=self.random_state)
        if self.classifier == "logreg":
            return LogisticRegression(C=self.C, max_iter=2000, class_weight=self.class_weight)
        raise ValueError(f"unknown trigger classifier {self.classifier!r}")

    def predict(self, views: Sequence[SentenceView], none_bias: float | None = None,
                type_bias: dict[str, float] | None = None) -> list[dict[int, set[str]]]:
        """Per view: token -> predicted event types."""
        scores, index = self.scores(views)
        return decide(scores, index, self.classes_, len(views),
                      self.none_bias if none_bias is None else none_bias,
                      self.type_bias if type_bias is None else type_bias)
