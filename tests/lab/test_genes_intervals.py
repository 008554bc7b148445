"""Intervals by document for the naming figures (lab/genes/intervals.py)."""

from __future__ import annotations

from lab.genes.intervals import by_document, interval_markdown


def _doc(found_human: int, right_human: int, found_mouse: int = 0, right_mouse: int = 0,
         tp: int = 0, pred: int = 0, gold: int = 0) -> dict[str, int]:
    return {"found_human": found_human, "right_human": right_human,
            "found_mouse": found_mouse, "right_mouse": right_mouse, "found_other": 0,
            "right_other": 0, "no_id": 0, "pair_tp": tp, "pair_pred": pred, "pair_gold": gold}


def test_identical_documents_give_a_point() -> None:
    docs = {str(i): _doc(10, 8, 5, 5, 1, 2, 2) for i in range(30)}
    got = by_document(docs, resamples=200)
    assert got["human best id"] == [0.8, 0.8]
    assert got["mouse best id"] == [1.0, 1.0]
    assert got["gene pairs F1 (mention-level model)"] == [0.5, 0.5]


def test_one_document_deciding_the_mouse_figure_widens_its_interval() -> None:
    docs = {str(i): _doc(10, 9) for i in range(40)}
    docs["m1"] = _doc(0, 0, 50, 0)      # a mouse document named all wrong
    docs["m2"] = _doc(0, 0, 50, 50)     # and one named all right
    got = by_document(docs, resamples=2000)
    lo, hi = got["mouse best id"]
    assert lo < 0.2 and hi > 0.8                  # one document swings it either way
    lo, hi = got["human best id"]
    assert lo == hi == 0.9
    assert "| mouse best id |" in interval_markdown(got)


def test_gene_relation_counts_are_resampled_with_the_same_documents() -> None:
    docs = {str(i): _doc(1, 1) for i in range(20)}
    rel = {str(i): {"pairs_tp": i % 2, "pairs_pred": 1, "pairs_gold_ids_tp": 1,
                    "pairs_gold_ids_pred": 1, "gold": 1} for i in range(20)}
    got = by_document(docs, rel, resamples=500, seed=1)
    lo, hi = got["gene pairs F1 (gene relation model)"]
    assert 0.2 < lo < 0.5 < hi < 0.8
    assert got["the same with gold ids"] == [1.0, 1.0]
