"""The raw-text parse stage: relx's spaCy pipeline -> :class:`relx.doc.Document`.

The shipped pipeline (``models/relx_bio_sm``) is scispacy's ``combined_rule_tokenizer``,
``pysbd_sentencizer``, a CNN tok2vec + tagger + dependency parser trained on CRAFT + GENIA
(CRAFT/ClearNLP labels), a rule lemmatizer, a protein NER and scispacy's
``abbreviation_detector``. Any installed spaCy/scispacy pipeline can be used by name.

Given entities (corpus or ``.a1`` annotations) are respected: tokens are split at entity
boundaries before tagging, so a mention never shares a token with its neighbour.
"""

from __future__ import annotations

import contextlib
import gc
import json
import warnings
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np

from relx.doc import Abbreviation, Dependency, Document, Entity, Sentence, Span, Token
from relx.errors import ConfigError
from relx.model_store import models_dir

DEFAULT_PIPELINE = "relx_bio_sm"
#: which mentions a parsed document gets: see :class:`Parser`
MENTION_MODES = ("auto", "input", "relx", "both")
NER_LABELS = frozenset({"PROTEIN", "GENE_OR_GENE_PRODUCT", "GGP", "GENE", "PROTEIN_MENTION"})
SENTENCIZERS = frozenset({"pysbd_sentencizer", "senter", "sentencizer"})


def source_name(meta: dict) -> str:
    """The ``parse_source`` a pipeline writes on its sentences, from its ``meta``."""
    return f"{meta.get('lang', 'en')}_{meta.get('name', 'pipeline')}-{meta.get('version', '0')}"


def default_source() -> str:
    """``source_name`` of the shipped pipeline, read from its meta.json (not loaded)."""
    meta = json.loads((models_dir() / DEFAULT_PIPELINE / "meta.json").read_text("utf-8"))
    return source_name(meta)


def same_parse_sources(meta: dict) -> frozenset[str]:
    """``source_name`` of a pipeline and of the earlier versions its meta lists under
    ``same_parses_as`` (the same weights saved differently: identical parses)."""
    base = f"{meta.get('lang', 'en')}_{meta.get('name', 'pipeline')}-"
    return frozenset({source_name(meta), *(base + v for v in meta.get("same_parses_as", ()))})


def default_sources() -> frozenset[str]:
    """:func:`same_parse_sources` of the shipped pipeline, read from its meta.json."""
    meta = json.loads((models_dir() / DEFAULT_PIPELINE / "meta.json").read_text("utf-8"))
    return same_parse_sources(meta)


def _register_scispacy() -> None:
    """Register the factories the saved pipeline names (also spaCy entry points, so this
    only matters where relx runs without being installed)."""
    import scispacy.abbreviation  # noqa: F401

    import relx.parse.factories  # noqa: F401  (pysbd_sentencizer, relx_sentencizer, ...)


def load_nlp(name: str | Path | None = None, *, exclude: Sequence[str] = ()) -> Any:
    """Load a spaCy pipeline: relx's shipped one by default, else a path or installed name."""
    import spacy

    from relx.parse.fast import fuse_pos_lemma

    _register_scispacy()
    if name is None or str(name) == DEFAULT_PIPELINE:
        path = models_dir() / DEFAULT_PIPELINE
        if not path.exists():
            raise FileNotFoundError(f"the default parse pipeline is missing: {path}")
        name = path
    with warnings.catch_warnings(), _fast_ops():
        warnings.filterwarnings("ignore", category=FutureWarning)  # scispacy tokenizer regexes
        nlp = spacy.load(name, exclude=list(exclude))
    if "pysbd_sentencizer" in nlp.pipe_names:  # same boundaries, several times faster
        nlp.replace_pipe("pysbd_sentencizer", "relx_sentencizer")
    fuse_pos_lemma(nlp)  # same POS and lemmas in one memoised pass
    # scispacy's abbreviation detector warns on every document that its (empty) global
    # matcher has no patterns
    warnings.filterwarnings("ignore", message=r"\[W036\] The component 'matcher'")
    return nlp


