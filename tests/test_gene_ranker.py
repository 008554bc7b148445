"""The 3-gram name search and the learned gene name ranker (relx.genes.ngrams, .ranker)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_estimators_unfitted, check_get_params_invariance

from relx.doc import Document, Entity, Sentence, Span
from relx.errors import ConfigError
from relx.genes.document import ground_document
from relx.genes.lexicon import default_grounder
from relx.genes.ngrams import NgramIndex
from relx.genes.ranker import FEATURES, NameRanker, candidates, default_ranker


def test_ngram_search_scores_by_dice_and_skips_short_keys() -> None:
    ix = NgramIndex(["tryptophanhydroxylase1", "tryptophanhydroxylase2", "tyrosinehydroxylase",
                     "il2", "sod"])
    assert len(ix) == 3                           # keys under 5 characters are left out
    hits = ix.search("tryptophanhydroxylase", k=3)
    assert [k for k, _ in hits[:2]] == ["tryptophanhydroxylase1", "tryptophanhydroxylase2"]
    assert 0.9 < hits[0][1] < 1.0 and hits[0][1] == hits[1][1]
    assert ix.search("tryptophanhydroxylase1")[0] == ("tryptophanhydroxylase1", 1.0)
    assert ix.search("zzzzqqqq") == [] and ix.search("") == []


def _dice_by_hand(keys: list[str], query: str, k: int, min_dice: float
                  ) -> list[tuple[str, float]]:
    """``NgramIndex.search`` written out over sets of 3-grams, one key at a time."""
    def grams(s: str) -> set[str]:
        return {s[i:i + 3] for i in range(len(s) - 2)}

    q = grams(query)
    kept = [x for x in keys if len(x) >= 5 and x.isascii()]
    scored = [(x, 2.0 * len(q & grams(x)) / (len(q) + len(grams(x)))) for x in kept]
    scored = [(i, x, d) for i, (x, d) in enumerate(scored) if q & grams(x)]
    scored.sort(key=lambda t: (-t[2], t[0]))
    return [(x, round(d, 4)) for _, x, d in scored[:k] if d >= min_dice]


def test_ngram_search_equals_dice_by_hand_across_key_blocks() -> None:
    """The shipped lexicon's first 40,000 human keys (postings made in blocks of 16,384
    keys): the same keys and scores as computed by hand, ties in key order."""
    keys = list(default_grounder().index)[:40_000]
    ix = NgramIndex(keys)
    for query in ("tryptophanhydroxylase", "interleukin2receptor", "mapkinase", "stat5b",
                  "tumornecrosisfactoralpha", "zzzqqq", keys[17_000], keys[39_999]):
        assert ix.search(query, k=20, min_dice=0.4) == _dice_by_hand(keys, query, 20, 0.4)


def test_candidates_on_the_shipped_lexicon() -> None:
    g = default_grounder()
    cands = candidates(g, "tryptophan hydroxylases", "NCBITaxon:9606")
    assert {"HGNC:12008", "HGNC:20692"} <= {c.id for c in cands}   # TPH1, TPH2
    assert all(len(c.features) == len(FEATURES) for c in cands)
    ctx = candidates(g, "tryptophan hydroxylases", None, frozenset({"HGNC:20692"}))
    f = FEATURES.index("in_document")
    assert {c.id: c.features[f] for c in ctx}["HGNC:20692"] == 1.0


def test_a_generic_class_is_not_ranked() -> None:
    text = "the cysteine protease cleaves it"
    ent = Entity(id="e1", spans=[Span(start=4, end=21)], text="cysteine protease")
    doc = Document(id="d", text=text, sentences=[Sentence(id="s", text=text, start=0,
                                                           end=len(text), entities=[ent])])
    assert ground_document(doc).sentences[0].entities[0].norm_ids == []


def test_ranker_fits_stores_as_json_and_keeps_only_sure_candidates() -> None:
    rng = np.random.default_rng(0)
    X = rng.random((200, len(FEATURES)))
    y = (X[:, 0] > 0.5).astype(int)                 # "dice" decides
    model = NameRanker(C=10.0, threshold=0.6).fit(X, y)
    assert model.coef_[0] > 0 and model.score(X, y) > 0.9
    again = NameRanker.from_json(model.to_json())
    np.testing.assert_allclose(again.predict_proba(X), model.predict_proba(X), atol=1e-6)
    with pytest.raises(ConfigError):
        NameRanker.from_json({**model.to_json(), "features": ["dice"]})
    check_get_params_invariance("NameRanker", NameRanker())
    check_estimators_unfitted("NameRanker", NameRanker())


def test_the_shipped_ranker_names_a_gene_no_key_reaches() -> None:
    ranker = default_ranker()
    assert ranker is not None and 0.0 < ranker.threshold < 1.0
    name = "interleukin 6 cytokine"
    text = name + " levels rose."
    ent = Entity(id="e1", spans=[Span(start=0, end=len(name))], text=name)
    doc = Document(id="d", text=text, sentences=[Sentence(id="s", text=text, start=0,
                                                           end=len(text), entities=[ent])])
    assert ground_document(doc, ranker=False).sentences[0].entities[0].norm_ids == []
    out = ground_document(doc).sentences[0].entities[0]
    assert out.norm_ids == ["HGNC:6018"] and out.grounded                   # IL6
    assert out.ncbi_ids == ["NCBIGene:3569"]
    assert out.norm_confidence is not None and ranker.threshold <= out.norm_confidence < 1.0
