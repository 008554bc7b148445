"""Tree ensembles kept as compact arrays, so a fitted forest is small to save and fast to
apply; ``PackedExtraTrees`` is scikit-learn's ``ExtraTreesClassifier`` (Geurts et al. 2006)
stored that way.

A fitted sklearn tree stores 80 bytes per node (children, feature, threshold, impurity,
sample counts, class values); fully grown trees on ~36,000 candidate pairs have ~13,000
nodes each. A packed ensemble keeps the nodes of all trees in sklearn's depth-first order
(the left child of node ``i`` is ``i + 1``) and stores only what cannot be derived: which
nodes are leaves, each split's feature and threshold, and each leaf's class probabilities.
The right children and the node -> leaf row map are not saved: a loaded model rebuilds
them into the per-node arrays prediction walks (:func:`walk_from_compact`, one compiled
pass, kept in relx's array cache: :func:`cached_walk`; the packed arrays are then derived
only when asked for), a freshly fitted model on its first prediction
(:func:`expand_trees`). Each threshold is moved to the midpoint
between the two training values of its feature around it (ET draws it uniformly there), so
it sends every training value the same way as before and the thresholds of binary features
repeat, which the model file's compression exploits. For inputs whose columns take only
training values (e.g. binary pair features) the probabilities equal sklearn's up to the
order of floating-point summation.
"""

from __future__ import annotations

import weakref
import zlib

import numpy as np

from relx.estimator import BaseEstimator, ClassifierMixin, check_is_fitted, validate_data
from relx.numba_cache import cached_jit, ensure_numba_cache

PACKED_ATTRIBUTES = ("roots_", "node_is_leaf_", "split_feature_", "split_threshold_",
                     "leaf_value_")
#: what a loaded model (format >= 4) keeps instead of the packed arrays but ``roots_``: the
#: per-node arrays prediction walks (:func:`walk_from_compact`)
WALK_ATTRIBUTES = ("walk_feature_", "walk_threshold_", "walk_child_", "leaf_table_")

ensure_numba_cache(__file__)   # before the @cached_jit() definitions


class PackedTreesMixin:
    """Prediction from the packed arrays named in ``PACKED_ATTRIBUTES`` (a fitted model),
    or from the per-node arrays of :data:`WALK_ATTRIBUTES` (a loaded one)."""

    def _set_packed(self, packed: tuple[np.ndarray, ...]) -> None:
        for name in WALK_ATTRIBUTES:
            vars(self).pop(name, None)
        for name, value in zip(PACKED_ATTRIBUTES, packed, strict=True):
            setattr(self, name, value)
        _EXPANDED.pop(self, None)

    def __getstate__(self) -> dict:
        """The packed trees as :func:`compact_trees` stores them (a model file holds a third
        of the bytes); everything else as sklearn keeps it."""
        state = dict(super().__getstate__())  # a copy: Python's default is the live __dict__
        if all(a in state for a in WALK_ATTRIBUTES):
            state.update(zip(PACKED_ATTRIBUTES[1:], packed_from_walk(
                *(state.pop(a) for a in WALK_ATTRIBUTES)), strict=True))
        if all(a in state for a in PACKED_ATTRIBUTES):
            state["compact_trees"] = compact_trees(*(state.pop(a) for a in PACKED_ATTRIBUTES))
        return state

    def __setstate__(self, state: dict) -> None:
        state = dict(state)
        if "compact_trees" in state:  # model format >= 4: straight to the walked arrays
            state.update(cached_walk(state.pop("compact_trees")))
        super().__setstate__(state)
        _EXPANDED.pop(self, None)

    def __getattr__(self, name: str) -> np.ndarray:
        """A loaded model's ``PACKED_ATTRIBUTES`` (but ``roots_``), derived from the arrays
        it keeps (:data:`WALK_ATTRIBUTES`) when asked for."""
        if name in PACKED_ATTRIBUTES[1:]:
            walk = vars(self)
            if all(a in walk for a in WALK_ATTRIBUTES):
                derived = packed_from_walk(*(walk[a] for a in WALK_ATTRIBUTES))
                return derived[PACKED_ATTRIBUTES.index(name) - 1]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _packed_proba(self, X: np.ndarray) -> np.ndarray:
        """(N, n_classes) mean leaf class probabilities of the packed trees."""
        own = vars(self)
        if all(a in own for a in WALK_ATTRIBUTES):
            nodes = tuple(own[a] for a in WALK_ATTRIBUTES)
        else:
            nodes = _EXPANDED.get(self)
            if nodes is None:
                if "node_right_" in own:  # format 2: per-node arrays, a value on every node
                    right = self.node_right_
                    nodes = (self.node_feature_, self.node_threshold_, child_array(
                        right, np.arange(len(right), dtype=np.int32)), self.leaf_value_)
                else:
                    feature, threshold, right, leaf_row = expand_trees(
                        self.roots_, self.node_is_leaf_, self.split_feature_,
                        self.split_threshold_)
                    nodes = (feature, threshold, child_array(right, leaf_row), self.leaf_value_)
                _EXPANDED[self] = nodes
        # column-major: the rows walking a tree read its upper nodes' features side by
        # side (2-3x faster than row-major once X outgrows the cache)
        return _walk(np.asfortranarray(X, dtype=np.float32), self.roots_, *nodes)


