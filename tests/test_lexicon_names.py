"""Which NCBI Gene names the lexicon build keeps (``lab.ncbi_names``), and the shipped
lexicon on them: two-word names of one gene (docs/genes.md, round 58)."""

from __future__ import annotations

import pytest

from lab.ncbi_names import generic, informative, one_thing
from relx.genes.lexicon import HUMAN, default_grounder


@pytest.mark.parametrize("name", ["ghrelin receptor", "angiotensin-converting enzyme",
                                  "capsaicin receptor", "antidiuretic hormone",
                                  "fractalkine receptor"])
def test_a_two_word_name_of_one_thing_is_kept(name):
    assert generic(name) and one_thing(name) and informative(name)


@pytest.mark.parametrize("name", ["cysteine protease", "adapter protein", "ras-related protein",
                                  "calpain inhibitor", "ubiquitin ligase", "glycolytic enzyme",
                                  "stress-induced protein", "casein kinase",
                                  "collagen receptor"])
def test_a_class_phrase_is_left_out(name):
    assert generic(name) and not one_thing(name) and not informative(name)


@pytest.mark.parametrize(("text", "gene"), [("ghrelin receptor", "HGNC:4267"),
                                            ("angiotensin-converting enzyme", "HGNC:2707"),
                                            ("fractalkine receptor", "HGNC:2558"),
                                            ("capsaicin receptor", "HGNC:12716")])
def test_the_shipped_lexicon_names_them(text, gene):
    found = default_grounder().ground(text, HUMAN)
    assert found and found[0].id == gene


def test_the_shipped_lexicon_keeps_class_phrases_out():
    g = default_grounder()
    for text in ("adapter protein", "ubiquitin ligase", "glycolytic enzyme"):
        assert not [c for c in g.ground(text, HUMAN) if c.source in ("designation",
                                                                         "ncbi_synonym")]


def test_bh3_only_is_a_class_not_rtl10():
    # round 60: `BH3-only protein` is an HGNC alias of RTL10, and the class of BID, BIM...
    g = default_grounder()
    assert not [c for c in g.ground("BH3-only protein", HUMAN) if c.id == "HGNC:26112"]
    assert g.ground("RTL10", HUMAN)[0].id == "HGNC:26112"


def test_the_sample_abstracts_network_has_no_class_node():
    from pathlib import Path

    from relx.doc import Document
    from relx.ppi.gene_relations import load

    text = (Path(__file__).resolve().parents[1] / "corpora" / "abstracts" /
            "apoptosis.txt").read_text(encoding="utf-8")
    _, rels, _ = next(iter(load().annotate([Document(id="apoptosis", text=text)])))
    genes = {g.id for r in rels for g in (r.gene1, r.gene2)}
    assert "637" in genes and "79680" not in genes      # BID, not RTL10


def test_famplex_names_its_own_map_sends_to_one_gene(tmp_path):
    """Naming round 93: a FamPlex entity name the grounding map sends to a gene only."""
    from lab.lexicon_famplex import famplex_gene_named

    (tmp_path / "entities.csv").write_text("TNF\nDDR\nMAF\nERK\n")
    (tmp_path / "grounding_map.csv").write_text(
        "TNF,UP,P01375,,,,\nDDR,GO,GO:0042769,,,,\nMAF,FPLX,MAF,UP,O75444,,\n"
        "ERK,FPLX,ERK,,,,\ntumor necrosis factor,UP,P01375,,,,\n")
    assert famplex_gene_named(tmp_path) == {"TNF"}


@pytest.mark.parametrize(("text", "gene"), [("TNF", "HGNC:11892"), ("SRC", "HGNC:11283"),
                                            ("PARP", "HGNC:270")])
def test_the_shipped_lexicon_names_the_gene_not_the_family(text, gene):
    g = default_grounder()
    assert [c.id for c in g.ground(text, HUMAN)][0] == gene
    assert f"FPLX:{text}" not in {c.id for c in g.ground(text, HUMAN)}
    assert not g.is_family_name(text)
    assert g.is_family_name("ERK")
