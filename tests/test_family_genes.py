"""A family mention stands for the members its document names, in document-level gene
relations (docs/genes.md, round 55): relx's own grounding on short texts."""

from __future__ import annotations

import pytest

from relx.doc import Document, Entity
from relx.genes.family_genes import family_genes, keyed_by_document
from relx.genes.members import learned_families
from relx.ppi.gene_relations import gene_key

TEXT = ("Sp proteins bind the VEGF promoter and induce VEGF in bladder cancer cells. "
        "Knockdown of Sp1, Sp3 and Sp4 decreased VEGF expression.")


@pytest.fixture(scope="module")
def grounded():
    import relx

    ex = relx.load(task="ppi", types=False)

    def run(text: str) -> tuple[Document, dict[str, Entity]]:
        doc, _, _ = next(iter(ex.annotate([Document(id="d", text=text)])))
        return doc, {e.text: e for s in doc.sentences for e in s.entities}

    return run


def test_a_family_stands_for_the_members_the_document_names(grounded):
    doc, ents = grounded(TEXT)
    fanned = family_genes(doc, gene_key, learned=learned_families())
    family = ents["Sp proteins"]
    assert fanned[family.id] == ("6667", "6670", "6671")       # SP1, SP3, SP4
    assert ents["VEGF"].id not in fanned       # FamPlex's VEGF family, no member named
    key = keyed_by_document(doc, gene_key, learned_families())
    assert key(family) == ("6667", "6670", "6671")
    assert key(ents["Sp3"]) == gene_key(ents["Sp3"]) == ("6670",)   # a member is itself


def test_one_named_member_is_not_enough(grounded):
    doc, ents = grounded("Sp proteins bind the VEGF promoter. Sp1 was knocked down.")
    assert ents["Sp proteins"].id not in family_genes(doc, gene_key, learned=learned_families())
    key = keyed_by_document(doc, gene_key, learned_families())
    assert key(ents["Sp proteins"]) == gene_key(ents["Sp proteins"])


def test_members_of_the_mentions_own_species_first(grounded):
    doc, ents = grounded("Human Sp proteins bind the VEGF promoter in patients' tumours. "
                         "Sp1 and Sp3 were knocked down in human cells, and mouse Sp1 and "
                         "Sp4 in mouse cells.")
    assert family_genes(doc, gene_key, learned=learned_families())[ents["Sp proteins"].id] == ("6667", "6670")


def test_gene_relations_name_each_member():
    from relx.ppi.gene_relations import load

    ex = load()
    doc, rels, _ = next(iter(ex.annotate([Document(id="d", text=TEXT)])))
    pairs = {frozenset((r.gene1.id, r.gene2.id)) for r in rels}
    vegf = "7422"
    related = {g for p in pairs if vegf in p for g in p} - {vegf}
    assert {"6670", "6671"} <= related, pairs      # SP3 and SP4 through `Sp proteins`
    names = {g.id: g.names for r in rels for g in (r.gene1, r.gene2)}
    assert names["6670"] == ["Sp3", "Sp proteins"]    # its own name first, then the family's


def test_a_family_with_no_learned_member_is_named_as_the_member_the_document_names(grounded):
    # FamPlex's SP family has no learned member (relx/data/family_members.json): its first
    # member would be SP1; the document names Sp3 (round 56)
    doc, ents = grounded("Sp proteins bind the VEGF promoter. Sp3 was knocked down.")
    assert ents["Sp proteins"].norm_ids[0] == "HGNC:11208"          # SP3
    doc, ents = grounded("Sp proteins bind the VEGF promoter.")
    assert ents["Sp proteins"].norm_ids[0] == "HGNC:11205"          # SP1, the first member


def test_a_learned_member_stays_before_the_named_one(grounded):
    # NF-kappaB's learned member is NFKB1, as BioRED's annotators name it, even where the
    # document names p65 (RELA)
    doc, ents = grounded("NF-kappaB activity rose. The p65 subunit moved to the nucleus.")
    assert ents["NF-kappaB"].norm_ids[0] == "HGNC:7794"


def test_a_family_with_a_learned_member_stands_for_that_member_only(grounded):
    # round 57: NF-kappaB's learned member is NFKB1, in the relations as in the mention
    doc, ents = grounded("NF-kappaB activity rose. Its subunits p65 and p50 moved to the "
                         "nucleus, and c-Rel did not.")
    nfkb = ents["NF-kappaB"]
    assert nfkb.id not in family_genes(doc, gene_key, learned=learned_families())
    assert keyed_by_document(doc, gene_key, learned_families())(nfkb) == gene_key(nfkb) == ("4790",)
