"""Speed-ups for running spaCy pipelines on a CPU, with unchanged outputs.

* :class:`FastNumpyOps` -- thinc's ``NumpyOps`` with matrix products through numpy's BLAS
  (OpenBLAS ships with numpy; faster than ``blis`` for the parser's wide precompute
  product, and than the generic ``blis`` kernels some CPUs get) and a compiled ``maxout``.
* ``relx_sentencizer`` -- scispacy's ``pysbd_sentencizer`` (same boundaries, checked by the
  tests) without its hot spots: pysbd re-compiles its abbreviation regexes on every call
  once Python's 512-entry ``re`` cache overflows (it builds patterns per abbreviation),
  it compiles one regex per sentence to find the sentence's character span (done here with
  ``str.find``, same spans), it re-runs a whole-text substitution for every occurrence of
  an abbreviation (memoised, and skipped when the abbreviation never precedes a period),
  and scispacy looks up sentence starts in a list for every token.
* ``relx_pos_lemma`` -- the tag-map ``attribute_ruler`` and the rule ``lemmatizer`` fused
  into one memoised pass over the doc's token arrays (same POS and lemmas).
"""

from __future__ import annotations

import bisect
import functools
import re
import threading
import types
from typing import Any

import numpy as np
from thinc.api import NumpyOps

from relx.numba_cache import cached_jit, ensure_numba_cache

__all__ = ["FastNumpyOps", "TagPosLemma", "doc_text", "fuse_pos_lemma", "relx_sentencizer"]


ensure_numba_cache(__file__)   # before the @cached_jit() definitions


