from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from relx.app.cli import app
from relx.io import read_ppi_xml, write_jsonl
from relx.ppi.evaluate import document_folds, f1_interval
from tests.conftest import ROOT

runner = CliRunner()
CONFIG = ROOT / "configs" / "ppi-klsh-rf.toml"


@pytest.fixture
def corpus(tmp_path, mini_xml):
    """12 documents made from the mini fixture (ids renamed), as relx JSONL."""
    base = list(read_ppi_xml(mini_xml))
    docs = []
    for k in range(6):
        for d in base:
            docs.append(d.model_copy(update={"id": f"{d.id}.copy{k}"}))
    path = tmp_path / "corpus.jsonl"
    write_jsonl(docs, path)
    return path


def test_folds_are_by_document_seeded_and_balanced(corpus):
    from relx.io import read_jsonl
    docs = list(read_jsonl(corpus))
    folds = document_folds(docs, 3, seed=7)
    assert folds == document_folds(docs, 3, seed=7)
    assert folds != document_folds(docs, 3, seed=8)
    assert sorted(folds.values()).count(0) == 4 and set(folds.values()) == {0, 1, 2}


@pytest.mark.slow
def test_cv_report_and_fold_file(tmp_path, corpus):
    report = tmp_path / "cv.json"
    res = runner.invoke(app, ["evaluate", "--config", str(CONFIG), "--cv", "3",
                              "--corpus", str(corpus), "--report", str(report)])
    assert res.exit_code == 0, res.output
    r = json.loads(report.read_text())
    for key in ("precision", "recall", "f1", "roc_auc", "n_train", "n_test", "train_seconds",
                "predict_seconds", "parse_source", "config", "folds", "f1_mean", "f1_std", "pooled"):
        assert key in r
    assert len(r["folds"]) == 3 and r["n_test"] == 42
    assert r["parse_source"] == "corpus:split_parse"
    folds = json.loads((tmp_path / "cv.folds.json").read_text())
    assert folds["k"] == 3 and len(folds["folds"]) == 12
    # every pair is tested exactly once, in the fold of its document
    assert sum(f["n_test"] for f in r["folds"]) == 42
    assert "F1" in res.output
    lo, hi = r["f1_ci95"]
    assert 0 <= lo <= r["f1"] <= hi <= 1 and "95 % interval" in res.output


@pytest.mark.slow
def test_train_test_report(tmp_path, corpus, mini_xml):
    report = tmp_path / "tt.json"
    res = runner.invoke(app, ["evaluate", "--config", str(CONFIG), "--train", str(corpus),
                              "--test", str(mini_xml), "--report", str(report), "--quiet"])
    assert res.exit_code == 0, res.output
    r = json.loads(report.read_text())
    assert r["n_train"] == 42 and r["n_test"] == 7 and 0 <= r["f1"] <= 1
    assert res.output == ""


@pytest.mark.slow
def test_set_overrides_config_values_and_is_recorded(tmp_path, corpus, mini_xml):
    report = tmp_path / "tt.json"
    res = runner.invoke(app, ["evaluate", "--config", str(CONFIG), "--train", str(corpus),
                              "--test", str(mini_xml), "--report", str(report), "--quiet",
                              "--set", "forest.n_estimators=7", "--set", "klsh.reference=random",
                              "--set", "forest.threshold=youden"])
    assert res.exit_code == 0, res.output
    cfg = json.loads(report.read_text())["config"]
    assert cfg["forest"]["n_estimators"] == 7 and cfg["klsh"]["reference"] == "random"
    assert cfg["forest"]["threshold"] == "youden" and cfg["klsh"]["n_bits"] == 1000
    res = runner.invoke(app, ["evaluate", "--config", str(CONFIG), "--train", str(corpus),
                              "--test", str(mini_xml), "--report", str(report),
                              "--set", "n_estimators=7"])
    assert res.exit_code == 2 and "section.key" in res.output


def test_apply_overrides_reads_toml_values():
    from relx.registry import ConfigError, apply_overrides

    cfg = {"a": {"x": 1}}
    apply_overrides(cfg, ["a.x=0.5", "a.flag=true", "a.list=[1, 2]", "a.word=none",
                          "b.name=\"q\""])
    assert cfg == {"a": {"x": 0.5, "flag": True, "list": [1, 2], "word": "none"},
                   "b": {"name": "q"}}
    assert apply_overrides(cfg, {"a.x": 3})["a"]["x"] == 3
    with pytest.raises(ConfigError, match="section.key=value"):
        apply_overrides(cfg, ["a.x"])


