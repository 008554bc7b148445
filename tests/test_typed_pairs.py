"""Typed, directed interactions: GENIA events read as curator types (rules on hand-built
standoff), event scores, the typed pass of the extractor on one parse (the shipped models),
and the agreement with gold events on real GE 2011 devel documents."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest
from conftest import SHARED
from typer.testing import CliRunner

from relx.doc import Event, Span, StandoffDocument, TextBound
from relx.ge.interactions import (
    EventTyper,
    closed_under_equivs,
    direction_of,
    typed_interactions,
)
from relx.model_store import models_dir

GE_DEVEL = SHARED / "corpora" / "bionlp-st-ge" / "2011" / "devel"
HAVE_MODELS = all((models_dir() / m).is_dir() for m in ("ge-events", "ppi-default",
                                                          "relx_bio_sm"))
needs_models = pytest.mark.skipif(not HAVE_MODELS, reason="shipped models missing")


def _doc(events: list[tuple[str, str, list[tuple[str, str]]]], n_proteins: int = 3,
         equivs: list[list[str]] | None = None) -> StandoffDocument:
    """Proteins T1..Tn and events (id, type, arguments), each on its own trigger."""
    text = " ".join(f"P{i}" for i in range(1, n_proteins + 1)) + " " + " ".join(
        "trig" for _ in events)
    prots = [TextBound(id=f"T{i}", type="Protein", spans=[Span(start=3 * (i - 1),
                                                                end=3 * (i - 1) + 2)])
             for i in range(1, n_proteins + 1)]
    trigs, evs = [], []
    for k, (eid, typ, args) in enumerate(events):
        start = 3 * n_proteins + 5 * k
        trigs.append(TextBound(id=f"T{100 + k}", type=typ,
                               spans=[Span(start=start, end=start + 4)]))
        evs.append(Event(id=eid, type=typ, trigger=f"T{100 + k}", arguments=args))
    doc = StandoffDocument(id="d", text=text, proteins=prots, triggers=trigs, events=evs)
    if equivs:
        from relx.doc import Equiv

        doc = doc.model_copy(update={"equivs": [Equiv(ids=e) for e in equivs]})
    return doc


def _only(found: dict, a: str, b: str) -> tuple[str, str | None, str | None]:
    t = found[frozenset((a, b))][0]
    return t.type, t.agent, t.target


def test_binding_is_an_undirected_complex():
    found = typed_interactions(_doc([("E1", "Binding", [("Theme", "T1"), ("Theme2", "T2")])]))
    assert _only(found, "T1", "T2") == ("Complex", None, None)
    assert direction_of(found[frozenset(("T1", "T2"))][0], "T1") is None


@pytest.mark.parametrize(("reg", "theme", "expected"), [
    ("Positive_regulation", "Phosphorylation", "Phosphorylation"),
    ("Negative_regulation", "Phosphorylation", "Inhibition"),
    ("Positive_regulation", "Gene_expression", "IncreaseAmount"),
    ("Negative_regulation", "Transcription", "DecreaseAmount"),
    ("Positive_regulation", "Protein_catabolism", "DecreaseAmount"),
    ("Negative_regulation", "Protein_catabolism", "IncreaseAmount"),
    ("Regulation", "Gene_expression", "Regulation"),
    ("Negative_regulation", "Positive_regulation", "Inhibition"),
    ("Negative_regulation", "Negative_regulation", "Activation"),
    ("Positive_regulation", "Localization", "Activation"),
])
def test_a_regulation_of_an_event_is_typed_and_directed_cause_to_theme(reg, theme, expected):
    doc = _doc([("E1", theme, [("Theme", "T2")]),
                ("E2", reg, [("Theme", "E1"), ("Cause", "T1")])])
    assert _only(typed_interactions(doc), "T1", "T2") == (expected, "T1", "T2")


def test_a_cause_event_acts_through_its_protein_and_directions_follow_the_arguments():
    # "phosphorylated T3 activates T1": the Cause is an event, its protein Theme acts
    doc = _doc([("E1", "Phosphorylation", [("Theme", "T3")]),
                ("E2", "Positive_regulation", [("Theme", "T1"), ("Cause", "E1")])])
    found = typed_interactions(doc)
    t = found[frozenset(("T1", "T3"))][0]
    assert (t.type, t.agent, t.target) == ("Activation", "T3", "T1")
    assert direction_of(t, "T1") == "entity2->entity1"
    assert direction_of(t, "T3") == "entity1->entity2"
    assert frozenset(("T1", "T2")) not in found          # T2 takes no part


def test_a_regulation_without_cause_gives_no_pair_and_equivs_close_the_reference():
    doc = _doc([("E1", "Negative_regulation", [("Theme", "T2")])])
    assert typed_interactions(doc) == {}
    doc = _doc([("E1", "Binding", [("Theme", "T1"), ("Theme2", "T2")])], equivs=[["T2", "T3"]])
    closed = closed_under_equivs(typed_interactions(doc), doc)
    assert set(closed) == {frozenset(("T1", "T2")), frozenset(("T1", "T3"))}


def test_the_best_scored_event_wins_and_a_tie_goes_to_the_specific_type():
    doc = _doc([("E1", "Binding", [("Theme", "T1"), ("Theme2", "T2")]),
                ("E2", "Positive_regulation", [("Theme", "T2"), ("Cause", "T1")])])
    evs = [e.model_copy(update={"score": s}) for e, s in zip(doc.events, (0.9, 0.4),
                                                             strict=True)]
    found = typed_interactions(doc.model_copy(update={"events": evs}))
    assert [t.type for t in found[frozenset(("T1", "T2"))]] == ["Complex", "Activation"]
    tied = typed_interactions(doc)          # gold: no scores
    assert tied[frozenset(("T1", "T2"))][0].type == "Activation"


@pytest.fixture(scope="module")
def typed():
    if not HAVE_MODELS:
        pytest.skip("shipped models missing")
    import relx

    return relx.load(task="ppi")


@pytest.mark.slow
@needs_models
def test_predicted_events_carry_scores_no_higher_than_their_nested_events():
    import relx

    ex = relx.load(task="events")
    evs = ex.extract("IL-2 induces the phosphorylation of STAT5, and TRAF2 binds TRADD.")
    assert evs and all(e.score is not None and 0.0 <= e.score <= 1.0 for e in evs)
    by_id = {e.event_id: e for e in evs}
    nested = [(e, by_id[a.id]) for e in evs for a in e.arguments if a.kind == "event"]
    assert all(parent.score <= child.score for parent, child in nested)


@pytest.mark.slow
@needs_models
def test_the_typed_pass_keeps_the_pairs_and_scores_and_adds_types(typed):
    import relx

    text = ("SOCS3 inhibits JAK1, and TRAF2 binds TRADD. IL-2 induces the expression of "
            "Bcl-2. JAK1 was detected with STAT5 in T cells.")
    plain = relx.load(task="ppi", types=False).extract(text)
    rels = typed.extract(text)
    key = lambda r: (r.entity1.start, r.entity2.start, r.score)  # noqa: E731
    assert sorted(map(key, rels)) == sorted(map(key, plain))      # same pairs, same scores
    assert all(r.type == "Interaction" and r.direction is None for r in plain)
    types = {(r.entity1.text, r.entity2.text): (r.type, r.direction) for r in rels}
    assert types[("SOCS3", "JAK1")] == ("Inhibition", "entity1->entity2")
    assert types[("TRAF2", "TRADD")] == ("Complex", None)
    assert types[("IL-2", "Bcl-2")] == ("IncreaseAmount", "entity1->entity2")
    for r in rels:
        assert (r.event_score is None) == (r.type == "Interaction")


@needs_models
def test_the_typer_travels_to_worker_processes_by_name(typed):
    events = typed.typer.events      # the typed pass's event typer, beside the pair typer
    typer = pickle.loads(pickle.dumps(events))
    assert isinstance(typer, EventTyper) and typer.version == events.version
    assert (typer.trigger_bias, typer.edge_bias) == (events.trigger_bias, events.edge_bias)


@pytest.mark.slow
@needs_models
def test_relx_extract_types_by_default_and_records_the_event_model(tmp_path: Path):
    from relx.app.cli import app

    src = tmp_path / "in.txt"
    src.write_text("SOCS3 inhibits JAK1, and TRAF2 binds TRADD.\n", encoding="utf-8")
    for flag, out in (([], tmp_path / "typed"), (["--no-types"], tmp_path / "plain")):
        res = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                       str(src), "--out", str(out), "--quiet",
                                       "--format", "tsv", *flag])
        assert res.exit_code == 0, res.output
    typed_rels = [json.loads(x) for x in (tmp_path / "typed" / "relations.jsonl").open()]
    plain_rels = [json.loads(x) for x in (tmp_path / "plain" / "relations.jsonl").open()]
    assert {r["type"] for r in plain_rels} == {"Interaction"}
    assert {"Inhibition", "Complex"} <= {r["type"] for r in typed_rels}
    summary = json.loads((tmp_path / "typed" / "summary.json").read_text())
    assert summary["event_model"] == "ge-events" and summary["event_model_version"]
    assert "event_model" not in json.loads((tmp_path / "plain" / "summary.json").read_text())
    # the typed and the plain run are different settings: no resume across them
    res = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                   str(src), "--out", str(tmp_path / "typed"),
                                   "--quiet", "--format", "tsv", "--no-types"])
    assert res.exit_code == 2


@pytest.mark.slow
@needs_models
def test_types_and_directions_agree_with_gold_events_on_ge_devel(tmp_path: Path):
    if not GE_DEVEL.is_dir():
        pytest.skip(f"{GE_DEVEL} not available")
    from lab.typed_eval import evaluate

    sub = tmp_path / "devel"
    sub.mkdir()
    for f in sorted(GE_DEVEL.glob("*.a2"))[:40]:
        for ext in (".txt", ".a1", ".a2"):
            shutil.copy(f.with_suffix(ext), sub)
    rep = evaluate(sub, ppi_model=None)["gold_pairs"]
    assert rep["pairs"] >= 20
    # far better than the majority type; directions better than text order on the same pairs
    assert rep["type"]["precision"] > rep["baseline"]["majority_type_accuracy"] + 0.2
    assert rep["direction"]["both_directed"] >= 10
    assert rep["direction"]["accuracy_on_both_directed"] > \
        rep["baseline"]["text_order_on_both_directed"]


def _directed_doc():
    from relx.doc import Document, Entity, Relation, Sentence

    text = "STAT5 is phosphorylated by JAK2."
    ents = [Entity(id="e1", spans=[Span(start=0, end=5)], text="STAT5",
                   norm_ids=["HGNC:11366"]),
            Entity(id="e2", spans=[Span(start=27, end=31)], text="JAK2",
                   norm_ids=["HGNC:6192"])]
    rel = Relation(id="r1", arg1="e1", arg2="e2", type="Phosphorylation", label=True,
                   score=0.9, negated=False, speculated=False,
                   direction="entity2->entity1", event_score=0.8)
    sent = Sentence(id="d.s0", start=0, end=len(text), text=text, entities=ents,
                    relations=[rel])
    return Document(id="12345", text=text, sentences=[sent])


def test_every_format_writes_the_acting_protein_first(tmp_path: Path):
    from relx.io.registry import read, write

    doc = _directed_doc()
    write([doc], tmp_path / "d.pubtator", "pubtator")
    rel_line = [x for x in (tmp_path / "d.pubtator").read_text().splitlines()
                if "\tPhosphorylation\t" in x]
    assert len(rel_line) == 1 and rel_line[0].split("\t")[2:4] == ["HGNC:6192", "HGNC:11366"]
    from relx.io.brat import write_brat

    write_brat([doc], tmp_path / "brat")
    a2 = next((tmp_path / "brat").glob("*.ann")).read_text()
    tids = {line.split("\t")[2]: line.split("\t")[0] for line in a2.splitlines()
            if line.startswith("T")}
    assert f"Phosphorylation Arg1:{tids['JAK2']} Arg2:{tids['STAT5']}" in a2
    assert "event_score=0.8000" in a2
    write([doc], tmp_path / "d.xml", "bioc")
    back = next(iter(read(tmp_path / "d.xml")))
    r = next(r for _, r in back.relations())
    assert (r.type, r.arg1, r.arg2) == ("Phosphorylation", "e1", "e2")
    import bioc

    with open(tmp_path / "d.xml") as fh:
        coll = bioc.biocxml.load(fh)
    infons = coll.documents[0].relations[0].infons
    assert infons["direction"] == "entity2->entity1" and float(infons["event_score"]) == 0.8
