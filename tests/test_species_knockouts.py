"""Round 99: a gene knocked out in animals the text does not name makes the document mouse."""

from __future__ import annotations

from relx.genes.mention_species import knockout_in_animals
from relx.genes.species import assign_species
from relx.ids import HUMAN, MOUSE
from tests.test_species import doc_of


def test_knockout_in_animals() -> None:
    text = "c-raf-1(-/-) embryos died; Raf-1-deficient littermates; Tax1 embryos; Runx3-/- pups"
    assert knockout_in_animals(text, "c-raf-1", text.index("(-/-)"))
    assert knockout_in_animals(text, "Raf-1", text.index("-deficient"))
    assert not knockout_in_animals(text, "Tax1", text.index(" embryos; R"))   # no marker
    assert knockout_in_animals(text, "Runx3-/-", text.index(" pups"))   # marker in the mention
    cells = "Runx3-/- cells"
    assert not knockout_in_animals(cells, "Runx3", cells.index("-/-"))


def test_an_animal_knockout_makes_a_document_naming_no_organism_mouse() -> None:
    text = ("Here, we report that c-raf-1(-/-) embryos are growth retarded. "
            "Raf-1-deficient fibroblasts are sensitive to Fas activation.")
    got = assign_species(doc_of(text, ["c-raf-1", "Raf-1", "Fas"]))
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in range(3)] == [
        (MOUSE, "knockout"), (MOUSE, "knockout"), (MOUSE, "document")]
    cells = "Runx3-/- cells lacked Tax1."   # cells made so: no animal, human by default
    assert assign_species(doc_of(cells, ["Runx3", "Tax1"]))["T1"].taxon == HUMAN
    named = "In human cells, p53 fell. Runx3-/- embryos lacked Tax1."   # an organism named
    assert assign_species(doc_of(named, ["p53", "Runx3", "Tax1"]))["T2"].taxon == HUMAN
