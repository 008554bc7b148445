"""Round 79's experiment (lab/genes/species_model.py, not kept): the estimator contract of
its human-or-mouse model and the context features it reads."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from lab.genes.species_model import SpeciesModel, mention_features
from relx.doc import Document, Entity, Sentence, Span
from relx.genes.lexicon import default_grounder
from relx.genes.species import find_species
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
