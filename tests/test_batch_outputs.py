"""A batch's merged outputs say what decided them and carry the network across documents."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
from typer.testing import CliRunner

from relx.app.cli import app
from tests.conftest import ROOT


def test_summary_names_model_and_threshold_and_networks_are_written(tmp_path: Path):
    out = tmp_path / "out"
    inputs = [str(ROOT / "corpora" / "abstracts" / n) for n in ("jak-stat.txt", "p53-mdm2.txt")]
    res = CliRunner().invoke(app, ["extract", *inputs, "--out", str(out), "--quiet"])
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
