"""The pair typer (relx.ppi.pair_typer): types and directions from the pair scorer's
features, alone and beside the event model in the typed PPI pass (the shipped models)."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from conftest import SHARED

from relx.model_store import models_dir

GE_DEVEL = SHARED / "corpora" / "bionlp-st-ge" / "2011" / "devel"
HAVE_MODELS = all((models_dir() / m).is_dir() for m in ("ge-events", "ppi-default",
                                                          "relx_bio_sm", "pair-typer"))
needs_models = pytest.mark.skipif(not HAVE_MODELS, reason="shipped models missing")
TEXT = ("IL-2 activates STAT5 in T cells. TRAF2 binds to TRAF1. SOCS3 inhibits JAK1. "
        "IL-2 induces the expression of Bcl-2.")


@pytest.fixture(scope="module")
def typed():
    if not HAVE_MODELS:
        pytest.skip("shipped models missing")
    import relx

    return relx.load(task="ppi")


def _pairs(typed) -> list:
    """The candidate pairs of TEXT as the scorer sees them (relx's parse and mentions)."""
    from relx.doc import Document
    from relx.ppi.extract import candidate_pairs
    from relx.represent.instances import PairInstance

    doc = next(iter(typed.parser.parse_documents([Document(id="t", text=TEXT)])))
    return [PairInstance("t", s, r) for s in doc.sentences for r in candidate_pairs(s)]


def test_a_class_names_its_type_and_direction():
    from relx.ppi.pair_typer import split_label

    assert split_label("Activation:12") == ("Activation", "entity1->entity2")
    assert split_label("Inhibition:21") == ("Inhibition", "entity2->entity1")
    assert split_label("Complex") == ("Complex", None)


@needs_models
def test_the_typed_pass_types_sure_pairs_from_the_scorers_features(typed):
    from relx.ppi.pair_typer import HybridTyper

    assert isinstance(typed.typer, HybridTyper)
    rels = {(r.entity1.text, r.entity2.text): r for r in typed.extract(TEXT)}
    act = rels[("IL-2", "STAT5")]
    assert (act.type, act.direction, act.type_source) == ("Activation", "entity1->entity2",
                                                         "pair")
    assert act.event_score >= typed.typer.pair_typer.tau
    assert (rels[("TRAF2", "TRAF1")].type, rels[("TRAF2", "TRAF1")].direction) == \
        ("Complex", None)
    for r in rels.values():   # typed by one of the two, or untyped
        assert r.type_source in ("pair", "events", None)
        assert (r.type_source is None) == (r.type == "Interaction")
    out = json.loads(act.model_dump_json(exclude_none=True))
    assert out["type_source"] == "pair"


@needs_models
def test_a_saved_pair_typer_loads_with_the_same_probabilities(typed, tmp_path):
    from relx.ppi.pair_typer import PairTyper

    model = typed.typer.pair_typer
    X = _pairs(typed)
    assert len(X) >= 4
    again = PairTyper.load(model.save(tmp_path / "pt", dict(model.meta)))
    assert np.array_equal(again.predict_proba(X), model.predict_proba(X))
    assert list(again.classes_) == list(model.classes_)
    p = model.predict_proba(X)
    assert p.shape == (len(X), len(model.classes_)) and np.allclose(p.sum(axis=1), 1.0)
    # the window's rows: the same as the pairs on their own
    assert np.allclose(model.proba_of_rows(X, [2, 0]), p[[2, 0]])


@needs_models
def test_the_hybrid_asks_the_event_model_only_for_unsure_pairs(typed):
    from relx.ppi.pair_typer import HybridTyper

    class Counting:    # the real event typer, with the sentences it is given counted
        def __init__(self, inner):
            self.inner, self.sentences = inner, 0

        def type_relations(self, docs):
            docs = list(docs)
            self.sentences += sum(len(d.sentences) for d in docs)
            self.inner.type_relations(docs)

    events = typed.typer.events
    plain = typed.extract(TEXT)   # the reference: the shipped hybrid
    sure = typed.typer.pair_typer
    for tau, want_events in ((0.0, False), (1.01, True)):
        counting = Counting(events)
        model = pickle.loads(pickle.dumps(sure))
        model.tau = tau
        typed.typer = HybridTyper(counting, model)
        try:
            rels = typed.extract(TEXT)
        finally:
            typed.typer = HybridTyper(events, sure)
        assert [r.score for r in rels] == [r.score for r in plain]   # types only
        if want_events:    # never sure: the event model types every reported pair
            assert counting.sentences >= 3
            assert {r.type_source for r in rels} <= {"events", None}
            typed.typer = events
            try:
                only_events = typed.extract(TEXT)
            finally:
                typed.typer = HybridTyper(events, sure)
            assert [(r.type, r.direction) for r in rels] == \
                [(r.type, r.direction) for r in only_events]
        else:              # always sure: the event model is not run
            assert counting.sentences == 0
            assert {r.type_source for r in rels} == {"pair"}


@needs_models
def test_the_hybrid_travels_to_worker_processes_by_name(typed):
    from relx.ge.interactions import EventTyper
    from relx.ppi.pair_typer import HybridTyper

    typer = pickle.loads(pickle.dumps(typed.typer))
    assert isinstance(typer, HybridTyper) and isinstance(typer.events, EventTyper)
    assert typer.pair_typer.meta["version"] == typed.typer.pair_typer.meta["version"]
    assert typer.version == typed.typer.version


@needs_models
def test_the_gene_relation_task_keeps_the_event_typer():
    """Its model reads the event types of every candidate pair: no pair typer there."""
    import relx
    from relx.ge.interactions import EventTyper

    ex = relx.load()
    assert isinstance(ex.pairs.typer, EventTyper)


@needs_models
def test_the_pair_typer_fits_as_an_estimator(typed):
    from sklearn.base import clone

    from relx.ppi.pair_typer import PairTyper

    X = _pairs(typed)
    y = ["Complex" if i % 2 else "Activation:12" for i in range(len(X))]
    est = PairTyper(C=1.0, min_documents=1)
    assert clone(est).get_params() == est.get_params()
    assert est.fit(X, y) is est
    assert list(est.classes_) == ["Activation:12", "Complex"]
    assert est.coef_.shape == (1, est.features_.n_features_out_)   # two classes: one row
    from sklearn.linear_model import LogisticRegression

    ref = LogisticRegression(C=1.0, max_iter=3000, random_state=0).fit(
        est.features_.transform(X), y)      # scikit-learn's own arithmetic, same weights
    assert np.allclose(est.predict_proba(X), ref.predict_proba(est.features_.transform(X)),
                       atol=1e-5)
    assert set(est.predict(X)) <= set(est.classes_)


@pytest.mark.slow
@needs_models
def test_the_shipped_hybrid_reproduces_its_ge_devel_figures():
    if not GE_DEVEL.is_dir():
        pytest.skip(f"{GE_DEVEL} not available")
    from lab.typed_eval import pair_outcomes, score
    from relx.ge.data import load_ge
    from relx.ge.interactions import EventTyper
    from relx.ppi.pair_typer import HybridTyper

    meta = json.loads((models_dir() / "pair-typer" / "meta.json").read_text())
    rep = score(pair_outcomes(load_ge(GE_DEVEL), HybridTyper(EventTyper())))
    assert rep["pairs"] == 660
    assert rep["type"]["f1"] == pytest.approx(meta["ge_2011_devel"]["hybrid"]["type_f1"],
                                              abs=0.002)
    assert rep["direction"]["f1"] == pytest.approx(
        meta["ge_2011_devel"]["hybrid"]["direction_f1"], abs=0.002)
    assert rep["type"]["f1"] > meta["ge_2011_devel"]["event_typer"]["type_f1"]


@pytest.mark.slow
@needs_models
def test_a_ppi_batch_records_its_pair_typer_and_a_gene_batch_does_not(tmp_path):
    from typer.testing import CliRunner

    from relx.app.cli import app

    src = tmp_path / "in.txt"
    src.write_text("IL-2 activates STAT5 in T cells, and TRAF2 binds TRADD.\n", encoding="utf-8")
    for task in ("ppi", "gene-relations"):
        res = CliRunner().invoke(app, ["extract", "--task", task, str(src),
                                       "--out", str(tmp_path / task), "--quiet",
                                       "--report", str(tmp_path / f"{task}.html")])
        assert res.exit_code == 0, res.output
    ppi = json.loads((tmp_path / "ppi" / "summary.json").read_text())
    assert ppi["pair_typer"] == "pair-typer" and ppi["pair_typer_version"]
    assert ppi["event_model"] == "ge-events"
    genes = json.loads((tmp_path / "gene-relations" / "summary.json").read_text())
    assert "pair_typer" not in genes and genes["event_model"] == "ge-events"
    rels = [json.loads(x) for x in (tmp_path / "ppi" / "relations.jsonl").open()]
    assert {r.get("type_source") for r in rels} <= {"pair", "events", None}
    assert any(r.get("type_source") == "pair" for r in rels)
    report = (tmp_path / "ppi.html").read_text(encoding="utf-8")
    assert "types from pair-typer" in report