_EXPANDED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # estimator -> node arrays


class PackedExtraTrees(PackedTreesMixin, ClassifierMixin, BaseEstimator):
    """``ExtraTreesClassifier`` with the fitted trees packed into compact arrays (dense X).

    Parameters are sklearn's (``n_estimators``, ``max_features``, ``min_samples_leaf``,
    ``max_depth``, ``min_weight_fraction_leaf``, ``class_weight``, ``n_jobs`` for fitting,
    ``random_state``).

    Attributes: ``classes_``, ``n_features_in_`` and the packed trees (``PACKED_ATTRIBUTES``,
    described at :func:`pack_trees`).
    """

    def __init__(self, n_estimators: int = 100, max_features="sqrt", min_samples_leaf: int = 1,
                 max_depth: int | None = None, min_weight_fraction_leaf: float = 0.0,
                 class_weight=None, n_jobs: int | None = None, random_state=None) -> None:
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.min_samples_leaf = min_samples_leaf
        self.max_depth = max_depth
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.class_weight = class_weight
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y, sample_weight: np.ndarray | None = None) -> PackedExtraTrees:
        """``sample_weight`` (N,): per-instance weights of the trees' splits and leaves."""
        from sklearn.ensemble import ExtraTreesClassifier
        from sklearn.utils.multiclass import check_classification_targets

        X, y = validate_data(self, X, y, dtype=np.float32)
        check_classification_targets(y)
        forest = ExtraTreesClassifier(
            n_estimators=self.n_estimators, max_features=self.max_features,
            min_samples_leaf=self.min_samples_leaf, max_depth=self.max_depth,
            min_weight_fraction_leaf=self.min_weight_fraction_leaf,
            class_weight=self.class_weight, n_jobs=self.n_jobs,
            random_state=self.random_state).fit(X, y, sample_weight=sample_weight)
        self.classes_ = forest.classes_
        self._set_packed(pack_trees([e.tree_ for e in forest.estimators_], training_grids(X),
                                    len(self.classes_)))
        return self

    def predict_proba(self, X) -> np.ndarray:
        """(N, n_classes) mean of the trees' leaf class probabilities."""
        check_is_fitted(self, "roots_")
        # column-major, as _packed_proba walks it: no second copy of X
        X = validate_data(self, X, dtype=np.float32, reset=False, order="F")
        return self._packed_proba(X)

    def predict(self, X) -> np.ndarray:
        proba = self.predict_proba(X)
        return self.classes_[proba.argmax(axis=1)]



