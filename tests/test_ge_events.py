"""GENIA event extraction (relx.ge): candidates, trigger mapping, assembly, a2 round trip,
training and prediction on fixtures, and a small run on the real GE 2011 data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, GE_FIXTURE_NAMES, SHARED, ge_fixture_docs

from relx.doc import StandoffDocument
from relx.ge.assemble import assemble_document, binding_groups
from relx.ge.cli import evaluate_ge, main, predict_ge, train_ge
from relx.ge.data import GEDoc, load_ge
from relx.ge.edges import (
    EdgeCandidate,
    EdgeDetector,
    candidates,
    edge_context,
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


def _oracle(doc: GEDoc, binding: str = "side") -> StandoffDocument:
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


def test_edge_context_ranks_rival_arguments_and_triggers(docs):
    views = build_views(docs[0])
    cands = candidates(views, [v.gold_triggers for v in views])
    ctx = edge_context(views, cands)
    assert len(ctx) == len(cands)
    by = {(views[c.view].tokens[c.src[0]].text, c.dst): f for c, f in zip(cands, ctx, strict=True)}
    # "expression of PROT" in "... phosphorylation of PROT induced expression of PROT2":
    # the Theme is the nearer protein, the other is one edge further
    near, far = by["expression", "T5"], by["expression", "T4"]
    assert near["cx_srank=0"] == near["cx_sgap=0"] == 1
    assert far["cx_srank=1"] == far["cx_sgap=1"] == 1
    # T4 is nearer to "phosphorylation" than to "expression" or "induced": second of three
    assert far["cx_drank=2"] == 1 and by["phosphorylation", "T4"]["cx_drank=0"] == 1
    assert all(sum(k.startswith("cx_srank=") for k in f) == 1 for f in ctx)
    # the linear model sees them only when asked
    det = EdgeDetector(method="features", context=True, n_features=2 ** 12)
    plain = EdgeDetector(method="features", n_features=2 ** 12)
    assert det._features(views, cands).nnz == plain._features(views, cands).nnz + 8 * len(cands)


def test_trigger_features_use_dictionary(docs):
    views = [v for d in docs for v in build_views(d)]
    dictionary = TriggerDictionary().add(views)
    view = build_views(docs[0])[0]
    f = token_features(view, 6, dictionary)   # "inhibited"
    assert f["l=inhibit"] == 1 and f["dl:type=Negative_regulation"] == 1.0
    assert token_features(view, 6, None).get("dl:unseen") is None


def test_binding_groups_strategies(docs):
    view = build_views(docs[0])[0]   # Interaction of TRAF2 with CD40 ...
    assert binding_groups(view, 0, ["T1", "T2"], "conj") == [["T1", "T2"]]
    assert binding_groups(view, 0, ["T1", "T2"], "side") == [["T1"], ["T2"]]
    assert binding_groups(view, 0, ["T2", "T1"], "all") == [["T1", "T2"]]
    view2 = build_views(docs[1])[0]  # p50 and p65 bind ...
    assert binding_groups(view2, 3, ["T1", "T2"], "conj") == [["T1"], ["T2"]]
    assert binding_groups(view2, 3, ["T1", "T2"], "side") == [["T1"], ["T2"]]
    assert binding_groups(view2, 3, ["T1"], "each") == [["T1"]]


def test_oracle_assembly_recovers_gold(docs):
    # gold edges assembled: every task-1 event, with nested regulations and multi-theme Binding
    preds = [_oracle(d, "conj") for d in docs]
    r = evaluate_events([d.standoff for d in docs], preds)
    assert r["f1"] == 1.0 and r["gold"] == 13
    p = preds[0]
    assert [t.id for t in p.triggers] == ["T6", "T7", "T8", "T9", "T10"]   # after T1-T5
    events = {e.id: e for e in p.events}
    binding = next(e for e in p.events if e.type == "Binding")
    assert binding.arguments == [("Theme", "T1"), ("Theme2", "T2")]
    reg = next(e for e in p.events if e.type == "Positive_regulation")
    theme, cause = reg.refs("Theme")[0], reg.refs("Cause")[0]
    assert events[theme].type == "Gene_expression" and events[cause].type == "Phosphorylation"
    order = [e.id for e in p.events]
    assert order.index(theme) < order.index(reg.id) and order.index(cause) < order.index(reg.id)


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
    assert main(["predict", "--model", str(out), "--input", str(corpus_dir),
                     "--out", str(tmp_path / "pred3")]) == 0


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


def test_learned_binding_grouper(docs):
    from relx.ge.binding import BindingGrouper

    views = [v for d in docs for v in build_views(d)]
    v0 = build_views(docs[0])[0]
    assert v0.gold_bindings == {0: [frozenset({"T1", "T2"})]}
    grouper = BindingGrouper(C=10.0).fit(views)
    assert grouper.model_ is not None
    assert sorted(map(sorted, grouper.groups(v0, 0, ["T2", "T1"]))) == [["T1", "T2"]]
    v1 = build_views(docs[1])[0]   # p50 and p65 bind: two events
    assert sorted(map(sorted, grouper.groups(v1, 3, ["T1", "T2"]))) == [["T1"], ["T2"]]
    assert grouper.groups(v1, 3, ["T1"]) == [["T1"]]


def test_tune_sweeps_settings_on_a_training_split(docs):
    from relx.ge.tune import split_docs, sweep

    fit, val = split_docs(docs, 0.34, seed=0)
    assert len(val) == 1 and {d.id for d in fit} | {d.id for d in val} == set(NAMES)
    model = GEExtractor(SMALL).fit(docs)
    rows = sweep(model, val, [0.0, 0.5], [0.0], [0.0, 1.0], ["side", "learned"], [0.0, 0.2],
                 log=lambda *_: None)
    assert len(rows) == 2 * 2 * 2 * 2
    assert all(0.0 <= r["f1"] <= 1.0 and "per_type" in r for r in rows)


def test_split_holds_out_whole_papers_of_each_kind():
    """A full-text paper's sections (GE 2013 repeats GE 2011's papers under other section
    ids) never straddle the split, and abstracts and papers are held out apart."""
    from types import SimpleNamespace

    from relx.ge.tune import paper_folds, paper_id, split_docs

    assert paper_id("PMC-1310901-05-MATERIALS_AND_METHODS-04") == "PMC-1310901"
    assert paper_id("PMID-9361033") == "PMID-9361033"
    ids = [f"PMID-{i}" for i in range(50)] + [
        f"PMC-{p}-{s:02d}-Results" for p in range(100, 110) for s in range(7)]
    docs = [SimpleNamespace(id=i) for i in ids]
    for seed in range(5):
        fit, val = split_docs(docs, 0.2, seed)   # type: ignore[arg-type]
        assert sorted(d.id for d in fit + val) == sorted(ids)
        held = {paper_id(d.id) for d in val}
        assert not held & {paper_id(d.id) for d in fit}
        assert sum(p.startswith("PMID") for p in held) == 10
        assert sum(p.startswith("PMC") for p in held) == 2
    folds = paper_folds(docs, 5, seed=1)   # type: ignore[arg-type]
    by_paper: dict[str, set[int]] = {}
    for d, f in zip(docs, folds, strict=True):
        by_paper.setdefault(paper_id(d.id), set()).add(f)
    assert all(len(f) == 1 for f in by_paper.values())
    for f in range(5):
        papers = {p for p, fs in by_paper.items() if f in fs}
        assert sum(p.startswith("PMID") for p in papers) == 10
        assert sum(p.startswith("PMC") for p in papers) == 2


def test_trigger_dictionary_folds_keep_a_paper_together():
    """With ``dict_groups="paper"`` the cross-fitted dictionary never sees another section
    (or another edition) of the paper it scores; ``"document"`` deals documents as before."""
    from types import SimpleNamespace

    import numpy as np

    from relx.ge.data import paper_id
    from relx.ge.triggers import TriggerDetector

    ids = [f"PMID-{i}" for i in range(30)] + [
        f"PMC-{p}-{s:02d}-{part}" for p in range(100, 106) for s in range(4)
        for part in ("Results", "Methods")]
    docs_views = [[SimpleNamespace(doc_id=i)] for i in ids] + [[]]
    fold = TriggerDetector(dict_folds=5, dict_groups="paper", random_state=3)._dict_fold(
        docs_views)   # type: ignore[arg-type]
    assert len(fold) == len(docs_views) and set(fold.tolist()) == set(range(5))
    for p in {paper_id(i) for i in ids}:
        assert len({f for i, f in zip(ids, fold, strict=False) if paper_id(i) == p}) == 1
    old = np.random.RandomState(3).permutation(len(docs_views)) % 5
    assert (TriggerDetector(dict_folds=5, random_state=3)._dict_fold(docs_views) == old).all()
    with pytest.raises(ValueError, match="groups must be"):
        TriggerDetector(dict_groups="sentence")._dict_fold(docs_views)


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


# -- joint decoding, type biases, lexicon variants (issue 32) ---------------------------------

def _proba(rows: list[tuple[float, float, float]]):
    import numpy as np

    return np.array(rows, dtype=float)


def test_joint_decode_weak_trigger_strong_theme_and_no_theme():
    from relx.ge.decode import joint_decode

    weak, strong, lonely = (1, "Gene_expression"), (5, "Phosphorylation"), (8, "Localization")
    cands = [EdgeCandidate(0, weak, "T1"), EdgeCandidate(0, strong, "T2"),
             EdgeCandidate(0, lonely, "T1")]
    margins = [{weak: -0.2, strong: 1.5, lonely: 0.1}]
    proba = _proba([(0.05, 0.95, 0.0),    # weak trigger, sure Theme: kept
                    (0.70, 0.30, 0.0),    # strong trigger, doubtful Theme: forced in
                    (0.90, 0.10, 0.0)])   # weak trigger, bad Theme: dropped
    chosen = {(c.src, c.dst, r) for c, r in joint_decode(margins, cands, proba, 0.0, 0.0)}
    assert chosen == {(weak, "T1", "Theme"), (strong, "T2", "Theme")}
    # a heavy trigger weight lets the trigger margins decide alone
    heavy = {(c.src, r) for c, r in joint_decode(margins, cands, proba, 0.0, 0.0, 10.0)}
    assert heavy == {(strong, "Theme"), (lonely, "Theme")}


def test_joint_decode_nested_regulation_needs_a_themed_target():
    from relx.ge.decode import joint_decode

    reg, expr = (0, "Positive_regulation"), (3, "Gene_expression")
    cands = [EdgeCandidate(0, reg, expr), EdgeCandidate(0, expr, "T1"),
             EdgeCandidate(0, expr, reg)]
    good = joint_decode([{reg: 0.5, expr: 0.5}], cands,
                        _proba([(0.1, 0.9, 0.0), (0.1, 0.9, 0.0), (0.4, 0.6, 0.0)]), 0.0, 0.0)
    got = {(c.src, c.dst) for c, _ in good}
    assert (reg, expr) in got and (expr, "T1") in got
    assert not ((reg, expr) in got and (expr, reg) in got)   # no 2-cycle
    # the target's only Theme is hopeless and the target weak: neither event survives
    bad = joint_decode([{reg: 0.5, expr: -1.0}], cands[:2],
                       _proba([(0.1, 0.9, 0.0), (0.99, 0.01, 0.0)]), 0.0, 0.0)
    assert bad == []


def test_joint_decode_ilp_is_exact_on_small_sentences():
    """The integer program's choice scores as well as brute force over every edge subset."""
    import itertools

    import numpy as np

    from relx.ge.decode import _decode_ilp, edge_scores

    rng = np.random.RandomState(3)
    nodes = [(0, "Regulation"), (2, "Positive_regulation"), (4, "Gene_expression")]
    cands = [EdgeCandidate(0, s, d) for s in nodes for d in ["T1", *nodes]
             if d != s and (s[1] != "Gene_expression" or isinstance(d, str))]
    for _ in range(20):
        margins = {n: float(rng.normal()) for n in nodes}
        p = rng.dirichlet([1.0, 1.0, 1.0], size=len(cands))
        scored = edge_scores(p, cands, 0.0, 0.0)

        def value(chosen: set[int], scored=scored, margins=margins) -> float | None:
            on = {cands[k].src for k in chosen} | {cands[k].dst for k in chosen
                                                    if not cands[k].dst_is_protein}
            if any(not any(cands[k].src == n and scored[k][0] == "Theme" for k in chosen)
                   for n in on):
                return None
            if any(cands[a].src == cands[b].dst and cands[a].dst == cands[b].src
                   for a in chosen for b in chosen):
                return None
            return sum(margins[n] for n in on) + sum(scored[k][1] for k in chosen)

        best = max(v for r in range(len(cands) + 1)
                   for sub in itertools.combinations(range(len(cands)), r)
                   if (v := value(set(sub))) is not None)
        got = _decode_ilp(margins, cands, scored)
        chosen = {k for k, c in enumerate(cands) if any(c is g for g, _ in got)}
        assert value(chosen) == pytest.approx(max(best, 0.0))


