"""Rounds 88 and 102: a gene with a protein change written onto it, or joined to it by a
hyphen, is the human gene, in mouse models too (BioRED: human protein numbering)."""

from __future__ import annotations

from relx.genes.lexicon import default_grounder
from relx.genes.species import assign_species
from relx.ids import HUMAN, MOUSE
from tests.test_species import doc_of


def test_a_gene_with_a_protein_change_written_onto_it_is_human() -> None:
    """Round 88: ``KrasG12D`` and ``SOD1G93A`` in mice are the human genes (BioRED's
    ``KrasG12D;Pdx1-Cre mouse``: KRAS); ``Kras`` alone in the same text stays mouse."""
    text = "KrasG12D mice and SOD1G93A mice; Kras and Sod1 were knocked down in mice."
    got = assign_species(doc_of(text, ["Kras", "SOD1", "Kras", "Sod1"]),
                         in_lexicon=default_grounder().in_lexicon)
    assert [a.taxon for a in got.values()] == [HUMAN, HUMAN, MOUSE, MOUSE]


def test_a_gene_a_hyphen_joins_to_a_protein_change_is_human() -> None:
    """Round 102: ``SOD1-G93A`` and ``G93A-SOD1`` mice carry the human gene; a name with
    another word before or after its hyphen (``Sod1-G93``, ``AG93A-Sod1``) stays mouse."""
    text = ("SOD1-G93A mice and G93A-SOD1 mice were studied. Kras-G12D mice grew tumours. "
            "Sod1-G93 and AG93A-Sod1 were knocked down in mice.")
    got = assign_species(doc_of(text, ["SOD1", "SOD1", "Kras", "Sod1", "Sod1"]),
                         in_lexicon=default_grounder().in_lexicon)
    assert [a.taxon for a in got.values()] == [HUMAN, HUMAN, HUMAN, MOUSE, MOUSE]