@cached_jit(nogil=True)
def _maxout(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n, o, p = x.shape
    best = np.empty((n, o), dtype=x.dtype)
    which = np.empty((n, o), dtype=np.int32)
    for i in range(n):
        for j in range(o):
            b, w = x[i, j, 0], 0
            for k in range(1, p):
                if x[i, j, k] > b:  # first maximum wins, as in thinc
                    b, w = x[i, j, k], k
            best[i, j], which[i, j] = b, w
    return best, which


class FastNumpyOps(NumpyOps):
    """``NumpyOps`` whose ``gemm`` uses numpy's BLAS and whose ``maxout`` is compiled."""

    name = "relx_numpy"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("use_blis", False)
        super().__init__(*args, **kwargs)

    def maxout(self, X: Any) -> tuple[Any, Any]:  # noqa: N803
        """(N, nO, nP) float32 -> (best (N, nO), argmax piece (N, nO) int32): thinc's
        result, ~3x faster than its Cython loop in thinc 8.2."""
        if not isinstance(X, np.ndarray) or X.ndim != 3 or X.dtype != np.float32:
            return super().maxout(X)
        return _maxout(np.ascontiguousarray(X))


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


def sentence_char_spans(sentences: list[str], text: str) -> list[tuple[str, int, int]]:
    """pysbd's ``Segmenter.sentences_with_char_spans`` without a regex per sentence: for
    each sentence, the first non-overlapping occurrence of ``sentence + \\s*`` in ``text``
    (scanning like ``re.finditer``) that ends after the previous span, as (text, start, end).
    ``str.isspace`` is the predicate ``re``'s ``\\s`` uses for str patterns."""
    spans: list[tuple[str, int, int]] = []
    prior_end = 0
    n = len(text)
    for sent in sentences:
        if not sent:  # the pattern is bare \s*: keep pysbd's own regex semantics
            for m in re.finditer(r"\s*", text):
                if m.end() > prior_end:
                    spans.append((m.group(), m.start(), m.end()))
                    prior_end = m.end()
                    break
            continue
        pos = 0
        while (start := text.find(sent, pos)) >= 0:
            end = start + len(sent)
            while end < n and text[end].isspace():
                end += 1
            if end > prior_end:
                spans.append((text[start:end], start, end))
                prior_end = end
                break
            pos = end
    return spans


_local = threading.local()


def _segmenter() -> Any:
    """This thread's segmenter: a pysbd ``Segmenter`` keeps the text it segments on itself
    (``original_text``), so one shared between threads mixes up their sentences."""
    seg = getattr(_local, "segmenter", None)
    if seg is None:
        seg = _local.segmenter = _segmenter_class()(language="en", clean=False, char_span=True)
    return seg


@functools.lru_cache(maxsize=1)
def _segmenter_class() -> type:
    import pysbd
    from pysbd.utils import TextSpan

    _patch_pysbd()

    class _Segmenter(pysbd.Segmenter):
        def processor(self, text: str) -> Any:
            return _processor_class()(text, self.language_module, char_span=self.char_span)

        def sentences_with_char_spans(self, sentences: list[str]) -> list[Any]:
            return [TextSpan(*span) for span in sentence_char_spans(sentences, self.original_text)]

    return _Segmenter


# the non-ASCII characters that re.IGNORECASE matches with an ASCII letter (İ ı ſ K)
_ASCII_CASE_FOLDS = re.compile("[\u0130\u0131\u017f\u212a]")
_LOWER_WORD = re.compile("[a-z]+")
_LETTERS = re.compile("[A-Za-z]+")


@functools.lru_cache(maxsize=1)
def _processor_class() -> type:
    """pysbd's English processor with an exact pre-check in the abbreviation search: pysbd
    runs ``re.findall("(?:^|\\s|\\r|\\n)" + abbr, line, re.IGNORECASE)`` for every one of
    its ~190 abbreviations that occurs anywhere in the line; an all-letter abbreviation can
    only match there if some whitespace-delimited word of the line starts with it (checked
    by bisection in the sorted lower-cased words), so the regex runs only then."""
    import pysbd.abbreviation_replacer
    from pysbd.lang.english import English
    from pysbd.processor import Processor

    _patch_pysbd()
    cached_re = pysbd.abbreviation_replacer.re

    class _Replacer(English.AbbreviationReplacer):
        def search_for_abbreviations_in_string(self, text: str) -> str:
            if not text.isascii() and _ASCII_CASE_FOLDS.search(text):
                return super().search_for_abbreviations_in_string(text)
            lowered = text.lower()
            words: list[str] = []
            words_of = None
            for abbr in self.lang.Abbreviation.ABBREVIATIONS:
                stripped = abbr.strip()
                if stripped not in lowered:
                    continue
                if _LOWER_WORD.fullmatch(stripped):
                    # every replacement needs the abbreviation followed by a period
                    if stripped + "." not in lowered:
                        continue
                    if words_of != text:  # text changes when a period is replaced
                        words, words_of = sorted(set(text.lower().split())), text
                    i = bisect.bisect_left(words, stripped)
                    if i == len(words) or not words[i].startswith(stripped):
                        continue
                abbrev_match = cached_re.findall(
                    rf"(?:^|\s|\r|\n){stripped}", text, flags=re.IGNORECASE)
                if not abbrev_match:
                    continue
                next_word_start = r"(?<={" + str(re.escape(stripped)) + "} ).{1}"
                char_array = cached_re.findall(next_word_start, text)
                for ind, match in enumerate(abbrev_match):
                    text = self.scan_for_replacements(text, match, ind, char_array)
            return text

        def scan_for_replacements(self, txt: str, am: str, ind: int,
                                  char_array: list[str]) -> str:
            # pysbd calls this once per occurrence of the abbreviation and each call
            # re-runs a regex substitution over the whole text; those substitutions are
            # pure functions of (text, abbreviation, rule), so they are memoised per text,
            # and skipped when the abbreviation is never followed by a period.
            abbr = am.strip()
            if _LETTERS.fullmatch(abbr) and abbr + "." not in txt:
                return txt
            try:
                char = char_array[ind]
            except IndexError:
                char = ""
            lower = abbr.lower()
            prepositive = lower in self.lang.Abbreviation.PREPOSITIVE_ABBREVIATIONS
            if str(char).isupper() and not prepositive:
                return txt
            rule = (0 if prepositive else
                    1 if lower in self.lang.Abbreviation.NUMBER_ABBREVIATIONS else 2)
            key = (rule, abbr, txt)
            memo = self.__dict__.setdefault("_memo", {})
            if key not in memo:
                memo[key] = super().scan_for_replacements(txt, am, ind, char_array)
            return memo[key]

    class _Processor(Processor):
        def abbreviations_replacer(self) -> Any:
            return _Replacer(self.text, self.lang)

    return _Processor


def doc_text(doc: Any) -> str:
    """``doc.text`` from the doc's ORTH/SPACY arrays (``Doc.text`` creates a ``Token``
    object per token)."""
    from spacy.attrs import ORTH, SPACY

    if not len(doc):
        return ""
    strings = doc.vocab.strings
    return "".join(strings[orth] + " " if space else strings[orth]
                   for orth, space in doc.to_array([ORTH, SPACY]).tolist())


def relx_sentencizer(doc: Any) -> Any:
    """Sentence starts from pysbd, as scispacy's ``pysbd_sentencizer`` gives them (written
    as one ``SENT_START`` array instead of a token attribute per token), but for a name
    ending in one letter at the end of a sentence (``protein kinase C.``, ``cyclin E.``,
    ``cytochrome c.``): the letter and the period become two tokens (spaCy's tokenizer keeps
    ``C.`` whole, as an initial), and a capitalised word after them starts a sentence (pysbd
    reads ``E. Cells`` as an initial and a name). See :func:`_letter_stops`."""
    from scispacy.consts import ABBREVIATIONS
    from spacy.attrs import IDX, LENGTH, SENT_START

    if not len(doc):
        return doc
    abbreviations = _abbreviations(tuple(ABBREVIATIONS))
    text = doc_text(doc)
    starts: set[int] = set()
    for sent in _segmenter().segment(text):
        span = doc.char_span(sent.start, sent.end - (len(sent.sent) - len(sent.sent.rstrip(" "))))
        if span is not None:
            starts.add(span.start_char)
    offsets = doc.to_array([IDX, LENGTH]).tolist()
    words = [text[i:i + n] for i, n in offsets]
    stops = _letter_stops(words, [i for i, _ in offsets], starts)
    if stops:
        with doc.retokenize() as retokenizer:
            for i in stops:
                retokenizer.split(doc[i], [words[i][0], "."], heads=[(doc[i], 0), (doc[i], 0)])
        for i in stops:     # the next word starts a sentence (not a line break)
            if i + 1 < len(offsets) and words[i + 1].strip():
                starts.add(offsets[i + 1][0])
        offsets = doc.to_array([IDX, LENGTH]).tolist()
        words = [text[i:i + n] for i, n in offsets]
    out = np.empty(len(words), dtype=np.int64)
    for i, (idx, _) in enumerate(offsets):
        if idx in starts:  # unless after an abbreviation or a leading run of newlines
            start = not (i > 0 and (words[i - 1] in abbreviations
                                    or (i == 1 and all(c == "\n" for c in words[0]))))
        else:  # a token after a paragraph break (not the doc's first token) starts one
            start = i > 1 and words[i - 1].count("\n") >= 2
        out[i] = 1 if start else -1
    doc.from_array([SENT_START], out.astype(np.uint64).reshape(-1, 1))
    return doc


#: one letter and a period, one token (spaCy's tokenizer exceptions: ``C.``, ``c.``)
_LETTER_PERIOD = re.compile(r"^[A-Za-z]\.$")
#: a lower-case word, the head of a name that ends in a letter (``kinase``, ``cyclin``)
_NAME_WORD = re.compile(r"^[a-z][a-z-]{2,}$")
#: words after which ``S.`` is an initial or a genus (``by J. Smith``, ``and S. Typhimurium``)
_BEFORE_INITIAL = frozenset((
    "and", "or", "nor", "but", "the", "of", "by", "with", "from", "for", "into", "onto",
    "than", "versus", "via", "including", "between", "against", "among", "like", "both",
    "either", "neither", "and/or", "except", "whereas", "while", "unlike"))


def _letter_stops(words: list[str], idx: list[int], starts: set[int]) -> list[int]:
    """Indices, last first, of the tokens ``X.`` (one letter and a period) that end a
    sentence after the name they end: the word before is a lower-case word of three letters
    or more that does not introduce initials or genus names (:data:`_BEFORE_INITIAL`), and
    the token is the last, or pysbd starts a sentence after it, or a capitalised word
    follows it (``cyclin E. Cells`` -- ``E. coli`` is left alone)."""
    out = []
    for i in range(len(words) - 1, 0, -1):
        if not _LETTER_PERIOD.match(words[i]):
            continue
        before = words[i - 1]
        if not _NAME_WORD.match(before) or before in _BEFORE_INITIAL:
            continue
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if (not nxt.strip() or idx[i + 1] in starts
                or nxt[:1].isupper()):
            out.append(i)
    return out


@functools.lru_cache(maxsize=1)
def _abbreviations(items: tuple[str, ...]) -> frozenset[str]:
    return frozenset(items)


class TagPosLemma:
    """``attribute_ruler`` (TAG -> POS patterns only) + rule ``lemmatizer`` in one pass,
    memoised on (word, tag, morphology) -- the lemmatizer's own cache key is (word, POS,
    morphology) and POS here is a function of the tag. Reads and writes the doc's token
    arrays (``to_array``/``from_array``) rather than token attributes."""

    def __init__(self, tag_to_pos: dict[str, str], lemmatizer: Any) -> None:
        self.tag_to_pos = tag_to_pos
        self.lemmatizer = lemmatizer
        self._cache: dict[tuple[int, int, int], tuple[int | None, int]] = {}
        self._pos_ids: dict[int, int] = {}

    def _pos_of(self, doc: Any) -> dict[int, int]:
        if len(self._pos_ids) != len(self.tag_to_pos):
            from spacy.parts_of_speech import IDS

            self._pos_ids = {doc.vocab.strings.add(tag): IDS[pos]
                             for tag, pos in self.tag_to_pos.items()}
        return self._pos_ids

    def __call__(self, doc: Any) -> Any:
        from spacy.attrs import LEMMA, MORPH, ORTH, POS, TAG

        if not len(doc):
            return doc
        cache, lem, strings = self._cache, self.lemmatizer, doc.vocab.strings
        pos_ids = self._pos_of(doc)
        keep_lemmas = not lem.overwrite
        arr = doc.to_array([ORTH, TAG, MORPH, POS, LEMMA])
        out = arr[:, 3:5].copy()
        for i, (orth, tag, morph, _, lemma) in enumerate(arr.tolist()):
            if lemma != 0 and keep_lemmas:  # lemma already set: POS only
                pos = pos_ids.get(tag)
                if pos is not None:
                    out[i, 0] = pos
                continue
            key = (orth, tag, morph)
            hit = cache.get(key)
            if hit is None:
                tok = doc[i]
                pos = pos_ids.get(tag)
                if pos is not None:
                    tok.pos = pos  # the rule lemmatizer reads POS
                hit = (pos, strings.add(lem.lemmatize(tok)[0]))
                if len(cache) < 500_000:
                    cache[key] = hit
            if hit[0] is not None:
                out[i, 0] = hit[0]
            out[i, 1] = hit[1]
        doc.from_array([POS, LEMMA], out)
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
    ruler is a plain tag map and the two are adjacent; returns whether it did. (The
    ``relx_pos_lemma`` factory is :mod:`relx.parse.factories`, a spaCy entry point that
    :func:`relx.parse.pipeline.load_nlp` also imports; it imports this module, not the
    other way round.)"""
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
    lem.lookups = _set_indexed(lem.lookups)
    nlp.get_pipe("attribute_ruler").lemmatizer = lem
    return True


def _set_indexed(lookups: Any) -> Any:
    """A copy of lemmatizer lookups whose ``lemma_index`` word lists are frozensets: the
    rule lemmatizer only tests ``form in index``, a linear scan of up to 57k words per
    candidate form on a list."""
    from spacy.lookups import Lookups, Table

    out = Lookups()
    for name in lookups.tables:
        table = lookups.get_table(name)
        if name == "lemma_index":
            copy = Table(name=name)
            for key, words in table.items():
                copy[key] = frozenset(words)
            table = copy
        out.set_table(name, table)
    return out
