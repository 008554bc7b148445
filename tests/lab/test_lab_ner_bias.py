"""lab/genes/ner_bias.py: the entity-start bias on the shipped tagger."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import spacy

from lab.genes.ner_bias import choose, main, output_layer, set_start_bias
from relx.model_store import find_model_dir
from relx.parse.ner import register

TEXT = ("Activation of the Tie2 receptor by angiopoietin 1 recruits Dok-R, and the "
        "adaptor then binds Nck and Ras GTPase-activating protein in endothelial cells. "
        "Hsp90 and cdc37 stabilise Akt, whereas 17-AAG releases it.")


def _ents(nlp) -> set[tuple[int, int]]:
    return {(e.start_char, e.end_char) for e in nlp(TEXT).ents}


def test_start_bias_opens_more_entities_and_reverts() -> None:
    register()
    nlp = spacy.load(find_model_dir("relx_bio_sm"), exclude=["parser", "tagger", "lemmatizer"])
    before = _ents(nlp)
    layer = output_layer(nlp.get_pipe("ner"))
    base = set_start_bias(nlp, 0.0)
    assert np.array_equal(np.asarray(layer.get_param("b")), base)
    assert _ents(nlp) == before
    set_start_bias(nlp, 20.0, base)   # O nearly never wins where no entity is open
    many = _ents(nlp)
    assert len(many) > len(before)
    assert all(any(s < e2 and s2 < e for s2, e2 in many) for s, e in before)
    set_start_bias(nlp, 0.0, base)
    assert _ents(nlp) == before


def _result(delta: float, adjusted: float, ge: float, bc2gm: float, cg: float) -> dict:
    return {"delta": delta, "ge11_devel_famplex": {"f1": adjusted}, "ge11_devel": {"f1": ge},
            "bc2gm_devel": {"f1": bc2gm}, "cg_devel": {"f1": cg}}


def test_choose_follows_the_registered_rule() -> None:
    results = [_result(0.0, 0.82, 0.75, 0.59, 0.76), _result(0.5, 0.8130, 0.75, 0.61, 0.77),
               _result(1.0, 0.80, 0.75, 0.70, 0.80)]    # best mean, but under the GE floor
    assert choose(results)["delta"] == 0.5
    assert choose([_result(0.0, 0.70, 0.7, 0.7, 0.7)]) is None
    tie = [_result(0.0, 0.82, 0.7, 0.7, 0.7), _result(0.5, 0.82, 0.7, 0.7, 0.7)]
    assert choose(tie)["delta"] == 0.0


@pytest.mark.slow
def test_write_stores_the_bias_in_a_copy(tmp_path: Path) -> None:
    register()
    src = find_model_dir("relx_bio_sm")
    out = tmp_path / "biased"
    main(["write", "--model", str(src), "--delta", "20", "--out", str(out)])
    assert json.loads((out / "meta.json").read_text())["ner_start_bias"] == 20.0
    shipped = spacy.load(src, exclude=["parser", "tagger", "lemmatizer"])
    biased = spacy.load(out, exclude=["parser", "tagger", "lemmatizer"])
    assert len(_ents(biased)) > len(_ents(shipped))
    assert (out / "parser").exists()
