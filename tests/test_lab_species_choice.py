"""Naming rounds 79 and 89's experiment (lab/genes/species_choice.py, not kept): the estimator
contract of the human-or-mouse model, the context features it reads, where it may choose."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from lab.genes.species_choice import (
    BEYOND_SENTENCE,
    SpeciesModel,
    learned_species,
    mention_features,
)
from relx.doc import Document, Entity, Sentence, Span
from relx.genes.lexicon import default_grounder
from relx.genes.species import SpeciesAssignment, assign_species, find_species
from relx.genes.symbol_sets import rodent_symbols


def doc_of(text: str, mentions: list[str]) -> Document:
    ents, pos = [], 0
    for i, m in enumerate(mentions):
        start = text.index(m, pos)
        pos = start + len(m)
        ents.append(Entity(id=f"T{i}", spans=[Span(start=start, end=pos)], text=m))
    return Document(id="d", text=text,
                    sentences=[Sentence(id="s0", start=0, end=len(text), text=text,
                                        entities=ents)])


def test_the_estimator_contract():
    X = [{"sent_mouse": 1.0, "doc_mouse": 2.0}, {"sent_mouse": 1.0},
         {"sent_human": 1.0, "doc_human": 1.0}, {"sent_human": 1.0, "caps": 1.0}] * 5
    y = ["mouse", "mouse", "human", "human"] * 5
    model = SpeciesModel(C=1.0)
    assert model.get_params() == {"C": 1.0, "random_state": 0}
    with pytest.raises(NotFittedError):
        model.predict_proba(X)
    assert model.fit(X, y) is model
    assert list(model.predict(X)) == y
    proba = model.predict_proba(X + [{"never_seen": 1.0}])
    assert proba.shape == (len(X) + 1, 2) and np.allclose(proba.sum(axis=1), 1.0)
    assert set(model.to_json()["coef"]) == set(model.features_)
    with pytest.raises(ValueError):
        SpeciesModel().fit(X, ["rat"] * len(X))


def test_context_features_of_a_mixed_document():
    g = default_grounder()
    text = ("Activated Ras alters lens development. We generated transgenic mice that "
            "express human H-Ras in their lenses. Ras transgenic lenses showed increased "
            "cyclin D1 expression. Patients with Costello syndrome carry HRAS mutations.")
    doc = doc_of(text, ["Ras", "H-Ras", "Ras", "cyclin D1", "HRAS"])
    feats = mention_features(doc, find_species(text), in_lexicon=g.in_lexicon,
                             rodent_symbol=rodent_symbols(g).__contains__)
    assert set(feats) == {"T0", "T1", "T2", "T3", "T4"}
    assert feats["T1"]["modifier=human"] == 1.0           # "human H-Ras"
    assert feats["T3"]["prev_human"] == 1.0 and feats["T3"]["prev_mouse"] == 1.0
    assert feats["T0"]["in_title"] == 1.0 and feats["T4"]["in_title"] == 0.0
    assert feats["T4"]["sent_human"] == 1.0 and feats["T4"]["sent_mouse"] == 0.0
    assert feats["T0"]["docshare_mouse"] == feats["T4"]["docshare_mouse"] > 0


def test_json_round_trip_predicts_the_same():
    X = [{"sent_mouse": 1.0, "doc_mouse": 2.0}, {"sent_human": 1.0, "caps": 1.0}] * 4
    model = SpeciesModel(C=1.0).fit(X, ["mouse", "human"] * 4)
    again = SpeciesModel.from_json(model.to_json())
    assert again.get_params() == model.get_params()
    assert np.allclose(again.predict_proba(X), model.predict_proba(X), atol=1e-7)


def test_the_model_chooses_only_where_the_rules_look_beyond_the_sentence():
    g = default_grounder()
    rodent = rodent_symbols(g).__contains__
    text = ("Tet2 loss in mice. Patients with AML carry TET2 mutations. We then studied "
            "Dnmt3a and IDH2 in bone marrow. These findings implicate TET2 in leukaemia.")
    doc = doc_of(text, ["Tet2", "TET2", "Dnmt3a", "IDH2", "TET2"])
    hits = find_species(text)
    rules = assign_species(doc, hits, in_lexicon=g.in_lexicon, rodent_symbol=rodent,
                           family_name=g.is_family_name)
    always_mouse = SpeciesModel().fit([{"x": 1.0}, {"y": 1.0}], ["mouse", "human"])
    always_mouse.coef_[:] = 0.0
    always_mouse.intercept_ = 5.0
    got = learned_species(doc, hits, rules, always_mouse, in_lexicon=g.in_lexicon,
                          rodent_symbol=rodent, family_name=g.is_family_name)
    assert set(got) == set(rules)
    for k, rule in rules.items():
        if rule.evidence in BEYOND_SENTENCE and rule.taxon in ("NCBITaxon:9606",
                                                               "NCBITaxon:10090"):
            assert got[k] == SpeciesAssignment("NCBITaxon:10090", "learned")
        else:
            assert got[k] == rule
    assert rules["T1"].evidence == "sentence" and got["T1"].taxon == "NCBITaxon:9606"
    assert any(r.evidence in BEYOND_SENTENCE for r in rules.values())
