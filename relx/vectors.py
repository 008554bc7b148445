"""EigenWord / SVD-NS word vectors (Hajisoleimani 2019, ch. 4) and token kernels on them.

Training (:func:`train_vectors`, DESIGN §3 "Word vectors for k_n"): lowercased tokens of
every corpus sentence, entity mentions blinded as ``PROT`` (a run of tokens inside entity
mentions becomes one ``PROT``); a vocabulary of the words seen ``min_count`` times; symmetric
co-occurrence counts ``X`` of in-vocabulary tokens at most ``window`` positions apart within a
sentence (out-of-vocabulary tokens keep their positions); ``PMI(i, j) = log2(X_ij T / (X_i.
X_j.))`` with ``T = sum X``; ``M_ij = PMI(i, j)`` where ``X_ij > 0`` and ``PMI > alpha``, else 0
(unobserved pairs are 0, observed pairs at or below ``alpha`` are dropped); the word vectors
are the eigenvectors of the ``dim`` algebraically largest eigenvalues of the symmetric ``M``
(``scipy.sparse.linalg.eigsh``, ``which="LA"``, seeded start vector), rows L2-normalised.
Words whose row is 0 (no pair above ``alpha``) get no vector.

Optional latent semantic smoothing (Cristianini et al. 2002): ``U_k``, the top-``lsk_rank``
left singular vectors of the tf-idf term x sentence matrix (seeded randomized SVD), gives the
term-term similarity ``P = U_k U_k^T``; the vectors become ``(1 - b) W + b P W`` (``b`` =
``lsk_weight``), rows renormalised, so words used in the same sentences move together.

Vectors are saved as ``.npz`` (no pickle): ``format``, ``format_version``, ``words`` (str
array), ``matrix`` (V, d; float16 or float32) and ``settings`` (JSON text); :func:`load_vectors`
checks the format and renormalises the rows.

Token kernels (DESIGN §3) on word vectors ``w``: Gaussian ``exp(-|w_a - w_b|^2 / 2 s^2)``,
sigmoid ``(1 + tanh(w_a . w_b)) / 2``, sharpened cosine ``((1 + cos) / 2)^p``;
:func:`node_similarity` turns one into the (Vw, Vw) word-similarity matrix of a structure
vocabulary for the path kernel (``PathKernelParams.node_sim``).
"""

from __future__ import annotations

import functools
import json
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from relx.errors import ConfigError, ModelError
from relx.structures import BOTH, NONE, PROT, PROT1, PROT2

__all__ = ["FORMAT", "FORMAT_VERSION", "TOKEN_KERNELS", "VectorsFormatError", "WordVectors",
           "corpus_sentences", "cooccurrence", "eigenword", "load_vectors", "node_similarity",
           "resolve_vectors_path", "thresholded_pmi", "token_kernel", "train_vectors",
           "vocabulary_vectors"]

FORMAT = "relx-eigenwords"
FORMAT_VERSION = 1
BLIND = "PROT"  # the token that replaces an entity mention in the training text
#: structure labels that never take a vector (blinded entities; exact match decides)
BLINDED = frozenset({NONE, PROT, PROT1, PROT2, BOTH})
TOKEN_KERNELS = ("gaussian", "sigmoid", "cosine_sharp")
PPI_GLOB = "*-learning-format.xml*"


class VectorsFormatError(ModelError):
    """A vectors file that is not a relx EigenWord ``.npz`` of the supported format version."""


# -- corpus text -------------------------------------------------------------------------------

def blind_tokens(tokens: Iterable[tuple[str, int, int]], spans: Iterable[tuple[int, int]],
                 ) -> list[str]:
    """Lowercased token texts, each run of tokens overlapping an entity span as one ``PROT``.

    ``tokens`` are ``(text, start, end)``, ``spans`` ``(start, end)`` character offsets in the
    same text (end exclusive). Whitespace-only tokens are dropped.
    """
    spans = sorted(spans)
    out: list[str] = []
    prev_inside = False
    for text, start, end in tokens:
        if not text.strip():
            continue
        inside = any(s < end and start < e for s, e in spans)
        if inside:
            if not prev_inside:
                out.append(BLIND)
        else:
            out.append(text.lower())
        prev_inside = inside
    return out


@functools.lru_cache(maxsize=1)
def _nlp() -> Any:
    """relx's runtime tokenizer (scispacy rules + protein splits) with spaCy's rule sentencizer."""
    import warnings

    from relx.parse.ner import blank_nlp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        nlp = blank_nlp()
    nlp.add_pipe("sentencizer")
    return nlp


