"""One bad document costs only itself: every reader, given a file of a good, a bad and a
good document, reads both good ones and reports the bad one to ``on_error`` by its id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relx.doc import Document, Entity, Sentence, Span
from relx.io.bioc import read_bioc, read_bioc_json
from relx.io.errors import ReaderError
from relx.io.jsonl import read_jsonl
from relx.io.plaintext import read_plaintext
from relx.io.pubmed import read_pubmed
from relx.io.pubtator import read_pubtator
from relx.io.standoff import read_standoff, read_standoff_file


def _read(reader, path: Path, **options) -> tuple[list[str], list[ReaderError]]:
    """(ids read, errors reported) of ``reader`` on ``path`` with an ``on_error``."""
    errors: list[ReaderError] = []
    ids = [d.id for d in reader(path, on_error=errors.append, **options)]
    return ids, errors


def _reported(errors: list[ReaderError], doc_id: str, *says: str) -> None:
    assert [e.document for e in errors] == [doc_id], [str(e) for e in errors]
    assert all(s in str(errors[0]) for s in says), str(errors[0])


# --- BioC JSON ----------------------------------------------------------------------------
def _bioc_json_doc(doc_id: str, text: object = "JAK1 binds STAT5.") -> dict:
    return {"id": doc_id, "passages": [{"offset": 0, "text": text, "annotations": [
        {"id": "a1", "infons": {"type": "Gene"}, "text": "JAK1",
         "locations": [{"offset": 0, "length": 4}]}]}]}


@pytest.mark.parametrize(("bad", "says"), [
    ({"text": 5}, "passage at offset 0: text must be a string, not int 5"),
    ({"text": ["JAK1"]}, "text must be a string, not list"),
    ({"annotation_text": 7}, "annotation a1: text must be a string, not int"),
    ({"infons": ["not", "a", "dict"]}, "malformed"),
    ({"locations": [{"offset": 0}]}, "missing key 'length'"),
    ({"passages": "none"}, "document #1 (bad)"),
])
def test_bioc_json_bad_document_between_good_ones(tmp_path: Path, bad: dict, says: str) -> None:
    doc = _bioc_json_doc("bad")
    if "text" in bad:
        doc["passages"][0]["text"] = bad["text"]
    if "annotation_text" in bad:
        doc["passages"][0]["annotations"][0]["text"] = bad["annotation_text"]
    if "infons" in bad:
        doc["passages"][0]["annotations"][0]["infons"] = bad["infons"]
    if "locations" in bad:
        doc["passages"][0]["annotations"][0]["locations"] = bad["locations"]
    if "passages" in bad:
        doc["passages"] = bad["passages"]
    path = tmp_path / "three.json"
    path.write_text(json.dumps({"documents": [_bioc_json_doc("good-1"), doc,
                                              _bioc_json_doc("good-2")]}))
    ids, errors = _read(read_bioc_json, path)
    assert ids == ["good-1", "good-2"]
    _reported(errors, "bad", says, "three.json")
    with pytest.raises(ReaderError) as info:      # without on_error: raised, named
        list(read_bioc_json(path))
    assert info.value.document == "bad"


# --- BioC XML -----------------------------------------------------------------------------
def _bioc_xml_doc(doc_id: str, offset: str = "0") -> str:
    return (f"<document><id>{doc_id}</id><passage><offset>0</offset>"
            "<text>JAK1 binds STAT5.</text><annotation id=\"a1\"><infon key=\"type\">Gene"
            f"</infon><location offset=\"{offset}\" length=\"4\"/><text>JAK1</text>"
            "</annotation></passage></document>")


@pytest.mark.parametrize(("offset", "says"), [("x", "offset must be an integer"),
                                              ("50", "outside the text")])
def test_bioc_xml_bad_document_between_good_ones(tmp_path: Path, offset: str, says: str
                                                 ) -> None:
    path = tmp_path / "three.xml"
    path.write_text("<collection><source>t</source>" + _bioc_xml_doc("good-1")
                    + _bioc_xml_doc("bad", offset) + _bioc_xml_doc("good-2")
                    + "</collection>")
    ids, errors = _read(read_bioc, path)
    assert ids == ["good-1", "good-2"]
    _reported(errors, "bad", says)


# --- PubTator -----------------------------------------------------------------------------
def _pubtator_doc(pmid: str, ann: str = "0\t4") -> str:
    return (f"{pmid}|t|JAK1 binds STAT5.\n{pmid}|a|It does.\n"
            f"{pmid}\t{ann}\tJAK1\tGene\t3716\n{pmid}\t11\t16\tSTAT5\tGene\t6776\n"
            f"{pmid}\tBind\t3716\t6776\n\n")


@pytest.mark.parametrize(("ann", "says"), [
    ("-5\t4", "offsets must be whole numbers from 0, not '-5' and '4'"),
    ("a\t4", "offsets must be whole numbers from 0, not 'a' and '4'"),
    ("0\ta", "offsets must be whole numbers from 0, not '0' and 'a'"),
    ("3.0\t4", "not '3.0'"),
    ("0\t400", "outside the text of document 2"),
])
def test_pubtator_bad_offsets_are_a_reading_error_of_their_document(tmp_path: Path, ann: str,
                                                                    says: str) -> None:
    path = tmp_path / "three.pubtator"
    path.write_text(_pubtator_doc("1") + _pubtator_doc("2", ann) + _pubtator_doc("3"))
    ids, errors = _read(read_pubtator, path)
    assert ids == ["1", "3"]
    _reported(errors, "2", says, "line 9")
    assert "relation" not in errors[0].reason


def test_pubtator_relation_lines_with_numeric_ids_stay_relations(tmp_path: Path) -> None:
    """BioRED-style relation lines: numeric concept ids, a novelty column."""
    path = tmp_path / "one.pubtator"
    path.write_text(_pubtator_doc("1").replace("Bind\t3716\t6776",
                                               "Association\t3716\t6776\tNovel"))
    (doc,) = read_pubtator(path)
    assert [r.type for r in doc.sentences[0].relations] == ["Association"]


# --- JSONL --------------------------------------------------------------------------------
def _jsonl_doc(doc_id: str, end: int = 4) -> str:
    text = "JAK1 binds STAT5."
    ent = Entity(id="e1", spans=[Span(start=0, end=end)], text="JAK1")
    return Document(id=doc_id, text=text, sentences=[Sentence(
        id=f"{doc_id}.s0", start=0, end=len(text), text=text, entities=[ent])]
    ).model_dump_json()


def test_jsonl_entity_outside_the_text_rejects_its_document(tmp_path: Path) -> None:
    path = tmp_path / "three.jsonl"
    path.write_text("\n".join([_jsonl_doc("good-1"), _jsonl_doc("bad", end=90),
                               _jsonl_doc("good-2"), '{"id": "broken", "text": 5}',
                               _jsonl_doc("good-3")]) + "\n")
    ids, errors = _read(read_jsonl, path)
    assert ids == ["good-1", "good-2", "good-3"]
    assert [e.document for e in errors] == ["bad", "broken"]
    assert "entity e1: span 0-90 outside the text (length 17)" in errors[0].reason
    assert errors[0].where == "line 2" and errors[1].where == "line 4"


# --- PubMed -------------------------------------------------------------------------------
def _article(pmid: str, body: str = "<Article><ArticleTitle>JAK1 binds STAT5.</ArticleTitle>"
                                     "</Article>") -> str:
    return (f"<PubmedArticle><MedlineCitation><PMID>{pmid}</PMID>{body}</MedlineCitation>"
            "</PubmedArticle>")


def test_pubmed_bad_article_between_good_ones(tmp_path: Path) -> None:
    path = tmp_path / "three.xml"
    path.write_text("<PubmedArticleSet>" + _article("1") + _article("2", "") + _article("3")
                    + "</PubmedArticleSet>")
    ids, errors = _read(read_pubmed, path)
    assert ids == ["1", "3"]
    _reported(errors, "2", "missing <Article>")


# --- standoff and plain text: one document per file ---------------------------------------------
def _standoff(folder: Path, name: str, a1: str = "T1\tProtein 0 4\tJAK1\n") -> Path:
    (folder / f"{name}.txt").write_text("JAK1 binds STAT5.")
    (folder / f"{name}.a1").write_text(a1)
    return folder / f"{name}.txt"


@pytest.mark.parametrize(("a1", "says"), [("T1\tProtein 0 40\tJAK1\n", "outside the text"),
                                          ("T1\tProtein 0 4\tJAK2\n", "does not match"),
                                          ("X1\tfoo\n", "holds T lines only")])
def test_standoff_errors_name_the_document(tmp_path: Path, a1: str, says: str) -> None:
    files = [_standoff(tmp_path, "good-1"), _standoff(tmp_path, "bad", a1),
             _standoff(tmp_path, "good-2")]
    from relx.io.registry import FORMATS, load_spec

    registered = load_spec(FORMATS["standoff"].reader)   # what batches and the API call
    for reader in (read_standoff_file, registered):
        ids, errors = [], []
        for f in files:
            found, errs = _read(reader, f)
            ids += found
            errors += errs
        assert ids == ["good-1", "good-2"]
        _reported(errors, "bad", says, "bad.a1")
    with pytest.raises(ReaderError) as info:
        read_standoff(files[1])
    assert info.value.document == "bad"
    (tmp_path / "bin.txt").write_bytes(b"\xffJAK1")
    (tmp_path / "bin.a1").write_text("")
    with pytest.raises(ReaderError, match="not valid UTF-8") as info:
        read_standoff(tmp_path / "bin.txt")
    assert info.value.document == "bin"


def test_plaintext_errors_name_the_document(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("  \n")
    with pytest.raises(ReaderError, match="empty document") as info:
        list(read_plaintext(tmp_path / "empty.txt"))
    assert info.value.document == "empty"