def test_clear_errors(tmp_path, mini_xml):
    bad = tmp_path / "bad.xml"
    bad.write_text(mini_xml.read_text().replace('interaction="True"', 'interaction="yes"', 1))
    res = runner.invoke(app, ["evaluate", "--config", str(CONFIG), "--train", str(bad),
                              "--test", str(mini_xml), "--report", str(tmp_path / "r.json")])
    assert res.exit_code == 2 and "bad.xml" in res.output and "mini.d0.s0.p0" in res.output
    res = runner.invoke(app, ["evaluate", "--config", str(CONFIG), "--cv", "3",
                              "--corpus", str(mini_xml), "--parses", "nonsense",
                              "--report", str(tmp_path / "r.json")])
    assert res.exit_code == 2 and "--parses must be one of" in res.output
    res = runner.invoke(app, ["evaluate", "--config", str(CONFIG), "--train", str(mini_xml),
                              "--test", str(mini_xml), "--parses", "relx", "--spacy-model",
                              str(tmp_path / "no-such-pipeline"),
                              "--report", str(tmp_path / "r.json")])
    assert res.exit_code == 2 and "no-such-pipeline" in res.output


@pytest.mark.slow
def test_relx_parses(tmp_path, corpus, mini_xml):
    """--parses relx re-parses every sentence with relx's pipeline; pairs stay the same."""
    from relx.model_store import models_dir

    if not (models_dir() / "relx_bio_sm").exists():
        pytest.skip("shipped pipeline missing")
    report = tmp_path / "r.json"
    res = runner.invoke(app, ["evaluate", "--config", str(CONFIG), "--train", str(corpus),
                              "--test", str(mini_xml), "--parses", "relx", "--report",
                              str(report), "--quiet"])
    assert res.exit_code == 0, res.output
    r = json.loads(report.read_text())
    assert r["parse_source"] == "relx:relx_bio_sm" and (r["n_train"], r["n_test"]) == (42, 7)


