"""Text features: tf-idf of word n-grams, and feature hashing (MurmurHash3)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache
from itertools import compress
from typing import Any

import numpy as np
import scipy.sparse as sp

from relx.estimator import check_array
from relx.learn.predictors._common import (
    _FLOATS,
    _as_spmatrix,
    _Holder,
)


def _row_normalize(X: Any, norm: str) -> None:
    """``inplace_csr_row_normalize_l1/l2``: each row's sum accumulated value by value in a
    double (scikit-learn's Cython loop); a row summing to 0 is left as it is."""
    data, indptr = X.data, X.indptr
    lengths = np.diff(indptr)
    terms = np.abs(data) if norm == "l1" else data * data
    order = np.argsort(-lengths, kind="stable")
    neg_sorted = -lengths[order]
    sums = np.zeros(len(lengths))
    for k in range(int(lengths.max(initial=0))):   # the k-th value of every longer row
        rows = order[:np.searchsorted(neg_sorted, -k, side="left")]
        sums[rows] += terms[indptr[rows] + k]
    sums = np.sqrt(sums) if norm == "l2" else sums
    sums[sums == 0.0] = 1.0
    data[:] = data / np.repeat(sums, lengths)


class TfidfTransformer(_Holder):
    """``sklearn.feature_extraction.text.TfidfTransformer``."""

    def transform(self, X: Any, copy: bool = True) -> sp.csr_matrix:
        """(Sublinear) term frequencies times ``idf_``, rows normalised."""
        X = check_array(X, self, dtype=_FLOATS, copy=copy)
        X = X if sp.issparse(X) else sp.csr_array(X, dtype=X.dtype)
        if self.sublinear_tf:
            np.log(X.data, X.data)
            X.data += 1.0
        if hasattr(self, "idf_"):
            X.data *= self.idf_[X.indices]
        if self.norm is not None:
            if self.norm not in ("l1", "l2"):
                raise NotImplementedError(f"norm={self.norm!r}")
            _row_normalize(X, self.norm)
        return _as_spmatrix(X)


def _strip_accents_unicode(s: str) -> str:
    if s.isascii():
        return s
    return "".join([c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)])


def _strip_accents_ascii(s: str) -> str:
    return unicodedata.normalize("NFKD", s).encode("ASCII", "ignore").decode("ASCII")


class TfidfVectorizer(_Holder):
    """``sklearn.feature_extraction.text.TfidfVectorizer``: the word analyzer of the stored
    options (lowercase, strip_accents, token_pattern, stop word list, ngram_range)."""

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for name in ("analyzer", "tokenizer", "preprocessor", "strip_accents"):
            if callable(getattr(self, name, None)):
                raise NotImplementedError(f"TfidfVectorizer with a callable {name}")
        if self.analyzer != "word" or self.input != "content" or isinstance(self.stop_words,
                                                                            str):
            raise NotImplementedError(f"TfidfVectorizer with analyzer={self.analyzer!r}, "
                                      f"input={self.input!r}, stop_words={self.stop_words!r}")

    def _word_ngrams(self, tokens: list[str], stop_words: frozenset[str] | None) -> list[str]:
        if stop_words is not None:
            tokens = [w for w in tokens if w not in stop_words]
        min_n, max_n = self.ngram_range
        if max_n != 1:
            original = tokens
            if min_n == 1:   # the unigrams, then longer n-grams
                tokens, min_n = list(original), min_n + 1
            else:
                tokens = []
            for n in range(min_n, min(max_n + 1, len(original) + 1)):
                for i in range(len(original) - n + 1):
                    tokens.append(" ".join(original[i: i + n]))
        return tokens

    def build_analyzer(self) -> Callable[[Any], list[str]]:
        """The document -> features function of the stored options."""
        accents = {None: None, False: None, "ascii": _strip_accents_ascii,
                   "unicode": _strip_accents_unicode}[self.strip_accents]
        lower, stop = self.lowercase, self.stop_words
        stop = None if stop is None else frozenset(stop)
        pattern = re.compile(self.token_pattern)
        if pattern.groups > 1:
            raise ValueError("More than 1 capturing group in token pattern.")
        tokenize, ngrams = pattern.findall, self._word_ngrams

        def analyze(doc: Any) -> list[str]:
            if isinstance(doc, bytes):
                doc = doc.decode(self.encoding, self.decode_error)
            if doc is np.nan:
                raise ValueError("np.nan is an invalid document, expected byte or unicode "
                                 "string.")
            doc = doc.lower() if lower else doc
            return ngrams(tokenize(accents(doc) if accents else doc), stop)
        return analyze

    def transform(self, raw_documents: Iterable[Any]) -> sp.csr_matrix:
        """The tf-idf rows of the documents (CountVectorizer's counts, then tf-idf)."""
        if isinstance(raw_documents, str):
            raise ValueError("Iterable over raw text documents expected, string object "
                             "received.")
        vocabulary, analyze = self.vocabulary_, self.build_analyzer()
        j_indices: list[int] = []
        values: list[int] = []
        indptr = [0]
        for doc in raw_documents:
            counter: dict[int, int] = {}
            for feature in analyze(doc):
                idx = vocabulary.get(feature)
                if idx is not None:
                    counter[idx] = counter.get(idx, 0) + 1
            j_indices.extend(counter.keys())
            values.extend(counter.values())
            indptr.append(len(j_indices))
        index_dtype = np.int64 if indptr[-1] > np.iinfo(np.int32).max else np.int32
        X = sp.csr_array((np.asarray(values, dtype=np.intc),
                          np.asarray(j_indices, dtype=index_dtype),
                          np.asarray(indptr, dtype=index_dtype)),
                         shape=(len(indptr) - 1, len(vocabulary)), dtype=self.dtype)
        X.sort_indices()
        X = _as_spmatrix(X)
        if self.binary:
            X.data.fill(1)
        return self._tfidf.transform(X, copy=False)


