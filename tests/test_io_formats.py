"""Readers and writers for PubMed XML, BioC XML/JSON, PubTator, plain text; the registry."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from relx.doc import Document, Entity, Relation, Sentence, Span
from relx.io.bioc import read_bioc, read_bioc_json, write_bioc
from relx.io.errors import ReaderError
from relx.io.jsonl import write_jsonl
from relx.io.plaintext import read_plaintext
from relx.io.pubmed import read_pubmed
from relx.io.pubtator import doc_annotations, read_pubtator, write_pubtator
from relx.io.registry import FORMATS, detect_format, read, write
from tests.conftest import FIXTURES

PUBMED = FIXTURES / "fmt-pubmed.xml"
PUBMED_UPDATE = FIXTURES / "fmt-pubmed-update.xml"
BIOC_XML = FIXTURES / "fmt-bioc.xml"
BIOC_JSON = FIXTURES / "fmt-bioc.json"
PUBTATOR = FIXTURES / "fmt-pubtator.txt"
PLAIN = FIXTURES / "fmt-plain.txt"


def _check_offsets(doc: Document) -> None:
    for sent in doc.sentences:
        assert doc.text[sent.start:sent.end] == sent.text
        for e in sent.entities:
            if len(e.spans) == 1:
                assert doc.text[e.start:e.end] == e.text
            else:
                assert " ".join(doc.text[s.start:s.end] for s in e.spans) == e.text


def _annotations(doc: Document) -> tuple[list, list]:
    ents, rels = doc_annotations(doc)
    return ([(e.id, [(s.start, s.end) for s in e.spans], e.type, e.norm_ids) for e in ents],
            [(r.id, r.arg1, r.arg2, r.type, r.label, r.score) for r in rels])


# ----------------------------------------------------------------------------- PubMed

def test_pubmed_structured_abstract_inline_markup_and_title_only():
    docs = list(read_pubmed(PUBMED))
    assert [d.id for d in docs] == ["90000001", "90000002", "90000003"]
    assert all(d.source == "pubmed" and d.sentences == [] for d in docs)
    title, *parts = docs[0].text.split("\n")
    assert title == "The RAD51 recombinase binds BRCA2 in Ca2+-dependent manner."
    assert parts == [
        "BACKGROUND: Homologous recombination needs RAD51 loading by BRCA2.",
        "METHODS: We measured binding with surface plasmon resonance at 10-9 M.",
        "RESULTS: BRCA2 bound RAD51 (Kd = 2 nM); PALB2 did not bind RAD51.",
        "CONCLUSIONS: BRCA2 \u2013 RAD51 binding is direct & strong.",
    ]
    assert docs[1].text == ("TP53 and MDM2 form a negative feedback loop\n"
                            "MDM2 ubiquitinates TP53. TP53 in turn activates MDM2 transcription.")
    assert docs[2].text == "[Interaction of JAK1 with gp130 in hepatocytes]."


def test_pubmed_book_article_vernacular_title_and_deletions():
    deleted: list[str] = []
    docs = list(read_pubmed(PUBMED_UPDATE, on_delete=deleted.append))
    assert [(d.id, d.text) for d in docs] == [
        ("90000004", "ATM kinase\nSUMMARY: ATM phosphorylates CHEK2 after DNA damage."),
        ("90000005", "Wechselwirkung von STAT3 mit JAK2."),
    ]
    assert deleted == ["90000006", "90000007"]
    assert len(list(read_pubmed(PUBMED_UPDATE))) == 2  # deletions skipped silently


def _article(pmid: int) -> str:
    return (f"<PubmedArticle><MedlineCitation><PMID Version=\"1\">{pmid}</PMID><Article>"
            f"<ArticleTitle>Protein {pmid} binds <i>GENE{pmid}</i>.</ArticleTitle><Abstract>"
            f"<AbstractText Label=\"RESULTS\">We found that P{pmid} and Q{pmid} interact "
            f"in vivo and in vitro.</AbstractText></Abstract></Article></MedlineCitation>"
            f"<PubmedData/></PubmedArticle>\n")


def _write_pubmed(path: Path, n: int) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0"?>\n<PubmedArticleSet>\n')
        for pmid in range(1, n + 1):
            fh.write(_article(pmid))
        fh.write("</PubmedArticleSet>\n")


def test_pubmed_streams_a_large_gzipped_file(tmp_path):
    path = tmp_path / "pubmed25n0001.xml.gz"
    _write_pubmed(path, 5000)
    n = 0
    for n, doc in enumerate(read_pubmed(path), 1):
        assert doc.id == str(n)
        assert doc.text.startswith(f"Protein {n} binds GENE{n}.\nRESULTS: We found")
    assert n == 5000
    assert detect_format(path) == "pubmed"


def test_pubmed_truncated_file_yields_what_it_read_then_names_the_line(tmp_path):
    full = tmp_path / "full.xml.gz"
    _write_pubmed(full, 200)
    data = gzip.decompress(full.read_bytes())
    cut = tmp_path / "cut.xml"
    cut.write_bytes(data[: len(data) // 2])
    got: list[str] = []
    with pytest.raises(ReaderError, match=r"cut\.xml: line \d+: not well-formed XML"):
        for doc in read_pubmed(cut):
            got.append(doc.id)
    assert 90 < len(got) < 110


@pytest.mark.parametrize("body, where, message", [
    ("<PubmedArticle><MedlineCitation><Article><ArticleTitle>x</ArticleTitle></Article>"
     "</MedlineCitation></PubmedArticle>", "<PubmedArticle> at line 3", "missing PMID"),
    ("<PubmedArticle><MedlineCitation><PMID>1</PMID></MedlineCitation></PubmedArticle>",
     "<PubmedArticle> 1 at line 3", "missing <Article>"),
    ("<PubmedArticle><MedlineCitation><PMID>1</PMID>", "line 4", "not well-formed XML"),
])
def test_pubmed_errors_name_file_and_place(tmp_path, body, where, message):
    path = tmp_path / "bad.xml"
    path.write_text(f'<?xml version="1.0"?>\n<PubmedArticleSet>\n{body}\n</PubmedArticleSet>\n')
    with pytest.raises(ReaderError) as info:
        list(read_pubmed(path))
    assert info.value.path == str(path) and info.value.where == where
    assert message in info.value.reason


def test_pubmed_wrong_root_and_missing_file(tmp_path):
    with pytest.raises(ReaderError, match=r"root element: expected <PubmedArticleSet>.*<corpus>"):
        list(read_pubmed(FIXTURES / "ppi-mini.xml"))
    with pytest.raises(ReaderError, match=r"nope\.xml: file: cannot read"):
        list(read_pubmed(tmp_path / "nope.xml"))


LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE {root} [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
"""


