"""Dense word-vector features of a candidate pair, for tree ensembles.

Four blocks of one word-vector dimension each (``dim`` = 100 for ``runs/vectors/eigenwords.npz``),
every block the mean unit-norm vector of its words (lowercased token texts, the vocabulary of
:func:`relx.vectors.train_vectors`; words without a vector are skipped, a block with none is
zeros):

- ``path``: the inner words of the shortest dependency path between the two mentions;
- ``between``: the words between the mentions (mention tokens left out; empty when the
  mentions overlap);
- ``governors``: the sum of the two mention heads' mean governor-word vectors;
- ``window``: the 3 words before the first mention and the 3 after the second.

The randomised-trees member of ``configs/ppi-best.toml`` splits on them next to the sparse
pair features, which lets it treat words it never saw in training like their neighbours in
vector space (chosen with IEPA as the development corpus, see the config header).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from relx.estimator import BaseEstimator, TransformerMixin
from relx.represent.instances import PairInstance
from relx.represent.pair_features import WINDOW, _mention_tokens, _pair_parts
from relx.structures import _roles, entity_head, shortest_path
from relx.vectors import DEFAULT_VECTORS, cached_vectors

BLOCKS = ("path", "between", "governors", "window")


def pair_vector_words(x: PairInstance) -> dict[str, list]:
    """The words of each block of one pair: ``{"path": [...], "between": [...],
    "window": [...], "governors": [[words of head 1], [words of head 2]]}``."""
    s, e1, e2, g = _pair_parts(x)
    toks = s.tokens
    path = shortest_path(s, e1, e2, g)  # [(edge, word, lemma, pos), ...]
    roles = _roles(s, e1, e2)
    t1, t2 = _mention_tokens(roles)
    between: list[str] = []
    window: list[str] = []
    if t1 and t2:
        if min(t2) > max(t1):
            between = [toks[i].text.lower() for i in range(max(t1) + 1, min(t2))
                       if i not in roles]
        around = [*range(max(0, min(t1) - WINDOW), min(t1)),
                  *range(max(t2) + 1, min(len(toks), max(t2) + 1 + WINDOW))]
        window = [toks[i].text.lower() for i in around if i not in roles]
    governors = []
    for e in (e1, e2):
        h = entity_head(s, e, g)
        edges = g.in_edges(h) if h is not None else ()
        governors.append([toks[v].text.lower() for v, _ in edges
                          if v not in roles and v < len(toks)])
    return {"path": [p[1].lower() for p in path if p[3] != "PROT"], "between": between,
            "governors": governors, "window": window}


class PairVectorFeatures(TransformerMixin, BaseEstimator):
    """Instances -> (N, 4 * dim) float32 mean word vectors of the four blocks above.

    ``vectors``: a relx word-vectors ``.npz`` (:func:`relx.vectors.load_vectors`; a relative
    path is also looked up in the relx checkout). ``fit`` copies the vectors into the
    estimator (``words_``, ``matrix_`` float16), so a saved model does not need the file.
    """

    def __init__(self, vectors: str = DEFAULT_VECTORS) -> None:
        self.vectors = vectors

    def fit(self, X: Sequence[PairInstance], y=None) -> PairVectorFeatures:
        v = cached_vectors(self.vectors)
        self.words_ = np.array(v.words, dtype=str)
        self.matrix_ = v.matrix.astype(np.float16)
        self.n_features_out_ = len(BLOCKS) * self.matrix_.shape[1]
        return self

    def _index(self) -> dict[str, int]:
        index = getattr(self, "_index_cache", None)
        if index is None:
            index = {w: i for i, w in enumerate(self.words_.tolist())}
            self._index_cache = index
        return index

    def _mean(self, words: Sequence[str], index: dict[str, int], m: np.ndarray) -> np.ndarray:
        ids = [index[w] for w in words if w in index]
        return m[ids].mean(0) if ids else np.zeros(m.shape[1], np.float32)

    def transform(self, X: Sequence[PairInstance]) -> np.ndarray:
        index, m = self._index(), self.matrix_.astype(np.float32)
        out = np.zeros((len(X), self.n_features_out_), np.float32)
        d = m.shape[1]
        for i, x in enumerate(X):
            w = pair_vector_words(x)
            out[i, :d] = self._mean(w["path"], index, m)
            out[i, d:2 * d] = self._mean(w["between"], index, m)
            out[i, 2 * d:3 * d] = sum(self._mean(ws, index, m) for ws in w["governors"])
            out[i, 3 * d:] = self._mean(w["window"], index, m)
        return out

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_index_cache", None)
        return state

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        d = self.n_features_out_ // len(BLOCKS)
        return np.array([f"vec_{b}_{k}" for b in BLOCKS for k in range(d)], dtype=object)
