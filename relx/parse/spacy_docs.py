"""From text to spaCy documents and back: a text's blocks (:func:`text_blocks`), a spaCy
``Doc`` of a text whose tokens are split at given mention boundaries
(:func:`doc_from_text`), per-sentence docs for the tagger and parser
(:func:`sentence_docs`), and a parsed sentence as a relx :class:`~relx.doc.Sentence`
(:func:`span_sentence`), read through spaCy's arrays rather than a ``Token`` object per
attribute. :mod:`relx.parse.pipeline` drives them.
"""

from __future__ import annotations

import contextlib
import gc
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from relx.doc import Abbreviation, Dependency, Sentence, Span, Token

__all__ = ["BLOCK_CHARS", "doc_abbreviations", "doc_from_text", "paused_gc", "sentence_docs",
           "sentence_spans", "span_sentence", "split_at", "text_blocks", "token_rows"]

#: a text longer than this (characters) is parsed in blocks of at most this length
#: (:func:`text_blocks`); shorter texts, abstracts and most full texts, in one piece
BLOCK_CHARS = 50_000


def split_at(bounds: list[tuple[int, int]], cuts: set[int]) -> list[tuple[int, int]]:
    out = []
    for s, e in bounds:
        inner = sorted(c for c in cuts if s < c < e)
        for a, b in zip([s, *inner], [*inner, e], strict=True):
            out.append((a, b))
    return out


def doc_from_text(nlp: Any, text: str, cuts: set[int]) -> Any:
    """Tokenise ``text`` with ``nlp.tokenizer``, then split tokens at character ``cuts``."""
    from spacy.tokens import Doc

    tokens = nlp.tokenizer(text)
    if not cuts:
        return tokens
    bounds = split_at([(t.idx, t.idx + len(t.text)) for t in tokens], cuts)
    words = [text[s:e] for s, e in bounds]
    spaces = [e < len(text) and (i + 1 == len(bounds) or bounds[i + 1][0] > e)
              for i, (s, e) in enumerate(bounds)]
    # a space flag is only valid when the next character really is one space
    spaces = [sp and text[e] == " " for sp, (_, e) in zip(spaces, bounds, strict=True)]
    doc = Doc(nlp.vocab, words=words, spaces=spaces)
    if doc.text != text:  # other whitespace between tokens: keep it as whitespace tokens
        return _doc_with_whitespace(nlp, text, bounds)
    return doc


def _doc_with_whitespace(nlp: Any, text: str, bounds: list[tuple[int, int]]) -> Any:
    from spacy.tokens import Doc

    words, spaces, pos = [], [], 0
    for s, e in bounds:
        gap = text[pos:s]
        if gap:
            if gap == " " and words and not spaces[-1]:
                spaces[-1] = True
            elif words and not spaces[-1] and gap.startswith(" "):
                spaces[-1] = True
                words.append(gap[1:])
                spaces.append(False)
            else:
                words.append(gap)
                spaces.append(False)
        words.append(text[s:e])
        spaces.append(False)
        pos = e
    if pos < len(text):
        words.append(text[pos:])
        spaces.append(False)
    return Doc(nlp.vocab, words=words, spaces=spaces)


def token_rows(doc: Any) -> list[tuple[int, int, bool, str, str, str, int, str]]:
    """Per token of a spaCy ``doc``: (char offset, length, is_space, tag, POS, lemma,
    absolute head index, dependency label), read through ``Doc.to_array`` (creating a
    ``Token`` object per attribute access is most of the cost of converting a parse)."""
    from spacy.attrs import DEP, HEAD, IDX, IS_SPACE, LEMMA, LENGTH, POS, TAG
    from spacy.parts_of_speech import NAMES

    if not len(doc):
        return []
    arr = doc.to_array([IDX, LENGTH, IS_SPACE, TAG, POS, LEMMA, HEAD, DEP])
    heads = (arr[:, 6].astype(np.int64) + np.arange(len(doc))).tolist()  # HEAD is relative
    strings = doc.vocab.strings
    names: dict[int, str] = {0: ""}

    def name(h: int) -> str:
        out = names.get(h)
        if out is None:
            out = names[h] = strings[h]
        return out

    return [(idx, n, bool(space), name(tag), NAMES.get(pos, ""), name(lemma), head, name(dep))
            for (idx, n, space, tag, pos, lemma, _, dep), head
            in zip(arr.tolist(), heads, strict=True)]


