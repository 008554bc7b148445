"""GENIA event extraction (relx.ge): candidates, trigger mapping, assembly, a2 round trip,
training and prediction on fixtures, and a small run on the real GE 2011 data."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, GE_FIXTURE_NAMES, SHARED, ge_fixture_docs

from relx.doc import StandoffDocument
from relx.ge.assemble import Grouping, assemble_document, side_groups
from relx.ge.cli import evaluate_ge, predict_ge, train_ge
from relx.ge.data import GEDoc, load_ge
from relx.ge.edges import (
    EdgeCandidate,
    candidates,
    edge_features,
    edge_structure,
    gold_labels,
)
from relx.ge.evaluate import evaluate_events
from relx.ge.pipeline import GEExtractor, GEModelError
from relx.ge.sentences import build_views
from relx.ge.triggers import TriggerDictionary, token_features
from relx.io.standoff import read_standoff, write_a2

NAMES = GE_FIXTURE_NAMES
GE2011 = SHARED / "corpora" / "bionlp-st-ge" / "2011"

# a configuration small enough for three documents
SMALL = {
    "pipeline": {"name": "ge-test", "task": "ge-events", "seed": 0},
    "triggers": {"classifier": "linear_svc", "C": 1.0, "dict_folds": 1, "n_features": 2 ** 12},
    "edges": {"method": "combined", "klsh": "edge_klsh", "forest": "edge_forest", "C": 10.0,
              "n_features": 2 ** 12},
    "assembly": {"binding": "side"},
    "edge_kernel": {"component": "path_kernel", "structure": "path", "lam": 0.8,
                    "edge_mismatch": 1.0, "n_jobs": 1},
    "edge_klsh": {"component": "klsh", "kernel": "edge_kernel", "n_reference": 8,
                  "n_bits": 32, "alpha": 2, "hash_function": "rknn"},
    "edge_forest": {"component": "random_subspace_forest", "n_estimators": 10,
                    "max_features": 8},
}


@pytest.fixture(scope="module")
def docs() -> list[GEDoc]:
    """The fixture documents with their parses stored beside them (no parser needed)."""
    return ge_fixture_docs()


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    d.mkdir()
    for n in NAMES:
        for ext in ("txt", "a1", "a2"):
            shutil.copy(FIXTURES / f"{n}.{ext}", d / f"{n}.{ext}")
    return d


def _gold_edges(views):
    return [[(EdgeCandidate(i, s, t), r) for (s, t), r in v.gold_edges.items()]
            for i, v in enumerate(views)]


def _oracle(doc: GEDoc, binding: Grouping = side_groups) -> StandoffDocument:
    views = build_views(doc)
    return assemble_document(doc.standoff, views, _gold_edges(views), binding)


def _words(view, toks) -> set[str]:
    return {view.tokens[t].text for t in toks}


def test_candidates_exclude_proteins_and_punctuation(docs):
    view = build_views(docs[1])[1]   # "Degradation of IkappaB alpha in response to TNF ..."
    words = _words(view, view.candidates())
    assert {"Degradation", "response", "reduced", "MG132"} <= words
    assert not words & {"IkappaB", "alpha", "TNF", "."}


def test_trigger_mapping_uses_content_head(docs):
    views = build_views(docs[1])
    gold = {view.tokens[t].text: types for view in views for t, types in view.gold_triggers.items()}
    assert gold == {"bind": {"Binding"}, "Degradation": {"Protein_catabolism"},
                    "response": {"Positive_regulation"}, "reduced": {"Negative_regulation"}}
    # the predicted span of a token is the token without punctuation
    s, e = views[1].token_span(5)
    assert docs[1].standoff.text[s:e] == "response"
    views[1].tokens[5] = views[1].tokens[5].model_copy(update={"text": "-response"})
    assert views[1].token_span(5) == (s + 1, e + 1)


def test_gold_edges_nested_and_cause(docs):
    view = build_views(docs[0])[1]   # "STAT3 phosphorylation induced the expression of IL-6."
    edges = {(view.tokens[s[0]].text, d if isinstance(d, str) else view.tokens[d[0]].text): r
             for (s, d), r in view.gold_edges.items()}
    assert edges == {("phosphorylation", "T4"): "Theme", ("expression", "T5"): "Theme",
                     ("induced", "expression"): "Theme", ("induced", "phosphorylation"): "Cause"}


def test_edge_candidates_structure_and_features(docs):
    views = build_views(docs[0])
    cands = candidates(views, [v.gold_triggers for v in views])
    y = gold_labels(views, cands)
    assert sorted(y.tolist()).count("Theme") == 6 and sorted(y.tolist()).count("Cause") == 2
    # simple event types only take protein arguments
    assert all(c.dst_is_protein for c in cands if c.src[1] == "Gene_expression")
    c = next(c for c in cands if c.src[1] == "Positive_regulation" and not c.dst_is_protein
             and c.dst[1] == "Gene_expression")
    path = edge_structure(views[c.view], c)
    assert path[0][1] == "TRIG:Positive_regulation" and path[-1][1] == "ARG:Gene_expression"
    assert [t[0] for t in path[1:]] == ["dobj>"]
    f = edge_features(views[c.view], c)
    assert f["st_dk=Positive_regulation/Gene_expression"] == 1


def test_trigger_features_use_dictionary(docs):
    views = [v for d in docs for v in build_views(d)]
    dictionary = TriggerDictionary().add(views)
    view = build_views(docs[0])[0]
    f = token_features(view, 6, dictionary)   # "inhibited"
    assert f["l=inhibit"] == 1 and f["dl:type=Negative_regulation"] == 1.0
    assert token_features(view, 6, None).get("dl:unseen") is None


def test_side_groups_pair_the_themes_across_the_trigger(docs):
    view = build_views(docs[0])[0]   # Interaction of TRAF2 with CD40 ...: both on the right
    assert side_groups(view, 0, ["T2", "T1"]) == [["T1"], ["T2"]]
    view2 = build_views(docs[1])[0]  # p50 and p65 bind ...
    assert side_groups(view2, 3, ["T1", "T2"]) == [["T1"], ["T2"]]
    assert side_groups(view2, 3, ["T1"]) == [["T1"]]
    # a theme each side of the trigger: one two-theme event per left x right pair
    assert side_groups(view, 3, ["T1", "T2"]) == [["T1", "T2"]]


def test_themes_sharing_a_head_keep_their_order_whatever_the_hash_seed():
    """Two themes on one head token (a complex mention and its part) stay in the order the
    edges gave them: a set's order (its strings' hashes, another in every process) once
    decided which Binding event came first, and with it a typed pair's direction."""
    import subprocess
    import sys
    from types import SimpleNamespace

    view = SimpleNamespace(protein_head={"T21": 4, "T22": 4, "T3": 1})
    assert side_groups(view, 9, ["T22", "T21", "T22", "T3"]) == [["T3"], ["T22"], ["T21"]]
    code = ("from types import SimpleNamespace as N; from relx.ge.assemble import side_groups;"
            "print(side_groups(N(protein_head={'T21': 4, 'T22': 4}), 9, ['T22', 'T21']))")
    got = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}
                          ).stdout.strip() for seed in range(6)}
    assert got == {"[['T22'], ['T21']]"}


