"""Sparse lexical/syntactic features of a candidate pair, for a linear classifier.

The features of a pair (entities blinded as in the kernels' structures):

- shortest dependency path: its edge-label string, length, edge labels, lemmas and POS
  of its inner nodes, edge+lemma and lemma-edge-lemma walks, lemma bigrams, whether it has a
  verb, how many other protein mentions it passes;
- surface: lemmas between the two mentions, before the first (3 tokens) and after the
  second (3 tokens), the token distance (binned), the number of other protein mentions
  between them, whether the mentions overlap or have the same text;
- path structure (``path_structure=True``): the path's lowest common ancestor (the node
  where it turns from walking up to walking down the tree: its lemma, coarse POS and the
  number of edges up and down) and each pair of consecutive edge labels (chosen with IEPA
  as the development corpus: IEPA AUC of the two-parse pair LR with competition features
  0.806 -> 0.809 trained on AIMed, 0.850 -> 0.851 on BioInfer; 5-fold document
  out-of-fold AUC 0.873 -> 0.874 on AIMed, 0.831 -> 0.835 on BioInfer);
- competition (``competition=True``): how the pair fares against the other protein pairs
  of its sentence, which transfers across corpora better than lexical cues (chosen with
  IEPA as the development corpus: IEPA AUC of the two-parse pair LR 0.780 -> 0.796 trained
  on AIMed, 0.823 -> 0.838 on BioInfer): the number of protein mentions in the sentence
  (binned), how many edges longer its dependency path is than the sentence's shortest
  pair path, and for each of its two mentions how many other mentions are closer to it
  along the dependency graph. Computed from the sentence's own mentions, so a pair's
  features do not depend on which other pairs are in the batch;
- surface context (``surface_context=True``, :func:`surface_context_features`): lemma
  bigrams and POS between the mentions, lemmas around each, the mention heads' governors
  (used by ppi-best's randomised-trees member only: chosen with IEPA as the development
  corpus, it helps the trees' transfer and not the regressions');
- document context (``document_context=True``, :func:`document_context_features`): in how
  many sentences of the pair's document (among the batch's) the two mention names occur
  together - a pair that an abstract keeps naming together is more often an interacting
  one, in all three PPI corpora.

``PairFeatureExtractor`` turns :class:`~relx.represent.instances.PairInstance` lists into
a CSR matrix (N, n_features) with a vocabulary learned in ``fit``, optionally with the same
features from relx's own parse of each sentence (``second_parse = "relx"``); a sklearn
``LogisticRegression`` on it is the ``pair_lr`` member of ``configs/ppi-best.toml``.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import replace

import networkx as nx
import numpy as np
import scipy.sparse as sp

from relx.doc import Sentence
from relx.estimator import BaseEstimator, TransformerMixin
from relx.graphs import distances_from, undirected_path
from relx.packed_strings import pack_strings, unpack_strings
from relx.represent.instances import PairInstance
from relx.structures import (
    BOTH,
    PROT,
    PROT1,
    PROT2,
    _roles,
    also_forget,
    entity_head,
    sentence_graph,
    shortest_path,
)

WINDOW = 3
#: feature-name prefixes of the lexical features (words and lemmas), scaled by
#: ``PairFeatureExtractor(lexical_weight=...)``; the others are structural
LEXICAL_PREFIXES = ("between=", "before=", "after=", "path_lemma=", "path_walk=",
                    "path_bigram=", "path_edge_lemma=", "lca_lemma=", "ctx=", "between_bigram=",
                    "local", "gov=")
# the last _dicts call's (pairs, feature settings, dicts): ensemble members with the same
# feature settings (ppi-best's three pair-feature members) compute them once per batch
_last_dicts: list = []
# the last transform's (pairs, settings and vocabulary, matrix): members with the same
# columns (ppi-best's lr, nb and gbt members) build the matrix once per batch
_last_matrix: list = []
#: (vocabulary key, lexical weight) -> column weights, shared by members with both equal
_WEIGHTS: dict[tuple[tuple[int, str], float], np.ndarray] = {}
_MAX_WEIGHTS = 16
also_forget(_last_dicts.clear)   # a finished batch's pairs: not read again
also_forget(_last_matrix.clear)


def _same_pairs(last: tuple, X: Sequence[PairInstance]) -> bool:
    """``X`` holds the very pair objects of ``last``, in order."""
    return len(last) == len(X) and all(a is b for a, b in zip(last, X, strict=True))


def _distance_bin(n: int) -> str:
    return str(n) if n < 10 else "10-19" if n < 20 else "20+"


def _count_bin(n: int) -> str:
    return "2" if n <= 2 else "3-4" if n <= 4 else "5-8" if n <= 8 else "9+"


def competition_features(sentence: Sentence, graph: nx.MultiDiGraph | None = None
                         ) -> dict[tuple[str, str], dict[str, float]]:
    """``(entity id, entity id) -> features`` for every ordered pair of the sentence's
    mentions: mention count, path length above the sentence's shortest, and per mention the
    number of other mentions nearer to it in the undirected dependency graph (edges)."""
    g = sentence_graph(sentence) if graph is None else graph
    ids = [e.id for e in sentence.entities]
    dist: dict[str, dict[int, int]] = {}
    heads: dict[str, int | None] = {}
    for e in sentence.entities:
        heads[e.id] = h = entity_head(sentence, e, g)
        dist[e.id] = {} if h is None else distances_from(g, h)
    far = len(sentence.tokens) + 1
    length = {(a, b): far if heads[b] is None else dist[a].get(heads[b], far)
              for a in ids for b in ids if a != b}
    shortest = min(length.values(), default=0)
    n = "competition_mentions=" + _count_bin(len(ids))
    # per mention, its path lengths to the others in order: "nearer than d" is a bisection
    ordered = {u: sorted(length[u, z] for z in ids if z != u) for u in ids}
    out = {}
    for (a, b), d in length.items():
        f = {n: 1.0, "competition_above_shortest=" + str(min(d - shortest, 3)): 1.0}
        for u in (a, b):
            nearer = bisect_left(ordered[u], d)
            f["competition_nearer=" + str(min(nearer, 2))] = 1.0
        out[a, b] = f
    return out


def path_structure_features(path: Sequence[tuple[str, str, str, str]]) -> dict[str, float]:
    """Lowest common ancestor (lemma, coarse POS, edges up / down) and consecutive edge-label
    pairs of a :func:`~relx.structures.shortest_path` (``[(edge, word, lemma, pos), ...]``)."""
    edges = [p[0] for p in path[1:]]
    if not edges:
        return {}
    up = 0
    while up < len(edges) and edges[up].startswith("<"):
        up += 1
    _, _, lemma, pos = path[up]
    f = {"lca_lemma=" + lemma: 1.0, "lca_pos=" + pos[:2]: 1.0,
         f"lca_up={min(up, 4)}_down={min(len(edges) - up, 4)}": 1.0}
    for a, b in zip(edges, edges[1:], strict=False):
        f["edge_bigram=" + a + b] = 1.0
    return f


NEGATION_LEMMAS = frozenset({"not", "no", "n't", "never", "without", "nor", "neither"})
#: dependents of a path word that modify what the path says (negation, modality, degree)
CONTEXT_LABELS = frozenset({"neg", "aux", "advmod", "det"})


def path_context_features(sentence: Sentence, graph: nx.MultiDiGraph, e1, e2
                          ) -> dict[str, float]:
    """Dependents (not on the path) of the inner words of the shortest path between the two
    mentions' heads: ``ctx_negated`` when one is a negation (label ``neg`` or a negation word:
    "does *not* bind", "*no* effect on"), and ``ctx=label:lemma`` for each ``neg``/``aux``/
    ``advmod`` dependent and each negating ``det`` (modality: "*may* link", "*directly*")."""
    h1, h2 = entity_head(sentence, e1, graph), entity_head(sentence, e2, graph)
    if h1 is None or h2 is None or h1 == h2:
        return {}
    try:
        nodes = undirected_path(graph, h1, h2)
    except nx.NetworkXNoPath:
        return {}
    on_path = set(nodes)
    f: dict[str, float] = {}
    for u in nodes[1:-1]:
        for _, v, data in graph.out_edges(u, data=True):
            label = data.get("label", "")
            if v in on_path or label not in CONTEXT_LABELS:
                continue
            lemma = graph.nodes[v]["lemma"].lower()
            negation = label == "neg" or lemma in NEGATION_LEMMAS
            if negation:
                f["ctx_negated"] = 1.0
            if label != "det" or negation:
                f["ctx=" + label + ":" + lemma] = 1.0
    return f


def surface_context_features(sentence: Sentence, graph: nx.MultiDiGraph, e1, e2, roles: dict,
                             t1: list[int], t2: list[int]) -> dict[str, float]:
    """Shallow-linguistic context of a pair (after Giuliano et al. 2006) from its mentions'
    token indices ``t1`` < ``t2`` and the token ``roles`` of :func:`relx.structures._roles`:
    lemma bigrams and coarse POS between the mentions (mention tokens blinded as ``PROT``),
    the lemmas at offsets -2, -1 before and +1, +2 after each mention (``local1-1=``,
    ``local2+2=``, ...) and each mention head's incoming dependency label and governor lemma
    (``gov=nsubj:bind``)."""
    tokens = sentence.tokens

    def word(i: int) -> str:
        return PROT if i in roles else (tokens[i].lemma or tokens[i].text).lower()

    f: dict[str, float] = {}
    between = range(max(t1) + 1, min(t2))
    for i in between:
        if i + 1 < min(t2):
            f["between_bigram=" + word(i) + "_" + word(i + 1)] = 1.0
        if i not in roles:
            f["between_pos=" + (tokens[i].pos or "")[:2]] = 1.0
    for name, e, lo, hi in (("1", e1, min(t1), max(t1)), ("2", e2, min(t2), max(t2))):
        for off in (-2, -1):
            if lo + off >= 0:
                f[f"local{name}{off}=" + word(lo + off)] = 1.0
        for off in (1, 2):
            if hi + off < len(tokens):
                f[f"local{name}+{off}=" + word(hi + off)] = 1.0
        h = entity_head(sentence, e, graph)
        for v, _, data in graph.in_edges(h, data=True) if h is not None else ():
            gov = PROT if v in roles else graph.nodes[v]["lemma"].lower()
            f["gov=" + data.get("label", "") + ":" + gov] = 1.0
    return f


def _name(text: str) -> str:
    """A mention's name for matching mentions across sentences: lowercased, letters and
    digits only (``IL-2`` = ``il2`` = ``IL 2``)."""
    return "".join(c for c in text.lower() if c.isalnum())


def document_context_features(X: Sequence[PairInstance]) -> list[dict[str, float]]:
    """For each pair, ``doc_cooc=1|2|3+``: the number of sentences of its document (the
    distinct sentences of X with the same ``document_id``) in which mentions with the two
    mentions' names (:func:`_name`) both occur; ``{}`` for two mentions of one name.
    Pairs that all carry their ``context`` (computed over a whole document before it was
    scored in windows) keep it."""
    if X and all(x.context is not None for x in X):
        return [x.context for x in X]   # type: ignore[misc]
    seen: set[tuple[str, int]] = set()
    counts: dict[tuple[str, str, str], int] = {}   # (document, name, name) -> sentences
    for x in X:   # each sentence once: every pair of its names (linear in the pairs)
        if (x.document_id, id(x.sentence)) in seen:
            continue
        seen.add((x.document_id, id(x.sentence)))
        names = sorted({_name(e.text) for e in x.sentence.entities})
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                key = (x.document_id, a, b)
                counts[key] = counts.get(key, 0) + 1
    out: list[dict[str, float]] = []
    for x in X:
        s = x.sentence
        a, b = sorted((_name(s.entity(x.relation.arg1).text),
                       _name(s.entity(x.relation.arg2).text)))
        if a == b or not a or not b:
            out.append({})
            continue
        n = counts.get((x.document_id, a, b), 0)
        out.append({"doc_cooc=" + (str(n) if n < 3 else "3+"): 1.0})
    return out


def negated_pair(x: PairInstance) -> bool:
    """Whether the shortest dependency path between the pair's mentions passes a word with
    a negation dependent ("SHP-1 does *not* interact with STAT5";
    :func:`path_context_features`' ``ctx_negated``). On relx's parses of the PPI corpora such
    pairs are rarely interacting: AIMed 2 of 285 flagged pairs, IEPA 0 of 35 (BioInfer, which
    also annotates negated relations, 79 of 334)."""
    s, e1, e2, g = _pair_parts(x)
    return "ctx_negated" in path_context_features(s, g, e1, e2)


def _pair_parts(x: PairInstance) -> tuple:
    """(sentence, first mention, second mention, dependency graph) of a pair (the graph
    shared through :func:`relx.structures.sentence_graph`)."""
    s = x.sentence
    e1, e2 = s.entity(x.relation.arg1), s.entity(x.relation.arg2)
    if (e2.start, e2.end) < (e1.start, e1.end):  # unordered pairs: PROT1 comes first
        e1, e2 = e2, e1
    return s, e1, e2, sentence_graph(s)


def _mention_tokens(roles: dict[int, str]) -> tuple[list[int], list[int]]:
    """Token indices of the first and of the second mention of a pair."""
    return ([t for t, r in roles.items() if r in (PROT1, BOTH)],
            [t for t, r in roles.items() if r in (PROT2, BOTH)])


def surface_context_dict(x: PairInstance) -> dict[str, float]:
    """:func:`surface_context_features` of one candidate pair, ``{}`` when its mentions
    overlap (what ``pair_feature_dict(..., surface_context=True)`` adds)."""
    s, e1, e2, g = _pair_parts(x)
    roles = _roles(s, e1, e2)
    t1, t2 = _mention_tokens(roles)
    if not t1 or not t2 or min(t2) <= max(t1):
        return {}
    return surface_context_features(s, g, e1, e2, roles, t1, t2)


def pair_feature_dict(x: PairInstance, graphs: dict | None = None,
                      competition: bool = False, path_structure: bool = False,
                      path_context: bool = False, surface_context: bool = False
                      ) -> dict[str, float]:
    """Binary features of one candidate pair (names -> 1.0); ``graphs`` caches, with
    ``competition``, each sentence's :func:`competition_features` by sentence id;
    ``path_structure`` adds :func:`path_structure_features`, ``path_context``
    :func:`path_context_features`, ``surface_context`` :func:`surface_context_features`
    (pairs whose mentions do not overlap)."""
    s, e1, e2, g = _pair_parts(x)
    f: dict[str, float] = {}
    if competition:
        key = ("competition", s.id)
        table = None if graphs is None else graphs.get(key)
        if table is None:
            table = competition_features(s, g)
            if graphs is not None:
                graphs[key] = table
        f.update(table.get((e1.id, e2.id), {}))
    path = shortest_path(s, e1, e2, g)  # [(edge, word, lemma, pos), ...]
    f["path_len=" + str(min(len(path), 8))] = 1.0
    f["path_edges=" + "|".join(p[0] for p in path[1:])] = 1.0
    for i, (edge, _, lemma, pos) in enumerate(path):
        if pos != "PROT":
            f["path_lemma=" + lemma] = 1.0
            f["path_pos=" + pos] = 1.0
        if i > 0:
            f["path_edge=" + edge] = 1.0
            f["path_edge_lemma=" + edge + lemma] = 1.0
            f["path_walk=" + path[i - 1][2] + edge + lemma] = 1.0
            f["path_bigram=" + path[i - 1][2] + "_" + lemma] = 1.0
    if any(p[3].startswith("VB") for p in path):
        f["path_has_verb"] = 1.0
    f["path_prot=" + str(min(sum(p[1] == PROT for p in path), 3))] = 1.0
    if path_structure:
        f.update(path_structure_features(path))
    if path_context:
        f.update(path_context_features(s, g, e1, e2))

    roles = _roles(s, e1, e2)
    t1, t2 = _mention_tokens(roles)
    if not t1 or not t2:
        f["no_tokens"] = 1.0
        return f
    a, b = max(t1), min(t2)
    if b <= a:
        f["overlap"] = 1.0
    between = s.tokens[a + 1:b] if b > a else []
    f["distance=" + _distance_bin(len(between))] = 1.0
    n_prot, prev = 0, None
    for t in between:
        r = roles.get(t.index)
        if r == PROT and prev != PROT:
            n_prot += 1
        prev = r
        if r is None:
            f["between=" + (t.lemma or t.text).lower()] = 1.0
    f["between_prot=" + str(min(n_prot, 4))] = 1.0
    for t in s.tokens[max(0, min(t1) - WINDOW):min(t1)]:
        if t.index not in roles:
            f["before=" + (t.lemma or t.text).lower()] = 1.0
    for t in s.tokens[max(t2) + 1:max(t2) + 1 + WINDOW]:
        if t.index not in roles:
            f["after=" + (t.lemma or t.text).lower()] = 1.0
    if e1.text and e1.text.lower() == e2.text.lower():
        f["same_text"] = 1.0
    if surface_context and b > a:
        f.update(surface_context_features(s, g, e1, e2, roles, t1, t2))
    return f


def document_counts(X: sp.csr_matrix, documents: Sequence[str]) -> np.ndarray:
    """(n_features,) in how many distinct documents each column is non-zero."""
    _, doc = np.unique(np.asarray(documents), return_inverse=True)
    D = sp.csr_matrix((np.ones(len(doc)), (doc, np.arange(len(doc)))),
                      shape=(doc.max() + 1, len(doc)))
    return np.asarray(((D @ (X != 0).astype(np.float64)) > 0).sum(axis=0)).ravel()


def _name_array(names: Sequence[str]) -> np.ndarray:
    """(n,) object array of the names (Python strings; a fixed-width ``str`` array would
    take 4 bytes x the longest name per entry: ~56 MB for a 86,512-name vocabulary)."""
    out = np.empty(len(names), dtype=object)
    out[:] = names
    return out


def pack_names(names: Sequence[str]) -> dict[str, np.ndarray]:
    """A vocabulary as two arrays a model file stores compactly (:func:`pack_strings`)."""
    return pack_strings(names)


def unpack_names(packed: dict[str, np.ndarray]) -> np.ndarray:
    """Inverse of :func:`pack_names`: (n,) object array of the names."""
    return _name_array(unpack_strings(packed))


class PairFeatureExtractor(TransformerMixin, BaseEstimator):
    """Instances -> CSR (N, n_features) float64 of :func:`pair_feature_dict`.

    ``second_parse = "relx"`` adds the features of the same pair in relx's own parse of the
    sentence (prefixed ``relx:``; :func:`relx.parse.views.relx_view`), next to those of the
    parse the instance carries (e.g. the corpus's); a sentence relx parsed already is used
    as it is. ``second_parse_model``: the spaCy pipeline for it (``None``: the shipped one).
    ``competition = True`` adds :func:`competition_features`, ``path_structure = True``
    :func:`path_structure_features`, ``path_context = True`` :func:`path_context_features`,
    ``surface_context = True`` :func:`surface_context_features` (each for both parses),
    ``document_context = True`` :func:`document_context_features` (parse-independent).

    The vocabulary learned in ``fit`` is ``feature_names_`` ((n_features,) object array of
    str; saved packed as UTF-8 bytes, :func:`pack_names`, so a model file loads fast and a
    loaded model does not hold fixed-width string arrays; the name -> column dict is rebuilt
    on first use and not saved).
    Features unseen in ``fit`` are dropped at ``transform``; ``min_documents = m`` keeps
    only features seen in at least m training documents (:func:`document_counts`: a
    sentence with many protein pairs repeats its words in every pair, which counts once
    here). ``lexical_weight`` scales the
    lexical features (:data:`LEXICAL_PREFIXES`, either parse) against the structural ones,
    which for an L2-regularised linear model is a stronger prior on the lexical weights.
    """

    def __init__(self, second_parse: str | None = None,
                 second_parse_model: str | None = None, competition: bool = False,
                 path_structure: bool = False, lexical_weight: float = 1.0,
                 path_context: bool = False, surface_context: bool = False,
                 document_context: bool = False, min_documents: int = 1) -> None:
        self.second_parse = second_parse
        self.second_parse_model = second_parse_model
        self.competition = competition
        self.path_structure = path_structure
        self.lexical_weight = lexical_weight
        self.path_context = path_context
        self.surface_context = surface_context
        self.document_context = document_context
        self.min_documents = min_documents

    def fit(self, X: Sequence[PairInstance], y=None) -> PairFeatureExtractor:
        self.fit_transform(X, y)
        return self

    def fit_transform(self, X: Sequence[PairInstance], y=None, **fit_params):
        from sklearn.feature_extraction import DictVectorizer

        vec = DictVectorizer()
        out = vec.fit_transform(self._dicts(X)).tocsr()
        names, index = vec.feature_names_, vec.vocabulary_
        if self.min_documents > 1:
            keep = document_counts(out, [x.document_id for x in X]) >= self.min_documents
            out = out[:, np.flatnonzero(keep)]
            names = [n for n, k in zip(names, keep, strict=True) if k]
            index = {n: i for i, n in enumerate(names)}
        self.feature_names_ = _name_array(names)
        self.n_features_out_ = len(self.feature_names_)
        self._index = index
        self.__dict__.pop("_weights", None)  # a refit has a new vocabulary
        self.__dict__.pop("_vocab_key", None)
        out.data *= self._column_weights()[out.indices]
        return out

    def _column_weights(self) -> np.ndarray:
        """(n_features,) float64, read-only: ``lexical_weight`` for lexical columns, else 1
        (one array for every member with the same columns and weight)."""
        w = self.__dict__.get("_weights")
        if w is None:
            shared = (self._vocabulary_key(), self.lexical_weight)
            w = _WEIGHTS.get(shared)
            if w is None:
                w = np.ones(self.n_features_out_)
                if self.lexical_weight != 1.0:
                    lexical = np.fromiter(
                        (n.replace("relx:", "", 1).startswith(LEXICAL_PREFIXES)
                         for n in self.feature_names_), dtype=bool, count=self.n_features_out_)
                    w[lexical] = self.lexical_weight
                w.flags.writeable = False
                if len(_WEIGHTS) >= _MAX_WEIGHTS:   # a long run of fits: the oldest goes
                    _WEIGHTS.pop(next(iter(_WEIGHTS)))
                _WEIGHTS[shared] = w
            self._weights = w
        return w

    def _vocabulary_key(self) -> tuple[int, str]:
        """(size, digest) of ``feature_names_``: equal for members with the same columns."""
        key = self.__dict__.get("_vocab_key")
        if key is None:
            names = self.feature_names_.tolist()
            joined = "\0".join(names)
            if joined.count("\0") == max(len(names) - 1, 0):
                data = b"N" + joined.encode("utf-8")
            else:   # a name holding a NUL: spelled out
                data = b"J" + json.dumps(names).encode("utf-8")
            digest = hashlib.blake2b(data, digest_size=16).hexdigest()
            key = self._vocab_key = (len(names), digest)
        return key

    def transform(self, X: Sequence[PairInstance]) -> sp.csr_matrix:
        key = (self._options_key(), self.surface_context, self.document_context,
               self.lexical_weight, self._vocabulary_key())
        last = _last_matrix[:]  # one read: another thread may replace it meanwhile
        if last and last[1] == key and _same_pairs(last[0], X):
            return last[2].copy()
        index = self.__dict__.get("_index")
        if index is None:
            index = self._index = {f: i for i, f in enumerate(self.feature_names_.tolist())}
        get = index.get
        indptr, cols = [0], []
        for parts in self._dict_parts(X):  # a pair's columns: the union of its parts' keys
            if len(parts) == 1:
                ids: Iterable[int] = [i for i in map(get, parts[0]) if i is not None]
            else:
                ids = {i for f in parts for i in map(get, f) if i is not None}
            cols.extend(sorted(ids))
            indptr.append(len(cols))
        cols_arr = np.asarray(cols, dtype=np.int64)
        data = self._column_weights()[cols_arr]
        matrix = sp.csr_matrix((data, cols_arr, np.asarray(indptr)),
                               shape=(len(indptr) - 1, self.n_features_out_))
        _last_matrix[:] = [tuple(X), key, matrix]
        return matrix.copy()

    def __getstate__(self) -> dict:
        state = dict(super().__getstate__())  # a copy: Python's default is the live __dict__
        state.pop("_index", None)
        state.pop("_weights", None)
        state.pop("_vocab_key", None)
        if "feature_names_" in state:
            state["feature_names_"] = pack_names(state["feature_names_"])
        return state

    def __setstate__(self, state: dict) -> None:
        state.setdefault("second_parse", None)  # models saved before the option existed
        state.setdefault("second_parse_model", None)
        state.setdefault("competition", False)
        state.setdefault("path_structure", False)
        state.setdefault("lexical_weight", 1.0)
        state.setdefault("path_context", False)
        state.setdefault("surface_context", False)
        state.setdefault("document_context", False)
        state.setdefault("min_documents", 1)
        if "feature_names_" in state:  # packed, or a fixed-width str array (older models)
            names = state["feature_names_"]
            state["feature_names_"] = (unpack_names(names) if isinstance(names, dict)
                                       else _name_array(np.asarray(names).tolist()))
        super().__setstate__(state)

    def _dicts(self, X: Sequence[PairInstance]) -> list[dict[str, float]]:
        """Feature dicts of X (read-only: shared with the next call on the same pairs)."""
        merged = []
        for shared, *extra in self._dict_parts(X):
            if not extra:
                merged.append(shared)
                continue
            f = dict(shared)
            for e in extra:
                f.update(e)
            merged.append(f)
        return merged

    def _options_key(self) -> tuple:
        """The settings the shared feature dicts depend on."""
        return (self.second_parse, self.second_parse_model, self.competition,
                self.path_structure, self.path_context)

    def _dict_parts(self, X: Sequence[PairInstance]) -> list[list[dict[str, float]]]:
        """Per pair: the shared feature dict, then this member's layers on top of it (later
        parts win on a repeated key; all read-only)."""
        key = self._options_key()
        last = _last_dicts[:]  # one read: another thread may replace it meanwhile
        if last and last[1] == key and _same_pairs(last[0], X):
            dicts = last[2]
        else:
            dicts = self._compute_dicts(X)
            _last_dicts[:] = [tuple(X), key, dicts]
        layers = []  # per-member features on top of the shared dicts
        if self.surface_context:
            layers.append(self._surface_context(X))
        if self.document_context:
            layers.append(document_context_features(X))
        return [list(parts) for parts in zip(dicts, *layers, strict=True)]

    def _surface_context(self, X: Sequence[PairInstance]) -> list[dict[str, float]]:
        """Each pair's :func:`surface_context_dict`, in both parses."""
        own = [surface_context_dict(x) for x in X]
        if self.second_parse is not None:
            from relx.parse.views import relx_view_by_sentence

            view = relx_view_by_sentence(X, self.second_parse_model)
            for extra, x in zip(own, X, strict=True):
                other = view[id(x.sentence)]
                second = extra if other is x.sentence else surface_context_dict(
                    replace(x, sentence=other))
                extra.update({"relx:" + k: v for k, v in list(second.items())})
        return own

    def _compute_dicts(self, X: Sequence[PairInstance]) -> list[dict[str, float]]:
        graphs: dict = {}
        dicts = [pair_feature_dict(x, graphs, self.competition, self.path_structure,
                                   self.path_context) for x in X]
        if self.second_parse is None:
            return dicts
        if self.second_parse != "relx":
            raise ValueError(f"second_parse must be None or 'relx', not {self.second_parse!r}")
        from relx.parse.views import relx_view_by_sentence

        view = relx_view_by_sentence(X, self.second_parse_model)
        graphs = {}
        for f, x in zip(dicts, X, strict=True):
            other = view[id(x.sentence)]
            second = f if other is x.sentence else pair_feature_dict(  # relx parse already
                replace(x, sentence=other), graphs, self.competition, self.path_structure,
                self.path_context)
            f.update({"relx:" + k: v for k, v in list(second.items())})
        return dicts