def test_type_bias_raises_the_classes_of_a_type():
    import numpy as np

    from relx.ge.triggers import decide

    classes = ["Gene_expression", "None", "Regulation", "Binding|Regulation"]
    scores = np.array([[0.0, 0.5, 0.3, -1.0], [0.0, 0.5, -1.0, 0.4]])
    index = [(0, 1), (0, 2)]
    assert decide(scores, index, classes, 1, 0.0) == [{}]
    raised = decide(scores, index, classes, 1, 0.0, {"Regulation": 0.3})
    assert raised == [{1: {"Regulation"}, 2: {"Binding", "Regulation"}}]


def test_lexicon_variants_add_stem_and_compound_tail_features(docs):
    views = [v for d in docs for v in build_views(d)]
    plain, variants = TriggerDictionary().add(views), TriggerDictionary(stems=True).add(views)
    assert not any(k.startswith("s:") for k in plain.total)
    assert variants.total["s:inhibi"] >= 1
    again = TriggerDictionary.from_json(variants.to_json())
    assert again.stems and again.total == variants.total
    view = build_views(docs[0])[0]
    f = token_features(view, 6, variants)   # "inhibited"
    assert f["ds:type=Negative_regulation"] > 0


def test_dependency_classes_generalise_what_a_trigger_governs(docs):
    from relx.ge.triggers import dictionary_class

    views = [v for d in docs for v in build_views(d)]
    dictionary = TriggerDictionary().add(views)
    view = build_views(docs[0])[1]   # "... phosphorylation of PROT induced expression of PROT"
    induced = next(i for i, t in enumerate(view.tokens) if t.text == "induced")
    expression = next(i for i, t in enumerate(view.tokens) if t.text == "expression")
    assert dictionary_class(view, expression, dictionary) == "Gene_expression"
    assert dictionary_class(view, min(view.protein_tokens), dictionary) == "PROT"
    plain = token_features(view, induced, dictionary)
    f = token_features(view, induced, dictionary, dependency_classes=True)
    assert not any(k.startswith("dc_") for k in plain)
    assert f["dc_out=dobj:Gene_expression"] == 1 and f["dc_out_l=induce/dobj:Gene_expression"] == 1
    assert plain.items() <= f.items()


def test_crossfit_trigger_nodes_keep_gold_and_add_candidates(docs):
    from relx.ge.decode import crossfit_trigger_nodes
    from relx.ge.triggers import TriggerDetector

    docs_views = [build_views(d) for d in docs]
    detector = TriggerDetector(C=1.0, dict_folds=1, n_features=2 ** 12)
    tight = crossfit_trigger_nodes(docs_views, detector, slack=0.0, folds=3)
    loose = crossfit_trigger_nodes(docs_views, detector, slack=5.0, folds=3)
    views = [v for vs in docs_views for v in vs]
    assert len(tight) == len(loose) == len(views)
    for v, t, lo in zip(views, tight, loose, strict=True):
        assert all(types <= t.get(tok, set()) for tok, types in v.gold_triggers.items())
        assert all(types <= lo.get(tok, set()) for tok, types in t.items())
    assert sum(map(len, loose)) > sum(map(len, tight))
    assert not hasattr(detector, "model_")   # the detector passed in stays unfitted