def test_relx_refuses_the_settings_it_does_not_ship():
    """The levers measured and not shipped are the lab's (lab.ge.extractor): a config that
    sets one fails loudly rather than being read as a plain model."""
    with pytest.raises(ValueError, match=r"\[triggers\] type_bias.*LabGEExtractor"):
        GEExtractor({**SMALL, "triggers": {**SMALL["triggers"], "type_bias": {"Binding": 1}}})
    with pytest.raises(ValueError, match=r"\[edges\] context"):
        GEExtractor({**SMALL, "edges": {**SMALL["edges"], "context": 1}})
    with pytest.raises(ValueError, match=r"\[stacking\]"):
        GEExtractor({**SMALL, "stacking": {"triggers": True}})
    with pytest.raises(ValueError, match="binding = 'learned'"):
        GEExtractor({**SMALL, "assembly": {"binding": "learned"}})
    with pytest.raises(ValueError, match=r"\[assembly\] binding_C"):
        GEExtractor({**SMALL, "assembly": {"binding": "side", "binding_C": 2.0}})


def test_trigger_dictionary_folds_deal_documents():
    import numpy as np

    from relx.ge.triggers import TriggerDetector

    docs_views = [[] for _ in range(23)]
    old = np.random.RandomState(3).permutation(len(docs_views)) % 5
    assert (TriggerDetector(dict_folds=5, random_state=3)._dict_fold(docs_views) == old).all()