def _doc_sentences(doc) -> Iterator[list[str]]:
    """Blinded sentences of a relx Document: its own tokens where it has them, else its text
    (or the text of each token-less sentence) tokenised and sentence-split by :func:`_nlp`."""
    for sent in doc.sentences:
        spans = [(s.start, s.end) for e in sent.entities for s in e.spans]
        if sent.tokens:
            toks = [(t.text, t.start, t.end) for t in sent.tokens]
            yield blind_tokens(toks, spans)
            continue
        sdoc = _nlp()(doc.text[sent.start:sent.end])
        for s in sdoc.sents:
            toks = [(t.text, sent.start + t.idx, sent.start + t.idx + len(t.text)) for t in s]
            out = blind_tokens(toks, spans)
            if out:
                yield out


def corpus_sources(shared: str | Path) -> tuple[list[Path], list[Path]]:
    """(PPI learning-format files, BioNLP-ST GE standoff folders) under ``shared/corpora``."""
    root = Path(shared) / "corpora"
    ppi = sorted((root / "ppi").glob(PPI_GLOB))
    ge = sorted(p.parent for p in (root / "bionlp-st-ge").glob("*/*/*.a1"))
    return ppi, sorted(set(ge))


def corpus_sentences(shared: str | Path, stats: Counter | None = None) -> list[list[str]]:
    """Every sentence of the PPI corpora and the GE texts under ``shared/corpora``, read with
    :func:`relx.io.registry.read` (GE documents once per id across years and splits),
    lowercased, entity mentions blinded (PPI entities; GE ``.a1`` proteins)."""
    from relx.io.registry import read

    stats = Counter() if stats is None else stats
    ppi, ge = corpus_sources(shared)
    if not ppi and not ge:
        raise FileNotFoundError(f"no PPI corpora or GE texts under {Path(shared) / 'corpora'}")
    out: list[list[str]] = []
    for path in ppi:
        for doc in read(path):
            stats["ppi_documents"] += 1
            out.extend(_doc_sentences(doc))
    seen: set[str] = set()
    for folder in ge:
        for doc in read(folder, format="standoff"):
            key = doc.id.removeprefix("PMID-")
            if key in seen:
                stats["ge_duplicates"] += 1
                continue
            seen.add(key)
            stats["ge_documents"] += 1
            out.extend(_doc_sentences(doc))
    stats["sentences"] = len(out)
    stats["tokens"] = sum(len(s) for s in out)
    return out


# -- training ----------------------------------------------------------------------------------

def build_vocabulary(sentences: Iterable[Sequence[str]], min_count: int = 2) -> list[str]:
    """Words seen at least ``min_count`` times, most frequent first (ties alphabetical)."""
    counts = Counter(w for s in sentences for w in s)
    return sorted((w for w, c in counts.items() if c >= min_count),
                  key=lambda w: (-counts[w], w))


def _flat_ids(sentences: Sequence[Sequence[str]], index: dict[str, int]
              ) -> tuple[np.ndarray, np.ndarray]:
    """(token ids, -1 out of vocabulary; sentence number of each token)."""
    ids = np.fromiter((index.get(w, -1) for s in sentences for w in s), dtype=np.int64)
    lens = np.fromiter((len(s) for s in sentences), dtype=np.int64, count=len(sentences))
    return ids, np.repeat(np.arange(len(sentences)), lens)


def cooccurrence(sentences: Sequence[Sequence[str]], vocab: Sequence[str], window: int = 5
                 ) -> sp.csr_matrix:
    """Symmetric (V, V) float64 counts: each pair of in-vocabulary tokens at most ``window``
    positions apart in one sentence adds 1 to ``X[a, b]`` and to ``X[b, a]`` (2 to ``X[a, a]``
    when a word meets itself)."""
    if window < 1:
        raise ConfigError(f"window must be >= 1, got {window}")
    n = len(vocab)
    ids, sent = _flat_ids(sentences, {w: i for i, w in enumerate(vocab)})
    rows, cols = [], []
    for k in range(1, window + 1):
        a, b = ids[:-k], ids[k:]
        keep = (sent[:-k] == sent[k:]) & (a >= 0) & (b >= 0)
        rows += [a[keep], b[keep]]
        cols += [b[keep], a[keep]]
    r = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    c = np.concatenate(cols) if cols else np.zeros(0, np.int64)
    x = sp.coo_matrix((np.ones(len(r)), (r, c)), shape=(n, n)).tocsr()
    x.sum_duplicates()
    return x


