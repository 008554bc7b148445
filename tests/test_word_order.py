"""A full name written in another word order (relx.genes.word_order; naming round 69): the
examples are relx's no-id mentions on the PPI corpora's abstracts."""

from __future__ import annotations

import pytest

from relx.genes.document import resolve
from relx.genes.lexicon import default_grounder
from relx.genes.word_order import word_order

HUMAN = "NCBITaxon:9606"


@pytest.mark.parametrize(("text", "symbol"), [
    ("alpha-smooth muscle actin", "ACTA2"),     # actin alpha 2, smooth muscle
    ("α-smooth muscle actin", "ACTA2"),
    ("smooth muscle alpha-actin", "ACTA2"),
    ("skeletal muscle actin", "ACTA1"),         # a Greek letter more in the full name
    ("A1 adenosine receptor", "ADORA1"),        # the mention's number kept
    ("vascular cell adhesion molecule", "VCAM1"),
])
def test_a_full_name_in_another_order(text: str, symbol: str) -> None:
    g = default_grounder()
    assert g.symbol(word_order(g).gene(text, HUMAN)) == symbol
    got = resolve(text, HUMAN)
    assert got.route == "order" and g.symbol(got.ids[0]) == symbol and got.confidence < 1


@pytest.mark.parametrize("text", [
    "smooth muscle actin",        # ACTA2 and ACTG2: not one gene
    "muscle actin",               # fewer than three words
    "actin actin muscle",         # a word twice
    "latent membrane protein",    # an NCBI designation only: not read
])
def test_no_gene_in_another_order(text: str) -> None:
    assert word_order(default_grounder()).gene(text, HUMAN) is None


def test_a_defined_short_form_named_weakly_takes_its_long_form() -> None:
    # naming round 71: "α-SMA" alone was ACTA1 (a variant of NCBI's synonym ASMA of ACTA1,
    # until round 76); defined by "alpha-smooth muscle actin" (ACTA2, round 69) it is ACTA2
    from relx.doc import Abbreviation, Document, Entity, Sentence, Span
    from relx.genes.document import ground_document

    text = "TGF-beta raised alpha-smooth muscle actin (alpha-SMA). alpha-SMA stayed high."
    spans = [(16, 41), (43, 52), (55, 64)]
    ents = [Entity(id=f"T{i}", spans=[Span(start=a, end=b)], text=text[a:b], type="Protein")
            for i, (a, b) in enumerate(spans)]
    assert [e.text for e in ents] == ["alpha-smooth muscle actin", "alpha-SMA", "alpha-SMA"]
    ab = Abbreviation(short=Span(start=43, end=52), long=Span(start=16, end=41),
                      short_text="alpha-SMA", long_text="alpha-smooth muscle actin")
    doc = Document(id="d", text=text, abbreviations=[ab], sentences=[Sentence(
        id="s0", start=0, end=len(text), text=text, entities=ents)])
    got = ground_document(doc, species=False, calibration=False).sentences[0].entities
    assert [e.norm_ids[0] for e in got] == ["HGNC:130"] * 3
    # alone too since round 76, which dropped ACTA1's NCBI synonym ASMA (it was ACTA1)
    assert resolve("alpha-SMA", HUMAN).ids[0] == "HGNC:130"
