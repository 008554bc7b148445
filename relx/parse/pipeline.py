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
import json
import warnings
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relx.doc import Abbreviation, Document, Entity, Sentence, Span
from relx.doc_limits import DocumentClock, bounded_batches
from relx.errors import ConfigError
from relx.genes.bracketed_names import with_bracketed_names
from relx.genes.greek_names import with_greek_names
from relx.genes.joined_names import (
    joined_names_left_out,
    split_en_dashes,
    split_hyphen_joined,
)
from relx.genes.more_mentions import (
    more_mentions,
    with_construct_genes,
    with_full_names,
    with_long_forms,
    with_short_forms,
    without_other_things,
)
from relx.genes.subunits import with_subunits
from relx.model_store import models_dir, reading_model_file
from relx.parse.abbreviations import hyphen_abbreviations, listed_abbreviations
from relx.parse.norms import spell_greek_features
from relx.parse.paper_mentions import (
    mention_span,
    mention_type,
    names_a_disease,
    short_form_mentions,
)
from relx.parse.spacy_docs import (
    BLOCK_CHARS,
    doc_abbreviations,
    doc_from_text,
    paused_gc,
    sentence_docs,
    sentence_spans,
    span_sentence,
    text_blocks,
    token_rows,
)

DEFAULT_PIPELINE = "relx_bio_sm"
#: which mentions a parsed document gets: see :class:`Parser`
MENTION_MODES = ("auto", "input", "relx", "both")
NER_LABELS = frozenset({"PROTEIN", "GENE_OR_GENE_PRODUCT", "GGP", "GENE", "PROTEIN_MENTION"})
SENTENCIZERS = frozenset({"pysbd_sentencizer", "senter", "sentencizer"})
#: characters of text whose sentences are tagged and parsed in one round (with at most
#: ``batch_size`` documents or blocks): bounds the parse's memory whatever the documents'
#: length (a batch of abstracts, ~50,000 characters, is one round)
CHUNK_CHARS = 4 * BLOCK_CHARS
#: characters of text that go through spaCy's pipeline in one batch of whole texts or
#: blocks (its activations take ~3.6 KB a character): a batch of abstracts (~50,000
#: characters) is one batch, a long paper's blocks go two at a time
PIPE_CHARS = 2 * BLOCK_CHARS


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
    local = Path(name).exists()
    with warnings.catch_warnings(), _fast_ops(), \
            reading_model_file(name, "parse pipeline") if local else contextlib.nullcontext():
        warnings.filterwarnings("ignore", category=FutureWarning)  # scispacy tokenizer regexes
        nlp = spacy.load(name, exclude=list(exclude))
    if "pysbd_sentencizer" in nlp.pipe_names:  # same boundaries, several times faster
        nlp.replace_pipe("pysbd_sentencizer", "relx_sentencizer")
    fuse_pos_lemma(nlp)  # same POS and lemmas in one memoised pass
    spell_greek_features(nlp)
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


@dataclass(eq=False)
class _DocParse:
    """A document being parsed block by block: what its blocks gave so far."""

    doc: Document
    given: list[Entity]                  # the document's own mentions
    use_ner: bool
    found: list[Entity] = field(default_factory=list)   # NER mentions so far
    sentences: list[Sentence] = field(default_factory=list)
    abbreviations: list[Abbreviation] = field(default_factory=list)
    both: bool = False                   # the NER's mentions join the document's own

    def mentions(self) -> list[Entity]:
        """The document's mentions: its own, the NER's, or both (the NER's that overlap
        none of its own, renumbered ``<doc>.r<k>``)."""
        if not self.use_ner:
            return self.given
        if not self.both or not self.given:
            return self.found
        spans = [(sp.start, sp.end) for e in self.given for sp in e.spans]
        extra = [e for e in self.found if not any(a < e.end and e.start < b for a, b in spans)]
        return [*self.given, *(e.model_copy(update={"id": f"{self.doc.id}.r{k}"})
                               for k, e in enumerate(extra))]


