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
#: the fewest rows numpy's mean sums pairwise
_PAIRWISE = 8


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

    def transform(self, X: Sequence[PairInstance]) -> np.ndarray:
        index, m = self._index(), self.matrix_.astype(np.float32)
        d = m.shape[1]
        # five word lists per pair (path, between, the two governors' lists, window), each
        # list's mean as ``m[ids].mean(0)`` gives it (zeros for no known word)
        ids: list[int] = []
        counts = np.zeros(5 * len(X), dtype=np.int64)
        for i, x in enumerate(X):
            w = pair_vector_words(x)
            for k, words in enumerate((w["path"], w["between"], *w["governors"], w["window"])):
                found = [index[v] for v in words if v in index]
                ids += found
                counts[5 * i + k] = len(found)
        means = np.zeros((len(counts), d), np.float32)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        rows = np.vstack([m[np.asarray(ids, dtype=np.intp)], np.zeros((1, d), np.float32)])
        # numpy's mean sums fewer than 8 rows one after another and more pairwise (8 partial
        # sums): the short lists are summed here in one call (reduceat over their
        # start, end pairs; the sums between them are dropped), the long ones by numpy
        short = np.flatnonzero((counts > 0) & (counts < _PAIRWISE))
        if len(short):
            bounds = np.column_stack([starts[short], starts[short] + counts[short]]).ravel()
            sums = np.add.reduceat(rows, bounds, axis=0)[::2]
            means[short] = sums / counts[short, None].astype(np.float32)
        for k in np.flatnonzero(counts >= _PAIRWISE):
            means[k] = rows[starts[k]:starts[k] + counts[k]].mean(0)
        means = means.reshape(len(X), 5, d)
        out = np.zeros((len(X), self.n_features_out_), np.float32)
        out[:, :d], out[:, d:2 * d] = means[:, 0], means[:, 1]
        out[:, 2 * d:3 * d] = means[:, 2] + means[:, 3]
        out[:, 3 * d:] = means[:, 4]
        return out

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_index_cache", None)
        return state

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        d = self.n_features_out_ // len(BLOCKS)
        return np.array([f"vec_{b}_{k}" for b in BLOCKS for k in range(d)], dtype=object)