@pytest.mark.parametrize("reader, root, body", [
    (read_pubmed, "PubmedArticleSet", "<PubmedArticle><MedlineCitation><PMID>1</PMID><Article>"
     "<ArticleTitle>&lol3;</ArticleTitle></Article></MedlineCitation></PubmedArticle>"),
    (read_bioc, "collection", "<document><id>1</id><passage><offset>0</offset>"
     "<text>&lol3;</text></passage></document>"),
])
def test_xml_entity_declarations_are_refused(tmp_path, reader, root, body):
    path = tmp_path / "laughs.xml"
    path.write_text(LAUGHS.format(root=root) + f"<{root}>{body}</{root}>\n")
    with pytest.raises(ReaderError, match=r"laughs\.xml: DOCTYPE: DTD entity declarations are refused"):
        list(reader(path))


# ----------------------------------------------------------------------------- BioC

def test_bioc_xml_entities_spans_norm_ids_and_relations():
    d1, d2 = read_bioc(BIOC_XML)
    for d in (d1, d2):
        _check_offsets(d)
        assert d.source == "bioc" and len(d.sentences) == 1
    title = "Phosphorylation of TP53 by ATM kinase stabilizes MDM2-bound p53 after DNA damage."
    assert d1.text.startswith(title + "\nThe ATM protein kinase")
    s1 = d1.sentences[0]
    assert s1.id == "90000011.s0" and (s1.start, s1.end) == (0, len(d1.text))
    assert {e.type for e in s1.entities} == {"Gene", "Chemical"}  # CellLine is dropped
    assert s1.entity("4").norm_ids == ["NCBIGene:7157"] and s1.entity("4").text == "p53"
    assert [(r.arg1, r.arg2, r.type, r.label) for r in s1.relations] == [
        ("2", "3", "Bind", None),         # node relation
        ("3", "1", "Association", None),  # BioRED-style concept relation: first mentions
        ("9", "10", "Negative_Correlation", None),   # the chemical's relation is kept too
    ]
    s2 = d2.sentences[0]
    assert d2.text[28:100] == " " * 71 + "\n"  # gap before the passage at offset 100
    il6r = s2.entity("T4")
    assert [d2.text[s.start:s.end] for s in il6r.spans] == ["IL-6", "receptors"]
    assert il6r.norm_ids == ["NCBIGene:3570"] and il6r.type == "Protein"
    (rel,) = s2.relations
    assert (rel.arg1, rel.arg2, rel.label, rel.score) == ("7", "8", True, 0.91)


def test_bioc_type_filter_can_keep_everything():
    d1, _ = read_bioc(BIOC_XML, types=None)
    assert {e.type for e in d1.sentences[0].entities} == {"Gene", "Chemical", "CellLine"}
    assert [r.id for r in d1.sentences[0].relations] == ["R1", "R2", "R3"]


def test_bioc_json_reads_the_same_as_xml():
    assert list(read_bioc_json(BIOC_JSON)) == list(read_bioc(BIOC_XML))
    one = json.loads(BIOC_JSON.read_text())["documents"][1]
    assert "sentences" not in one["passages"][0]  # optional keys may be left out


@pytest.mark.parametrize("fmt, name", [("xml", "out.xml"), ("json", "out.json"), ("xml", "out.xml.gz")])
def test_bioc_round_trip(tmp_path, fmt, name):
    docs = [*read_bioc(BIOC_XML), *read_pubtator(PUBTATOR)]
    out = tmp_path / name
    assert write_bioc(docs, out, fmt=fmt) == 4
    back = list(read_bioc(out) if fmt == "xml" else read_bioc_json(out))
    assert [d.text for d in back] == [d.text for d in docs]
    assert [_annotations(d) for d in back] == [_annotations(d) for d in docs]
    for d in back:
        _check_offsets(d)