class _HashCache(dict):
    """Feature name -> its signed 32-bit MurmurHash3, seed 0 (``murmurhash3_bytes_s32``)."""

    limit = 1 << 20

    def __missing__(self, key: Any) -> int:
        if not isinstance(key, str | bytes):
            raise TypeError("feature names must be strings")
        if len(self) >= self.limit:
            self.clear()
        h = self[key] = _murmur()(key, 0)   # str: of its UTF-8 bytes
        return h


@cache
def _murmur() -> Callable[[str | bytes, int], int]:
    from murmurhash.mrmr import hash as murmur

    return murmur


_HASHES = _HashCache()


def _bucket(h: np.ndarray, n_features: int) -> np.ndarray:
    """The column of signed hashes ``h`` (int64): ``abs(h) % n_features``; for ``-2**31``
    scikit-learn takes ``(2**31 - 1 - (n_features - 1)) % n_features``, the same number."""
    return np.abs(h) % n_features


def _as_double(v: Any) -> float:
    if v is None or isinstance(v, str | bytes | bytearray):
        raise TypeError(f"must be real number, not {type(v).__name__}")
    return float(v)


class FeatureHasher:
    """``sklearn.feature_extraction.FeatureHasher`` with ``input_type="dict"``: the same
    CSR matrix (dtype, sorted indices, duplicates summed)."""

    def __init__(self, n_features: int = 2**20, *, input_type: str = "dict",
                 dtype: Any = np.float64, alternate_sign: bool = True) -> None:
        if input_type != "dict":
            raise NotImplementedError(f"FeatureHasher with input_type={input_type!r}")
        if not 1 <= n_features <= np.iinfo(np.int32).max:
            raise ValueError(f"n_features={n_features} is not in [1, 2**31 - 1]")
        self.n_features, self.input_type = n_features, input_type
        self.dtype, self.alternate_sign = dtype, alternate_sign

    def fit(self, X: Any = None, y: Any = None) -> FeatureHasher:
        """Nothing to learn."""
        return self

    def transform(self, raw_X: Iterable[dict[Any, Any]]) -> sp.csr_matrix:
        """The hashed features of each dict: a string value ``v`` of ``f`` as feature
        ``"f=v"`` with value 1, other values as they are; zeros skipped."""
        names: list[Any] = []
        values: list[Any] = []
        indptr = [0]
        for d in raw_X:
            names += d
            values += d.values()
            indptr.append(len(names))
        if len(indptr) == 1:
            raise ValueError("Cannot vectorize empty sequence.")
        types = set(map(type, values))
        if any(issubclass(t, str) for t in types):
            names = ["%s=%s" % (f, v) if isinstance(v, str) else f   # noqa: UP031 (as sklearn)
                     for f, v in zip(names, values, strict=True)]
            values = [1 if isinstance(v, str) else v for v in values]
            types = set(map(type, values))
        if types <= {int, float, bool}:
            vals = np.array(values, dtype=np.float64)
        else:   # as Cython's conversion to double
            vals = np.fromiter(map(_as_double, values), dtype=np.float64, count=len(values))
        row_end = np.asarray(indptr, dtype=np.int64)
        keep = vals != 0
        if not keep.all():
            names, vals = list(compress(names, keep)), vals[keep]
            row_end = np.concatenate([[0], np.cumsum(keep)])[row_end]
        hashes = np.fromiter(map(_HASHES.__getitem__, names), dtype=np.int64, count=len(names))
        indices = _bucket(hashes, self.n_features).astype(np.int32)
        if self.alternate_sign:
            vals[hashes < 0] *= -1
        if row_end[-1] > np.iinfo(np.int32).max:
            indices = indices.astype(np.int64)
        else:
            row_end = row_end.astype(np.int32)
        X = sp.csr_array((vals.astype(self.dtype, copy=False), indices, row_end),
                         dtype=self.dtype, shape=(len(row_end) - 1, self.n_features))
        X.sum_duplicates()   # also sorts the indices
        return _as_spmatrix(X)