def test_score_events_cli(tmp_path):
    import shutil

    from tests.conftest import FIXTURES
    gold = tmp_path / "gold"
    gold.mkdir()
    for ext in ("txt", "a1", "a2"):
        shutil.copy(FIXTURES / f"st-mini.{ext}", gold / f"st-mini.{ext}")
    res = runner.invoke(app, ["score-events", "--gold", str(gold), "--pred", str(gold), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["f1"] == 1.0
    empty = tmp_path / "pred"
    empty.mkdir()
    res = runner.invoke(app, ["score-events", "--gold", str(gold), "--pred", str(empty), "--json"])
    r = json.loads(res.output)
    assert r["recall"] == 0.0 and r["gold"] > 0


def test_score_events_goes_on_past_an_unreadable_prediction(tmp_path):
    """Issue 54: a predicted .a2 naming an id absent from the gold .a1 is reported (file,
    line, reason), counted wrong, and the rest is scored; exit code 3."""
    import shutil

    from tests.conftest import FIXTURES
    gold, pred, alone = tmp_path / "gold", tmp_path / "pred", tmp_path / "alone"
    for d in (gold, pred, alone):
        d.mkdir()
    for name in ("st-mini", "ge-1"):
        for ext in ("txt", "a1", "a2"):
            shutil.copy(FIXTURES / f"{name}.{ext}", gold / f"{name}.{ext}")
    for ext in ("txt", "a1", "a2"):
        shutil.copy(FIXTURES / f"st-mini.{ext}", alone / f"st-mini.{ext}")
    shutil.copy(gold / "st-mini.a2", pred / "st-mini.a2")
    (pred / "ge-1.a2").write_text("T6\tBinding 0 11\tInteraction\n"
                                  "E1\tBinding:T6 Theme:T1\n"
                                  "E2\tBinding:T6 Theme:T99\n")
    res = runner.invoke(app, ["score-events", "--gold", str(gold), "--pred", str(pred),
                              "--json"])
    assert res.exit_code == 3, res.output
    assert "ge-1.a2: line 3: argument refers to unknown id 'T99'" in res.stderr
    assert "1 of the predicted files could not be read" in res.stderr
    r = json.loads(res.stdout)
    ref = json.loads(runner.invoke(app, ["score-events", "--gold", str(alone), "--pred",
                                         str(alone), "--json"]).stdout)
    assert ref["f1"] == 1.0 and ref["gold"] > 0
    assert r["unreadable"] == [{"file": str(pred / "ge-1.a2"), "where": "line 3",
                                "error": "argument refers to unknown id 'T99'", "events": 2}]
    assert r["gold"] == ref["gold"] + 5 and r["gold_match"] == ref["gold_match"]
    assert r["pred"] == ref["pred"] + 2 and r["pred_match"] == ref["pred_match"]
    assert r["per_type"]["Binding"]["pred"] == ref["per_type"]["Binding"]["pred"] + 2
    res = runner.invoke(app, ["score-events", "--gold", str(gold), "--pred", str(pred)])
    assert res.exit_code == 3 and "ALL" in res.stdout and "line 3" in res.stderr
    (gold / "ge-1.a1").write_text("T1\tProtein 0 3\tnot the text\n")   # bad gold: exit 2
    res = runner.invoke(app, ["score-events", "--gold", str(gold), "--pred", str(pred)])
    assert res.exit_code == 2 and "ge-1.a1" in res.stderr


@pytest.mark.slow
def test_extra_training_pairs_join_every_fold_and_are_never_tested(tmp_path, corpus):
    from relx.ge.ppi_pairs import silver_ppi_documents
    from relx.io import read_jsonl
    from relx.io.standoff import read_standoff

    fx = ROOT / "tests" / "fixtures"
    names = ("ge-1", "ge-2", "ge-3")
    parsed = {d.id: d for d in read_jsonl(fx / "ge-parsed.jsonl")}
    silver = silver_ppi_documents([read_standoff(fx / f"{n}.txt") for n in names],
                                  [parsed[n] for n in names])
    extra = tmp_path / "silver.jsonl"
    write_jsonl(silver, extra)
    plain, with_extra = tmp_path / "plain.json", tmp_path / "extra.json"
    for out, more in ((plain, []), (with_extra, ["--extra-train", str(extra)])):
        res = runner.invoke(app, ["evaluate", "--config", str(CONFIG), "--cv", "3", "--corpus",
                                  str(corpus), "--report", str(out), "--quiet", *more])
        assert res.exit_code == 0, res.output
    a, b = json.loads(plain.read_text()), json.loads(with_extra.read_text())
    assert a["n_test"] == b["n_test"] == 42  # the 7 silver pairs are never tested
    assert [f["n_train"] + 7 for f in a["folds"]] == [f["n_train"] for f in b["folds"]]
    assert b["extra_train"] == [str(extra)] and a["extra_train"] == []


def test_f1_interval_resamples_whole_documents():
    import numpy as np

    # nine documents are right, one holds every error: resamples without it score 1.0
    y = np.array([1, 1] * 9 + [1, 0])
    pred = np.array([1, 1] * 9 + [0, 1])
    docs = [f"d{i // 2}" for i in range(20)]
    observed = 2 * 18 / (2 * 18 + 1 + 1)
    lo, hi = f1_interval(y, pred, docs, n_boot=4000, seed=1)
    assert hi == 1.0 and 0.8 < lo < observed
    assert f1_interval(y, pred, docs, seed=1) == f1_interval(y, pred, docs, seed=1)
    # all correct: a zero-width interval at 1; all wrong: at 0
    assert f1_interval(y, y, docs) == [1.0, 1.0]
    assert f1_interval(y, 1 - y, docs) == [0.0, 0.0]
    # more documents of the same kind: a narrower interval
    many = [f"{d}{k}" for k in range(50) for d in docs]
    lo2, hi2 = f1_interval(np.tile(y, 50), np.tile(pred, 50), many, seed=1)
    assert hi2 - lo2 < hi - lo


@pytest.mark.slow
def test_cv_decides_by_the_in_domain_rule_and_reports_the_new_text_rule(tmp_path, corpus):
    config = ROOT / "configs" / "ppi-ensemble-lr.toml"
    reports, printed = {}, {}
    for rule in ("f1", "none"):
        out = tmp_path / f"{rule}.json"
        res = runner.invoke(app, ["evaluate", "--config", str(config), "--cv", "3", "--corpus",
                                  str(corpus), "--report", str(out),
                                  "--set", f"ensemble.in_domain_threshold={rule}"])
        assert res.exit_code == 0, res.output
        reports[rule], printed[rule] = json.loads(out.read_text()), res.output
    f1, plain = reports["f1"], reports["none"]
    assert [f["decision"] for f in f1["folds"]] == ["in-domain"] * 3
    assert [f["decision"] for f in plain["folds"]] == ["model"] * 3
    assert "new_text_rule" not in plain and "new_text_rule" in f1
    # same fits (same seeds): the new-text figures of the in-domain run are the plain run's
    for key in ("tp", "fp", "fn", "f1", "roc_auc"):
        assert f1["new_text_rule"][key] == plain["pooled"][key]
    assert f1["pooled"]["roc_auc"] == plain["pooled"]["roc_auc"]
    assert f1["pooled"]["tp"] + f1["pooled"]["fn"] == plain["pooled"]["tp"] + plain["pooled"]["fn"]
    assert "in-domain rule" in printed["f1"] and "in-domain rule" not in printed["none"]


@pytest.mark.slow
def test_cv_with_stacked_in_domain_combiner_scores_in_domain_and_keeps_new_text(tmp_path, corpus):
    config = ROOT / "configs" / "ppi-ensemble-lr.toml"
    reports = {}
    for combiner in ("stacked", "weights"):
        out = tmp_path / f"{combiner}.json"
        res = runner.invoke(app, ["evaluate", "--config", str(config), "--cv", "3", "--corpus",
                                  str(corpus), "--report", str(out),
                                  "--set", "ensemble.in_domain_threshold=none",
                                  "--set", f"ensemble.in_domain_combiner={combiner}"])
        assert res.exit_code == 0, res.output
        reports[combiner] = json.loads(out.read_text())
    stacked, plain = reports["stacked"], reports["weights"]
    assert [f["decision"] for f in stacked["folds"]] == ["in-domain"] * 3
    assert "new_text_rule" not in plain
    # new text: the fixed weights and threshold, the same fits as the plain run
    for key in ("tp", "fp", "fn", "f1", "roc_auc"):
        assert stacked["new_text_rule"][key] == plain["pooled"][key]
    assert stacked["pooled"]["tp"] + stacked["pooled"]["fn"] == plain["pooled"]["tp"] + \
        plain["pooled"]["fn"]