def thresholded_pmi(x: sp.spmatrix, alpha: float = -2.5) -> sp.csr_matrix:
    """``M^alpha`` (thesis eq. 4.5): log2 PMI of the observed pairs of the symmetric counts
    ``x``, entries ``<= alpha`` dropped; unobserved pairs are 0."""
    x = sp.csr_matrix(x, dtype=np.float64)
    x.eliminate_zeros()
    total = x.sum()
    rs = np.asarray(x.sum(axis=1)).ravel()
    coo = x.tocoo()
    pmi = np.log2(coo.data * total / (rs[coo.row] * rs[coo.col]))
    keep = pmi > alpha
    m = sp.coo_matrix((pmi[keep], (coo.row[keep], coo.col[keep])), shape=x.shape).tocsr()
    m.eliminate_zeros()  # a PMI of exactly 0 is no entry
    return m


def eigenword(m: sp.spmatrix, dim: int = 100, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(eigenvalues (d,) descending, eigenvectors (V, d)) of the ``dim`` algebraically largest
    eigenvalues of the symmetric ``m`` (ARPACK, start vector drawn from ``seed``)."""
    from scipy.sparse.linalg import eigsh

    n = m.shape[0]
    if not 0 < dim < n:
        raise ConfigError(f"dim must lie in [1, V-1] = [1, {n - 1}], got {dim}")
    v0 = np.random.default_rng(seed).uniform(-1.0, 1.0, n)
    vals, vecs = eigsh(sp.csr_matrix(m, dtype=np.float64), k=dim, which="LA", v0=v0)
    order = np.argsort(-vals, kind="stable")
    return vals[order], vecs[:, order]


def normalize_rows(w: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (zero rows stay 0)."""
    norm = np.linalg.norm(w, axis=1, keepdims=True)
    return np.divide(w, norm, out=np.zeros_like(w), where=norm > 0)


def lsk_basis(sentences: Sequence[Sequence[str]], vocab: Sequence[str], rank: int,
              seed: int = 1) -> np.ndarray:
    """``U_k`` (V, k): top-``rank`` left singular vectors of the tf-idf term x sentence matrix
    (``log(1 + tf) * log(S / df)``; seeded randomized SVD)."""
    from sklearn.utils.extmath import randomized_svd

    ids, sent = _flat_ids(sentences, {w: i for i, w in enumerate(vocab)})
    keep = ids >= 0
    d = sp.coo_matrix((np.ones(int(keep.sum())), (ids[keep], sent[keep])),
                      shape=(len(vocab), len(sentences))).tocsr()
    d.sum_duplicates()
    df = np.diff(d.indptr).astype(np.float64)  # sentences each term occurs in
    idf = np.log(len(sentences) / np.maximum(df, 1.0))
    d.data = np.log1p(d.data)
    d = sp.diags(idf) @ d
    u, _, _ = randomized_svd(d, n_components=rank, random_state=seed)
    return u


@dataclass
class WordVectors:
    """Unit-norm word vectors: ``matrix[i]`` is the vector of ``words[i]``."""

    words: list[str]
    matrix: np.ndarray
    settings: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.matrix = np.asarray(self.matrix)
        if self.matrix.ndim != 2 or self.matrix.shape[0] != len(self.words):
            raise ConfigError(f"matrix must be (V={len(self.words)}, d), got {self.matrix.shape}")
        self.index = {w: i for i, w in enumerate(self.words)}
        if len(self.index) != len(self.words):
            raise ConfigError("duplicate words in the vocabulary")

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: str) -> bool:
        return word in self.index

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def vector(self, word: str) -> np.ndarray:
        return self.matrix[self.index[word]]

    def similarity(self, a: str, b: str) -> float:
        """Cosine of two words' vectors."""
        return float(self.vector(a).astype(np.float64) @ self.vector(b).astype(np.float64))

    def nearest(self, word: str, k: int = 10) -> list[tuple[str, float]]:
        """The ``k`` words of highest cosine to ``word`` (itself excluded)."""
        sims = self.matrix.astype(np.float32) @ self.vector(word).astype(np.float32)
        sims[self.index[word]] = -np.inf
        top = np.argsort(-sims, kind="stable")[:k]
        return [(self.words[i], float(sims[i])) for i in top]

    def save(self, path: str | Path, dtype: str = "float16") -> Path:
        """Write the ``.npz`` (compressed; ``dtype`` float16 or float32) atomically."""
        if dtype not in ("float16", "float32"):
            raise ConfigError(f"dtype must be float16 or float32, not {dtype!r}")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, format=np.array(FORMAT), format_version=np.array(FORMAT_VERSION),
                            words=np.array(self.words, dtype=str),
                            matrix=self.matrix.astype(dtype),
                            settings=np.array(json.dumps(self.settings, sort_keys=True)))
        tmp.replace(path)
        path.chmod(0o644)
        return path


