"""Raw-text extraction scored against a corpus's gold pairs (lab.raw_eval) and its page rows."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, ROOT

from lab.raw_eval import gold_entity_report, raw_text_report
from lab.results import render_raw
from relx.io.ppi_xml import read_ppi_xml
from relx.ppi.model import train_model
from relx.registry import load_config


@pytest.mark.slow
def test_raw_text_and_gold_entity_reports_on_the_mini_corpus():
    docs = list(read_ppi_xml(FIXTURES / "ppi-mini.xml"))  # 3 sentences, 7 pairs, 2 interacting
    model = train_model(load_config(ROOT / "configs" / "ppi-pair-lr.toml"), docs, name="t")

    gold = gold_entity_report(model, docs)
    assert gold["tp"] + gold["fn"] == 2 and gold["tp"] + gold["fp"] <= 7

    everything = raw_text_report(model, docs, threshold=-1.0)  # every found pair reported
    assert everything["gold_pairs"] == 2 and everything["sentences"] == 3
    assert everything["tp"] + everything["fn"] == 2
    assert everything["tp"] >= 1  # "RAD51 binds BRCA2": both names found by relx's NER
    assert everything["predicted_entities"] >= 4 and everything["gold_entities"] == 8
    nothing = raw_text_report(model, docs, threshold=2.0)
    assert (nothing["tp"], nothing["fp"], nothing["fn"], nothing["recall"]) == (0, 0, 2, 0.0)


def test_raw_rows_take_gold_figures_from_the_report_or_the_matrix():
    fig = {"precision": 0.5, "recall": 0.25, "f1": 1 / 3, "predicted_entities": 10,
           "gold_entities": 12, "parse_source": "relx:x"}
    raw = {("KLSH-RF", "AIMed", "BioInfer"): fig,
           ("ppi-best", "AIMed", "BioInfer"): {**fig, "gold_entities_relx_parses": {
               "precision": 0.7, "recall": 0.6, "f1": 0.646}}}
    matrix = {("KLSH-RF, relx parses", "AIMed", "BioInfer"): {
        "precision": 0.654, "recall": 0.301, "f1": 0.412}}
    lines = render_raw(raw, matrix)
    rows = [ln for ln in lines if ln.startswith("| KLSH-RF |") or ln.startswith("| ppi-best |")]
    assert rows == [
        "| KLSH-RF | AIMed → BioInfer | 0.654 / 0.301 / 0.412 | 0.500 / 0.250 / 0.333 | 10 / 12 |",
        "| ppi-best | AIMed → BioInfer | 0.700 / 0.600 / 0.646 | 0.500 / 0.250 / 0.333 | 10 / 12 |"]
