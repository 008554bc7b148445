"""The unseen-text check of the naming rounds (lab.genes.unseen, docs/genes.md round 65 on):
relx's gene mentions on GE 2011 abstracts and the PPI corpora, and what a change changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.genes import unseen
from tests.conftest import SHARED

GE = SHARED / "corpora" / "bionlp-st-ge" / "2011"
PPI = SHARED / "corpora" / "ppi" / "AImed-learning-format.xml.gz"


@pytest.mark.skipif(not GE.exists(), reason="needs ../shared/corpora/bionlp-st-ge")
def test_rows_and_changes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "now.tsv"
    assert unseen.main(["--out", str(out), "--limit", "3"]) == 0
    rows = unseen.read(out)
    assert rows and all(ids == "-" or ":" in ids for _, ids in rows.values())
    first = next(iter(rows))
    # an earlier run that named the first mention otherwise: the change is listed
    before = tmp_path / "before.tsv"
    lines = out.read_text(encoding="utf-8").splitlines()
    cols = lines[0].split("\t")
    cols[4] = "HGNC:0"
    before.write_text("\n".join(["\t".join(cols), *lines[1:]]) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert unseen.main(["--out", str(out), "--limit", "3", "--before", str(before)]) == 0
    printed = capsys.readouterr().out
    assert "1 mentions changed" in printed and f"{first[0]}\t" in printed and "HGNC:0 ->" in printed


@pytest.mark.skipif(not PPI.exists(), reason="needs ../shared/corpora/ppi")
def test_ppi_abstracts_are_whole_documents() -> None:
    docs = unseen.ppi_abstracts(limit=2)
    assert len(docs) == 2 and all(d.text and not d.sentences for d in docs)
