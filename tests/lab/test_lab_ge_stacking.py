"""Stacked trigger detection (lab.ge.stacking): per-type margins, cross-fitted stage-1
outputs, stacked features and the stage-2 detector on the fixture documents, and a small
run on real GE 2011 train documents (skipped without ../shared)."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from conftest import SHARED, ge_fixture_docs
from test_ge_events import SMALL

from lab.ge.extractor import LabGEExtractor
from lab.ge.stacked_edges import (
    StackedEdgeDetector,
    edge_stack_features,
    margin_lookup,
    trigger_margins,
)
from lab.ge.stacking import (
    EDGE_COLUMNS,
    MARGIN_BINS,
    TYPES,
    StackedTriggerDetector,
    bin_of,
    crossfit_stage1,
    fit_stage1,
    stack_features,
    stage1_outputs,
    type_margins,
)
from lab.ge.triggers import LeverTriggerDetector
from relx.doc import GE_EVENT_TYPES
from relx.ge.data import GEDoc, load_ge
from relx.ge.edges import EdgeCandidate, EdgeDetector, candidates
from relx.ge.pipeline import GEExtractor, GEModelError
from relx.ge.sentences import build_views
from relx.ge.triggers import NONE_LABEL, TriggerDictionary

GE2011 = SHARED / "corpora" / "bionlp-st-ge" / "2011"
SMALL_TRIGGERS = {k: v for k, v in SMALL["triggers"].items() if k != "classifier"}
# an event config small enough for three documents, with stacked triggers
SMALL_STACKED = {**SMALL, "stacking": {"triggers": True, "folds": 3, "C": 1.0,
                                       "n_features": 2 ** 12, "edge_n_features": 2 ** 12,
                                       "none_bias": 0.0}}


@pytest.fixture(scope="module")
def docs() -> list[GEDoc]:
    return ge_fixture_docs()



def _templates() -> tuple[LeverTriggerDetector, EdgeDetector]:
    return (LeverTriggerDetector(**SMALL_TRIGGERS),
            EdgeDetector(method="features", C=10.0, n_features=2 ** 12))


def test_type_margins_take_the_best_class_holding_each_type():
    classes = ["Binding", "Binding|Positive_regulation", NONE_LABEL, "Positive_regulation"]
    scores = np.array([[0.2, -0.5, 0.1, 0.4],
                       [-1.0, 0.3, 0.5, -0.2]])
    m = type_margins(scores, classes, none_bias=0.3)
    none = scores[:, 2] - 0.3
    b, p = TYPES.index("Binding"), TYPES.index("Positive_regulation")
    np.testing.assert_allclose(m[:, b], np.maximum(scores[:, 0], scores[:, 1]) - none)
    np.testing.assert_allclose(m[:, p], np.maximum(scores[:, 1], scores[:, 3]) - none)
    assert np.isneginf(m[:, TYPES.index("Gene_expression")]).all()   # no class holds it


@pytest.mark.slow
def test_crossfit_holds_each_document_out_once(docs):
    docs_views = [build_views(d) for d in docs]
    td, ed = _templates()
    held = crossfit_stage1(docs_views, td, ed, folds=3, slack=5.0)
    assert len(held) == 3
    all_views = [v for vs in docs_views for v in vs]
    seen = [id(v) for cf in held for v in cf.views]
    assert sorted(seen) == sorted(id(v) for v in all_views)
    for cf in held:
        rest = [v for v in all_views if all(v is not h for h in cf.views)]
        # the stage-1 trigger dictionary that scored the fold never saw it
        assert cf.dictionary.total == TriggerDictionary().add(rest).total
        assert len(cf.output.index) == sum(len(v.candidates()) for v in cf.views)
    assert not hasattr(td, "model_") and not hasattr(ed, "linear_")   # templates unfitted


@pytest.mark.slow
def test_crossfit_by_paper_holds_a_paper_out_whole(docs):
    """``groups="paper"``: two sections of one paper are held out in the same fold."""
    docs_views = [build_views(d) for d in docs]
    assert len(docs_views) >= 3
    for d, section in ((0, "PMC-1-00-Results"), (1, "PMC-1-01-Discussion")):
        for v in docs_views[d]:
            v.doc_id = section
    for seed in range(4):
        held = crossfit_stage1(docs_views, *_templates(), folds=3, slack=5.0, seed=seed,
                               groups="paper")
        together = [{v.doc_id for v in cf.views} & {"PMC-1-00-Results", "PMC-1-01-Discussion"}
                    for cf in held]
        assert sorted(map(len, together)).count(2) == 1 and sum(map(len, together)) == 2


@pytest.mark.slow
def test_stage1_outputs_score_edges_within_slack(docs):
    docs_views = [build_views(d) for d in docs]
    td, ed = fit_stage1(docs_views, *_templates())
    views = [v for vs in docs_views for v in vs]
    wide = stage1_outputs(views, td, ed, slack=100.0)
    tight = stage1_outputs(views, td, ed, slack=-100.0)   # no token is within it
    assert np.isnan(tight.edge_best).all()
    assert wide.margins.shape == (len(wide.index), len(TYPES))
    for row, (vi, _) in enumerate(wide.index):
        svt = wide.edge_best[row, EDGE_COLUMNS.index("SVT:theme")]
        assert np.isnan(svt) == (not views[vi].protein_head)
        assert np.isnan(svt) or -1.0 <= svt <= 1.0
    # the stage-1 decisions are the trigger model's own
    assert wide.predicted == td.predict(views)


@pytest.mark.slow
def test_stack_features_describe_margins_edges_and_neighbours(docs):
    docs_views = [build_views(d) for d in docs]
    td, ed = fit_stage1(docs_views, *_templates())
    views = [v for vs in docs_views for v in vs]
    out = stage1_outputs(views, td, ed, slack=100.0)
    vi, tok = next((vi, t) for vi, t in out.index if views[vi].protein_head)
    row = out.index.index((vi, tok))
    f = stack_features(views[vi], vi, tok, out.margins[row], out.winner[row],
                       out.edge_best[row], out.predicted)
    assert f[f"k:win={out.winner[row]}"] == 1.0
    assert {k.split(":")[1].split("=")[0] for k in f} >= {"cm", "e", "ev", "ex"}
    assert f["k:ev=SVT:theme"] == pytest.approx(out.edge_best[row, 0])
    plain = stack_features(views[vi], vi, tok, out.margins[row], out.winner[row], None,
                           out.predicted)
    assert not any(k.startswith(("k:e=", "k:ev=", "k:ex=")) for k in plain)


@pytest.mark.slow
def test_stacked_detector_fits_and_predicts(docs):
    docs_views = [build_views(d) for d in docs]
    st = StackedTriggerDetector(triggers=SMALL_TRIGGERS, edge_C=10.0, edge_n_features=2 ** 12,
                                folds=3, C=1.0, n_features=2 ** 12, none_bias=0.0)
    st.fit(docs_views)
    views = [v for vs in docs_views for v in vs]
    scores, index = st.scores(views)
    assert scores.shape == (len(index), len(st.classes_))
    assert index == [(vi, i) for vi, v in enumerate(views) for i in v.candidates()]
    # one pass of token features serves both stages: the same as building them twice
    out = stage1_outputs(views, st.stage1_triggers_, st.stage1_edges_, st.slack)
    twice = st.model_.decision_function(st._hasher().transform(
        st._rows(views, out, st.stage1_triggers_.dictionary_)))
    np.testing.assert_array_equal(scores, twice)
    pred = st.predict(views)
    assert len(pred) == len(views)
    for v, p in zip(views, pred, strict=True):
        assert set(p) <= set(v.candidates())
        assert all(types and types <= set(GE_EVENT_TYPES) for types in p.values())
    # a training fit learns its own triggers back
    hit = sum(bool(p.get(t, set()) & ty) for v, p in zip(views, pred, strict=True)
              for t, ty in v.gold_triggers.items())
    assert hit > 0


def test_edge_stack_features_rank_competitors():
    src, reg = (3, "Gene_expression"), (1, "Positive_regulation")
    cands = [EdgeCandidate(0, src, "T1"), EdgeCandidate(0, src, "T2"),
             EdgeCandidate(0, reg, "T1"), EdgeCandidate(0, reg, src)]
    # None / Theme / Cause
    p1 = np.array([[0.2, 0.8, 0.0], [0.7, 0.3, 0.0], [0.6, 0.3, 0.1], [0.3, 0.6, 0.1]])
    margins = np.zeros((2, len(TYPES)))
    margins[0, TYPES.index("Positive_regulation")] = 0.4
    f = edge_stack_features(cands, p1, margin_lookup([(0, 1), (0, 3)], margins))
    assert f[0]["q:rs=SVT/PROT:0"] == f[1]["q:rs=SVT/PROT:1"] == 1.0     # rank at its source
    assert f[0]["q:rd=SVT/PROT:0"] == f[2]["q:rd=REG/PROT:1"] == 1.0     # rank for T1
    assert f[0]["q:tv=SVT/PROT"] == pytest.approx(0.6)
    assert f[2]["q:cv=PROT"] == pytest.approx(-0.5)                      # Cause, regulations
    assert not any(k.startswith("q:c=") for k in f[0])
    # the nested event's own best Theme score and margin; its token's margins row is 0
    assert f[3]["q:dtv=SVT"] == pytest.approx(0.6)
    assert f[3][f"q:dm=SVT:{bin_of(0.0, MARGIN_BINS)}"] == 1.0
    assert f[3]["q:back=none"] == 1.0
    assert not any(k.startswith("q:dm=") for k in f[0])


@pytest.mark.slow
def test_stacked_edge_detector_learns_from_crossfitted_scores(docs):
    docs_views = [build_views(d) for d in docs]
    held = crossfit_stage1(docs_views, *_templates(), folds=3, slack=5.0)
    se = StackedEdgeDetector(C=10.0, n_features=2 ** 12).fit_from(held)
    td, ed = fit_stage1(docs_views, *_templates())
    views = [v for vs in docs_views for v in vs]
    cands = candidates(views, [v.gold_triggers for v in views])
    p = se.proba(views, cands, ed.proba(views, cands), trigger_margins(views, td))
    assert p.shape == (len(cands), 3)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    gold = np.array([views[c.view].gold_edges.get((c.src, c.dst), "None") for c in cands])
    theme = p[:, 1] > p[:, 0]
    assert theme[gold == "Theme"].mean() > theme[gold == "None"].mean()


@pytest.mark.slow
def test_event_model_with_stacked_triggers_saves_and_loads(docs, tmp_path):
    model = LabGEExtractor(SMALL_STACKED).fit(docs)
    assert isinstance(model.triggers, StackedTriggerDetector)
    assert model.triggers.folds == 3 and model.triggers.edge_C == 10.0
    pred = model.predict(docs)
    assert any(p.events for p in pred)
    model.save(tmp_path / "m")
    meta = json.loads((tmp_path / "m" / "meta.json").read_text())
    assert meta["format_version"] == 4 and meta["stage1_trigger_classes"]
    with pytest.raises(GEModelError, match="format version 4"):   # relx reads 1-3 only
        GEExtractor.load(tmp_path / "m")
    loaded = LabGEExtractor.load(tmp_path / "m")
    assert isinstance(loaded.triggers, StackedTriggerDetector)
    views = [v for d in docs for v in build_views(d, gold=False)]
    np.testing.assert_array_equal(loaded.triggers.scores(views)[0],
                                  model.triggers.scores(views)[0])
    assert [p.events for p in loaded.predict(docs)] == [p.events for p in pred]


@pytest.mark.slow
@pytest.mark.skipif(not (GE2011 / "train").is_dir(), reason="GE 2011 corpus not available")
def test_real_data_stacked_triggers(tmp_path):
    pytest.importorskip("spacy")
    from relx.model_store import models_dir

    if not (models_dir() / "relx_bio_sm" / "meta.json").exists():
        pytest.skip("shipped pipeline models/relx_bio_sm missing")
    src = tmp_path / "train"
    src.mkdir()
    for txt in sorted((GE2011 / "train").glob("*.txt"))[:16]:
        for ext in ("txt", "a1", "a2"):
            shutil.copy(txt.with_suffix(f".{ext}"), src / f"{txt.stem}.{ext}")
    docs = load_ge(src)
    fit_views = [build_views(d) for d in docs[:12]]
    test_views = [v for d in docs[12:] for v in build_views(d)]
    st = StackedTriggerDetector(triggers={"C": 0.1, "dict_folds": 3}, folds=3,
                                C=0.1).fit(fit_views)
    pred = st.predict(test_views)
    gold = {(vi, t, ty) for vi, v in enumerate(test_views)
            for t, tys in v.gold_triggers.items() for ty in tys}
    found = {(vi, t, ty) for vi, p in enumerate(pred) for t, tys in p.items() for ty in tys}
    assert gold and found and gold & found   # some held-out triggers found
    assert st.stage1_triggers_.dictionary_.total   # stage 1 refitted on all documents
