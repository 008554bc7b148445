"""A batch's merged outputs say what decided them and carry the network across documents."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from relx.app.cli import app
from tests.conftest import ROOT


@pytest.mark.slow
def test_summary_names_model_and_threshold_and_networks_are_written(tmp_path: Path):
    out = tmp_path / "out"
    inputs = [str(ROOT / "corpora" / "abstracts" / n) for n in ("jak-stat.txt", "p53-mdm2.txt")]
    res = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                   *inputs, "--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    rels = [json.loads(line) for line in (out / "relations.jsonl").read_text("utf-8").splitlines()]
    assert rels and summary["relations"] == len(rels)
    # the threshold and model version in the summary are those each record carries
    assert {r["threshold"] for r in rels} == {summary["threshold"]}
    assert {r["model_version"] for r in rels} == {summary["model_version"]}
    assert summary["model"] == "ppi-default"
    assert all(r["score"] > r["threshold"] for r in rels)
    # networks of the batch: one edge per grounded pair and type, negated evidence left out
    net = summary["network"]
    assert net["relations"] == len(rels)
    assert net["negated_left_out"] == sum(r["negated"] for r in rels)
    g = nx.read_graphml(out / "network.graphml", force_multigraph=True)
    assert g.number_of_edges() == net["edges"] > 0
    sif = (out / "network.sif").read_text("utf-8").splitlines()
    assert len(sif) == net["edges"]
    cy = json.loads((out / "network.cyjs").read_text("utf-8"))
    assert len(cy["elements"]["edges"]) == net["edges"]


@pytest.mark.slow
def test_indra_and_tsv_formats_carry_the_new_fields(tmp_path: Path):
    indra = pytest.importorskip("indra.statements")
    out = tmp_path / "out"
    text = ROOT / "corpora" / "abstracts" / "jak-stat.txt"
    res = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                   str(text), "--out", str(out), "--quiet",
                                   "--format", "tsv", "--format", "indra"])
    assert res.exit_code == 0, res.output
    rels = [json.loads(line) for line in (out / "relations.jsonl").read_text("utf-8").splitlines()]
    stmts = indra.stmts_from_json(json.loads((out / "indra" / "jak-stat.txt.json").read_text()))
    kept = [r for r in rels if not r["negated"]]
    # one Evidence per reported, non-negated relation's sentence, gathered under statements
    assert stmts and sum(len(s.evidence) for s in stmts) <= len(kept)
    assert all(s.evidence[0].source_api == "relx" for s in stmts)
    rows = (out / "tsv" / "jak-stat.txt.tsv").read_text("utf-8").splitlines()
    head = rows[0].split("\t")
    assert head[-9:] == ["negated", "speculated", "probability", "threshold", "type",
                         "direction", "event_score", "entity1_ncbi_ids", "entity2_ncbi_ids"]
    assert len(rows) - 1 == len(rels)
    for row, rel in zip(rows[1:], rels, strict=True):
        cells = dict(zip(head, row.split("\t"), strict=True))
        assert cells["entity1_ids"] == ";".join(rel["entity1"]["norm_ids"])
        assert cells["entity2_ncbi_ids"] == ";".join(rel["entity2"]["ncbi_ids"])
        assert float(cells["threshold"]) == rel["threshold"]
        assert cells["speculated"] == ("true" if rel["speculated"] else "false")
        assert cells["type"] == rel["type"] and cells["direction"] == (rel["direction"] or "")
    # the typed pass: typed relations' statements carry their type, agents in direction
    by_type = {type(s).__name__ for s in stmts}
    assert by_type == {"Complex" if r["type"] in ("Interaction", "Complex") else r["type"]
                       for r in kept} - {"Regulation"}


@pytest.mark.slow
def test_files_of_no_input_format_are_skipped_not_failed(tmp_path: Path):
    """A LICENSE and a README beside the inputs (as BioNLP-ST corpus folders ship them) are
    passed over: listed in summary.json and once on stderr, no error, exit code 0."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("STAT5 is phosphorylated by JAK1 in T cells.\n", "utf-8")
    (folder / "LICENSE").write_text("Creative Commons Attribution 3.0\n", "utf-8")
    (folder / "README").write_text("The devel set of the shared task.\n", "utf-8")
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                   str(folder), "--out", str(out), "--quiet",
                                   "--no-types"])
    assert res.exit_code == 0, res.output
    assert (out / "errors.jsonl").read_text("utf-8") == ""
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["errors"] == 0 and summary["inputs_with_errors"] == []
    assert summary["files_skipped"] == [
        {"file": str(folder / "LICENSE"), "reason": "no extension"},
        {"file": str(folder / "README"), "reason": "no extension"}]
    assert res.output.count("2 files not read") == 1
    assert "LICENSE (no extension)" in res.output and "errors" not in res.output


