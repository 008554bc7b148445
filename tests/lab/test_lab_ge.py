"""The GE levers measured and not shipped (lab.ge): edge context, Binding groupings and the
learned grouper, the validation split and sweep by paper, joint decoding, per-type trigger
biases, lexicon variants, dependency classes, ``python -m lab.ge`` -- and that the lab's
extractor with none of them set is relx's."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES, GE_FIXTURE_NAMES, ge_fixture_docs
from test_ge_events import SMALL, _oracle

from lab.ge.binding import GROUPINGS, BindingGrouper, binding_groups
from lab.ge.cli import main
from lab.ge.edges import ContextEdgeDetector, edge_context
from lab.ge.extractor import LabGEExtractor
from lab.ge.triggers import LeverDictionary, LeverTriggerDetector, lever_features
from lab.ge.tune import split_docs, sweep
from relx.ge.data import GEDoc
from relx.ge.edges import EdgeCandidate, EdgeDetector, candidates
from relx.ge.evaluate import evaluate_events
from relx.ge.pipeline import GEExtractor
from relx.ge.sentences import build_views
from relx.ge.triggers import TriggerDictionary, token_features

# the edges by the feature model alone: the lab's hooks are the same, and no KLSH kernel to run
FEATURES = {**SMALL, "edges": {**SMALL["edges"], "method": "features"}}


@pytest.fixture(scope="module")
def docs() -> list[GEDoc]:
    return ge_fixture_docs()


@pytest.mark.slow
def test_the_lab_extractor_without_levers_is_relx(docs, tmp_path):
    lab = LabGEExtractor(FEATURES).fit(docs)
    relx = GEExtractor(FEATURES).fit(docs)
    assert [p.events for p in lab.predict(docs)] == [p.events for p in relx.predict(docs)]
    lab.save(tmp_path / "m")   # with the learned grouper's part, which relx ignores
    assert [p.events for p in GEExtractor.load(tmp_path / "m").predict(docs)] == \
        [p.events for p in relx.predict(docs)]


@pytest.mark.slow
def test_learned_binding_saves_and_loads(docs, tmp_path):
    cfg = {**FEATURES, "assembly": {"binding": "learned", "binding_C": 10.0}}
    model = LabGEExtractor(cfg).fit(docs)
    assert model.grouper.C == 10.0 and model.grouper.model_ is not None
    model.save(tmp_path / "m")
    again = LabGEExtractor.load(tmp_path / "m")
    assert again.binding == "learned" and again.grouper.model_ is not None
    assert [p.events for p in again.predict(docs)] == [p.events for p in model.predict(docs)]


def test_python_m_lab_ge_predicts_with_a_saved_model(docs, tmp_path, monkeypatch):
    parsed = {d.id: d.parsed for d in docs}
    monkeypatch.setattr("relx.ge.data.parse_standoff",
                        lambda so, parser=None: [parsed[d.id] for d in so])
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for n in GE_FIXTURE_NAMES:
        for ext in ("txt", "a1", "a2"):
            shutil.copy(FIXTURES / f"{n}.{ext}", corpus / f"{n}.{ext}")
    LabGEExtractor(FEATURES).fit(docs).save(tmp_path / "model")
    assert main(["predict", "--model", str(tmp_path / "model"), "--input", str(corpus),
                 "--out", str(tmp_path / "pred")]) == 0
    assert sorted(p.name for p in (tmp_path / "pred").iterdir()) == \
        ["ge-1.a2", "ge-2.a2", "ge-3.a2"]


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
    det = ContextEdgeDetector(method="features", context=True, n_features=2 ** 12)
    plain = EdgeDetector(method="features", n_features=2 ** 12)
    assert det._features(views, cands).nnz == plain._features(views, cands).nnz + 8 * len(cands)


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
    preds = [_oracle(d, GROUPINGS["conj"]) for d in docs]
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


def test_learned_binding_grouper(docs):
    views = [v for d in docs for v in build_views(d)]
    v0 = build_views(docs[0])[0]
    assert v0.gold_bindings == {0: [frozenset({"T1", "T2"})]}
    grouper = BindingGrouper(C=10.0).fit(views)
    assert grouper.model_ is not None
    assert sorted(map(sorted, grouper.groups(v0, 0, ["T2", "T1"]))) == [["T1", "T2"]]
    v1 = build_views(docs[1])[0]   # p50 and p65 bind: two events
    assert sorted(map(sorted, grouper.groups(v1, 3, ["T1", "T2"]))) == [["T1"], ["T2"]]
    assert grouper.groups(v1, 3, ["T1"]) == [["T1"]]


@pytest.mark.slow
def test_tune_sweeps_settings_on_a_training_split(docs):
    fit, val = split_docs(docs, 0.34, seed=0)
    assert len(val) == 1 and {d.id for d in fit} | {d.id for d in val} == set(GE_FIXTURE_NAMES)
    model = LabGEExtractor(SMALL).fit(docs)
    rows = sweep(model, val, [0.0, 0.5], [0.0], [0.0, 1.0], ["side", "learned"], [0.0, 0.2],
                 log=lambda *_: None)
    assert len(rows) == 2 * 2 * 2 * 2
    assert all(0.0 <= r["f1"] <= 1.0 and "per_type" in r for r in rows)


def test_split_holds_out_whole_papers_of_each_kind():
    """A full-text paper's sections (GE 2013 repeats GE 2011's papers under other section
    ids) never straddle the split, and abstracts and papers are held out apart."""
    from types import SimpleNamespace

    from lab.ge.tune import paper_folds, paper_id, split_docs

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

    from lab.ge.tune import paper_id

    ids = [f"PMID-{i}" for i in range(30)] + [
        f"PMC-{p}-{s:02d}-{part}" for p in range(100, 106) for s in range(4)
        for part in ("Results", "Methods")]
    docs_views = [[SimpleNamespace(doc_id=i)] for i in ids] + [[]]
    fold = LeverTriggerDetector(dict_folds=5, dict_groups="paper", random_state=3)._dict_fold(
        docs_views)   # type: ignore[arg-type]
    assert len(fold) == len(docs_views) and set(fold.tolist()) == set(range(5))
    for p in {paper_id(i) for i in ids}:
        assert len({f for i, f in zip(ids, fold, strict=False) if paper_id(i) == p}) == 1
    old = np.random.RandomState(3).permutation(len(docs_views)) % 5
    assert (LeverTriggerDetector(dict_folds=5, random_state=3)._dict_fold(docs_views) == old).all()
    with pytest.raises(ValueError, match="groups must be"):
        LeverTriggerDetector(dict_groups="sentence")._dict_fold(docs_views)


def _proba(rows: list[tuple[float, float, float]]):
    import numpy as np

    return np.array(rows, dtype=float)


def test_joint_decode_weak_trigger_strong_theme_and_no_theme():
    from lab.ge.decode import joint_decode

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
    from lab.ge.decode import joint_decode

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

    from lab.ge.decode import _decode_ilp, edge_scores

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

    from lab.ge.triggers import decide

    classes = ["Gene_expression", "None", "Regulation", "Binding|Regulation"]
    scores = np.array([[0.0, 0.5, 0.3, -1.0], [0.0, 0.5, -1.0, 0.4]])
    index = [(0, 1), (0, 2)]
    assert decide(scores, index, classes, 1, 0.0) == [{}]
    raised = decide(scores, index, classes, 1, 0.0, {"Regulation": 0.3})
    assert raised == [{1: {"Regulation"}, 2: {"Binding", "Regulation"}}]


def test_lexicon_variants_add_stem_and_compound_tail_features(docs):
    views = [v for d in docs for v in build_views(d)]
    plain, variants = TriggerDictionary().add(views), LeverDictionary(stems=True).add(views)
    assert not any(k.startswith("s:") for k in plain.total)
    assert variants.total["s:inhibi"] >= 1
    again = LeverDictionary.from_json(variants.to_json())
    assert again.stems and again.total == variants.total
    view = build_views(docs[0])[0]
    f = lever_features(view, 6, variants)   # "inhibited"
    assert f["ds:type=Negative_regulation"] > 0


def test_dependency_classes_generalise_what_a_trigger_governs(docs):
    from lab.ge.triggers import dictionary_class

    views = [v for d in docs for v in build_views(d)]
    dictionary = TriggerDictionary().add(views)
    view = build_views(docs[0])[1]   # "... phosphorylation of PROT induced expression of PROT"
    induced = next(i for i, t in enumerate(view.tokens) if t.text == "induced")
    expression = next(i for i, t in enumerate(view.tokens) if t.text == "expression")
    assert dictionary_class(view, expression, dictionary) == "Gene_expression"
    assert dictionary_class(view, min(view.protein_tokens), dictionary) == "PROT"
    plain = token_features(view, induced, dictionary)
    f = lever_features(view, induced, dictionary, dependency_classes=True)
    assert not any(k.startswith("dc_") for k in plain)
    assert f["dc_out=dobj:Gene_expression"] == 1 and f["dc_out_l=induce/dobj:Gene_expression"] == 1
    assert plain.items() <= f.items()


def test_crossfit_trigger_nodes_keep_gold_and_add_candidates(docs):
    from lab.ge.decode import crossfit_trigger_nodes
    docs_views = [build_views(d) for d in docs]
    detector = LeverTriggerDetector(C=1.0, dict_folds=1, n_features=2 ** 12)
    tight = crossfit_trigger_nodes(docs_views, detector, slack=0.0, folds=3)
    loose = crossfit_trigger_nodes(docs_views, detector, slack=5.0, folds=3)
    views = [v for vs in docs_views for v in vs]
    assert len(tight) == len(loose) == len(views)
    for v, t, lo in zip(views, tight, loose, strict=True):
        assert all(types <= t.get(tok, set()) for tok, types in v.gold_triggers.items())
        assert all(types <= lo.get(tok, set()) for tok, types in t.items())
    assert sum(map(len, loose)) > sum(map(len, tight))
    assert not hasattr(detector, "model_")   # the detector passed in stays unfitted
