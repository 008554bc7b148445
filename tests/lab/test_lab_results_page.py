from __future__ import annotations

from lab.results import render, settings


def _r(f1, cv=False):
    r = {"precision": 0.5, "recall": 0.5, "f1": f1, "roc_auc": 0.7, "n_train": 10, "n_test": 5,
         "train_seconds": 1.0, "predict_seconds": 0.5}
    if cv:
        r.update(f1_mean=f1, f1_std=0.01)
    return r


def test_settings_cover_matrix_and_cv():
    s = settings()
    assert len(s) == 9 and ("AIMed", "BioInfer") in s and ("IEPA", None) in s


def test_render_places_cv_on_the_diagonal():
    page = render({("KLSH-RF", "AIMed", "BioInfer"): _r(0.512),
                   ("KLSH-RF", "AIMed", None): _r(0.601, cv=True)})
    row = next(line for line in page.splitlines() if line.startswith("| AIMed |"))
    assert row == "| AIMed | 0.601 | 0.512 | — |"
    assert "0.601 ± 0.010" in page and "How settings were chosen" in page


def test_events_section_names_its_training_data_and_the_earlier_recipe(tmp_path):
    import json

    from lab.results import render_events

    t = {"gold": 10, "pred": 8, "precision": 0.5, "recall": 0.4, "f1": 0.444}
    rep = {"precision": 0.61, "recall": 0.49, "f1": 0.543, "per_type": {"ALL": t},
           "strict": {"f1": 0.5}, "approx_span": {"f1": 0.54}, "train_seconds": 250.0,
           "predict_seconds": 12.0, "n_test_docs": 259, "test": "x/2011/devel",
           "train": ["x/2011/train", "x/2013/train"]}
    (tmp_path / "ge-events.json").write_text(json.dumps(rep))
    lines = render_events(tmp_path)
    assert lines[0] == "## GENIA events (BioNLP-ST GE 2011 train + GE 2013 train → GE 2011 devel)"
    assert "| ALL | 10 | 8 | 0.500 | 0.400 | 0.444 |" in lines
    assert not any("alone" in line for line in lines)
    (tmp_path / "ge-events-2011train.json").write_text(json.dumps({**rep, "f1": 0.528}))
    assert any("GE 2011 train alone" in line and "F1 0.528" in line
               for line in render_events(tmp_path))


def test_the_committed_page_is_what_its_run_reports_render(tmp_path):
    """docs/results.md holds nothing the renderer would drop: rebuilt from docs/runs alone
    (``--render-only``) it is byte for byte the committed page, chart included."""
    from pathlib import Path

    from lab.results import main

    docs = Path(__file__).resolve().parents[2] / "docs"
    out = tmp_path / "results.md"
    main(["--render-only", "--runs", str(docs / "runs"), "--out", str(out)])
    assert out.read_text(encoding="utf-8") == (docs / "results.md").read_text(encoding="utf-8")
    assert (tmp_path / "results-ablation.svg").read_text(encoding="utf-8") == \
        (docs / "results-ablation.svg").read_text(encoding="utf-8")
    if (docs / "runs" / "speed.json").exists():
        assert (tmp_path / "results-speed.svg").read_text(encoding="utf-8") == \
            (docs / "results-speed.svg").read_text(encoding="utf-8")


def test_speed_section_and_chart(tmp_path):
    import json
    import xml.etree.ElementTree as ET

    from lab.results import render_speed
    from lab.results_chart import speed_svg

    runs = [{"task": "typed", "processes": 1, "abstracts_per_s": 9.0,
             "parse_only_abstracts_per_s": 20.0, "peak_rss_mb": 900,
             "worker_peak_rss_mb": 860, "load_before": 0.1, "load_after": 1.0},
            {"task": "ppi", "processes": 2, "abstracts_per_s": 36.0,
             "parse_only_abstracts_per_s": 38.0, "peak_rss_mb": 1800, "load_before": 0.2,
             "load_after": 2.0}]
    start = {"repeat": 5, "load_s": {"median": 6.5}, "extract_one_s": {"median": 7.7},
             "floor_s": {"median": 2.3}}
    assert render_speed(tmp_path) == []
    (tmp_path / "speed.json").write_text(json.dumps(
        {"measured": "2026-11-28 23:50 UTC", "cpus": 2, "extract": runs, "start": start}))
    lines = render_speed(tmp_path)
    assert "| typed | 1 | 20.0 | 9.0 | 45% | 860 / 900 | 0.1 / 1.0 |" in lines
    assert "| ppi | 2 | 38.0 | 36.0 | 95% | - / 1800 | 0.2 / 2.0 |" in lines  # an older run
    assert any("`relx.load()` 6.50 s" in line and "floor" in line for line in lines)
    runs[0]["shares"] = [0.45, 0.52, 0.4]          # median of 3 rounds, their range beside
    (tmp_path / "speed.json").write_text(json.dumps(
        {"measured": "2026-11-29 14:00 UTC", "cpus": 2, "rounds": 3, "extract": runs,
         "start": start}))
    lines = render_speed(tmp_path)
    assert "| typed | 1 | 20.0 | 9.0 | 45% (40%-52%) | 860 / 900 | 0.1 / 1.0 |" in lines
    assert any("median of 3 rounds" in line for line in lines)
    svg = ET.fromstring(speed_svg(runs))
    texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert "20.0 / 9.0 (45%)" in texts and "38.0 / 36.0 (95%)" in texts


def test_speed_report_keeps_each_configurations_median_round():
    from lab.speed_report import median_round

    rounds = [{"abstracts_per_s": a, "parse_only_abstracts_per_s": 10.0, "n": i}
              for i, a in enumerate((7.0, 9.0, 5.0))]
    got = median_round(rounds)
    assert got["n"] == 0 and got["shares"] == [0.7, 0.9, 0.5]
    assert median_round(rounds[:2])["n"] == 0          # even count: the lower middle one


def test_speed_report_pools_the_start_up_runs_of_its_rounds():
    from lab.speed_report import pooled_start

    parts = [{"task": "ppi", "runs": {"load_s": [5.0, 7.0], "floor_s": [2.0, 2.2]}},
             {"task": "ppi", "runs": {"load_s": [4.0], "floor_s": [1.8]}}]
    got = pooled_start(parts)
    assert got["repeat"] == 3 and got["task"] == "ppi"
    assert got["load_s"] == {"median": 5.0, "min": 4.0, "max": 7.0}
    assert got["floor_s"]["median"] == 2.0