def test_bioc_writes_title_and_abstract_passages_and_relation_infons(tmp_path):
    doc = next(read_pubtator(PUBTATOR))
    doc.sentences[0].relations[0].score = 0.25
    doc.sentences[0].relations[1].label = False
    out = tmp_path / "one.json"
    write_bioc([doc], out, fmt="json")
    (bdoc,) = json.loads(out.read_text())["documents"]
    assert [(p["infons"]["type"], p["offset"]) for p in bdoc["passages"]] == [
        ("title", 0), ("abstract", doc.text.index("\n") + 1)]
    assert bdoc["relations"][0]["infons"] == {"type": "Bind", "label": "True", "score": "0.25"}
    assert bdoc["relations"][1]["infons"]["label"] == "False"
    ann = bdoc["passages"][0]["annotations"][0]
    assert ann["infons"] == {"type": "Gene", "identifier": "NCBIGene:7157"}


def test_bioc_gene_annotations_carry_species_and_confidence(tmp_path):
    from relx.genes.document import ground_document
    from relx.io.bioc_genes import write_bioc_gene_relations

    text = "Mice lacking Trp53 and Mdm2 died; F508del too; Zqxwv was not."
    ents = [Entity(id=f"T{k}", type="Protein", text=w,
                   spans=[Span(start=text.index(w), end=text.index(w) + len(w))])
            for k, w in enumerate(("Trp53", "Mdm2", "F508del", "Zqxwv"))]
    doc = ground_document(Document(id="d", text=text, sentences=[
        Sentence(id="d.s0", start=0, end=len(text), text=text, entities=ents)]))
    for out, save in ((tmp_path / "ppi.json", lambda p: write_bioc([doc], p, fmt="json")),
                      (tmp_path / "genes.json", lambda p: write_bioc_gene_relations(
                          [(doc, [])], p, fmt="json"))):
        save(out)
        (bdoc,) = json.loads(out.read_text())["documents"]
        infons = {a["text"]: a["infons"] for p in bdoc["passages"] for a in p["annotations"]}
        assert infons["Trp53"]["species"] == infons["Mdm2"]["species"] == "NCBITaxon:10090"
        assert 0 < float(infons["Trp53"]["confidence"]) <= 1
        assert infons["Trp53"]["identifier"].endswith("22059")           # NCBI Gene id
        assert infons["F508del"]["type"] == "SequenceVariant"
        assert "species" not in infons["F508del"] and "confidence" not in infons["F508del"]
        assert infons["Zqxwv"]["no_id_reason"] == "no_match"     # no id, and why
        assert "no_id_reason" not in infons["Trp53"]


def test_bioc_writer_replaces_characters_xml_cannot_carry(tmp_path):
    text = "Page 1\x0cRAD51 binds BRCA2."
    ent = Entity(id="e1", spans=[Span(start=7, end=12)], text="RAD51")
    doc = Document(id="pdf-1", text=text, sentences=[
        Sentence(id="s", start=0, end=len(text), text=text, entities=[ent])])
    write_bioc([doc], tmp_path / "pdf.xml")
    (back,) = read_bioc(tmp_path / "pdf.xml", types=None)
    assert back.text == "Page 1 RAD51 binds BRCA2."
    assert back.sentences[0].entities[0].spans == ent.spans


def test_bioc_json_accepts_one_document_and_numeric_infons(tmp_path):
    doc = {"id": 42, "passages": [{"offset": 0, "text": "JAK1 binds gp130.", "annotations": [
        {"id": "a", "infons": {"type": "Gene", "identifier": 3716}, "text": "JAK1",
         "locations": [{"offset": 0, "length": 4}]}]}]}
    path = tmp_path / "one.json"
    path.write_text(json.dumps(doc))
    (back,) = read_bioc_json(path)
    assert back.id == "42" and back.sentences[0].entities[0].norm_ids == ["NCBIGene:3716"]
    doc["passages"][0]["offset"] = "0"
    path.write_text(json.dumps([doc]))
    with pytest.raises(ReaderError, match=r"document #0 \(42\): offsets and lengths must be integers"):
        list(read_bioc_json(path))


@pytest.mark.parametrize("old, new, where, message", [
    ('<location offset="19" length="4"/>', '<location offset="19" length="400"/>',
     "document 90000011", "annotation 1: location 19+400 outside the text"),
    ("<text>TP53</text>", "<text>TP63</text>", "document 90000011", "text 'TP63' does not match"),
    ("<offset>100</offset>", "<offset>10</offset>", "document PMC0000001", "overlaps"),
    ("<id>PMC0000001</id>", "<id></id>", "<document> at line", "document without <id>"),
    ('<location offset="0" length="4"/>', '<location offset="zero" length="4"/>',
     "<location> at line", "offset must be an integer"),
    ('<annotation id="7">', '<annotation id="6">', "document 90000011", "duplicate annotation id"),
    ("</collection>", "", "line", "not well-formed XML"),
])
def test_bioc_xml_errors_name_file_and_place(tmp_path, old, new, where, message):
    path = tmp_path / "bad.xml"
    path.write_text(BIOC_XML.read_text().replace(old, new, 1))
    with pytest.raises(ReaderError) as info:
        list(read_bioc(path))
    assert info.value.path == str(path) and info.value.where.startswith(where)
    assert message in info.value.reason