@dataclass(eq=False)
class _Block:
    state: _DocParse
    start: int         # offset of the block in the document's text
    last: bool
    chars: int = 0     # its length
    abbreviations: list[Abbreviation] | None = None   # its sdoc's, once read (document offsets)

    def read_abbreviations(self, sdoc: Any) -> list[Abbreviation]:
        """The block's abbreviations, read once (the NER's extra mentions and the document
        both use them): scispacy's (:func:`doc_abbreviations`), those written onto the
        next word, ``tyrosine hydroxylase (TH)-positive`` (:func:`hyphen_abbreviations`),
        and those first in brackets before a semicolon, ``(CAR; NR1I3)``
        (:func:`listed_abbreviations`)."""
        if self.abbreviations is None:
            from relx.parse.fast import doc_text

            found = doc_abbreviations(sdoc, self.start)
            shorts = [(a.short.start, a.short.end) for a in found]
            text = doc_text(sdoc)
            more = [a for a in (*hyphen_abbreviations(text, self.start),
                                *listed_abbreviations(text, self.start))
                    if not any(s < a.short.end and a.short.start < e for s, e in shorts)]
            self.abbreviations = sorted([*found, *more], key=lambda a: (
                a.short.start, a.short.end, a.long.start, a.long.end)) if more else found
        return self.abbreviations


def _bounded_chunks(items: Iterable[tuple[Any, _Block]], n: int, max_chars: int
                    ) -> Iterator[list[tuple[Any, _Block]]]:
    """Lists of at most ``n`` blocks and, past the first, at most ``max_chars`` characters
    (what one round of per-sentence parsing holds in memory)."""
    return bounded_batches(items, n, max_chars, lambda item: item[1].chars)


def _pipe_bounded(nlp: Any, items: Iterable[tuple[Any, _Block]], n: int, max_chars: int,
                  disable: list[str]) -> Iterator[tuple[Any, _Block]]:
    """``nlp.pipe`` over (doc, block) pairs in batches of at most ``n`` blocks and, past
    the first, ``max_chars`` characters (spaCy batches by count alone)."""
    for chunk in _bounded_chunks(items, n, max_chars):
        yield from nlp.pipe(chunk, as_tuples=True, disable=disable, batch_size=len(chunk))


def with_structure(given: Document, parsed: Document) -> Document:
    """``parsed`` (made from ``given``) with ``given``'s structure: its sections, layout
    and meta, and each sentence's section, heading, page and boxes
    (:func:`relx.io.papers.locate_sentences`). A document without any (an abstract read
    from text) costs nothing."""
    if not (given.sections or given.layout or given.meta):
        return parsed
    from relx.io.papers import locate_sentences

    parsed.sections, parsed.layout, parsed.meta = given.sections, given.layout, given.meta
    return locate_sentences(parsed)