def pack_trees(trees: list, grids: list[np.ndarray] | None, n_classes: int,
               features: list[np.ndarray] | None = None,
               tree_classes: list[np.ndarray] | None = None) -> tuple[np.ndarray, ...]:
    """sklearn ``Tree`` objects -> the arrays an estimator keeps as ``PACKED_ATTRIBUTES``:
    ``roots_`` (R,) int32 first node of each tree, ``node_is_leaf_`` (nodes,) bool (the nodes
    of all trees in depth-first order: the left child of node i is i + 1),
    ``split_feature_`` (inner nodes,) int32 X column, ``split_threshold_`` (inner nodes,)
    float64 (go left when ``x <= threshold``), ``leaf_value_`` (leaves, n_classes) float64
    class probabilities.

    ``grids[j]``: the sorted training values of column j (thresholds snap to midpoints;
    ``None`` keeps sklearn's thresholds); ``features[r]``: the X columns of tree r's inputs
    (a random subspace; default: the identity); ``tree_classes[r]``: the class indices of
    tree r's value columns when it saw only some classes (default: all ``n_classes``).
    """
    roots, is_leaf, feature, threshold, value = [], [], [], [], []
    offset = 0
    for r, t in enumerate(trees):
        n = t.node_count
        left = t.children_left
        leaf = left == -1
        if not (leaf | (left == np.arange(n) + 1)).all():
            raise ValueError("tree nodes are not in depth-first order (left child = node + 1)")
        f = t.feature[~leaf]
        if features is not None:
            f = np.asarray(features[r])[f]
        roots.append(offset)
        is_leaf.append(leaf)
        feature.append(f.astype(np.int32))
        threshold.append(t.threshold[~leaf].astype(np.float64))
        cls = np.arange(n_classes) if tree_classes is None else np.asarray(tree_classes[r], int)
        v = t.value.reshape(n, -1)[leaf, :len(cls)]
        v = v / np.maximum(v.sum(axis=1, keepdims=True), np.finfo(float).tiny)
        full = np.zeros((len(v), n_classes))
        full[:, cls] = v
        value.append(full)
        offset += n
    feature_all, threshold_all = np.concatenate(feature), np.concatenate(threshold)
    if grids is not None:
        _snap_thresholds(feature_all, threshold_all, grids)
    return (np.asarray(roots, np.int32), np.concatenate(is_leaf), feature_all, threshold_all,
            np.concatenate(value))


def smallest_uint(n: int) -> type:
    """The narrowest unsigned numpy integer type holding ``0 .. n - 1``."""
    return next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64) if n <= np.iinfo(t).max + 1)


def float32_floor(x: np.ndarray) -> np.ndarray:
    """(n,) float64 -> (n,) float32: the largest float32 <= each value. For every float32
    ``v``, ``v <= x`` exactly when ``v <= float32_floor(x)`` (trees compare float32 inputs)."""
    x = np.asarray(x, dtype=np.float64)
    down = x.astype(np.float32)
    above = down.astype(np.float64) > x
    down[above] = np.nextafter(down[above], np.float32(-np.inf))
    return down


def compact_trees(roots: np.ndarray, is_leaf: np.ndarray, split_feature: np.ndarray,
                  split_threshold: np.ndarray, leaf_value: np.ndarray) -> dict[str, np.ndarray]:
    """``PACKED_ATTRIBUTES`` as the arrays a model file stores (model format 4):
    ``node_is_leaf`` bit-packed (``n_nodes`` (1,)); ``split_feature`` in the narrowest
    unsigned type, as is or as byte planes (``split_feature_planes``, whichever compresses
    smaller); ``split_threshold_planes``: the thresholds as float32 rounded down
    (:func:`float32_floor`: the same split of every float32 input), ordered by feature (a
    stable sort of ``split_feature``, undone on load) so that a feature's thresholds lie
    together, as byte planes; ``leaf_table`` (distinct leaf rows, float64) and
    ``leaf_index`` (each leaf's row)."""
    feature = np.asarray(split_feature)
    if feature.size and feature.min() < 0:
        raise ValueError("packed trees: negative split feature")
    feature = feature.astype(smallest_uint(int(feature.max(initial=0)) + 1))
    order = np.argsort(feature, kind="stable")
    value = np.ascontiguousarray(leaf_value, dtype=np.float64)
    table, index = np.unique(value, axis=0, return_inverse=True)
    index = index.reshape(-1)
    if not np.array_equal(table[index].view(np.uint64), value.view(np.uint64)):
        table, index = value, np.arange(len(value))  # rows equal but not bitwise (-0.0)
    planes = byte_planes(feature)
    smaller = len(zlib.compress(planes.tobytes(), 1)) < len(zlib.compress(feature.tobytes(), 1))
    return {"roots": np.asarray(roots, np.int32),
            "n_nodes": np.array([len(is_leaf)], np.int64),
            "node_is_leaf": np.packbits(np.asarray(is_leaf, bool)),
            **({"split_feature_planes": planes} if smaller else {"split_feature": feature}),
            "split_threshold_planes": byte_planes(
                float32_floor(np.asarray(split_threshold)[order])),
            "leaf_table": table,
            "leaf_index": index.astype(smallest_uint(len(table)))}


