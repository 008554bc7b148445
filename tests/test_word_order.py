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
