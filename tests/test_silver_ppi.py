"""Silver PPI pairs from GE events (relx.ge.ppi_pairs), the `relx silver-ppi` command and
the ensemble's gold-only decision rows."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer
from typer.testing import CliRunner

from relx.app.cli import app
from relx.ge.ppi_pairs import drop_shared_documents, interacting_pairs, silver_ppi_documents
from relx.io.jsonl import read_jsonl
from relx.io.standoff import parse_standoff, read_standoff
from relx.learn.ensemble import ProbabilityEnsemble, gold_rows
from relx.learn.forest import rule_threshold
from relx.represent.instances import labels, pair_instances

FIXTURES = Path(__file__).parent / "fixtures"
NAMES = ("ge-1", "ge-2", "ge-3")
SHARED = Path(__file__).resolve().parents[2] / "shared"
GE_2011 = SHARED / "corpora" / "bionlp-st-ge" / "2011"


def _pairs(doc) -> set[tuple[str, str]]:
    return {tuple(sorted(p)) for p in interacting_pairs(doc)}


def test_binding_themes_and_cause_theme_pairs_through_one_nested_event():
    ge1, ge2, ge3 = (read_standoff(FIXTURES / f"{n}.txt") for n in NAMES)
    # Binding TRAF2-CD40; BAF inhibits that binding; phosphorylated STAT3 induces IL-6 expression
    assert _pairs(ge1) == {("T1", "T2"), ("T1", "T3"), ("T2", "T3"), ("T4", "T5")}
    # p50 and p65 bind in two separate one-Theme events: no pair; TNF -> IkappaB degradation
    assert _pairs(ge2) == {("T3", "T4")}
    assert _pairs(ge3) == {("T1", "T2")}


def test_equivalent_mentions_share_their_partners_and_never_pair_with_each_other():
    text = "IRF-4 (interferon regulatory factor 4) binds PU.1."
    a1 = "T1\tProtein 0 5\tIRF-4\nT2\tProtein 7 37\tinterferon regulatory factor 4\n" \
         "T3\tProtein 45 49\tPU.1\n"
    a2 = "T4\tBinding 39 44\tbinds\nE1\tBinding:T4 Theme:T1 Theme2:T3\n*\tEquiv T1 T2\n"
    doc = parse_standoff("eq", text, a1, a2)
    assert _pairs(doc) == {("T1", "T3"), ("T2", "T3")}


def test_silver_documents_label_every_same_sentence_pair_and_mark_it_silver():
    parsed = {d.id: d for d in read_jsonl(FIXTURES / "ge-parsed.jsonl")}
    standoffs = [read_standoff(FIXTURES / f"{n}.txt") for n in NAMES]
    docs = silver_ppi_documents(standoffs, [parsed[n] for n in NAMES])
    inst = pair_instances(docs)
    got = {(x.document_id, *sorted((x.relation.arg1, x.relation.arg2))): bool(x.label)
           for x in inst}
    assert got == {("ge-1", "T1", "T2"): True, ("ge-1", "T1", "T3"): True,
                   ("ge-1", "T2", "T3"): True, ("ge-1", "T4", "T5"): True,
                   ("ge-2", "T1", "T2"): False, ("ge-2", "T3", "T4"): True,
                   ("ge-3", "T1", "T2"): True}
    assert all(x.relation.silver for x in inst)
    assert not gold_rows(inst).any()
    # the parse is kept: every pair's sentence still has its tokens and dependencies
    assert all(x.sentence.tokens and x.sentence.dependencies for x in inst)


def test_drop_shared_documents_removes_documents_with_an_evaluation_sentence():
    parsed = [d for d in read_jsonl(FIXTURES / "ge-parsed.jsonl")]
    other = parsed[1].model_copy(update={"id": "ppi-doc"})
    kept, dropped = drop_shared_documents(parsed, [other])
    assert dropped == [parsed[1].id] and [d.id for d in kept] == [parsed[0].id, parsed[2].id]


def _items(X, docs, silver):
    return [SimpleNamespace(x=x, document_id=f"d{d}", relation=SimpleNamespace(silver=s))
            for x, d, s in zip(X, docs, silver, strict=True)]


def _features(items):
    return np.array([i.x for i in items])


@pytest.mark.slow
def test_gold_decision_rows_set_threshold_calibration_and_prior_from_gold_pairs_only():
    rng = np.random.default_rng(0)
    n_gold, n_silver = 400, 600
    x = rng.normal(size=(n_gold + n_silver, 1))
    y = (x[:, 0] + rng.normal(scale=0.7, size=len(x)) > 1.0).astype(int)  # gold: ~16 % positive
    y[n_gold:] = (x[n_gold:, 0] + rng.normal(scale=0.7, size=n_silver) > -0.5).astype(int)
    items = _items(x, np.arange(len(x)) // 4, [False] * n_gold + [True] * n_silver)
    member = Pipeline([("f", FunctionTransformer(_features)), ("lr", LogisticRegression())])
    kw = dict(estimators=[member], threshold="youden", random_state=0)
    gold = ProbabilityEnsemble(decision_rows="gold", **kw).fit(items, y)
    everything = ProbabilityEnsemble(decision_rows="all", **kw).fit(items, y)
    np.testing.assert_allclose(gold.oof_, everything.oof_)  # same members, same folds
    s = gold.score(gold.oof_)
    assert gold.score_threshold_ == rule_threshold("youden", y[:n_gold] == 1, s[:n_gold])
    assert everything.score_threshold_ == rule_threshold("youden", y == 1, s)
    assert gold.score_threshold_ != everything.score_threshold_
    assert gold.prior_ == pytest.approx(y[:n_gold].mean())
    assert everything.prior_ == pytest.approx(y.mean())
    with pytest.raises(ValueError, match="decision_rows"):
        ProbabilityEnsemble(decision_rows="silver", **kw).fit(items, y)
    # without silver pairs (or on arrays) "gold" is "all"
    plain = _items(x[:n_gold], np.arange(n_gold) // 4, [None] * n_gold)
    a = ProbabilityEnsemble(decision_rows="gold", **kw).fit(plain, y[:n_gold])
    b = ProbabilityEnsemble(decision_rows="all", **kw).fit(plain, y[:n_gold])
    assert a.score_threshold_ == b.score_threshold_
    assert gold_rows(x) is None


@pytest.mark.slow
@pytest.mark.skipif(not (GE_2011 / "devel").is_dir(), reason="../shared GE 2011 corpus absent")
def test_silver_ppi_command_on_real_ge_documents(tmp_path: Path):
    src = tmp_path / "ge"
    src.mkdir()
    names = sorted(p.stem for p in (GE_2011 / "devel").glob("*.a2"))[:12]
    for n in names:
        for ext in ("txt", "a1", "a2"):
            shutil.copy(GE_2011 / "devel" / f"{n}.{ext}", src / f"{n}.{ext}")
    again = tmp_path / "ge-later-edition"  # 4 of the same documents and 2 new ones
    again.mkdir()
    more = sorted(p.stem for p in (GE_2011 / "devel").glob("*.a2"))[8:14]
    for n in more:
        for ext in ("txt", "a1", "a2"):
            shutil.copy(GE_2011 / "devel" / f"{n}.{ext}", again / f"{n}.{ext}")
    out = tmp_path / "silver.jsonl"
    res = CliRunner().invoke(app, ["silver-ppi", str(src), str(again), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "4 skipped as already read" in " ".join(res.output.split())
    docs = list(read_jsonl(out))
    assert [d.id for d in docs] == names + more[4:]
    inst = pair_instances(docs)
    y = labels(inst)
    assert len(inst) > 50 and 0 < y.mean() < 0.5
    assert all(x.relation.silver for x in inst)
    for x in inst:  # both mentions are .a1 proteins of the pair's sentence
        ids = {e.id for e in x.sentence.entities}
        assert {x.relation.arg1, x.relation.arg2} <= ids


def test_silver_ppi_command_refuses_a_directory_without_events(tmp_path: Path):
    for ext in ("txt", "a1"):
        shutil.copy(FIXTURES / f"ge-1.{ext}", tmp_path / f"ge-1.{ext}")
    res = CliRunner().invoke(app, ["silver-ppi", str(tmp_path), "--out", str(tmp_path / "o.jsonl")])
    assert res.exit_code == 2 and "no events" in res.output
    assert not (tmp_path / "o.jsonl").exists()


def test_silver_weight_scales_the_silver_pairs_in_every_member_fit():
    rng = np.random.default_rng(1)
    n_gold, n_silver = 300, 300
    x = rng.normal(size=(n_gold + n_silver, 1))
    y = (x[:, 0] + rng.normal(scale=0.8, size=len(x)) > 0.5).astype(int)
    y[n_gold:] = (x[n_gold:, 0] > -1.0).astype(int)  # silver labels disagree with the gold
    items = _items(x, np.arange(len(x)) // 3, [False] * n_gold + [True] * n_silver)
    member = Pipeline([("f", FunctionTransformer(_features)), ("lr", LogisticRegression())])
    fitted = ProbabilityEnsemble(estimators=[member], silver_weight=0.25, threshold="youden",
                                 random_state=0).fit(items, y)
    lr = fitted.estimators_[0].steps[-1][1]
    direct = LogisticRegression().fit(x, y, sample_weight=[1.0] * n_gold + [0.25] * n_silver)
    np.testing.assert_allclose(lr.coef_, direct.coef_, rtol=1e-5)
    unweighted = ProbabilityEnsemble(estimators=[member], random_state=0).fit(items, y)
    assert not np.allclose(unweighted.estimators_[0].steps[-1][1].coef_, lr.coef_)
    with pytest.raises(ValueError, match="silver_weight"):
        ProbabilityEnsemble(estimators=[member], silver_weight=0.0).fit(items, y)


def test_tree_members_take_sample_weights():
    from sklearn.ensemble import ExtraTreesClassifier

    from relx.learn.forest import RandomSubspaceForest
    from relx.learn.packed_trees import PackedExtraTrees

    rng = np.random.default_rng(2)
    x = rng.integers(0, 3, size=(200, 6)).astype(np.float32)
    y = (x[:, 0] + x[:, 1] + rng.normal(size=200) > 2).astype(int)
    w = rng.uniform(0.1, 2.0, size=200)
    packed = PackedExtraTrees(n_estimators=20, random_state=0).fit(x, y, sample_weight=w)
    ref = ExtraTreesClassifier(n_estimators=20, random_state=0).fit(x, y, sample_weight=w)
    np.testing.assert_allclose(packed.predict_proba(x), ref.predict_proba(x), atol=1e-12)
    kw = dict(n_estimators=20, max_features=3, min_samples_leaf=10, random_state=0)
    a = RandomSubspaceForest(**kw).fit(x, y, sample_weight=np.ones(200)).predict_proba(x)
    np.testing.assert_allclose(a, RandomSubspaceForest(**kw).fit(x, y).predict_proba(x))
    c = RandomSubspaceForest(**kw).fit(x, y, sample_weight=w).predict_proba(x)
    assert not np.allclose(a, c)
    kw.update(bootstrap=True, max_features=None)  # bagging: the draws' counts times the weights
    a = RandomSubspaceForest(**kw).fit(x, y, sample_weight=np.ones(200)).predict_proba(x)
    np.testing.assert_allclose(a, RandomSubspaceForest(**kw).fit(x, y).predict_proba(x))


@pytest.mark.slow
def test_load_ge_leaves_skipped_documents_out_before_parsing(tmp_path: Path):
    from relx.ge.data import load_ge

    for n in NAMES:
        for ext in ("txt", "a1", "a2"):
            shutil.copy(FIXTURES / f"{n}.{ext}", tmp_path / f"{n}.{ext}")
    calls = []

    class CountingParser:  # relx's real parser, counting the documents it is given
        def __init__(self):
            from relx.parse.pipeline import Parser
            self.parser = Parser(ner=False)

        def parse_documents(self, docs):
            docs = list(docs)
            calls.extend(d.id for d in docs)
            return self.parser.parse_documents(docs)

    src = tmp_path / "ge"
    src.mkdir()
    for f in tmp_path.glob("ge-*.*"):
        f.rename(src / f.name)
    cache = tmp_path / "cache.jsonl"
    got = load_ge(src, cache, parser=CountingParser(), skip_ids={"ge-2"})
    assert [g.parsed.id for g in got] == [g.standoff.id for g in got] == ["ge-1", "ge-3"]
    assert calls == ["ge-1", "ge-3"] and not cache.exists()  # a cache holds whole directories
    load_ge(src, cache, parser=CountingParser())
    assert calls[2:] == list(NAMES) and cache.exists()
    got = load_ge(src, cache, parser=CountingParser(), skip_ids={"ge-1"})
    assert [g.parsed.id for g in got] == ["ge-2", "ge-3"] and len(calls) == 5  # from the cache
