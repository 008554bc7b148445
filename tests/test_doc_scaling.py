"""A document's cost grows linearly with its length, and per-document limits stop a runaway.

No test here is timed (speed lives in ``benchmarks/bench_scaling.py``): linearity is checked
on work counts -- the Python lines relx executes (``sys.settrace``) for an input of n and of
2n sentences, the text each spaCy call is given -- and on the parse's properties."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from relx.api import StreamingExtractor, as_documents
from relx.doc import (
    Abbreviation,
    Document,
    Entity,
    Event,
    Sentence,
    Span,
    StandoffDocument,
    TextBound,
    Token,
)
from relx.doc_limits import DocumentTimeout, DocumentTooLong
from relx.model_store import models_dir
from relx.parse.pipeline import Parser, _DocParse
from relx.parse.spacy_docs import sentence_docs, sentence_spans, text_blocks, token_rows

SAMPLES = Path(__file__).resolve().parents[1] / "corpora" / "abstracts"
needs_parser = pytest.mark.skipif(not (models_dir() / "relx_bio_sm" / "meta.json").exists(),
                                  reason="shipped parse pipeline missing")


def relx_lines(fn: Callable[..., Any], *args: Any) -> int:
    """Lines of relx's own code executed by ``fn(*args)`` (a comprehension's every
    iteration counts: CPython reports a line event on each backward jump)."""
    count = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        count += event == "line"
        return local

    def calls(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_globals.get("__name__", "").startswith("relx.") else None

    sys.settrace(calls)
    try:
        fn(*args)
    finally:
        sys.settrace(None)
    return count


def assert_linear(work: Callable[[int], int], n: int = 150) -> None:
    """``work(k)`` (a count for an input of k units) at most ~doubles from n to 2n units
    (a quadratic loop would ~quadruple it at these sizes)."""
    small, large = work(n), work(2 * n)
    assert large <= 2.15 * small, f"{small} -> {large} when the input doubles"


# --- synthetic documents: n sentences of three proteins and one abbreviation each -------------
def _sentence(doc_id: str, k: int, base: int) -> tuple[Sentence, list[Abbreviation]]:
    words = [f"P{k}a", "binds", f"P{k}b", "(", f"B{k}", ")", "."]
    toks, pos = [], base
    for i, w in enumerate(words):
        toks.append(Token(index=i, text=w, start=pos, end=pos + len(w)))
        pos += len(w) + 1
    ents = [Entity(id=f"{doc_id}.e{3 * k + j}", spans=[Span(start=toks[i].start,
                                                            end=toks[i].end)],
                   text=toks[i].text) for j, i in enumerate((0, 2, 4))]
    s = Sentence(id=f"{doc_id}.s{k}", start=base, end=pos - 1, text=" ".join(words),
                 tokens=toks, entities=ents)
    ab = Abbreviation(short=Span(start=toks[4].start, end=toks[4].end),
                      long=Span(start=toks[2].start, end=toks[2].end),
                      short_text=toks[4].text, long_text=toks[2].text)
    return s, [ab]


def synthetic_document(n: int, doc_id: str = "d") -> Document:
    sents, abbrevs, base = [], [], 0
    for k in range(n):
        s, ab = _sentence(doc_id, k, base)
        sents.append(s)
        abbrevs += ab
        base = s.end + 1
    return Document(id=doc_id, text="x" * base, sentences=sents, abbreviations=abbrevs)


# --- blocks -------------------------------------------------------------------------------------
def test_a_text_within_the_block_size_is_one_block() -> None:
    assert text_blocks("a b. c d.", 100) == [(0, 9)]
    assert text_blocks("", 100) == [(0, 0)]


def test_blocks_cover_the_text_and_cut_at_paragraphs_then_lines_then_sentences() -> None:
    paras = [f"Para {i}. " * 8 for i in range(40)]
    text = "\n\n".join(paras)
    blocks = text_blocks(text, 300)
    assert blocks[0][0] == 0 and blocks[-1][1] == len(text)
    assert all(a == b for (_, a), (b, _) in zip(blocks, blocks[1:], strict=False))
    assert all(b - a <= 300 + 2 for a, b in blocks)
    assert all(text[b - 2:b] == "\n\n" for _, b in blocks[:-1])   # after a paragraph break
    one_line = ("A sentence here. " * 100).strip()
    cuts = [b for _, b in text_blocks(one_line, 250)[:-1]]
    assert cuts and all(one_line[c - 2:c] == ". " for c in cuts)  # after a sentence's ". "
    no_space = "x" * 1000
    assert text_blocks(no_space, 300) == [(0, 300), (300, 600), (600, 900), (900, 1000)]


def test_blocks_never_cut_inside_a_given_mention() -> None:
    text = "\n\n".join(["word " * 50] * 10)
    free = text_blocks(text, 400)
    a, b = free[0][1] - 10, free[0][1] + 5       # a mention across the first cut
    kept = text_blocks(text, 400, [(a, b)])
    assert all(not a < cut < b for _, cut in kept[:-1])
    assert kept[-1][1] == len(text)


@pytest.fixture(scope="module")
def parser() -> Parser:
    p = Parser(block_chars=1_500)
    p.nlp  # noqa: B018 - load it
    return p


def _long_text(copies: int) -> str:
    samples = [p.read_text(encoding="utf-8").strip() for p in sorted(SAMPLES.glob("*.txt"))]
    return "\n\n".join(samples * copies)


@needs_parser
def test_a_long_text_goes_through_spacy_in_blocks_each_character_once(parser, monkeypatch
                                                                      ) -> None:
    import relx.parse.pipeline as pipeline

    seen: list[int] = []
    real = pipeline.doc_from_text
    monkeypatch.setattr(pipeline, "doc_from_text",
                        lambda nlp, text, cuts: seen.append(len(text)) or real(nlp, text, cuts))
    text = _long_text(4)
    doc = next(parser.parse_documents([Document(id="long", text=text)], min_entities=2))
    assert len(seen) > 4 and max(seen) <= parser.block_chars + 2
    assert sum(seen) == len(text)                  # every character parsed once
    # the document reads as if parsed whole: sentences in order inside the text, mentions
    # in their sentences, numbered in text order
    assert [s.id for s in doc.sentences] == [f"long.s{i}" for i in range(len(doc.sentences))]
    assert all(text[s.start:s.end] == s.text for s in doc.sentences)
    assert all(a.end <= b.start for a, b in zip(doc.sentences, doc.sentences[1:], strict=False))
    ents = [e for s in doc.sentences for e in s.entities]
    assert [e.id for e in ents] == [f"long.e{i}" for i in range(len(ents))]
    assert all(s.start <= e.start < s.end for s in doc.sentences for e in s.entities)
    assert all(text[e.start:e.end] == e.text for e in ents)
    assert doc.abbreviations and all(text[a.short.start:a.short.end] == a.short_text
                                     for a in doc.abbreviations)


@needs_parser
def test_a_long_text_parses_as_its_blocks_would_alone(parser) -> None:
    """The blocks' sentences, tokens, tags and mentions, shifted by the blocks' offsets."""
    text = _long_text(2)
    blocks = text_blocks(text, parser.block_chars)
    assert len(blocks) > 2
    whole = next(parser.parse_documents([Document(id="x", text=text)], min_entities=2))
    alone = list(parser.parse_documents([Document(id="x", text=text[a:b]) for a, b in blocks],
                                        min_entities=2))

    def shape(doc: Document, base: int) -> list[tuple]:
        return [(s.start + base, s.text, [(t.start + base, t.text, t.pos, t.lemma)
                                          for t in s.tokens],
                 [(e.start + base, e.text) for e in s.entities]) for s in doc.sentences]

    assert shape(whole, 0) == [x for d, (a, _) in zip(alone, blocks, strict=True)
                               for x in shape(d, a)]


@needs_parser
def test_sentence_docs_copy_like_as_doc_and_convert_the_document_once(parser) -> None:
    from spacy.attrs import SENT_START

    nlp = parser.nlp
    syntax = parser._syntax_pipes()
    sdoc = next(nlp.pipe([_long_text(1)], disable=sorted({*parser._disabled(ner=True),
                                                          *syntax})))
    spans = sentence_spans(sdoc)

    class Counting:   # the spaCy Doc, counting whole-document array conversions
        def __init__(self, doc: Any) -> None:
            self.doc, self.arrays = doc, 0

        def to_array(self, attrs: Any) -> Any:
            self.arrays += 1
            return self.doc.to_array(attrs)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.doc, name)

    counting = Counting(sdoc)
    ours = sentence_docs(counting, spans)
    assert counting.arrays == 1
    theirs = []
    for sp in spans:
        one = sp.as_doc()
        flags = np.full(len(one), -1, dtype=np.int64)
        flags[0] = 1
        one.from_array([SENT_START], flags.astype(np.uint64).reshape(-1, 1))
        theirs.append(one)
    later = sorted(set(nlp.pipe_names) - set(syntax))
    for a, b in zip(nlp.pipe(ours, disable=later), nlp.pipe(theirs, disable=later),
                    strict=True):
        assert a.text == b.text and token_rows(a) == token_rows(b)


# --- linear work per document -------------------------------------------------------------------
def test_placing_mentions_in_sentences_is_linear() -> None:
    def work(n: int) -> int:
        doc = synthetic_document(n)
        ents = [e for s in doc.sentences for e in s.entities]
        sents = [s.model_copy(update={"entities": []}) for s in doc.sentences]
        state = _DocParse(doc.model_copy(update={"sentences": []}), ents, False,
                          sentences=sents)
        lines = relx_lines(Parser._document, state)
        assert [e.id for s in sents for e in s.entities] == [e.id for e in ents]
        return lines

    assert_linear(work)


class _Scores:
    """A stand-in pair model: every pair scores 0."""

    name, version = "stub", "0"

    def scores(self, inst: list, in_domain: bool = False) -> np.ndarray:
        return np.zeros(len(inst))

    def scores_above(self, inst: list, below: float) -> np.ndarray:
        return self.scores(inst)


class _GivenParses:
    def parse_documents(self, docs: list[Document], **_: Any) -> Any:
        return iter(docs)


def _bare_extractor() -> Any:
    """The relation extractor's own loops around stand-ins for the parser and the model
    (built by its ``__init__``, which loads nothing else here)."""
    import relx.ppi.extract as extract

    class Model(_Scores):
        threshold = in_domain_threshold = 0.5

        def sequential(self) -> Model:
            return self

    saved = (extract.resolve_model, extract.load_hedging, extract.model_calibration)
    extract.resolve_model = lambda model: Model()
    extract.load_hedging = lambda: None
    extract.model_calibration = lambda model, in_domain=False: None
    try:
        ex = extract.Extractor(Model(), ground=False, max_doc_chars=None,
                               max_doc_seconds=None)
    finally:
        extract.resolve_model, extract.load_hedging, extract.model_calibration = saved
    ex.parser = _GivenParses()
    return ex


def test_pairing_and_scoring_a_document_is_linear() -> None:
    """Candidate pairs leave out a long form paired with its abbreviation: the document's
    abbreviations are read once, not once per sentence."""
    ex = _bare_extractor()

    def work(n: int) -> int:
        doc = synthetic_document(n)
        out: list = []
        lines = relx_lines(lambda: out.extend(ex._annotate([doc])))
        assert out[0][2] == 2 * n        # P-a with P-b and with B; not P-b with its B
        return lines

    assert_linear(work)


class _Reported(_Scores):
    """A stand-in pair model that reports every pair."""

    def scores(self, inst: list, in_domain: bool = False) -> np.ndarray:
        return np.full(len(inst), 0.9)


def test_judging_reported_pairs_for_one_gene_is_linear() -> None:
    """Whether two mentions name one gene compares them with the document's abbreviations:
    read once per document, not once per reported pair."""
    ex = _bare_extractor()
    ex.model, ex.same_gene_pairs = _Reported(), True
    list(ex._annotate([synthetic_document(200)]))   # lexicons loaded, names cached

    def work(n: int) -> int:
        doc = synthetic_document(n)
        out: list = []
        lines = relx_lines(lambda: out.extend(ex._annotate([doc])))
        found = out[0][1]
        assert len(found) == 2 * n     # every pair judged (none names one gene twice)
        return lines

    assert_linear(work, n=100)


def test_document_context_features_are_linear() -> None:
    from relx.ppi.extract import candidate_pairs
    from relx.represent.instances import PairInstance
    from relx.represent.pair_features import document_context_features

    def work(n: int) -> int:
        doc = synthetic_document(n)
        X = [PairInstance(doc.id, s, r) for s in doc.sentences for r in candidate_pairs(s)]
        out: list = []
        lines = relx_lines(lambda: out.extend(document_context_features(X)))
        assert out[0] == {"doc_cooc=1": 1.0}
        return lines

    assert_linear(work)


def test_document_context_counts_sentences_with_both_names() -> None:
    from relx.ppi.extract import candidate_pairs
    from relx.represent.instances import PairInstance
    from relx.represent.pair_features import document_context_features

    doc = synthetic_document(3)
    for s in doc.sentences:   # the same three names in every sentence
        for e, name in zip(s.entities, ("JAK1", "STAT5", "SOCS3"), strict=True):
            e.text = name
    X = [PairInstance(doc.id, s, r) for s in doc.sentences for r in candidate_pairs(s)]
    X += [PairInstance("other", doc.sentences[0], r) for r in candidate_pairs(doc.sentences[0])]
    feats = document_context_features(X)
    assert feats[:9] == [{"doc_cooc=3+": 1.0}] * 9 and feats[9:] == [{"doc_cooc=1": 1.0}] * 3


def test_event_records_find_their_sentences_in_linear_work() -> None:
    from relx.ge.extract import events_out

    def work(n: int) -> int:
        parsed = synthetic_document(n)
        tbs = [TextBound(id=f"T{k + 1}", type="Protein", spans=s.entities[0].spans,
                         text=s.entities[0].text) for k, s in enumerate(parsed.sentences)]
        trig = [TextBound(id=f"T{n + k + 1}", type="Binding", spans=s.entities[1].spans,
                          text=s.entities[1].text) for k, s in enumerate(parsed.sentences)]
        evs = [Event(id=f"E{k + 1}", type="Binding", trigger=t.id, arguments=[("Theme", p.id)])
               for k, (t, p) in enumerate(zip(trig, tbs, strict=True))]
        pred = StandoffDocument(id="d", text=parsed.text, proteins=tbs, triggers=trig,
                                events=evs)
        out: list = []
        lines = relx_lines(lambda: out.extend(events_out(pred, parsed, "m", "1")))
        assert [e.sentence_id for e in out] == [s.id for s in parsed.sentences]
        return lines

    assert_linear(work)


# --- limits -------------------------------------------------------------------------------------
class _Echo(StreamingExtractor):
    """A task that finds one result per document: its id."""

    batch_docs = 3

    def _annotate(self, docs: list[Document]) -> Any:
        for d in docs:
            yield d, [d.id], 0


def test_a_document_over_max_doc_chars_is_refused_after_the_ones_before_it() -> None:
    ex = _Echo()
    ex.max_doc_chars = 10
    docs = [("a", "short"), ("b", "short too"), ("c", "far too long a text"), ("d", "ok")]
    got = []
    with pytest.raises(DocumentTooLong) as info:
        for _, found, _ in ex.annotate(as_documents(docs)):
            got += found
    assert got == ["a", "b"]
    err = info.value
    assert (err.document, err.limit, err.value) == ("c", "max_doc_chars", 10)
    assert "max_doc_chars" in str(err) and "document c" in str(err)
    assert isinstance(err, ValueError)
    ex.max_doc_chars = None
    assert ex.extract(docs) == ["a", "b", "c", "d"]


class _Slow(_Echo):
    """Runs out of time on any batch holding the document ``slow`` (as the clock would)."""

    def _annotate(self, docs: list[Document]) -> Any:
        if any(d.id == "slow" for d in docs):
            raise DocumentTimeout("slow", "max_doc_seconds", 1, "parse", "took too long")
        yield from super()._annotate(docs)


def test_with_on_error_a_capped_document_costs_only_itself() -> None:
    """pipe/extract with ``on_error``: the document over a limit is reported and gets [];
    the documents after it, in its batch and later ones, are all there."""
    ex = _Slow()
    ex.max_doc_chars = 10
    docs = [("a", "short"), ("c", "far too long a text"), ("slow", "short"), ("b", "ok"),
            ("d", "ok"), ("e", "ok"), ("slow", "ok"), ("f", "ok")]
    errors: list = []
    assert list(ex.pipe(docs, on_error=errors.append)) == [
        ["a"], [], [], ["b"], ["d"], ["e"], [], ["f"]]
    assert [(e.document, e.limit) for e in errors] == [
        ("c", "max_doc_chars"), ("slow", "max_doc_seconds"), ("slow", "max_doc_seconds")]
    errors.clear()
    assert ex.extract(docs, on_error=errors.append) == ["a", "b", "d", "e", "f"]
    assert len(errors) == 3
    with pytest.raises(DocumentTooLong):      # without on_error: raised, as before
        ex.extract(docs)


def test_limit_errors_cross_processes() -> None:
    import pickle

    for err in (DocumentTimeout("d1", "max_doc_seconds", 2.5, "typing", "took 3 s"),
                DocumentTooLong("d2", "max_doc_chars", 10, "read", "20 characters")):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err)
        assert (back.document, back.limit, back.value, back.stage) == \
            (err.document, err.limit, err.value, err.stage)


@needs_parser
def test_a_long_parse_over_max_seconds_stops_between_blocks(parser) -> None:
    doc = Document(id="slow", text=_long_text(3))
    with pytest.raises(DocumentTimeout) as info:
        list(parser.parse_documents([doc], min_entities=2, max_seconds=0))
    assert (info.value.document, info.value.limit, info.value.stage) == \
        ("slow", "max_doc_seconds", "parse")
    # one block: nothing to stop between; the extractor checks after its stages
    assert list(parser.parse_documents([Document(id="s", text="JAK1 binds STAT5.")],
                                       max_seconds=0))


def test_extractor_checks_the_time_after_scoring() -> None:
    ex = _bare_extractor()
    ex.max_doc_seconds = 0
    with pytest.raises(DocumentTimeout) as info:
        list(ex._annotate([synthetic_document(3, "late")]))
    assert (info.value.document, info.value.stage) == ("late", "pair scoring")


class _ContextScores:
    """A stand-in pair model whose score reads the document-context feature (as the
    shipped model's features do) and remembers how many pairs each call scored."""

    name, version = "stub", "0"

    def __init__(self) -> None:
        self.calls: list[int] = []

    def scores(self, inst: list, in_domain: bool = False) -> np.ndarray:
        from relx.represent.pair_features import document_context_features

        self.calls.append(len(inst))
        ctx = document_context_features(inst)
        return np.array([0.9 if "doc_cooc=3+" in c else 0.1 for c in ctx])

    def scores_above(self, inst: list, below: float) -> np.ndarray:
        return self.scores(inst)


def test_a_long_document_is_scored_in_windows_with_its_whole_context(monkeypatch) -> None:
    """Memory bounded: no scoring call gets more than ``SCORE_WINDOW`` pairs, and the
    records equal those of scoring the document at once."""
    import relx.ppi.extract as extract

    def run(window: int) -> tuple[list, list[int]]:
        monkeypatch.setattr(extract, "SCORE_WINDOW", window)
        ex = _bare_extractor()
        ex.model = _ContextScores()
        doc = synthetic_document(40)
        for s in doc.sentences:   # three names shared by every sentence: doc_cooc=3+
            for e, name in zip(s.entities, ("JAK1", "STAT5", "SOCS3"), strict=True):
                e.text = name
        ((_, found, n),) = list(ex._annotate([doc]))
        return [r.model_dump() for r in found] + [n], ex.model.calls

    whole, calls = run(10_000)
    assert calls == [80]
    windowed, calls = run(3)   # one sentence a window: alone, its context would be 1
    assert max(calls) <= 3 and sum(calls) == 80
    assert windowed == whole and len(whole) == 81   # every pair kept: context was whole


@needs_parser
@pytest.mark.parametrize("min_entities", [0, 2])
def test_spacy_batches_of_a_long_text_are_bounded_in_characters(parser, monkeypatch,
                                                                min_entities) -> None:
    """Memory bounded: spaCy's batches of blocks hold at most ``PIPE_CHARS`` characters
    (past their first block), and the parse is the one of unbounded batches."""
    import relx.parse.pipeline as pipeline

    text = _long_text(4)

    def run(limit: int) -> tuple[list, list[int]]:
        monkeypatch.setattr(pipeline, "PIPE_CHARS", limit)
        batches: list[int] = []
        real = pipeline._bounded_chunks

        def recorded(items, n, max_chars):
            for chunk in real(items, n, max_chars):
                if max_chars == limit:
                    batches.append(sum(b.chars for _, b in chunk))
                yield chunk

        monkeypatch.setattr(pipeline, "_bounded_chunks", recorded)
        doc = next(parser.parse_documents([Document(id="x", text=text)],
                                          min_entities=min_entities))
        monkeypatch.setattr(pipeline, "_bounded_chunks", real)
        return [(s.text, [(t.text, t.pos, t.lemma) for t in s.tokens],
                 [d.model_dump() for d in s.dependencies], [e.text for e in s.entities])
                for s in doc.sentences], batches

    whole, batches = run(10 ** 9)
    assert len(batches) == 1
    bounded, batches = run(2 * parser.block_chars)
    assert len(batches) > 2 and max(batches) <= 2 * parser.block_chars
    assert sum(batches) == len(text)               # every block in one batch
    assert bounded == whole


def test_event_prediction_rounds_are_bounded_in_tokens() -> None:
    from relx.ge.pipeline import _rounds

    class View:
        def __init__(self, n: int) -> None:
            self.tokens = [None] * n

    views = [View(n) for n in (5, 5, 5, 30, 5, 5)]
    assert _rounds(views, 10) == [(0, 2), (2, 3), (3, 4), (4, 6)]   # 30 alone
    assert _rounds(views, 1000) == [(0, 6)]
    assert _rounds([], 10) == []


@pytest.mark.slow
@needs_parser
def test_a_long_document_s_events_are_predicted_in_rounds() -> None:
    """Memory bounded: sentences go through the event model ``predict_tokens`` at a time;
    each sentence's events are its own (the same events; a score may move in the third
    decimal where a hash bit of the kernel features sits on a rounding edge)."""
    from relx.ge.extract import EventExtractor
    from relx.ge.pipeline import GEExtractor

    assert GEExtractor.predict_tokens == 20_000
    text = _long_text(1)
    ex = EventExtractor()

    def events(tokens: int) -> list[tuple]:
        ex.model.predict_tokens = tokens
        try:
            ((_, found, _),) = list(ex.annotate([Document(id="x", text=text)]))
        finally:
            del ex.model.predict_tokens   # back to the class default
        return [(e.type, e.trigger.start, tuple((a.role, a.id) for a in e.arguments),
                 e.score) for e in found]

    whole, rounds = events(10 ** 9), events(60)
    assert len(whole) > 5
    assert [e[:3] for e in rounds] == [e[:3] for e in whole]
    assert max(abs(a[3] - b[3]) for a, b in zip(rounds, whole, strict=True)) < 0.01


def test_batches_and_bounded_batches() -> None:
    from relx.doc_limits import batches, bounded_batches

    assert list(batches(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(batches([], 3)) == []
    sizes = [5, 1, 1, 9, 2]
    assert list(bounded_batches(range(5), 3, 6, sizes.__getitem__)) == [[0, 1], [2], [3], [4]]
