"""lab/genes/eval_species.py: LocText-style grounding figures on a two-document corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.genes.eval_species import _accession, figures, loctext_proteins, markdown
from tests.conftest import SHARED


def test_accession() -> None:
    assert _accession("UniProtKB:P04637-2") == "P04637"
    assert _accession("UniProtKB:uniprot:") == ""  # LocText's unnormalised protein


@pytest.fixture()
def genes(tmp_path: Path) -> Path:
    docs = [
        {"id": "1", "text": "Human p53 binds MDM2. A protein X was seen.", "mentions": [
            {"start": 6, "end": 9, "text": "p53", "type": "protein",
             "ids": ["UniProtKB:P04637"]},
            {"start": 16, "end": 20, "text": "MDM2", "type": "protein",
             "ids": ["UniProtKB:Q00987"]},
            {"start": 33, "end": 34, "text": "X", "type": "protein",
             "ids": ["UniProtKB:uniprot:"]}]},
        {"id": "2", "text": "In yeast, Dnm1p binds Mdv1p.", "mentions": [
            {"start": 10, "end": 15, "text": "Dnm1p", "type": "protein",
             "ids": ["UniProtKB:P54861"]},
            {"start": 22, "end": 27, "text": "Mdv1p", "type": "protein",
             "ids": ["UniProtKB:P47025"]}]},
    ]
    folder = tmp_path / "loctext"
    folder.mkdir()
    (folder / "train.jsonl").write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    return tmp_path


@pytest.mark.slow
def test_loctext_proteins_counts(genes: Path) -> None:
    if not (SHARED / "lexicons" / "hgnc").exists():
        pytest.skip("../shared/lexicons/hgnc not available")
    r = loctext_proteins(genes, SHARED, ("train",))
    assert r["no_gold_id"] == 1
    assert not any(".old_" in k for k in r)   # ground_document figures only
    assert (r["human.n"], r["human.new_best_right"], r["human.new_taxon_human"]) == (2, 2, 2)
    assert (r["other.n"], r["other.new_taxon_not_human"], r["other.new_best_is_hgnc"]) == \
        (2, 2, 0)
    fig = figures(genes, SHARED)
    assert fig["loctext_proteins"]["devel+test"] == {}  # no such split here: no row
    assert "| devel+test |" not in markdown(fig)
    assert "| train | 2 | 1.000 | 1.000 | 1.000 | 2 | 1.000 | 0.000 |" in markdown(fig)