def test_the_bionlp_st_folders_license_and_readme_are_skipped():
    """The corpus folder the issue met: its LICENSE and README are what the scan passes
    over (by name; no extraction here)."""
    from relx.app.batch import list_inputs
    from tests.conftest import SHARED

    devel = SHARED / "corpora" / "bionlp-st-ge" / "2011" / "devel"
    if not devel.is_dir():
        pytest.skip(f"{devel} not available (set RELX_DATA to the shared data folder)")
    skipped: list[tuple[Path, str]] = []
    files = list_inputs([devel], skipped=skipped)
    assert files and {p.name for p, _ in skipped} == {"LICENSE", "README"}


@pytest.mark.slow
def test_a_symlink_to_a_file_elsewhere_is_an_input_under_its_own_name(tmp_path: Path):
    from relx.app.batch.plan import input_keys

    real, folder = tmp_path / "real", tmp_path / "in"
    real.mkdir()
    folder.mkdir()
    (real / "jak-stat.txt").write_text((ROOT / "corpora/abstracts/jak-stat.txt").read_text())
    (folder / "jak.txt").symlink_to(real / "jak-stat.txt")
    assert input_keys([folder / "jak.txt"], [folder]) == ["jak.txt"]
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                   str(folder), "--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    assert json.loads((out / "summary.json").read_text())["documents"] >= 1


def test_the_engines_only_schedule_and_finish_writes_the_input(tmp_path: Path):
    """``run_schedule`` yields each input whose chunks are all back, its chunk records on
    disk and no input record yet; ``finish_input`` assembles its outputs and writes its
    record. (An input that cannot be read: one chunk of reading errors, no extractor.)"""
    from relx.app.batch import (
        BatchOptions,
        FinishedInput,
        Schedule,
        finish_input,
        input_record_path,
        make_plan,
        run_schedule,
    )

    bad = tmp_path / "bad.xml"
    bad.write_text("<collection><document>", encoding="utf-8")
    plan = make_plan(BatchOptions(out=str(tmp_path / "out"), formats=("jsonl", "tsv"),
                                  ground=False))
    done = list(run_schedule(Schedule([(bad, "bad.xml")], plan)))
    assert [type(d) for d in done] == [FinishedInput]
    (got,) = done
    assert (got.path, got.key, [r["chunk"] for r in got.records]) == (bad, "bad.xml", [0])
    assert [e["stage"] for e in got.records[0]["errors"]] == ["read"]
    assert (plan.out / ".done" / "bad.xml" / "00000.json").is_file()
    assert not input_record_path(plan.out, "bad.xml").exists()
    assert not (plan.out / "jsonl").exists()
    finish_input(plan, got)
    rec = json.loads(input_record_path(plan.out, "bad.xml").read_text("utf-8"))
    assert (rec["chunks"], rec["documents"], rec["failed"]) == (1, 0, False)
    assert rec["errors"] == got.records[0]["errors"]
    assert (plan.out / "jsonl" / "bad.xml.jsonl").read_text("utf-8") == ""
    assert (plan.out / "tsv" / "bad.xml.tsv").is_file()
