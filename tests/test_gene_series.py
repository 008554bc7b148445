"""A class name heading a numbered or lettered series of gene names (relx.genes.series) and the
document pass that grounds with it; the class names are BioRED fit-split mentions."""

from __future__ import annotations

import pytest

from relx.doc import Document, Entity, Sentence, Span
from relx.genes.document import ground_document
from relx.genes.lexicon import HUMAN, MOUSE, RAT, default_grounder
from relx.genes.series import SERIES_FACTOR, member_inside, series_member


@pytest.mark.parametrize(("text", "taxon", "symbol"), [
    ("superoxide dismutase", MOUSE, "Sod1"),
    ("superoxide dismutase", RAT, "Sod1"),        # the human member's ortholog
    ("nitric oxide synthase", MOUSE, "Nos1"),
    ("presenilin", MOUSE, "Psen1"),
    ("cyclooxygenase", HUMAN, "PTGS1"),
    ("serotonin transporter", HUMAN, "SLC6A4"),
    ("superoxide dismutases", HUMAN, "SOD1"),     # a plural
    ("cAMP response element-binding protein", HUMAN, "CREB1"),   # an NCBI designation
    ("melanocortin receptor", HUMAN, "MC1R"),     # the number before the last word
    ("melanocortin receptors", HUMAN, "MC1R"),
    ("lactate dehydrogenase", HUMAN, "LDHA"),     # a lettered series (round 62)
    ("lactate dehydrogenase", RAT, "Ldha"),
    ("monoamine oxidase", HUMAN, "MAOA"),
    ("retinoic acid receptor", HUMAN, "RARA"),    # a Greek-lettered series (round 66)
    ("liver X receptor", HUMAN, "NR1H3"),
    ("talin", HUMAN, "TLN1"),                     # five letters and more (round 70)
    ("filamin", HUMAN, "FLNA"),
    ("sirtuin", HUMAN, "SIRT1"),
    ("alpha-actinin", HUMAN, "ACTN1"),            # a Greek letter before (round 73)
    ("alpha syntrophin", HUMAN, "SNTA1"),
    ("alpha-syntrophin", MOUSE, "Snta1"),
])
def test_the_first_member(text: str, taxon: str, symbol: str) -> None:
    g = default_grounder()
    assert g.symbol(series_member(g, text, taxon)) == symbol


@pytest.mark.parametrize("text", ["kinase", "protein kinase", "receptors", "interleukin",
                                  "caspase", "SOD", "angiotensin-converting enzyme",
                                  "cysteine protease", "metalloprotease",   # designations
                                  # a class, a drug, one word (round 66)
                                  "protein tyrosine phosphatases", "protein kinase inhibitor",
                                  "polymerase",
                                  "alpha-SOD", "beta-kinase"])   # short; no member
def test_no_series(text: str) -> None:
    assert series_member(default_grounder(), text, HUMAN) is None


def test_the_member_the_document_names() -> None:
    g = default_grounder()
    ptgs2 = next(c.id for c in g.ground("PTGS2", HUMAN))
    assert g.symbol(series_member(g, "cyclooxygenase", HUMAN, {ptgs2})) == "PTGS2"


def test_the_lettered_member_the_document_names() -> None:
    g = default_grounder()
    ldhb = next(c.id for c in g.ground("LDHB", HUMAN))
    assert g.symbol(series_member(g, "lactate dehydrogenase", HUMAN, {ldhb})) == "LDHB"


def test_the_member_the_document_names_inside_the_name() -> None:
    g = default_grounder()
    mc4r = next(c.id for c in g.ground("MC4R", HUMAN))
    assert g.symbol(series_member(g, "melanocortin receptor", HUMAN, {mc4r})) == "MC4R"


def test_ground_document_grounds_a_class_name() -> None:
    text = "Superoxide dismutase activity fell in the liver of the mice."
    ents = [Entity(id="T1", type="Protein", spans=[Span(start=0, end=20)])]
    doc = Document(id="d", text=text, sentences=[
        Sentence(id="s0", start=0, end=len(text), text=text, entities=ents)])
    e = ground_document(doc).sentences[0].entities[0]
    assert e.taxon == MOUSE
    assert default_grounder().symbol(e.norm_ids[0]) == "Sod1"
    assert e.ncbi_ids == ["NCBIGene:20655"]
    assert e.norm_confidence is not None and 0 < e.norm_confidence <= 1
    assert SERIES_FACTOR == 0.5


@pytest.mark.parametrize(("text", "mention", "symbol"), [
    ("In patients, serum lactate dehydrogenase was high.", "serum lactate dehydrogenase",
     "LDHA"),
    ("In rats, serum lactate dehydrogenase was high.", "serum lactate dehydrogenase", "Ldha"),
    ("Superoxide dismutase activity fell in patients.", "Superoxide dismutase activity",
     "SOD1"),
])
def test_a_class_name_inside_the_mention_heads_its_series(text: str, mention: str,
                                                          symbol: str) -> None:
    """Round 107: the series is looked up for the name inside the mention too."""
    start = text.index(mention)
    ents = [Entity(id="T1", type="Protein", spans=[Span(start=start, end=start + len(mention))])]
    doc = Document(id="d", text=text, sentences=[
        Sentence(id="s0", start=0, end=len(text), text=text, entities=ents)])
    e = ground_document(doc).sentences[0].entities[0]
    assert e.norm_ids and default_grounder().symbol(e.norm_ids[0]) == symbol
    assert e.norm_confidence is not None and 0 < e.norm_confidence <= 1


def test_a_class_name_inside_a_drug_class_names_no_member() -> None:
    g = default_grounder()
    assert member_inside(g, "serum lactate dehydrogenase", HUMAN) is not None
    assert member_inside(g, "serine/threonine protein kinase inhibitor", HUMAN) is None
    assert member_inside(g, "lactate dehydrogenase inhibitors", HUMAN) is None


def test_a_species_word_names_the_member_species_inside_the_mention() -> None:
    """``human growth hormone`` in a mouse study is the human gene (round 107)."""
    text = "Mice were given human growth hormone and the mice grew."
    start = text.index("human growth hormone")
    ents = [Entity(id="T1", type="Protein", spans=[Span(start=start, end=start + 20)])]
    doc = Document(id="d", text=text, sentences=[
        Sentence(id="s0", start=0, end=len(text), text=text, entities=ents)])
    e = ground_document(doc).sentences[0].entities[0]
    assert default_grounder().symbol(e.norm_ids[0]) == "GH1"
