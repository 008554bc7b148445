"""lab.relations: BioRED train's typed gene relations by the registered split, and the
registered metrics (docs/relations.md)."""

from __future__ import annotations

import numpy as np
import pytest

from lab.relations.corpus import fold_of, read_relations
from lab.relations.metrics import best_threshold, confusion_markdown, ece, prf, score
from tests.conftest import SHARED

BIORED = SHARED / "corpora" / "biored" / "Train.PubTator.gz"
needs_data = pytest.mark.skipif(not BIORED.exists(), reason="BioRED train not in ../shared")


def test_folds_are_five_and_independent_of_the_dev_rule() -> None:
    from lab.genes.biored import in_dev

    pmids = [str(p) for p in range(10_000, 12_000)]
    fit = [p for p in pmids if not in_dev(p)]
    counts = np.bincount([fold_of(p) for p in fit], minlength=5)
    assert len(counts) == 5 and counts.min() > 0.8 * len(fit) / 5


@needs_data
def test_relations_are_gene_pairs_with_type_and_novelty() -> None:
    dev, fit = read_relations(SHARED, "dev"), read_relations(SHARED, "fit")
    assert (len(dev), len(fit)) == (86, 314)
    assert sum(len(d.relations) for d in fit) == 545
    kept = set((SHARED / "corpora" / "biored" / "kept-pmids.txt").read_text().split())
    assert not kept & {d.pmid for d in dev + fit}
    for d in fit:
        for k, r in d.relations.items():
            assert len(k) == 2 and k <= d.gene_ids()
            assert r.type in {"Association", "Positive_Correlation", "Negative_Correlation",
                              "Bind"}
        assert set(d.relations) <= set(d.any_relations)
        assert d.text[d.title_end] == "\n"
        assert all(d.text[m.start:m.end] == m.text for m in d.genes)


def test_ece_is_zero_when_calibrated_and_large_when_not() -> None:
    p = np.repeat([0.05, 0.55, 0.95], 100)
    y = np.concatenate([np.arange(100) < 5, np.arange(100) < 55, np.arange(100) < 95])
    assert ece(p, y) == 0.0
    assert ece(np.full(100, 0.9), np.zeros(100)) == pytest.approx(0.9)


def test_scores_count_gold_pairs_that_are_no_candidate() -> None:
    prob = np.array([0.9, 0.8, 0.2, 0.1])
    related = np.array([1, 0, 1, 0])
    assert best_threshold(prob, related, n_gold=2) == pytest.approx(0.2)   # F1 0.8
    assert best_threshold(prob, related, n_gold=6) == pytest.approx(0.2)
    out = score(prob, related, 0.5, 3, np.array(["Bind", "", "Association", ""]),
                np.array(["Association"] * 4), np.array([1, 0, 1, 0]), prob)
    assert out["pairs"] == prf(1, 2, 3)
    assert out["type_accuracy"] == 0.0 and out["confusion"] == {"Bind -> Association": 1}
    assert out["novelty"]["f1"] == 1.0
    assert "| Bind | 1 | 0 |" in confusion_markdown(out["confusion"])


def test_end_to_end_candidates_are_labelled_and_scored_by_ncbi_gene_id() -> None:
    """relx's own gene keys (an NCBI id, an HGNC id, a text gene) map to NCBI Gene ids; a
    candidate is related when its pair of ids is a gold pair, and the pairs are scored once
    each, a gene without an id never."""
    from lab.relations.corpus import GoldRelation, RelDoc
    from lab.relations.end_to_end import e2e_data, e2e_figures
    from relx.ppi.doc_view import DocView, Mention, MentionPair

    class Ncbi:
        def ncbi(self, cid: str) -> str | None:
            return {"HGNC:3236": "1956"}.get(cid)

    text = "EGFR binds GRB2. EGFR and foo."
    view = DocView("1", text, [(0, 16), (17, 30)], [
        Mention("T1", 0, 4, 0, ("HGNC:3236",)), Mention("T2", 11, 15, 0, ("2885",)),
        Mention("T3", 17, 21, 1, ("1956",)), Mention("T4", 26, 29, 1, ("text:foo",))],
        [MentionPair("T1", "T2", 0, 2.0, 0.9), MentionPair("T3", "T4", 1, 1.0, 0.6)])
    doc = RelDoc("1", text, 0, relations={frozenset(("1956", "2885")):
                                         GoldRelation("Bind", True)})
    data = e2e_data([doc], {"1": view}, Ncbi())
    by_pair = dict(zip(data.pair, data.related.tolist(), strict=True))
    assert by_pair[frozenset(("1956", "2885"))] == 1
    assert None in by_pair and by_pair[None] == 0       # EGFR--foo: foo has no id
    assert set(data.types.tolist()) == {"Bind", ""}
    prob = np.where(data.related == 1, 0.9, 0.8)
    fold = int(data.folds[0])
    assert e2e_figures(data, prob, {fold: 0.5}) == prf(1, 1, 1)
    assert e2e_figures(data, prob, {fold: 0.95}) == prf(0, 0, 1)


def test_every_experiment_names_a_known_setting() -> None:
    """The settings the experiments compare resolve (a setting moved between the current
    grid and earlier rounds' still does)."""
    from lab.relations import end_to_end, untyped
    from lab.relations.biored import CHOSEN, EARLIER, GRID, SETTINGS

    assert SETTINGS == {**EARLIER, **GRID}
    for name in (CHOSEN, end_to_end.SETTING, untyped.SETTING):
        assert SETTINGS[name]["novel_model"] == "text-aux"   # gene-relations 0.2.0's kind
