"""The raw-text parse stage with the shipped pipeline (models/relx_bio_sm)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import FIXTURES, SHARED
from typer.testing import CliRunner

from relx.app.cli import app
from relx.doc import Document, Entity, Relation, Sentence, Span
from relx.io.conllu import write_conllu
from relx.model_store import models_dir
from relx.parse.pipeline import Parser
from relx.parse.spacy_docs import split_at
from relx.structures import dependency_graph, shortest_path

pytest.importorskip("spacy")
if not (models_dir() / "relx_bio_sm" / "meta.json").exists():
    pytest.skip("shipped pipeline models/relx_bio_sm missing", allow_module_level=True)

TEXT = ("Interleukin-2 (IL-2) binds to the IL-2 receptor alpha chain. "
        "STAT5 is phosphorylated by JAK1 and JAK3 in activated T cells.")


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser()


def _deps(sent: Sentence) -> set[tuple[str, str, str]]:
    return {(sent.tokens[d.head].text, d.label, sent.tokens[d.dependent].text)
            for d in sent.dependencies}


def test_meta_is_versioned() -> None:
    meta = json.loads((models_dir() / "relx_bio_sm" / "meta.json").read_text())
    assert meta["name"] == "relx_bio_sm" and meta["version"].count(".") == 2
    assert {"tagger", "parser", "pysbd_sentencizer", "abbreviation_detector"} <= set(
        meta["pipeline"])


def test_parse_text_sentences_tokens_and_tree(parser: Parser) -> None:
    doc = parser.parse_text(TEXT, "d1")
    assert [s.text for s in doc.sentences] == [
        "Interleukin-2 (IL-2) binds to the IL-2 receptor alpha chain.",
        "STAT5 is phosphorylated by JAK1 and JAK3 in activated T cells."]
    for s in doc.sentences:
        assert s.parse_source.startswith("en_relx_bio_sm")
        for t in s.tokens:  # offsets are document offsets, end-exclusive
            assert doc.text[t.start:t.end] == t.text
        # a tree: every token but the root has exactly one head
        dependents = [d.dependent for d in s.dependencies]
        assert len(dependents) == len(set(dependents)) == len(s.tokens) - 1
    s2 = doc.sentences[1]
    assert [t.pos for t in s2.tokens[:4]] == ["NN", "VBZ", "VBN", "IN"]
    assert s2.tokens[2].lemma == "phosphorylate"
    assert ("phosphorylated", "nsubjpass", "STAT5") in _deps(s2)
    assert ("phosphorylated", "agent", "by") in _deps(s2)
    assert ("by", "pobj", "JAK1") in _deps(s2) and ("JAK1", "conj", "JAK3") in _deps(s2)


def test_abbreviations(parser: Parser) -> None:
    doc = parser.parse_text(TEXT, "d1")
    pairs = {(a.short_text, a.long_text) for a in doc.abbreviations}
    assert ("IL-2", "Interleukin-2") in pairs
    for a in doc.abbreviations:
        assert doc.text[a.short.start:a.short.end] == a.short_text
        assert doc.text[a.long.start:a.long.end] == a.long_text


def test_given_entities_split_tokens_and_shortest_path(parser: Parser) -> None:
    text = "The IL-2/IL-2R complex activates STAT5."
    ents = [Entity(id="e1", spans=[Span(start=4, end=8)], text="IL-2"),
            Entity(id="e2", spans=[Span(start=9, end=14)], text="IL-2R"),
            Entity(id="e3", spans=[Span(start=33, end=38)], text="STAT5")]
    doc = Document(id="d", text=text, sentences=[
        Sentence(id="d.s0", start=0, end=len(text), text=text, entities=ents)])
    out = next(parser.parse_documents([doc]))
    s = out.sentences[0]
    assert [e.id for e in s.entities] == ["e1", "e2", "e3"]
    words = [t.text for t in s.tokens]
    assert "IL-2" in words and "IL-2R" in words  # "IL-2/IL-2R" split at the entity edges
    path = shortest_path(s, ents[0], ents[2], dependency_graph(s))
    assert path[0][1] == "PROT1" and path[-1][1] == "PROT2" and len(path) >= 2


def test_a_sentence_final_full_stop_is_not_part_of_a_mention(parser: Parser) -> None:
    # the tokenizer keeps "NF-kappaB." whole (no suffix rule after a lower-upper pair)
    text = "TNF activates NF-kappaB. Then IkappaB binds p65."
    doc = next(iter(parser.parse_documents([Document(id="d", text=text)])))
    names = {e.text: (e.spans[0].start, e.spans[0].end) for s in doc.sentences
             for e in s.entities}
    assert names["NF-kappaB"] == (14, 23) and "NF-kappaB." not in names
    assert all(text[a:b] == name for name, (a, b) in names.items())
    assert {"TNF", "IkappaB", "p65"} <= set(names)


def test_a_mention_does_not_take_the_blank_line_after_a_title(parser: Parser) -> None:
    # the tagger ended IRS2 on the whitespace token "\n\n" that follows the title
    text = ("Glucagon-like peptide-1 receptor agonism protects pancreatic beta cells via CREB "
            "and IRS2\n\nType 2 diabetes is characterised by beta-cell failure. CREB bound "
            "the promoter of insulin receptor substrate 2 (IRS2).")
    doc = next(iter(parser.parse_documents([Document(id="d", text=text)])))
    ents = [e for s in doc.sentences for e in s.entities]
    assert ents and all(e.text == e.text.strip() for e in ents)
    assert all(text[e.spans[0].start:e.spans[0].end] == e.text for e in ents)
    assert ("IRS2", 85, 89) in {(e.text, e.spans[0].start, e.spans[0].end) for e in ents}


def test_mention_span_strips_whitespace_and_a_final_full_stop() -> None:
    from types import SimpleNamespace

    from relx.parse.paper_mentions import mention_span

    def span(text: str, start: int = 10) -> SimpleNamespace:
        return SimpleNamespace(text=text, start_char=start, end_char=start + len(text))

    assert mention_span(span("IRS2\n\n")) == (10, 14)
    assert mention_span(span("\nIRS2")) == (11, 15)
    assert mention_span(span("NF-kappaB.\n")) == (10, 19)
    assert mention_span(span("p65")) == (10, 13)
    assert mention_span(span("\n\n")) == (10, 10)


def test_split_at() -> None:
    assert split_at([(0, 10), (11, 13)], {4, 5, 11, 20}) == [(0, 4), (4, 5), (5, 10), (11, 13)]


def test_reparse_keeps_corpus_annotations(parser: Parser, mini_xml: Path) -> None:
    from relx.io import read_ppi_xml

    docs = list(read_ppi_xml(mini_xml))
    again = list(parser.reparse_sentences(docs))
    assert [d.id for d in again] == [d.id for d in docs]
    for d0, d1 in zip(docs, again, strict=True):
        for s0, s1 in zip(d0.sentences, d1.sentences, strict=True):
            assert (s1.id, s1.text, s1.entities, s1.relations) == (
                s0.id, s0.text, s0.entities, s0.relations)
            assert s1.parse_source.startswith("en_relx_bio_sm") and s1.tokens
            for t in s1.tokens:
                assert d1.text[t.start:t.end] == t.text


def test_reparse_keeps_documents_without_sentences(parser: Parser) -> None:
    docs = [Document(id="empty", text=""), Document(id="x", text="A b.", sentences=[
        Sentence(id="x.s0", start=0, end=4, text="A b.",
                 relations=[Relation(id="r", arg1="a", arg2="b")])])]
    assert [d.id for d in parser.reparse_sentences(docs)] == ["empty", "x"]


def test_conllu_writer(parser: Parser) -> None:
    buf = io.StringIO()
    write_conllu(parser.parse_text(TEXT, "d1"), buf)
    blocks = [b for b in buf.getvalue().split("\n\n") if b.strip()]
    assert len(blocks) == 2 and blocks[0].startswith("# newdoc id = d1\n# sent_id = d1.s0")
    rows = [r.split("\t") for r in blocks[1].splitlines() if not r.startswith("#")]
    assert all(len(r) == 10 for r in rows)
    assert sum(r[6] == "0" for r in rows) == 1  # one root
    assert rows[0][1] == "STAT5" and rows[0][7] == "nsubjpass"


@pytest.mark.slow
def test_parse_command(tmp_path: Path) -> None:
    src = tmp_path / "abstract.txt"
    src.write_text(TEXT + "\n")
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(app, ["parse", str(src), "--format", "jsonl", "--out", str(out)])
    assert r.exit_code == 0, r.output
    doc = Document.model_validate_json(out.read_text().splitlines()[0])
    assert len(doc.sentences) == 2 and doc.sentences[1].dependencies
    r = CliRunner().invoke(app, ["parse", str(src)])
    assert r.exit_code == 0 and "\tnsubjpass\t" in r.output


def test_parser_evaluate_command() -> None:
    r = CliRunner().invoke(app, ["parser", "evaluate", "--conllu",
                                 str(FIXTURES / "tb-craft.conllu"), "--json"])
    assert r.exit_code == 0, r.output
    res = json.loads(r.output)
    assert set(res) >= {"uas", "las", "pos_acc", "sentences", "tokens"}
    assert res["sentences"] >= 1 and 0.5 < res["uas"] <= 1 and res["las"] <= res["uas"]


@pytest.mark.slow
def test_genia_dev_scores() -> None:
    """The shipped parser on GENIA dev (never trained on), converted to CRAFT labels."""
    from relx.parse.evaluate_parser import evaluate_conllu
    from relx.parse.pipeline import load_nlp

    dev = SHARED / "treebanks" / "genia" / "stanford_basic" / "dev.conllu.stanford"
    if not dev.exists():
        pytest.skip("GENIA treebank not available")
    res = evaluate_conllu(load_nlp(), dev)
    assert res["sentences"] > 1000
    # floors well below the measured scores (see docs/results.md), so a broken model fails
    assert res["pos_acc"] > 0.95 and res["uas"] > 0.84 and res["las"] > 0.81


def test_parse_only_sentences_with_entities() -> None:
    """min_entities: sentences with fewer mentions keep tokens but get no parse; the others
    are parsed on their own (single rooted tree); entities and sentences are unchanged."""
    from relx.parse.pipeline import Parser

    text = ("STAT5 is phosphorylated by JAK1 in T cells. The cells were grown overnight. "
            "IL-2 binds the IL-2 receptor.")
    parser = Parser()
    full = parser.parse_text(text)
    sel = next(parser.parse_documents([Document(id="doc", text=text)], min_entities=2))
    assert [(s.start, s.end) for s in sel.sentences] == [(s.start, s.end) for s in full.sentences]
    assert [[e.text for e in s.entities] for s in sel.sentences] == \
        [[e.text for e in s.entities] for s in full.sentences]
    for s, f in zip(sel.sentences, full.sentences, strict=True):
        assert [t.text for t in s.tokens] == [t.text for t in f.tokens]
        assert all(text[t.start:t.end] == t.text for t in s.tokens)
        if len(s.entities) >= 2:
            assert len(s.dependencies) == len(s.tokens) - 1  # one tree over the sentence
            assert all(t.pos for t in s.tokens)
        else:
            assert not s.dependencies and not any(t.pos for t in s.tokens)
    assert sum(len(s.entities) >= 2 for s in sel.sentences) >= 1
    assert any(len(s.entities) < 2 for s in sel.sentences)


def test_trusted_models_equal_validated_ones() -> None:
    """Token.trusted / Dependency.trusted (the parser's unvalidated constructors) build the
    same objects as validation does."""
    from relx.doc import Dependency, Token

    values = {"index": 0, "text": "IL-2", "start": 4, "end": 8, "pos": "NN", "lemma": "il-2"}
    tok = Token.trusted(**values)
    assert tok == Token(**values) and tok.model_dump() == values
    assert tok.model_fields_set == set(values) == set(Token.model_fields)
    assert Token.model_validate_json(tok.model_dump_json()) == tok
    assert tok.model_copy(update={"pos": "NNP"}).pos == "NNP" and tok.pos == "NN"
    dep = Dependency.trusted(1, 0, "nsubj")
    assert dep == Dependency(head=1, dependent=0, label="nsubj")
    assert dep.model_fields_set == set(Dependency.model_fields)


def test_a_disease_name_is_not_a_gene_mention() -> None:
    from relx.parse.paper_mentions import names_a_disease

    assert names_a_disease("Cerebrotendinous xanthomatosis")
    assert names_a_disease("von Willebrand disease") and names_a_disease("gliomas")
    assert not names_a_disease("FXI-deficiency")   # a gene with a word around it
    assert not names_a_disease("CYP27A1") and not names_a_disease("sterol 27-hydroxylase")
    assert not names_a_disease("tuberous sclerosis 1") and not names_a_disease("")


def test_the_long_form_of_a_disease_is_not_a_gene_mention(parser: Parser) -> None:
    # NCBI lists the disease's name and CTX among CYP27A1's synonyms
    text = ("Cerebrotendinous xanthomatosis (CTX) is caused by deficiency of sterol "
            "27-hydroxylase, encoded by CYP27A1.")
    doc = next(iter(parser.parse_documents([Document(id="d", text=text)])))
    names = [e.text for s in doc.sentences for e in s.entities]
    assert "CYP27A1" in names and not any("xanthomatosis" in n for n in names)