class Parser:
    """Parses text and documents into relx's data model.

    ``model``: ``None`` for the shipped pipeline, or a spaCy pipeline name or path.
    ``ner``: tag protein mentions (as ``mentions`` says).
    ``mentions``: which mentions a document gets (:data:`MENTION_MODES`): ``"auto"`` its own
    entities when it brings some, else the NER's; ``"input"`` only its own (none when it
    brings none); ``"relx"`` only the NER's (its own are dropped); ``"both"`` its own and
    the NER's that overlap none of them.
    ``block_chars``: longer texts are parsed in blocks (:func:`text_blocks`).
    """

    def __init__(self, model: str | Path | None = None, *, ner: bool = True,
                 batch_size: int = 32, block_chars: int = BLOCK_CHARS,
                 mentions: str = "auto") -> None:
        if mentions not in MENTION_MODES:
            raise ConfigError(f"mentions must be one of {MENTION_MODES}, not {mentions!r}")
        self.model = model
        self.ner = ner
        self.mentions = mentions
        self.batch_size = batch_size
        self.block_chars = block_chars
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

    def parse_documents(self, docs: Iterable[Document], *, min_entities: int = 0,
                        max_seconds: float | None = None) -> Iterator[Document]:
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

        A text longer than ``block_chars`` goes through the pipeline in blocks
        (:func:`text_blocks`: cut at paragraph breaks), so time and memory grow linearly
        with its length (the sentence splitter and the abbreviation detector take time
        quadratic in the length of what they are given, and spaCy refuses texts over
        ``nlp.max_length``); the blocks' sentences, mentions and abbreviations are joined
        into one document. ``max_seconds``: a document still being parsed after that long
        raises :class:`relx.doc_limits.DocumentTimeout` (checked after each block).
        """
        clock = DocumentClock(max_seconds)

        def prepared() -> Iterator[tuple[Any, _Block]]:
            for doc in docs:
                ents = [] if self.mentions == "relx" else \
                    [e for s in doc.sentences for e in s.entities]
                spans = [(sp.start, sp.end) for e in ents for sp in e.spans]
                cuts = {b for span in spans for b in span}
                use_ner = self.ner and (self.mentions in ("relx", "both")
                                        or (self.mentions == "auto" and not ents))
                state = _DocParse(doc, ents, use_ner, both=self.mentions == "both")
                clock.start(state)
                blocks = text_blocks(doc.text, self.block_chars, spans)
                for k, (a, b) in enumerate(blocks):
                    local = cuts if len(blocks) == 1 else {c - a for c in cuts if a <= c <= b}
                    yield (doc_from_text(self.nlp, doc.text[a:b], local),
                           _Block(state, a, k + 1 == len(blocks), b - a))

        def done(block: _Block) -> Iterator[Document]:
            state = block.state
            if not block.last:
                clock.check(state, state.doc.id, "parse")
                return
            clock.forget(state)
            yield self._document(state)

        off = self._disabled(ner=self.ner)
        syntax = self._syntax_pipes() if min_entities > 0 else None
        if syntax is None:
            for sdoc, block in _pipe_bounded(self.nlp, prepared(), self.batch_size, PIPE_CHARS,
                                             off):
                self._add_block(block, sdoc, self._block_sentences(sdoc, block))
                yield from done(block)
            return
        first = _pipe_bounded(self.nlp, prepared(), self.batch_size, PIPE_CHARS,
                              sorted({*off, *syntax}))
        later = sorted(set(self.nlp.pipe_names) - set(syntax))
        for chunk in _bounded_chunks(first, self.batch_size, CHUNK_CHARS):
            for block in self._parse_selected(chunk, min_entities, later):
                yield from done(block)

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

    def _block_entities(self, block: _Block, sdoc: Any) -> list[Entity]:
        """The mentions of a block (document offsets): the NER's (numbered on from the
        document's earlier blocks, and kept) or the document's own."""
        state = block.state
        if not state.use_ner:
            return state.given
        found = self._ner_entities(state.doc, sdoc, block.start, len(state.found),
                                   block.read_abbreviations(sdoc))
        state.found += found
        return [*state.given, *found] if state.both else found

    def _parse_selected(self, chunk: list[tuple[Any, _Block]], min_entities: int,
                        off: list[str]) -> Iterator[_Block]:
        """Tag and parse, one sentence at a time, the sentences of ``chunk`` (NER and
        sentence-split spaCy docs of text blocks) with ``min_entities`` mentions or more;
        yields each block once its sentences are added to its document."""
        from relx.parse.fast import doc_text

        jobs, plans = [], []
        for sdoc, block in chunk:
            ents = self._block_entities(block, sdoc)
            starts = sorted(e.start - block.start for e in ents)
            spans = sentence_spans(sdoc)
            selected = [bisect_left(starts, sp.end_char) - bisect_left(starts, sp.start_char)
                        >= min_entities for sp in spans]
            jobs += sentence_docs(sdoc, [sp for sp, sel in zip(spans, selected, strict=True)
                                         if sel])
            plans.append((sdoc, block, spans, selected))
        parsed = iter(self.nlp.pipe(jobs, disable=off, batch_size=self.batch_size))
        for sdoc, block, spans, selected in plans:
            ones = [next(parsed) if sel else None for sel in selected]  # may run the pipeline
            text, rows, base, doc_id = doc_text(sdoc), token_rows(sdoc), block.start, \
                block.state.doc.id
            with paused_gc():
                sents = [span_sentence(sp, doc_id, base, self.source, text, rows)
                         if one is None else
                         span_sentence(one[:], doc_id, base + sp.start_char, self.source,
                                   text[sp.start_char:sp.end_char], token_rows(one))
                         for sp, one in zip(spans, ones, strict=True)]
            self._add_block(block, sdoc, sents)
            yield block

    def _block_sentences(self, sdoc: Any, block: _Block) -> list[Sentence]:
        """The sentences of a fully parsed block (document offsets)."""
        from relx.parse.fast import doc_text

        self._block_entities(block, sdoc)
        text, rows, doc_id = doc_text(sdoc), token_rows(sdoc), block.state.doc.id
        with paused_gc():
            return [span_sentence(s, doc_id, block.start, self.source, text, rows)
                    for s in sentence_spans(sdoc)]

    @staticmethod
    def _add_block(block: _Block, sdoc: Any, sents: list[Sentence]) -> None:
        state = block.state
        state.sentences += [s for s in sents if s.tokens]
        state.abbreviations += block.read_abbreviations(sdoc)

    @staticmethod
    def _ner_entities(doc: Document, sdoc: Any, base: int, first: int,
                      abbreviations: list[Abbreviation]) -> list[Entity]:
        """The NER's mentions of a block (``sdoc`` at offset ``base``), numbered from
        ``first``, completed in this order: the long forms of the block's ``abbreviations``
        (:func:`with_long_forms`) and genes' full names (:func:`with_full_names`); no
        disease names (:func:`names_a_disease`); the short forms of gene long forms
        (:func:`with_short_forms`); :func:`more_mentions`; the genes of Cre drivers and
        reporters (:func:`with_construct_genes`), each joined to a subunit mass after it
        (:func:`with_subunits`: ``IL-12 p40``); names written with Greek letters
        (:func:`with_greek_names`); names with their abbreviation inside
        (:func:`with_bracketed_names`: ``toll-like receptor (TLR)4``); without the mentions
        that name nothing and are something else (:func:`without_other_things`); last,
        names an en dash joins split apart (:func:`split_en_dashes`), and two names a hyphen
        joins (:func:`split_hyphen_joined`), tagged or not (:func:`joined_names_left_out`)."""
        from relx.parse.fast import doc_text

        text = doc_text(sdoc)   # Doc.text makes a Token per token: once, not per mention
        tagged = [span for span in (mention_span(x) for x in sdoc.ents
                                    if x.label_.upper() in NER_LABELS) if span[0] < span[1]]
        long_forms = [(a.short_text, a.long.start - base, a.long.end - base)
                      for a in abbreviations
                      if text[a.long.start - base:a.long.end - base] == a.long_text]
        spans = [(s, e) for s, e in with_full_names(text, with_long_forms(
            text, tagged, long_forms)) if not names_a_disease(text[s:e])]
        spans = with_short_forms(text, spans, [
            (a.short.start - base, a.short.end - base, a.long.start - base, a.long.end - base)
            for a in abbreviations])
        spans = with_bracketed_names(text, with_greek_names(text, with_construct_genes(
            text, with_subunits(text, [*spans, *more_mentions(
                text, spans, [(a.short_text, a.long_text) for a in abbreviations])]))))
        spans = joined_names_left_out(text, split_hyphen_joined(text, split_en_dashes(
            text, without_other_things(text, spans, [
                (a.short_text, a.long.start - base, a.long.end - base)
                for a in abbreviations]))))
        return short_form_mentions(doc, sdoc, [   # a paper's short forms: paper_mentions
            Entity(id=f"{doc.id}.e{first + k}", spans=[Span(start=base + s, end=base + e)],
                   type=mention_type(text[s:e]), text=text[s:e])
            for k, (s, e) in enumerate(spans)], base, first)

    @staticmethod
    def _document(state: _DocParse) -> Document:
        """The relx Document: non-empty sentences numbered in order, entities placed in the
        sentence holding their start, abbreviations of every block."""
        doc, sents = state.doc, state.sentences
        for i, s in enumerate(sents):
            s.id = f"{doc.id}.s{i}"
        starts = [s.start for s in sents]   # in text order, not overlapping
        for e in state.mentions():
            i = bisect_right(starts, e.start) - 1
            if i >= 0 and e.start < sents[i].end:
                sents[i].entities.append(e)
        return with_structure(doc, Document(id=doc.id, text=doc.text, sentences=sents,
                                            source=doc.source, orig_id=doc.orig_id,
                                            abbreviations=state.abbreviations))

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
                    sdoc = doc_from_text(self.nlp, sent.text, cuts)
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
            new = span_sentence(sdoc[:], sent.id, sent.start, self.source)
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