def test_bioc_json_errors_name_file_and_place(tmp_path):
    data = json.loads(BIOC_JSON.read_text())
    del data["documents"][1]["passages"][0]["offset"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ReaderError, match=r"bad\.json: document #1 \(PMC0000001\): missing key 'offset'"):
        list(read_bioc_json(path))
    path.write_text('{"documents": [\n{"id": 1,\n')
    with pytest.raises(ReaderError, match=r"bad\.json: line 3 column 1: bad JSON"):
        list(read_bioc_json(path))
    path.write_text('"just a string"')
    with pytest.raises(ReaderError, match="top level"):
        list(read_bioc_json(path))


# ----------------------------------------------------------------------------- PubTator

def test_pubtator_offsets_title_abstract_convention_and_concept_relations():
    d1, d2 = read_pubtator(PUBTATOR)
    title = "Phosphorylation of TP53 by ATM kinase stabilizes MDM2-bound p53 after DNA damage."
    assert d1.text.startswith(title + "\n") and d1.source == "pubtator"
    s = d1.sentences[0]
    # the first abstract mention ("ATM" at 4 in the abstract) sits at len(title) + 1 + 4
    assert s.entity("T5").start == len(title) + 1 + 4 == 86
    for d in (d1, d2):
        _check_offsets(d)
    assert len(s.entities) == 11  # U2OS (CellLine) dropped; nutlin-3 kept as Chemical
    assert [(r.arg1, r.arg2, r.type, r.label) for r in s.relations] == [
        ("T2", "T3", "Bind", True), ("T3", "T1", "Association", True),
        ("T9", "T3", "Negative_Correlation", True)]
    everything = next(read_pubtator(PUBTATOR, types=None))
    assert [r.arg1 for r in everything.sentences[0].relations] == ["T2", "T3", "T9"]


def test_pubtator_round_trip_and_from_other_formats(tmp_path):
    docs = list(read_pubtator(PUBTATOR))
    out = tmp_path / "round.pubtator"
    assert write_pubtator(docs, out) == 2
    assert list(read_pubtator(out)) == docs
    write_pubtator(read_pubtator(PUBTATOR, types=None), out)
    written, given = out.read_text().splitlines(), PUBTATOR.read_text().splitlines()
    assert len(written) == len(given)   # the same lines, in the same order, ids namespaced
    assert [ln.replace("NCBIGene:", "") for ln in written] == given
    assert list(read_pubtator(out, types=None)) == list(read_pubtator(PUBTATOR, types=None))
    # BioC documents: a text with a 71-space gap, a two-span entity written as its cover
    bioc_docs = list(read_bioc(BIOC_XML))
    write_pubtator(bioc_docs, out)
    back = list(read_pubtator(out))
    assert [d.text for d in back] == [d.text for d in bioc_docs]
    ents = back[1].sentences[0].entities
    assert [(e.start, e.end, e.text) for e in ents][3] == (105, 129, "IL-6 and IL-11 receptors")
    assert [(r.arg1, r.arg2) for r in back[1].sentences[0].relations] == [("T1", "T2")]


def test_pubtator_writer_flattens_line_breaks_and_ids_unnormalised_arguments(tmp_path):
    text = "KRAS\nbinds\tRAF1 and\r\nBRAF."
    ents = [Entity(id="a", spans=[Span(start=0, end=4)], text="KRAS"),
            Entity(id="b", spans=[Span(start=11, end=15)], text="RAF1"),
            Entity(id="c", spans=[Span(start=21, end=25)], text="BRAF", norm_ids=["HGNC:1097"])]
    rels = [Relation(id="r1", arg1="a", arg2="b", score=0.9),
            Relation(id="r2", arg1="a", arg2="c", label=False)]
    doc = Document(id="doc-1", text=text, sentences=[
        Sentence(id="s", start=0, end=len(text), text=text, entities=ents, relations=rels)])
    out = tmp_path / "flat.pubtator.gz"
    write_pubtator([doc], out)
    lines = gzip.decompress(out.read_bytes()).decode().splitlines()
    assert lines[:2] == ["doc-1|t|KRAS", "doc-1|a|binds RAF1 and  BRAF."]
    assert lines[2:] == ["doc-1\t0\t4\tKRAS\tGene\ta", "doc-1\t11\t15\tRAF1\tGene\tb",
                         "doc-1\t21\t25\tBRAF\tGene\tHGNC:1097",
                         "doc-1\tPPI\ta\tb\t0.9000\t-\t-", ""]   # score, negated, speculated
    (back,) = read_pubtator(out, types=None)
    assert back.text == "KRAS\nbinds RAF1 and  BRAF."
    assert [(r.arg1, r.arg2) for r in back.sentences[0].relations] == [("T1", "T2")]
    with pytest.raises(ValueError, match="PMID"):
        write_pubtator([Document(id="a|b", text="x")], tmp_path / "x.pubtator")


