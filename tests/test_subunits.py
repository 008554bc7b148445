"""relx.genes.subunits: a complex's subunit written by its mass (naming round 90)."""

from __future__ import annotations

import pytest

from relx.genes.document import resolve
from relx.genes.subunits import with_subunits


def span(text: str, word: str) -> tuple[int, int]:
    i = text.index(word)
    return i, i + len(word)


@pytest.mark.parametrize(("text", "first", "joined", "gene"), [
    ("Serum IL-12 p40 was high.", "IL-12", "IL-12 p40", "HGNC:5970"),
    ("IL-23 p19 binds IL-23R.", "IL-23", "IL-23 p19", "HGNC:15488"),
    ("NF-kappaB p65 enters the nucleus.", "NF-kappaB", "NF-kappaB p65", "HGNC:9955"),
])
def test_a_name_and_its_subunit_mass_are_one_mention(text, first, joined, gene):
    tagged = [span(text, first), span(text, joined.split()[-1])]
    assert with_subunits(text, tagged) == [span(text, joined)]
    assert with_subunits(text, tagged[:1]) == [span(text, joined)]    # the mass left out
    assert resolve(joined).ids[0] == gene


def test_no_such_name_leaves_the_mentions_as_they_are():
    text = "IL-12 p70 was secreted, and ERK1 p44 too."
    tagged = [span(text, "IL-12"), span(text, "p70"), span(text, "ERK1")]
    assert with_subunits(text, tagged) == tagged


def test_a_mention_reaching_beyond_the_joined_name_is_left_alone():
    text = "IL-12 p40-deficient mice"
    tagged = [span(text, "IL-12"), span(text, "p40-deficient")]
    assert with_subunits(text, tagged) == tagged
    assert with_subunits(text, tagged[:1]) == [span(text, "IL-12 p40")]


def test_relx_reads_the_subunit_as_one_gene():
    """The issue's example, through the tagger and grounding: ``IL-12 p40`` is IL12B, one
    mention (before round 90: ``IL-12``, a family, and ``p40``, another gene)."""
    import relx
    from relx.doc import Document

    ex = relx.load(task="ppi", types=False)
    text = "Serum IL-12 p40 and IL-23 p19 were higher in patients with psoriasis."
    doc, _, _ = next(iter(ex.annotate([Document(id="d", text=text)])))
    got = {e.text: e.ncbi_ids[:1] for s in doc.sentences for e in s.entities}
    assert got == {"IL-12 p40": ["NCBIGene:3593"], "IL-23 p19": ["NCBIGene:51561"]}


def test_a_mass_tagged_alone_takes_the_word_before_it():
    """Round 90b (probe-47): the tagger tags only ``p19`` of ``persistent IL-23 p19``."""
    text = "Sera showed persistent IL-23 p19 levels, and p19 alone, and cyclin p19."
    tagged = [span(text, "p19"), (text.index("p19 alone"), text.index("p19 alone") + 3),
              (text.rindex("p19"), text.rindex("p19") + 3)]
    got = with_subunits(text, tagged)
    assert got == [span(text, "IL-23 p19"), *tagged[1:]]