def test_a2_round_trip_and_self_score(docs, tmp_path):
    for d in docs:
        pred = _oracle(d)
        for ext in ("txt", "a1"):
            shutil.copy(FIXTURES / f"{d.id}.{ext}", tmp_path / f"{d.id}.{ext}")
        write_a2(pred, tmp_path / f"{d.id}.a2")
        back = read_standoff(tmp_path / f"{d.id}.txt")
        assert back.triggers == pred.triggers and back.events == pred.events
        assert back.proteins == d.standoff.proteins
        r = evaluate_events([back], [pred])
        assert r["f1"] == 1.0


@pytest.mark.slow
def test_train_predict_save_load(docs, tmp_path):
    model = GEExtractor(SMALL).fit(docs)
    assert model.train_seconds_ is not None
    preds = model.predict(docs)
    assert [p.id for p in preds] == list(NAMES)
    r = evaluate_events([d.standoff for d in docs], preds)
    assert r["f1"] > 0.5   # it should fit its own training data reasonably
    model.save(tmp_path / "m")
    again = GEExtractor.load(tmp_path / "m").predict(docs)
    assert [p.events for p in again] == [p.events for p in preds]
    (tmp_path / "m" / "meta.json").write_text('{"format": "relx-ge-events", "format_version": 99}')
    with pytest.raises(GEModelError, match="format version 99"):
        GEExtractor.load(tmp_path / "m")
    with pytest.raises(GEModelError, match="missing"):
        GEExtractor.load(tmp_path / "nothing")


@pytest.mark.slow
def test_cli_functions_on_fixture_dir(docs, corpus_dir, tmp_path, monkeypatch):
    parsed = {d.id: d.parsed for d in docs}
    # use the stored parses instead of the parser
    monkeypatch.setattr("relx.ge.data.parse_standoff", lambda so, parser=None: [parsed[d.id] for d in so])
    report = tmp_path / "r.json"
    r = evaluate_ge(SMALL, [corpus_dir], corpus_dir, report=report, pred_dir=tmp_path / "pred")
    assert set(r) >= {"precision", "recall", "f1", "per_type", "train_seconds"}
    assert report.is_file() and (tmp_path / "pred" / "ge-1.a2").is_file()
    out = train_ge(SMALL, [corpus_dir], tmp_path / "model")
    paths = predict_ge(out, corpus_dir, tmp_path / "pred2")
    assert sorted(p.name for p in paths) == ["ge-1.a2", "ge-2.a2", "ge-3.a2"]
    assert read_standoff(corpus_dir / "ge-1.txt", a2_path=paths[0]).events


@pytest.mark.slow
@pytest.mark.skipif(not (GE2011 / "train").is_dir(), reason="GE 2011 corpus not available")
def test_real_data_small_run(tmp_path):
    pytest.importorskip("spacy")
    from relx.model_store import models_dir

    if not (models_dir() / "relx_bio_sm" / "meta.json").exists():
        pytest.skip("shipped pipeline models/relx_bio_sm missing")
    train_dir, test_dir = tmp_path / "train", tmp_path / "test"
    for src, dst, n in ((GE2011 / "train", train_dir, 12), (GE2011 / "devel", test_dir, 4)):
        dst.mkdir()
        for txt in sorted(src.glob("*.txt"))[:n]:
            for ext in ("txt", "a1", "a2"):
                shutil.copy(txt.with_suffix(f".{ext}"), dst / f"{txt.stem}.{ext}")
    cfg = {**SMALL, "edge_klsh": {**SMALL["edge_klsh"], "n_reference": 30, "n_bits": 100}}
    r = evaluate_ge(cfg, [train_dir], test_dir, pred_dir=tmp_path / "pred",
                    cache_dir=tmp_path / "cache")
    assert 0.0 <= r["f1"] <= 1.0 and r["n_test_docs"] == 4
    assert (tmp_path / "cache" / f"{tmp_path.name}-test.jsonl").is_file()
    gold = load_ge(test_dir)
    preds = [read_standoff(test_dir / f"{g.id}.txt", a2_path=tmp_path / "pred" / f"{g.id}.a2")
             for g in gold]
    assert evaluate_events([g.standoff for g in gold], preds)["f1"] == pytest.approx(r["f1"])