@pytest.mark.parametrize("old, new, line, message", [
    ("90000011\t19\t23\tTP53", "90000011\t19\t23\tTP63", 3, "mention 'TP63' does not match"),
    ("90000011\t262\t266\tU2OS", "90000011\t262\t666\tU2OS", 14, "outside the text"),
    ("90000011\tBind\t472\t4193", "90000011\tBind\t472\t9999", 15, "'9999', not an annotated concept"),
    ("90000012\t0\t13", "90000013\t0\t13", 21, "PMID '90000013' inside document '90000012'"),
    ("90000012\t33\t38\tgp130\tGene\t3572", "90000012\t33", 22, "neither an annotation"),
    ("90000011|t|", "90000011|x|", 1, "before a title line"),
])
def test_pubtator_errors_name_file_and_line(tmp_path, old, new, line, message):
    path = tmp_path / "bad.txt"
    path.write_text(PUBTATOR.read_text().replace(old, new, 1))
    with pytest.raises(ReaderError) as info:
        list(read_pubtator(path))
    assert (info.value.path, info.value.where) == (str(path), f"line {line}")
    assert message in info.value.reason


# ----------------------------------------------------------------------------- plain text

def test_plaintext_reads_one_document_named_after_the_file():
    (doc,) = read_plaintext(PLAIN)
    assert doc.id == "fmt-plain" and doc.text == PLAIN.read_text() and doc.sentences == []


@pytest.mark.parametrize("content, where, message", [
    (b"", "file", "empty document"),
    (b" \n\t\n", "file", "empty document"),
    (b"RAD51 binds\nBRCA2 \xff here", "byte 18 (line 2)", "not valid UTF-8"),
])
def test_plaintext_errors(tmp_path, content, where, message):
    path = tmp_path / "abs.txt"
    path.write_bytes(content)
    with pytest.raises(ReaderError) as info:
        list(read_plaintext(path))
    assert (info.value.path, info.value.where) == (str(path), where)
    assert message in info.value.reason


# ----------------------------------------------------------------------------- registry

def test_detect_format_of_every_fixture_and_variant(tmp_path):
    assert detect_format(FIXTURES / "ppi-mini.xml") == "ppi-xml"
    assert detect_format(PUBMED) == "pubmed"
    assert detect_format(BIOC_XML) == "bioc"
    assert detect_format(BIOC_JSON) == "bioc-json"
    assert detect_format(PUBTATOR) == "pubtator"
    assert detect_format(PLAIN) == "txt"
    gz = tmp_path / "bioc.xml.gz"
    gz.write_bytes(gzip.compress(BIOC_XML.read_bytes()))
    assert detect_format(gz) == "bioc"
    pubtator = shutil.copy(PUBTATOR, tmp_path / "corpus.PubTator")
    assert detect_format(pubtator) == "pubtator"
    standoff = shutil.copy(PLAIN, tmp_path / "PMID-1.txt")
    (tmp_path / "PMID-1.a1").write_text("T1\tProtein 0 4\tGrb2\n")
    assert detect_format(standoff) == "standoff"
    (doc,) = read(standoff)  # proteins of the .a1 as entities
    assert [(e.id, e.text) for e in doc.sentences[0].entities] == [("T1", "Grb2")]
    write_jsonl(read_pubmed(PUBMED), tmp_path / "docs.jsonl")
    assert detect_format(tmp_path / "docs.jsonl") == "jsonl"
    assert set(FORMATS) >= {"ppi-xml", "pubmed", "bioc", "bioc-json", "pubtator", "jsonl",
                            "txt", "standoff"}


@pytest.mark.parametrize("name, content, message", [
    ("other.xml", "<html><body/></html>", "unknown XML format <html>"),
    ("broken.xml", "RAD51 binds BRCA2", "line 1: not well-formed XML"),
    ("other.json", '{"a": 1}', "unknown JSON format"),
    ("notes.docx", "x", "cannot tell the format"),
])
def test_detect_format_errors(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ReaderError, match=message) as info:
        detect_format(path)
    assert info.value.path == str(path)


def test_read_dispatches_files_and_folders_and_write_by_extension(tmp_path):
    assert [d.id for d in read(PUBMED)] == ["90000001", "90000002", "90000003"]
    assert list(read(BIOC_JSON)) == list(read_bioc_json(BIOC_JSON))
    assert len(next(read(PUBTATOR, types=None)).sentences[0].entities) == 12
    assert [d.id for d in read(PLAIN, format="txt")] == ["fmt-plain"]
    folder = tmp_path / "in"
    folder.mkdir()
    for f in (PUBMED, BIOC_XML, PUBTATOR, PLAIN):
        shutil.copy(f, folder / f.name)
    (folder / "README.md").write_text("not a document")
    ids = [d.id for d in read(folder)]
    assert ids == ["90000011", "PMC0000001", "fmt-plain", "90000001", "90000002", "90000003",
                   "90000011", "90000012"]
    docs = list(read(PUBTATOR))
    for name, fmt in [("o.jsonl", "jsonl"), ("o.xml", "bioc"), ("o.json", "bioc-json"),
                      ("o.pubtator", "pubtator")]:
        assert write(docs, tmp_path / name) == 2
        assert detect_format(tmp_path / name) == fmt
        assert [_annotations(d) for d in read(tmp_path / name)] == [_annotations(d) for d in docs]
    with pytest.raises(ValueError, match="no writer"):
        write(docs, tmp_path / "o.txt", format="txt")
    with pytest.raises(ValueError, match="unknown format"):
        list(read(PLAIN, format="word"))


