"""The issue-4 ablation table of docs/results.md: rows from a data file, "not run" cells."""

from __future__ import annotations

import json

from lab.results import (
    ABLATION_SETTINGS,
    ablation_config,
    ablation_report,
    ablation_rows,
    load_ablation,
    render_ablation,
    run_ablation,
)


def _report(f1, secs=12.0):
    return {"precision": 0.5, "recall": 0.5, "f1": f1, "roc_auc": 0.7, "train_seconds": secs}


def test_ablation_rows_configs_and_reports(tmp_path):
    data = tmp_path / "ablation.toml"
    data.write_text('[[row]]\nname = "A"\nkey = "a"\nconfig = "configs/ppi-klsh-rf.toml"\n'
                    'method = "KLSH-RF"\n\n[[row]]\nname = "B"\nkey = "b"\n'
                    'config = "x.toml"\nconfig_BioInfer = "y.toml"\n', encoding="utf-8")
    rows = ablation_rows(data)
    assert [r["key"] for r in rows] == ["a", "b"]
    assert ablation_config(rows[1], "BioInfer") == "y.toml"
    assert ablation_config(rows[1], "AIMed") == "x.toml"
    assert ablation_report(rows[0], "AIMed", None, tmp_path) == tmp_path / "KLSH-RF__AIMed__cv10.json"
    f = ablation_report(rows[1], "BioInfer", "AIMed", tmp_path)
    assert f == tmp_path / "ablation" / "b__BioInfer__AIMed.json"
    f.parent.mkdir()
    f.write_text(json.dumps(_report(0.456, 98.6)))
    found = load_ablation(rows, tmp_path)
    assert list(found) == [("b", "BioInfer", "AIMed")]
    table = render_ablation(rows, found)
    line_b = next(x for x in table if x.startswith("| B |"))
    assert line_b.count("not run") == len(ABLATION_SETTINGS) - 1
    assert "| 0.456 |" in line_b and line_b.endswith("| 99 |")
    line_a = next(x for x in table if x.startswith("| A |"))
    assert line_a.count("not run") == len(ABLATION_SETTINGS) + 1  # + train seconds
    assert ablation_rows(tmp_path / "missing.toml") == [] and render_ablation([], {}) == []


def test_run_ablation_skips_rows_without_a_config(tmp_path):
    rows = [{"name": "later", "key": "later", "config": str(tmp_path / "not-built-yet.toml")}]
    results: dict = {}
    run_ablation(rows, tmp_path, tmp_path, results)  # nothing to run, nothing fails
    assert results == {} and not (tmp_path / "ablation").exists()


def test_ablation_only_rows_option_rejects_unknown_row_keys(tmp_path, capsys):
    import pytest

    from lab.results import main

    with pytest.raises(SystemExit):
        main(["--ablation-only", "--rows", "no-such-row", "--runs", str(tmp_path / "runs"),
              "--out", str(tmp_path / "results.md")])
    assert "no-such-row" in capsys.readouterr().err


def test_every_ablation_row_names_an_existing_config():
    from pathlib import Path

    rows = ablation_rows()
    assert {"best-lr", "pair-lr", "klsh-rf-youden"} <= {r["key"] for r in rows}
    for row in rows:
        for a, _ in ABLATION_SETTINGS:
            assert Path(ablation_config(row, a)).exists(), row


def test_ablation_chart_draws_one_bar_per_report_and_the_published_lines():
    import xml.etree.ElementTree as ET

    from lab.results_chart import PUBLISHED, ablation_svg

    rows = [{"name": "plain", "key": "a"}, {"name": "best <one>", "key": "b", "best": True}]
    found = {("a", "AIMed", "BioInfer"): _report(0.4), ("b", "AIMed", "BioInfer"): _report(0.6),
             ("b", "IEPA", None): _report(0.75)}
    svg = ablation_svg(rows, found, ABLATION_SETTINGS)
    root = ET.fromstring(svg)  # our own text: well-formed, names escaped
    ns = "{http://www.w3.org/2000/svg}"
    bars = [r for r in root.iter(ns + "rect") if r.find(ns + "title") is not None]
    assert len(bars) == len(found)
    widths = sorted(float(r.get("width")) for r in bars)
    assert widths == [0.4 * 150, 0.6 * 150, 0.75 * 150]
    assert [r.get("fill") for r in bars].count("#d95f02") == 2  # the best row, both cells
    dashed = [x for x in root.iter(ns + "line") if x.get("stroke-dasharray")]
    assert len(dashed) == sum(s in PUBLISHED for s in ABLATION_SETTINGS)
    assert "best &lt;one&gt;" in svg


def test_a_row_with_missing_extra_training_pairs_says_how_to_build_them(tmp_path):
    import pytest

    rows = [{"name": "silver", "key": "s", "config": "configs/ppi-klsh-rf.toml",
             "extra_train": [str(tmp_path / "silver.jsonl")]}]
    with pytest.raises(FileNotFoundError, match="make silver"):
        run_ablation(rows, tmp_path, tmp_path, {})