@contextlib.contextmanager
def _fast_ops() -> Iterator[None]:
    """Build the pipeline's layers on :class:`~relx.parse.fast.FastNumpyOps` (CPU only)."""
    from thinc.api import NumpyOps, get_current_ops, set_current_ops

    from relx.parse.fast import FastNumpyOps

    current = get_current_ops()
    if type(current) is not NumpyOps:  # a GPU or another custom backend: leave it alone
        yield
        return
    set_current_ops(FastNumpyOps())
    try:
        yield
    finally:
        set_current_ops(current)


def _split_at(bounds: list[tuple[int, int]], cuts: set[int]) -> list[tuple[int, int]]:
    out = []
    for s, e in bounds:
        inner = sorted(c for c in cuts if s < c < e)
        for a, b in zip([s, *inner], [*inner, e], strict=True):
            out.append((a, b))
    return out


def _doc_from_text(nlp: Any, text: str, cuts: set[int]) -> Any:
    """Tokenise ``text`` with ``nlp.tokenizer``, then split tokens at character ``cuts``."""
    from spacy.tokens import Doc

    tokens = nlp.tokenizer(text)
    if not cuts:
        return tokens
    bounds = _split_at([(t.idx, t.idx + len(t.text)) for t in tokens], cuts)
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


def _sentence(span: Any, sid: str, base: int, source: str, text: str | None = None,
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


def _abbreviations(doc: Any, base: int = 0) -> list[Abbreviation]:
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


class Parser:
    """Parses text and documents into relx's data model.

    ``model``: ``None`` for the shipped pipeline, or a spaCy pipeline name or path.
    ``ner``: tag protein mentions (as ``mentions`` says).
    ``mentions``: which mentions a document gets (:data:`MENTION_MODES`): ``"auto"`` its own
    entities when it brings some, else the NER's; ``"input"`` only its own (none when it
    brings none); ``"relx"`` only the NER's (its own are dropped); ``"both"`` its own and
    the NER's that overlap none of them.
    """

    def __init__(self, model: str | Path | None = None, *, ner: bool = True,
                 batch_size: int = 32, mentions: str = "auto") -> None:
        if mentions not in MENTION_MODES:
            raise ConfigError(f"mentions must be one of {MENTION_MODES}, not {mentions!r}")
        self.model = model
        self.ner = ner
        self.mentions = mentions
        self.batch_size = batch_size
        self._nlp: Any = None
        self._source: str | None = None

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            self._nlp = load_nlp(self.model)
        return self._nlp

    @property
    def source(self) -> str:
        """``parse_source`` of this pipeline (read once: spaCy rebuilds ``meta`` on every
        access, which cost more than converting the sentence it labels)."""
        if self._source is None:
            self._source = source_name(self.nlp.meta)
        return self._source

    def _disabled(self, *, ner: bool, sentencize: bool = True) -> list[str]:
        names = set(self.nlp.pipe_names)
        off = set()
        if not ner:
            off |= {"ner"} & names
        if not sentencize:
            off |= SENTENCIZERS & names
        return sorted(off)

    def parse_text(self, text: str, doc_id: str = "doc") -> Document:
        """Sentences, tokens, lemmas, POS, dependencies, abbreviations and NER proteins."""
        return next(self.parse_documents([Document(id=doc_id, text=text)]))

    def parse_documents(self, docs: Iterable[Document], *, min_entities: int = 0
                        ) -> Iterator[Document]:
        """Split, tag and parse each document's text into new sentences.

        Entities a document already has (from its reader) are kept, re-assigned to the new
        sentences, and tokens are split at their boundaries; documents without entities get
        the NER's protein mentions (when ``ner``). Relations are not carried over.

        ``min_entities > 0``: tag and parse only the sentences holding at least that many
        entity mentions (relation extraction needs no parse elsewhere), each on its own
        like the corpus sentences the models are trained on; the other sentences keep their
        tokens without tags, lemmas or dependencies. Sentences are then exactly the
        sentence splitter's. Falls back to the full parse for pipelines without a sentence
        splitter or whose NER listens to a shared tok2vec.
        """
        def prepared() -> Iterator[tuple[Any, tuple[Document, list[Entity]]]]:
            for doc in docs:
                ents = [] if self.mentions == "relx" else \
                    [e for s in doc.sentences for e in s.entities]
                cuts = {b for e in ents for sp in e.spans for b in (sp.start, sp.end)}
                yield _doc_from_text(self.nlp, doc.text, cuts), (doc, ents)

        off = self._disabled(ner=self.ner)
        syntax = self._syntax_pipes() if min_entities > 0 else None
        if syntax is None:
            for sdoc, (doc, ents) in self.nlp.pipe(prepared(), as_tuples=True, disable=off,
                                                   batch_size=self.batch_size):
                yield self._to_document(doc, sdoc, self._mentions(doc, sdoc, ents))
            return
        first = self.nlp.pipe(prepared(), as_tuples=True, disable=sorted({*off, *syntax}),
                              batch_size=self.batch_size)
        later = sorted(set(self.nlp.pipe_names) - set(syntax))
        while chunk := list(islice(first, self.batch_size)):
            yield from self._parse_selected(chunk, min_entities, later)

    def _syntax_pipes(self) -> list[str] | None:
        """The components a sentence needs for its tags and parse (all but the sentence
        splitter, the NER and the abbreviation detector), or None when the pipeline cannot
        run them separately."""
        names = self.nlp.pipe_names
        if not set(names) & SENTENCIZERS:
            return None
        if "ner" in names and any(n.name == "tok2vec-listener"
                                  for n in self.nlp.get_pipe("ner").model.walk()):
            return None
        return [n for n in names if n not in SENTENCIZERS | {"ner", "abbreviation_detector"}]

    def _parse_selected(self, chunk: list[tuple[Any, tuple[Document, list[Entity]]]],
                        min_entities: int, off: list[str]) -> Iterator[Document]:
        """Tag and parse, one sentence at a time, the sentences of ``chunk`` (NER and
        sentence-split spaCy docs) with ``min_entities`` mentions or more."""
        from spacy.attrs import SENT_START

        jobs, plans = [], []
        for sdoc, (doc, ents) in chunk:
            ents = self._mentions(doc, sdoc, ents)
            starts = sorted(e.start for e in ents)
            spans = sentence_spans(sdoc)
            selected = [bisect_left(starts, sp.end_char) - bisect_left(starts, sp.start_char)
                        >= min_entities for sp in spans]
            for sp, sel in zip(spans, selected, strict=True):
                if sel:
                    one = sp.as_doc()
                    flags = np.full(len(one), -1, dtype=np.int64)
                    flags[0] = 1  # one sentence: the parser may not split it
                    one.from_array([SENT_START], flags.astype(np.uint64).reshape(-1, 1))
                    jobs.append(one)
            plans.append((sdoc, doc, ents, spans, selected))
        parsed = iter(self.nlp.pipe(jobs, disable=off, batch_size=self.batch_size))
        from relx.parse.fast import doc_text

        for sdoc, doc, ents, spans, selected in plans:
            ones = [next(parsed) if sel else None for sel in selected]  # may run the pipeline
            text, rows = doc_text(sdoc), token_rows(sdoc)
            with paused_gc():
                sents = [_sentence(sp, f"{doc.id}.s{i}", 0, self.source, text, rows)
                         if one is None else
                         _sentence(one[:], f"{doc.id}.s{i}", sp.start_char, self.source,
                                   text[sp.start_char:sp.end_char], token_rows(one))
                         for i, (sp, one) in enumerate(zip(spans, ones, strict=True))]
                out = self._document(doc, sdoc, sents, ents)
            yield out

    @staticmethod
    def _ner_entities(doc: Document, sdoc: Any) -> list[Entity]:
        return [Entity(id=f"{doc.id}.e{k}", spans=[Span(start=e.start_char, end=e.end_char)],
                       type="Protein", text=e.text)
                for k, e in enumerate(x for x in sdoc.ents if x.label_.upper() in NER_LABELS)]

    def _mentions(self, doc: Document, sdoc: Any, given: list[Entity]) -> list[Entity]:
        """The document's mentions under ``self.mentions`` (``given``: its own)."""
        if not self.ner or self.mentions == "input" or (self.mentions == "auto" and given):
            return given
        tagged = self._ner_entities(doc, sdoc)
        if self.mentions != "both" or not given:
            return tagged
        spans = [(sp.start, sp.end) for e in given for sp in e.spans]
        extra = [e for e in tagged if not any(a < e.end and e.start < b for a, b in spans)]
        return [*given, *(e.model_copy(update={"id": f"{doc.id}.r{k}"})
                          for k, e in enumerate(extra))]

    def _to_document(self, doc: Document, sdoc: Any, ents: list[Entity]) -> Document:
        from relx.parse.fast import doc_text

        text, rows = doc_text(sdoc), token_rows(sdoc)
        with paused_gc():
            sents = [_sentence(s, f"{doc.id}.s{i}", 0, self.source, text, rows)
                     for i, s in enumerate(sentence_spans(sdoc))]
            return self._document(doc, sdoc, sents, ents)

    def _document(self, doc: Document, sdoc: Any, sents: list[Sentence],
                  ents: list[Entity]) -> Document:
        """The relx Document: non-empty sentences numbered in order, entities placed in the
        sentence holding their start, abbreviations from ``sdoc``."""
        sents = [s for s in sents if s.tokens]
        for i, s in enumerate(sents):
            s.id = f"{doc.id}.s{i}"
        for e in ents:
            home = next((s for s in sents if s.start <= e.start < s.end), None)
            if home is not None:
                home.entities.append(e)
        return Document(id=doc.id, text=doc.text, sentences=sents, source=doc.source,
                        orig_id=doc.orig_id, abbreviations=_abbreviations(sdoc))

    def reparse_sentences(self, docs: Iterable[Document]) -> Iterator[Document]:
        """Re-tag and re-parse every sentence as it is (boundaries, entities and relations
        kept): the ``--parses relx`` view of a corpus that ships its own parses."""
        off = set(self._disabled(ner=False, sentencize=False)) | {"abbreviation_detector"}
        off &= set(self.nlp.pipe_names)

        def prepared() -> Iterator[tuple[Any, tuple[Document, int]]]:
            for doc in docs:
                if not doc.sentences:  # nothing to parse; keep the document
                    yield self.nlp.make_doc(""), (doc, -1)
                for k, sent in enumerate(doc.sentences):
                    cuts = {b - sent.start for e in sent.entities for sp in e.spans
                            for b in (sp.start, sp.end)}
                    sdoc = _doc_from_text(self.nlp, sent.text, cuts)
                    for i, tok in enumerate(sdoc):  # one sentence: the parser may not split it
                        tok.is_sent_start = i == 0
                    yield sdoc, (doc, k)

        current: Document | None = None
        sents: list[Sentence] = []
        for sdoc, (doc, k) in self.nlp.pipe(prepared(), as_tuples=True, disable=sorted(off),
                                            batch_size=self.batch_size):
            if current is not None and doc is not current:
                yield current.model_copy(update={"sentences": sents})
                sents = []
            current = doc
            if k < 0:
                continue
            sent = doc.sentences[k]
            new = _sentence(sdoc[:], sent.id, sent.start, self.source)
            sents.append(sent.model_copy(update={"tokens": new.tokens,
                                                 "dependencies": new.dependencies,
                                                 "parse_source": new.parse_source}))
        if current is not None:
            yield current.model_copy(update={"sentences": sents})


def parse_files(paths: Sequence[Path], parser: Parser, fmt: str | None = None
                ) -> Iterator[Document]:
    """Read documents in any supported format and parse them."""
    from relx.io.registry import read

    for path in paths:
        yield from parser.parse_documents(read(path, fmt))
