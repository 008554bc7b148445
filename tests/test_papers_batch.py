"""`relx extract papers/`: a folder of papers read as papers, with faults injected.

One batch over a folder mixing good papers (JATS, a JATS with an external DTD reference,
a PDF, a PMC bulk archive with a good and a bad member) with bad files (a scanned PDF, an
encrypted one, a truncated one, a web page saved as ``.pdf``, a malformed JATS, a file of
an unknown kind): the batch goes on, each bad file is one line of ``errors.jsonl``, every
good paper's relations are there exactly once and equal to extracting that paper alone,
with its section on every record and none from a reference list.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from relx.app.cli import app
from tests.test_papers_readers import _tar

FIX = Path(__file__).parent / "fixtures" / "papers"
JATS = FIX / "jats-features.nxml"
PDF = FIX / "two-column.pdf"


def jats(pmid: str, title: str, abstract: str, results: str, ref: str,
         doctype: str = "") -> bytes:
    """A small JATS article: title, abstract, a Results section, one reference."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
{doctype}<article article-type="research-article">
  <front><article-meta>
    <article-id pub-id-type="pmid">{pmid}</article-id>
    <title-group><article-title>{title}</article-title></title-group>
    <abstract><p>{abstract}</p></abstract>
  </article-meta></front>
  <body><sec sec-type="results"><title>Results</title><p>{results}</p></sec></body>
  <back><ref-list><title>References</title>
    <ref id="r1"><mixed-citation>{ref}</mixed-citation></ref></ref-list></back>
