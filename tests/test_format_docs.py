"""The format table describes itself: each row's content test on its own fixture, and the
docs' format tables and the CLI's help made from the rows."""

from __future__ import annotations

import gzip
import shutil

import pytest

from relx.io.format_docs import BEGIN, readable, regenerate, streams, with_mentions
from relx.io.registry import FORMATS, detect_format, sniff
from relx.io.sniff import Sample
from tests.conftest import FIXTURES, ROOT

#: per format with a content test (an XML root or ``sniff``), a fixture of it
OWN_FIXTURE = {
    "ppi-xml": FIXTURES / "ppi-mini.xml",
    "pubmed": FIXTURES / "fmt-pubmed.xml",
    "jats": FIXTURES / "papers" / "jats-features.nxml",
    "pdf": FIXTURES / "papers" / "two-column.pdf",
    "bioc": FIXTURES / "fmt-bioc.xml",
    "bioc-json": FIXTURES / "fmt-bioc.json",
    "jsonl": FIXTURES / "ge-parsed.jsonl",
    "pubtator": FIXTURES / "fmt-pubtator.txt",
    "txt": FIXTURES / "fmt-plain.txt",
}


def test_every_row_with_a_content_test_has_a_fixture():
    tested = {n for n, f in FORMATS.items()
              if f.reader and (f.xml_roots or f.sniff) and not f.companions}
    assert tested == set(OWN_FIXTURE)


@pytest.mark.parametrize("name", sorted(OWN_FIXTURE))
def test_each_row_sniffs_its_own_fixture(name, tmp_path):
    row, fixture = FORMATS[name], OWN_FIXTURE[name]
    sample = Sample(fixture)
    assert sample.root() in row.xml_roots if row.xml_roots else row.sniff(sample)
    # without its suffix, the content alone says it, first of all rows
    bare = shutil.copy(fixture, tmp_path / "stream")
    assert sniff(bare) == name and detect_format(bare) == name
    # and by its suffix the row confirms it
    assert detect_format(fixture) == name


@pytest.mark.parametrize("content", [b"\xff\xfe\x00\x01" * 64, b"<html><body/></html>"])
def test_an_unknown_file_sniffs_as_none(content, tmp_path):
    path = tmp_path / "unknown"
    path.write_bytes(content)
    assert sniff(path) is None


def test_suffix_rows_and_companions(tmp_path):
    txt = shutil.copy(FIXTURES / "st-mini.txt", tmp_path / "doc.txt")
    assert detect_format(txt) == "txt"           # no .a1 beside it yet
    shutil.copy(FIXTURES / "st-mini.a1", tmp_path / "doc.a1")
    assert detect_format(txt) == "standoff"
    gz = tmp_path / "pm.xml.gz"
    gz.write_bytes(gzip.compress((FIXTURES / "fmt-pubmed.xml").read_bytes()))
    assert detect_format(gz) == "pubmed"


def test_docs_format_tables_are_what_the_rows_make():
    """Run ``python dev/format_tables.py`` after changing FORMATS."""
    pages = [p for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
             if BEGIN in p.read_text("utf-8")]
    assert {p.name for p in pages} >= {"architecture.md", "papers.md"}
    for page in pages:
        text = page.read_text("utf-8")
        assert regenerate(text) == text, f"{page.name}: run python dev/format_tables.py"
    every = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    assert all(f"| `{n}` |" in every for n in FORMATS)


def test_cli_help_lists_the_rows():
    from typer.testing import CliRunner

    from relx.app.cli import app

    for command, names in (("extract", readable() + with_mentions() + ["tsv", "indra"]),
                           ("parse", streams())):
        r = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"},
                               terminal_width=400)
        assert r.exit_code == 0, r.output
        text = " ".join(r.output.split())
        for n in names:
            assert n in text, (command, n)
