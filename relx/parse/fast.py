"""Speed-ups for running spaCy pipelines on a CPU, with unchanged outputs.

* :class:`FastNumpyOps` -- thinc's ``NumpyOps`` with matrix products through numpy's BLAS
  (OpenBLAS ships with numpy and is several times faster than the portable ``blis`` build
  on many CPUs) and a vectorised ``seq2col`` (the CNN window concatenation).
* ``relx_sentencizer`` -- scispacy's ``pysbd_sentencizer`` (same boundaries, checked by the
  tests) without its two hot spots: pysbd re-compiles its abbreviation regexes on every call
  once Python's 512-entry ``re`` cache overflows (it builds patterns per abbreviation), and scispacy looks up sentence starts in a
  list for every token.
* ``relx_pos_lemma`` -- the tag-map ``attribute_ruler`` and the rule ``lemmatizer`` fused
  into one memoised pass (same POS and lemmas).
"""

from __future__ import annotations

import functools
import re
import types
from typing import Any

import numpy as np
from thinc.api import NumpyOps

__all__ = ["FastNumpyOps", "TagPosLemma", "fuse_pos_lemma", "relx_sentencizer"]


class FastNumpyOps(NumpyOps):
    """``NumpyOps`` whose ``gemm`` uses numpy's BLAS and whose ``seq2col`` is vectorised."""

    name = "relx_numpy"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("use_blis", False)
        super().__init__(*args, **kwargs)

    def seq2col(self, seq: Any, nW: int, *, lengths: Any = None) -> Any:  # noqa: N803
        """(N, d) -> (N, (2nW+1)·d): each row followed by its nW neighbours on each side,
        zeros across sequence boundaries (``lengths`` sums to N)."""
        seq = np.ascontiguousarray(seq)
        n, d = seq.shape
        width = 2 * nW + 1
        cols = np.zeros((n, width, d), dtype=seq.dtype)
        if n == 0:
            return cols.reshape(n, width * d)
        lengths = np.asarray([n] if lengths is None else lengths, dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        seq_id = np.repeat(np.arange(len(lengths)), lengths)
        pos = np.arange(n) - starts[seq_id]              # position inside its sequence
        length = lengths[seq_id]
        for k in range(-nW, nW + 1):
            if k == 0:
                cols[:, nW] = seq
                continue
            ok = (pos + k >= 0) & (pos + k < length)
            rows = np.nonzero(ok)[0]
            cols[rows, nW + k] = seq[rows + k]
        return cols.reshape(n, width * d)


class _CachedRe(types.ModuleType):
    """The ``re`` module with a large compiled-pattern cache (for pysbd)."""

    def __init__(self) -> None:
        super().__init__("re")
        self.__dict__.update({k: v for k, v in vars(re).items() if not k.startswith("__")})

        @functools.lru_cache(maxsize=8192)  # bounded: pysbd makes ~10 new patterns per text
        def _compile(pattern: Any, flags: int = 0) -> re.Pattern[Any]:
            return re.compile(pattern, flags)

        def compile(pattern: Any, flags: int = 0) -> re.Pattern[Any]:  # noqa: A001
            return pattern if isinstance(pattern, re.Pattern) else _compile(pattern, int(flags))

        def sub(pattern: Any, repl: Any, string: str, count: int = 0, flags: int = 0) -> str:
            return compile(pattern, flags).sub(repl, string, count)

        def findall(pattern: Any, string: str, flags: int = 0) -> list[Any]:
            return compile(pattern, flags).findall(string)

        def finditer(pattern: Any, string: str, flags: int = 0) -> Any:
            return compile(pattern, flags).finditer(string)

        def search(pattern: Any, string: str, flags: int = 0) -> Any:
            return compile(pattern, flags).search(string)

        def match(pattern: Any, string: str, flags: int = 0) -> Any:
            return compile(pattern, flags).match(string)

        def split(pattern: Any, string: str, maxsplit: int = 0, flags: int = 0) -> list[str]:
            return compile(pattern, flags).split(string, maxsplit)

        for f in (compile, sub, findall, finditer, search, match, split):
            setattr(self, f.__name__, f)


_PATCHED = False


def _patch_pysbd() -> None:
    """Point pysbd's modules at a ``re`` with a large pattern cache (idempotent)."""
    global _PATCHED
    if _PATCHED:
        return
    import importlib
    import pkgutil

    import pysbd

    cached = _CachedRe()
    for info in pkgutil.walk_packages(pysbd.__path__, "pysbd."):
        module = importlib.import_module(info.name)
        if getattr(module, "re", None) is re:
            module.re = cached  # type: ignore[attr-defined]
    _PATCHED = True


@functools.lru_cache(maxsize=1)
def _segmenter() -> Any:
    import pysbd

    _patch_pysbd()
    return pysbd.Segmenter(language="en", clean=False, char_span=True)


def relx_sentencizer(doc: Any) -> Any:
    """Sentence starts from pysbd, exactly as scispacy's ``pysbd_sentencizer``."""
    from scispacy.consts import ABBREVIATIONS

    abbreviations = _abbreviations(tuple(ABBREVIATIONS))
    starts: set[int] = set()
    for sent in _segmenter().segment(doc.text):
        span = doc.char_span(sent.start, sent.end - (len(sent.sent) - len(sent.sent.rstrip(" "))))
        if span is not None:
            starts.add(span[0].idx)
    for token in doc:
        prev = token.nbor(-1) if token.i != 0 else None
        if token.idx in starts:
            token.is_sent_start = not (prev is not None and (
                prev.text in abbreviations
                or (prev.i == 0 and all(c == "\n" for c in prev.text))))
        else:
            token.is_sent_start = bool(prev is not None and prev.i != 0
                                       and prev.text.count("\n") >= 2)
    return doc


@functools.lru_cache(maxsize=1)
def _abbreviations(items: tuple[str, ...]) -> frozenset[str]:
    return frozenset(items)


class TagPosLemma:
    """``attribute_ruler`` (TAG -> POS patterns only) + rule ``lemmatizer`` in one pass,
    memoised on (word, tag, morphology) -- the lemmatizer's own cache key is (word, POS,
    morphology) and POS here is a function of the tag."""

    def __init__(self, tag_to_pos: dict[str, str], lemmatizer: Any) -> None:
        self.tag_to_pos = tag_to_pos
        self.lemmatizer = lemmatizer
        self._cache: dict[tuple[int, int, int], tuple[str | None, str]] = {}

    def __call__(self, doc: Any) -> Any:
        cache, lem = self._cache, self.lemmatizer
        for tok in doc:
            if tok.lemma != 0 and not lem.overwrite:  # lemma already set: POS only
                pos = self.tag_to_pos.get(tok.tag_)
                if pos is not None:
                    tok.pos_ = pos
                continue
            key = (tok.orth, tok.tag, tok.morph.key)
            hit = cache.get(key)
            if hit is None:
                pos = self.tag_to_pos.get(tok.tag_)
                if pos is not None:
                    tok.pos_ = pos
                hit = (pos, lem.lemmatize(tok)[0])
                if len(cache) < 500_000:
                    cache[key] = hit
            elif hit[0] is not None:
                tok.pos_ = hit[0]
            tok.lemma_ = hit[1]
        return doc


def tag_to_pos_map(ruler: Any) -> dict[str, str] | None:
    """The TAG -> POS map of an ``attribute_ruler`` whose patterns are all single-token
    ``{"TAG": t}`` -> ``{"POS": p}`` rules (the shipped pipeline's), else None."""
    out: dict[str, str] = {}
    for p in ruler.patterns:
        pats, attrs = p["patterns"], p["attrs"]
        if (len(pats) != 1 or len(pats[0]) != 1 or set(pats[0][0]) != {"TAG"}
                or set(attrs) != {"POS"} or p.get("index", 0) != 0):
            return None
        out.setdefault(pats[0][0]["TAG"], attrs["POS"])  # the first rule wins
    return out


def fuse_pos_lemma(nlp: Any) -> bool:
    """Replace ``attribute_ruler`` + rule ``lemmatizer`` by :class:`TagPosLemma` when the
    ruler is a plain tag map and the two are adjacent; returns whether it did."""
    names = nlp.pipe_names
    if "attribute_ruler" not in names or "lemmatizer" not in names:
        return False
    if names.index("lemmatizer") != names.index("attribute_ruler") + 1:
        return False
    lem = nlp.get_pipe("lemmatizer")
    tag_map = tag_to_pos_map(nlp.get_pipe("attribute_ruler"))
    if tag_map is None or getattr(lem, "mode", None) != "rule":
        return False
    nlp.replace_pipe("attribute_ruler", "relx_pos_lemma", config={"tag_map": tag_map})
    nlp.remove_pipe("lemmatizer")
    nlp.get_pipe("attribute_ruler").lemmatizer = lem
    return True


def _register() -> None:
    from spacy.language import Language

    if "relx_sentencizer" not in Language.factories:
        Language.component("relx_sentencizer", func=relx_sentencizer)
    if "relx_pos_lemma" not in Language.factories:
        Language.factory("relx_pos_lemma", default_config={"tag_map": {}},
                         func=lambda nlp, name, tag_map: TagPosLemma(dict(tag_map), None))


_register()