</article>
""".encode()


#: defines CBP in the abstract, uses it in the results (and cites a paper about it); its
#: DOCTYPE names a DTD that exists nowhere: relx never loads one
CBP = jats("90000202", "A coactivator in p53 signalling",
           "The CREB-binding protein (CBP) binds p53 in human cells.",
           "CBP acetylates p53 in vitro, and MDM2 ubiquitinates p53.",
           "Gu W. CBP acetylates p53 and MDM2 binds p53. Cell. 1997;90:595.",
           '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Publishing DTD v1.2//EN"'
           ' "http://dtd.invalid/JATS-journalpublishing1.dtd">\n')
#: the good member of the bulk archive
MEMBER = jats("90000303", "Kinases of T cells",
              "JAK1 phosphorylates STAT5 in T cells.",
              "SOCS1 binds JAK1 and blocks it.",
              "Yasukawa H. SOCS1 binds JAK1. EMBO J. 1999;18:1309.")


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text("utf-8").splitlines()] if path.exists() \
        else []


@pytest.fixture(scope="module")
def extractor():
    import relx

    return relx.load(task="ppi")


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("papers")
    (folder / "good.nxml").write_bytes(JATS.read_bytes())
    (folder / "dtd.nxml").write_bytes(CBP)
    (folder / "good.pdf").write_bytes(PDF.read_bytes())
    (folder / "scanned.pdf").write_bytes((FIX / "scanned.pdf").read_bytes())
    (folder / "encrypted.pdf").write_bytes((FIX / "encrypted.pdf").read_bytes())
    (folder / "truncated.pdf").write_bytes(PDF.read_bytes()[:20000])
    (folder / "page.pdf").write_bytes(b"<!DOCTYPE html><html><body>Not found</body></html>")
    (folder / "malformed.nxml").write_bytes(JATS.read_bytes()[:2500])
    _tar(folder / "oa_comm_xml.PMC009xxxxxx.baseline.tar.gz", {
        "PMC9000303/kinases.nxml": MEMBER,
        "PMC9000404/broken.nxml": b"<article><body><p>unclosed</body></article>"})
    (folder / "notes.docx").write_bytes(b"PK\x03\x04 not read")
    (folder / ".DS_Store").write_bytes(b"\x00")
    out = tmp_path_factory.mktemp("out")
    res = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                   str(folder), "--out", str(out), "--quiet",
                                   "--format", "tsv", "--format", "bioc", "--format", "brat",
                                   "--format", "indra"])
    return folder, out, res


def test_the_batch_goes_on_and_names_each_bad_file_once(batch):
    folder, out, res = batch
    assert res.exit_code == 3, res.output            # done, some inputs failed
    errors = _lines(out / "errors.jsonl")
    by_file = {Path(e["input"]).name: e for e in errors}
    assert len(errors) == len(by_file) == 6, errors
    expected = {"scanned.pdf": ("read", "no text layer"),
                "encrypted.pdf": ("read", "encrypted PDF"),
                "truncated.pdf": ("read", "truncated PDF"),
                "page.pdf": ("read", "not a PDF"),
                "malformed.nxml": ("read", "not well-formed"),
                "oa_comm_xml.PMC009xxxxxx.baseline.tar.gz": ("read", "broken.nxml")}
    for name, (stage, reason) in expected.items():
        assert by_file[name]["stage"] == stage and reason in by_file[name]["error"], name
    assert by_file["oa_comm_xml.PMC009xxxxxx.baseline.tar.gz"]["document"] == "broken"
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    # a file of no input format is passed over, not failed (.DS_Store only counted)
    assert summary["files_skipped"] == [{"file": str(folder / "notes.docx"),
                                         "reason": "unknown extension '.docx'"}]
    assert summary["hidden_files_skipped"] == 1
    assert summary["errors"] == 6 and summary["sections"] == "default"
    assert summary["documents"] == 4 and summary["truncated"] == 0
    settings = json.loads((out / ".settings.json").read_text("utf-8"))
    assert settings["sections"] == "default" and settings["pdf_max_pages"] == 300


@pytest.mark.slow
def test_every_good_paper_once_as_if_alone_with_sections_and_no_references(
        batch, extractor, tmp_path: Path):
    folder, out, _ = batch
    rels = _lines(out / "relations.jsonl")
    member = tmp_path / "kinases.nxml"
    member.write_bytes(MEMBER)
    alone: dict[str, list[dict]] = {}
    for path in (folder / "good.nxml", folder / "dtd.nxml", folder / "good.pdf", member):
        for r in extractor.extract(path):
            alone.setdefault(r.document_id, []).append(r.model_dump(mode="json"))
    assert sorted(alone) == ["90000101", "90000202", "90000303", "good"]
    got: dict[str, list[dict]] = {}
    for r in rels:
        got.setdefault(r["document_id"], []).append(r)
    assert got == alone                                  # each exactly once, as alone
    assert all(r["section"] for r in rels)
    assert not any(r["section"] in ("REF", "ACK_FUND", "AUTH_AFF", "COMP_INT") for r in rels)
    assert all(r["page"] >= 1 and r["boxes"] for r in got["good"])     # the PDF's
    assert not any("page" in r for r in got["90000202"])                # a JATS has none
    # the reference lists do state interactions: read with --sections all they are found
    refs = [r for r in extractor.__class__(sections="all", typer=extractor.typer)
            .extract(folder / "dtd.nxml") if r.section == "REF"]
    assert refs


def test_paper_fields_in_every_format(batch):
    _, out, _ = batch
    tsv = (out / "tsv" / "dtd.nxml.tsv").read_text("utf-8").splitlines()
    assert tsv[0].split("\t")[-3:] == ["section", "section_heading", "page"]
    assert {row.split("\t")[-3] for row in tsv[1:]} == {"ABSTRACT", "RESULTS"}
    bioc = (out / "bioc" / "good.pdf.xml").read_text("utf-8")
    assert '<infon key="section_type">RESULTS</infon>' in bioc
    assert '<infon key="page">2</infon>' in bioc and '<infon key="section">' in bioc
    indra = json.loads((out / "indra" / "good.pdf.json").read_text("utf-8"))
    ev = [e for s in indra for e in s["evidence"]]
    assert ev and all(e["annotations"]["section"] and e["annotations"]["page"] for e in ev)
    assert {e["epistemics"].get("section_type") for e in ev} >= {"abstract"}
    ann = next((out / "brat" / "good.pdf").glob("*.ann")).read_text("utf-8")
    assert "section=" in ann and "page=" in ann


def test_one_grounding_per_short_form_through_the_paper(batch):
    """``CBP`` alone names three genes; defined in the abstract as CREB-binding protein, it
    is CREBBP wherever it appears in the paper."""
    _, out, _ = batch
    rels = [r for r in _lines(out / "relations.jsonl") if r["document_id"] == "90000202"]
    cbp = [e for r in rels for e in (r["entity1"], r["entity2"]) if e["text"] == "CBP"]
    assert {r["section"] for r in rels if "CBP" in (r["entity1"]["text"],
                                                    r["entity2"]["text"])} == {"ABSTRACT",
                                                                               "RESULTS"}
    assert cbp and all(e["norm_ids"] == ["HGNC:2348"] for e in cbp)


@pytest.mark.slow
def test_pdf_caps_sections_option_and_resume(tmp_path: Path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "paper.pdf").write_bytes(PDF.read_bytes())
    _tar(folder / "oa_comm_xml.PMC1.tar.gz", {
        f"PMC{k}/a{k}.nxml": jats(f"9100000{k}", "T", f"JAK{k % 3 + 1} binds STAT{k}.",
                                  "No more.", "None.") for k in range(1, 4)})
    out = tmp_path / "out"
    args = ["extract", "--task", "ppi",
            str(folder), "--out", str(out), "--quiet", "--pdf-max-pages", "1",
            "--sections", "title,abstract", "--chunk-size", "1", "--no-types"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["truncated"] == 1 and summary["inputs_truncated"] == [str(folder /
                                                                              "paper.pdf")]
    assert summary["sections"] == ["ABSTRACT", "TITLE"]
    rels = _lines(out / "relations.jsonl")
    assert rels and {r["section"] for r in rels} <= {"TITLE", "ABSTRACT"}
    archive = json.loads((out / ".done" / "oa_comm_xml.PMC1.tar.gz.json").read_text("utf-8"))
    assert archive["chunks"] == 3 and archive["documents"] == 3
    before = (out / "relations.jsonl").read_text("utf-8")
    again = CliRunner().invoke(app, args)                # everything done: nothing redone
    assert again.exit_code == 0, again.output
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["inputs_skipped_as_done"] == 2
    assert (out / "relations.jsonl").read_text("utf-8") == before
    bad = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                   str(folder), "--out", str(tmp_path / "o3"),
                                   "--sections", "bibliography"])
    assert bad.exit_code == 2 and "unknown section" in bad.output


@pytest.mark.slow
def test_a_folder_of_only_pdfs_and_nxml(tmp_path: Path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "b.pdf").write_bytes(PDF.read_bytes())
    (folder / "a.nxml").write_bytes(MEMBER)
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                   str(folder), "--out", str(out), "--quiet",
                                   "--no-types", "--no-ground"])
    assert res.exit_code == 0, res.output
    assert json.loads((out / "summary.json").read_text("utf-8"))["documents"] == 2
    only = tmp_path / "none"
    only.mkdir()
    (only / "x.docx").write_bytes(b"PK")
    res = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                   str(only), "--out", str(tmp_path / "o2")])
    assert res.exit_code == 2 and "x.docx: unknown extension" in res.output


@pytest.mark.slow
def test_api_reads_and_extracts_papers(extractor, tmp_path: Path):
    import relx

    doc, = relx.read(PDF)
    assert doc.sections and doc.layout and doc.meta["pages"] == "2"
    (tmp_path / "cbp.nxml").write_bytes(CBP)
    found = list(extractor.pipe([PDF, tmp_path / "cbp.nxml", "JAK1 binds STAT5."]))
    assert len(found) == 3 and all(found)
    assert {r.section for r in found[0]} >= {"ABSTRACT", "RESULTS"}
    assert all(r.page for r in found[0]) and not any(r.page for r in found[1])
    assert all(r.section is None and "section" not in r.model_dump_json()
               for r in found[2])                  # plain text: as before
    only = type(extractor)(sections="results", typer=extractor.typer).extract(
        tmp_path / "cbp.nxml")
    assert only and {r.section for r in only} == {"RESULTS"}


@pytest.mark.slow
def test_events_from_a_paper_carry_their_section(tmp_path: Path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "cbp.nxml").write_bytes(CBP)
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["extract", str(folder), "--out", str(out), "--quiet",
                                   "--task", "events", "--format", "bioc"])
    assert res.exit_code == 0, res.output
    events = _lines(out / "events.jsonl")
    assert events and {e["section"] for e in events} <= {"TITLE", "ABSTRACT", "RESULTS"}
    text = (out / "standoff" / "90000202.txt").read_text("utf-8")
    assert "Gu W." in text                          # the whole text, references included
    a1 = (out / "standoff" / "90000202.a1").read_text("utf-8")
    refs = text.index("Gu W.")
    assert all(int(line.split("\t")[1].split()[1]) < refs for line in a1.splitlines())
    assert '<infon key="section_type">RESULTS</infon>' in (
        out / "bioc" / "cbp.nxml.xml").read_text("utf-8")


def test_short_forms_are_mentions_through_a_paper_not_an_abstract():
    from types import SimpleNamespace

    from relx.doc import Document, Entity, Section, Span
    from relx.parse.paper_mentions import short_form_mentions

    text = ("The APOBEC3G protein (A3G) binds Vif.\nResults\nVif degrades A3G, and the "
            "carboxyfluorescein-stained cells (cells) died; A3G rose.")

    def span(word: str, nth: int = 0) -> SimpleNamespace:
        i = -1
        for _ in range(nth + 1):
            i = text.index(word, i + 1)
        return SimpleNamespace(start_char=i, end_char=i + len(word), text=word)

    def short(word: str, nth: int, long: SimpleNamespace) -> SimpleNamespace:
        s = span(word, nth)
        s._ = SimpleNamespace(long_form=long)
        return s

    long = span("APOBEC3G protein")
    cells_long = span("carboxyfluorescein-stained cells")
    sdoc = SimpleNamespace(has_extension=lambda name: True, _=SimpleNamespace(abbreviations=[
        short("A3G", 0, long), short("A3G", 1, long), short("A3G", 2, long),
        short("cells", 1, cells_long)]))
    a3g_2 = span("A3G", 2)
    tagged = [Entity(id="p.e0", spans=[Span(start=long.start_char, end=long.end_char)]),
              Entity(id="p.e1", spans=[Span(start=cells_long.start_char,
                                            end=cells_long.end_char)]),
              Entity(id="p.e2", spans=[Span(start=a3g_2.start_char, end=a3g_2.end_char)])]
    paper = Document(id="p", text=text, sections=[
        Section(type="ABSTRACT", start=0, end=37),
        Section(type="RESULTS", start=38, end=len(text), heading="Results")])
    out = short_form_mentions(paper, sdoc, tagged)
    added = [(e.id, text[e.start:e.end], e.start) for e in out[3:]]
    assert added == [("p.e3", "A3G", span("A3G", 0).start_char),
                     ("p.e4", "A3G", span("A3G", 1).start_char)]   # not `cells`, not twice
    abstract = paper.model_copy(update={"sections": [Section(type="ABSTRACT", start=0,
                                                             end=len(text))]})
    assert short_form_mentions(abstract, sdoc, tagged) is tagged