def load_vectors(path: str | Path) -> WordVectors:
    """Read a vectors ``.npz`` written by :meth:`WordVectors.save` (no pickle); rows are
    returned as unit-norm float32."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            files = set(z.files)
            if "format" not in files or str(z["format"]) != FORMAT:
                raise VectorsFormatError(f"{path}: not a relx word-vectors file")
            version = int(z["format_version"]) if "format_version" in files else None
            if version != FORMAT_VERSION:
                raise VectorsFormatError(f"{path}: vectors format version {version}, this relx "
                                         f"reads version {FORMAT_VERSION}; retrain with "
                                         "`relx train-vectors`")
            words = [str(w) for w in z["words"]]
            matrix = normalize_rows(z["matrix"].astype(np.float32))
            settings = json.loads(str(z["settings"]))
    except (OSError, ValueError, KeyError) as exc:
        if isinstance(exc, VectorsFormatError):
            raise
        raise VectorsFormatError(f"{path}: cannot read word vectors ({exc})") from None
    return WordVectors(words, matrix, settings)


def train_vectors(sentences: Sequence[Sequence[str]], *, dim: int = 100, window: int = 5,
                  alpha: float = -2.5, min_count: int = 2, lsk_rank: int = 0,
                  lsk_weight: float = 0.5, seed: int = 1) -> WordVectors:
    """EigenWord / SVD-NS vectors of ``sentences`` (token lists); see the module docstring."""
    t0 = time.perf_counter()
    vocab = build_vocabulary(sentences, min_count)
    if len(vocab) <= dim:
        raise ConfigError(f"vocabulary of {len(vocab)} words is too small for dim={dim}")
    x = cooccurrence(sentences, vocab, window)
    m = thresholded_pmi(x, alpha)
    vals, vecs = eigenword(m, dim, seed)
    if lsk_rank > 0:
        if not 0.0 <= lsk_weight <= 1.0:
            raise ConfigError(f"lsk_weight must lie in [0, 1], got {lsk_weight}")
        u = lsk_basis(sentences, vocab, lsk_rank, seed)
        vecs = (1.0 - lsk_weight) * vecs + lsk_weight * (u @ (u.T @ vecs))
    w = normalize_rows(vecs)
    has = np.linalg.norm(w, axis=1) > 0
    settings = {"method": "eigenword-svd-ns", "dim": dim, "window": window, "alpha": alpha,
                "min_count": min_count, "lsk_rank": lsk_rank,
                "lsk_weight": lsk_weight if lsk_rank > 0 else 0.0, "seed": seed,
                "n_sentences": len(sentences), "n_tokens": int(sum(len(s) for s in sentences)),
                "vocabulary": len(vocab), "dropped_zero_rows": int((~has).sum()),
                "pmi_nnz": int(m.nnz), "pmi_negative": int((m.data < 0).sum()),
                "eigenvalues": [round(float(v), 4) for v in vals[:5]] +
                               [round(float(vals[-1]), 4)],
                "train_seconds": round(time.perf_counter() - t0, 1)}
    words = [v for v, h in zip(vocab, has, strict=True) if h]
    return WordVectors(words, w[has].astype(np.float32), settings)


# -- token kernels -----------------------------------------------------------------------------

def token_kernel(a: np.ndarray, b: np.ndarray | None = None, kind: str = "cosine_sharp",
                 p: float = 4.0, s: float = 1.0) -> np.ndarray:
    """(Na, Nb) token kernel between the rows of ``a`` and ``b`` (``a`` when None):
    ``gaussian`` ``exp(-|w_a - w_b|^2 / 2 s^2)``, ``sigmoid`` ``(1 + tanh(w_a . w_b)) / 2``,
    ``cosine_sharp`` ``((1 + cos) / 2)^p`` (0 for a zero vector)."""
    a = np.asarray(a, dtype=np.float64)
    b = a if b is None else np.asarray(b, dtype=np.float64)
    dot = a @ b.T
    if kind == "gaussian":
        if s <= 0:
            raise ConfigError(f"token_kernel_s must be > 0, got {s}")
        d2 = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2.0 * dot
        return np.exp(-np.maximum(d2, 0.0) / (2.0 * s * s))
    if kind == "sigmoid":
        return (1.0 + np.tanh(dot)) / 2.0
    if kind == "cosine_sharp":
        if p <= 0:
            raise ConfigError(f"token_kernel_p must be > 0, got {p}")
        na, nb = np.linalg.norm(a, axis=1), np.linalg.norm(b, axis=1)
        den = na[:, None] * nb[None, :]
        cos = np.divide(dot, den, out=np.full_like(dot, -1.0), where=den > 0)
        return ((1.0 + np.clip(cos, -1.0, 1.0)) / 2.0) ** p
    raise ConfigError(f"token_kernel must be one of {TOKEN_KERNELS}, not {kind!r}")


def vocabulary_vectors(vectors: WordVectors, words: Sequence[str]) -> np.ndarray:
    """(Vw, d) float32: row i the vector of ``words[i]``, 0 for a word without one (not in
    the vectors, or a blinded entity label / ``<none>``)."""
    out = np.zeros((len(words), vectors.dim), dtype=np.float32)
    for i, w in enumerate(words):
        j = vectors.index.get(w) if w not in BLINDED else None
        if j is not None:
            out[i] = vectors.matrix[j]
    return out


def similarity_matrix(word_vectors: np.ndarray, kind: str = "cosine_sharp", p: float = 4.0,
                      s: float = 1.0) -> np.ndarray:
    """(Vw, Vw) symmetric float64 ``node_sim`` from per-word vectors (zero rows = no vector):
    the token kernel between words with vectors, 0 off the diagonal for the others, 1 on
    their diagonal (what exact word match gives anyway). A direct sum of the token kernel's
    Gram and an identity block, so it is PSD whenever the token kernel is (Gaussian;
    sharpened cosine with integer p)."""
    w = np.asarray(word_vectors)
    has = np.flatnonzero(np.linalg.norm(w, axis=1) > 0)
    out = np.zeros((len(w), len(w)))
    if len(has):
        k = token_kernel(w[has], None, kind, p, s)
        out[np.ix_(has, has)] = (k + k.T) / 2.0
    miss = np.setdiff1d(np.arange(len(w)), has)
    out[miss, miss] = 1.0
    return out


def node_similarity(vectors: WordVectors, words: Sequence[str], kind: str = "cosine_sharp",
                    p: float = 4.0, s: float = 1.0) -> np.ndarray:
    """(Vw, Vw) word-similarity matrix of a structure vocabulary ``words`` (word id -> word,
    e.g. ``StructureEncoder.words.itos``) for ``PathKernelParams.node_sim``."""
    return similarity_matrix(vocabulary_vectors(vectors, words), kind, p, s)


# where `relx train-vectors` writes the vectors the training configs name (a training input,
# not shipped: the fitted models carry the vectors they use)
DEFAULT_VECTORS = "runs/vectors/eigenwords.npz"


def resolve_vectors_path(path: str | Path) -> Path:
    """``path`` as given if it exists, else relative to the relx checkout (so configs can say
    ``runs/vectors/eigenwords.npz`` wherever relx runs)."""
    p = Path(path)
    if p.exists() or p.is_absolute():
        return p
    root = Path(__file__).resolve().parents[1]
    return root / p if (root / p).exists() else p


@functools.lru_cache(maxsize=4)
def _cached_vectors(path: str, mtime_ns: int) -> WordVectors:
    return load_vectors(path)


def cached_vectors(path: str | Path) -> WordVectors:
    """:func:`load_vectors` of a resolved path, cached per file version."""
    p = resolve_vectors_path(path)
    try:
        mtime = p.stat().st_mtime_ns
    except FileNotFoundError:
        raise VectorsFormatError(
            f"{p}: word vectors not found; build them with `relx train-vectors --out {path}` "
            "(EigenWord vectors of the ../shared corpus text, about a minute)") from None
    except OSError as exc:
        raise VectorsFormatError(f"{p}: cannot read word vectors ({exc})") from None
    return _cached_vectors(str(p), mtime)
