from __future__ import annotations

import gzip

import pytest

from relx.io import ReaderError, read_jsonl, read_ppi_xml, write_jsonl
from tests.conftest import corpus_file


def test_mini_reader_offsets_are_end_exclusive_and_document_level(mini_xml):
    docs = list(read_ppi_xml(mini_xml))
    assert [d.id for d in docs] == ["mini.d0", "mini.d1"]
    d0 = docs[0]
    s1 = d0.sentences[1]
    assert s1.start == len(d0.sentences[0].text) + 1
    assert d0.text[s1.start:s1.end] == s1.text
    for d in docs:
        for s in d.sentences:
            for e in s.entities:
                if len(e.spans) == 1:
                    assert d.text[e.start:e.end] == e.text
            for t in s.tokens:
                assert d.text[t.start:t.end] == t.text
    il6 = docs[1].sentences[0].entity("mini.d1.s0.e2")
    assert [docs[1].text[s.start:s.end] for s in il6.spans] == ["IL-6", "receptor"]


def test_mini_reader_pairs_labels_parse(mini_xml):
    docs = list(read_ppi_xml(mini_xml))
    rels = [r for d in docs for _, r in d.relations()]
    assert len(rels) == 7 and sum(r.label for r in rels) == 2
    s = docs[0].sentences[0]
    assert s.parse_source == "corpus:split_parse"
    assert [(d.head, d.dependent, d.label) for d in s.dependencies] == [
        (1, 0, "nsubj"), (1, 2, "dobj"), (1, 4, "prep_in")]
    assert s.tokens[1].lemma == "bind"


def test_jsonl_round_trip(tmp_path, mini_xml):
    docs = list(read_ppi_xml(mini_xml))
    out = tmp_path / "mini.jsonl"
    assert write_jsonl(docs, out) == 2
    assert list(read_jsonl(out)) == docs


def test_jsonl_bad_line_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "text": ""}\n{"id": 3}\n')
    with pytest.raises(ReaderError, match=r"bad\.jsonl: line 2"):
        list(read_jsonl(bad))


@pytest.mark.parametrize("mutation, where", [
    (('charOffset="12-16"', 'charOffset="12-99"'), "mini.d0.s0.e1"),
    (('e2="mini.d0.s0.e1" id="mini.d0.s0.p0"', 'e2="nope" id="mini.d0.s0.p0"'), "mini.d0.s0.p0"),
    (('interaction="True"', 'interaction="maybe"'), "mini.d0.s0.p0"),
    (('t2="st_3" type="dobj"', 't2="st_99" type="dobj"'), "mini.d0.s0 dependency split_2"),
    (("</corpus>", ""), "line"),
])
def test_malformed_input_names_file_and_element(tmp_path, mini_xml, mutation, where):
    text = mini_xml.read_text().replace(*mutation, 1)
    bad = tmp_path / "bad.xml"
    bad.write_text(text)
    with pytest.raises(ReaderError) as info:
        list(read_ppi_xml(bad))
    assert str(bad) in str(info.value) and where in str(info.value)


@pytest.mark.parametrize("entity", [
    '<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">',
    '<!ENTITY b SYSTEM "file:///etc/passwd">',
])
def test_entities_are_never_expanded(tmp_path, entity):
    bomb = tmp_path / "bomb.xml"
    bomb.write_text(
        f'<?xml version="1.0"?>\n<!DOCTYPE corpus [{entity}]>\n'
        '<corpus source="x"><document id="d0"><sentence id="d0.s0" text="x &b; y"/>'
        '</document></corpus>')
    try:
        text = list(read_ppi_xml(bomb))[0].sentences[0].text
    except ReaderError as exc:  # refusing the file is fine too, if it says where
        assert "bomb.xml: line" in str(exc)
    else:
        assert "AAAAAAAAAA" not in text and "root:" not in text


def test_gzip_and_unknown_parse(tmp_path, mini_xml):
    gz = tmp_path / "mini.xml.gz"
    with gzip.open(gz, "wb") as fh:
        fh.write(mini_xml.read_bytes())
    assert len(list(read_ppi_xml(gz))) == 2
    with pytest.raises(ValueError, match="unknown parse"):
        list(read_ppi_xml(gz, parse="stanford"))


@pytest.mark.parametrize("name, docs, sentences, pairs, positives", [
    ("AIMed", 225, 1955, 5834, 1000),
    ("BioInfer", 836, 1100, 9666, 2534),
    ("IEPA", 200, 486, 817, 335),
])
@pytest.mark.slow
def test_real_corpus_counts(name, docs, sentences, pairs, positives):
    path = corpus_file(name)
    corpus = list(read_ppi_xml(path))
    rels = [r for d in corpus for _, r in d.relations()]
    assert len(corpus) == docs
    assert sum(len(d.sentences) for d in corpus) == sentences
    assert (len(rels), sum(r.label for r in rels)) == (pairs, positives)
    for d in corpus[:50]:
        for s in d.sentences:
            assert s.tokens and d.text[s.start:s.end] == s.text
            for e in s.entities:
                assert all(d.text[sp.start:sp.end] for sp in e.spans)