def sentence_spans(doc: Any) -> list[Any]:
    """``list(doc.sents)`` from one ``SENT_START`` array (``Doc.sents`` first checks the
    annotation by creating a ``Token`` per token); a doc without sentence starts is one
    sentence."""
    from spacy.attrs import SENT_START
    from spacy.tokens import Span as SpacySpan

    if "sents" in doc.user_hooks:
        return list(doc.sents)
    if not len(doc):
        return []
    starts = np.flatnonzero(doc.to_array([SENT_START]).astype(np.int64) == 1)
    bounds = [0, *(int(i) for i in starts if i > 0), len(doc)]
    return [SpacySpan(doc, a, b) for a, b in zip(bounds, bounds[1:], strict=False)]


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Cyclic garbage collection off inside the block (restored after). Converting a parsed
    document makes ~100 small acyclic objects per sentence; the collections they triggered
    cost as much as the conversion itself (they now run at most once per document)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def span_sentence(span: Any, sid: str, base: int, source: str, text: str | None = None,
              rows: list[tuple] | None = None) -> Sentence:
    """A spaCy sentence span as a relx Sentence; offsets shifted by ``base``.

    ``text`` and ``rows``: the spaCy document's text and :func:`token_rows` (computed here
    when not given; callers converting many sentences of one doc pass them once).
    """
    from relx.parse.fast import doc_text

    doc = span.doc
    text = doc_text(doc) if text is None else text
    rows = token_rows(doc) if rows is None else rows
    toks, k, heads = [], {}, []
    for i in range(span.start, span.end):
        idx, n, space, tag, pos, lemma, head, dep = rows[i]
        if space:
            continue
        k[i] = len(toks)
        start = base + idx
        # trusted: the values are ints and strs straight from spaCy's arrays, and
        # validating ~25 objects per sentence was a tenth of the conversion time
        toks.append(Token.trusted(len(toks), text[idx:idx + n], start, start + n,
                                  tag or pos or None, lemma or None))
        heads.append((i, head, dep))
    deps = [Dependency.trusted(k[h], k[i], label)
            for i, h, label in heads if h != i and h in k]
    if toks:
        s, e = toks[0].start - base, toks[-1].end - base
    else:
        s = e = span.start_char
    return Sentence(id=sid, start=base + s, end=base + e, text=text[s:e], tokens=toks,
                    dependencies=deps, parse_source=source)


def doc_abbreviations(doc: Any, base: int = 0) -> list[Abbreviation]:
    """scispacy's ``doc._.abbreviations`` (spans, or token-index dicts when serialisable)."""
    if not doc.has_extension("abbreviations"):
        return []
    out = []
    for a in doc._.abbreviations:
        if isinstance(a, dict):
            short, long = doc[a["short_start"]:a["short_end"]], doc[a["long_start"]:a["long_end"]]
        else:
            short, long = a, a._.long_form
        out.append(Abbreviation(short=Span(start=base + short.start_char, end=base + short.end_char),
                                long=Span(start=base + long.start_char, end=base + long.end_char),
                                short_text=short.text, long_text=long.text))
    # scispacy collects them in a set: order them so that outputs are reproducible
    return sorted(out, key=lambda a: (a.short.start, a.short.end, a.long.start, a.long.end))


def text_blocks(text: str, size: int = BLOCK_CHARS,
                keep: Iterable[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """``(start, end)`` blocks covering ``text``, each at most ``size`` characters (plus
    the whitespace it ends with): one block when the text is no longer. A block ends after
    the last paragraph break (a blank line) that fits, else after a line break, else after
    a sentence's ``". "``, else at a space; never inside a ``keep`` span (given entity
    mentions). The sentence splitter starts a sentence after a paragraph break anyway, so
    blocks cut there give the same sentences as the whole text."""
    n = len(text)
    if n <= size:
        return [(0, n)]
    spans = sorted((a, b) for a, b in keep if b - a > 1)
    inside_start = [a for a, _ in spans]
    reach, ends = 0, []   # the furthest end of the spans starting at or before each one
    for _, b in spans:
        reach = max(reach, b)
        ends.append(reach)

    def inside(cut: int) -> bool:
        i = bisect_left(inside_start, cut) - 1   # spans starting before the cut
        return i >= 0 and ends[i] > cut

    out, pos = [], 0
    while n - pos > size:
        cut = None
        for sep in ("\n\n", "\n", ". ", " "):
            i = text.rfind(sep, pos + 1, pos + size)
            while i > pos and cut is None:
                c = i + len(sep)
                while c < n and c - pos < 2 * size and text[c].isspace():
                    c += 1                       # the whitespace stays with the block
                if not inside(c):
                    cut = c
                i = text.rfind(sep, pos + 1, i)
            if cut is not None:
                break
        if cut is None:                          # no break at all: cut at the size
            cut = pos + size
            while inside(cut) and cut < n:
                cut += 1
        out.append((pos, cut))
        pos = cut
    out.append((pos, n))
    return out


def sentence_docs(sdoc: Any, spans: Sequence[Any]) -> list[Any]:
    """One spaCy ``Doc`` per sentence span of ``sdoc`` (as ``Span.as_doc`` copies it:
    words, spaces and token attributes; without the entity annotation, which the tagger
    and parser do not read), each one sentence the parser may not split. ``as_doc``
    converts the whole document's array and entities for every span: quadratic in the
    length of a document."""
    from spacy.attrs import ENT_ID, ENT_IOB, ENT_KB_ID, ENT_TYPE, ORTH, SENT_START, SPACY
    from spacy.tokens import Doc

    if not spans:
        return []
    head = [a for a in sdoc._get_array_attrs()
            if a not in (ENT_IOB, ENT_TYPE, ENT_KB_ID, ENT_ID)]
    arr = sdoc.to_array(head)
    orth, space, sent = head.index(ORTH), head.index(SPACY), head.index(SENT_START)
    strings = sdoc.vocab.strings
    out = []
    for sp in spans:
        rows = arr[sp.start:sp.end].copy()
        one = Doc(sdoc.vocab, words=[strings[o] for o in rows[:, orth].tolist()],
                  spaces=[bool(x) for x in rows[:, space].tolist()])
        rows[:, sent] = np.uint64(-1 & 0xFFFFFFFFFFFFFFFF)   # -1: not a sentence start
        rows[0, sent] = 1
        one.from_array(head, rows)
        out.append(one)
    return out