def test_training_dirs_read_a_repeated_document_once(docs, tmp_path, monkeypatch):
    """GE 2013 train repeats a GE 2011 train paper: the later directory's copy is skipped
    (and not parsed; a parse cache is only written for a whole directory)."""
    from relx.ge.cli import _load_dirs

    parsed = {d.id: d.parsed for d in docs}
    calls: list[list[str]] = []

    def parse(so, parser=None):
        calls.append([d.id for d in so])
        return [parsed[d.id] for d in so]

    monkeypatch.setattr("relx.ge.data.parse_standoff", parse)
    first, later = tmp_path / "2011" / "train", tmp_path / "2013" / "train"
    for folder, names in ((first, ("ge-1", "ge-2")), (later, ("ge-1", "ge-3"))):
        folder.mkdir(parents=True)
        for n in names:
            for ext in ("txt", "a1", "a2"):
                shutil.copy(FIXTURES / f"{n}.{ext}", folder / f"{n}.{ext}")
    got = _load_dirs([first, later], tmp_path / "cache")
    assert [d.standoff.id for d in got] == ["ge-1", "ge-2", "ge-3"]
    assert calls == [["ge-1", "ge-2"], ["ge-3"]]
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["2011-train.jsonl"]
    again = _load_dirs([later, first], tmp_path / "cache")   # first from its cache
    assert [d.standoff.id for d in again] == ["ge-1", "ge-3", "ge-2"]
    assert calls[2:] == [["ge-1", "ge-3"]]


@pytest.mark.slow
def test_modifications_learned_saved_and_predicted(docs, tmp_path):
    """Negation / Speculation: trained on gold M lines, thresholds from document folds,
    predicted as M lines on events, kept through save/load, scored by the evaluator."""
    from relx.doc import Modification
    from relx.ge.modifications import ModificationDetector

    marked = {"ge-1": [("Negation", "E1")], "ge-2": [("Speculation", "E3")],
              "ge-3": [("Negation", "E1")]}
    train = []
    for copy in range(4):   # copies under other ids: enough documents for the folds
        for d in docs:
            mods = [Modification(id=f"M{k}", type=t, event=e)
                    for k, (t, e) in enumerate(marked[d.id], 1)]
            so = d.standoff.model_copy(update={"modifications": mods, "id": f"{d.id}-{copy}"})
            train.append(GEDoc(so, d.parsed.model_copy(update={"id": so.id})))
    cfg = {**SMALL, "modifications": {"enabled": True, "C": 100.0, "folds": 2}}
    model = GEExtractor(cfg).fit(train)
    det = model.modifications
    assert isinstance(det, ModificationDetector)
    assert set(det.models_) == {"Negation", "Speculation"}
    gold = [d.standoff.model_copy(update={"modifications": [
        Modification(id=f"M{k}", type=t, event=e) for k, (t, e) in enumerate(marked[d.id], 1)]})
        for d in docs]
    found = [det.predict(d.standoff, build_views(d, gold=False)) for d in docs]
    assert [{(m.type, m.event) for m in f.modifications} for f in found] == \
        [set(marked[d.id]) for d in docs]
    r = evaluate_events(gold, found)
    assert r["modifications"]["ALL"]["f1"] == 1.0
    model.save(tmp_path / "m")
    again = GEExtractor.load(tmp_path / "m")
    assert again.modifications.thresholds_ == det.thresholds_
    assert [p.modifications for p in again.predict(docs)] == \
        [p.modifications for p in model.predict(docs)]