# ------------------------------------------------- conventions shared by every output format

def test_ids_are_namespaced_where_they_enter():
    from relx.ids import namespaced_id, namespaced_ids, pmid_of

    assert namespaced_id("672", "Gene") == "NCBIGene:672"
    assert namespaced_id("P04637", "Protein") == "UniProt:P04637"
    assert namespaced_id("D000077", "Chemical") == "MESH:D000077"
    assert namespaced_id("9606", "Species") == "NCBITaxon:9606"
    assert namespaced_id("3716", None, "NCBI Gene") == "NCBIGene:3716"
    assert namespaced_id("mesh:D000077") == "MESH:D000077"
    assert namespaced_id("CHEBI:CHEBI:15377") == "CHEBI:15377"
    assert namespaced_id("HGNC:6001") == "HGNC:6001"
    assert namespaced_id("xyz", "Gene") == "xyz"              # no namespace to tell: kept
    assert namespaced_ids(["672", "NCBIGene:672", "HGNC:1100"], "Gene") == [
        "NCBIGene:672", "HGNC:1100"]
    assert [pmid_of(x) for x in ("12345", "PMID:12345", "PMID-9674664", "doc-1", None)] == [
        "12345", "12345", "9674664", None, None]
    # both readers namespace an input's bare gene ids; BioRED concept relations still match
    s = next(read_pubtator(PUBTATOR)).sentences[0]
    assert {i for e in s.entities for i in e.norm_ids} == {"NCBIGene:7157", "NCBIGene:472",
                                                           "NCBIGene:4193", "MESH:C492448"}
    b = next(read_bioc(BIOC_XML)).sentences[0]
    assert b.entity("1").norm_ids == ["NCBIGene:7157"] and len(b.relations) == 3


def _predicted_doc() -> Document:
    """A predicted document: the same pair in both orders in two sentences, one of them
    negated, a speculated pair, and a chemical that is not paired."""
    text = "MDM2 binds p53. p53 does not bind MDM2. Nutlin-3 may block MDM2 and ATM."
    def ent(i, word, ids, after=0, typ="Protein"):
        s = text.index(word, after)
        return Entity(id=i, spans=[Span(start=s, end=s + len(word))], text=word, type=typ,
                      norm_ids=ids)
    ents = [ent("a", "MDM2", ["4193", "HGNC:6973"], typ="Gene"),
            ent("b", "p53", ["HGNC:11998"]), ent("c", "p53", ["HGNC:11998"], 16),
            ent("d", "MDM2", ["4193", "HGNC:6973"], 20, "Gene"),
            ent("e", "Nutlin-3", ["MESH:C482764"], typ="Chemical"),
            ent("f", "MDM2", ["HGNC:6973"], 45), ent("g", "ATM", ["HGNC:795"])]
    rels = [Relation(id="r1", arg1="a", arg2="b", label=True, score=0.9, negated=False,
                     speculated=False),
            Relation(id="r2", arg1="c", arg2="d", label=True, score=0.95, negated=True,
                     speculated=False),
            Relation(id="r3", arg1="f", arg2="g", label=True, score=0.6, negated=False,
                     speculated=True)]
    return Document(id="12345", text=text, source="pubtator", sentences=[
        Sentence(id="12345.s0", start=0, end=len(text), text=text, entities=ents,
                 relations=rels)])


def test_pubtator_writes_each_pair_once_with_gene_type_ids_and_flags(tmp_path):
    out = tmp_path / "p.pubtator"
    write_pubtator([_predicted_doc()], out)
    lines = out.read_text().splitlines()
    anns = [ln.split("\t") for ln in lines[2:] if ln and ln.split("\t")[1].isdigit()]
    assert {a[4] for a in anns} == {"Gene", "Chemical"}   # PubTator's type; chemicals kept
    assert ["MDM2", "Gene", "NCBIGene:4193;HGNC:6973"] == anns[0][3:]
    rels = [ln.split("\t") for ln in lines[2:] if ln and not ln.split("\t")[1].isdigit()]
    # MDM2-p53 in both orders: one line, the asserted score, not negated (one sentence is)
    assert rels == [["12345", "PPI", "NCBIGene:4193", "HGNC:11998", "0.9000", "false",
                     "false"],
                    ["12345", "PPI", "HGNC:6973", "HGNC:795", "0.6000", "false", "true"]]
    (back,) = read_pubtator(out, types=None)
    assert [e.type for e in back.sentences[0].entities].count("Chemical") == 1
    assert len(back.sentences[0].relations) == 2


