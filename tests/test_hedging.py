"""Negation / speculation of relations: cue scope features (relx.represent.hedging), the
detector (relx.learn.hedging) and the shipped one."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone

from relx.doc import Document, Entity, Relation, Sentence, Span
from relx.learn.hedging import DEFAULT_PATH, HedgingDetector, hedging_flags, load_hedging
from relx.model_store import models_dir
from relx.represent.hedging import SEED_CUES, hedging_features, learn_cue_lexicon
from relx.represent.instances import PairInstance
from relx.represent.pair_features import negated_pair

if not (models_dir() / "relx_bio_sm").exists():
    pytest.skip("relx's parse pipeline models/relx_bio_sm missing", allow_module_level=True)

NOT_DETECTED = "We did not detect any interaction between Grb2 and PLCG1."
TWO_CLAUSES = "gp130 binds JAK1, but STAT3 does not bind JAK2."


@pytest.fixture(scope="module")
def parser():
    from relx.parse.pipeline import Parser

    return Parser(ner=False)


def pairs(parser, text: str, names: list[str], doc_id: str = "d") -> dict[tuple[str, str],
                                                                            PairInstance]:
    """Every pair of the named mentions of ``text`` (each name's first occurrence), parsed."""
    ents = []
    for k, n in enumerate(names):
        i = text.index(n)
        ents.append(Entity(id=f"T{k}", spans=[Span(start=i, end=i + len(n))], text=n))
    doc = Document(id=doc_id, text=text, sentences=[Sentence(
        id=f"{doc_id}.s0", start=0, end=len(text), text=text, entities=ents)])
    s = next(iter(parser.parse_documents([doc]))).sentences[0]
    out = {}
    for i, a in enumerate(s.entities):
        for b in s.entities[i + 1:]:
            out[a.text, b.text] = PairInstance(doc_id, s, Relation(id=f"r{i}", arg1=a.id,
                                                                   arg2=b.id))
    return out


def test_cue_scope_reaches_pairs_the_path_flag_misses(parser) -> None:
    x = pairs(parser, NOT_DETECTED, ["Grb2", "PLCG1"])["Grb2", "PLCG1"]
    assert not negated_pair(x)           # "not" is off the Grb2-PLCG1 path ...
    f = hedging_features(x, {"negated": SEED_CUES["negated"]})
    # ... but it modifies a governor of the path's top and scopes over both proteins
    assert f["neg:seed:scope=both"] == 1 and f["neg:cue=not:dep_of_governor"] == 1


def test_cue_scope_keeps_the_positive_clause_out(parser) -> None:
    p = pairs(parser, TWO_CLAUSES, ["gp130", "JAK1", "STAT3", "JAK2"])
    lex = {"negated": SEED_CUES["negated"]}
    assert hedging_features(p["gp130", "JAK1"], lex)["neg:cue=not:scope=none"] == 1
    assert hedging_features(p["STAT3", "JAK2"], lex)["neg:cue=not:scope=both"] == 1


def test_lexicon_learns_words_of_positive_sentences(parser) -> None:
    neg = pairs(parser, "STAT3 failed to bind JAK2.", ["STAT3", "JAK2"])["STAT3", "JAK2"]
    pos = pairs(parser, "STAT3 binds JAK2.", ["STAT3", "JAK2"])["STAT3", "JAK2"]
    lex = learn_cue_lexicon([neg, neg, pos], [True, True, False], min_count=2, min_lift=1.2)
    assert "fail" in lex and "bind" not in lex


def _training_set(parser) -> tuple[list[PairInstance], np.ndarray]:
    """Small labelled set: 24 one-pair documents, negated / speculated / plain."""
    templates = [("{a} does not bind {b}.", (1, 0)), ("{a} failed to interact with {b}.", (1, 0)),
                 ("{a} may bind {b}.", (0, 1)), ("{a} might interact with {b}.", (0, 1)),
                 ("{a} binds {b}.", (0, 0)), ("{a} interacts with {b} in cells.", (0, 0))]
    names = [("STAT3", "JAK2"), ("Grb2", "PLCG1"), ("SHP-1", "STAT5"), ("MDM2", "TP53")]
    X, Y = [], []
    for k, (t, lab) in enumerate(templates):
        for j, (a, b) in enumerate(names):
            X += pairs(parser, t.format(a=a, b=b), [a, b], doc_id=f"d{k}_{j}").values()
            Y.append(lab)
    return X, np.array(Y)


def test_detector_contract_and_json_round_trip(parser, tmp_path) -> None:
    X, Y = _training_set(parser)
    det = HedgingDetector(C=1.0, min_count=2, folds=2)
    assert clone(det).get_params() == det.get_params()
    det.fit(X, Y)
    assert (det.predict(X) == Y.astype(bool)).mean() > 0.9
    again = load_hedging(det.save(tmp_path / "h.json.gz", {"trained_on": ["test"]}))
    assert np.allclose(again.predict_proba(X), det.predict_proba(X), atol=1e-4)
    with pytest.raises(ValueError, match="columns"):
        HedgingDetector().fit(X, Y[:, :1])
    with pytest.raises(TypeError):
        HedgingDetector(1.0)   # hyper-parameters are keyword-only


def test_flags_fall_back_to_the_path_flag(parser) -> None:
    p = pairs(parser, TWO_CLAUSES, ["gp130", "JAK1", "STAT3", "JAK2"])
    assert hedging_flags(p["STAT3", "JAK2"], None) == (True, False)


@pytest.mark.skipif(not DEFAULT_PATH.is_file(), reason="shipped hedging detector missing")
def test_shipped_detector_on_the_issue_sentences(parser) -> None:
    det = load_hedging()
    assert DEFAULT_PATH.stat().st_size < 200_000
    grb2 = pairs(parser, NOT_DETECTED, ["Grb2", "PLCG1"])["Grb2", "PLCG1"]
    assert hedging_flags(grb2, det)[0] is True
    two = pairs(parser, TWO_CLAUSES, ["gp130", "JAK1", "STAT3", "JAK2"])
    assert hedging_flags(two["gp130", "JAK1"], det)[0] is False
    assert hedging_flags(two["STAT3", "JAK2"], det)[0] is True
    may = pairs(parser, "These results suggest that Grb2 may bind PLCG1.", ["Grb2", "PLCG1"])
    assert hedging_flags(may["Grb2", "PLCG1"], det) == (False, True)
    plain = pairs(parser, "Grb2 binds PLCG1.", ["Grb2", "PLCG1"])
    assert hedging_flags(plain["Grb2", "PLCG1"], det) == (False, False)


@pytest.mark.skipif(not DEFAULT_PATH.is_file(), reason="shipped hedging detector missing")
def test_both_types_from_one_feature_pass_equal_each_type_alone(parser) -> None:
    """predict_proba computes a pair's cue features once for both types; each type's
    probability is bit for bit the one from its own lexicon alone."""
    from relx.learn.hedging import HEDGING_TYPES

    det = load_hedging()
    xs = [*pairs(parser, TWO_CLAUSES, ["gp130", "JAK1", "STAT3", "JAK2"]).values(),
          *pairs(parser, NOT_DETECTED, ["Grb2", "PLCG1"]).values(),
          *pairs(parser, "These results suggest that Grb2 may not bind PLCG1 or SOS1.",
                 ["Grb2", "PLCG1", "SOS1"]).values()]
    alone = np.array([[det._proba(x, t) for t in HEDGING_TYPES] for x in xs])
    assert np.array_equal(det.predict_proba(xs), alone)
    assert alone[:, 0].max() > 0.5 and alone[:, 1].max() > 0.5   # both types fire somewhere
