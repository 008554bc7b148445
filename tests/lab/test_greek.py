"""lab.genes.greek: BioRED's spelled-out Greek letters written as PubMed writes them."""

from __future__ import annotations

from lab.genes.biored import GoldDoc, GoldMention
from lab.genes.greek import greek_copy, greek_docs, hyphen_docs, new_offset


def test_letter_names_attached_to_names_become_letters() -> None:
    text = "TNF-alpha, IL-1beta and NF-kappaB; beta-catenin; the alphabet; alpha cells."
    new, edits = greek_copy(text)
    assert new == "TNF-α, IL-1β and NF-κB; β-catenin; the alphabet; alpha cells."
    assert new_offset(0, edits) == 0 and new_offset(len(text), edits) == len(new)
    assert new[new_offset(text.index("IL-1"), edits):].startswith("IL-1β")


def test_gold_mentions_follow_their_text() -> None:
    text = "IkappaBalpha binds NF-kappaB."
    doc = GoldDoc("1", text, [GoldMention(0, 12, "IkappaBalpha", frozenset({"4792"})),
                              GoldMention(19, 28, "NF-kappaB", frozenset({"4790"}))])
    (out,) = greek_docs([doc])
    assert out.text == "IκBα binds NF-κB."
    assert [out.text[m.start:m.end] for m in out.genes] == ["IκBα", "NF-κB"]
    assert [m.ids for m in out.genes] == [m.ids for m in doc.genes]
    text = "Protein kinase C alpha-mediated signals."   # the mention ends before the hyphen
    (out,) = greek_docs([GoldDoc("2", text, [GoldMention(0, 22, "Protein kinase C alpha",
                                                         frozenset({"5578"}))])])
    assert out.text[out.genes[0].start:out.genes[0].end] == "Protein kinase C α"


def test_the_hyphen_copy_writes_inner_hyphens_as_u2010() -> None:
    text = "IL-6 and NF-kappaB - not a dash - bind."
    doc = GoldDoc("1", text, [GoldMention(0, 4, "IL-6", frozenset({"3569"}))])
    (out,) = hyphen_docs([doc])
    assert out.text == "IL\u20106 and NF\u2010kappaB - not a dash - bind."
    assert out.genes[0].text == "IL\u20106" and out.genes[0].start == 0