def test_bioc_carries_negated_speculated_and_namespaced_ids(tmp_path):
    out = tmp_path / "p.json"
    write_bioc([_predicted_doc()], out, fmt="json")
    (bdoc,) = json.loads(out.read_text())["documents"]
    infons = [r["infons"] for r in bdoc["relations"]]
    assert [(i["negated"], i["speculated"]) for i in infons] == [
        ("False", "False"), ("True", "False"), ("False", "True")]
    anns = [a for p in bdoc["passages"] for a in p["annotations"]]
    assert anns[0]["infons"] == {"type": "Gene", "identifier": "NCBIGene:4193;HGNC:6973"}
    assert {a["infons"]["type"] for a in anns} == {"Gene", "Protein", "Chemical"}


def test_brat_carries_attributes_types_and_ids(tmp_path):
    from relx.io.brat import write_brat

    write_brat([_predicted_doc()], tmp_path / "brat")
    ann = (tmp_path / "brat" / "12345.ann").read_text().splitlines()
    assert "A1\tNegated R2" in ann and "A2\tSpeculated R3" in ann
    assert any(ln.startswith("T5\tChemical ") for ln in ann)
    assert "#1\tAnnotatorNotes T1\tNCBIGene:4193;HGNC:6973" in ann
    conf = (tmp_path / "brat" / "annotation.conf").read_text().splitlines()
    assert conf[conf.index("[entities]") + 1:conf.index("[relations]")] == [
        "Protein", "Chemical"]
    assert "Negated\tArg:<RELATION>" in conf and "Speculated\tArg:<RELATION>" in conf


def test_chemicals_keep_their_type_and_are_not_paired(tmp_path):
    """A PubTator chemical is read with its type; a mention NER typed Protein that grounds
    only to small molecules becomes a Chemical; neither is paired as a protein."""
    from relx.genes.document import ground_document
    from relx.ppi.extract import candidate_pairs

    text = "Nutlin-3 blocks MDM2 binding to p53 and imatinib."
    def ent(i, word, typ="Protein", ids=()):
        s = text.index(word)
        return Entity(id=i, spans=[Span(start=s, end=s + len(word))], text=word, type=typ,
                      norm_ids=list(ids))
    sent = Sentence(id="s", start=0, end=len(text), text=text, entities=[
        ent("a", "Nutlin-3"), ent("b", "MDM2", "Gene", ["4193"]), ent("c", "p53"),
        ent("d", "imatinib", "Chemical", ["MESH:D000068877"])])
    doc = ground_document(Document(id="1", text=text, sentences=[sent]), species=False,
                          keep_given=True)
    got = {e.text: (e.type, e.norm_ids[:2]) for e in doc.sentences[0].entities}
    assert got["Nutlin-3"][0] == "Chemical"            # grounded only to PubChem/ChEBI
    assert got["MDM2"] == ("Gene", ["NCBIGene:4193", "HGNC:6973"])   # given id first
    assert got["imatinib"][0] == "Chemical" and got["p53"][0] == "Protein"
    pairs = [(r.arg1, r.arg2) for r in candidate_pairs(doc.sentences[0])]
    assert pairs == [("b", "c")]
    path = tmp_path / "n.pubtator"
    path.write_text(f"7|t|{text}\n7|a|\n7\t0\t8\tNutlin-3\tChemical\tC482764\n"
                    "7\t16\t20\tMDM2\tGene\t4193\n\n")
    (nutlin,) = read_pubtator(path)
    assert [(e.type, e.norm_ids) for e in nutlin.sentences[0].entities] == [
        ("Chemical", ["MESH:C482764"]), ("Gene", ["NCBIGene:4193"])]


@pytest.mark.slow
def test_extracted_negation_reaches_every_format(tmp_path):
    """The extractor's ``negated`` flag is on the document's relations, so PubTator, BioC
    and brat carry it as JSONL does."""
    from relx.model_store import models_dir
    from relx.ppi.model import DEFAULT_MODEL

    if not (models_dir() / DEFAULT_MODEL / "meta.json").exists():
        pytest.skip("shipped model models/ppi-default missing")
    import relx
    from relx.io.brat import write_brat
    from relx.io.pubtator import format_pubtator

    text = ("In contrast, the phosphatase SHP-1 dephosphorylates JAK3. We did not detect any "
            "interaction between SHP-1 and STAT5.")   # negated by the learnt detector
    ex = relx.load(task="ppi", threshold=0.0)
    ((doc, found, _),) = list(ex.annotate([Document(id="424242", text=text)]))
    flags = {(r.entity1.text, r.entity2.text): r.negated for r in found}
    assert True in flags.values() and False in flags.values()
    assert [r.negated for _, r in doc.relations()] == [r.negated for r in found]
    cols = [ln.split("\t")[5] for ln in format_pubtator(doc).splitlines()
            if ln.count("\t") == 6]
    assert sorted(cols) == sorted("true" if f else "false" for f in flags.values())
    write_bioc([doc], tmp_path / "d.json", fmt="json")
    infons = [r["infons"] for r in json.loads((tmp_path / "d.json").read_text())[
        "documents"][0]["relations"]]
    assert sorted(i["negated"] for i in infons) == sorted(str(f) for f in flags.values())
    write_brat([doc], tmp_path / "brat")
    ann = (tmp_path / "brat" / "424242.ann").read_text()
    assert ann.count("\tNegated R") == sum(flags.values())