def byte_planes(a: np.ndarray) -> np.ndarray:
    """(n,) array of a k-byte type -> (k, n) uint8: byte j of every element in row j (the
    layout compressors find the repeats of numbers' high bytes in)."""
    a = np.ascontiguousarray(a)
    return a.view(np.uint8).reshape(len(a), a.dtype.itemsize).T.copy()


def from_byte_planes(planes: np.ndarray, dtype: type) -> np.ndarray:
    """Inverse of :func:`byte_planes`: (k, n) uint8 -> (n,) ``dtype`` (k bytes each)."""
    return np.ascontiguousarray(np.asarray(planes, np.uint8).T).view(dtype).reshape(-1)


def _compact_splits(c: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    """:func:`compact_trees`'s arrays -> roots (int32), leaf flags (bool), split features
    (int32) and thresholds (float32, in split order)."""
    if "split_feature_planes" in c:
        planes = c["split_feature_planes"]
        narrow = from_byte_planes(planes, smallest_uint(256 ** len(planes)))
    else:
        narrow = np.asarray(c["split_feature"])
    threshold = np.empty(len(narrow), dtype=np.float32)
    threshold[np.argsort(narrow, kind="stable")] = from_byte_planes(
        c["split_threshold_planes"], np.float32)
    is_leaf = np.unpackbits(c["node_is_leaf"], count=int(c["n_nodes"][0])).astype(bool)
    return np.asarray(c["roots"], np.int32), is_leaf, narrow.astype(np.int32), threshold


def expand_compact(c: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    """:func:`compact_trees`'s arrays -> ``PACKED_ATTRIBUTES`` (int32 features, float64
    thresholds, bool leaf flags, float64 leaf rows)."""
    roots, is_leaf, feature, threshold = _compact_splits(c)
    value = np.asarray(c["leaf_table"], dtype=np.float64)[np.asarray(c["leaf_index"], np.intp)]
    return roots, is_leaf, feature, threshold.astype(np.float64), value


def child_array(right: np.ndarray, leaf_row: np.ndarray) -> np.ndarray:
    """Per node, what :func:`_walk` follows: an inner node's right child (> 0), or at a
    leaf ``-1 - row`` of its row of leaf values (int32)."""
    return np.where(right >= 0, right, -1 - leaf_row).astype(np.int32)


def walk_from_compact(c: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """:func:`compact_trees`'s arrays -> ``roots_`` and the :data:`WALK_ATTRIBUTES`: per node
    its feature (uint16 when the features fit, else int32; 0 at leaves), threshold
    (float32: every stored threshold is one, so a float32 input splits as against the
    float64) and :func:`child_array` entry (a leaf's: its row of ``leaf_table_``, the
    distinct leaf rows, float64). 10 bytes a node where the packed arrays and their
    expansion took ~36 (leaf rows repeat: a few thousand distinct among a million leaves);
    the same leaf values, so the same sums. One compiled pass over the nodes
    (:func:`_walk_nodes`: ~0.08 s for the shipped models' ~7 million nodes)."""
    if "split_feature_planes" in c:
        planes = c["split_feature_planes"]
        feature = from_byte_planes(planes, smallest_uint(256 ** len(planes)))
    else:
        feature = np.asarray(c["split_feature"])
    n_nodes = int(c["n_nodes"][0])
    is_leaf = np.unpackbits(c["node_is_leaf"], count=n_nodes).view(bool)
    n_features = int(feature.max(initial=0)) + 1
    node_feature = np.empty(n_nodes, np.uint16 if n_features <= 2 ** 16 else np.int32)
    roots = np.asarray(c["roots"], np.int32)
    threshold, child = _walk_nodes(
        roots, is_leaf, feature, from_byte_planes(c["split_threshold_planes"], np.float32),
        n_features, np.asarray(c["leaf_index"]), node_feature)
    return {"roots_": roots, "walk_feature_": node_feature, "walk_threshold_": threshold,
            "walk_child_": child,
            "leaf_table_": np.ascontiguousarray(c["leaf_table"], dtype=np.float64)}


def cached_walk(c: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """:func:`walk_from_compact`'s arrays, kept in relx's array cache by the digest of ``c``
    (a loaded PPI model's ~6 million nodes: ~0.9 s to expand, ~0.05 s to read back)."""
    from relx import array_cache

    parts = [np.asarray(c[k]) for k in sorted(c)]
    name = "trees-" + array_cache.digest(*sorted(c), *parts)
    walked = ("roots_", *WALK_ATTRIBUTES)
    return array_cache.load_or_build(name, lambda: walk_from_compact(c),
                                     lambda arrays: {k: arrays[k] for k in walked})


def packed_from_walk(feature: np.ndarray, threshold: np.ndarray, child: np.ndarray,
                     table: np.ndarray) -> tuple[np.ndarray, ...]:
    """The :data:`WALK_ATTRIBUTES` -> ``PACKED_ATTRIBUTES`` but ``roots_`` (leaf flags,
    int32 split features, float64 thresholds, float64 leaf rows): what
    :func:`expand_compact` gives for the same model."""
    inner = child >= 0
    return (~inner, feature[inner].astype(np.int32), threshold[inner].astype(np.float64),
            table[-1 - child[~inner]])


def _snap_thresholds(feature: np.ndarray, threshold: np.ndarray, grids: list[np.ndarray]) -> None:
    """Move each split's threshold (in place) to the midpoint of the two training values of
    its feature around it: the same split of the training data, repeated thresholds."""
    order = np.argsort(feature, kind="stable")  # splits grouped by feature
    starts = np.searchsorted(feature[order], np.arange(len(grids) + 1))
    for j, g in enumerate(grids):
        idx = order[starts[j]:starts[j + 1]]
        if len(idx) == 0 or len(g) < 2:
            continue
        k = np.searchsorted(g, threshold[idx], side="right")  # g[k-1] <= thr < g[k]
        inside = (k > 0) & (k < len(g))
        lo, hi = g[k[inside] - 1], g[k[inside]]
        threshold[idx[inside]] = lo + (hi - lo) / 2


def training_grids(X: np.ndarray) -> list[np.ndarray]:
    """The sorted distinct float32 values of each column of X (as sklearn's trees see them)."""
    X32 = np.asarray(X, dtype=np.float32)
    return [np.unique(X32[:, j]).astype(np.float64) for j in range(X32.shape[1])]


@cached_jit()
def expand_trees(roots: np.ndarray, is_leaf: np.ndarray, split_feature: np.ndarray,
                 split_threshold: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                       np.ndarray]:
    """Per-node (feature (-1 at leaves), threshold, right child (-1 at leaves), row in
    ``leaf_value_`` (-1 at inner nodes)) from the depth-first leaf flags and the splits."""
    n = is_leaf.shape[0]
    feature = np.full(n, -1, np.int32)
    threshold = np.zeros(n)
    right = np.full(n, -1, np.int32)
    leaf_row = np.full(n, -1, np.int32)
    stack = np.empty(n, np.int64)  # inner nodes still waiting for their right child
    top, n_split, n_leaf, r = 0, 0, 0, 0
    for i in range(n):
        if r < roots.shape[0] and roots[r] == i:  # a new tree: no pending right children
            if top != 0:
                raise ValueError("packed trees: a tree ends with nodes missing")
            r += 1
        elif i > 0 and is_leaf[i - 1]:
            # after a leaf comes the right child of the nearest ancestor still without one
            if top == 0:
                raise ValueError("packed trees: a node has no parent")
            top -= 1
            right[stack[top]] = i
        if is_leaf[i]:
            leaf_row[i] = n_leaf
            n_leaf += 1
        else:
            feature[i] = split_feature[n_split]
            threshold[i] = split_threshold[n_split]
            n_split += 1
            stack[top] = i
            top += 1
    if top != 0 or n_split != split_feature.shape[0]:
        raise ValueError("packed trees: the leaf flags do not match the splits")
    return feature, threshold, right, leaf_row


@cached_jit()
def _walk_nodes(roots: np.ndarray, is_leaf: np.ndarray, split_feature: np.ndarray,
                feature_threshold: np.ndarray, n_features: int, leaf_index: np.ndarray,
                node_feature: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`expand_trees` and :func:`child_array` in one pass, for
    :func:`walk_from_compact`: fills ``node_feature`` (0 at leaves) and returns per node the
    threshold (float32, 0 at leaves) and the child entry. ``feature_threshold`` holds the
    splits' thresholds grouped by feature (stable), as :func:`compact_trees` stores them."""
    n, m = is_leaf.shape[0], split_feature.shape[0]
    nxt = np.zeros(n_features + 1, np.int64)   # per feature: its next threshold's index
    for s in range(m):
        nxt[split_feature[s] + 1] += 1
    for f in range(n_features):
        nxt[f + 1] += nxt[f]
    threshold = np.zeros(n, np.float32)
    child = np.empty(n, np.int32)
    stack = np.empty(n, np.int64)  # inner nodes still waiting for their right child
    top, n_split, n_leaf, r = 0, 0, 0, 0
    for i in range(n):
        if r < roots.shape[0] and roots[r] == i:  # a new tree: no pending right children
            if top != 0:
                raise ValueError("packed trees: a tree ends with nodes missing")
            r += 1
        elif i > 0 and is_leaf[i - 1]:
            if top == 0:
                raise ValueError("packed trees: a node has no parent")
            top -= 1
            child[stack[top]] = i
        if is_leaf[i]:
            if n_leaf >= leaf_index.shape[0]:
                raise ValueError("packed trees: more leaves than leaf rows")
            child[i] = -1 - np.int32(leaf_index[n_leaf])
            node_feature[i] = 0
            n_leaf += 1
        else:
            if n_split >= m:
                raise ValueError("packed trees: the leaf flags do not match the splits")
            f = split_feature[n_split]
            node_feature[i] = f
            threshold[i] = feature_threshold[nxt[f]]
            nxt[f] += 1
            n_split += 1
            stack[top] = i
            top += 1
    if top != 0 or n_split != m:
        raise ValueError("packed trees: the leaf flags do not match the splits")
    return threshold, child


#: a node reached by at most this many rows walks them one by one instead of splitting them
_SMALL_GROUP = 16


@cached_jit(nogil=True)
def _leaf(X: np.ndarray, i: int, node: int, feature: np.ndarray, threshold: np.ndarray,
          child: np.ndarray) -> int:
    """The row of leaf values of the leaf row ``i`` of X reaches from ``node``."""
    while child[node] >= 0:
        node = node + 1 if X[i, feature[node]] <= threshold[node] else child[node]
    return -1 - child[node]


@cached_jit(nogil=True)
def _walk(X: np.ndarray, roots: np.ndarray, feature: np.ndarray, threshold: np.ndarray,
          child: np.ndarray, value: np.ndarray) -> np.ndarray:
    """(N, n_classes) mean leaf values of the trees for the rows of X.

    Tree by tree, so one tree's nodes stay in cache for all rows; each row still sums its
    trees in order. Within a tree the rows go down together: a split sends the rows that
    reach it left or right without branches (each row's test is independent of the
    others', where a row's own walk waits on its every step), a node reached by a few
    rows walks them one by one. The same leaves, so the same sums, as walking each row.
    """
    n, k = X.shape[0], value.shape[1]
    out = np.zeros((n, k))
    idx = np.empty(n, np.int64)   # the rows, grouped by the node they reach
    left, rest = np.empty(n, np.int64), np.empty(n, np.int64)
    stack = np.empty((n + 1, 3), np.int64)   # (node, lo, hi): pending disjoint row groups
    for r in range(roots.shape[0]):
        for i in range(n):
            idx[i] = i
        stack[0, 0], stack[0, 1], stack[0, 2] = roots[r], 0, n
        top = 1
        while top:
            top -= 1
            node, lo, hi = stack[top, 0], stack[top, 1], stack[top, 2]
            if child[node] < 0 or hi - lo <= _SMALL_GROUP:
                for t in range(lo, hi):
                    i = idx[t]
                    row = _leaf(X, i, node, feature, threshold, child)
                    for c in range(k):
                        out[i, c] += value[row, c]
                continue
            f, thr = feature[node], threshold[node]
            nl = nr = 0
            for t in range(lo, hi):
                i = idx[t]
                go = X[i, f] <= thr
                left[nl] = i
                rest[nr] = i
                nl += go
                nr += 1 - go
            idx[lo:lo + nl] = left[:nl]
            idx[lo + nl:hi] = rest[:nr]
            if nr:
                stack[top, 0], stack[top, 1], stack[top, 2] = child[node], lo + nl, hi
                top += 1
            if nl:
                stack[top, 0], stack[top, 1], stack[top, 2] = node + 1, lo, lo + nl
                top += 1
    return out / roots.shape[0]
