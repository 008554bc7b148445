"""Whose protein mentions a batch uses (--mentions), recorded in summary.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from relx.app.cli import app
from relx.model_store import models_dir
from relx.ppi.model import DEFAULT_MODEL

if not (models_dir() / DEFAULT_MODEL / "meta.json").exists():
    pytest.skip("shipped model models/ppi-default missing", allow_module_level=True)

TEXT = "JAK1 phosphorylates STAT5, and SOCS3 binds JAK2 in T cells."
# doc 1 brings two of its own mentions (JAK1, STAT5); doc 2 brings none
PUBTATOR = (f"1|t|{TEXT}\n1|a|\n1\t0\t4\tJAK1\tGene\t3716\n1\t20\t25\tSTAT5\tGene\t6776\n\n"
            f"2|t|{TEXT}\n2|a|\n\n")


def _run(tmp_path: Path, mode: str | None) -> tuple[dict, list[dict]]:
    inp = tmp_path / "in.pubtator"
    inp.write_text(PUBTATOR)
    out = tmp_path / f"out-{mode}"
    args = ["extract", "--task", "ppi",
            str(inp), "--out", str(out), "--quiet", "--no-ground", "--no-types",
            "--threshold", "-1000"]          # every candidate pair is reported
    res = CliRunner().invoke(app, args + ([] if mode is None else ["--mentions", mode]))
    assert res.exit_code == 0, res.output
    rels = [json.loads(x) for x in (out / "relations.jsonl").read_text().splitlines()]
    return json.loads((out / "summary.json").read_text()), rels


def _pairs(rels: list[dict], doc: str) -> set[frozenset[str]]:
    return {frozenset((r["entity1"]["text"], r["entity2"]["text"])) for r in rels
            if r["document_id"] == doc}


@pytest.mark.slow
def test_mentions_modes(tmp_path: Path) -> None:
    summary, rels = _run(tmp_path, None)
    assert summary["mentions"] == "auto"
    assert _pairs(rels, "1") == {frozenset({"JAK1", "STAT5"})}     # only the input's own
    assert _pairs(rels, "2") == set()        # no tagger mentions added to a bare document
    _, rels = _run(tmp_path, "relx")
    tagged = _pairs(rels, "2")
    assert frozenset({"SOCS3", "JAK2"}) in tagged and _pairs(rels, "1") == tagged
    _, rels = _run(tmp_path, "both")
    both = _pairs(rels, "1")
    assert frozenset({"JAK1", "STAT5"}) in both and frozenset({"SOCS3", "JAK2"}) in both
    summary, rels = _run(tmp_path, "input")
    assert summary["mentions"] == "input" and _pairs(rels, "2") == set()


@pytest.mark.slow
def test_an_input_without_any_mentions_is_tagged_under_auto(tmp_path: Path) -> None:
    inp = tmp_path / "bare.pubtator"
    inp.write_text(f"9|t|{TEXT}\n9|a|\n\n")
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                   str(inp), "--out", str(out), "--quiet",
                                   "--no-ground", "--no-types", "--threshold", "-1000"])
    assert res.exit_code == 0, res.output
    rels = [json.loads(x) for x in (out / "relations.jsonl").read_text().splitlines()]
    assert frozenset({"SOCS3", "JAK2"}) in _pairs(rels, "9")


def test_both_is_refused_for_events(tmp_path: Path) -> None:
    inp = tmp_path / "a.txt"
    inp.write_text(TEXT)
    res = CliRunner().invoke(app, ["extract", str(inp), "--out", str(tmp_path / "o"),
                                   "--task", "events", "--mentions", "both"])
    assert res.exit_code == 2 and "--mentions" in res.output


def test_auto_resolves_an_empty_annotation_file_to_the_inputs_own() -> None:
    """Issue 54: a standoff document read with an empty ``.a1`` has zero mentions under
    ``auto`` (its annotation file is there); a PubTator abstract without annotation lines
    is an unannotated input, tagged."""
    from relx.app.batch.engines import mentions_for
    from relx.io.registry import FORMATS, read

    fixtures = Path(__file__).parent / "fixtures"
    docs = list(read(fixtures / "ge-no-proteins.txt"))
    assert len(docs) == 1 and not docs[0].sentences       # read as standoff, no entities
    assert mentions_for("auto", "standoff", docs) == "input"
    assert mentions_for("relx", "standoff", docs) == "relx"
    assert mentions_for("auto", "pubtator", docs) == "relx"
    assert mentions_for("auto", "txt", docs) == "relx"
    assert FORMATS["standoff"].annotation_file and not FORMATS["pubtator"].annotation_file