def _ncbi_doc() -> Document:
    """:func:`_predicted_doc` as relx's grounding leaves it: NCBI Gene ids beside the ids
    (ATM grounded without one, the chemical not grounded by relx)."""
    doc = _predicted_doc()
    ncbi = {"a": ["NCBIGene:4193"], "b": ["NCBIGene:7157"], "c": ["NCBIGene:7157"],
            "d": ["NCBIGene:4193"], "f": ["NCBIGene:4193"], "g": []}
    for e in doc.sentences[0].entities:
        e.ncbi_ids = ncbi.get(e.id)
    return doc


def test_pubtator_writes_ncbi_gene_ids_as_pubtator_does(tmp_path):
    out = tmp_path / "p.pubtator"
    write_pubtator([_ncbi_doc()], out)
    lines = out.read_text().splitlines()
    anns = [ln.split("\t") for ln in lines[2:] if ln and ln.split("\t")[1].isdigit()]
    assert [a[5] for a in anns] == ["4193", "7157", "7157", "4193", "MESH:C482764", "4193",
                                    "HGNC:795"]   # bare GeneIDs; relx's ids where none
    rels = [ln.split("\t")[:4] for ln in lines[2:] if ln and not ln.split("\t")[1].isdigit()]
    assert rels == [["12345", "PPI", "4193", "7157"], ["12345", "PPI", "4193", "HGNC:795"]]
    (back,) = read_pubtator(out, types=None)
    assert back.sentences[0].entities[1].norm_ids == ["NCBIGene:7157"]


def test_bioc_writes_ncbi_gene_ids_and_keeps_relx_ids(tmp_path):
    out = tmp_path / "p.json"
    write_bioc([_ncbi_doc()], out, fmt="json")
    (bdoc,) = json.loads(out.read_text())["documents"]
    anns = {a["id"]: a["infons"] for p in bdoc["passages"] for a in p["annotations"]}
    assert anns["b"] == {"type": "Protein", "identifier": "7157",
                         "relx_identifier": "HGNC:11998"}
    assert anns["a"]["identifier"] == "4193"
    assert anns["a"]["relx_identifier"] == "NCBIGene:4193;HGNC:6973"
    assert anns["g"] == {"type": "Protein", "identifier": "HGNC:795"}   # no NCBI id
    xml = tmp_path / "p.xml"
    write_bioc([_ncbi_doc()], xml)
    for back in (*read_bioc(xml), *read_bioc_json(out)):
        ents = {e.id: e.norm_ids for e in doc_annotations(back)[0]}
        assert ents["b"] == ["HGNC:11998", "NCBIGene:7157"]   # relx's ids first, none lost
        assert ents["a"] == ["NCBIGene:4193", "HGNC:6973"]


def test_brat_notes_carry_ncbi_gene_ids(tmp_path):
    from relx.io.brat import write_brat

    write_brat([_ncbi_doc()], tmp_path / "brat")
    ann = (tmp_path / "brat" / "12345.ann").read_text().splitlines()
    assert "#2\tAnnotatorNotes T2\tHGNC:11998;NCBIGene:7157" in ann
    assert "#1\tAnnotatorNotes T1\tNCBIGene:4193;HGNC:6973" in ann   # no repeat
    assert "#7\tAnnotatorNotes T7\tHGNC:795" in ann


def test_tsv_and_jsonl_carry_ncbi_gene_ids(tmp_path):
    from relx.io.tsv import TSV_COLUMNS, write_tsv
    from relx.ppi.extract import ExtractedEntity, ExtractedRelation

    def ent(i, ids, ncbi):
        return ExtractedEntity(id=i, text=i, start=0, end=1, norm_ids=ids, ncbi_ids=ncbi)

    rels = [ExtractedRelation(document_id="d", sentence_id="d.s0", sentence="x",
                              sentence_start=0, sentence_end=1,
                              entity1=ent("a", ["FPLX:ERK", "HGNC:6871"], ["NCBIGene:5594"]),
                              entity2=ent("b", ["RGD:3889"], []), score=0.5, model="m",
                              model_version="1"),
            ExtractedRelation(document_id="d", sentence_id="d.s0", sentence="x",
                              sentence_start=0, sentence_end=1, entity1=ent("c", [], None),
                              entity2=ent("b", ["MGI:96548"], ["NCBIGene:16183"]),
                              score=0.5, model="m", model_version="1")]
    out = tmp_path / "r.tsv"
    write_tsv(rels, out)
    head, *rows = [ln.split("\t") for ln in out.read_text().splitlines()]
    assert tuple(head) == TSV_COLUMNS and head[-2:] == ["entity1_ncbi_ids", "entity2_ncbi_ids"]
    assert [r[-2:] for r in rows] == [["NCBIGene:5594", ""], ["", "NCBIGene:16183"]]
    js = [json.loads(r.model_dump_json()) for r in rels]
    assert js[0]["entity1"]["ncbi_ids"] == ["NCBIGene:5594"] and js[0]["entity2"]["ncbi_ids"] == []
    assert "ncbi_ids" not in js[1]["entity1"]   # not grounded by relx: left out
